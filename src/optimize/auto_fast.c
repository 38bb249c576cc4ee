// SPDX-License-Identifier: MIT
/* auto's greedy for one FIFO (issue 33): the target-aware greedy of auto.c (greedy_order)
 * with the machine of a FIFO of `fifo_size` entries (and meshopt's warps around it) run in
 * the loop, on the rule's own steps (src/models/fifo_rule.h, the models' too), instead of
 * driven through gc_sim, so that a candidate costs a few array reads instead of a call
 * through the rule table with its overlay.
 *
 * It is the same search, step for step: the candidates are the remaining triangles (at most
 * SCAN of each) of the `recent_limit` most recently used vertices; a candidate's score is its
 * misses counted corner by corner as the FIFO counts them (a miss inserts the vertex at once,
 * which can push a later corner out), less beta times its corners' valence bonus
 * 1/sqrt(remaining triangles) and gamma times the ages (stamp distance over the size, as
 * gc_sim_age says for fifo) of the cached corners it hits that have more triangles left; the
 * lowest score wins, the lower triangle number among equals; dead ends go back to the most
 * recent vertex with triangles left, then to input order. The floating-point operations are
 * those of greedy_order, in its order, so that for a lone fifo target both give the same
 * order (tests/test_auto_threads.c checks it on the corpus). A triangle met through two of
 * the recent vertices is scored twice (to the same score). For speed (docs/PERFORMANCE.md,
 * issue 33): lists of corners, the vertex states side by side, and a step's candidates
 * gathered and scored in one loop without branches, which the compiler vectorises. */
#include "optimize.h"
#include "auto_warps.h"

#include "../models/fifo_rule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16
#define SCAN 8

/* Per vertex, what a candidate reads, side by side (8 bytes, copied whole): its stamp in the
 * FIFO, and the valence bonus of its remaining triangles (1/sqrt(live) below 64, else 0) as
 * a float's bits with the sign bit set when more than one triangle remains (the bonus is never
 * negative: the sign bit cleared gives it back). Its remaining triangles are apart (live). */
typedef struct vertex_state {
    uint32_t stamp, boost;
} vertex_state;

static inline uint32_t boost_of(const float* boost, uint32_t live)
{
    uint32_t bits;
    memcpy(&bits, &boost[live < 64 ? live : 64], sizeof bits);
    return bits | (live > 1 ? 0x80000000u : 0u);
}

/* The live-triangle lists of gc_live_triangles (the same lists, in the same order: each
 * vertex's triangles in input order, corner by corner, an emitted triangle's entry replaced
 * by its list's last), laid out for this loop: an entry is a corner, 4 t + c, so that the
 * corner moved into a removed one's place is known without a search, and the count of a
 * vertex's list is live[v]. */
typedef struct corner_lists {
    uint32_t* first;  /* per vertex: its list's start */
    uint32_t* corner; /* the lists' entries */
    uint32_t* slot;   /* per corner (3 t + c): its entry */
} corner_lists;

static void corner_lists_remove(corner_lists* l, vertex_state* vs, uint32_t* live, const float* boost,
                                const uint32_t* tv, uint32_t t)
{
    for (uint32_t c = 0; c < 3; ++c) {
        const uint32_t v = tv[c];
        const uint32_t at = l->slot[3 * t + c];
        const uint32_t moved = l->corner[l->first[v] + --live[v]];
        l->corner[at] = moved;
        l->slot[3 * (moved >> 2) + (moved & 3)] = at;
        vs[v].boost = boost_of(boost, live[v]);
    }
}

/* gc_recent_after_strided (optimize.h) on these vertex states, the same recent vertices; the
 * copy back of a fixed length (recent holds RECENT_MAX; what lies past the count is not read),
 * so that it is not a call. */
static inline __attribute__((always_inline)) void recent_after(uint32_t* recent, uint32_t* recent_count,
                                                               uint32_t limit, const uint32_t* tv,
                                                               const uint32_t* live)
{
    uint32_t next[3 + RECENT_MAX];
    uint32_t n = 0;
    const uint32_t left0 = live[tv[0]] > 0, left1 = live[tv[1]] > 0, left2 = live[tv[2]] > 0;
    next[n] = tv[0], n += left0;
    next[n] = tv[1], n += left1 & (tv[1] != tv[0]);
    next[n] = tv[2], n += left2 & (tv[2] != tv[0]) & (tv[2] != tv[1]);
    const uint32_t corners = n; /* kept whatever the limit */
    for (uint32_t k = 0; k < *recent_count; ++k) {
        const uint32_t v = recent[k];
        next[n] = v;
        n += (v != tv[0]) & (v != tv[1]) & (v != tv[2]) & (live[v] > 0);
    }
    n = n < limit ? n : corners > limit ? corners : limit;
    memcpy(recent, next, RECENT_MAX * sizeof *recent);
    *recent_count = n;
}

/* The machine's state and the weights, as a candidate reads them. */
typedef struct greedy_state {
    const vertex_state* vs;
    const uint32_t* live;
    uint32_t size, age_shift, age_limit, clock, warp, warp_fill;
    bool group_full;
    float age_scale, beta, gamma;
} greedy_state;

/* A step's candidates, a field an array (so that the scoring loop is vectorised): the
 * triangle and its corners' vertex states. */
#define CANDIDATES_MAX (RECENT_MAX * SCAN)
typedef struct candidates {
    uint32_t tri[CANDIDATES_MAX];
    vertex_state x0[CANDIDATES_MAX], x1[CANDIDATES_MAX], x2[CANDIDATES_MAX];
    uint32_t id[3][CANDIDATES_MAX]; /* the corners' vertices (only where a triangle repeats one) */
    int32_t key[CANDIDATES_MAX]; /* the score, as an integer that orders as it does */
} candidates;

/* The candidates' scores: their misses counted corner by corner as the FIFO counts them (a
 * miss inserts the vertex at once, which can push a later corner out), less beta times the
 * valence bonus and gamma times the ages of the cached corners they hit that have more
 * triangles left (gc_sim_age, before the feed); the floating-point operations of
 * greedy_order, in its order (each lane of a vector rounds as the scalar would). Without
 * branches: whether a corner hits is what the data says. `repeats`: some triangle of the mesh
 * repeats a vertex; without any, a corner's miss cannot change a later corner's stamp, and
 * the masks that carry it are left out (the same scores). */
static inline __attribute__((always_inline)) int32_t score_candidates(const greedy_state* g, candidates* c, uint32_t n,
                                                                      const bool warp_rule, const bool repeats)
{
    int32_t low = INT32_MAX;
    const uint32_t size = g->size, clock = g->clock, shift = clock - g->age_shift, limit = g->age_limit;
    const uint32_t flush_at = gc_fifo_flush(clock, size), warp = g->warp, warp_fill = g->warp_fill;
    const bool group_full = g->group_full;
    const float scale = g->age_scale, beta = g->beta, gamma = g->gamma;
    /* (selects written as masks, all-ones or zero, so that the loop has no branch) */
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t s0 = c->x0[i].stamp, s1 = c->x1[i].stamp, s2 = c->x2[i].stamp;
        uint32_t at = clock;
        if (warp_rule) {
            /* meshopt: a new warp (a flush) when the group is full or the corners' misses,
             * each counted, would take the warp past its vertices */
            const uint32_t corner_misses =
                gc_fifo_missed(clock, s0, size) + gc_fifo_missed(clock, s1, size) + gc_fifo_missed(clock, s2, size);
            const uint32_t flush = 0u - gc_meshopt_flushes(group_full, warp_fill, corner_misses, warp);
            at = (flush_at & flush) | (clock & ~flush);
        }
        /* corner by corner: a miss stamps its vertex at once (later corners see it) */
        uint32_t w0 = s0, w1 = s1, w2 = s2;
        const uint32_t miss0 = gc_fifo_missed(at, w0, size), m0 = 0u - miss0;
        uint32_t e01 = 0, e02 = 0, e12 = 0;
        if (repeats) { /* (else no triangle repeats a vertex: the masks are zero) */
            const uint32_t v0 = c->id[0][i], v1 = c->id[1][i], v2 = c->id[2][i];
            e01 = 0u - (uint32_t)(v1 == v0), e02 = 0u - (uint32_t)(v2 == v0), e12 = 0u - (uint32_t)(v2 == v1);
            w0 = (at & m0) | (w0 & ~m0);
            w1 = (w0 & e01) | (w1 & ~e01);
            w2 = (w0 & e02) | (w2 & ~e02);
        }
        at += miss0;
        const uint32_t miss1 = gc_fifo_missed(at, w1, size), m1 = 0u - miss1;
        if (repeats) {
            w1 = (at & m1) | (w1 & ~m1);
            w2 = (w1 & e12) | (w2 & ~e12);
        }
        at += miss1;
        const uint32_t miss2 = gc_fifo_missed(at, w2, size);
        /* the ages (shift - stamp) / scale of the corners that hit, below the limit, whose
         * vertex has more triangles left; 0 for the others (0 / scale) */
        uint32_t o0 = shift - s0, o1 = shift - s1, o2 = shift - s2;
        const uint32_t k0 = c->x0[i].boost, k1 = c->x1[i].boost, k2 = c->x2[i].boost;
        o0 &= 0u - ((miss0 ^ 1u) & (k0 >> 31) & (uint32_t)(o0 < limit));
        o1 &= 0u - ((miss1 ^ 1u) & (k1 >> 31) & (uint32_t)(o1 < limit));
        o2 &= 0u - ((miss2 ^ 1u) & (k2 >> 31) & (uint32_t)(o2 < limit));
        const float a0 = (float)(int32_t)o0 / scale, a1 = (float)(int32_t)o1 / scale,
                    a2 = (float)(int32_t)o2 / scale;
        /* (greedy_order adds these to 0.0f first: a0 is not -0, so that changes nothing) */
        const float age = (a0 + a1) + a2;
        const uint32_t b0 = k0 & 0x7FFFFFFFu, b1 = k1 & 0x7FFFFFFFu, b2 = k2 & 0x7FFFFFFFu;
        float f0, f1, f2;
        memcpy(&f0, &b0, sizeof f0), memcpy(&f1, &b1, sizeof f1), memcpy(&f2, &b2, sizeof f2);
        const float valence = (f0 + f1) + f2;
        const float score = (float)(int32_t)(miss0 + miss1 + miss2) - beta * valence - gamma * age + 0.0f;
        /* its bits, the others than the sign's flipped when it is negative: then the integers
         * order as the floats do (+ 0.0f: -0 would come below +0, which it equals) */
        uint32_t bits;
        memcpy(&bits, &score, sizeof bits);
        const int32_t key = (int32_t)(bits ^ ((0u - (bits >> 31)) >> 1));
        c->key[i] = key;
        low = key < low ? key : low;
    }
    return low;
}

/* The best candidate of a step: the remaining triangles (at most SCAN of each) of the
 * recent vertices, gathered first (SCAN entries copied from each list, so that the copy
 * does not branch on the count; the lists are padded by SCAN), then scored together; the
 * lowest score wins, the lower triangle number among equals. UINT32_MAX when there is none.
 * A triangle met through two recent vertices is scored twice, to the same score (a mark
 * per triangle to score it once took as long, and 4 bytes a triangle: issue 16's budget). */
static inline __attribute__((always_inline)) uint32_t best_candidate(const greedy_state* g, const uint32_t* indices,
                                                                     const corner_lists* l, const uint32_t* recent,
                                                                     uint32_t recent_count, candidates* c,
                                                                     const bool warp_rule, const bool repeats)
{
    uint32_t cand[CANDIDATES_MAX + SCAN];
    uint32_t n = 0;
    for (uint32_t r = 0; r < recent_count; ++r) {
        const uint32_t v = recent[r];
        const uint32_t live = g->live[v];
        memcpy(cand + n, l->corner + l->first[v], SCAN * sizeof *cand);
        n += live < SCAN ? live : SCAN;
    }
    if (n == 0)
        return UINT32_MAX;
    const vertex_state* vs = g->vs;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t tri = cand[i] >> 2;
        const uint32_t* tv = indices + 3 * (size_t)tri;
        c->tri[i] = tri;
        c->x0[i] = vs[tv[0]], c->x1[i] = vs[tv[1]], c->x2[i] = vs[tv[2]];
        if (repeats)
            c->id[0][i] = tv[0], c->id[1][i] = tv[1], c->id[2][i] = tv[2];
    }
    /* the lowest score, then the lowest triangle with it */
    const int32_t low = score_candidates(g, c, n, warp_rule, repeats);
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t tri = c->tri[i] | (0u - (uint32_t)(c->key[i] != low));
        best = tri < best ? tri : best;
    }
    return best;
}

/* Cloned for AVX2 where the CPU has it (an ifunc picks at load time; static, so that the
 * library exports no resolver): the scoring loop on 8 lanes, each rounding as the scalar
 * does (that target has no fused multiply-add), so the same orders. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static gc_status fifo_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                             uint32_t* order, gc_order_feed* feed, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    if (m->cache == 0 || recent_limit > RECENT_MAX)
        return gc_fail(err, GC_ERR_USAGE, "fifo greedy: a FIFO of at least one entry and at most %d recent vertices",
                       RECENT_MAX);
    if (triangle_count > (UINT32_MAX - 3) / 3 || m->cache > UINT32_MAX / 4)
        return gc_fail(err, GC_ERR_LIMIT, "fifo greedy: %zu triangles or a FIFO of %u entries is too many",
                       triangle_count, m->cache);
    gc_status s = GC_OK;
    const size_t corners = 3 * triangle_count;
    const uint32_t size = m->cache, warp = m->warp, group = m->group;
    /* gc_sim_age's form for the rule: fifo (stamp - 1 - w) / size below size; meshopt (stamp - w) / (size + 1) up to size */
    const gc_fifo_age_form age = gc_fifo_age_form_of(size, m->warp_rule);
    /* The state in one block (4-byte words; the vertex states 8-byte aligned first), so that
     * a caller's next call gets it back whole from the allocator instead of fresh pages
     * (apart, glibc gave the heap's top back on every call on a large mesh: about 1,100 page
     * faults a call on ogre). Zeroed as calloc'ed before: the vertex states, live, the lists'
     * starts and entries, the emitted flags. */
    corner_lists l;
    const size_t v_words = (size_t)vertex_count + 1, cand_words = (sizeof(candidates) + 7) / 4;
    const size_t zeroed = 2 * v_words + 2 * v_words + (corners + SCAN) + (triangle_count + 3) / 4;
    uint32_t* block = gc_alloc_array(zeroed + 2 * corners + cand_words + 1, sizeof(uint32_t), false);
    vertex_state* vs = block ? (vertex_state*)(void*)(((uintptr_t)block & 7u) ? block + 1 : block) : NULL;
    uint32_t* live = block ? (uint32_t*)(vs + v_words) : NULL;
    l.first = block ? live + v_words : NULL;
    l.corner = block ? l.first + v_words : NULL;
    unsigned char* emitted = block ? (unsigned char*)(l.corner + corners + SCAN) : NULL;
    l.slot = block ? l.corner + corners + SCAN + (triangle_count + 3) / 4 : NULL;
    uint32_t* dead_end = block ? l.slot + corners : NULL;
    candidates* cands = block ? (candidates*)(void*)(dead_end + corners + (((uintptr_t)(dead_end + corners) & 7u) ? 1 : 0)) : NULL;
    if (block)
        memset(vs, 0, zeroed * sizeof(uint32_t));
    if (!block) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    /* whether a triangle repeats a vertex (the scoring loop counts its corners one by one) */
    bool repeats = false;
    for (size_t t = 0; t < triangle_count; ++t) {
        const uint32_t* tv = indices + 3 * t;
        repeats |= (tv[0] == tv[1]) | (tv[0] == tv[2]) | (tv[1] == tv[2]);
    }
    /* the lists: counted, then filled in input order, corner by corner */
    for (size_t i = 0; i < corners; ++i)
        live[indices[i]]++;
    for (uint32_t v = 0, start = 0; v < vertex_count; ++v) {
        l.first[v] = start;
        start += live[v];
        live[v] = 0;
    }
    for (size_t i = 0; i < corners; ++i) {
        const uint32_t v = indices[i];
        const uint32_t at = l.first[v] + live[v]++;
        l.corner[at] = (uint32_t)(i / 3) << 2 | (uint32_t)(i % 3);
        l.slot[i] = at;
    }
    float boost[65];
    boost[0] = 0.0f;
    for (int n = 1; n < 64; ++n)
        boost[n] = 1.0f / sqrtf((float)n);
    boost[64] = 0.0f;

    for (uint32_t v = 0; v < vertex_count; ++v) {
        vs[v].boost = boost_of(boost, live[v]);
    }
    greedy_state g = {vs, live, size, age.shift, age.limit, GC_FIFO_FIRST(size), warp, 0, false, age.scale, beta, gamma};
    /* g.clock: the next stamp; v is cached when clock - stamp <= size */
    uint32_t group_fill = 0;
    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        g.group_full = m->warp_rule && gc_meshopt_group_full(group_fill, group);
        uint32_t tri = m->warp_rule ? (repeats ? best_candidate(&g, indices, &l, recent, recent_count, cands, true, true)
                                               : best_candidate(&g, indices, &l, recent, recent_count, cands, true, false))
                     : repeats ? best_candidate(&g, indices, &l, recent, recent_count, cands, false, true)
                               : best_candidate(&g, indices, &l, recent, recent_count, cands, false, false);
        if (tri == UINT32_MAX) {
            /* the restart of gc_greedy_restart, on these lists */
            while (dead_top > 0 && tri == UINT32_MAX) {
                const uint32_t d = dead_end[--dead_top];
                if (live[d] > 0)
                    tri = l.corner[l.first[d]] >> 2;
            }
            if (tri == UINT32_MAX) {
                while (emitted[input_cursor])
                    ++input_cursor;
                tri = (uint32_t)input_cursor;
            }
        }
        const uint32_t* tv = indices + 3 * (size_t)tri;
        emitted[tri] = 1;
        if (m->warp_rule) {
            uint32_t corner_misses = 0;
            for (int c = 0; c < 3; ++c)
                corner_misses += gc_fifo_missed(g.clock, vs[tv[c]].stamp, size);
            if (gc_meshopt_flushes(g.group_full, g.warp_fill, corner_misses, warp)) {
                g.warp_fill = group_fill = 0;
                g.clock = gc_fifo_flush(g.clock, size);
            }
        }
        for (int c = 0; c < 3; ++c)
            g.warp_fill += gc_fifo_access(&vs[tv[c]].stamp, &g.clock, size);
        group_fill++;
        order[step] = tri;
        if (feed && (step + 1) % GC_ORDER_FEED_STEP == 0)
            atomic_store_explicit(&feed->written, step + 1, memory_order_release);
        corner_lists_remove(&l, vs, live, boost, tv, tri);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        recent_after(recent, &recent_count, recent_limit, tv, live);
    }
done:
    free(block);
    return s;
}

gc_status gc_opt_fifo_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                             uint32_t* order, gc_error* err)
{
    return fifo_greedy(indices, triangle_count, vertex_count, m, beta, gamma, recent_limit, order, NULL, err);
}

gc_status gc_opt_fifo_greedy_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                                 uint32_t* order, gc_order_feed* feed, gc_error* err)
{
    const gc_status s =
        fifo_greedy(indices, triangle_count, vertex_count, m, beta, gamma, recent_limit, order, feed, err);
    if (!s)
        atomic_store_explicit(&feed->written, triangle_count, memory_order_release);
    atomic_store_explicit(&feed->ended, 1, memory_order_release);
    return s;
}

/* The machine for a target, when the greedy above can run it (fifo, meshopt): true. */
bool gc_fifo_machine_of(const gc_model* target, gc_fifo_machine* m)
{
    if (target->family == GC_MODEL_FIFO) {
        *m = (gc_fifo_machine){target->p[0], 0, 0, false};
        return true;
    }
    if (target->family == GC_MODEL_MESHOPT) {
        *m = (gc_fifo_machine){target->p[0], target->p[1], target->p[2], true};
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ effort 1 */

/* The Forsyth table for a lone target: the one its traits give (a family's own, tuned for
 * that model: gc_family_traits.order_scores) into *own, else auto's tuned table. */
const gc_forsyth_scores* gc_family_forsyth_scores(const gc_family_traits* t, gc_forsyth_scores* own)
{
    if (!t->order_scores)
        return &gc_auto_tuned_scores;
    memset(own, 0, sizeof *own);
    own->cache_size = 16;
    own->live_count = 9;
    memcpy(own->position, t->order_scores, 16 * sizeof *own->position);
    memcpy(own->live + 1, t->order_scores + 16, 8 * sizeof *own->live);
    return own;
}

/* --effort 1 (issue 33): one order, chosen by the target's family, and nothing scored: the
 * greedy above where its machine is the target's (fifo, meshopt); Tipsify at a FIFO's size
 * from 64 entries (where it won at every effort on the corpus); patches of a warp for
 * meshopt's warps when nothing is evicted inside one (nvidia-pascal), and for Kerbl et
 * al.'s batches of 128 vertices or more; otherwise, and for several targets, the tuned
 * Forsyth order (a lone target's family's own table where it has one) (the winner for the four presets on every corpus mesh). Chosen on four
 * corpus meshes, stored and shuffled; figures in docs/PERFORMANCE.md. */
gc_status gc_opt_auto_fast(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* targets, size_t target_count, const gc_optimize_options* options,
                           uint32_t* order, gc_error* err)
{
    gc_status s = GC_OK;
    gc_family_traits t;
    gc_forsyth_scores own;
    gc_fifo_machine fm;
    if (target_count == 1)
        gc_model_traits(&targets[0], &t);
    if (target_count == 1 && targets[0].family == GC_MODEL_FIFO && t.order_cache >= 64)
        s = gc_opt_tipsify(indices, triangle_count, vertex_count, t.order_cache < 256 ? t.order_cache : 256, order,
                           NULL, err);
    else if (target_count == 1 && t.warp_sum && t.piece_vertices >= 3)
        /* meshopt:C,W,P with C >= W (nvidia-pascal): meshoptimizer's order with one pass of the
         * swaps between each warp and the next (gc_opt_warp_fast) */
        s = gc_opt_warp_fast(indices, triangle_count, vertex_count, t.piece_vertices, t.piece_triangles, order, err);
    else if (target_count == 1 && gc_fifo_machine_of(&targets[0], &fm))
        /* 7 recent vertices for a FIFO; 6 for meshopt's warps (nvidia-maxwell, amd-gcn): on the
         * corpus both better and about 9% quicker there (amd-gcn -4.70% against meshoptimizer
         * for -4.41%, maxwell -1.88% for -1.71%; generic would lose, -5.91% for -6.48%) */
        s = gc_opt_fifo_greedy(indices, triangle_count, vertex_count, &fm, 0.75f, 0.1f, fm.warp_rule ? 6 : 7, order,
                               err);
    else if (target_count == 1 && targets[0].family == GC_MODEL_BATCH_ALL && t.piece_vertices >= 128)
        s = gc_opt_patches(indices, triangle_count, vertex_count, t.piece_triangles, 0, t.piece_vertices, 0, order,
                           err);
    else {
        /* several targets on a regular grid (a finely subdivided surface), or a triangulated
         * grid with its borders (auto_regular.c): meshoptimizer's own table order, which the
         * tuned table's is worse than there (a hub: the tuned order, as elsewhere) */
        s = GC_ERR_LIMIT;
        if (target_count > 1 && gc_mesh_regular_or_grid(indices, triangle_count, vertex_count))
            s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, order, err);
        if (s == GC_ERR_LIMIT)
            s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count,
                                      target_count == 1 ? gc_family_forsyth_scores(&t, &own) : &gc_auto_tuned_scores,
                                      order, NULL, err);
    }
    if (!s && options->progress)
        options->progress(options->progress_user, 1, 1);
    return s;
}
