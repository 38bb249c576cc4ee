// SPDX-License-Identifier: MIT
/* gpucache sweep's outputs (gpucache_probe.h): the rows as CSV, and the table of each
 * layout's best cache size or the rows as JSON. */
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_probe.h"

#include <string.h>

/* A CSV field, quoted (quotes doubled) when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE* f, const char* text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char* p = text; *p; ++p) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* The model's name in the rows: "device" for one measured on the device. */
static const char* row_model(const gc_sweep* s, size_t k)
{
    return s->on_device && s->on_device[k] ? "device" : s->models[k].name;
}

void gc_sweep_csv(FILE* f, const gc_sweep* s, const gc_sweep_row* rows)
{
    const size_t caches = (size_t)(s->cache_hi - s->cache_lo + 1), per_mesh = s->layout_count * caches;
    const size_t jobs = s->mesh_count * per_mesh;
    fprintf(f, "mesh,layout,cache,model,invocations,atvr,acmr,triangles,vertices\n");
    for (size_t job = 0; job < jobs; ++job)
        for (size_t k = 0; k < s->model_count; ++k) {
            const gc_sweep_row* r = &rows[job * s->model_count + k];
            if (!r->valid)
                continue;
            csv_field(f, s->meshes[job / per_mesh].name);
            fprintf(f, ",%s,%u,", gc_sweep_layout_name(s->layouts[(job % per_mesh) / caches]),
                    s->cache_lo + (uint32_t)(job % caches));
            csv_field(f, row_model(s, k));
            fprintf(f, ",%llu,%.6f,%.6f,%llu,%llu\n", (unsigned long long)r->invocations, r->atvr, r->acmr,
                    (unsigned long long)r->triangles, (unsigned long long)r->vertices);
        }
}

gc_status gc_sweep_print(FILE* f, const gc_sweep* s, const char* const* labels, const gc_sweep_row* rows, int json,
                         gc_error* err)
{
    const size_t caches = (size_t)(s->cache_hi - s->cache_lo + 1), per_mesh = s->layout_count * caches;
    const size_t jobs = s->mesh_count * per_mesh;
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"cache\": [%u, %u], \"rows\": [", s->cache_lo, s->cache_hi);
        int first = 1;
        for (size_t job = 0; job < jobs; ++job)
            for (size_t k = 0; k < s->model_count; ++k) {
                const gc_sweep_row* r = &rows[job * s->model_count + k];
                if (!r->valid)
                    continue;
                gc_sb_printf(&j, "%s{\"mesh\": ", first ? "" : ", ");
                gc_sb_json_string(&j, s->meshes[job / per_mesh].name);
                gc_sb_printf(&j, ", \"layout\": \"%s\", \"cache\": %u, \"model\": ",
                             gc_sweep_layout_name(s->layouts[(job % per_mesh) / caches]),
                             s->cache_lo + (uint32_t)(job % caches));
                gc_sb_json_string(&j, row_model(s, k));
                gc_sb_printf(&j, ", \"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}",
                             (unsigned long long)r->invocations, JF(r->atvr), JF(r->acmr));
                first = 0;
            }
        gc_sb_printf(&j, "]}\n");
        return gc_sb_write(&j, f, err);
    }
    /* The best cache size of each layout, per mesh and model. */
    fprintf(f, "%-24s %-32s %-9s %10s %8s\n", "mesh", "model", "layout", "best cache", "ATVR");
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t k = 0; k < s->model_count; ++k)
            for (size_t li = 0; li < s->layout_count; ++li) {
                double best = 0;
                uint32_t at = 0;
                for (uint32_t cs = s->cache_lo; cs <= s->cache_hi; ++cs) {
                    size_t job = mi * per_mesh + li * caches + (cs - s->cache_lo);
                    const gc_sweep_row* r = &rows[job * s->model_count + k];
                    if (r->valid && (at == 0 || r->atvr < best)) {
                        best = r->atvr;
                        at = cs;
                    }
                }
                if (at)
                    fprintf(f, "%-24s %-32s %-9s %10u %8.4f\n", s->meshes[mi].name, labels[k],
                            gc_sweep_layout_name(s->layouts[li]), at, best);
            }
    return GC_OK;
}
