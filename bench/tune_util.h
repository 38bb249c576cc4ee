// SPDX-License-Identifier: MIT
/* What the table tuners (tune_scores, tune_batch_told, tune_flush) share: the corpus meshes
 * they train and hold out on, --half's choice of the training ones, and a row's copy stored or
 * shuffled with meshoptimizer's order of it. Each helper prints "PROGRAM: WHAT: WHY" on
 * standard error and exits 1 when it fails: these are developer tools. */
#ifndef GPUCACHE_TUNE_UTIL_H
#define GPUCACHE_TUNE_UTIL_H

#include "bench_util.h"
#include "optimize/optimize.h"

/* The corpus meshes, sorted by name. */
static const char* const tune_mesh_names[] = {
    "alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",    "fandisk.obj",
    "homer.obj",     "igea.ply",       "ogre.obj",        "rocker-arm.obj", "spot.obj",
    "stanford-bunny.obj", "suzanne.obj", "teapot.obj",    "woody.obj"};
enum { TUNE_MESHES = sizeof tune_mesh_names / sizeof tune_mesh_names[0] };

static inline void tune_die(const char* program, const char* what, const char* message)
{
    fprintf(stderr, "%s: %s: %s\n", program, what, message);
    exit(1);
}

/* Whether mesh i of tune_mesh_names trains under --half `half`: even, the 1st, 3rd, ... of
 * the names; odd, the others; all, every one. Any other `half` ends the program. */
static inline int tune_training(const char* program, const char* half, int i)
{
    if (strcmp(half, "even") && strcmp(half, "odd") && strcmp(half, "all"))
        tune_die(program, "--half", "must be even, odd or all");
    return strcmp(half, "all") == 0 || (i % 2 == 0) == (strcmp(half, "even") == 0);
}

/* Mesh i of tune_mesh_names in folder `corpus` as a triangle list (bench_load_triangles:
 * *indices malloc'ed, *index_count, *vertex_count); a mesh that does not load ends the program. */
static inline void tune_load(const char* program, const char* corpus, int i, uint32_t** indices, size_t* index_count,
                             uint32_t* vertex_count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", corpus, tune_mesh_names[i]);
    if (bench_load_triangles(path, indices, index_count, vertex_count))
        tune_die(program, path, "cannot load it");
}

/* A malloc'ed copy of the index_count indices, their triangles shuffled when `shuffled`
 * (gc_shuffle_triangles, seed 7, as bench_speed shuffles them), and in *reference (malloc'ed)
 * meshoptimizer's order of the copy (gc_opt_score_table with gc_meshopt_scores: the order
 * meshopt_optimizeVertexCache gives on the corpus). */
static inline uint32_t* tune_row_copy(const char* program, const uint32_t* indices, size_t index_count,
                                      uint32_t vertex_count, int shuffled, uint32_t** reference)
{
    uint32_t* copy = malloc(index_count * sizeof *copy + 4);
    *reference = malloc(index_count / 3 * sizeof **reference + 4);
    if (!copy || !*reference)
        tune_die(program, "rows", "out of memory");
    memcpy(copy, indices, index_count * sizeof *indices);
    if (shuffled)
        gc_shuffle_triangles(copy, index_count, 7);
    gc_error err;
    if (gc_opt_score_table(copy, index_count / 3, vertex_count, &gc_meshopt_scores, *reference, &err))
        tune_die(program, "meshoptimizer's order", err.message);
    return copy;
}

#endif
