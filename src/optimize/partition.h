// SPDX-License-Identifier: MIT
/* A triangle list cut into parts (partition.c, issue 33 item 3): part after part, a
 * breadth-first walk over the triangles that share a vertex and are in no part yet, from one
 * seed (the oldest triangle left in the previous part's queue; the first part, or where a
 * walk runs out, the lowest-numbered triangle in no part of the component being walked, else
 * of the next component, by first triangle), until the part has its size. The
 * parts depend on the list alone, never on the thread count, so that orders made part by
 * part on any number of threads are the same. */
#ifndef GPUCACHE_PARTITION_H
#define GPUCACHE_PARTITION_H

#include "optimize.h"

/* At most this many parts (more asked: this many). */
#define GC_PARTITION_MAX 254

typedef struct gc_partition {
    size_t count;    /* parts */
    uint32_t* walk;  /* every triangle once: part p is walk[start[p] .. start[p + 1]), in increasing number */
    size_t* start;   /* count + 1 entries: start[0] = 0, start[count] = the triangle count */
} gc_partition;

/* Cuts the list into `parts` parts, part p ending at about (p + 1) * T / parts triangles: at
 * the end of a connected component where one ends within a quarter of a part of that (the
 * components taken in the order of their first triangles), else there. Where
 * align > 1, every cut falls where offset + the triangles before it is a multiple of align
 * (llvmpipe's segments of align triangles: each part then starts a segment), the last such
 * place at or before that cut; a cut that would leave a part empty is dropped (fewer
 * parts; more parts than triangles are as many parts as triangles). GC_ERR_NOMEM, or GC_OK
 * with *out to free.
 * Memory (T triangles, V vertices, C components; bytes): *out's walk 4T, and at the peak
 * max(14T + 9V, 26T + 5V) + 8C with the walk: per triangle its component (then the queue)
 * and the triangles by component, 8T; per triangle its state and part and per vertex its
 * mark, 2T + V; the union-find's 8V, freed before the adjacency (gc_adjacency_build's 12T +
 * 4V, built only where a component must be walked); 8 per component. Time: O(T + V) for the
 * components and the cuts, and each part's walk expands a vertex at most once, rescanning its
 * list: O(parts x T) at worst (a vertex on every triangle, rescanned by each part), O(T) on a
 * surface (each part scans its own triangles and a seam). */
gc_status gc_partition_make(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, size_t parts,
                            uint64_t offset, uint32_t align, gc_partition* out, gc_error* err);
void gc_partition_free(gc_partition* p);

#endif
