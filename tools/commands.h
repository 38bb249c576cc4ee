/* The commands of the gpucache tool, one file each. */
#ifndef GPUCACHE_COMMANDS_H
#define GPUCACHE_COMMANDS_H

#include <stdint.h>
#include <stdio.h>

void print_help(FILE* f);
int cmd_probe(int argc, char** argv);
int cmd_introspect(int argc, char** argv);
int cmd_fit(int argc, char** argv);
int cmd_optimize(int argc, char** argv);
int cmd_grid(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_memsys(int argc, char** argv);
/* probe --suite: measures the standard cases and writes them to out_path (JSON). */
int run_suite(uint32_t device, const char* model_spec, const char* out_path);

#endif
