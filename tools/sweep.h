// SPDX-License-Identifier: MIT
/* A sweep as the sweep and validate commands build it (sweep_run.c): the library's
 * gc_sweep with the arrays it points to, run by gc_sweep_run (src/probe/sweep.c) with a
 * progress line, and its figure drawn by gnuplot. */
#ifndef GPUCACHE_SWEEP_H
#define GPUCACHE_SWEEP_H

#include "gpucache/gpucache_probe.h"

#define MAX_MESHES GC_SWEEP_PLOT_MAX
#define MAX_SWEEP_MODELS GC_SWEEP_PLOT_MAX

/* The progress line "gpucache: sweep: N%, S s left" at a terminal (a gc_progress_fn whose
 * user is a sweep_clock; report's sweep figure uses it too). */
typedef struct sweep_clock {
    double start, last;
    int enabled;
} sweep_clock;
void sweep_clock_start(sweep_clock* c);
void sweep_progress(void* user, uint64_t done, uint64_t total);

typedef struct sweep {
    gc_sweep g; /* points to the arrays below */
    gc_sweep_mesh meshes[MAX_MESHES];
    uint32_t* owned[MAX_MESHES]; /* the meshes' indices */
    gc_sweep_layout layouts[GC_LAYOUT_COUNT];
    gc_model models[MAX_SWEEP_MODELS];
    int on_device[MAX_SWEEP_MODELS];
    char label_text[MAX_SWEEP_MODELS][320];
    const char* labels[MAX_SWEEP_MODELS];
    gc_backend device; /* opened when a model is "device" (g.device set) */
    gc_sweep_row* rows; /* job * model_count + model */
    sweep_clock clock;
} sweep;

/* Points s->g at the arrays (call once, on a zeroed sweep). */
void sweep_init(sweep* s);
/* Adds grid:WxH (row-major) as the next mesh, named `name`. Prints and returns an exit
 * status on failure. */
int sweep_add_grid(sweep* s, const char* name, uint32_t w, uint32_t h);
/* Runs every job on `threads` threads (0: one per core) into s->rows. Prints and returns an
 * exit status on failure. */
int sweep_run(sweep* s, long threads);
/* The script's name beside a plot: OUT.png -> OUT.gp. */
void script_path(const char* plot_path, char* gp_path, size_t gp_size);
/* Writes OUT.gp beside plot_path and runs gnuplot on it; prints and returns an exit status
 * on failure (0 on success). */
int draw_plot(const sweep* s, const char* plot_path);
/* Frees the meshes, the rows and the device. */
void sweep_free(sweep* s);

#endif
