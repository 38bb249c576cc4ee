// SPDX-License-Identifier: MIT
/* Shared inside src/meshlet/. */
#ifndef GPUCACHE_MESHLET_INTERNAL_H
#define GPUCACHE_MESHLET_INTERNAL_H

#include "../internal.h"

/* How the grower ranks the vertices outside a meshlet (meshlet_grow.c). */
typedef struct gc_meshlet_grow_style {
    uint32_t rest_cap; /* by gain, then the fewest triangles left once closed, up to this many (at most 15) */
    int balance;       /* instead: by twice the gain less the triangles left */
    int corner;        /* the first seed at a vertex with the fewest triangles (else the first triangle) */
    uint32_t early;    /* non-zero: with one vertex slot left, close rather than take a vertex that
                          closes at most this many triangles and has more left */
} gc_meshlet_grow_style;

/* The meshlet grower (meshlet_grow.c): writes to `order` (triangle_count entries) a
 * triangle order whose scan with limits v_max / t_max gives compact meshlets, each closed
 * only when no remaining triangle fits it. indices validated by the caller. */
gc_status gc_meshlet_grow(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t v_max,
                          uint32_t t_max, const gc_meshlet_grow_style* style, uint32_t* order, gc_error* err);

#endif
