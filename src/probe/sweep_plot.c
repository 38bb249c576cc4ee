// SPDX-License-Identifier: MIT
/* gpucache sweep's figure as a gnuplot script (gc_sweep_plot_script, gpucache_probe.h):
 * one panel per mesh and model, ATVR against the target cache size, a curve per layout,
 * and seed 002's published points beside the models that stand for their vendor. Data
 * inline, so that the script alone redraws the figure; every name goes through
 * gc_gnuplot_string. */
#include "../internal.h"
#include "gpucache/gpucache_pictures.h"
#include "gpucache/gpucache_probe.h"

#include <stdio.h>
#include <string.h>

/* The file name without its folders: a figure pasted elsewhere should not carry the
 * author's paths. */
static const char* base_name(const char* path)
{
    const char* slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* Each layout's curve: colour, dash type and point type all differ, so that curves that
 * coincide (optimal and striped below the break, every layout on a model that ignores
 * order) stay apart in print and in grey. */
static const char* const layout_colors[GC_LAYOUT_COUNT] = {"#1b9e77", "#d95f02", "#7570b3",
                                                           "#e7298a", "#66a61e", "#666666"};
static const char* const layout_dashes[GC_LAYOUT_COUNT] = {"1", "2", "3", "4", "5", "(10,4)"};
static const int layout_points[GC_LAYOUT_COUNT] = {7, 5, 9, 11, 13, 3};

/* Seed 002's published measurements of the 100x100 grid ("Optimal grid rendering isn't
 * optimal", Results sections): only the pairs the seed states as (target cache size,
 * ATVR). Its other statements are not points (Intel's optimal "reaches ATVR=1" with no
 * size, striped "breaks down" at 66, NVIDIA's striped and optimal "reach ATVR > 2 at 11").
 * docs/experiments/optimal-grid.md cites them. */
typedef enum { VENDOR_NONE, VENDOR_INTEL, VENDOR_NVIDIA, VENDOR_AMD } vendor;
static const struct {
    vendor vendor;
    gc_sweep_layout layout;
    uint32_t cache;
    const char* atvr; /* as the seed writes it */
} published[] = {
    {VENDOR_NVIDIA, GC_LAYOUT_STRIPED, 6, "1.53"},  {VENDOR_NVIDIA, GC_LAYOUT_TIPSIFY, 14, "1.60"},
    {VENDOR_AMD, GC_LAYOUT_STRIPED, 8, "1.21"},     {VENDOR_AMD, GC_LAYOUT_TIPSIFY, 16, "1.25"},
    {VENDOR_INTEL, GC_LAYOUT_TIPSIFY, 128, "1.007"},
};
static const char* const vendor_names[] = {"", "Intel", "NVIDIA", "AMD"};

static int starts_with(const char* s, const char* prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The GPU vendor whose published curves a model stands for: the presets named after a
 * vendor (and the bare nvidia family, seed 000's probed rules). Models of the seed's own
 * hypotheses (lru:16, reuse:...) and measured devices stand for no published GPU. */
static vendor model_vendor(const gc_sweep* s, size_t k)
{
    if (s->on_device && s->on_device[k])
        return VENDOR_NONE;
    const char* n = s->models[k].name;
    if (!strcmp(n, "intel") || starts_with(n, "intel-"))
        return VENDOR_INTEL;
    if (!strcmp(n, "nvidia") || starts_with(n, "nvidia-") || starts_with(n, "nv-"))
        return VENDOR_NVIDIA;
    if (starts_with(n, "amd-") || starts_with(n, "ati") || starts_with(n, "radeonsi-"))
        return VENDOR_AMD;
    return VENDOR_NONE;
}

/* True when the sweep has layout l. */
static int has_layout(const gc_sweep* s, gc_sweep_layout l)
{
    for (size_t i = 0; i < s->layout_count; ++i)
        if (s->layouts[i] == l)
            return 1;
    return 0;
}

/* True when panel (mesh mi, model k) shows published point i: the seed's grid, a model
 * that stands for the point's vendor, a swept layout, a size in range. */
static int shows_published(const gc_sweep* s, size_t mi, size_t k, size_t i)
{
    const gc_sweep_mesh* m = &s->meshes[mi];
    return m->is_grid && m->width == 100 && m->height == 100 && model_vendor(s, k) == published[i].vendor &&
           has_layout(s, published[i].layout) && published[i].cache >= s->cache_lo &&
           published[i].cache <= s->cache_hi;
}

/* Writes the published points panel (mi, k) shows as datablock $p_MI_K (cache, ATVR, the
 * layout's colour), appends their legend ("seed 002, NVIDIA: striped 1.53 at 6, ...") to
 * caption, and returns how many. */
static size_t write_published(FILE* f, const gc_sweep* s, size_t mi, size_t k, char* caption, size_t caption_size)
{
    size_t n = 0, used = 0;
    caption[0] = 0;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; ++i) {
        if (!shows_published(s, mi, k, i))
            continue;
        if (n++ == 0) {
            fprintf(f, "$p_%zu_%zu << EOD\n", mi, k);
            used += (size_t)snprintf(caption + used, caption_size - used, "seed 002, %s GPU:",
                                     vendor_names[published[i].vendor]);
        }
        fprintf(f, "%u %s 0x%s\n", published[i].cache, published[i].atvr, layout_colors[published[i].layout] + 1);
        if (used < caption_size)
            used += (size_t)snprintf(caption + used, caption_size - used, "%s %s %s at %u", n > 1 ? "," : "",
                                     gc_sweep_layout_name(published[i].layout), published[i].atvr,
                                     published[i].cache);
    }
    if (n)
        fprintf(f, "EOD\n");
    return n;
}

/* The figure's geometry in pixels: a title band, a legend band of its own (the key never
 * sits over a panel), then panels in rows; a last row that is not full is centred, so the
 * figure has no empty cells. */
enum { CELL_W = 500, CELL_H = 340, TITLE_H = 40, LEGEND_ROW_H = 22, ENTRY_W = 245 };

/* Margins of the box [x0, x1] x [y0, y1] (pixels from the top left) in screen units. */
static void set_margins(FILE* f, double w, double h, double x0, double x1, double y0, double y1)
{
    fprintf(f, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n", x0 / w, x1 / w);
    fprintf(f, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1 - y0 / h, 1 - y1 / h);
}

void gc_sweep_plot_script(FILE* f, const gc_sweep* s, const char* const* labels, const gc_sweep_row* rows,
                          const char* plot_path)
{
    const size_t cache_count = (size_t)(s->cache_hi - s->cache_lo + 1);
    if (s->mesh_count > GC_SWEEP_PLOT_MAX || s->model_count > GC_SWEEP_PLOT_MAX)
        return;
    int svg = gc_has_extension(plot_path, "svg");
    size_t panels = s->mesh_count * s->model_count;
    size_t cols = panels < 2 ? 1 : panels < 9 ? 2 : 3;
    size_t rows_n = (panels + cols - 1) / cols;
    fprintf(f, "# gpucache sweep: ATVR against the target cache size, one panel per mesh and model.\n");
    fprintf(f, "# Restyle freely, then run gnuplot on this file.\n");
    size_t any_published = 0;
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t li = 0; li < s->layout_count; ++li)
            for (size_t k = 0; k < s->model_count; ++k) {
                fprintf(f, "$d_%zu_%zu_%zu << EOD\n", mi, li, k);
                for (uint32_t c = s->cache_lo; c <= s->cache_hi; ++c) {
                    size_t job = (mi * s->layout_count + li) * cache_count + (c - s->cache_lo);
                    const gc_sweep_row* r = &rows[job * s->model_count + k];
                    if (r->valid)
                        fprintf(f, "%u %.6f\n", c, r->atvr);
                }
                fprintf(f, "EOD\n");
            }
    char captions[GC_SWEEP_PLOT_MAX * GC_SWEEP_PLOT_MAX][160];
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t k = 0; k < s->model_count; ++k)
            any_published += write_published(f, s, mi, k, captions[mi * s->model_count + k], sizeof captions[0]);

    /* the legend: every layout, the reference line, the published points when shown */
    size_t entries = s->layout_count + 1 + (any_published ? 1 : 0);
    size_t per_row = cols * CELL_W / ENTRY_W;
    size_t legend_rows = (entries + per_row - 1) / per_row;
    double w = (double)(cols * CELL_W);

    /* the figure's title: what, on which mesh(es), under which model(s) */
    char title[1200];
    size_t used = (size_t)snprintf(title, sizeof title, "gpucache sweep: ATVR against target cache size, ");
    if (s->mesh_count <= 3)
        for (size_t mi = 0; mi < s->mesh_count && used < sizeof title; ++mi)
            used += (size_t)snprintf(title + used, sizeof title - used, "%s%s", mi ? " / " : "",
                                     base_name(s->meshes[mi].name));
    else if (used < sizeof title)
        used += (size_t)snprintf(title + used, sizeof title - used, "%zu meshes", s->mesh_count);
    if (used < sizeof title) {
        if (s->model_count == 1)
            snprintf(title + used, sizeof title - used, ", %s", labels[0]);
        else
            snprintf(title + used, sizeof title - used, ", %zu models", s->model_count);
    }
    /* two lines when one would not fit the width (about 9 pixels a character at 15 points) */
    double title_h = TITLE_H;
    const size_t head = strlen("gpucache sweep: ATVR against target cache size");
    if ((double)strlen(title) * 9 > w - 20) {
        title[head] = '\n';
        memmove(title + head + 1, title + head + 2, strlen(title + head + 2) + 1);
        title_h += 20;
    }
    double legend_top = title_h, legend_bottom = title_h + (double)(legend_rows * LEGEND_ROW_H) + 8;
    /* a panel with published points has a two-line title */
    double cell_h = CELL_H + (any_published ? 20 : 0), top_gap = any_published ? 54 : 34;
    double h = legend_bottom + (double)rows_n * cell_h;

    fprintf(f, "set encoding utf8\n");
    if (svg)
        fprintf(f, "set terminal svg size %.0f,%.0f dynamic font 'Sans,13' background '#ffffff'\n", w, h);
    else
        fprintf(f, "set terminal pngcairo size %.0f,%.0f font 'Sans,10'\n", w, h);
    gc_gnuplot_set_output(f, plot_path);

    fprintf(f, "set multiplot title ");
    gc_gnuplot_string(f, title);
    fprintf(f, " font ',15' noenhanced\n");
    fprintf(f, "set grid\nunset key\nset xlabel 'target cache size' offset 0,0.3\nset ylabel 'ATVR' offset 1,0\n");
    /* one size alone: gnuplot refuses an empty x range, so it gets one size either side */
    if (s->cache_lo == s->cache_hi)
        fprintf(f, "set xrange [%u:%u]\nset yrange [0.9:*]\n", s->cache_lo - 1, s->cache_hi + 1);
    else
        fprintf(f, "set xrange [%u:%u]\nset yrange [0.9:*]\n", s->cache_lo, s->cache_hi);
    if (s->cache_hi - s->cache_lo <= 12)
        fprintf(f, "set xtics 1\n"); /* sizes are whole numbers */
    size_t n = cache_count;
    for (size_t p = 0; p < panels; ++p) {
        size_t mi = p / s->model_count, k = p % s->model_count;
        size_t r = p / cols, c = p % cols;
        size_t in_row = r + 1 < rows_n ? cols : panels - r * cols;
        double x0 = (double)((cols - in_row) * CELL_W) / 2 + (double)(c * CELL_W);
        double y0 = legend_bottom + (double)r * cell_h;
        /* a second title line lists the panel's published points, off the data */
        set_margins(f, w, h, x0 + 72, x0 + CELL_W - 22, y0 + top_gap, y0 + cell_h - 52);
        char panel_title[800];
        const char* caption = captions[mi * s->model_count + k];
        snprintf(panel_title, sizeof panel_title, "%s, %s%s%s", base_name(s->meshes[mi].name), labels[k],
                 caption[0] ? "\n" : "", caption);
        fprintf(f, "set title ");
        gc_gnuplot_string(f, panel_title);
        fprintf(f, " noenhanced\n");
        /* the reference first, under the curves */
        fprintf(f, "plot 1 with lines lw 1.5 dt 3 lc rgb '#444444' notitle");
        size_t drawn = 0;
        for (size_t li = 0; li < s->layout_count; ++li) {
            gc_sweep_layout l = s->layouts[li];
            if ((l == GC_LAYOUT_OPTIMAL || l == GC_LAYOUT_STRIPED) && !s->meshes[mi].is_grid)
                continue;
            /* marks every ~n/10 sizes, each layout at its own interval so that the marks
             * of coinciding curves fall apart */
            size_t every = n / 10 + 1 + drawn++;
            fprintf(f, ", $d_%zu_%zu_%zu with linespoints lw 2 lc rgb '%s' dt %s pt %d ps 0.9 pi %zu title '%s'", mi,
                    li, k, layout_colors[l], layout_dashes[l], layout_points[l], every, gc_sweep_layout_name(l));
        }
        /* the published points, in their layout's colour, labelled with the vendor */
        if (caption[0])
            /* pngcairo draws points smaller than the svg terminal: the same size on the page */
            fprintf(f, ", $p_%zu_%zu using 1:2:3 with points pt 12 ps %s lw 2.5 lc rgb variable notitle", mi, k,
                    svg ? "2" : "2.8");
        fprintf(f, "\n");
    }

    /* the legend band: a plot of nothing, only its key, between the title and the panels */
    fprintf(f, "unset title\nunset xlabel\nunset ylabel\nunset grid\nunset border\nunset tics\n");
    fprintf(f, "set xrange [0:1]\nset yrange [0:1]\n");
    set_margins(f, w, h, 0, w, legend_top, legend_bottom);
    fprintf(f, "set key at screen 0.5,%.4f center top horizontal maxcols %zu samplen 4 width 1 spacing 1.1 "
               "noopaque nobox noenhanced\n",
            1 - legend_top / h, per_row);
    fprintf(f, "plot ");
    for (size_t li = 0; li < s->layout_count; ++li) {
        gc_sweep_layout l = s->layouts[li];
        fprintf(f, "2 with linespoints lw 2 lc rgb '%s' dt %s pt %d ps 0.9 title '%s', ", layout_colors[l],
                layout_dashes[l], layout_points[l], gc_sweep_layout_name(l));
    }
    fprintf(f, "2 with lines lw 1.5 dt 3 lc rgb '#444444' title 'ATVR 1.0 (ideal)'");
    if (any_published)
        fprintf(f, ", 2 with points pt 12 ps %s lw 2.5 lc rgb '#444444' title 'seed 002, published'",
                svg ? "1.5" : "2");
    fprintf(f, "\nunset multiplot\n");
}
