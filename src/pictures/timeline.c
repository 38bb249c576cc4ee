// SPDX-License-Identifier: MIT
/* The cache timeline (gpucache_pictures.h, docs/pictures.md): the cache's contents after
 * each primitive of a window, from gc_analyze's trace; analyze --trace-plot draws it
 * through gc_timeline_write. */
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

gc_status gc_timeline_write(FILE* f, const char* name, const gc_model* model, const gc_draw* draw,
                            const gc_analyze_options* base, uint64_t from, uint64_t count, gc_timeline_info* info,
                            gc_error* err)
{
    gc_timeline_info ignored;
    info = info ? info : &ignored;
    memset(info, 0, sizeof *info);
    uint64_t primitives = 0;
    gc_status status = gc_draw_validate(draw, name, &primitives, err);
    if (status)
        return status;
    info->primitives = primitives;
    if (from >= primitives)
        return gc_fail(err, GC_ERR_USAGE, "the first primitive %llu is past the draw's last (it has %llu)",
                       (unsigned long long)from, (unsigned long long)primitives);
    if (count > primitives - from)
        count = primitives - from;
    info->count = count;
    trace_window w = {0};
    w.from = from;
    w.count = count;
    w.cells = calloc((size_t)count, sizeof *w.cells);
    w.filled = calloc((size_t)count, sizeof *w.filled);
    w.slots = 1;
    if (!w.cells || !w.filled) {
        free(w.cells);
        free(w.filled);
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for the trace window");
    }
    for (uint64_t i = 0; i < count; ++i)
        w.cells[i] = -1;
    gc_analyze_options o = {0};
    o.state_changes = base ? base->state_changes : NULL;
    o.state_change_count = base ? base->state_change_count : 0;
    o.trace = collect_listing;
    o.trace_user = &w;
    gc_stats stats;
    status = gc_analyze(model, draw, &o, &stats, err);
    if (!status && w.failed)
        status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the trace window");
    info->slots = w.slots;
    if (!status && (uint64_t)w.slots * count > GC_TIMELINE_MAX_CELLS)
        /* the file grows by a hundred bytes a cell: bound it before anything is written */
        status = gc_fail(err, GC_ERR_LIMIT, "%.60s lists %zu entries: %llu primitives are %llu cells, more than %u",
                         model->name, w.slots, (unsigned long long)count, (unsigned long long)(w.slots * count),
                         (unsigned)GC_TIMELINE_MAX_CELLS);
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
    gc_svg_begin(f, width, height);
    gc_svg_title(f, "gpucache cache timeline: ", name);
    fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">Cache contents after each primitive: ",
            left);
    gc_svg_escape(f, base_name(name), 120);
    fputs(", model ", f);
    gc_svg_escape(f, model->name, 80);
    fputs("</text>\n", f);
    int labels = cell_w >= 22 && cell_h >= 12;
    uint64_t misses = 0;
    fputs("<g class=\"cells\" stroke=\"#ffffff\" stroke-width=\"0.5\">\n", f);
    for (uint64_t c = 0; c < count; ++c)
        for (size_t s = 0; s < w.slots; ++s) {
            int64_t v = w.cells[c * w.slots + s];
            uint32_t colour = v < 0 ? 0xeeeeee : gc_svg_hash_colour((uint32_t)v);
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
        gc_svg_text(f, left - 8, top + cell_h * ((double)s + 0.5) + 4, "end", 10, text);
    }
    gc_svg_text(f, 14, top + cell_h * (double)w.slots / 2, "start", 11, "slot");
    uint64_t step = count > 20 ? (count + 19) / 20 : 1;
    double axis_y = top + cell_h * (double)w.slots + 18;
    for (uint64_t c = 0; c < count; c += step) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)(from + c));
        gc_svg_text(f, left + cell_w * ((double)c + 0.5), axis_y, "middle", 10, text);
    }
    snprintf(text, sizeof text,
             "primitives %llu to %llu of %llu; %llu values entered the cache (dots); lines: the cache lost entries "
             "(reset, flush, new batch)",
             (unsigned long long)from, (unsigned long long)(from + count - 1), (unsigned long long)primitives,
             (unsigned long long)misses);
    fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%.1f\" font-size=\"12\">", left, axis_y + 22);
    gc_svg_escape(f, text, 0);
    fprintf(f, "</text>\n");
    snprintf(text, sizeof text, "whole draw: %llu invocations, ACMR %.3f, ATVR %.3f", (unsigned long long)stats.invocations,
             stats.acmr, stats.atvr);
    gc_svg_text(f, left, axis_y + 40, "start", 12, text);
    gc_svg_end(f);
    free(w.cells);
    free(w.filled);
    free(w.before);
    return GC_OK;
}
