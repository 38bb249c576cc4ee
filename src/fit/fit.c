// SPDX-License-Identifier: MIT
/* Fitting a model to measurements: the search seeds 001 and 002 did by hand (measure
 * a GPU, then find the simulation that predicts it), over every family and its
 * parameters. Candidates are ranked by the cases they predict exactly, then by total
 * error. Workers take candidates one by one; a candidate is abandoned as soon as it
 * has missed so many cases that it cannot enter the current top `keep`, which is what
 * makes the full search fast: most candidates fail the first few cases. Abandoning
 * never changes the ranking, so the result is the same for any thread count. */
#include "../internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The candidates as the families' searches list them (gc_family.search). */
typedef struct space {
    gc_model* out;
    size_t capacity, n;
} space;

static void add_spec(void* user, const char* spec)
{
    space* sp = user;
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err) == GC_OK) {
        if (sp->n < sp->capacity)
            sp->out[sp->n] = m;
        ++sp->n;
    }
}

size_t gc_fit_search_space(gc_model* out, size_t capacity)
{
    /* Stage by stage, each family in table order (the specific defaults come first: on
     * equal scores the earlier candidate ranks first). */
    space sp = {out, capacity, 0};
    for (unsigned stage = 0; stage < GC_FAMILY_SEARCH_STAGES; ++stage)
        for (size_t f = 0; f < gc_family_count(); ++f)
            if (gc_family_get(f)->search)
                gc_family_get(f)->search(stage, add_spec, &sp);
    size_t n = sp.n;
    /* Drop duplicates of the defaults listed first ("nvidia" is nvidia:32,16,32). */
    if (capacity >= n) {
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            bool dup = false;
            for (size_t j = 0; j < k && j < 2 && !dup; ++j)
                dup = strcmp(out[j].name, out[i].name) == 0;
            if (!dup)
                out[k++] = out[i];
        }
        n = k;
    }
    return n;
}

/* Compares per-vertex rows, both ascending by value; a value missing on one side counts 0. */
static bool rows_equal(const gc_per_vertex* pv, const gc_fit_case* c)
{
    size_t i = 0, j = 0;
    while (i < pv->count || j < c->count) {
        if (j == c->count || (i < pv->count && pv->values[i] < c->values[j])) {
            if (pv->counts[i++] != 0)
                return false;
        } else if (i == pv->count || c->values[j] < pv->values[i]) {
            if (c->counts[j++] != 0)
                return false;
        } else {
            if (pv->counts[i++] != c->counts[j++])
                return false;
        }
    }
    return true;
}

gc_status gc_fit_evaluate(const gc_model* model, const gc_fit_case* c, uint64_t* predicted, int* exact, gc_error* err)
{
    gc_stats st;
    gc_status s = gc_analyze(model, &c->draw, NULL, &st, err);
    if (s)
        return s;
    *predicted = st.invocations;
    *exact = st.invocations == c->invocations;
    if (*exact && c->count) {
        /* Only a candidate that gets the total right pays for the per-vertex rows. */
        gc_per_vertex pv = {0};
        gc_analyze_options o = {0};
        o.per_vertex = &pv;
        if ((s = gc_analyze(model, &c->draw, &o, &st, err)))
            return s;
        *exact = rows_equal(&pv, c);
        gc_per_vertex_free(&pv);
    }
    return GC_OK;
}

typedef struct ranked {
    gc_fit_candidate c;
    size_t order; /* position in the search, the last tie-break */
} ranked;

typedef struct fit_shared {
    const gc_fit_case* cases;
    const size_t* case_order; /* cheapest first */
    size_t case_count;
    const gc_model* candidates;
    size_t candidate_count;
    size_t keep;
    pthread_mutex_t lock;
    size_t next;
    uint64_t done;
    ranked* top;
    size_t top_count;
    gc_status status;
    gc_error err;
    gc_progress_fn progress;
    void* progress_user;
} fit_shared;

static bool better(const ranked* a, const ranked* b)
{
    if (a->c.exact != b->c.exact)
        return a->c.exact > b->c.exact;
    if (a->c.total_error != b->c.total_error)
        return a->c.total_error < b->c.total_error;
    return a->order < b->order;
}

/* Under the lock: inserts r into the sorted top list if it belongs there. */
static void offer(fit_shared* sh, const ranked* r)
{
    size_t pos = sh->top_count;
    while (pos > 0 && better(r, &sh->top[pos - 1]))
        --pos;
    if (pos >= sh->keep)
        return;
    size_t last = sh->top_count < sh->keep ? sh->top_count : sh->keep - 1;
    memmove(&sh->top[pos + 1], &sh->top[pos], (last - pos) * sizeof *sh->top);
    sh->top[pos] = *r;
    if (sh->top_count < sh->keep)
        sh->top_count++;
}

/* Under the lock: the fewest exact cases a candidate needs to stay in the running. */
static size_t needed_exact(const fit_shared* sh)
{
    return sh->top_count == sh->keep ? sh->top[sh->keep - 1].c.exact : 0;
}

static void* fit_worker(void* arg)
{
    fit_shared* sh = arg;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        size_t i = sh->next++;
        size_t need = needed_exact(sh);
        bool stop = sh->status != GC_OK;
        pthread_mutex_unlock(&sh->lock);
        if (stop || i >= sh->candidate_count)
            return NULL;
        ranked r = {{sh->candidates[i], 0, 0}, i};
        size_t wrong = 0;
        bool abandoned = false;
        for (size_t k = 0; k < sh->case_count; ++k) {
            const gc_fit_case* c = &sh->cases[sh->case_order[k]];
            uint64_t predicted = 0;
            int exact = 0;
            gc_error err;
            gc_status s = gc_fit_evaluate(&r.c.model, c, &predicted, &exact, &err);
            if (s == GC_ERR_NOMEM) {
                pthread_mutex_lock(&sh->lock);
                if (sh->status == GC_OK) {
                    sh->status = s;
                    sh->err = err;
                }
                pthread_mutex_unlock(&sh->lock);
                return NULL;
            }
            if (s != GC_OK)
                predicted = 0; /* the model cannot run this draw (e.g. a warp smaller than a primitive) */
            r.c.exact += exact != 0;
            wrong += exact == 0;
            r.c.total_error += predicted > c->invocations ? predicted - c->invocations : c->invocations - predicted;
            if (wrong && (k & 7) == 7) {
                pthread_mutex_lock(&sh->lock);
                need = needed_exact(sh);
                pthread_mutex_unlock(&sh->lock);
            }
            if (sh->case_count - wrong < need) {
                abandoned = true;
                break;
            }
        }
        pthread_mutex_lock(&sh->lock);
        if (!abandoned)
            offer(sh, &r);
        uint64_t done = ++sh->done;
        if (sh->progress)
            sh->progress(sh->progress_user, done, sh->candidate_count);
        pthread_mutex_unlock(&sh->lock);
    }
}

typedef struct sized_case {
    size_t size, index;
} sized_case;

static int compare_sized(const void* a, const void* b)
{
    const sized_case *x = a, *y = b;
    if (x->size != y->size)
        return (x->size > y->size) - (x->size < y->size);
    return (x->index > y->index) - (x->index < y->index);
}

gc_status gc_fit(const gc_fit_case* cases, size_t case_count, const gc_fit_options* options, size_t keep,
                 gc_fit_candidate* best, size_t* best_count, gc_error* err)
{
    static const gc_fit_options defaults;
    if (!options)
        options = &defaults;
    *best_count = 0;
    if (keep == 0)
        return gc_fail(err, GC_ERR_USAGE, "fit: keep at least one candidate");
    if (case_count == 0)
        return gc_fail(err, GC_ERR_DATA, "fit: no measured cases");
    fit_shared sh;
    memset(&sh, 0, sizeof sh);
    gc_model* space = NULL;
    if (options->candidates) {
        sh.candidates = options->candidates;
        sh.candidate_count = options->candidate_count;
    } else {
        size_t n = gc_fit_search_space(NULL, 0);
        space = gc_alloc_array(n, sizeof *space, false);
        if (!space)
            return gc_fail(err, GC_ERR_NOMEM, "fit: out of memory for %zu candidate models", n);
        sh.candidates = space;
        sh.candidate_count = gc_fit_search_space(space, n);
    }
    size_t* order = gc_alloc_array(case_count, sizeof *order, false);
    sized_case* sized = gc_alloc_array(case_count, sizeof *sized, false);
    sh.top = gc_alloc_array(keep, sizeof *sh.top, false);
    if (!order || !sized || !sh.top) {
        free(space);
        free(order);
        free(sized);
        free(sh.top);
        return gc_fail(err, GC_ERR_NOMEM, "fit: out of memory ordering %zu cases", case_count);
    }
    /* Cheapest cases first: most candidates are abandoned after a few small draws. */
    for (size_t i = 0; i < case_count; ++i) {
        /* Sparse index values cost the analyzer a sort to renumber them: such cases go later. */
        const gc_draw* d = &cases[i].draw;
        uint32_t max = 0;
        for (size_t k = 0; k < d->index_count; ++k)
            if (!(d->restart_enabled && d->indices[k] == d->restart_value) && d->indices[k] > max)
                max = d->indices[k];
        size_t cost = d->index_count;
        if (max > 2 * (uint64_t)d->index_count + 1024)
            cost *= 16;
        sized[i] = (sized_case){cost, i};
    }
    qsort(sized, case_count, sizeof *sized, compare_sized);
    for (size_t i = 0; i < case_count; ++i)
        order[i] = sized[i].index;
    free(sized);
    sh.cases = cases;
    sh.case_order = order;
    sh.case_count = case_count;
    sh.keep = keep;
    sh.progress = options->progress;
    sh.progress_user = options->progress_user;
    pthread_mutex_init(&sh.lock, NULL);

    unsigned threads = options->threads > 1 ? options->threads : 1;
    if (threads > 256)
        threads = 256;
    pthread_t workers[256];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; ++t)
        if (pthread_create(&workers[started], NULL, fit_worker, &sh) == 0)
            started++;
    fit_worker(&sh);
    for (unsigned t = 0; t < started; ++t)
        pthread_join(workers[t], NULL);
    pthread_mutex_destroy(&sh.lock);

    gc_status s = sh.status;
    if (s) {
        if (err)
            *err = sh.err;
    } else {
        for (size_t i = 0; i < sh.top_count; ++i)
            best[i] = sh.top[i].c;
        *best_count = sh.top_count;
    }
    free(space);
    free(order);
    free(sh.top);
    return s;
}
