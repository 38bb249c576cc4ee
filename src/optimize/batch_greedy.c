// SPDX-License-Identifier: MIT
/* Batch greedy: Kerbl et al.'s gbatch (HPG 2018; GPUPeople/vertex_batch_optimization,
 * sceneprocessor/source/layers/GBatchOptimizer.cpp, "GB"), driven by the target's own state
 * machine (gc_sim) instead of a batch simulation of its own. One of auto's candidates for
 * the batch families (nv-dx, nv-gl, batch-all, ati).
 *
 * Every remaining triangle has a score: `cache` per vertex of it that the current batch
 * holds, `valence` per remaining triangle of its vertices, `distance` per triangle of its
 * accumulated distance through the batch's placed triangles (GB:55-58, 360-430). The best
 * is placed when the machine says it fits the batch (it shades no more than the batch holds
 * and does not end it, or for rules that cut inside a primitive, ends it only there:
 * canAddTriangle's -3..1, GB:253-289); otherwise the batch is taken as ended: every vertex
 * loses its cache score (GB:436-498) and the next best is tried. Vertices the machine no
 * longer holds (asked with a primitive of that vertex alone, priced with gc_sim_peek) lose
 * their score after each step (GB:443-451). Weights: SceneProcessor.cpp's "gbatch" (1024,
 * -4, -1: lines 123, 128) and "gbatch.amd" (valence -16: line 137).
 *
 * Differences from GB, all because the machine decides: the machine, not the optimizer,
 * ends batches (a triangle that would not fit is not placed; if the next best fits the old
 * batch, the machine keeps it there); triangles keep their corner order (a triangle order;
 * their rotation choice changed the corpus totals by 0.05%). Among equal scores the lowest
 * triangle number goes first.
 *
 * Cost: each step walks the placed triangle's vertices' triangles, the triangles with a
 * distance entry (those around the batch's vertices) and the batch's vertices (a peek each);
 * a new distance entry copies the placed triangle's (at most the batch's triangles). So it is
 * bounded only when vertices have few triangles and batches are small: it refuses (GC_ERR_LIMIT)
 * a vertex of more than BATCH_GREEDY_MAX_VALENCE triangles, or a target whose batch holds more
 * than BATCH_GREEDY_MAX_HELD vertices or BATCH_GREEDY_MAX_INDICES indices; auto then skips it.
 * Memory: about 7 words per triangle (its score, record and queue entry, its 3 places in the
 * vertices' lists) and a few per vertex, plus the distance records (a batch's triangles'
 * distances, for each triangle around the batch). The data layout (issue 33: records, not
 * hash maps; one queue move per triangle a step; the queue split in two) leaves the order as
 * it was: docs/optimizers/auto.md, "The batch families". For nv-dx and nv-gl, gc_opt_batch_greedy
 * runs batch_greedy_kerbl.c's form with their machine in the loop (the same orders, faster);
 * gc_opt_batch_greedy_sim is this machine-driven form for every batch family. */
#include "batch_greedy_parts.h"

/* ------------------------------------------------------------------- hot */

static bool hot_above(const hot_entry* a, const hot_entry* b)
{
    return a->score > b->score || (a->score == b->score && a->triangle < b->triangle);
}

static void hot_sift_down(greedy* g, size_t i)
{
    const hot_entry x = g->hot[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= g->hot_size)
            break;
        if (c + 1 < g->hot_size && hot_above(&g->hot[c + 1], &g->hot[c]))
            ++c;
        if (!hot_above(&g->hot[c], &x))
            break;
        g->hot[i] = g->hot[c];
        i = c;
    }
    g->hot[i] = x;
}

/* An entry that cannot be its triangle's best: placed or cold, or below its score (a higher
 * entry holds it: scores that rise push a new entry). */
static bool hot_stale(const greedy* g, const hot_entry* e)
{
    return g->tri[e->triangle].state != HOT || g->tri[e->triangle].score > e->score;
}

static bool hot_push(greedy* g, uint32_t t)
{
    if (g->hot_size == g->hot_capacity) {
        /* many stale entries (a batch that lasts, ATI's): dropped first */
        size_t kept = 0;
        for (size_t i = 0; i < g->hot_size; ++i)
            if (!hot_stale(g, &g->hot[i]))
                g->hot[kept++] = g->hot[i];
        g->hot_size = kept;
        for (size_t i = kept / 2; i-- > 0;)
            hot_sift_down(g, i);
        if (2 * kept >= g->hot_capacity) {
            const size_t c = 2 * g->hot_capacity;
            hot_entry* grown = realloc(g->hot, c * sizeof *grown);
            if (!grown)
                return false;
            g->hot = grown;
            g->hot_capacity = c;
        }
    }
    const hot_entry x = {g->tri[t].score, t};
    size_t i = g->hot_size++;
    while (i > 0 && hot_above(&x, &g->hot[(i - 1) / 2])) {
        g->hot[i] = g->hot[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    g->hot[i] = x;
    return true;
}

/* The best hot triangle (UINT32_MAX: none). A triangle's highest entry is at least its score
 * (a score that falls keeps its entry): the top is the best once its entry is its score; an
 * entry above its triangle's score moves down to it, stale ones are dropped. */
static uint32_t hot_top(greedy* g)
{
    while (g->hot_size) {
        hot_entry* top = &g->hot[0];
        if (hot_stale(g, top)) {
            g->hot[0] = g->hot[--g->hot_size];
        } else if (top->score != g->tri[top->triangle].score) {
            top->score = g->tri[top->triangle].score;
        } else {
            return top->triangle;
        }
        if (g->hot_size)
            hot_sift_down(g, 0);
    }
    return UINT32_MAX;
}

/* Adds delta to a remaining triangle's score; it becomes hot. False when out of memory. */
static bool rescore(greedy* g, uint32_t t, int32_t delta)
{
    if (delta == 0 || g->tri[t].state == PLACED)
        return true;
    if (g->tri[t].state == COLD) {
        g->tri[t].state = HOT; /* its bucket entry is stale now */
        __builtin_prefetch(g->indices + 3 * (size_t)t); /* it may be the next best */
    } else if (delta < 0) { /* a hot score that falls: its entries stay above it (hot_top) */
        g->tri[t].score += delta;
        return true;
    }
    g->tri[t].score += delta; /* an entry at its new score; the older ones are stale */
    return hot_push(g, t);
}

/* A step's score change for remaining triangle t, summed per triangle (g->pend lists them): a
 * score_change_fn (`hot` unused). */
static bool pend_add(greedy* g, uint32_t t, int32_t delta, bool hot)
{
    (void)hot;
    tri_info* x = &g->tri[t];
    if (!x->mark) {
        if (g->pend_count == g->pend_capacity) {
            const size_t c = 2 * g->pend_capacity;
            uint32_t* grown = realloc(g->pend, c * sizeof *grown);
            if (!grown)
                return false;
            g->pend = grown;
            g->pend_capacity = c;
        }
        x->mark = 1;
        g->pend[g->pend_count++] = t;
    }
    x->pend += delta;
    return true;
}

/* Whether the machine takes triangle p into its current batch (GB's canAddTriangle < 2):
 * fed, it must not end a batch, except by a cut inside the primitive (cut_inside: the rule's
 * batches are not bounded by primitives), and not reset. Kept fed if so, else rolled back. */
static gc_status feed_if_fits(gc_sim* sim, const gc_sim_primitive* p, bool first, bool cut_inside, bool* out,
                              gc_error* err)
{
    gc_stats before, after;
    gc_sim_stats(sim, &before);
    gc_sim_save(sim);
    gc_sim_feed(sim, p, NULL);
    gc_sim_stats(sim, &after);
    *out = first || (after.resets == before.resets && (cut_inside || after.batches == before.batches));
    gc_status s = *out ? GC_OK : gc_sim_restore(sim, err);
    gc_sim_release(sim);
    return s;
}

/* Whether the machine still holds vertex v (a held_fn): a primitive of v alone, fed as the
 * next, would cost nothing. */
typedef struct peek_at {
    gc_sim* sim;
    uint64_t next;
} peek_at;

static bool sim_holds(const void* ctx, uint32_t v)
{
    const peek_at* at = ctx;
    const gc_sim_primitive q = {{v, v, v}, {3 * at->next, 3 * at->next + 1, 3 * at->next + 2}, 3, at->next, NULL, 0};
    return gc_sim_peek(at->sim, &q, NULL) == 0;
}

gc_status gc_opt_batch_greedy_sim(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  const gc_model* target, const gc_batch_greedy_weights* w, uint64_t first_number,
                                  uint64_t stream_length, uint32_t* order, gc_error* err)
{
    const size_t T = triangle_count, n = 3 * T;
    gc_family_traits traits;
    gc_model_traits(target, &traits);
    const bool cut_inside = traits.batch_cut_inside;
    const uint32_t held = traits.batch_held;
    const uint32_t batch = traits.batch_indices;
    if (!traits.kerbl_batches)
        return gc_fail(err, GC_ERR_USAGE, "batch greedy: '%s' is not a batch family", target->name);
    if (held > BATCH_GREEDY_MAX_HELD || batch > BATCH_GREEDY_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "batch greedy: batches of '%s' are too large", target->name);
    gc_status s = GC_OK;
    greedy g = {0};
    gc_sim* sim = NULL;
    uint32_t* held_block = gc_alloc_array(3 * ((size_t)vertex_count + 1), sizeof *held_block, false);
    batch_held h = {0};
    if (held_block)
        held_init(&h, held_block, held_block + 2 * ((size_t)vertex_count + 1), vertex_count);
    g.hot_capacity = 1024; /* grows as it needs */
    g.hot = gc_alloc_array(g.hot_capacity, sizeof *g.hot, false);
    g.pend_capacity = 1024; /* grows as it needs */
    g.pend = gc_alloc_array(g.pend_capacity, sizeof *g.pend, false);
    if ((s = batch_greedy_setup(&g, indices, T, vertex_count, w->valence, batch, err)))
        goto done;
    if (!held_block || !g.hot || !g.pend) {
        s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for %zu triangles", T);
        goto done;
    }
    if ((s = gc_sim_create(target, vertex_count, NULL, &sim, err)))
        goto done;
    gc_sim_begin_run(sim, 3 * first_number, stream_length ? stream_length : n);
    const uint32_t NONE = UINT32_MAX;
    uint32_t batch_indices = 0, slots_used = 0;
    size_t placed = 0;
    bool ended = false; /* the last step ended the batch: the next triangle goes in whatever the machine says */
    for (;;) {
        const uint32_t best = batch_greedy_pick(&g, hot_top(&g));
        if (best == NONE)
            break;
        const uint32_t* f = indices + 3 * (size_t)best;
        const uint64_t number = first_number + placed;
        const gc_sim_primitive p = {{f[0], f[1], f[2]}, {3 * number, 3 * number + 1, 3 * number + 2}, 3, number, NULL, 0};
        bool ok;
        if ((s = feed_if_fits(sim, &p, placed == 0 || ended, cut_inside, &ok, err)))
            goto done;
        h.removed_count = 0;
        if (ok) {
            ended = false;
            order[placed++] = best;
            bool incache[3];
            held_reference(&h, f, incache);
            g.tri[best].batch_count = 0;
            g.tri[best].state = PLACED; /* its entries are stale now */
            const uint32_t mine = dist_of(&g, best);
            const uint32_t my_distance = mine != NONE ? g.info[mine].accumulated : 0;
            const uint32_t sb = batch_greedy_slot(&g, &slots_used);
            if (sb == NONE) {
                s = gc_fail(err, GC_ERR_LIMIT, "batch greedy: more triangles in a batch than '%s' holds", target->name);
                goto done;
            }
            if (!batch_greedy_meet(&g, w, best, f, incache, sb, mine, my_distance, batch_indices, pend_add))
                goto nomem;
            /* GB:399-430 */
            if (mine != NONE) {
                if (!dist_through(&g, mine, sb, w->distance, pend_add))
                    goto nomem;
                dist_remove(&g, best);
            }
            batch_indices += 3;
            /* GB:444-451: held while a lone-vertex primitive costs no invocation */
            const peek_at at = {sim, first_number + placed};
            held_check(&h, sim_holds, &at);
        } else {
            ended = true; /* GB:436 */
            held_drop_all(&h);
        }
        /* GB:460-498 */
        if (!batch_greedy_unheld(&g, w, &h, pend_add))
            goto nomem;
        /* the step's score changes, one heap move per triangle (the heap's order is total,
           so its top is the same as with a move per change) */
        for (size_t k = 0; k < g.pend_count; ++k) {
            const uint32_t face = g.pend[k];
            if (!rescore(&g, face, g.tri[face].pend))
                goto nomem;
            g.tri[face].pend = 0;
            g.tri[face].mark = 0;
        }
        g.pend_count = 0;
        if (!ok) {
            batch_greedy_end(&g, &batch_indices, &slots_used);
            /* the hot triangles back with the others */
            for (size_t k = 0; k < g.hot_size; ++k)
                if (g.tri[g.hot[k].triangle].state == HOT && !cold_push(&g, g.hot[k].triangle))
                    goto nomem;
            g.hot_size = 0;
        }
    }
    goto done;
nomem:
    s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for distances");
done:
    gc_sim_destroy(sim);
    free(held_block);
    batch_greedy_free(&g);
    return s;
}

gc_status gc_opt_batch_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, const gc_batch_greedy_weights* weights, uint64_t first_number,
                              uint64_t stream_length, uint32_t* order, gc_error* err)
{
    if (target->family == GC_MODEL_NV_DX || target->family == GC_MODEL_NV_GL)
        return gc_opt_batch_greedy_kerbl(indices, triangle_count, vertex_count, target, weights, order, NULL, err);
    return gc_opt_batch_greedy_sim(indices, triangle_count, vertex_count, target, weights, first_number,
                                   stream_length, order, err);
}
