// SPDX-License-Identifier: MIT
/* sweep_run (sweep.h): the tool's sweep handed to the library's gc_sweep_run with a progress
 * line; used by the sweep, report and validate commands. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sweep.h"

#include <stdio.h>
#include <string.h>

/* "gpucache: sweep: N%, S s left" on a terminal, at most four times a second. */
void sweep_progress(void* user, uint64_t done, uint64_t total)
{
    sweep* s = user;
    double now = now_seconds();
    if (!s->progress || (now - s->last_progress < 0.25 && done != total))
        return;
    s->last_progress = now;
    double frac = (double)done / (double)total;
    double left = frac > 0 ? (now - s->start) * (1 - frac) / frac : 0;
    fprintf(stderr, "\rgpucache: sweep: %3.0f%%, %.0f s left   ", 100.0 * frac, left);
    if (done == total)
        fprintf(stderr, "\n");
}

void sweep_view(const sweep* s, gc_sweep* g, gc_sweep_mesh* meshes, gc_model* models, int* on_device)
{
    for (size_t i = 0; i < s->mesh_count; ++i) {
        const sweep_mesh* m = &s->meshes[i];
        gc_sweep_mesh one = {m->name, m->is_grid, m->width, m->height, m->indices, m->count, m->vertices};
        meshes[i] = one;
    }
    for (size_t k = 0; k < s->model_count; ++k) {
        models[k] = s->models[k].model;
        on_device[k] = s->models[k].device;
    }
    memset(g, 0, sizeof *g);
    g->meshes = meshes;
    g->mesh_count = s->mesh_count;
    g->layouts = s->layouts;
    g->layout_count = s->layout_count;
    g->cache_lo = s->cache_lo;
    g->cache_hi = s->cache_hi;
    g->models = models;
    g->on_device = on_device;
    g->model_count = s->model_count;
    g->device = s->have_device ? (gc_backend*)&s->device : NULL;
}

gc_status sweep_run(sweep* s, long threads)
{
    gc_sweep_mesh meshes[MAX_MESHES];
    gc_model models[MAX_SWEEP_MODELS];
    int on_device[MAX_SWEEP_MODELS];
    gc_sweep g;
    sweep_view(s, &g, meshes, models, on_device);
    g.threads = (unsigned)threads;
    g.progress = sweep_progress;
    g.progress_user = s;
    s->start = now_seconds();
    s->progress = progress_wanted();
    return gc_sweep_run(&g, s->rows, &s->err);
}
