/* The job engine of gpucache sweep: each job (mesh, layout, cache size) builds its index
 * buffer and analyzes (or measures) it under every model; jobs run on every core and
 * write their own rows, so the output is the same for any thread count. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sweep.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char* const layout_names[L_COUNT] = {"optimal", "striped", "tipsify", "forsyth", "auto", "original"};

size_t cache_count(const sweep* s)
{
    return (size_t)(s->cache_hi - s->cache_lo + 1);
}

/* Builds the buffer of one job into *out (malloc'd); returns its index count, 0 when the
 * layout does not apply (grid layouts on a mesh file). */
static gc_status build_job(const sweep* s, const sweep_mesh* m, layout l, uint32_t cache, uint32_t** out, size_t* n,
                           gc_error* err)
{
    *out = NULL;
    *n = 0;
    if (l == L_OPTIMAL || l == L_STRIPED) {
        if (!m->is_grid)
            return GC_OK;
        gc_grid_layout g = l == L_OPTIMAL ? GC_GRID_OPTIMAL : GC_GRID_STRIPED;
        size_t count = gc_grid_index_count(m->width, m->height, g, cache);
        *out = malloc(count * sizeof **out);
        if (!*out)
            return GC_ERR_NOMEM;
        return gc_grid_generate(m->width, m->height, g, cache, *out, n, err);
    }
    *out = malloc((m->count ? m->count : 1) * sizeof **out);
    if (!*out)
        return GC_ERR_NOMEM;
    if (l == L_ORIGINAL) {
        memcpy(*out, m->indices, m->count * sizeof **out);
        *n = m->count;
        return GC_OK;
    }
    gc_optimize_options o = {0};
    gc_model target;
    gc_optimizer alg = l == L_TIPSIFY ? GC_OPT_TIPSIFY : l == L_FORSYTH ? GC_OPT_FORSYTH : GC_OPT_AUTO;
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
    (void)s;
    *n = m->count;
    return gc_optimize(alg, m->indices, m->count, m->vertices, &o, *out, err);
}

static void show_progress(sweep* s)
{
    double now = now_seconds();
    if (!s->progress || (now - s->last_progress < 0.25 && s->done_jobs != s->job_count))
        return;
    s->last_progress = now;
    double frac = (double)s->done_jobs / (double)s->job_count;
    double left = frac > 0 ? (now - s->start) * (1 - frac) / frac : 0;
    fprintf(stderr, "\rgpucache: sweep: %3.0f%%, %.0f s left   ", 100.0 * frac, left);
    if (s->done_jobs == s->job_count)
        fprintf(stderr, "\n");
}

static void* worker(void* arg)
{
    sweep* s = arg;
    const size_t per_mesh = s->layout_count * cache_count(s);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t job = s->next_job++;
        int stop = s->failed;
        pthread_mutex_unlock(&s->lock);
        if (stop || job >= s->job_count)
            return NULL;
        const sweep_mesh* m = &s->meshes[job / per_mesh];
        layout l = s->layouts[(job % per_mesh) / cache_count(s)];
        uint32_t cache = s->cache_lo + (uint32_t)(job % cache_count(s));
        uint32_t* buf;
        size_t n;
        gc_error err = {0};
        gc_status st = build_job(s, m, l, cache, &buf, &n, &err);
        for (size_t k = 0; !st && n && k < s->model_count; ++k) {
            row* r = &s->rows[job * s->model_count + k];
            gc_draw d = {buf, n, GC_TRIANGLE_LIST, 0, 0};
            if (s->models[k].device) {
                gc_measurement meas;
                pthread_mutex_lock(&s->lock);
                st = gc_backend_measure(&s->device, &d, 1, &meas, &err);
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
                if ((st = gc_analyze(&s->models[k].model, &d, NULL, &stt, &err)))
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
        pthread_mutex_lock(&s->lock);
        if (st && !s->failed) {
            s->failed = 1;
            s->err = err;
            if (!s->err.message[0])
                snprintf(s->err.message, sizeof s->err.message, "out of memory");
        }
        s->done_jobs++;
        show_progress(s);
        pthread_mutex_unlock(&s->lock);
    }
}

/* Runs every job on `threads` threads (0: one per core, at most 64). */
void sweep_run(sweep* s, long threads)
{
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (cpus > 64 ? 64 : cpus) : 1;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->start = now_seconds();
    s->progress = isatty(2);
    pthread_t workers[64];
    long started = 0;
    for (long t = 1; t < threads; ++t)
        if (pthread_create(&workers[started], NULL, worker, s) == 0)
            started++;
    worker(s);
    for (long t = 0; t < started; ++t)
        pthread_join(workers[t], NULL);
    pthread_mutex_destroy(&s->lock);
}
