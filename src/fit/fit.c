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

static size_t add_spec(gc_model* out, size_t capacity, size_t n, const char* spec)
{
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err) == GC_OK) {
        if (n < capacity)
            out[n] = m;
        ++n;
    }
    return n;
}

size_t gc_fit_search_space(gc_model* out, size_t capacity)
{
    char spec[96];
    size_t n = 0;
    /* The specific models first: on equal scores the earlier candidate ranks first. */
    n = add_spec(out, capacity, n, "llvmpipe");
    n = add_spec(out, capacity, n, "nvidia");
    static const char* const sized[] = {"fifo", "lru", "direct-value", "direct-position"};
    for (size_t f = 0; f < 4; ++f)
        for (unsigned size = 1; size <= 256; ++size) {
            snprintf(spec, sizeof spec, "%s:%u", sized[f], size);
            n = add_spec(out, capacity, n, spec);
        }
    /* nvidia: cache sizes, idle and insertion lifetimes (0 = never expires). */
    static const unsigned idles[] = {0, 8, 16, 24, 32, 64};
    static const unsigned lives[] = {0, 16, 32, 48, 64};
    for (unsigned size = 3; size <= 256; size += size < 64 ? 1 : 32)
        for (size_t i = 0; i < sizeof idles / sizeof idles[0]; ++i)
            for (size_t l = 0; l < sizeof lives / sizeof lives[0]; ++l) {
                snprintf(spec, sizeof spec, "nvidia:size=%u,idle=%u,life=%u", size, idles[i], lives[l]);
                n = add_spec(out, capacity, n, spec);
            }
    /* meshopt: cache, warp (0 = none), primitive group (0 = no limit). */
    static const unsigned warps[] = {0, 16, 32, 64};
    static const unsigned groups[] = {0, 16, 32, 64, 128, 256};
    for (unsigned cache = 3; cache <= 256; cache += cache < 64 ? 1 : 8)
        for (size_t w = 0; w < sizeof warps / sizeof warps[0]; ++w)
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                snprintf(spec, sizeof spec, "meshopt:%u,%u,%u", cache, warps[w], groups[g]);
                n = add_spec(out, capacity, n, spec);
            }
    /* reuse: warp, compare window, triangles per warp. */
    static const unsigned rwarps[] = {16, 32, 48, 64, 96, 128};
    static const unsigned windows[] = {4, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    static const unsigned tris[] = {0, 16, 32, 64, 128, 256};
    for (size_t w = 0; w < sizeof rwarps / sizeof rwarps[0]; ++w)
        for (size_t f = 0; f < sizeof windows / sizeof windows[0] && windows[f] <= rwarps[w]; ++f)
            for (size_t t = 0; t < sizeof tris / sizeof tris[0]; ++t) {
                snprintf(spec, sizeof spec, "reuse:%u,%u,%u", rwarps[w], windows[f], tris[t]);
                n = add_spec(out, capacity, n, spec);
            }
    /* batch: slots, and a few primitive limits. */
    for (unsigned slots = 3; slots <= 256; ++slots) {
        snprintf(spec, sizeof spec, "batch:slots=%u,prims=0", slots);
        n = add_spec(out, capacity, n, spec);
    }
    static const unsigned bslots[] = {16, 32, 64}, bprims[] = {8, 16, 32};
    for (size_t s = 0; s < 3; ++s)
        for (size_t p = 0; p < 3; ++p) {
            snprintf(spec, sizeof spec, "batch:slots=%u,prims=%u", bslots[s], bprims[p]);
            n = add_spec(out, capacity, n, spec);
        }
    /* llvmpipe: segment length and fetch-table size. */
    static const unsigned segments[] = {256, 512, 1024, 2048, 4096};
    static const unsigned maps[] = {64, 128, 256, 512, 1024};
    for (size_t s = 0; s < 5; ++s)
        for (size_t m = 0; m < 5; ++m) {
            snprintf(spec, sizeof spec, "llvmpipe:segment=%u,map=%u", segments[s], maps[m]);
            n = add_spec(out, capacity, n, spec);
        }
    /* Kerbl et al.'s batch rules (HPG 2018), after the others so that ties keep ranking as
       before: NVIDIA's batches (indices, invocations) with the DX slots or a GL window,
       full reuse in batches (Intel's bound, CURE), and ATI's LRU with hard resets. */
    static const unsigned kbatch[][2] = {{96, 32}, {48, 16}, {96, 16}, {192, 64}, {96, 64}, {384, 128}};
    for (size_t b = 0; b < sizeof kbatch / sizeof kbatch[0]; ++b) {
        snprintf(spec, sizeof spec, "nv-dx:indices=%u,vertices=%u", kbatch[b][0], kbatch[b][1]);
        n = add_spec(out, capacity, n, spec);
        static const unsigned glw[] = {8, 16, 24, 32, 40, 42, 48, 64};
        for (size_t w = 0; w < sizeof glw / sizeof glw[0]; ++w) {
            snprintf(spec, sizeof spec, "nv-gl:indices=%u,vertices=%u,window=%u", kbatch[b][0], kbatch[b][1], glw[w]);
            n = add_spec(out, capacity, n, spec);
        }
    }
    static const unsigned aind[] = {96, 192, 384, 768, 1023, 1791}, avert[] = {16, 32, 64, 128, 256};
    for (size_t i = 0; i < sizeof aind / sizeof aind[0]; ++i)
        for (size_t v = 0; v < sizeof avert / sizeof avert[0]; ++v) {
            snprintf(spec, sizeof spec, "batch-all:indices=%u,vertices=%u", aind[i], avert[v]);
            n = add_spec(out, capacity, n, spec);
        }
    static const unsigned alru[] = {8, 14, 15, 16, 24, 30, 32}, areset[] = {192, 384, 768};
    for (size_t l = 0; l < sizeof alru / sizeof alru[0]; ++l)
        for (size_t r = 0; r < sizeof areset / sizeof areset[0]; ++r) {
            snprintf(spec, sizeof spec, "ati:lru=%u,vertices=64,reset=%u", alru[l], areset[r]);
            n = add_spec(out, capacity, n, spec);
        }
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
