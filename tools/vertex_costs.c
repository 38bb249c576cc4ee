// SPDX-License-Identifier: MIT
/* analyze --overdraw and --fetch SPEC (vertex_costs.h). */
#include "vertex_costs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vertex_costs_compute(vertex_costs* vc, const char* path, const gc_load_options* lo, model_result* results,
                         int model_count)
{
    if (!vc->overdraw && !vc->fetch_text)
        return 0;
    gc_model* models = calloc((size_t)model_count + 1, sizeof *models);
    if (!models) {
        fprintf(stderr, "gpucache: out of memory\n");
        return EXIT_DATA;
    }
    for (int m = 0; m < model_count; ++m)
        models[m] = results[m].model;
    gc_error err = {0};
    gc_status s = gc_mesh_vertex_costs_of(path, lo, vc->overdraw, vc->fetch_text ? &vc->fetch : NULL, models,
                                          (size_t)model_count, &vc->costs, &err);
    free(models);
    if (s)
        return fail_with(&err);
    if (vc->costs.has_fetch && !vc->fetch.every_reference)
        for (int m = 0; m < model_count && (size_t)m < vc->costs.model_count; ++m) {
            results[m].fetch = &vc->costs.fetch[m];
            results[m].fetch_spec = vc->fetch_text;
        }
    return 0;
}

static void json_overdraw(strbuf* j, const gc_overdraw_stats* o)
{
    sb_printf(j, "{\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT "}", (unsigned long long)o->covered,
              (unsigned long long)o->shaded, JF(o->ratio));
}

void vertex_costs_json(strbuf* j, const vertex_costs* vc)
{
    if (vc->costs.has_overdraw) {
        sb_printf(j, ", \"overdraw\": ");
        json_overdraw(j, &vc->costs.overdraw);
    }
    if (vc->costs.has_fetch && vc->fetch.every_reference) {
        const gc_fetch_stats* f = &vc->costs.fetch[0];
        sb_printf(j, ", \"fetch\": {\"spec\": ");
        sb_json_string(j, vc->fetch_text);
        sb_printf(j, ", \"bytes\": %llu, \"overfetch\": " JSON_FLOAT "}", (unsigned long long)f->bytes,
                  JF(f->overfetch));
    }
}

void vertex_costs_json_draw(strbuf* j, const vertex_costs* vc, size_t triangle_draw)
{
    if (vc->costs.has_overdraw && triangle_draw < vc->costs.draw_count) {
        sb_printf(j, ", \"overdraw\": ");
        json_overdraw(j, &vc->costs.draw_overdraw[triangle_draw]);
    }
}

void vertex_costs_print(FILE* f, const vertex_costs* vc, const model_result* results, int model_count)
{
    if (vc->costs.has_overdraw)
        fprintf(f, "overdraw: %llu pixels covered, %llu shaded, %.4f (docs/models/overdraw.md)\n",
                (unsigned long long)vc->costs.overdraw.covered, (unsigned long long)vc->costs.overdraw.shaded,
                vc->costs.overdraw.ratio);
    if (!vc->costs.has_fetch)
        return;
    if (vc->fetch.every_reference) {
        fprintf(f, "fetch %s: %llu bytes, overfetch %.4f (every index reference; docs/models/fetch.md)\n",
                vc->fetch_text, (unsigned long long)vc->costs.fetch[0].bytes, vc->costs.fetch[0].overfetch);
        return;
    }
    fprintf(f, "fetch %s (the vertices each model shades; docs/models/fetch.md):\n", vc->fetch_text);
    for (int m = 0; m < model_count && (size_t)m < vc->costs.model_count; ++m) {
        const gc_fetch_stats* s = &vc->costs.fetch[m];
        char name[64];
        copy_printable(name, sizeof name, results[m].model.name);
        fprintf(f, "  %-40s %12llu bytes  overfetch %.4f", name, (unsigned long long)s->bytes, s->overfetch);
        if (vc->fetch.level_count > 1)
            fprintf(f, "  %12llu bytes from memory", (unsigned long long)s->memory_bytes);
        fprintf(f, "\n");
    }
}

void vertex_costs_free(vertex_costs* vc)
{
    gc_mesh_vertex_costs_free(&vc->costs);
}
