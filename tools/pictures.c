// SPDX-License-Identifier: MIT
/* analyze --heatmap and --trace-plot (pictures.h, docs/pictures.md): the library draws
 * them (gpucache_pictures.h); this file puts them in their file and prints what failed. */
#include "pictures.h"

#include "cli.h"
#include "picture_file.h"

#include <stdlib.h>

int heatmap_view_parse(const char* name, void* out)
{
    gc_error err = {0};
    return gc_heatmap_view_parse(name, out, &err) == GC_OK ? 0 : -1;
}

/* The heat map's failure: the library's own checks of the draw name --heatmap. */
static int heatmap_failed(const gc_error* err)
{
    if (err->code != GC_ERR_DATA)
        return fail_with(err);
    fprintf(stderr, "gpucache: --heatmap: %s\n", err->message);
    return EXIT_DATA;
}

int write_heatmap(const char* out_path, const char* mesh_path, const gc_load_options* lo, const char* name,
                  const gc_model* model, const gc_draw* draw, const size_t* runs, size_t run_count,
                  const gc_analyze_options* base, heatmap_view view, uint32_t scale_max)
{
    gc_error err = {0};
    float* xyz = NULL;
    size_t vertex_count = 0;
    if (gc_mesh_load_positions(mesh_path, lo, &xyz, &vertex_count, &err)) {
        fprintf(stderr, "gpucache: --heatmap: %s\n", err.message);
        return EXIT_DATA;
    }
    int status = draw_heatmap(NULL, out_path, xyz, vertex_count, name, model, draw, runs, run_count, base, view,
                              scale_max, HEATMAP_MAX_TRIANGLES);
    free(xyz);
    return status;
}

int draw_heatmap(FILE* into, const char* out_path, const float* xyz, size_t vertex_count, const char* name,
                 const gc_model* model, const gc_draw* draw, const size_t* runs, size_t run_count,
                 const gc_analyze_options* base, heatmap_view view, uint32_t scale_max, size_t max_triangles)
{
    gc_error err = {0};
    gc_heatmap_options o = {0};
    o.view = view;
    o.scale_max = scale_max;
    o.max_triangles = max_triangles;
    o.inline_svg = into != NULL;
    o.runs = runs;
    o.run_count = run_count;
    o.base = base;
    if (into)
        return gc_heatmap_write(into, xyz, vertex_count, name, model, draw, &o, &err) ? heatmap_failed(&err) : 0;
    picture_file af;
    int status = picture_open(&af, out_path);
    if (status)
        return status;
    if (gc_heatmap_write(af.f, xyz, vertex_count, name, model, draw, &o, &err)) {
        picture_abort(&af);
        return heatmap_failed(&err);
    }
    return picture_commit(&af);
}

int write_trace_plot(const char* out_path, const char* name, const gc_model* model, const gc_draw* draw,
                     const gc_analyze_options* base, uint64_t from, uint64_t count)
{
    gc_error err = {0};
    gc_timeline_info info;
    char text[200];
    picture_file af;
    int status = picture_open(&af, out_path);
    if (status)
        return status;
    if (gc_timeline_write(af.f, name, model, draw, base, from, count, &info, &err) == GC_OK)
        return picture_commit(&af);
    picture_abort(&af);
    if (err.code == GC_ERR_USAGE && info.primitives && from >= info.primitives) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)info.primitives);
        return usage_error("--from is past the draw's last primitive (it has %s)", text);
    }
    if (err.code == GC_ERR_LIMIT && info.slots) {
        snprintf(text, sizeof text, "--trace-plot: %.60s lists %zu entries: %llu primitives are %llu cells, more than %u; "
                                    "give --count %llu or less",
                 model->name, info.slots, (unsigned long long)info.count, (unsigned long long)(info.slots * info.count),
                 (unsigned)TRACE_PLOT_MAX_CELLS, (unsigned long long)(TRACE_PLOT_MAX_CELLS / info.slots));
        return usage_error("%s", text);
    }
    return fail_with(&err);
}

int write_overdraw_map(const char* out_path, const char* mesh_path, const gc_load_options* lo, heatmap_view view)
{
    gc_error err = {0};
    float* xyz = NULL;
    size_t vertex_count = 0, n = 0;
    uint32_t* tri = NULL;
    int status = 0;
    if (gc_mesh_load_triangles(mesh_path, lo, &tri, &n, NULL, &err) ||
        gc_mesh_load_positions(mesh_path, lo, &xyz, &vertex_count, &err)) {
        fprintf(stderr, "gpucache: --overdraw-map: %s\n", err.message);
        status = EXIT_DATA;
    }
    picture_file af;
    if (!status && (status = picture_open(&af, out_path)) == 0) {
        if (gc_overdraw_map_write(af.f, tri, n, xyz, vertex_count, mesh_path, view, &err)) {
            picture_abort(&af);
            fprintf(stderr, "gpucache: --overdraw-map: %s\n", err.message);
            status = EXIT_DATA;
        } else {
            status = picture_commit(&af);
        }
    }
    free(tri);
    free(xyz);
    return status;
}
