// SPDX-License-Identifier: MIT
/* The heat map (gpucache_pictures.h, docs/pictures.md): per-vertex invocations on the
 * mesh, each triangle filled by the mean count of its vertices; analyze --heatmap and the
 * report draw it through gc_heatmap_write. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_pictures.h"

#include "../internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The file name without its folders, for titles (the caption of a picture pasted
 * elsewhere should not carry the author's paths). */
static const char* base_name(const char* path)
{
    const char* slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* ------------------------------------------------------------------ heat map */

gc_status gc_heatmap_view_parse(const char* name, gc_heatmap_view* out, gc_error* err)
{
    static const char* const names[3] = {"front", "side", "top"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(name, names[i]) == 0) {
            *out = (gc_heatmap_view)i;
            return GC_OK;
        }
    return gc_fail(err, GC_ERR_USAGE, "the view is front, side or top");
}

/* The screen position (x right, y up) and depth (larger is nearer) of a point. */
static void project(gc_heatmap_view view, const float* p, double* x, double* y, double* depth)
{
    switch (view) {
    case GC_VIEW_SIDE: *x = -p[2], *y = p[1], *depth = p[0]; break;  /* from +X */
    case GC_VIEW_TOP: *x = p[0], *y = -p[2], *depth = p[1]; break;   /* from +Y, -Z up */
    default: *x = p[0], *y = p[1], *depth = p[2]; break;         /* front: from +Z */
    }
}

typedef struct drawn_triangle {
    double depth;
    uint32_t v[3];
} drawn_triangle;

static int compare_depth(const void* a, const void* b)
{
    double x = ((const drawn_triangle*)a)->depth, y = ((const drawn_triangle*)b)->depth;
    return (x > y) - (x < y);
}

/* The draw's triangles as vertex triples (quads split in two; points and lines have no
 * area and are skipped) into *out, *count triangles. */
static gc_status collect_triangles(const gc_draw* draw, uint32_t** out, size_t* count, gc_error* err)
{
    gc_assembler a;
    gc_primitive p;
    size_t n = 0, capacity = 0;
    uint32_t* t = NULL;
    gc_assembler_init(&a, draw);
    while (gc_assembler_next(&a, &p)) {
        if (p.count < 3)
            continue;
        for (unsigned k = 0; k + 2 < p.count; ++k) {
            if (n == capacity) {
                size_t next = capacity ? capacity + capacity / 2 : 1024;
                uint32_t* grown = realloc(t, next * 3 * sizeof *t);
                if (!grown) {
                    free(t);
                    return gc_fail(err, GC_ERR_NOMEM, "out of memory for the triangles");
                }
                t = grown;
                capacity = next;
            }
            /* a quad (0 1 2 3) is the triangles (0 1 2) and (0 2 3) */
            t[3 * n] = p.vertices[0], t[3 * n + 1] = p.vertices[k + 1], t[3 * n + 2] = p.vertices[k + 2];
            n++;
        }
    }
    *out = t;
    *count = n;
    return GC_OK;
}

gc_status gc_heatmap_write(FILE* f, const float* xyz, size_t vertex_count, const char* name,
                           const gc_model* model, const gc_draw* draw, const gc_heatmap_options* options,
                           gc_error* err)
{
    static const char* const view_names[3] = {"front", "side", "top"};
    static const gc_heatmap_options defaults = {0};
    const gc_heatmap_options* op = options ? options : &defaults;
    const size_t* runs = op->runs;
    size_t run_count = op->run_count;
    const gc_analyze_options* base = op->base;
    gc_heatmap_view view = op->view > GC_VIEW_TOP ? GC_VIEW_FRONT : op->view;
    uint32_t scale_max = op->scale_max;
    size_t max_triangles = op->max_triangles ? op->max_triangles : GC_HEATMAP_MAX_TRIANGLES;
    uint32_t* tris = NULL;
    size_t tri_count = 0;
    gc_status status = collect_triangles(draw, &tris, &tri_count, err);
    if (status)
        return status;
    if (tri_count == 0)
        status = gc_fail(err, GC_ERR_DATA, "%s draws no triangles", name);
    for (size_t i = 0; !status && i < 3 * tri_count; ++i)
        if (tris[i] >= vertex_count)
            status = gc_fail(err, GC_ERR_DATA, "%s: index %u has no position (%zu vertices)", name, tris[i],
                             vertex_count);
    gc_per_vertex pv = {0};
    gc_stats stats = {0};
    uint32_t* counts = NULL;
    drawn_triangle* drawn = NULL;
    if (!status && !(counts = calloc(vertex_count ? vertex_count : 1, sizeof *counts)))
        status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the vertex counts");
    /* one analysis per run when runs are given (a glTF's draws, each with its own cache),
     * else of the whole draw; the counts of a vertex drawn by several runs add up */
    size_t at = 0;
    for (size_t r = 0; !status && r < (runs ? run_count : 1); ++r) {
        gc_draw one = *draw;
        if (runs) {
            one.indices = draw->indices + at;
            one.index_count = runs[r] * 3;
            at += one.index_count;
            if (!one.index_count)
                continue;
        }
        gc_analyze_options o = {0};
        o.state_changes = base ? base->state_changes : NULL;
        o.state_change_count = base ? base->state_change_count : 0;
        o.per_vertex = &pv;
        gc_stats st = {0};
        if ((status = gc_analyze(model, &one, &o, &st, err)) != GC_OK)
            break;
        for (size_t i = 0; i < pv.count; ++i)
            if (pv.values[i] < vertex_count)
                counts[pv.values[i]] += pv.counts[i];
        gc_per_vertex_free(&pv);
        stats.invocations += st.invocations;
        stats.primitives += st.primitives;
        stats.vertices += st.vertices;
    }
    stats.acmr = stats.primitives ? (double)stats.invocations / (double)stats.primitives : 0;
    stats.atvr = stats.vertices ? (double)stats.invocations / (double)stats.vertices : 0;

    /* Bounds and count range over every triangle (the data is not decimated). */
    double min_x = HUGE_VAL, max_x = -HUGE_VAL, min_y = HUGE_VAL, max_y = -HUGE_VAL;
    uint32_t lo_count = UINT32_MAX, hi_count = 0;
    for (size_t i = 0; !status && i < 3 * tri_count; ++i) {
        uint32_t v = tris[i];
        double x, y, z;
        lo_count = counts[v] < lo_count ? counts[v] : lo_count;
        hi_count = counts[v] > hi_count ? counts[v] : hi_count;
        project(view, xyz + 3 * (size_t)v, &x, &y, &z);
        min_x = x < min_x ? x : min_x, max_x = x > max_x ? x : max_x;
        min_y = y < min_y ? y : min_y, max_y = y > max_y ? y : max_y;
    }
    /* The scale starts at 1 (every drawn vertex is shaded at least once) so that two
     * pictures with the same top compare colour for colour. */
    uint32_t data_max = hi_count;
    lo_count = lo_count < 1 ? lo_count : 1;
    hi_count = scale_max ? scale_max : hi_count;
    hi_count = hi_count < lo_count ? lo_count : hi_count;
    const int width = 960, height = 760, plot_x = 20, plot_y = 56, plot_w = 800, plot_h = 600;
    double span_x = status ? 0 : max_x - min_x, span_y = status ? 0 : max_y - min_y;
    double scale = span_x <= 0 && span_y <= 0 ? 1
                   : span_x / plot_w > span_y / plot_h ? plot_w / span_x : plot_h / span_y;
    double ox = plot_x + (plot_w - span_x * scale) / 2, oy = plot_y + (plot_h - span_y * scale) / 2;

    /* Decimate the drawing, not the data: the plot is cut into cells of `cell` x `cell`
     * pixels and of the triangles whose centres fall in one cell only the nearest is drawn
     * (the back of a closed mesh, and small triangles a cell cannot show apart), outlined
     * in its own colour as wide as a cell so that it covers the cell. The cell grows from
     * one pixel until at most HEATMAP_MAX_TRIANGLES are left. */
    size_t bin_count = (size_t)plot_w * plot_h;
    uint32_t* nearest = NULL;
    float* nearest_depth = NULL;
    if (!status && (!(nearest = malloc(bin_count * sizeof *nearest)) ||
                    !(nearest_depth = malloc(bin_count * sizeof *nearest_depth))))
        status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the picture's pixels");
    if (!status && !(drawn = malloc((tri_count ? tri_count : 1) * sizeof *drawn)))
        status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the triangles to draw");
    size_t drawn_count = 0;
    int cell = 1;
    for (; !status; ++cell) {
        int cols = (plot_w + cell - 1) / cell, rows = (plot_h + cell - 1) / cell;
        size_t cells = (size_t)cols * (size_t)rows;
        memset(nearest, 0xff, cells * sizeof *nearest);
        for (size_t i = 0; i < tri_count; ++i) {
            double cx = 0, cy = 0, depth = 0;
            for (int k = 0; k < 3; ++k) {
                double x, y, z;
                project(view, xyz + 3 * (size_t)tris[3 * i + k], &x, &y, &z);
                cx += x / 3, cy += y / 3, depth += z / 3;
            }
            long bx = lround(floor(((cx - min_x) * scale + (ox - plot_x)) / cell));
            long by = lround(floor(((max_y - cy) * scale + (oy - plot_y)) / cell));
            bx = bx < 0 ? 0 : bx >= cols ? cols - 1 : bx;
            by = by < 0 ? 0 : by >= rows ? rows - 1 : by;
            size_t bin = (size_t)by * (size_t)cols + (size_t)bx;
            if (nearest[bin] == UINT32_MAX || depth >= nearest_depth[bin]) {
                nearest[bin] = (uint32_t)i;
                nearest_depth[bin] = (float)depth;
            }
        }
        drawn_count = 0;
        for (size_t bin = 0; bin < cells; ++bin)
            drawn_count += nearest[bin] != UINT32_MAX;
        if (drawn_count > max_triangles && cell < 16)
            continue;
        drawn_count = 0;
        for (size_t bin = 0; bin < cells; ++bin) {
            if (nearest[bin] == UINT32_MAX)
                continue;
            drawn_triangle* d = &drawn[drawn_count++];
            d->depth = nearest_depth[bin];
            memcpy(d->v, tris + 3 * (size_t)nearest[bin], sizeof d->v);
        }
        break;
    }
    free(nearest);
    free(nearest_depth);
    free(tris);
    if (status) {
        free(counts);
        free(drawn);
        gc_per_vertex_free(&pv);
        return status;
    }
    /* painter's order: the farthest first */
    qsort(drawn, drawn_count, sizeof *drawn, compare_depth);

    if (op->inline_svg)
        gc_svg_open(f, width, height);
    else
        gc_svg_begin(f, width, height);
    gc_svg_title(f, "gpucache heat map: ", name);
    char line[512];
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Vertex shader invocations per vertex: ",
            plot_x);
    gc_svg_escape(f, base_name(name), 120);
    fprintf(f, " (%s view)</text>\n", view_names[view]);
    /* coordinates in half pixels (integers, relative moves) keep the file small; the
     * outline in the fill's colour closes the seams between neighbouring triangles and
     * makes a triangle cover its cell */
    fprintf(f, "<g class=\"mesh\" transform=\"scale(0.5)\" stroke-width=\"%d\" stroke-linejoin=\"round\">\n",
            2 * cell);
    uint32_t run_colour = UINT32_MAX;
    double range = hi_count > lo_count ? (double)(hi_count - lo_count) : 0;
    for (size_t i = 0; i < drawn_count; ++i) {
        const drawn_triangle* d = &drawn[i];
        double mean = ((double)counts[d->v[0]] + counts[d->v[1]] + counts[d->v[2]]) / 3;
        uint32_t colour = gc_svg_ramp(range > 0 ? (mean - lo_count) / range : 0);
        if (colour != run_colour) {
            if (run_colour != UINT32_MAX)
                fputs("\"/>\n", f);
            fprintf(f, "<path fill=\"#%06x\" stroke=\"#%06x\" d=\"", colour, colour);
            run_colour = colour;
        }
        long px = 0, py = 0;
        for (int k = 0; k < 3; ++k) {
            double x, y, z;
            project(view, xyz + 3 * (size_t)d->v[k], &x, &y, &z);
            long sx = lround(2 * (ox + (x - min_x) * scale)), sy = lround(2 * (oy + (max_y - y) * scale));
            if (k == 0)
                fprintf(f, "M%ld %ld", sx, sy);
            else
                fprintf(f, "l%ld %ld", sx - px, sy - py);
            px = sx, py = sy;
        }
        fputc('z', f);
    }
    if (run_colour != UINT32_MAX)
        fputs("\"/>\n", f);
    fputs("</g>\n", f);

    /* the colour bar: one swatch per count when there are few, else 11 evenly spaced */
    unsigned entries = hi_count - lo_count <= 10 ? hi_count - lo_count + 1 : 11;
    int bar_x = plot_x + plot_w + 30, bar_h = entries > 1 ? 360 / (int)entries : 40;
    gc_svg_text(f, bar_x, plot_y + 10, "start", 13, "invocations");
    for (unsigned k = 0; k < entries; ++k) {
        double value = entries > 1 ? lo_count + range * k / (entries - 1) : lo_count;
        uint32_t colour = gc_svg_ramp(range > 0 ? (value - lo_count) / range : 0);
        int y = plot_y + 24 + (int)(entries - 1 - k) * bar_h;
        fprintf(f, "<rect class=\"bar\" data-count=\"%g\" x=\"%d\" y=\"%d\" width=\"24\" height=\"%d\" fill=\"#%06x\"/>\n",
                value, bar_x, y, bar_h, colour);
        snprintf(line, sizeof line, "%g", value);
        gc_svg_text(f, bar_x + 30, y + bar_h / 2.0 + 4, "start", 12, line);
    }

    /* the caption: the totals, and what was left out of the drawing */
    char atvr[64], acmr[64];
    snprintf(atvr, sizeof atvr, "%.3f", stats.atvr);
    snprintf(acmr, sizeof acmr, "%.3f", stats.acmr);
    fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%d\" font-size=\"13\">model ", plot_x, plot_y + plot_h + 26);
    gc_svg_escape(f, model->name, 120);
    fprintf(f, ": %llu invocations, ATVR %s, ACMR %s; %zu triangles, %llu vertices; colour: mean count of a "
               "triangle's vertices</text>\n",
            (unsigned long long)stats.invocations, atvr, acmr, tri_count, (unsigned long long)stats.vertices);
    if (drawn_count < tri_count)
        fprintf(f, "<text class=\"decimated\" x=\"%d\" y=\"%d\" font-size=\"13\">drawing decimated: %zu of %zu "
                   "triangles (the nearest in each %d x %d pixel cell); the counts and totals are the whole draw's</text>\n",
                plot_x, plot_y + plot_h + 46, drawn_count, tri_count, cell, cell);
    if (data_max > hi_count)
        fprintf(f, "<text class=\"clamped\" x=\"%d\" y=\"%d\" font-size=\"13\">counts above %u (up to %u) drawn "
                   "in the colour of %u</text>\n",
                plot_x, plot_y + plot_h + 66, hi_count, data_max, hi_count);
    gc_svg_end(f);
    free(counts);
    free(drawn);
    gc_per_vertex_free(&pv);
    return GC_OK;
}

/* The largest per-vertex count of `d` under `m`: the heat maps' common scale. With
 * `runs` (a glTF's triangle primitives, runs[r] triangles each), each run is analyzed as
 * its own draw and a vertex's counts over the runs add up, as gc_heatmap_write counts them;
 * `vertex_count` bounds the index values then. */
gc_status gc_heatmap_largest_count(const gc_model* m, const gc_draw* d, const size_t* runs, size_t run_count,
                                   size_t vertex_count, uint32_t* out, gc_error* err)
{
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    gc_stats st;
    uint32_t top = 1;
    if (!runs) {
        gc_status status = gc_analyze(m, d, &o, &st, err);
        if (status)
            return status;
        for (size_t i = 0; i < pv.count; ++i)
            top = pv.counts[i] > top ? pv.counts[i] : top;
        gc_per_vertex_free(&pv);
        *out = top;
        return GC_OK;
    }
    uint32_t* counts = calloc(vertex_count ? vertex_count : 1, sizeof *counts);
    if (!counts)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for %zu vertex counts", vertex_count);
    for (size_t r = 0, at = 0; r < run_count; at += runs[r] * 3, ++r) {
        gc_draw one = {d->indices + at, runs[r] * 3, d->topology, 0, 0};
        if (!one.index_count)
            continue;
        gc_status status = gc_analyze(m, &one, &o, &st, err);
        if (status) {
            free(counts);
            return status;
        }
        for (size_t i = 0; i < pv.count; ++i)
            if (pv.values[i] < vertex_count) {
                counts[pv.values[i]] += pv.counts[i];
                top = counts[pv.values[i]] > top ? counts[pv.values[i]] : top;
            }
        gc_per_vertex_free(&pv);
    }
    free(counts);
    *out = top;
    return GC_OK;
}

void gc_svg_free(char* text)
{
    free(text);
}
