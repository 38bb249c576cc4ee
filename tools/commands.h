/* The commands of the gpucache tool, one file each (cmd_*.c), called by main (gpucache.c). */
#ifndef GPUCACHE_COMMANDS_H
#define GPUCACHE_COMMANDS_H

#include "gpucache/gpucache.h"

#include <stdint.h>
#include <stdio.h>

int cmd_analyze(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_models(int argc, char** argv);
int cmd_probe(int argc, char** argv);
/* probe --overdraw (probe_overdraw.c): the overdraw views on device `device`. */
int probe_overdraw(const char* path, uint32_t device, int json, const gc_load_options* lo);
int cmd_introspect(int argc, char** argv);
int cmd_fit(int argc, char** argv);
int cmd_optimize(int argc, char** argv);
int cmd_meshlets(int argc, char** argv);
int cmd_grid(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_validate(int argc, char** argv);
int cmd_memsys(int argc, char** argv);
int cmd_report(int argc, char** argv);

/* glTF inputs (cmd_analyze.c): whether a path names a .gltf or .glb file, the JSON names of
 * a primitive's mode and index type, and a gc_note_fn printing "gpucache: LINE" on stderr. */
int is_gltf_path(const char* path);
const char* gltf_mode_name(int mode);
const char* gltf_index_type(int bits);
void print_note(void* user, const char* line);
/* Adds one draw's stats to a sum over draws (a glTF's primitives, cmd_analyze.c): counts
 * added, has_batches the last draw's, ACMR and ATVR recomputed from the sums. */
void add_draw_stats(gc_stats* sum, const gc_stats* s);

/* What a glTF's primitives add up to, beside the models' sums (gltf_sum_stats). */
typedef struct gltf_totals {
    size_t draws;                           /* mesh primitives */
    uint64_t indices, primitives, vertices; /* summed over the draws, as analyze --json */
    uint64_t triangles;                     /* of the triangle primitives (strips, fans expanded) */
    int mixed;                              /* the draws' topologies differ */
    gc_topology topology;                   /* the first draw's */
} gltf_totals;

/* Every model on every primitive of `doc`, each primitive its own draw with its own
 * topology (validated, errors naming `path`), summed with add_draw_stats into sums[0 ..
 * count): what `analyze --json` prints for a glTF (cmd_analyze.c). Draws of 2^16 indices
 * or more run the models on `threads` threads. With `totals`, the draws' own sums too.
 * Returns 0 or the exit status after printing one line. */
int gltf_sum_stats(const gc_gltf* doc, const char* path, const gc_model* models, size_t count, unsigned threads,
                   gc_stats* sums, gltf_totals* totals);

/* optimize's pass over a glTF document in memory (cmd_optimize.c): every indexed triangle
 * list whose index data may be rewritten (not indices_kept, not sharing an earlier one's)
 * reordered on its own by `algorithm` with `base` (first_use_numbering = reorder) and put
 * back with gc_gltf_set_indices; strips, fans, non-indexed lists and kept index data left
 * as they are, each with a line on stderr when `say`; with `reorder`, then
 * gc_gltf_reorder_vertices. *triangles and *runs count what was reordered, *left what was
 * left. Nothing is written. Returns 0 or the exit status after printing one line. */
int optimize_gltf_primitives(gc_gltf* doc, const char* path, gc_optimizer algorithm, const gc_optimize_options* base,
                             int reorder, int say, size_t* triangles, size_t* runs, size_t* left);
/* The positions of the mesh file `path` for optimize's overdraw pass (optimize_positions.c),
 * one x, y, z per dense vertex id (values: compact_indices' ascending values, or NULL) into a
 * new *out (free it). No positions (an index buffer): *out NULL and 0, or with `required`
 * one line and EXIT_USAGE. */
int optimize_positions(const char* path, const gc_load_options* lo, const uint32_t* values, uint32_t vertex_count,
                       int required, float** out);

#endif
