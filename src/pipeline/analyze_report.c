// SPDX-License-Identifier: MIT
/* analyze's report (gpucache_io.h): the models' table or JSON for a gc_mesh_analysis, with
 * the overdraw and fetch beside them and the presets' meshlet rows; the model rows are
 * demo's too (gpucache_private.h). */
#include "pipeline.h"
#include "../strbuf.h"
#include "../table.h"
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gc_table_column model_columns[] = {
    {"layout", 10, 0}, {"model", 32, 0}, {"invocations", 12, 1}, {"ACMR", 9, 1}, {"ATVR", 9, 1}, {"batches", 9, 1},
};

void gc_model_table_init(struct gc_table* t, int with_layout)
{
    size_t n = sizeof model_columns / sizeof model_columns[0];
    gc_table_init(t, with_layout ? model_columns : model_columns + 1, with_layout ? n : n - 1, "");
}

void gc_model_table_add(struct gc_table* t, const char* layout, const gc_model* m, const gc_stats* s,
                        double seconds)
{
    char name[96]; /* a preset: what it stands for */
    gc_model_label(m, name, sizeof name);
    char invocations[24], acmr[32], atvr[32], batches[24], tail[48];
    snprintf(invocations, sizeof invocations, "%llu", (unsigned long long)s->invocations);
    snprintf(acmr, sizeof acmr, "%.4f", s->acmr);
    snprintf(atvr, sizeof atvr, "%.4f", s->atvr);
    if (s->has_batches)
        snprintf(batches, sizeof batches, "%llu", (unsigned long long)s->batches);
    else
        snprintf(batches, sizeof batches, "-");
    if (seconds >= 0)
        snprintf(tail, sizeof tail, "  %.6f s", seconds);
    const char* cells[] = {layout, name, invocations, acmr, atvr, batches};
    gc_table_row(t, layout ? cells : cells + 1, seconds >= 0 ? tail : NULL);
}

void gc_model_json(struct gc_strbuf* j, const gc_model* m, const gc_stats* s, double seconds,
                   const char* fetch_spec, const gc_fetch_stats* fetch, const char* trace)
{
    gc_sb_printf(j, "{\"model\": ");
    gc_sb_json_string(j, m->name);
    gc_sb_printf(j, ", \"family\": \"%s\", \"invocations\": %llu, \"acmr\": " JSON_FLOAT ", \"atvr\": " JSON_FLOAT
                    ", \"batches\": ",
                 gc_model_family_name(m->family), (unsigned long long)s->invocations, JF(s->acmr), JF(s->atvr));
    if (s->has_batches)
        gc_sb_printf(j, "%llu", (unsigned long long)s->batches);
    else
        gc_sb_printf(j, "null");
    if (seconds >= 0)
        gc_sb_printf(j, ", \"seconds\": " JSON_FLOAT, JF(seconds));
    else
        gc_sb_printf(j, ", \"seconds\": null");
    gc_family_traits t;
    gc_model_traits(m, &t);
    if (t.resets_field)
        gc_sb_printf(j, ", \"%s\": %llu", t.resets_field, (unsigned long long)s->resets);
    if (t.fill_slots) {
        double fill = s->batches ? (double)s->slots_filled / ((double)s->batches * t.fill_slots) : 0.0;
        gc_sb_printf(j, ", \"state_change_flushes\": %llu, \"map_mode_batches\": %llu, \"mean_fill\": " JSON_FLOAT,
                     (unsigned long long)s->state_change_flushes, (unsigned long long)s->map_mode_batches, JF(fill));
    }
    if (fetch) {
        gc_sb_printf(j, ", \"fetch\": {\"spec\": ");
        gc_sb_json_string(j, fetch_spec);
        gc_sb_printf(j, ", \"bytes\": %llu, \"overfetch\": " JSON_FLOAT, (unsigned long long)fetch->bytes,
                     JF(fetch->overfetch));
        gc_sb_printf(j, ", \"memory_bytes\": %llu", (unsigned long long)fetch->memory_bytes);
        gc_sb_printf(j, "}");
    }
    if (trace)
        gc_sb_printf(j, ", \"trace\": [%s]", trace);
    gc_sb_printf(j, "}");
}

/* ------------------------------------------------------------------ trace and timing */

void gc_trace_collect(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    gc_trace_sink* t = user;
    if (t->json) {
        gc_sb_printf(t->out, t->first ? "[" : ", [");
        t->first = 0;
    } else {
        gc_sb_printf(t->out, "%llu: [", (unsigned long long)primitive);
    }
    for (size_t i = 0; i < count; ++i)
        gc_sb_printf(t->out, i ? ", %lld" : "%lld", (long long)entries[i]);
    gc_sb_printf(t->out, t->json ? "]" : "]\n");
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

gc_status gc_analyze_median_seconds(const gc_model* m, const gc_draw* d, const gc_analyze_options* base,
                                    long repeat, double* seconds, gc_error* err)
{
    double* samples = malloc((size_t)repeat * sizeof *samples);
    if (!samples)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for %ld timing samples", repeat);
    gc_analyze_options o = {0};
    o.state_changes = base->state_changes;
    o.state_change_count = base->state_change_count;
    for (long i = 0; i < repeat; ++i) {
        gc_stats st;
        double t0 = gc_now_seconds();
        gc_status s = gc_analyze(m, d, &o, &st, err);
        samples[i] = gc_now_seconds() - t0;
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

/* ------------------------------------------------------------------ the report */

static const char* mode_name(int mode)
{
    static const char* const names[7] = {"points",    "lines",          "line-loop",  "line-strip",
                                         "triangles", "triangle-strip", "triangle-fan"};
    return mode >= 0 && mode < 7 ? names[mode] : "?";
}

static const char* index_type(int bits)
{
    return bits == 8 ? "u8" : bits == 16 ? "u16" : bits == 32 ? "u32" : "none";
}

static int is_triangles(gc_topology t)
{
    return t == GC_TRIANGLE_LIST || t == GC_TRIANGLE_STRIP || t == GC_TRIANGLE_FAN;
}

/* Model m's figures over the whole input: the sums (a glTF) or the one draw's. */
static const gc_stats* whole_stats(const gc_analyze_report* r, size_t m)
{
    return r->per_draw ? &r->analysis->sums[m] : &r->analysis->draws[0].stats[m];
}

static double seconds_of(const gc_analyze_report* r, size_t m)
{
    return r->seconds ? r->seconds[m] : -1;
}

/* The fetch of model m over the whole input when the spec follows the model, else NULL. */
static const gc_fetch_stats* model_fetch(const gc_analyze_report* r, size_t m)
{
    const gc_mesh_vertex_costs* c = r->costs;
    if (!c || !c->has_fetch || (r->fetch && r->fetch->every_reference) || m >= c->model_count)
        return NULL;
    return &c->fetch[m];
}

static void json_models(gc_strbuf* j, const gc_analyze_report* r)
{
    gc_sb_printf(j, "\"models\": [");
    for (size_t m = 0; m < r->model_count; ++m) {
        if (m)
            gc_sb_printf(j, ", ");
        gc_model_json(j, &r->models[m], whole_stats(r, m), seconds_of(r, m), r->fetch_text, model_fetch(r, m),
                      r->traces ? r->traces[m] : NULL);
    }
    gc_sb_printf(j, "]");
}

static void json_overdraw(gc_strbuf* j, const gc_overdraw_stats* o)
{
    gc_sb_printf(j, ", \"overdraw\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT "}",
                 (unsigned long long)o->covered, (unsigned long long)o->shaded, JF(o->ratio));
}

static void json_costs(gc_strbuf* j, const gc_analyze_report* r)
{
    const gc_mesh_vertex_costs* c = r->costs;
    if (!c)
        return;
    if (c->has_overdraw)
        json_overdraw(j, &c->overdraw);
    if (c->has_fetch && (r->fetch && r->fetch->every_reference)) {
        gc_sb_printf(j, ", \"fetch\": {\"spec\": ");
        gc_sb_json_string(j, r->fetch_text);
        gc_sb_printf(j, ", \"bytes\": %llu, \"overfetch\": " JSON_FLOAT "}", (unsigned long long)c->fetch[0].bytes,
                     JF(c->fetch[0].overfetch));
    }
}

/* One glTF draw's JSON object; *triangle_draw counts the triangle draws before it. */
static gc_status json_draw(gc_strbuf* j, const gc_analyze_report* r, size_t i, size_t* triangle_draw,
                           gc_error* err)
{
    const gc_mesh_draw* d = &r->analysis->draws[i];
    const gc_mesh_vertex_costs* c = r->costs;
    gc_sb_printf(j, "%s{\"mesh\": %zu, \"mesh_name\": ", i ? ", " : "", d->mesh);
    if (d->mesh_name)
        gc_sb_json_string(j, d->mesh_name);
    else
        gc_sb_printf(j, "null");
    gc_sb_printf(j, ", \"primitive\": %zu, \"mode\": \"%s\", \"index_type\": \"%s\", \"indices\": %zu, "
                    "\"primitives\": %llu, \"vertices\": %llu, \"models\": [",
                 d->primitive, mode_name(d->mode), index_type(d->index_bits), d->index_count,
                 (unsigned long long)d->primitives, (unsigned long long)d->vertices);
    int triangles = is_triangles(d->topology);
    for (size_t m = 0; m < r->model_count; ++m) {
        const gc_fetch_stats* fetch = NULL;
        if (triangles && c && c->draw_fetch && *triangle_draw < c->draw_count)
            fetch = &c->draw_fetch[*triangle_draw * r->model_count + m];
        if (m)
            gc_sb_printf(j, ", ");
        gc_model_json(j, &r->models[m], &d->stats[m], -1, r->fetch_text, fetch, NULL);
    }
    gc_sb_printf(j, "]");
    if (triangles) {
        if (c && c->has_overdraw && *triangle_draw < c->draw_count)
            json_overdraw(j, &c->draw_overdraw[*triangle_draw]);
        ++*triangle_draw;
    }
    /* the presets' meshlet costs of this draw (issue 31 item 2), as for any other file */
    gc_draw one = {d->indices, d->index_count, d->topology, 0, 0};
    char* rows = NULL;
    gc_status s = gc_draw_meshlet_report(&one, 1, &rows, err);
    if (s == GC_OK)
        gc_sb_printf(j, "%s}", rows);
    free(rows);
    return s;
}

static gc_status print_json(FILE* f, const gc_analyze_report* r, const char* meshlet_rows, gc_error* err)
{
    const gc_mesh_analysis* a = r->analysis;
    gc_strbuf j = {0};
    if (r->per_draw) /* a glTF's document has no version member (as it always had) */
        gc_sb_printf(&j, "{");
    else
        gc_sb_json_open(&j);
    gc_sb_printf(&j, "\"input\": ");
    gc_sb_json_string(&j, r->input);
    if (r->per_draw) {
        gc_sb_printf(&j, ", \"topology\": \"%s\", \"restart\": null, \"indices\": %llu, \"primitives\": %llu, "
                         "\"vertices\": %llu, ",
                     a->draw_count && !a->mixed ? gc_topology_name(a->topology) : "mixed",
                     (unsigned long long)a->indices, (unsigned long long)a->primitives,
                     (unsigned long long)a->vertices);
        json_models(&j, r);
        json_costs(&j, r);
        gc_sb_printf(&j, ", \"draws\": [");
        size_t triangle_draw = 0;
        for (size_t i = 0; i < a->draw_count; ++i)
            if (json_draw(&j, r, i, &triangle_draw, err)) {
                free(j.data);
                return err->code;
            }
        gc_sb_printf(&j, "]}\n");
    } else {
        const gc_mesh_draw* d = &a->draws[0];
        gc_sb_printf(&j, ", \"topology\": \"%s\", \"restart\": ", gc_topology_name(d->topology));
        if (d->restart_enabled)
            gc_sb_printf(&j, "%u", d->restart_value);
        else
            gc_sb_printf(&j, "null");
        gc_sb_printf(&j, ", \"indices\": %zu, \"primitives\": %llu, \"vertices\": %llu, ", d->index_count,
                     (unsigned long long)d->primitives, (unsigned long long)d->vertices);
        json_models(&j, r);
        json_costs(&j, r);
        gc_sb_printf(&j, "%s}\n", meshlet_rows);
    }
    return gc_sb_write(&j, f, err);
}

static void copy_printable(char* out, size_t size, const char* in)
{
    size_t k = 0;
    for (; in[k] && k + 1 < size; ++k)
        out[k] = (unsigned char)in[k] < 0x20 || in[k] == 0x7f ? '?' : in[k];
    out[k] = 0;
}

static void print_costs(FILE* f, const gc_analyze_report* r)
{
    const gc_mesh_vertex_costs* c = r->costs;
    if (!c)
        return;
    if (c->has_overdraw)
        fprintf(f, "overdraw: %llu pixels covered, %llu shaded, %.4f (docs/models/overdraw.md)\n",
                (unsigned long long)c->overdraw.covered, (unsigned long long)c->overdraw.shaded, c->overdraw.ratio);
    if (!c->has_fetch)
        return;
    if ((r->fetch && r->fetch->every_reference)) {
        fprintf(f, "fetch %s: %llu bytes, overfetch %.4f (every index reference; docs/models/fetch.md)\n",
                r->fetch_text, (unsigned long long)c->fetch[0].bytes, c->fetch[0].overfetch);
        return;
    }
    fprintf(f, "fetch %s (the vertices each model shades; docs/models/fetch.md):\n", r->fetch_text);
    for (size_t m = 0; m < r->model_count && m < c->model_count; ++m) {
        const gc_fetch_stats* s = &c->fetch[m];
        char name[64];
        copy_printable(name, sizeof name, r->models[m].name);
        fprintf(f, "  %-40s %12llu bytes  overfetch %.4f", name, (unsigned long long)s->bytes, s->overfetch);
        if (r->fetch && r->fetch->level_count > 1)
            fprintf(f, "  %12llu bytes from memory", (unsigned long long)s->memory_bytes);
        fprintf(f, "\n");
    }
}

static gc_status print_text(FILE* f, const gc_analyze_report* r, const char* meshlet_rows, gc_error* err)
{
    const gc_mesh_analysis* a = r->analysis;
    if (r->per_draw) {
        fprintf(f, "%s: glTF, %zu draws (mesh primitives)\n", r->input, a->draw_count);
        fprintf(f, "%5s  %-24s %5s  %-15s %-5s %12s %12s %12s\n", "draw", "mesh", "prim", "mode", "index", "indices",
                "primitives", "vertices");
        for (size_t i = 0; i < a->draw_count; ++i) {
            const gc_mesh_draw* d = &a->draws[i];
            /* a name is printed with its control characters replaced (it is the file's text) */
            char name[25];
            copy_printable(name, sizeof name, d->mesh_name ? d->mesh_name : "-");
            fprintf(f, "%5zu  %-24s %5zu  %-15s %-5s %12zu %12llu %12llu\n", i, name, d->primitive,
                    mode_name(d->mode), index_type(d->index_bits), d->index_count,
                    (unsigned long long)d->primitives, (unsigned long long)d->vertices);
        }
        fprintf(f, "sum over %zu draws: %llu indices, %llu primitives, %llu vertices\n", a->draw_count,
                (unsigned long long)a->indices, (unsigned long long)a->primitives, (unsigned long long)a->vertices);
    } else {
        const gc_mesh_draw* d = &a->draws[0];
        fprintf(f, "%s: %s, %zu indices, %llu primitives, %llu vertices%s\n", r->input,
                gc_topology_name(d->topology), d->index_count, (unsigned long long)d->primitives,
                (unsigned long long)d->vertices, d->restart_enabled ? ", with restart" : "");
    }
    gc_table t;
    gc_model_table_init(&t, 0);
    for (size_t m = 0; m < r->model_count; ++m)
        gc_model_table_add(&t, NULL, &r->models[m], whole_stats(r, m), seconds_of(r, m));
    int printed = gc_table_print(f, &t);
    gc_table_free(&t);
    if (printed)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for a table");
    print_costs(f, r);
    if (r->per_draw)
        return GC_OK;
    fputs(meshlet_rows, f);
    /* traces last, so that the output ends with the final cache state */
    for (size_t m = 0; r->traces && m < r->model_count; ++m)
        fprintf(f, "# trace %s: cache after each primitive\n%s", r->models[m].name,
                r->traces[m] ? r->traces[m] : "");
    return GC_OK;
}

gc_status gc_analyze_report_print(FILE* f, const gc_analyze_report* r, int json, gc_error* err)
{
    if (!r->analysis || (r->analysis->draw_count == 0 && !r->per_draw))
        return gc_fail(err, GC_ERR_USAGE, "analyze's report: no draw to report");
    char* meshlet_rows = NULL; /* the presets' meshlet costs of the one draw (issue 31 item 2) */
    if (!r->per_draw) {
        const gc_mesh_draw* d = &r->analysis->draws[0];
        gc_draw draw = {d->indices, d->index_count, d->topology, d->restart_enabled, d->restart_value};
        gc_status s = gc_draw_meshlet_report(&draw, json, &meshlet_rows, err);
        if (s) {
            free(meshlet_rows);
            return s;
        }
    }
    gc_status s = json ? print_json(f, r, meshlet_rows, err) : print_text(f, r, meshlet_rows, err);
    free(meshlet_rows);
    return s;
}
