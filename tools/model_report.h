// SPDX-License-Identifier: MIT
/* What analyze collects for each model beside the library's report: the traces, the
 * timings and the per-vertex CSV (model_report.c). */
#ifndef GPUCACHE_MODEL_REPORT_H
#define GPUCACHE_MODEL_REPORT_H

#include "gpucache/gpucache.h"

#include "cli.h"
#include "table.h"

#include <stdio.h>

/* Collects trace lines: "N: [a, b, c]" lines for the table, or a JSON array of arrays. */
typedef struct trace_sink {
    strbuf* out;
    int json;
    int first;
} trace_sink;

void trace_line(void* user, uint64_t primitive, const int64_t* entries, size_t count);

typedef struct model_result {
    gc_model model;
    gc_stats stats;
    double seconds; /* < 0: not measured */
    gc_per_vertex per_vertex;
    strbuf trace;
} model_result;

/* Median seconds of `repeat` plain passes (no per-vertex counts, no trace). */
gc_status time_model(const gc_model* m, const gc_draw* d, const gc_analyze_options* base, long repeat,
                     double* seconds, gc_error* err);
/* Per-vertex CSV: index, then one column of invocation counts per model. */
int write_per_vertex_csv(const char* path, const model_result* results, int count);

#endif
