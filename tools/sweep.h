/* gpucache sweep's experiment (see cmd_sweep.c): the meshes, layouts, cache sizes and
 * models of a sweep, its job engine (sweep_jobs.c) and its plot (sweep_plot.c). */
#ifndef GPUCACHE_SWEEP_H
#define GPUCACHE_SWEEP_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_probe.h"

#include <pthread.h>
#include <stddef.h>

#define MAX_MESHES 16
#define MAX_SWEEP_MODELS 16

typedef enum layout { L_OPTIMAL, L_STRIPED, L_TIPSIFY, L_FORSYTH, L_AUTO, L_ORIGINAL, L_COUNT } layout;
extern const char* const layout_names[L_COUNT];

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

typedef struct row {
    uint64_t invocations, triangles, vertices;
    double atvr, acmr;
    int valid;
} row;

typedef struct sweep {
    sweep_mesh meshes[MAX_MESHES];
    size_t mesh_count;
    layout layouts[L_COUNT];
    size_t layout_count;
    uint32_t cache_lo, cache_hi;
    sweep_model models[MAX_SWEEP_MODELS];
    size_t model_count;
    gc_backend device;   /* opened when a model is "device" */
    int have_device;
    pthread_mutex_t lock; /* job queue, progress, the device, the memory budget */
    pthread_cond_t memory_freed;
    size_t memory_budget, memory_used; /* bytes of job working memory, see job_memory */
    size_t next_job, done_jobs, job_count;
    row* rows;        /* job * model_count + model */
    int failed;
    gc_error err;
    double start, last_progress;
    int progress;
} sweep;

/* Cache sizes in the sweep's range. */
size_t cache_count(const sweep* s);
/* Runs every job on `threads` threads (0: one per core, at most 64); s->failed and s->err
 * tell whether one failed. */
void sweep_run(sweep* s, long threads);
/* The script's name beside a plot: OUT.png -> OUT.gp. */
void script_path(const char* plot_path, char* gp_path, size_t gp_size);
/* Writes OUT.gp beside plot_path and runs gnuplot on it; prints and returns an exit status
 * on failure (0 on success). */
int draw_plot(const sweep* s, const char* plot_path);

#endif
