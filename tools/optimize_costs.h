/* optimize's overdraw and vertex fetch before and after (optimize_costs.c). */
#ifndef GPUCACHE_OPTIMIZE_COSTS_H
#define GPUCACHE_OPTIMIZE_COSTS_H

#include "gpucache_private.h"

typedef struct optimize_costs {
    int has_overdraw; /* the input has positions (OBJ, PLY) */
    gc_overdraw_stats overdraw_before, overdraw_after;
    const char* fetch_spec; /* meshopt:BYTES (optimize --fetch, default meshopt:32) */
    gc_fetch_stats fetch_before, fetch_after;
} optimize_costs;

/* The overdraw (where `path` has positions) and the fetch under `spec` (every reference) of
 * the input's triangle list and of the output's as it will be written: its vertices
 * renumbered in order of first use when `reorder`. Nothing is set where it cannot be
 * counted (an index buffer has no positions); returns 0, or GC_ERR_* with err set. */
gc_status optimize_costs_of(const char* path, const gc_load_options* lo, const gc_mesh_optimized* r, int reorder,
                            const char* spec_text, const gc_fetch_spec* spec, optimize_costs* out, gc_error* err);

#endif
