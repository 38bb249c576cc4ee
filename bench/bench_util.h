// SPDX-License-Identifier: MIT
/* Timing helpers and the corpus loader shared by the benchmark programs. */
#ifndef GPUCACHE_BENCH_UTIL_H
#define GPUCACHE_BENCH_UTIL_H

#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* The median of n samples (sorts them). */
static inline double median(double* v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A mesh file as the triangle list a renderer draws (strips, fans and quads expanded) into
 * a new array *out (free it) of *n indices, and its vertex count (largest index + 1).
 * Returns 0, or -1 after printing "skipping PATH: why" on stderr. */
static inline int bench_load_triangles(const char* path, uint32_t** out, size_t* n, uint32_t* vertices)
{
    gc_mesh gm;
    gc_error err;
    if (gc_mesh_load(path, NULL, &gm, &err)) {
        fprintf(stderr, "skipping %s: %s\n", path, err.message);
        return -1;
    }
    gc_draw d = {gm.indices, gm.index_count, gm.topology, gm.restart_enabled, gm.restart_value};
    uint64_t prims = 0;
    uint32_t* tri = NULL;
    *n = 0;
    /* 6 indices a primitive: a quad is two triangles */
    if (gc_draw_validate(&d, path, &prims, &err) || !(tri = malloc(prims * 6 * sizeof *tri + 4)) ||
        gc_draw_triangles(&d, tri, prims * 6, n, &err)) {
        fprintf(stderr, "skipping %s: %s\n", path, tri ? err.message : "out of memory");
        free(tri);
        gc_mesh_free(&gm);
        return -1;
    }
    gc_mesh_free(&gm);
    uint32_t v = 0;
    for (size_t k = 0; k < *n; ++k)
        v = tri[k] + 1 > v ? tri[k] + 1 : v;
    *out = tri;
    *vertices = v;
    return 0;
}

#endif
