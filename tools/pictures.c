// SPDX-License-Identifier: MIT
/* The pictures' files (pictures.h): an SVG through atomic_open, a PNG through the library's
 * gc_png_file with the termination signals held meanwhile; analyze's pictures drawn by the
 * library into them. */
#include "pictures.h"

#include "cli.h"

#include <stdlib.h>
#include <string.h>

int picture_open(picture_file* p, const char* path)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->png = has_ext(path, "png");
    if (!p->png) {
        if (atomic_open(&p->af, path) != 0) {
            fprintf(stderr, "gpucache: %s\n", p->af.err.message[0] ? p->af.err.message : path);
            return EXIT_DATA;
        }
        p->f = p->af.f;
        return 0;
    }
    /* termination signals wait until the folder is gone (commit or abort) */
    signals_hold();
    gc_error err = {0};
    if (gc_png_open(&p->png_file, path, &err)) {
        signals_release();
        return fail_with(&err);
    }
    p->f = p->png_file.f;
    return 0;
}

void picture_abort(picture_file* p)
{
    if (!p->png) {
        atomic_abort(&p->af);
        return;
    }
    gc_png_abort(&p->png_file);
    signals_release();
}

int picture_commit(picture_file* p)
{
    if (!p->png) {
        if (atomic_commit(&p->af) != 0) {
            fprintf(stderr, "gpucache: %s\n", p->af.err.message[0] ? p->af.err.message : p->path);
            return EXIT_DATA;
        }
        return 0;
    }
    gc_error err = {0};
    gc_status s = gc_png_commit(&p->png_file, &err);
    signals_release();
    return s ? fail_with(&err) : 0;
}

int picture_end(picture_file* p, gc_status s, const gc_error* err)
{
    if (!s)
        return picture_commit(p);
    picture_abort(p);
    return fail_with(err);
}

int heatmap_view_parse(const char* name, void* out)
{
    gc_error err = {0};
    return gc_heatmap_view_parse(name, out, &err) == GC_OK ? 0 : -1;
}

int write_heatmap(const char* out_path, const char* mesh_path, const gc_load_options* lo, const gc_model* model,
                  const gc_draw* draw, const size_t* runs, size_t run_count, const gc_analyze_options* base,
                  gc_heatmap_view view, uint32_t scale_max)
{
    gc_error err = {0};
    float* xyz = NULL;
    size_t vertex_count = 0;
    gc_heatmap_options o = {view, scale_max, GC_HEATMAP_MAX_TRIANGLES, 0, runs, run_count, base};
    picture_file af;
    int status = 0;
    if (gc_mesh_load_positions(mesh_path, lo, &xyz, &vertex_count, &err)) {
        fprintf(stderr, "gpucache: --heatmap: %s\n", err.message);
        return EXIT_DATA;
    }
    if ((status = picture_open(&af, out_path)) == 0) {
        if (gc_heatmap_write(af.f, xyz, vertex_count, mesh_path, model, draw, &o, &err) == GC_OK)
            status = picture_commit(&af);
        else if (picture_abort(&af), err.code != GC_ERR_DATA) /* the library's checks of the draw */
            status = fail_with(&err);
        else
            fprintf(stderr, "gpucache: --heatmap: %s\n", err.message), status = EXIT_DATA;
    }
    free(xyz);
    return status;
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
                 (unsigned)GC_TIMELINE_MAX_CELLS, (unsigned long long)(GC_TIMELINE_MAX_CELLS / info.slots));
        return usage_error("%s", text);
    }
    return fail_with(&err);
}

int write_overdraw_map(const char* out_path, const char* mesh_path, const gc_load_options* lo,
                       gc_heatmap_view view)
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
