// SPDX-License-Identifier: MIT
/* Printing what models did with a draw (see model_report.h), for analyze and demo. */
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

static const table_column model_columns[] = {
    {"layout", 10, 0}, {"model", 32, 0}, {"invocations", 12, 1}, {"ACMR", 9, 1}, {"ATVR", 9, 1}, {"batches", 9, 1},
};

void model_table_init(table* t, int with_layout)
{
    size_t n = sizeof model_columns / sizeof model_columns[0];
    table_init(t, with_layout ? model_columns : model_columns + 1, with_layout ? n : n - 1, "");
}

void model_table_add(table* t, const char* layout, const model_result* r)
{
    char name[96]; /* a preset: what it stands for */
    gc_model_label(&r->model, name, sizeof name);
    char invocations[24], acmr[32], atvr[32], batches[24], tail[48];
    snprintf(invocations, sizeof invocations, "%llu", (unsigned long long)r->stats.invocations);
    snprintf(acmr, sizeof acmr, "%.4f", r->stats.acmr);
    snprintf(atvr, sizeof atvr, "%.4f", r->stats.atvr);
    if (r->stats.has_batches)
        snprintf(batches, sizeof batches, "%llu", (unsigned long long)r->stats.batches);
    else
        snprintf(batches, sizeof batches, "-");
    if (r->seconds >= 0)
        snprintf(tail, sizeof tail, "  %.6f s", r->seconds);
    const char* cells[] = {layout, name, invocations, acmr, atvr, batches};
    table_row(t, layout ? cells : cells + 1, r->seconds >= 0 ? tail : NULL);
}

int print_model_table(FILE* f, const model_result* results, int count)
{
    table t;
    model_table_init(&t, 0);
    for (int i = 0; i < count; ++i)
        model_table_add(&t, NULL, &results[i]);
    int s = table_print(f, &t);
    table_free(&t);
    return s ? EXIT_DATA : 0;
}

void json_model(strbuf* j, const model_result* r)
{
    const gc_stats* s = &r->stats;
    sb_printf(j, "{\"model\": ");
    sb_json_string(j, r->model.name);
    sb_printf(j, ", \"family\": \"%s\", \"invocations\": %llu, \"acmr\": " JSON_FLOAT ", \"atvr\": " JSON_FLOAT ", \"batches\": ",
              gc_model_family_name(r->model.family), (unsigned long long)s->invocations, JF(s->acmr), JF(s->atvr));
    if (s->has_batches)
        sb_printf(j, "%llu", (unsigned long long)s->batches);
    else
        sb_printf(j, "null");
    if (r->seconds >= 0)
        sb_printf(j, ", \"seconds\": " JSON_FLOAT, JF(r->seconds));
    else
        sb_printf(j, ", \"seconds\": null");
    gc_family_traits t;
    gc_model_traits(&r->model, &t);
    if (t.resets_field)
        sb_printf(j, ", \"%s\": %llu", t.resets_field, (unsigned long long)s->resets);
    if (t.fill_slots) {
        double fill = s->batches ? (double)s->slots_filled / ((double)s->batches * t.fill_slots) : 0.0;
        sb_printf(j, ", \"state_change_flushes\": %llu, \"map_mode_batches\": %llu, \"mean_fill\": " JSON_FLOAT,
                  (unsigned long long)s->state_change_flushes, (unsigned long long)s->map_mode_batches, JF(fill));
    }
    if (r->fetch) {
        sb_printf(j, ", \"fetch\": {\"spec\": ");
        sb_json_string(j, r->fetch_spec);
        sb_printf(j, ", \"bytes\": %llu, \"overfetch\": " JSON_FLOAT, (unsigned long long)r->fetch->bytes,
                  JF(r->fetch->overfetch));
        sb_printf(j, ", \"memory_bytes\": %llu", (unsigned long long)r->fetch->memory_bytes);
        sb_printf(j, "}");
    }
    if (r->trace.data)
        sb_printf(j, ", \"trace\": [%s]", r->trace.data);
    sb_printf(j, "}");
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
