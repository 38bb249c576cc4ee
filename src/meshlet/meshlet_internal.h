/* Shared inside src/meshlet/. */
#ifndef GPUCACHE_MESHLET_INTERNAL_H
#define GPUCACHE_MESHLET_INTERNAL_H

#include "../internal.h"

/* The meshlet grower (meshlet_grow.c): writes to `order` (triangle_count entries) a
 * triangle order whose scan with limits v_max / t_max gives compact meshlets, each closed
 * only when no remaining triangle fits it. indices validated by the caller. */
gc_status gc_meshlet_grow(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t v_max,
                          uint32_t t_max, uint32_t* order, gc_error* err);

#endif
