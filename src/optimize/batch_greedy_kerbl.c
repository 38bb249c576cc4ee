// SPDX-License-Identifier: MIT
/* The batch greedy (batch_greedy.c: Kerbl et al.'s gbatch, "GB" cites its lines) for nv-dx
 * and nv-gl, the same orders, with their machine written into the loop (issue 33: the
 * default effort of these targets was mostly this greedy's time).
 *
 * What differs from batch_greedy.c's loop, the steps and the scores being the same:
 *  - the machine: the rule's lookup (src/models/kerbl_rule.h) on the greedy's own words, 2 per
 *    vertex; a triangle that does not fit is looked up, not fed and rolled back, and the check
 *    of the vertices still held is a lookup of the vertex alone, not a feed undone;
 *  - the hot triangles (those whose score changed since the batch was taken as ended, some
 *    tens) are a dense array of (triangle, score), scanned each step for the best, instead of
 *    a heap with its stale entries; a score change goes to the array at once, not through a
 *    step's list of changes (the order of a step's changes does not matter: the best is the
 *    highest score, then the lower number, over the hot and the cold triangles alike).
 * A triangle whose changes in a step sum to zero is hot here and stays cold there, with the
 * same score either way. The rest is the same code (batch_greedy_parts.h): the setup, the
 * pick, the cold queue, the distance records, the held vertices and the step's parts, each
 * given its score change (add_score_as here, a step's sum there). tests/test_batch_greedy.c
 * checks the orders against gc_opt_batch_greedy_sim's and against a plain implementation of
 * the steps. */
#include "batch_greedy_parts.h"
#include "kerbl_machine.h"
#include "order_race.h"

typedef gc_kerbl_machine kerbl_machine;

/* Whether vertex v is still held: a primitive of v alone would cost nothing (gc_sim_peek's
 * answer in batch_greedy.c). Its lookup (gc_kerbl_lookup of v, v, v) hits at every corner
 * without ending the batch exactly when corner 0 hits in the open batch, corners 1 and 2
 * find the corner before them in their window (`inner`, the same for every vertex of a
 * step), and the batch has room for 3 more indices (its invocations are within its limit). */
static inline bool machine_holds(const kerbl_machine* m, uint32_t v, bool inner)
{
    return inner && m->cbatch + 3 <= m->rule.max_indices && m->cuniques <= m->rule.max_vertices &&
           m->words[2 * (size_t)v] == m->current && gc_kerbl_cached(&m->rule, m->progress, m->words[2 * (size_t)v + 1]);
}

static inline bool machine_inner(const kerbl_machine* m)
{
    return gc_kerbl_cached(&m->rule, m->progress + 1, m->progress) &&
           gc_kerbl_cached(&m->rule, m->progress + 2, m->progress + 1);
}

/* machine_holds as a held_fn, `inner` once a step */
typedef struct holds_at {
    const kerbl_machine* m;
    bool inner;
} holds_at;

static inline bool machine_holds_at(const void* ctx, uint32_t v)
{
    const holds_at* at = ctx;
    return machine_holds(at->m, v, at->inner);
}

/* ------------------------------------------------------------------- hot */

static bool hot_reserve(greedy* g)
{
    if (g->hot_size < g->hot_capacity)
        return true;
    const size_t c = g->hot_capacity ? 2 * g->hot_capacity : 256;
    uint32_t* tri = realloc(g->hot_tri, c * sizeof *tri);
    if (tri)
        g->hot_tri = tri;
    int64_t* key = realloc(g->hot_key, c * sizeof *key);
    if (key)
        g->hot_key = key;
    if (!tri || !key)
        return false;
    g->hot_capacity = c;
    return true;
}

/* A hot triangle's key: the greater key is the better triangle (the higher score, then the
 * lower number). */
static inline int64_t hot_key_of(int32_t score, uint32_t t)
{
    return (int64_t)score * ((int64_t)1 << 32) + (int64_t)(UINT32_MAX - t);
}

/* Adds delta to remaining triangle t's score (a score_change_fn: `hot` its state, read by the
 * caller before it wrote the record's word of flags: read after that store, it waits for it);
 * a cold one becomes hot. False when out of memory. */
static inline bool add_score_as(greedy* g, uint32_t t, int32_t delta, bool hot)
{
    tri_info* x = &g->tri[t];
    const int32_t score = x->score += delta;
    if (hot) {
        g->hot_key[x->hot_at] = hot_key_of(score, t);
        return true;
    }
    if (!hot_reserve(g))
        return false;
    x->state = HOT; /* its bucket entry is stale now */
    __builtin_prefetch(g->indices + 3 * (size_t)t); /* it may be the next best */
    x->hot_at = (uint32_t)g->hot_size;
    g->hot_tri[g->hot_size] = t;
    g->hot_key[g->hot_size++] = hot_key_of(score, t);
    return true;
}

static void hot_remove(greedy* g, uint32_t t)
{
    const uint32_t at = g->tri[t].hot_at, last = g->hot_tri[--g->hot_size];
    g->hot_tri[at] = last;
    g->hot_key[at] = g->hot_key[g->hot_size];
    g->tri[last].hot_at = at;
}

/* The best hot triangle (UINT32_MAX: none): the highest score, then the lower number (the
 * greatest key, keys being distinct). */
static uint32_t hot_best(const greedy* g)
{
    const size_t n = g->hot_size;
    if (n == 0)
        return UINT32_MAX;
    const int64_t* key = g->hot_key;
    int64_t top = key[0];
    for (size_t k = 1; k < n; ++k)
        top = key[k] > top ? key[k] : top;
    return UINT32_MAX - (uint32_t)((uint64_t)top & UINT32_MAX);
}

gc_status gc_opt_batch_greedy_kerbl(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_model* target, const gc_batch_greedy_weights* w, uint32_t* order,
                                    uint64_t* invocations, gc_error* err)
{
    size_t placed;
    return gc_opt_batch_greedy_kerbl_race(indices, triangle_count, vertex_count, target, w, NULL, order, invocations,
                                          &placed, err);
}

gc_status gc_opt_batch_greedy_kerbl_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                         const gc_model* target, const gc_batch_greedy_weights* w,
                                         gc_order_race* race, uint32_t* order, uint64_t* invocations,
                                         size_t* placed_out, gc_error* err)
{
    *placed_out = triangle_count;
    const size_t T = triangle_count;
    if (target->family != GC_MODEL_NV_DX && target->family != GC_MODEL_NV_GL)
        return gc_fail(err, GC_ERR_USAGE, "batch greedy: '%s' is not nv-dx or nv-gl", target->name);
    gc_family_traits traits;
    gc_model_traits(target, &traits);
    const uint32_t batch = traits.batch_indices;
    if (traits.batch_held > BATCH_GREEDY_MAX_HELD || batch > BATCH_GREEDY_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "batch greedy: batches of '%s' are too large", target->name);
    gc_status s = GC_OK;
    greedy g = {0};
    kerbl_machine m = gc_kerbl_machine_of(target, NULL);
    /* the machine's words (zeroed), the held list's links and the removed list in one block,
       as forsyth_flush.c and score_table.c do */
    const size_t vw = (size_t)vertex_count + 1;
    m.words = gc_alloc_array(2 * vw + 2 * vw + vw, sizeof *m.words, false);
    batch_held h = {0};
    if (m.words) {
        memset(m.words, 0, 2 * vw * sizeof *m.words);
        held_init(&h, m.words + 2 * vw, m.words + 4 * vw, vertex_count);
    }
    if ((s = batch_greedy_setup(&g, indices, T, vertex_count, w->valence, batch, err)))
        goto done;
    if (!m.words || !hot_reserve(&g)) {
        s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for %zu triangles", T);
        goto done;
    }
    const uint32_t NONE = UINT32_MAX;
    uint32_t batch_indices = 0, slots_used = 0;
    size_t placed = 0;
    unsigned mark = 0; /* the race's next mark (order_race.h) */
    size_t mark_at = race ? race->at[0] : SIZE_MAX;
    bool ended = false; /* the last step ended the batch: the next triangle goes in whatever the machine says */
    for (;;) {
        const uint32_t best = batch_greedy_pick(&g, hot_best(&g));
        if (best == NONE)
            break;
        const uint32_t* f = indices + 3 * (size_t)best;
        bool miss[3], cut;
        const uint32_t adds = gc_kerbl_lookup(&m.rule, m.words, f, 3, m.progress, m.current, m.cbatch, m.cuniques, miss, &cut);
        /* GB's canAddTriangle < 2: it fits the open batch (the first, or the one after a
           batch was taken as ended, goes in whatever the machine says) */
        const bool ok = placed == 0 || ended || !cut;
        h.removed_count = 0;
        if (ok) {
            /* the records of best's neighbours, read below, asked for now */
            for (unsigned t = 0; t < 3; ++t) {
                const batch_vertex v = g.vert[f[t]];
                const uint32_t* list = g.adj + v.start;
                for (uint32_t j = 0; j < v.remaining; ++j)
                    __builtin_prefetch(&g.tri[list[j]]);
            }
            gc_kerbl_machine_feed(&m, f, adds, cut);
            ended = false;
            order[placed++] = best;
            bool incache[3];
            held_reference(&h, f, incache);
            const uint32_t mine = dist_of(&g, best); /* read before the word is written */
            if (g.tri[best].state == HOT)
                hot_remove(&g, best);
            g.tri[best].batch_count = 0;
            g.tri[best].state = PLACED; /* its bucket entries are stale now */
            const uint32_t my_distance = mine != NONE ? g.info[mine].accumulated : 0;
            const uint32_t sb = batch_greedy_slot(&g, &slots_used);
            if (sb == NONE) {
                s = gc_fail(err, GC_ERR_LIMIT, "batch greedy: more triangles in a batch than '%s' holds", target->name);
                goto done;
            }
            if (!batch_greedy_meet(&g, w, best, f, incache, sb, mine, my_distance, batch_indices, add_score_as))
                goto nomem;
            /* GB:399-430 */
            if (mine != NONE) {
                if (!dist_through(&g, mine, sb, w->distance, add_score_as))
                    goto nomem;
                dist_remove(&g, best);
            }
            batch_indices += 3;
            /* GB:444-451 */
            const holds_at at = {&m, machine_inner(&m)};
            held_check(&h, machine_holds_at, &at);
            if (placed == mark_at) {
                if (race->batch_leads) {
                    gc_order_race_post(race, mark, m.invocations);
                } else if (gc_order_race_trails(race, mark, m.invocations)) {
                    *placed_out = placed;
                    goto done;
                }
                mark_at = ++mark < GC_RACE_MARKS ? race->at[mark] : SIZE_MAX;
            }
        } else {
            ended = true; /* GB:436 */
            held_drop_all(&h);
        }
        /* GB:460-498 */
        if (!batch_greedy_unheld(&g, w, &h, add_score_as))
            goto nomem;
        if (!ok) {
            batch_greedy_end(&g, &batch_indices, &slots_used);
            /* the hot triangles back with the others */
            for (size_t k = 0; k < g.hot_size; ++k)
                if (!cold_push(&g, g.hot_tri[k]))
                    goto nomem;
            g.hot_size = 0;
        }
    }
    if (invocations)
        *invocations = m.invocations;
    goto done;
nomem:
    s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for distances");
done:
    free(m.words);
    batch_greedy_free(&g);
    return s;
}

gc_status gc_kerbl_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, const uint32_t* order, uint64_t* invocations, gc_error* err)
{
    if (target->family != GC_MODEL_NV_DX && target->family != GC_MODEL_NV_GL)
        return gc_fail(err, GC_ERR_USAGE, "kerbl order cost: '%s' is not nv-dx or nv-gl", target->name);
    kerbl_machine m = gc_kerbl_machine_of(target, gc_alloc_array(2 * (size_t)vertex_count + 2, sizeof(uint32_t), true));
    if (!m.words)
        return gc_fail(err, GC_ERR_NOMEM, "kerbl order cost: out of memory for %u vertices", vertex_count);
    for (size_t t = 0; t < triangle_count; ++t) {
        if (order && t + 8 < triangle_count) /* the order's triangles, asked for ahead */
            __builtin_prefetch(indices + 3 * (size_t)order[t + 8]);
        gc_kerbl_machine_add(&m, indices + 3 * (size_t)(order ? order[t] : t));
    }
    free(m.words);
    *invocations = m.invocations;
    return GC_OK;
}
