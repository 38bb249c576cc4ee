// SPDX-License-Identifier: MIT
/* Timing helpers and the corpus loader shared by the benchmark programs. */
#ifndef GPUCACHE_BENCH_UTIL_H
#define GPUCACHE_BENCH_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* One level of midpoint subdivision of the triangle list *idx (*n indices over *vertices
 * vertices), in place: triangle (a, b, c) becomes (a, ab, ca), (ab, b, bc), (ca, bc, c),
 * (ab, bc, ca), where an edge's midpoint is numbered from *vertices up in the order the
 * edges are first met. The midpoints are found by an open-addressed hash of the edge
 * (4 x the triangles' slots at most: 12 bytes each), so memory stays bounded by the mesh.
 * With xyz (may be NULL), *xyz holds the *vertices positions (3 floats each) and is replaced
 * by a new array (the old one freed) with each midpoint's position after them.
 * (bench_speed's --subdivide, device_orders', bench_meshlets_speed's.) Returns false when out
 * of memory or past 2^32 vertices (the mesh is then unchanged). */
static inline bool bench_subdivide_xyz(uint32_t** idx, size_t* n, uint32_t* vertices, float** xyz)
{
    size_t tri = *n / 3, cap = 1;
    while (cap < 4 * tri) /* at most 3 x tri edges: load factor under 3/4 */
        cap *= 2;
    if ((uint64_t)*vertices + 3 * (uint64_t)tri > UINT32_MAX)
        return false;
    uint64_t* keys = calloc(cap, sizeof *keys); /* (min << 32 | max) + 1; 0 is empty */
    uint32_t* vals = malloc(cap * sizeof *vals);
    uint32_t* out = malloc(12 * tri * sizeof *out + 4);
    float* pos = xyz ? malloc(((size_t)*vertices + 3 * tri) * 3 * sizeof *pos + 4) : NULL;
    if (!keys || !vals || !out || (xyz && !pos)) {
        free(keys), free(vals), free(out), free(pos);
        return false;
    }
    if (pos)
        memcpy(pos, *xyz, (size_t)*vertices * 3 * sizeof *pos);
    uint32_t next = *vertices;
    for (size_t t = 0; t < tri; ++t) {
        const uint32_t* c = *idx + 3 * t;
        uint32_t m[3];
        for (int e = 0; e < 3; ++e) {
            uint32_t a = c[e], b = c[(e + 1) % 3];
            uint64_t key = (a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a) + 1;
            size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
            while (keys[h] && keys[h] != key)
                h = (h + 1) & (cap - 1);
            if (!keys[h]) {
                keys[h] = key;
                if (pos)
                    for (int k = 0; k < 3; ++k)
                        pos[3 * (size_t)next + k] = 0.5f * (pos[3 * (size_t)a + k] + pos[3 * (size_t)b + k]);
                vals[h] = next++;
            }
            m[e] = vals[h];
        }
        const uint32_t q[12] = {c[0], m[0], m[2], m[0], c[1], m[1], m[2], m[1], c[2], m[0], m[1], m[2]};
        memcpy(out + 12 * t, q, sizeof q);
    }
    free(keys), free(vals), free(*idx);
    if (pos)
        free(*xyz), *xyz = pos;
    *idx = out, *n = 12 * tri, *vertices = next;
    return true;
}

/* bench_subdivide_xyz without positions. */
static inline bool bench_subdivide(uint32_t** idx, size_t* n, uint32_t* vertices)
{
    return bench_subdivide_xyz(idx, n, vertices, NULL);
}

#endif
