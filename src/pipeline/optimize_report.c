// SPDX-License-Identifier: MIT
/* optimize's report (gpucache_private.h): the overdraw and the vertex fetch before and after
 * (the library's gc_analyze_overdraw and gc_analyze_fetch on the input and output lists),
 * and the table or JSON of every preset and target before and after. */
#include "pipeline.h"
#include "../strbuf.h"
#include "../table.h"
#include "gpucache_private.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_optimize_costs_of(const char* path, const gc_load_options* lo, const gc_mesh_optimized* r, int reorder,
                            const char* spec_text, const gc_fetch_spec* spec, gc_optimize_costs* out, gc_error* err)
{
    /* the counts are gc_mesh_optimized_costs_of's; this adds the spec's text for the table */
    memset(out, 0, sizeof *out);
    gc_mesh_optimized_costs c;
    gc_status s = gc_mesh_optimized_costs_of(path, lo, r, reorder, spec, &c, err);
    if (s)
        return s;
    out->has_overdraw = c.has_overdraw;
    out->overdraw_before = c.overdraw_before, out->overdraw_after = c.overdraw_after;
    out->fetch_before = c.fetch_before, out->fetch_after = c.fetch_after;
    out->fetch_spec = c.has_fetch ? spec_text : NULL;
    return GC_OK;
}

gc_status gc_optimize_report_print(FILE* f, const gc_optimize_report* r, int json, gc_error* err)
{
    const size_t preset_count = r->preset_count, target_count = r->target_count;
    const size_t row_count = preset_count + target_count;
    const gc_model* presets = r->presets;
    const gc_stats* before = r->before;
    const gc_stats* after = r->after;
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"input\": ");
        gc_sb_json_string(&j, r->input);
        gc_sb_printf(&j, ", \"output\": ");
        gc_sb_json_string(&j, r->output);
        gc_sb_printf(&j, ", \"algorithm\": \"%s\", \"triangles\": %zu, \"runs\": %zu, \"seconds\": " JSON_FLOAT ", \"models\": [",
                  gc_optimizer_name(r->algorithm), r->triangles, r->runs, JF(r->seconds));
        for (size_t i = 0; i < row_count; ++i) {
            if (i == preset_count)
                gc_sb_printf(&j, "], \"targets\": [");
            gc_sb_printf(&j,
                      "%s{\"model\": \"%s\", \"before\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}, "
                      "\"after\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}}",
                      i && i != preset_count ? ", " : "", presets[i].name, (unsigned long long)before[i].invocations,
                      JF(before[i].atvr), JF(before[i].acmr), (unsigned long long)after[i].invocations,
                      JF(after[i].atvr), JF(after[i].acmr));
        }
        if (target_count == 0)
            gc_sb_printf(&j, "], \"targets\": [");
        gc_sb_printf(&j, "]");
        const gc_optimize_costs* c = r->costs;
        if (c && c->has_overdraw)
            gc_sb_printf(&j,
                      ", \"overdraw\": {\"before\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT
                      "}, \"after\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT "}}",
                      (unsigned long long)c->overdraw_before.covered, (unsigned long long)c->overdraw_before.shaded,
                      JF(c->overdraw_before.ratio), (unsigned long long)c->overdraw_after.covered,
                      (unsigned long long)c->overdraw_after.shaded, JF(c->overdraw_after.ratio));
        if (c && c->fetch_spec) {
            gc_sb_printf(&j, ", \"fetch\": {\"spec\": ");
            gc_sb_json_string(&j, c->fetch_spec);
            gc_sb_printf(&j,
                      ", \"before\": {\"bytes\": %llu, \"overfetch\": " JSON_FLOAT "}, \"after\": {\"bytes\": %llu, "
                      "\"overfetch\": " JSON_FLOAT "}}",
                      (unsigned long long)c->fetch_before.bytes, JF(c->fetch_before.overfetch),
                      (unsigned long long)c->fetch_after.bytes, JF(c->fetch_after.overfetch));
        }
        gc_sb_printf(&j, "}\n");
        return gc_sb_write(&j, f, err);
    } else {
        fprintf(f, "%s -> %s: %s, %zu triangles%s%s in %.3f s\n", r->input, r->output, gc_optimizer_name(r->algorithm),
               r->triangles, r->runs > 1 ? " in separate runs" : "", r->reorder ? ", vertices reordered" : "",
               r->seconds);
        if (r->note)
            fprintf(f, "%s\n", r->note);
        static const gc_table_column columns[] = {{"model", 34, 0}, {"before", 12, 1}, {"ATVR", 8, 1},
                                               {"after", 12, 1},  {"ATVR", 8, 1},   {"change", 8, 1}};
        gc_table t; /* widths: table.h */
        gc_table_init(&t, columns, 6, "");
        for (size_t i = 0; i < row_count; ++i) {
            char label[96];
            if (i < preset_count) {
                const char *pname, *spec, *source;
                gc_preset_get(i, &pname, &spec, &source);
                snprintf(label, sizeof label, "%s (%s)", pname, spec);
            } else {
                snprintf(label, sizeof label, "target %s", presets[i].name);
            }
            double change = before[i].invocations
                                ? 100.0 * ((double)after[i].invocations - (double)before[i].invocations) /
                                      (double)before[i].invocations
                                : 0.0;
            char b[24], batvr[32], a[24], aatvr[32], c[40];
            snprintf(b, sizeof b, "%llu", (unsigned long long)before[i].invocations);
            snprintf(batvr, sizeof batvr, "%.4f", before[i].atvr);
            snprintf(a, sizeof a, "%llu", (unsigned long long)after[i].invocations);
            snprintf(aatvr, sizeof aatvr, "%.4f", after[i].atvr);
            snprintf(c, sizeof c, "%+7.1f%%", change);
            const char* cells[] = {label, b, batvr, a, aatvr, c};
            gc_table_row(&t, cells, NULL);
        }
        const gc_optimize_costs* oc = r->costs;
        if (oc && oc->has_overdraw) {
            char b[32], a[32], c[40];
            snprintf(b, sizeof b, "%.4f", oc->overdraw_before.ratio);
            snprintf(a, sizeof a, "%.4f", oc->overdraw_after.ratio);
            snprintf(c, sizeof c, "%+7.1f%%",
                     100.0 * (oc->overdraw_after.ratio - oc->overdraw_before.ratio) / oc->overdraw_before.ratio);
            const char* cells[] = {"overdraw (shaded / covered)", b, "-", a, "-", c};
            gc_table_row(&t, cells, NULL);
        }
        if (oc && oc->fetch_spec) {
            char label[96], b[24], bo[32], a[24], ao[32], c[40];
            snprintf(label, sizeof label, "bytes fetched (%s)", oc->fetch_spec);
            double change = oc->fetch_before.bytes ? 100.0 * ((double)oc->fetch_after.bytes -
                                                              (double)oc->fetch_before.bytes) /
                                                         (double)oc->fetch_before.bytes
                                                   : 0.0;
            snprintf(b, sizeof b, "%llu", (unsigned long long)oc->fetch_before.bytes);
            snprintf(bo, sizeof bo, "%.4f", oc->fetch_before.overfetch);
            snprintf(a, sizeof a, "%llu", (unsigned long long)oc->fetch_after.bytes);
            snprintf(ao, sizeof ao, "%.4f", oc->fetch_after.overfetch);
            snprintf(c, sizeof c, "%+7.1f%%", change);
            const char* cells[] = {label, b, bo, a, ao, c};
            gc_table_row(&t, cells, NULL);
        }
        int printed = gc_table_print(f, &t);
        gc_table_free(&t);
        if (printed)
            return gc_fail(err, GC_ERR_NOMEM, "out of memory for a table");
    }
    return GC_OK;
}

