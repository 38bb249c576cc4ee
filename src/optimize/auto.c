/* auto — gpucache's own optimizer: it minimizes the emulated invocations of the models
 * the user targets (default: intel, nvidia-kepler, nvidia-pascal and amd-gcn together).
 *
 * 1. Target-aware greedy. Triangles are emitted one by one while small emulators of the
 *    targets run alongside: FIFO, meshoptimizer's warps (meshopt:C,W,P) and seed 000's
 *    NVIDIA rules exactly, corner by corner; other families through a FIFO of their size.
 *    The next triangle is, among the remaining triangles of the 5 to 10 most recently used
 *    vertices, the one with the fewest misses summed over the targets, less two bonuses:
 *    one (weight `beta`) for finishing vertices (Forsyth's valence boost), one (weight
 *    `gamma`) for using cached vertices that are close to eviction and still have
 *    triangles left (use them before the cache drops them: Tipsify's idea, scored with the
 *    targets' own caches). Dead ends go back to the most recent vertex with triangles left
 *    (Tipsify's dead-end stack), then to input order. Each step scores a bounded number of
 *    candidates: linear time.
 * 2. Selection. The greedy (more variants of its bonus weights with more `effort`; the
 *    seed perturbs them), Forsyth's algorithm with a score table tuned on the vertex cache
 *    models (below), Tipsify at the largest FIFO target's size (at every target's size
 *    with more effort) and, with more effort, Forsyth's own order are scored with the
 *    exact emulators (gc_analyze); the order with the fewest invocations summed over the
 *    targets wins. Deterministic for a given seed.
 * 3. With more effort, a local search over short windows (window_local_search), scored by
 *    the same emulators, replayed and undone. */
#include "optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16 /* recently used vertices whose triangles are candidates: at most */
#define SCAN 8         /* remaining triangles scanned per recent vertex */
#define MAX_TARGETS 16

/* ------------------------------------------------------------- emulators */

typedef enum sim_kind { SIM_FIFO, SIM_MESHOPT, SIM_NVIDIA } sim_kind;

typedef struct sim {
    sim_kind kind;
    uint32_t size, warp, group, idle, life; /* per kind */
    uint32_t* stamp;    /* FIFO/meshopt: insertion time; nvidia: insertion primitive + 1 */
    uint32_t* last_use; /* nvidia: last primitive using the vertex */
    uint32_t* epoch_of; /* nvidia: reset epoch of the insertion */
    uint64_t time;      /* FIFO: insertions; meshopt: transform counter */
    uint32_t warp_fill, group_fill;
    uint32_t fill, epoch; /* nvidia: slots written since the reset, resets so far */
    uint32_t prim;
} sim;

static bool sim_init(sim* s, const gc_model* m, uint32_t vertex_count)
{
    memset(s, 0, sizeof *s);
    switch (m->family) {
    case GC_MODEL_MESHOPT:
        s->kind = SIM_MESHOPT;
        s->size = m->p[0], s->warp = m->p[1], s->group = m->p[2];
        s->time = (uint64_t)s->size + 1;
        break;
    case GC_MODEL_NVIDIA:
        s->kind = SIM_NVIDIA;
        s->size = m->p[0], s->idle = m->p[1], s->life = m->p[2];
        s->epoch = 1;
        break;
    case GC_MODEL_BATCH:
    case GC_MODEL_REUSE:
    case GC_MODEL_LLVMPIPE:
        s->kind = SIM_FIFO;
        s->size = m->family == GC_MODEL_LLVMPIPE ? 256 : m->p[0];
        break;
    default:
        s->kind = SIM_FIFO;
        s->size = m->p[0];
        break;
    }
    s->stamp = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    if (s->kind == SIM_NVIDIA) {
        s->last_use = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
        s->epoch_of = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
        return s->stamp && s->last_use && s->epoch_of;
    }
    return s->stamp != NULL;
}

static void sim_free(sim* s)
{
    free(s->stamp);
    free(s->last_use);
    free(s->epoch_of);
}

/* One emulator per target, fresh. *count says how many need sims_free, even on failure
 * (false: out of memory). */
static bool sims_init(sim* sims, size_t* count, const gc_model* targets, size_t target_count,
                      uint32_t vertex_count)
{
    bool ok = true;
    for (*count = 0; ok && *count < target_count; ++*count)
        ok = sim_init(&sims[*count], &targets[*count], vertex_count);
    return ok;
}

static void sims_free(sim* sims, size_t count)
{
    for (size_t k = 0; k < count; ++k)
        sim_free(&sims[k]);
}

/* Whether v is cached, one test per kind: the emulators' inner loops call these directly
 * (a call through the dispatcher below for every corner took half of the local search's
 * time). */
static inline bool fifo_cached(const sim* s, uint32_t v)
{
    return s->stamp[v] != 0 && s->time - s->stamp[v] < s->size;
}

static inline bool meshopt_cached(const sim* s, uint32_t v)
{
    return s->time - s->stamp[v] <= s->size;
}

/* nvidia: written since the last reset and not expired */
static inline bool nvidia_cached(const sim* s, uint32_t v)
{
    if (s->epoch_of[v] != s->epoch)
        return false;
    if (s->life && s->prim >= s->stamp[v] - 1 + s->life)
        return false;
    if (s->idle && s->prim >= s->last_use[v] + s->idle)
        return false;
    return true;
}

static inline bool sim_cached(const sim* s, uint32_t v)
{
    switch (s->kind) {
    case SIM_FIFO: return fifo_cached(s, v);
    case SIM_MESHOPT: return meshopt_cached(s, v);
    default: return nvidia_cached(s, v);
    }
}

/* Whether cached vertex v is still cached after `inserted` more insertions (FIFO, meshopt). */
static bool sim_cached_after(const sim* s, uint32_t v, uint32_t inserted)
{
    uint64_t age = s->time + inserted - s->stamp[v];
    return s->kind == SIM_FIFO ? age < s->size : age <= s->size;
}

/* How far a cached vertex is through its time in the cache, in [0, 1). Only FIFO-like
 * caches (FIFO, and the FIFO inside meshoptimizer's warps) have an age that says when the
 * vertex will be dropped; nvidia's lifetimes are per primitive and count 0 here. */
static float sim_age(const sim* s, uint32_t v)
{
    switch (s->kind) {
    case SIM_FIFO: return (float)(s->time - s->stamp[v]) / (float)s->size;
    case SIM_MESHOPT: return (float)(s->time - s->stamp[v]) / (float)(s->size + 1);
    default: return 0.0f;
    }
}

/* The invocations the triangle (a, b, c) would cost now; adds to *age the ages of its
 * cached corners whose bit is set in `keep` (those whose vertex has more triangles left). */
static uint32_t sim_cost(const sim* s, uint32_t a, uint32_t b, uint32_t c, unsigned keep, float* age)
{
    const uint32_t ma = !sim_cached(s, a), mb = !sim_cached(s, b), mc = !sim_cached(s, c);
    const uint32_t distinct = 1 + (b != a) + (c != a && c != b);
    uint32_t misses = ma + (b != a && mb) + (c != a && c != b && mc);
    if (s->kind != SIM_NVIDIA && misses && misses < distinct) {
        /* Corner by corner, as the exact models: an insertion may push a later corner of the
         * same triangle out of a FIFO. */
        uint32_t in = ma;
        uint32_t xb = b != a && (mb || !sim_cached_after(s, b, in));
        in += xb;
        uint32_t xc = c != a && c != b && (mc || !sim_cached_after(s, c, in));
        misses = ma + xb + xc;
    }
    if (keep && s->kind != SIM_NVIDIA) {
        if ((keep & 1) && !ma)
            *age += sim_age(s, a);
        if ((keep & 2) && !mb)
            *age += sim_age(s, b);
        if ((keep & 4) && !mc)
            *age += sim_age(s, c);
    }
    switch (s->kind) {
    case SIM_MESHOPT:
        /* meshoptimizer counts the flush check per corner */
        if ((s->group && s->group_fill == s->group) || (s->warp && s->warp_fill + ma + mb + mc > s->warp))
            return distinct; /* a new warp: nothing cached */
        return misses;
    case SIM_NVIDIA: return s->fill + misses > s->size ? distinct : misses; /* a reset: every vertex misses */
    default: return misses;
    }
}

/* Writes that a window of the local search has to take back: each overwritten per-vertex
 * word, in order. */
typedef struct undo_log {
    uint32_t** where;
    uint32_t* old;
    size_t count, capacity;
} undo_log;

static inline void set_word(uint32_t* where, uint32_t value, undo_log* log)
{
    if (log) {
        log->where[log->count] = where;
        log->old[log->count++] = *where;
    }
    *where = value;
}

/* Emits (a, b, c) and returns the invocations it cost, corner by corner as the exact models
 * count: what sim_cost predicted. With `log`, every per-vertex word written is recorded
 * first (at most 9 per triangle). */
static uint32_t sim_emit(sim* s, uint32_t a, uint32_t b, uint32_t c, undo_log* log)
{
    uint32_t inserted = 0;
    const uint32_t v[3] = {a, b, c};
    switch (s->kind) {
    case SIM_FIFO:
        for (int k = 0; k < 3; ++k)
            if (!fifo_cached(s, v[k]))
                set_word(&s->stamp[v[k]], (uint32_t)++s->time, log), inserted++;
        break;
    case SIM_MESHOPT: {
        /* as meshopt_analyzeVertexCache: flush checks count corners */
        uint32_t corners = !meshopt_cached(s, a) + !meshopt_cached(s, b) + !meshopt_cached(s, c);
        if ((s->group && s->group_fill == s->group) || (s->warp && s->warp_fill + corners > s->warp)) {
            s->warp_fill = s->group_fill = 0;
            s->time += s->size + 1;
        }
        for (int k = 0; k < 3; ++k)
            if (!meshopt_cached(s, v[k])) {
                set_word(&s->stamp[v[k]], (uint32_t)s->time++, log);
                s->warp_fill++;
                inserted++;
            }
        s->group_fill++;
        break;
    }
    default: {
        uint32_t misses =
            !nvidia_cached(s, a) + (b != a && !nvidia_cached(s, b)) + (c != a && c != b && !nvidia_cached(s, c));
        if (s->fill + misses > s->size) {
            s->epoch++;
            s->fill = 0;
        }
        for (int k = 0; k < 3; ++k) {
            if (!nvidia_cached(s, v[k])) {
                set_word(&s->epoch_of[v[k]], s->epoch, log);
                set_word(&s->stamp[v[k]], s->prim + 1, log);
                s->fill++;
                inserted++;
            }
            set_word(&s->last_use[v[k]], s->prim, log);
        }
        s->prim++;
        break;
    }
    }
    return inserted;
}

/* ---------------------------------------------------------------- greedy */

static gc_status greedy_order(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* targets, size_t target_count, float beta, float gamma,
                              uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    gc_live_triangles lists;
    gc_status s = gc_live_triangles_init(&lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    sim sims[MAX_TARGETS];
    size_t sim_count = 0;
    bool ok = sims_init(sims, &sim_count, targets, target_count, vertex_count);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!ok || !dead_end || !emitted) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;

    float boost[64];
    boost[0] = 0.0f;
    for (int n = 1; n < 64; ++n)
        boost[n] = 1.0f / sqrtf((float)n);

    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    size_t dead_top = 0, written = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        for (uint32_t r = 0; r < recent_count; ++r) {
            uint32_t v = recent[r];
            uint32_t scan = live[v] < SCAN ? live[v] : SCAN;
            for (uint32_t a = first[v]; a < first[v] + scan; ++a) {
                uint32_t t = lists.adj.triangles[a];
                const uint32_t* tv = indices + 3 * t;
                float valence = 0.0f, age = 0.0f;
                unsigned keep = 0;
                for (int c = 0; c < 3; ++c) {
                    uint32_t l = live[tv[c]];
                    valence += l < 64 ? boost[l] : 0.0f;
                    keep |= (unsigned)(l > 1 && gamma != 0.0f) << c;
                }
                uint32_t misses = 0;
                for (size_t k = 0; k < sim_count; ++k)
                    misses += sim_cost(&sims[k], tv[0], tv[1], tv[2], keep, &age);
                float score = (float)misses - beta * valence - gamma * age;
                if (best < 0 || score < best_score || (score == best_score && t < (uint32_t)best)) {
                    best = t;
                    best_score = score;
                }
            }
        }
        if (best < 0) {
            while (dead_top > 0 && best < 0) {
                uint32_t d = dead_end[--dead_top];
                if (live[d] > 0)
                    best = lists.adj.triangles[first[d]];
            }
            while (best < 0) {
                while (emitted[input_cursor])
                    ++input_cursor;
                best = (int64_t)input_cursor;
            }
        }
        uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * t;
        emitted[t] = 1;
        for (size_t k = 0; k < sim_count; ++k)
            sim_emit(&sims[k], tv[0], tv[1], tv[2], NULL);
        order[written++] = t;
        gc_live_triangles_remove(&lists, indices, t);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        /* Recent vertices: the triangle's first, then the previous ones. */
        uint32_t next[RECENT_MAX];
        uint32_t n = 0;
        for (int c = 0; c < 3; ++c) {
            bool dup = false;
            for (uint32_t k = 0; k < n; ++k)
                dup |= next[k] == tv[c];
            if (!dup && live[tv[c]] > 0)
                next[n++] = tv[c];
        }
        for (uint32_t k = 0; k < recent_count && n < recent_limit; ++k) {
            uint32_t v = recent[k];
            if (v != tv[0] && v != tv[1] && v != tv[2] && live[v] > 0)
                next[n++] = v;
        }
        memcpy(recent, next, n * sizeof *recent);
        recent_count = n;
    }
done:
    sims_free(sims, sim_count);
    free(dead_end);
    free(emitted);
    gc_live_triangles_free(&lists);
    return s;
}

/* ------------------------------------------------------------ local search */

/* The targets' emulators (the greedy's, with their per-vertex state) replay windows of the
 * order from the state at a position; what a window wrote is undone from the log, so a
 * try costs its length whatever the cache size. */
typedef struct window_state {
    sim* sims;
    size_t count;
    sim saved[MAX_TARGETS];
    undo_log log;
} window_state;

/* Emits triangle t into every target; returns the invocations it costs, summed. */
static uint32_t window_emit(window_state* w, const uint32_t* t, undo_log* log)
{
    uint32_t cost = 0;
    for (size_t k = 0; k < w->count; ++k)
        cost += sim_emit(&w->sims[k], t[0], t[1], t[2], log);
    return cost;
}

static void window_begin(window_state* w)
{
    memcpy(w->saved, w->sims, w->count * sizeof *w->sims);
    w->log.count = 0;
}

static void window_undo(window_state* w)
{
    for (size_t i = w->log.count; i-- > 0;)
        *w->log.where[i] = w->log.old[i];
    w->log.count = 0;
    memcpy(w->sims, w->saved, w->count * sizeof *w->sims);
}

/* Move descent: at each position, bringing forward one of the next REACH triangles is kept
 * when the invocations of the next WINDOW triangles, replayed from the emulators' state
 * before the position, go down. Linear: a bounded window per position. */
static gc_status window_local_search(const uint32_t* indices, uint32_t* order, size_t triangle_count,
                                     uint32_t vertex_count, const gc_model* targets, size_t target_count,
                                     unsigned passes, gc_error* err)
{
    enum { WINDOW = 32, REACH = 8 };
    window_state w;
    memset(&w, 0, sizeof w);
    sim sims[MAX_TARGETS];
    w.sims = sims;
    /* each try replays at most WINDOW triangles, each writing at most 9 words per target */
    w.log.capacity = (size_t)WINDOW * 9 * target_count;
    w.log.where = gc_alloc_array(w.log.capacity, sizeof *w.log.where, false);
    w.log.old = gc_alloc_array(w.log.capacity, sizeof *w.log.old, false);
    gc_status s = GC_OK;
    if (!w.log.where || !w.log.old)
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the local search's log of %zu entries",
                    w.log.capacity);
    for (unsigned pass = 0; pass < passes && !s; ++pass) {
        if (!sims_init(sims, &w.count, targets, target_count, vertex_count)) {
            s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the local search's caches of %u vertices",
                        vertex_count);
        } else {
            for (size_t i = 0; i + 1 < triangle_count; ++i) {
                size_t end = i + WINDOW < triangle_count ? i + WINDOW : triangle_count;
                window_begin(&w);
                uint32_t best = 0;
                for (size_t j = i; j < end; ++j)
                    best += window_emit(&w, indices + 3 * (size_t)order[j], &w.log);
                window_undo(&w);
                size_t best_d = 0;
                for (size_t d = 1; d <= REACH && i + d < end; ++d) {
                    window_begin(&w);
                    uint32_t cost = window_emit(&w, indices + 3 * (size_t)order[i + d], &w.log);
                    for (size_t j = i; j < end && cost < best; ++j)
                        if (j != i + d)
                            cost += window_emit(&w, indices + 3 * (size_t)order[j], &w.log);
                    window_undo(&w);
                    if (cost < best)
                        best = cost, best_d = d;
                }
                if (best_d) {
                    uint32_t t = order[i + best_d];
                    memmove(order + i + 1, order + i, best_d * sizeof *order);
                    order[i] = t;
                }
                window_emit(&w, indices + 3 * (size_t)order[i], NULL);
            }
        }
        sims_free(sims, w.count);
    }
    free(w.log.where);
    free(w.log.old);
    return s;
}

/* ------------------------------------------------------------- selection */

/* A score table for Forsyth's algorithm (forsyth.c) tuned for the vertex cache models:
 * 16 LRU positions and 1..8 remaining triangles. Made by bench/tune_scores, starting from
 * the table meshoptimizer 0.18 publishes for its meshopt_optimizeVertexCache, with the
 * command and its result in docs/optimizers/auto.md. The greedy above knows the targets;
 * this order knows none and is often the better compromise for several at once. */
static const gc_forsyth_scores tuned_scores = {
    16, 9,
    {0.779f, 0.791f, 0.789f, 0.981f, 0.843f, 0.826f, 0.847f, 0.882f, 0.867f, 0.799f, 0.742f, 0.633f, 0.700f, 0.448f,
     0.332f, 0.194f},
    {0.0f, 1.095f, 0.713f, 0.450f, 0.304f, 0.059f, 0.005f, 0.147f, 0.186f}};

/* Sum of the targets' exact invocations for an order. */
static gc_status order_cost(const uint32_t* order, size_t index_count, const gc_model* targets, size_t target_count,
                            uint64_t* cost, gc_error* err)
{
    gc_draw d = {order, index_count, GC_TRIANGLE_LIST, 0, 0};
    *cost = 0;
    for (size_t i = 0; i < target_count; ++i) {
        gc_stats st;
        gc_status s = gc_analyze(&targets[i], &d, NULL, &st, err);
        if (s)
            return s;
        *cost += st.invocations;
    }
    return GC_OK;
}

/* Scores `candidate` with the exact emulators and makes it the order if it costs less. */
static gc_status keep_if_better(const uint32_t* indices, size_t triangle_count, const uint32_t* candidate,
                                uint32_t* expanded, const gc_model* targets, size_t target_count, uint64_t* best_cost,
                                uint32_t* order, gc_error* err)
{
    for (size_t t = 0; t < triangle_count; ++t)
        memcpy(expanded + 3 * t, indices + 3 * (size_t)candidate[t], 3 * sizeof *expanded);
    uint64_t cost = 0;
    gc_status s = order_cost(expanded, triangle_count * 3, targets, target_count, &cost, err);
    if (!s && cost < *best_cost) {
        *best_cost = cost;
        memcpy(order, candidate, triangle_count * sizeof *order);
    }
    return s;
}

/* Whether every target is meshoptimizer's warp model with a cache at least as large as the
 * warp (nothing is evicted within a warp) and the same warp limits, which
 * gc_opt_warp_refine supports: the cost is then a sum over warps of distinct vertices. */
static bool warp_set_targets(const gc_model* targets, size_t target_count)
{
    bool ok = true;
    for (size_t k = 0; k < target_count; ++k) {
        const gc_model* m = &targets[k];
        ok &= m->family == GC_MODEL_MESHOPT && m->p[0] >= m->p[1] && m->p[1] >= 3 && m->p[1] <= 256 && m->p[2] >= 1 &&
              m->p[2] <= 256 && m->p[1] == targets[0].p[1] && m->p[2] == targets[0].p[2];
    }
    return ok;
}

/* The swaps between warps (warp_refine.c) on a copy of the order, kept if better. */
static gc_status refine_warps(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* targets, size_t target_count, unsigned passes, uint32_t* candidate,
                              uint32_t* expanded, uint64_t* best_cost, uint32_t* order, gc_error* err)
{
    memcpy(candidate, order, triangle_count * sizeof *order);
    gc_status s = gc_opt_warp_refine(indices, triangle_count, vertex_count, targets[0].p[1], targets[0].p[2], passes,
                                     candidate, err);
    if (!s)
        s = keep_if_better(indices, triangle_count, candidate, expanded, targets, target_count, best_cost, order, err);
    return s;
}

static uint32_t target_cache_size(const gc_model* m)
{
    switch (m->family) {
    case GC_MODEL_MESHOPT: return m->p[0] < 64 ? m->p[0] : 64;
    case GC_MODEL_LLVMPIPE: return 256;
    default: return m->p[0] < 256 ? m->p[0] : 256;
    }
}

gc_status gc_opt_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    gc_model defaults[4];
    const gc_model* targets = options->targets;
    size_t target_count = options->target_count;
    if (!targets || target_count == 0) {
        static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};
        for (int i = 0; i < 4; ++i)
            if (gc_model_parse(presets[i], &defaults[i], err))
                return GC_ERR_USAGE;
        targets = defaults;
        target_count = 4;
    }
    if (target_count > MAX_TARGETS)
        return gc_fail(err, GC_ERR_USAGE, "auto: at most %d targets", MAX_TARGETS);
    const size_t n = triangle_count * 3;
    uint32_t* candidate = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    uint32_t* expanded = gc_alloc_array(n, sizeof(uint32_t), false);
    if (!candidate || !expanded) {
        free(candidate);
        free(expanded);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    }

    /* The variants. Effort 1: the greedy, and Tipsify for the largest FIFO-like target
     * (a big FIFO is served best by Tipsify's fans at its size). Each more effort adds two
     * greedy settings (beta, gamma, how many recent vertices give candidates), and Tipsify
     * at every target's size. The settings were chosen on the corpus against fifo:16 and
     * the vendor presets; the greedy is chaotic in them, so the variants are worth more
     * than any single best setting. */
    static const struct {
        float beta, gamma;
        uint32_t recent;
    } weights[] = {{0.75f, 0.1f, 7}, {0.75f, 0.1f, 6}, {1.0f, 0.2f, 8}, {0.5f, 0.1f, 8}, {1.0f, 0.1f, 5},
                   {0.5f, 0.2f, 7},  {1.5f, 0.1f, 8},  {0.25f, 0.1f, 6}, {0.75f, 0.3f, 10}};
    const size_t weight_count = sizeof weights / sizeof weights[0];
    unsigned effort = options->effort ? options->effort : 1;
    size_t greedy_variants = 1 + 2 * ((size_t)effort - 1);
    if (greedy_variants > weight_count)
        greedy_variants = weight_count;
    /* With three targets or more, the greedy's one-triangle compromise lost to the tuned
     * Forsyth order on every corpus mesh (the four presets, shuffled or not), and it costs
     * most of the time: at the default effort it is left out there. */
    if (effort == 1 && target_count >= 3)
        greedy_variants = 0;
    uint32_t tipsify_sizes[MAX_TARGETS];
    size_t tipsify_count = 0;
    for (size_t i = 0; i < target_count; ++i) {
        uint32_t k = target_cache_size(&targets[i]);
        bool fifo_like = targets[i].family == GC_MODEL_FIFO || targets[i].family == GC_MODEL_LRU;
        if (effort == 1 && !(fifo_like && k >= 64))
            continue;
        bool dup = false;
        for (size_t j = 0; j < tipsify_count; ++j)
            dup |= tipsify_sizes[j] == k;
        if (!dup)
            tipsify_sizes[tipsify_count++] = k;
    }
    if (effort == 1 && tipsify_count > 1) {
        uint32_t largest = 0;
        for (size_t j = 0; j < tipsify_count; ++j)
            largest = tipsify_sizes[j] > largest ? tipsify_sizes[j] : largest;
        tipsify_sizes[0] = largest;
        tipsify_count = 1;
    }
    /* ... the tuned Forsyth order, and with more effort Forsyth's own (32). */
    size_t total = greedy_variants + tipsify_count + 1 + (effort > 1);
    uint64_t best_cost = UINT64_MAX;
    gc_status s = GC_OK;
    uint64_t seed = options->seed;
    for (size_t v = 0; v < total && !s; ++v) {
        if (v < greedy_variants) {
            /* the seed perturbs the weights, reproducibly */
            float beta = weights[v].beta, gamma = weights[v].gamma;
            if (seed) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                beta *= 0.75f + 0.5f * (float)((seed >> 40) & 0xFFFF) / 65535.0f;
                gamma *= 0.75f + 0.5f * (float)((seed >> 16) & 0xFFFF) / 65535.0f;
            }
            s = greedy_order(indices, triangle_count, vertex_count, targets, target_count, beta, gamma,
                             weights[v].recent, candidate, err);
        } else if (v < greedy_variants + tipsify_count) {
            s = gc_opt_tipsify(indices, triangle_count, vertex_count, tipsify_sizes[v - greedy_variants], candidate,
                               NULL, err);
        } else if (v == greedy_variants + tipsify_count) {
            s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &tuned_scores, candidate, NULL, err);
        } else {
            s = gc_opt_forsyth(indices, triangle_count, vertex_count, 32, candidate, NULL, err);
        }
        if (!s)
            s = keep_if_better(indices, triangle_count, candidate, expanded, targets, target_count, &best_cost, order,
                               err);
        if (options->progress)
            options->progress(options->progress_user, v + 1, total);
    }
    /* Improvements of the winner, each kept only if the exact emulators agree that it is
     * better: for warp models whose cost is a sum over warps (warp_set_targets), swaps
     * between warps (warp_refine.c; two passes at the default effort, which took
     * nvidia-pascal alone from 0.8% to 3.0% below meshoptimizer at about 6 times its time);
     * with more effort, the local search over short windows, and the swaps again. */
    const bool warp_sets = warp_set_targets(targets, target_count);
    const unsigned refine_passes = 2 + 6 * (effort - 1);
    if (!s && warp_sets)
        s = refine_warps(indices, triangle_count, vertex_count, targets, target_count, refine_passes, candidate,
                         expanded, &best_cost, order, err);
    unsigned ls_passes = effort - 1; /* none at the default effort: it keeps auto within 10x of meshoptimizer */
    /* Every target needs an exact emulator: FIFO, meshopt or nvidia (LRU is searched as a
     * FIFO of its size; the exact check decides). */
    bool window_models = true;
    for (size_t k = 0; k < target_count; ++k) {
        gc_model_family f = targets[k].family;
        window_models &= f == GC_MODEL_FIFO || f == GC_MODEL_LRU || f == GC_MODEL_MESHOPT || f == GC_MODEL_NVIDIA;
    }
    if (!s && ls_passes && window_models) {
        memcpy(candidate, order, triangle_count * sizeof *order);
        s = window_local_search(indices, candidate, triangle_count, vertex_count, targets, target_count, ls_passes,
                                err);
        if (!s)
            s = keep_if_better(indices, triangle_count, candidate, expanded, targets, target_count, &best_cost, order,
                               err);
        if (!s && warp_sets)
            s = refine_warps(indices, triangle_count, vertex_count, targets, target_count, refine_passes, candidate,
                             expanded, &best_cost, order, err);
    }
    free(candidate);
    free(expanded);
    return s;
}
