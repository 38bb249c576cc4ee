// SPDX-License-Identifier: MIT
/* gpucache sweep's experiment (see cmd_sweep.c): the meshes, layouts, cache sizes and
 * models of a sweep as the command holds them, run by the library's gc_sweep_run
 * (src/probe/sweep.c), and its plot (sweep_plot.c). */
#ifndef GPUCACHE_SWEEP_H
#define GPUCACHE_SWEEP_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_probe.h"

#include <stddef.h>

#define MAX_MESHES GC_SWEEP_PLOT_MAX
#define MAX_SWEEP_MODELS GC_SWEEP_PLOT_MAX

typedef gc_sweep_layout layout;

typedef struct sweep_mesh {
    char name[256];
    int is_grid;
    uint32_t width, height;
    uint32_t* indices; /* triangle list (files) or the row-major grid */
    size_t count;
    uint32_t vertices; /* largest index + 1 */
} sweep_mesh;

typedef struct sweep_model {
    char label[320];
    gc_model model;
    int device;        /* measured on a device */
    uint32_t device_index;
} sweep_model;

typedef gc_sweep_row row;

typedef struct sweep {
    sweep_mesh meshes[MAX_MESHES];
    size_t mesh_count;
    layout layouts[GC_LAYOUT_COUNT];
    size_t layout_count;
    uint32_t cache_lo, cache_hi;
    sweep_model models[MAX_SWEEP_MODELS];
    size_t model_count;
    gc_backend device;   /* opened when a model is "device" */
    int have_device;
    size_t job_count;
    row* rows;        /* job * model_count + model */
    gc_error err;
    double start, last_progress; /* the progress line */
    int progress;
} sweep;

/* Cache sizes in the sweep's range. */
static inline size_t cache_count(const sweep* s)
{
    return (size_t)(s->cache_hi - s->cache_lo + 1);
}
/* Runs every job through gc_sweep_run on `threads` threads (0: one per core, at most 64),
 * with a progress line at a terminal; on failure s->err tells why. */
gc_status sweep_run(sweep* s, long threads);
/* The progress line "gpucache: sweep: N%, S s left" (a gc_progress_fn; user: the sweep,
 * its start and progress fields set). */
void sweep_progress(void* user, uint64_t done, uint64_t total);
/* The sweep as the library's gc_sweep (meshes, models, on_device: the arrays it points to,
 * mesh_count and model_count long). */
void sweep_view(const sweep* s, gc_sweep* g, gc_sweep_mesh* meshes, gc_model* models, int* on_device);
/* The script's name beside a plot: OUT.png -> OUT.gp. */
void script_path(const char* plot_path, char* gp_path, size_t gp_size);
/* Writes OUT.gp beside plot_path and runs gnuplot on it; prints and returns an exit status
 * on failure (0 on success). */
int draw_plot(const sweep* s, const char* plot_path);

#endif
