/* The report command's parts (report_parts.c): the sweep figure the library's page
 * (gc_report_write) asks for, drawn by gnuplot. */
#ifndef GPUCACHE_REPORT_PARTS_H
#define GPUCACHE_REPORT_PARTS_H

#include "cli.h"
#include "gpucache/gpucache_pictures.h"

#include <stdio.h>

/* The sweep's layouts for a mesh (optimal and striped are for generated grids only). */
#define SWEEP_LAYOUTS "original,tipsify,forsyth,auto"

/* What the sweep figure needs besides the mesh, and its exit status. */
typedef struct report_sweep {
    const char* model_spec;
    const gc_model* model;
    long threads;
    int status; /* non-zero: the sweep failed and said so */
} report_sweep;

/* The sweep of the mesh `tri` (dense ids below vertex_count) for `model`, drawn by gnuplot
 * into `f`, or a note saying why there is none. Non-zero only when the sweep failed. */
int sweep_figure(FILE* f, const char* name, const uint32_t* tri, size_t n, uint32_t vertex_count,
                 const char* model_spec, const gc_model* model, uint32_t lo, uint32_t hi, long threads);
/* sweep_figure as the library's gc_report_figure_fn (user: a report_sweep). */
gc_status report_sweep_figure(void* user, FILE* f, const char* name, const uint32_t* triangles, size_t index_count,
                              uint32_t vertex_count, uint32_t cache_lo, uint32_t cache_hi, gc_error* err);

#endif
