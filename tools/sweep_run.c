// SPDX-License-Identifier: MIT
/* The tool's sweep (sweep.h): the library runs it (gc_sweep_run), writes the gnuplot script
 * beside the plot (gc_sweep_plot_script) and draws it (gc_gnuplot_draw); this file holds
 * the arrays, shows the progress, holds the signals and prints what failed. Used by the
 * sweep and validate commands (report's figure: sweep_progress). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_clock_start(sweep_clock* c)
{
    c->start = gc_now_seconds();
    c->last = 0;
    c->enabled = progress_wanted();
}

/* "gpucache: sweep: N%, S s left" on a terminal, at most four times a second. */
void sweep_progress(void* user, uint64_t done, uint64_t total)
{
    sweep_clock* c = user;
    double now = gc_now_seconds();
    if (!c->enabled || (now - c->last < 0.25 && done != total))
        return;
    c->last = now;
    double frac = (double)done / (double)total;
    double left = frac > 0 ? (now - c->start) * (1 - frac) / frac : 0;
    fprintf(stderr, "\rgpucache: sweep: %3.0f%%, %.0f s left   ", 100.0 * frac, left);
    if (done == total)
        fprintf(stderr, "\n");
}

void sweep_init(sweep* s)
{
    s->g.meshes = s->meshes;
    s->g.layouts = s->layouts;
    s->g.models = s->models;
    s->g.on_device = s->on_device;
    for (size_t k = 0; k < MAX_SWEEP_MODELS; ++k)
        s->labels[k] = s->label_text[k];
}

int sweep_add_grid(sweep* s, const char* name, uint32_t w, uint32_t h)
{
    size_t n = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 0), i = s->g.mesh_count;
    gc_error err = {0};
    gc_sweep_mesh* m = &s->meshes[i];
    *m = (gc_sweep_mesh){name, 1, w, h, NULL, 0, (w + 1) * (h + 1)};
    if (!(s->owned[i] = malloc(n * sizeof *s->owned[i]))) {
        fprintf(stderr, "gpucache: %s: out of memory for the grid's %zu indices\n", name, n);
        return EXIT_DATA;
    }
    m->indices = s->owned[i];
    s->g.mesh_count = i + 1;
    return gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 0, s->owned[i], &m->count, &err) ? fail_with(&err) : 0;
}

int sweep_run(sweep* s, long threads)
{
    gc_error err = {0};
    size_t jobs = s->g.mesh_count * s->g.layout_count * (size_t)(s->g.cache_hi - s->g.cache_lo + 1);
    if (!(s->rows = calloc(jobs * s->g.model_count, sizeof *s->rows))) {
        fprintf(stderr, "gpucache: sweep: out of memory for %zu result rows\n", jobs * s->g.model_count);
        return EXIT_DATA;
    }
    s->g.threads = (unsigned)threads;
    s->g.progress = sweep_progress;
    s->g.progress_user = &s->clock;
    sweep_clock_start(&s->clock);
    return gc_sweep_run(&s->g, s->rows, &err) ? fail_with(&err) : 0;
}

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
    atomic_file af;
    int status = output_open(&af, gp);
    if (status)
        return status;
    gc_sweep_plot_script(af.f, &s->g, s->labels, s->rows, plot_path);
    if ((status = output_commit(&af, gp)) != 0)
        return status;
    /* termination signals wait until gnuplot's private folder is gone */
    gc_error err = {0};
    signals_hold();
    gc_status st = gc_gnuplot_draw(gp, plot_path, &err);
    signals_release();
    return st ? fail_with(&err) : 0;
}

void sweep_free(sweep* s)
{
    for (size_t i = 0; i < MAX_MESHES; ++i)
        free(s->owned[i]);
    free(s->rows);
    if (s->g.device)
        gc_backend_close(&s->device);
}
