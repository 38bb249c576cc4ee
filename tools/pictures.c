/* analyze --heatmap and --trace-plot (pictures.h, docs/pictures.md): the library gives
 * the counts, the positions and the cache contents; this file only draws them. */
#define _POSIX_C_SOURCE 200809L
#include "pictures.h"

#include "cli.h"
#include "picture_file.h"
#include "svg.h"

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

static int out_of_memory(const char* what)
{
    fprintf(stderr, "gpucache: out of memory for %s\n", what);
    return EXIT_DATA;
}

/* Commits the picture, or says why it could not be written. */
static int finish_picture(picture_file* af, const char* path)
{
    (void)path;
    return picture_commit(af);
}

static int open_picture(picture_file* af, const char* path)
{
    return picture_open(af, path);
}

/* ------------------------------------------------------------------ heat map */

int heatmap_view_parse(const char* name, heatmap_view* out)
{
    static const char* const names[3] = {"front", "side", "top"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(name, names[i]) == 0) {
            *out = (heatmap_view)i;
            return 0;
        }
    return -1;
}

/* The screen position (x right, y up) and depth (larger is nearer) of a point. */
static void project(heatmap_view view, const float* p, double* x, double* y, double* depth)
{
    switch (view) {
    case VIEW_SIDE: *x = -p[2], *y = p[1], *depth = p[0]; break;  /* from +X */
    case VIEW_TOP: *x = p[0], *y = -p[2], *depth = p[1]; break;   /* from +Y, -Z up */
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
static int collect_triangles(const gc_draw* draw, uint32_t** out, size_t* count)
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
                    return out_of_memory("the triangles");
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
    return 0;
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
    static const char* const view_names[3] = {"front", "side", "top"};
    gc_error err = {0};
    uint32_t* tris = NULL;
    size_t tri_count = 0;
    int status = collect_triangles(draw, &tris, &tri_count);
    if (status)
        return status;
    if (tri_count == 0) {
        fprintf(stderr, "gpucache: --heatmap: %s draws no triangles\n", name);
        status = EXIT_DATA;
    }
    for (size_t i = 0; !status && i < 3 * tri_count; ++i)
        if (tris[i] >= vertex_count) {
            fprintf(stderr, "gpucache: --heatmap: %s: index %u has no position (%zu vertices)\n", name, tris[i],
                    vertex_count);
            status = EXIT_DATA;
        }
    gc_per_vertex pv = {0};
    gc_stats stats = {0};
    uint32_t* counts = NULL;
    drawn_triangle* drawn = NULL;
    if (!status && !(counts = calloc(vertex_count ? vertex_count : 1, sizeof *counts)))
        status = out_of_memory("the vertex counts");
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
        if (gc_analyze(model, &one, &o, &st, &err)) {
            status = fail_with(&err);
            break;
        }
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
        status = out_of_memory("the picture's pixels");
    if (!status && !(drawn = malloc((tri_count ? tri_count : 1) * sizeof *drawn)))
        status = out_of_memory("the triangles to draw");
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
    picture_file af;
    if (!status && !into)
        status = open_picture(&af, out_path);
    if (status) {
        free(counts);
        free(drawn);
        gc_per_vertex_free(&pv);
        return status;
    }
    /* painter's order: the farthest first */
    qsort(drawn, drawn_count, sizeof *drawn, compare_depth);

    FILE* f = into ? into : af.f;
    if (into)
        svg_open(f, width, height);
    else
        svg_begin(f, width, height);
    svg_title(f, "gpucache heat map: ", name);
    char line[512];
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Vertex shader invocations per vertex: ",
            plot_x);
    svg_escape(f, base_name(name), 120);
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
        uint32_t colour = svg_ramp(range > 0 ? (mean - lo_count) / range : 0);
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
    svg_text(f, bar_x, plot_y + 10, "start", 13, "invocations");
    for (unsigned k = 0; k < entries; ++k) {
        double value = entries > 1 ? lo_count + range * k / (entries - 1) : lo_count;
        uint32_t colour = svg_ramp(range > 0 ? (value - lo_count) / range : 0);
        int y = plot_y + 24 + (int)(entries - 1 - k) * bar_h;
        fprintf(f, "<rect class=\"bar\" data-count=\"%g\" x=\"%d\" y=\"%d\" width=\"24\" height=\"%d\" fill=\"#%06x\"/>\n",
                value, bar_x, y, bar_h, colour);
        snprintf(line, sizeof line, "%g", value);
        svg_text(f, bar_x + 30, y + bar_h / 2.0 + 4, "start", 12, line);
    }

    /* the caption: the totals, and what was left out of the drawing */
    char atvr[64], acmr[64];
    snprintf(atvr, sizeof atvr, "%.3f", stats.atvr);
    snprintf(acmr, sizeof acmr, "%.3f", stats.acmr);
    fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%d\" font-size=\"13\">model ", plot_x, plot_y + plot_h + 26);
    svg_escape(f, model->name, 120);
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
    svg_end(f);
    free(counts);
    free(drawn);
    gc_per_vertex_free(&pv);
    return into ? 0 : finish_picture(&af, out_path);
}

/* ------------------------------------------------------------------ timeline */

typedef struct trace_window {
    uint64_t from, count;
    int64_t* cells;     /* count x slots entries, -1 for an empty slot */
    size_t slots;       /* room per primitive */
    size_t* filled;     /* entries the model listed after each primitive */
    int64_t* before;    /* the listing after primitive from - 1 */
    size_t before_count;
    uint64_t seen;      /* primitives the trace reported */
    int failed;
} trace_window;

/* The trace callback: keeps the listings of the window and the one before it. */
static void collect_listing(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    trace_window* w = user;
    w->seen = primitive + 1;
    if (w->failed)
        return;
    if (primitive + 1 == w->from) {
        free(w->before);
        w->before = malloc((count ? count : 1) * sizeof *entries);
        if (!w->before) {
            w->failed = 1;
            return;
        }
        memcpy(w->before, entries, count * sizeof *entries);
        w->before_count = count;
        return;
    }
    if (primitive < w->from || primitive - w->from >= w->count)
        return;
    uint64_t column = primitive - w->from;
    if (count > w->slots) {
        /* a model that lists more entries than before: widen every column */
        int64_t* grown = malloc((size_t)w->count * count * sizeof *grown);
        if (!grown) {
            w->failed = 1;
            return;
        }
        for (uint64_t c = 0; c < w->count; ++c)
            for (size_t s = 0; s < count; ++s)
                grown[c * count + s] = s < w->slots ? w->cells[c * w->slots + s] : -1;
        free(w->cells);
        w->cells = grown;
        w->slots = count;
    }
    for (size_t s = 0; s < w->slots; ++s)
        w->cells[column * w->slots + s] = s < count ? entries[s] : -1;
    w->filled[column] = 0;
    for (size_t s = 0; s < count; ++s)
        w->filled[column] += entries[s] >= 0;
}

static int holds(const int64_t* entries, size_t count, int64_t value)
{
    for (size_t i = 0; i < count; ++i)
        if (entries[i] == value)
            return 1;
    return 0;
}

int write_trace_plot(const char* out_path, const char* name, const gc_model* model, const gc_draw* draw,
                     const gc_analyze_options* base, uint64_t from, uint64_t count)
{
    gc_error err = {0};
    uint64_t primitives = 0;
    if (gc_draw_validate(draw, name, &primitives, &err))
        return fail_with(&err);
    if (from >= primitives) {
        char text[32];
        snprintf(text, sizeof text, "%llu", (unsigned long long)primitives);
        return usage_error("--from is past the draw's last primitive (it has %s)", text);
    }
    if (count > primitives - from)
        count = primitives - from;
    trace_window w = {0};
    w.from = from;
    w.count = count;
    w.cells = calloc((size_t)count, sizeof *w.cells);
    w.filled = calloc((size_t)count, sizeof *w.filled);
    w.slots = 1;
    if (!w.cells || !w.filled) {
        free(w.cells);
        free(w.filled);
        return out_of_memory("the trace window");
    }
    for (uint64_t i = 0; i < count; ++i)
        w.cells[i] = -1;
    gc_analyze_options o = {0};
    o.state_changes = base ? base->state_changes : NULL;
    o.state_change_count = base ? base->state_change_count : 0;
    o.trace = collect_listing;
    o.trace_user = &w;
    gc_stats stats;
    int status = 0;
    if (gc_analyze(model, draw, &o, &stats, &err))
        status = fail_with(&err);
    else if (w.failed)
        status = out_of_memory("the trace window");
    if (!status && (uint64_t)w.slots * count > TRACE_PLOT_MAX_CELLS) {
        /* the file grows by a hundred bytes a cell: bound it before anything is written */
        char text[200];
        snprintf(text, sizeof text, "--trace-plot: %.60s lists %zu entries: %llu primitives are %llu cells, more than %u; "
                                    "give --count %llu or less",
                 model->name, w.slots, (unsigned long long)count, (unsigned long long)(w.slots * count),
                 (unsigned)TRACE_PLOT_MAX_CELLS,
                 (unsigned long long)(TRACE_PLOT_MAX_CELLS / w.slots));
        status = usage_error("%s", text);
    }
    picture_file af;
    if (!status)
        status = open_picture(&af, out_path);
    if (status) {
        free(w.cells);
        free(w.filled);
        free(w.before);
        return status;
    }
    double cell_w = 1000.0 / (double)count, cell_h = 400.0 / (double)w.slots;
    cell_w = cell_w < 4 ? 4 : cell_w > 28 ? 28 : cell_w;
    cell_h = cell_h < 4 ? 4 : cell_h > 20 ? 20 : cell_h;
    const int left = 70, top = 60;
    int width = left + (int)ceil(cell_w * (double)count) + 30;
    int height = top + (int)ceil(cell_h * (double)w.slots) + 80;
    width = width < 640 ? 640 : width;
    FILE* f = af.f;
    svg_begin(f, width, height);
    svg_title(f, "gpucache cache timeline: ", name);
    fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">Cache contents after each primitive: ",
            left);
    svg_escape(f, base_name(name), 120);
    fputs(", model ", f);
    svg_escape(f, model->name, 80);
    fputs("</text>\n", f);
    int labels = cell_w >= 22 && cell_h >= 12;
    uint64_t misses = 0;
    fputs("<g class=\"cells\" stroke=\"#ffffff\" stroke-width=\"0.5\">\n", f);
    for (uint64_t c = 0; c < count; ++c)
        for (size_t s = 0; s < w.slots; ++s) {
            int64_t v = w.cells[c * w.slots + s];
            uint32_t colour = v < 0 ? 0xeeeeee : svg_hash_colour((uint32_t)v);
            fprintf(f, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\"/>\n",
                    left + cell_w * (double)c, top + cell_h * (double)s, cell_w, cell_h, colour);
        }
    fputs("</g>\n", f);
    /* a value that was not held after the previous primitive entered the cache: a miss */
    for (uint64_t c = 0; c < count; ++c) {
        const int64_t* prev = c ? w.cells + (c - 1) * w.slots : w.before;
        size_t prev_count = c ? w.slots : w.before_count;
        for (size_t s = 0; s < w.slots; ++s) {
            int64_t v = w.cells[c * w.slots + s];
            double x = left + cell_w * (double)c, y = top + cell_h * (double)s;
            if (labels && v >= 0)
                fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"9\">%lld</text>\n",
                        x + cell_w / 2, y + cell_h / 2 + 3, (long long)v);
            if (v < 0 || holds(prev, prev_count, v) || holds(w.cells + c * w.slots, s, v))
                continue;
            misses++;
            double r = (cell_w < cell_h ? cell_w : cell_h) / 5;
            fprintf(f, "<circle class=\"miss\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#000000\"/>\n",
                    x + cell_w - r * 1.5, y + r * 1.5, r < 1 ? 1 : r);
        }
    }
    /* fewer entries than after the previous primitive: a reset, a flush or a new batch */
    for (uint64_t c = 1; c < count; ++c)
        if (w.filled[c] < w.filled[c - 1])
            fprintf(f, "<line class=\"boundary\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000000\" "
                       "stroke-width=\"1.5\"/>\n",
                    left + cell_w * (double)c, top - 6, left + cell_w * (double)c, top + cell_h * (double)w.slots + 6);
    char text[160];
    for (size_t s = 0; s < w.slots; s += w.slots > 16 ? (w.slots + 15) / 16 : 1) {
        snprintf(text, sizeof text, "%zu", s);
        svg_text(f, left - 8, top + cell_h * ((double)s + 0.5) + 4, "end", 10, text);
    }
    svg_text(f, 14, top + cell_h * (double)w.slots / 2, "start", 11, "slot");
    uint64_t step = count > 20 ? (count + 19) / 20 : 1;
    double axis_y = top + cell_h * (double)w.slots + 18;
    for (uint64_t c = 0; c < count; c += step) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)(from + c));
        svg_text(f, left + cell_w * ((double)c + 0.5), axis_y, "middle", 10, text);
    }
    snprintf(text, sizeof text,
             "primitives %llu to %llu of %llu; %llu values entered the cache (dots); lines: the cache lost entries "
             "(reset, flush, new batch)",
             (unsigned long long)from, (unsigned long long)(from + count - 1), (unsigned long long)primitives,
             (unsigned long long)misses);
    fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%.1f\" font-size=\"12\">", left, axis_y + 22);
    svg_escape(f, text, 0);
    fprintf(f, "</text>\n");
    snprintf(text, sizeof text, "whole draw: %llu invocations, ACMR %.3f, ATVR %.3f", (unsigned long long)stats.invocations,
             stats.acmr, stats.atvr);
    svg_text(f, left, axis_y + 40, "start", 12, text);
    svg_end(f);
    free(w.cells);
    free(w.filled);
    free(w.before);
    return finish_picture(&af, out_path);
}
