// SPDX-License-Identifier: MIT
/* analyze on a .gltf/.glb (analyze_gltf.h): the library's gc_mesh_analyze, printed as a
 * table or as analyze --json. */
#include "analyze_gltf.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

static const char* gltf_mode_name(int mode)
{
    static const char* const names[7] = {"points",    "lines",          "line-loop",  "line-strip",
                                         "triangles", "triangle-strip", "triangle-fan"};
    return mode >= 0 && mode < 7 ? names[mode] : "?";
}

static const char* gltf_index_type(int bits)
{
    return bits == 8 ? "u8" : bits == 16 ? "u16" : bits == 32 ? "u32" : "none";
}

/* analyze on a .gltf/.glb: every mesh primitive is a draw of its own indices with the
 * topology of its mode (gc_mesh_analyze); one row (JSON object) per draw, and the sums. */
int analyze_gltf(const char* path, const gc_load_options* lo, model_result* results, int model_count,
                        unsigned threads, int json, const vertex_costs* vc)
{
    gc_error err = {0};
    gc_model* models = calloc((size_t)model_count + 1, sizeof *models);
    if (!models) {
        fprintf(stderr, "gpucache: out of memory\n");
        return EXIT_DATA;
    }
    for (int m = 0; m < model_count; ++m)
        models[m] = results[m].model;
    gc_mesh_analysis a;
    gc_status s = gc_mesh_analyze(path, lo, models, (size_t)model_count, threads, &a, &err);
    free(models);
    if (s)
        return fail_with(&err);
    for (int m = 0; m < model_count; ++m)
        results[m].stats = a.sums[m];
    strbuf draws = {0};
    size_t triangle_draw = 0; /* the triangle draws, as vc counts them */
    if (!json) {
        printf("%s: glTF, %zu draws (mesh primitives)\n", path, a.draw_count);
        printf("%5s  %-24s %5s  %-15s %-5s %12s %12s %12s\n", "draw", "mesh", "prim", "mode", "index", "indices",
               "primitives", "vertices");
    }
    for (size_t i = 0; i < a.draw_count; ++i) {
        const gc_mesh_draw* d = &a.draws[i];
        if (json) {
            sb_printf(&draws, "%s{\"mesh\": %zu, \"mesh_name\": ", i ? ", " : "", d->mesh);
            if (d->mesh_name)
                sb_json_string(&draws, d->mesh_name);
            else
                sb_printf(&draws, "null");
            sb_printf(&draws, ", \"primitive\": %zu, \"mode\": \"%s\", \"index_type\": \"%s\", \"indices\": %zu, "
                              "\"primitives\": %llu, \"vertices\": %llu, \"models\": [",
                      d->primitive, gltf_mode_name(d->mode), gltf_index_type(d->index_bits), d->index_count,
                      (unsigned long long)d->primitives, (unsigned long long)d->vertices);
            for (int m = 0; m < model_count; ++m) {
                model_result one = {0};
                one.model = results[m].model;
                one.stats = d->stats[m];
                one.seconds = -1;
                int triangles = d->topology == GC_TRIANGLE_LIST || d->topology == GC_TRIANGLE_STRIP ||
                                d->topology == GC_TRIANGLE_FAN;
                if (triangles && vc->costs.draw_fetch && triangle_draw < vc->costs.draw_count) {
                    one.fetch = &vc->costs.draw_fetch[triangle_draw * (size_t)model_count + (size_t)m];
                    one.fetch_spec = vc->fetch_text;
                }
                if (m)
                    sb_printf(&draws, ", ");
                json_model(&draws, &one);
            }
            sb_printf(&draws, "]");
            if (d->topology == GC_TRIANGLE_LIST || d->topology == GC_TRIANGLE_STRIP || d->topology == GC_TRIANGLE_FAN)
                vertex_costs_json_draw(&draws, vc, triangle_draw++);
            /* the presets' meshlet costs of this draw (issue 31 item 2), as for any other file */
            gc_draw one_draw = {d->indices, d->index_count, d->topology, 0, 0};
            char* meshlet_rows = NULL;
            if (gc_draw_meshlet_report(&one_draw, 1, &meshlet_rows, &err) != GC_OK) {
                free(meshlet_rows), free(draws.data), gc_mesh_analysis_free(&a);
                return fail_with(&err);
            }
            sb_printf(&draws, "%s}", meshlet_rows);
            free(meshlet_rows);
        } else {
            /* a name is printed with its control characters replaced (it is the file's text) */
            char name[25];
            copy_printable(name, sizeof name, d->mesh_name ? d->mesh_name : "-");
            printf("%5zu  %-24s %5zu  %-15s %-5s %12zu %12llu %12llu\n", i, name, d->primitive,
                   gltf_mode_name(d->mode), gltf_index_type(d->index_bits), d->index_count,
                   (unsigned long long)d->primitives, (unsigned long long)d->vertices);
        }
    }
    int status = 0;
    if (json) {
        strbuf j = {0};
        sb_printf(&j, "{\"input\": ");
        sb_json_string(&j, path);
        sb_printf(&j, ", \"topology\": \"%s\", \"restart\": null",
                  a.draw_count && !a.mixed ? gc_topology_name(a.topology) : "mixed");
        sb_printf(&j, ", \"indices\": %llu, \"primitives\": %llu, \"vertices\": %llu, \"models\": [",
                  (unsigned long long)a.indices, (unsigned long long)a.primitives, (unsigned long long)a.vertices);
        for (int m = 0; m < model_count; ++m) {
            if (m)
                sb_printf(&j, ", ");
            json_model(&j, &results[m]);
        }
        sb_printf(&j, "]");
        vertex_costs_json(&j, vc);
        sb_printf(&j, ", \"draws\": [%s]}\n", draws.data ? draws.data : "");
        j.failed |= draws.failed;
        status = print_json_document(&j);
    } else {
        printf("sum over %zu draws: %llu indices, %llu primitives, %llu vertices\n", a.draw_count,
               (unsigned long long)a.indices, (unsigned long long)a.primitives, (unsigned long long)a.vertices);
        status = print_model_table(stdout, results, model_count);
        if (!status)
            vertex_costs_print(stdout, vc, results, model_count);
    }
    free(draws.data);
    gc_mesh_analysis_free(&a);
    return status;
}
