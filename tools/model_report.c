// SPDX-License-Identifier: MIT
/* What analyze collects for each model beside the library's report (model_report.h). */
#define _POSIX_C_SOURCE 200809L
#include "model_report.h"
#include "gpucache/gpucache_validate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ trace */

void trace_line(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    trace_sink* t = user;
    if (t->json) {
        sb_printf(t->out, t->first ? "[" : ", [");
        t->first = 0;
    } else {
        sb_printf(t->out, "%llu: [", (unsigned long long)primitive);
    }
    for (size_t i = 0; i < count; ++i)
        sb_printf(t->out, i ? ", %lld" : "%lld", (long long)entries[i]);
    sb_printf(t->out, t->json ? "]" : "]\n");
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Median seconds of `repeat` plain passes (no per-vertex counts, no trace). */
gc_status time_model(const gc_model* m, const gc_draw* d, const gc_analyze_options* base, long repeat,
                            double* seconds, gc_error* err)
{
    double* samples = malloc((size_t)repeat * sizeof *samples);
    if (!samples) {
        snprintf(err->message, sizeof err->message, "out of memory for %ld timing samples", repeat);
        err->code = GC_ERR_NOMEM;
        return GC_ERR_NOMEM;
    }
    gc_analyze_options o = {0};
    o.state_changes = base->state_changes;
    o.state_change_count = base->state_change_count;
    for (long i = 0; i < repeat; ++i) {
        gc_stats st;
        double t0 = now_seconds();
        gc_status s = gc_analyze(m, d, &o, &st, err);
        samples[i] = now_seconds() - t0;
        if (s) {
            free(samples);
            return s;
        }
    }
    qsort(samples, (size_t)repeat, sizeof *samples, compare_double);
    *seconds = repeat % 2 ? samples[repeat / 2] : 0.5 * (samples[repeat / 2 - 1] + samples[repeat / 2]);
    free(samples);
    return GC_OK;
}

/* Per-vertex CSV: index, then one column of invocation counts per model. */
int write_per_vertex_csv(const char* path, const model_result* results, int count)
{
    atomic_file af;
    if (atomic_open(&af, path) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", path, strerror(errno));
        return EXIT_DATA;
    }
    fprintf(af.f, "index");
    for (int i = 0; i < count; ++i)
        fprintf(af.f, ",%s", results[i].model.name);
    fprintf(af.f, "\n");
    size_t rows = count ? results[0].per_vertex.count : 0;
    for (size_t v = 0; v < rows; ++v) {
        fprintf(af.f, "%u", results[0].per_vertex.values[v]);
        for (int i = 0; i < count; ++i)
            fprintf(af.f, ",%u", results[i].per_vertex.counts[v]);
        fprintf(af.f, "\n");
    }
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", path, strerror(errno));
        return EXIT_DATA;
    }
    return 0;
}
