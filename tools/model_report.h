// SPDX-License-Identifier: MIT
/* What analyze collects for each model beside the library's report, and the per-vertex
 * CSV (model_report.c). */
#ifndef GPUCACHE_MODEL_REPORT_H
#define GPUCACHE_MODEL_REPORT_H

#include "gpucache/gpucache.h"

#include "cli.h"

#include <stdio.h>

typedef struct model_result {
    gc_model model;
    gc_stats stats;
    double seconds; /* < 0: not measured */
    gc_per_vertex per_vertex;
    gc_strbuf trace;
} model_result;

/* Per-vertex CSV: index, then one column of invocation counts per model. */
int write_per_vertex_csv(const char* path, const model_result* results, int count);

#endif
