// SPDX-License-Identifier: MIT
/* The charts of fit and memsys (gpucache_pictures.h, docs/pictures.md): fit --plot and
 * memsys --compare --plot draw them through these. */
#include "gpucache/gpucache_pictures.h"

#include "../internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The file name without its folders, for titles (a picture pasted elsewhere should not
 * carry the author's paths). */
static const char* base_name(const char* path)
{
    const char* slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* ------------------------------------------------------------------ fit */

typedef struct fit_point {
    double ratio; /* log2(predicted / measured); NAN when the model cannot run the case */
    uint64_t predicted;
    int exact;
} fit_point;

gc_status gc_fit_chart_write(FILE* f, const char* name, const gc_measurements* in, const gc_fit_candidate* best,
                             size_t found, gc_error* err)
{
    size_t models = found < GC_FIT_CHART_MAX_MODELS ? found : GC_FIT_CHART_MAX_MODELS;
    size_t n = in->count;
    fit_point* pts = calloc(models * n + 1, sizeof *pts);
    if (!pts)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for the fit plot");
    /* every prediction first, so that the scale is known and nothing is written on
     * failure; the scale is log2 of the ratio, so that x2 and x0.5 are as far from 1 and
     * one case a hundred times off does not flatten the others */
    double lo = 0, hi = 0;
    for (size_t m = 0; m < models; ++m)
        for (size_t i = 0; i < n; ++i) {
            fit_point* p = &pts[m * n + i];
            gc_error ignored = {0};
            if (gc_fit_evaluate(&best[m].model, &in->cases[i], &p->predicted, &p->exact, &ignored) != GC_OK) {
                p->ratio = NAN;
                p->exact = 0;
                continue;
            }
            uint64_t measured = in->cases[i].invocations;
            double ratio = measured ? (double)p->predicted / (double)measured : (p->predicted ? 1024.0 : 1.0);
            p->ratio = log2(ratio < 1.0 / 1024 ? 1.0 / 1024 : ratio);
            lo = p->ratio < lo ? p->ratio : lo;
            hi = p->ratio > hi ? p->ratio : hi;
        }
    /* at least x0.8 .. x1.25 shown, and a margin so that no dot sits on the frame */
    lo = lo > -0.32 ? -0.32 : lo * 1.08;
    hi = hi < 0.32 ? 0.32 : hi * 1.08;

    /* one panel per model, stacked; the legend sits right of the panels, off the data */
    const int left = 70, top = 64, plot_w = 720, panel_h = 130, gap = 52, legend_x = left + plot_w + 24;
    int width = legend_x + 170, height = top + (int)models * (panel_h + gap) + 40;
    gc_svg_begin(f, width, height < 260 ? 260 : height);
    gc_svg_title(f, "gpucache fit: ", name);
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Predicted / measured invocations: ", left);
    gc_svg_escape(f, base_name(name), 100);
    fputs("</text>\n", f);
    fprintf(f, "<text x=\"%d\" y=\"44\" font-size=\"12\">device ", left);
    gc_svg_escape(f, in->device ? in->device : "(unknown device)", 100);
    fprintf(f, "; %zu cases, the best %zu models (rank order); x1 = the model predicts the measured count (log scale)</text>\n", n,
            models);
    char text[160];
    for (size_t m = 0; m < models; ++m) {
        int y0 = top + (int)m * (panel_h + gap) + 18;
        fprintf(f, "<text class=\"panel-title\" x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">%zu. ", left,
                y0 - 6, m + 1);
        gc_svg_escape(f, best[m].model.name, 80);
        fprintf(f, ": %zu of %zu cases exact</text>\n", best[m].exact, n);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999999\"/>\n", left, y0,
                plot_w, panel_h);
        /* y ticks: the ends (as ratios) and the reference line at 1 */
        double ticks[3] = {lo, 0, hi};
        for (int t = 0; t < 3; ++t) {
            double y = y0 + panel_h * (hi - ticks[t]) / (hi - lo);
            snprintf(text, sizeof text, "x%.3g", exp2(ticks[t]));
            gc_svg_text(f, left - 6, y + 4, "end", 10, text);
        }
        double y1 = y0 + panel_h * hi / (hi - lo);
        fprintf(f, "<line class=\"reference\" x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#555555\" "
                   "stroke-dasharray=\"4 3\"/>\n",
                left, y1, left + plot_w, y1);
        fputs("<g class=\"model\" data-model=\"", f);
        gc_svg_escape(f, best[m].model.name, 0);
        fprintf(f, "\" data-rank=\"%zu\">\n", m + 1);
        for (size_t i = 0; i < n; ++i) {
            const fit_point* p = &pts[m * n + i];
            double x = left + plot_w * ((double)i + 0.5) / (double)n;
            if (isnan(p->ratio)) {
                double y = y0 + 5;
                fprintf(f, "<path class=\"failed\" data-case=\"%zu\" d=\"M%.2f %.2fl6 6m0 -6l-6 6\" stroke=\"#7b1fa2\" "
                           "stroke-width=\"1.5\"><title>",
                        i, x - 3, y - 3);
                gc_svg_escape(f, in->names[i], 120);
                fputs(": the model cannot run it</title></path>\n", f);
                continue;
            }
            double y = y0 + panel_h * (hi - p->ratio) / (hi - lo);
            if (p->exact)
                fprintf(f, "<circle class=\"exact\" data-case=\"%zu\" cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"#2e7d32\">"
                           "<title>",
                        i, x, y);
            else
                fprintf(f, "<circle class=\"wrong\" data-case=\"%zu\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"none\" "
                           "stroke=\"#c62828\" stroke-width=\"1.5\"><title>",
                        i, x, y);
            gc_svg_escape(f, in->names[i], 120);
            fprintf(f, ": measured %llu, predicted %llu%s</title></circle>\n",
                    (unsigned long long)in->cases[i].invocations, (unsigned long long)p->predicted,
                    !p->exact && p->predicted == in->cases[i].invocations ? " (per-vertex counts differ)" : "");
        }
        fputs("</g>\n", f);
        /* x ticks: at most 10 case numbers */
        size_t step = n > 10 ? (n + 9) / 10 : 1;
        for (size_t i = 0; i < n; i += step) {
            snprintf(text, sizeof text, "%zu", i);
            gc_svg_text(f, left + plot_w * ((double)i + 0.5) / (double)n, y0 + panel_h + 14, "middle", 10, text);
        }
    }
    gc_svg_text(f, left + plot_w / 2.0, top + (double)models * (panel_h + gap) + 4, "middle", 11, "case number");
    /* the legend of the markers, right of the panels */
    int ly = top + 18;
    fprintf(f, "<g class=\"legend\">\n");
    fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#2e7d32\"/>\n", legend_x + 6, ly);
    gc_svg_text(f, legend_x + 16, ly + 4, "start", 11, "exact");
    fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"1.5\"/>\n",
            legend_x + 6, ly + 20);
    gc_svg_text(f, legend_x + 16, ly + 24, "start", 11, "wrong");
    fprintf(f, "<path d=\"M%d %dl6 6m0 -6l-6 6\" stroke=\"#7b1fa2\" stroke-width=\"1.5\"/>\n", legend_x + 3, ly + 37);
    gc_svg_text(f, legend_x + 16, ly + 44, "start", 11, "cannot run");
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555555\" stroke-dasharray=\"4 3\"/>\n",
            legend_x, ly + 60, legend_x + 12, ly + 60);
    gc_svg_text(f, legend_x + 16, ly + 64, "start", 11, "predicted = measured");
    fputs("</g>\n", f);
    gc_svg_end(f);
    free(pts);
    return GC_OK;
}

/* ------------------------------------------------------------------ memsys */

gc_status gc_memsys_chart_write(FILE* f, const char* name, const gc_memsys_report* reports, const int* order,
                                const char* const* ids, int count, gc_error* err)
{
    static const char* const parts[3] = {"bus", "invalidate", "writeback"};
    static const char* const part_labels[3] = {"bus traffic", "invalidates (L1, L2, K-cache)",
                                               "L2 writebacks (with their drain)"};
    static const uint32_t part_colours[3] = {0x4e79a7, 0xf28e2b, 0xe15759};
    double top_cycles = 0;
    for (int i = 0; i < count; ++i)
        top_cycles = reports[i].total.cycles > top_cycles ? reports[i].total.cycles : top_cycles;
    (void)err;
    /* bars up from a common base, the legend right of them, off the data */
    const int left = 90, top = 80, plot_h = 400, bar_w = 90, pitch = 140;
    int plot_w = pitch * count, legend_x = left + plot_w + 20;
    int width = legend_x + 240, height = top + plot_h + 70;
    gc_svg_begin(f, width, height);
    gc_svg_title(f, "gpucache memsys strategies: ", name);
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Cycles of each flush strategy: ", left);
    gc_svg_escape(f, base_name(name), 100);
    fputs("</text>\n", f);
    gc_svg_text(f, left, 44, "start", 12, "stacked: bus traffic, invalidates, writebacks; ranked by cycles, best first");
    int base = top + plot_h;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", left - 10, base, left + plot_w,
            base);
    char text[96];
    /* y axis: 0 and the largest total */
    snprintf(text, sizeof text, "%.0f", top_cycles);
    gc_svg_text(f, left - 14, top + 4, "end", 10, text);
    gc_svg_text(f, left - 14, base + 4, "end", 10, "0");
    fprintf(f, "<text x=\"18\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 18 %d)\" text-anchor=\"middle\">"
               "cycles</text>\n",
            top + plot_h / 2, top + plot_h / 2);
    double scale = top_cycles > 0 ? plot_h / top_cycles : 0;
    for (int rank = 0; rank < count; ++rank) {
        const gc_memsys_stats* st = &reports[order[rank]].total;
        double value[3] = {st->bus_cycles, st->invalidate_cycles, st->writeback_cycles};
        int x = left + rank * pitch + (pitch - bar_w) / 2;
        fprintf(f, "<g class=\"bar\" data-strategy=\"%s\" data-rank=\"%d\" data-cycles=\"%.17g\">\n", ids[order[rank]],
                rank + 1, st->cycles);
        double y = base;
        for (int k = 0; k < 3; ++k) {
            double h = value[k] > 0 ? value[k] * scale : 0;
            y -= h;
            fprintf(f, "<rect class=\"segment\" data-part=\"%s\" x=\"%d\" y=\"%.3f\" width=\"%d\" height=\"%.3f\" "
                       "fill=\"#%06x\"><title>%s: %.0f cycles</title></rect>\n",
                    parts[k], x, y, bar_w, h, part_colours[k], part_labels[k], value[k]);
        }
        if (rank == 0)
            fprintf(f, "<rect class=\"best\" x=\"%d\" y=\"%.3f\" width=\"%d\" height=\"%.3f\" fill=\"none\" "
                       "stroke=\"#000000\" stroke-width=\"2.5\"/>\n",
                    x - 2, y - 2, bar_w + 4, base - y + 2);
        fputs("</g>\n", f);
        snprintf(text, sizeof text, "%.0f%s", st->cycles, rank == 0 ? " (best)" : "");
        gc_svg_text(f, x + bar_w / 2.0, y - 8, "middle", 11, text);
        gc_svg_text(f, x + bar_w / 2.0, base + 18, "middle", 12, ids[order[rank]]);
        snprintf(text, sizeof text, "rank %d", rank + 1);
        gc_svg_text(f, x + bar_w / 2.0, base + 34, "middle", 10, text);
    }
    fputs("<g class=\"legend\">\n", f);
    for (int k = 2; k >= 0; --k) {
        int y = top + (2 - k) * 22;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"#%06x\"/>\n", legend_x, y,
                part_colours[k]);
        gc_svg_text(f, legend_x + 20, y + 11, "start", 11, part_labels[k]);
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"#000000\" "
               "stroke-width=\"2.5\"/>\n",
            legend_x, top + 66);
    gc_svg_text(f, legend_x + 20, top + 77, "start", 11, "best (fewest cycles)");
    fputs("</g>\n", f);
    gc_svg_end(f);
    return GC_OK;
}
