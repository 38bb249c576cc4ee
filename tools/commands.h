/* The commands of the gpucache tool, one file each (cmd_*.c), called by main (gpucache.c). */
#ifndef GPUCACHE_COMMANDS_H
#define GPUCACHE_COMMANDS_H

#include <stdint.h>
#include <stdio.h>

int cmd_analyze(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_models(int argc, char** argv);
int cmd_probe(int argc, char** argv);
int cmd_introspect(int argc, char** argv);
int cmd_fit(int argc, char** argv);
int cmd_optimize(int argc, char** argv);
int cmd_grid(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_memsys(int argc, char** argv);
int cmd_report(int argc, char** argv);

/* glTF inputs (cmd_analyze.c): whether a path names a .gltf or .glb file, the JSON names of
 * a primitive's mode and index type, and a gc_note_fn printing "gpucache: LINE" on stderr. */
int is_gltf_path(const char* path);
const char* gltf_mode_name(int mode);
const char* gltf_index_type(int bits);
void print_note(void* user, const char* line);

#endif
