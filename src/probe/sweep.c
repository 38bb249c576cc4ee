// SPDX-License-Identifier: MIT
/* Sweeps (gc_sweep_run, see gpucache_probe.h): each job (mesh, layout, cache size) builds
 * its index buffer and analyzes (or measures) it under every model; jobs run on every core
 * and write their own rows, so the rows are the same for any thread count. */
#define _POSIX_C_SOURCE 200809L
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef gc_sweep_layout layout;
typedef gc_sweep_mesh sweep_mesh;
typedef gc_sweep_row row;

static const char* const layout_names[GC_LAYOUT_COUNT] = {"optimal", "striped", "tipsify", "forsyth", "auto",
                                                          "original"};

const char* gc_sweep_layout_name(gc_sweep_layout l)
{
    return (unsigned)l < GC_LAYOUT_COUNT ? layout_names[l] : "";
}

/* A running sweep: the caller's description and the workers' shared state. */
typedef struct sweep {
    const gc_sweep* in;
    row* rows;
    pthread_mutex_t lock; /* job queue, progress, the device, the memory budget */
    pthread_cond_t memory_freed;
    size_t memory_budget, memory_used; /* bytes of job working memory, see job_memory */
    size_t next_job, done_jobs, job_count;
    int failed;
    gc_error err;
} sweep;

static size_t cache_count(const gc_sweep* s)
{
    return (size_t)(s->cache_hi - s->cache_lo + 1);
}

/* An allocation failure as the library reports one: what, and how much. */
static gc_status job_nomem(gc_error* err, const sweep_mesh* m, layout l, size_t count)
{
    err->code = GC_ERR_NOMEM;
    snprintf(err->message, sizeof err->message, "%s: out of memory for the %s layout's %zu indices", m->name,
             layout_names[l], count);
    return GC_ERR_NOMEM;
}

/* Builds the buffer of one job into *out (malloc'd); returns its index count, 0 when the
 * layout does not apply (grid layouts on a mesh file). */
static gc_status build_job(const sweep_mesh* m, layout l, uint32_t cache, uint32_t** out, size_t* n,
                           gc_error* err)
{
    *out = NULL;
    *n = 0;
    if (l == GC_LAYOUT_OPTIMAL || l == GC_LAYOUT_STRIPED) {
        if (!m->is_grid)
            return GC_OK;
        gc_grid_layout g = l == GC_LAYOUT_OPTIMAL ? GC_GRID_OPTIMAL : GC_GRID_STRIPED;
        size_t count = gc_grid_index_count(m->width, m->height, g, cache);
        *out = malloc(count * sizeof **out);
        if (!*out)
            return job_nomem(err, m, l, count);
        return gc_grid_generate(m->width, m->height, g, cache, *out, n, err);
    }
    if (l == GC_LAYOUT_ORIGINAL) {
        *n = m->count; /* the caller reads m->indices itself: no copy */
        return GC_OK;
    }
    *out = malloc((m->count ? m->count : 1) * sizeof **out);
    if (!*out)
        return job_nomem(err, m, l, m->count);
    gc_optimize_options o = {0};
    gc_model target;
    gc_optimizer alg = l == GC_LAYOUT_TIPSIFY ? GC_OPT_TIPSIFY : l == GC_LAYOUT_FORSYTH ? GC_OPT_FORSYTH : GC_OPT_AUTO;
    if (alg == GC_OPT_FORSYTH && (cache < 4 || cache > 256)) {
        free(*out);
        *out = NULL;
        return GC_OK; /* forsyth models caches of 4 to 256 */
    }
    if (alg == GC_OPT_AUTO) {
        /* auto at cache size c targets a FIFO of c */
        char spec[32];
        snprintf(spec, sizeof spec, "fifo:%u", cache);
        gc_status st = gc_model_parse(spec, &target, err);
        if (st)
            return st;
        o.targets = &target;
        o.target_count = 1;
    } else {
        o.cache_size = cache;
    }
    *n = m->count;
    return gc_optimize(alg, m->indices, m->count, m->vertices, &o, *out, err);
}

/* Working memory of one job, per index of its mesh: the job's own buffer (4 bytes) and,
 * for the optimizers, their working sets (tipsify, forsyth and auto take 11 to 13 bytes
 * an index on a grid, measured with /usr/bin/time -v); the models' per-vertex state
 * is at most a few bytes an index more. */
#define JOB_BYTES_PER_INDEX_COPY 6
#define JOB_BYTES_PER_INDEX_OPTIMIZE 18
/* Jobs on meshes this small run on every thread whatever the budget. */
#define MEMORY_BUDGET_FLOOR ((size_t)64 << 20)

static size_t job_memory(const sweep_mesh* m, layout l)
{
    size_t per = l == GC_LAYOUT_ORIGINAL || l == GC_LAYOUT_OPTIMAL || l == GC_LAYOUT_STRIPED ? JOB_BYTES_PER_INDEX_COPY
                                                                      : JOB_BYTES_PER_INDEX_OPTIMIZE;
    return m->count > SIZE_MAX / per ? SIZE_MAX : m->count * per;
}

/* Jobs share one budget of working memory, that of one optimizing job on the largest
 * mesh: a thread waits for memory before it starts a job, so more threads never
 * multiply the memory (on grid:4000x4000 each thread used to hold 1.45 GB). A job
 * larger than the budget runs alone. Rows do not depend on the order jobs run in. */
static void reserve_memory(sweep* s, size_t bytes)
{
    pthread_mutex_lock(&s->lock);
    while (s->memory_used && (s->memory_used > s->memory_budget || bytes > s->memory_budget - s->memory_used))
        pthread_cond_wait(&s->memory_freed, &s->lock);
    s->memory_used += bytes;
    pthread_mutex_unlock(&s->lock);
}

static void release_memory(sweep* s, size_t bytes)
{
    pthread_mutex_lock(&s->lock);
    s->memory_used -= bytes;
    pthread_cond_broadcast(&s->memory_freed);
    pthread_mutex_unlock(&s->lock);
}

static void* worker(void* arg)
{
    sweep* s = arg;
    const gc_sweep* in = s->in;
    const size_t caches = cache_count(in);
    const size_t per_mesh = in->layout_count * caches;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t job = s->next_job++;
        int stop = s->failed;
        pthread_mutex_unlock(&s->lock);
        if (stop || job >= s->job_count)
            return NULL;
        const sweep_mesh* m = &in->meshes[job / per_mesh];
        layout l = in->layouts[(job % per_mesh) / caches];
        uint32_t cache = in->cache_lo + (uint32_t)(job % caches);
        uint32_t* buf;
        size_t n;
        gc_error err = {0};
        size_t memory = job_memory(m, l);
        reserve_memory(s, memory);
        gc_status st = build_job(m, l, cache, &buf, &n, &err);
        const uint32_t* indices = l == GC_LAYOUT_ORIGINAL ? m->indices : buf;
        for (size_t k = 0; !st && n && k < in->model_count; ++k) {
            row* r = &s->rows[job * in->model_count + k];
            gc_draw d = {indices, n, GC_TRIANGLE_LIST, 0, 0};
            if (in->on_device && in->on_device[k]) {
                gc_measurement meas;
                pthread_mutex_lock(&s->lock);
                st = gc_backend_measure(in->device, &d, 1, &meas, &err);
                pthread_mutex_unlock(&s->lock);
                if (st)
                    break;
                /* A triangle list references every index value in it: the measurement's
                 * per-vertex rows are the distinct vertices, as the analyzer counts them. */
                r->invocations = meas.invocations;
                r->triangles = n / 3;
                r->vertices = meas.count;
                r->atvr = meas.count ? (double)meas.invocations / (double)meas.count : 0.0;
                r->acmr = n ? (double)meas.invocations / (double)(n / 3) : 0.0;
                gc_measurement_free(&meas);
            } else {
                gc_stats stt;
                if ((st = gc_analyze(&in->models[k], &d, NULL, &stt, &err)))
                    break;
                r->invocations = stt.invocations;
                r->triangles = stt.primitives;
                r->vertices = stt.vertices;
                r->atvr = stt.atvr;
                r->acmr = stt.acmr;
            }
            r->valid = 1;
        }
        free(buf);
        release_memory(s, memory);
        pthread_mutex_lock(&s->lock);
        if (st && !s->failed) {
            s->failed = 1;
            s->err = err;
            if (!s->err.message[0])
                snprintf(s->err.message, sizeof s->err.message, "%s: out of memory for the %s layout at cache %u",
                         m->name, layout_names[l], cache);
        }
        s->done_jobs++;
        if (in->progress)
            in->progress(in->progress_user, s->done_jobs, s->job_count);
        pthread_mutex_unlock(&s->lock);
    }
}

gc_status gc_sweep_run(const gc_sweep* in, gc_sweep_row* rows, gc_error* err)
{
    if (!in || !rows || (in->mesh_count && !in->meshes) || (in->layout_count && !in->layouts) ||
        (in->model_count && !in->models) || in->cache_lo < 3 || in->cache_hi < in->cache_lo || in->cache_hi > 4096)
        return gc_fail(err, GC_ERR_USAGE, "sweep: meshes, layouts, models and cache sizes in [3, 4096] needed");
    for (size_t k = 0; k < in->model_count; ++k)
        if (in->on_device && in->on_device[k] && !in->device)
            return gc_fail(err, GC_ERR_USAGE, "sweep: a model measured on a device, and no device");
    for (size_t i = 0; i < in->layout_count; ++i)
        if ((unsigned)in->layouts[i] >= GC_LAYOUT_COUNT)
            return gc_fail(err, GC_ERR_USAGE, "sweep: unknown layout %d", (int)in->layouts[i]);
    sweep s;
    memset(&s, 0, sizeof s);
    s.in = in;
    s.rows = rows;
    s.job_count = in->mesh_count * in->layout_count * cache_count(in);
    memset(rows, 0, s.job_count * in->model_count * sizeof *rows);
    long threads = in->threads;
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (cpus > 64 ? 64 : cpus) : 1;
    }
    if (threads > 64)
        threads = 64;
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.memory_freed, NULL);
    s.memory_budget = MEMORY_BUDGET_FLOOR;
    for (size_t i = 0; i < in->mesh_count; ++i) {
        size_t largest = job_memory(&in->meshes[i], GC_LAYOUT_AUTO);
        if (largest > s.memory_budget)
            s.memory_budget = largest;
    }
    pthread_t workers[64];
    long started = 0;
    for (long t = 1; t < threads; ++t)
        if (pthread_create(&workers[started], NULL, worker, &s) == 0)
            started++;
    worker(&s);
    for (long t = 0; t < started; ++t)
        pthread_join(workers[t], NULL);
    pthread_cond_destroy(&s.memory_freed);
    pthread_mutex_destroy(&s.lock);
    if (s.failed) {
        if (err)
            *err = s.err;
        return s.err.code ? s.err.code : GC_ERR_NOMEM;
    }
    return GC_OK;
}
