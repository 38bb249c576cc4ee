// SPDX-License-Identifier: MIT
/* What the analyze and demo commands print for each model: the table rows, the JSON
 * objects, the traces and the per-vertex CSV (model_report.c). */
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
    const char* fetch_spec;      /* --fetch SPEC of a model-dependent spec, else NULL */
    const gc_fetch_stats* fetch; /* this model's fetch under it */
} model_result;

/* Median seconds of `repeat` plain passes (no per-vertex counts, no trace). */
gc_status time_model(const gc_model* m, const gc_draw* d, const gc_analyze_options* base, long repeat,
                     double* seconds, gc_error* err);
/* The model table (table.h): model, invocations, ACMR, ATVR, batches (and the median seconds
 * after the row when measured), with a layout column first when with_layout. */
void model_table_init(table* t, int with_layout);
void model_table_add(table* t, const char* layout, const model_result* r);
/* The table of `count` results on f; EXIT_DATA when out of memory. */
int print_model_table(FILE* f, const model_result* results, int count);
void json_model(strbuf* j, const model_result* r);
/* Per-vertex CSV: index, then one column of invocation counts per model. */
int write_per_vertex_csv(const char* path, const model_result* results, int count);

#endif
