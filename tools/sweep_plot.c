// SPDX-License-Identifier: MIT
/* gpucache sweep's figure: the library writes the gnuplot script beside the plot
 * (gc_sweep_plot_script) and draws it (gc_gnuplot_draw); this file names the files, holds
 * the signals and prints what failed. */
#include "cli.h"
#include "sweep.h"
#include "gpucache/gpucache_pictures.h"

#include <errno.h>
#include <stdio.h>
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

int draw_plot(const sweep* s, const char* plot_path)
{
    char gp[4200];
    script_path(plot_path, gp, sizeof gp);
    gc_sweep_mesh meshes[MAX_MESHES];
    gc_model models[MAX_SWEEP_MODELS];
    int on_device[MAX_SWEEP_MODELS];
    const char* labels[MAX_SWEEP_MODELS];
    gc_sweep g;
    sweep_view(s, &g, meshes, models, on_device);
    for (size_t k = 0; k < s->model_count; ++k)
        labels[k] = s->models[k].label;
    atomic_file af;
    if (atomic_open(&af, gp) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", gp, strerror(errno));
        return EXIT_DATA;
    }
    gc_sweep_plot_script(af.f, &g, labels, s->rows, plot_path);
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", gp, strerror(errno));
        return EXIT_DATA;
    }
    /* termination signals wait until gnuplot's private folder is gone */
    gc_error err = {0};
    signals_hold();
    gc_status st = gc_gnuplot_draw(gp, plot_path, &err);
    signals_release();
    return st ? fail_with(&err) : 0;
}
