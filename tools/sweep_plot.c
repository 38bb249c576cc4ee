/* gpucache sweep's figure: the gnuplot script beside the plot and its drawing (tools/plot.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "plot.h"
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The script's name beside a plot: OUT.png -> OUT.gp. */
void script_path(const char* plot_path, char* gp_path, size_t gp_size)
{
    snprintf(gp_path, gp_size, "%s", plot_path);
    char* dot = strrchr(gp_path, '.');
    if (dot && !strchr(dot, '/'))
        *dot = 0;
    strncat(gp_path, ".gp", gp_size - strlen(gp_path) - 1);
}

/* The gnuplot script beside the plot: OUT.png -> OUT.gp. Data inline, so that the script
 * alone redraws the figure. Every name in it goes through gp_string (tools/plot.h). */
static int write_plot_script(const sweep* s, const char* plot_path, char* gp_path, size_t gp_size)
{
    script_path(plot_path, gp_path, gp_size);
    atomic_file af;
    if (atomic_open(&af, gp_path) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    FILE* f = af.f;
    int svg = has_ext(plot_path, "svg");
    size_t panels = s->mesh_count * s->model_count;
    size_t cols = panels < 2 ? 1 : panels < 5 ? 2 : 3;
    size_t rows_n = (panels + cols - 1) / cols;
    fprintf(f, "# gpucache sweep: ATVR against the target cache size, one panel per mesh and model.\n");
    fprintf(f, "# Restyle freely, then run gnuplot on this file.\n");
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t li = 0; li < s->layout_count; ++li)
            for (size_t k = 0; k < s->model_count; ++k) {
                fprintf(f, "$d_%zu_%zu_%zu << EOD\n", mi, li, k);
                for (uint32_t c = s->cache_lo; c <= s->cache_hi; ++c) {
                    size_t job = (mi * s->layout_count + li) * cache_count(s) + (c - s->cache_lo);
                    const row* r = &s->rows[job * s->model_count + k];
                    if (r->valid)
                        fprintf(f, "%u %.6f\n", c, r->atvr);
                }
                fprintf(f, "EOD\n");
            }
    fprintf(f, "set encoding utf8\n");
    if (svg)
        fprintf(f, "set terminal svg size %zu,%zu dynamic font 'Sans,11' background '#ffffff'\n", 520 * cols,
                380 * rows_n);
    else
        fprintf(f, "set terminal pngcairo size %zu,%zu font 'Sans,10'\n", 560 * cols, 400 * rows_n);
    gp_set_output(f, plot_path);
    fprintf(f, "set multiplot layout %zu,%zu\n", rows_n, cols);
    fprintf(f, "set grid\nset key top right opaque box\nset xlabel 'target cache size'\nset ylabel 'ATVR'\n");
    fprintf(f, "set xrange [%u:%u]\nset yrange [1:*]\n", s->cache_lo, s->cache_hi);
    static const char* const colors[GC_LAYOUT_COUNT] = {"#1b9e77", "#d95f02", "#7570b3",
                                                        "#e7298a", "#66a61e", "#666666"};
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t k = 0; k < s->model_count; ++k) {
            char title[600];
            snprintf(title, sizeof title, "%s, %s", s->meshes[mi].name, s->models[k].label);
            fprintf(f, "set title ");
            gp_string(f, title);
            fprintf(f, " noenhanced\n");
            fprintf(f, "plot ");
            int first = 1;
            for (size_t li = 0; li < s->layout_count; ++li) {
                layout l = s->layouts[li];
                if ((l == GC_LAYOUT_OPTIMAL || l == GC_LAYOUT_STRIPED) && !s->meshes[mi].is_grid)
                    continue;
                fprintf(f, "%s$d_%zu_%zu_%zu with lines lw 2 lc rgb '%s' title '%s'", first ? "" : ", ", mi, li, k,
                        colors[l], gc_sweep_layout_name(l));
                first = 0;
            }
            fprintf(f, "\n");
        }
    fprintf(f, "unset multiplot\n");
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    return 0;
}

/* Writes the script, then has gnuplot draw it into a private temporary folder and renames
 * the image into place (tools/plot.c). */
int draw_plot(const sweep* s, const char* plot_path)
{
    char gp[4200];
    int status = write_plot_script(s, plot_path, gp, sizeof gp);
    if (status)
        return status;
    return gp_draw(gp, plot_path) ? EXIT_DATA : 0;
}

