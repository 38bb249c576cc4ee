// SPDX-License-Identifier: MIT
/* auto at --effort 1 for the families whose gain comes from the target's own machine
 * (issue 33): one greedy pass that drives the target's state machine (gc_sim, its rule
 * stated once in src/models/) alongside the order, instead of candidates scored whole.
 *
 * The candidates of a step are the remaining triangles (at most SCAN of each) of the
 * `recent_limit` most recently used vertices, each scored once a step: the invocations the
 * machine says it would cost now (gc_sim_peek), less beta times its corners' valence bonus
 * 1/sqrt(remaining triangles) (Forsyth's); the lowest wins, the lower triangle number among
 * equals. The winner is fed to the machine. Dead ends go back to the most recent vertex with
 * triangles left, then to input order (gc_greedy_restart). It is auto.c's greedy with one
 * target, no age bonus, 3 recent vertices instead of 5 to 10, each candidate priced once and
 * only when it could win: on the corpus 1.1 to 1.2 times meshopt_optimizeVertexCache's time
 * where that greedy takes 4 to 7 (docs/PERFORMANCE.md, issue 33).
 *
 * With a value-keyed table written out (machine_inline.h's kind 4: llvmpipe, and
 * direct-value:N, which is llvmpipe's table of N entries without segments) it also serves
 * the default's greedy for a lone llvmpipe or direct-value target (gc_opt_llvmpipe_greedy):
 * with `distinct` lists (gc_live_triangles_init_light) the order of auto's target-aware
 * greedy with that one target (target_sims.c; neither keeps ages, so its age bonus is 0),
 * from 2.0 to 2.6 times faster than through gc_sim, and its count of the order as it feeds
 * the table, which auto takes as the order's score where that is the same count
 * (tests/test_llvmpipe_greedy.c, tests/test_llvmpipe_pipe.c). */
#include "optimize.h"
#include "paged_order.h"
#include "machine_inline.h"
#include "forsyth_lists.h"

#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16
#define SCAN 8
#define LIGHT_VALENCE 64
/* The default effort's machine greedy for llvmpipe (auto.c's last candidate) only below this
 * many triangles. On the corpus (28 rows, and the same with first-use numbers) its order won
 * only woody stored (1,267 triangles, where without it the default would end 0.9% above
 * meshoptimizer's order); from 5,804 triangles up (12 meshes, stored and shuffled) the
 * greedy's polished order was the cheaper every time, and on the largest meshes the machine
 * greedy was a third of the default's time (docs/optimizers/auto.md, "llvmpipe's default"). */
#define GC_LLVMPIPE_MACHINE_MAX 32768
/* direct-position's window (direct_position_window.c) after meshoptimizer's order, chosen on
 * the corpus (28 rows, issue 33): --effort 1 3 triangles (-4.71% against meshoptimizer at
 * about 1.3 times its time), the default 16 (-5.99% at about 2.0 times) */
#define DP_WINDOW_FAST 3
#define DP_WINDOW_DEFAULT 16
/* the machine greedy's settings for a lone batch target at the default effort (seed 004's
 * slots, batch_lone below, now only where the table orders refuse a hub), chosen on the
 * corpus among beta 0.5 to 1.5 and 3 to 7 recent vertices (docs/optimizers/auto.md) */
#define BATCH_GREEDY_BETA 1.0f
#define BATCH_GREEDY_RECENT 5
/* below this many triangles a lone batch target's --effort 1 and default run one order more
 * (meshoptimizer's table order; the told order with BATCH_BONUS_MORE): the rows of 65,536
 * triangles or more take most of the corpus' time, and none of them was above meshoptimizer
 * with the told order (docs/optimizers/auto.md, "batch told") */
#define BATCH_SMALL_MAX_TRIANGLES 65536
/* the bonus of a vertex the open batch holds in gc_opt_score_table_batch (seed 004's slots):
 * --effort 1 0.5, chosen with auto's tuned table on the even half of the corpus among 0.25 to
 * 1.5 (-1.45% against meshoptimizer there, -1.52% on the odd half), then kept when the table
 * was tuned for it (gc_batch_told_scores); the default adds 0.75 below
 * BATCH_SMALL_MAX_TRIANGLES (docs/optimizers/auto.md, "batch told") */
#define BATCH_BONUS_FAST 0.5f
#define BATCH_BONUS_MORE 0.75f

/* The feed's end (NULL: none): what was written stays published (short of the count after a
 * failure). */
static gc_status feed_end(gc_order_feed* feed, gc_status s)
{
    if (feed)
        atomic_store_explicit(&feed->ended, 1, memory_order_release);
    return s;
}

/* written_out: lru, direct-position, batch, llvmpipe and direct-value priced by
 * machine_inline.h's machines (the same prices) instead of through gc_sim; distinct: the
 * lists' light form only where no triangle repeats a vertex (the target greedy's lists, so
 * its order where the machine keeps no ages); fed (NULL: not wanted): the misses of a
 * value-keyed table (machine_inline.h's kind 4) as the order is fed to it; feed (NULL: none):
 * the order published as it is made, ended whatever the outcome. table_only (a constant in
 * each of the two copies below): the target is one of those tables, written out (the loop
 * then without the other machines' branches, as fast as its own copy was). */
/* The table greedy's candidates of a step (gc_greedy_step_candidates without its set): the
 * first SCAN remaining triangles of each recent vertex, a triangle of two recent vertices met
 * twice. Its score is the same both times, and a candidate wins only by beating the best so
 * far (gc_greedy_beats: the lower score, the lower number among equals), which it never does
 * against itself, so the winner is the one of the deduplicated candidates; the set's probes
 * (a branch on the data per triangle) cost more than the few repeats, each cut by the bound.
 * vt: per vertex its remaining triangles, then its total. */
static inline uint32_t table_step_candidates(const uint32_t* recent, uint32_t recent_count, const uint32_t* vt,
                                             uint32_t list_end,
                                             const uint32_t* first, const uint32_t* adjacent, const uint32_t* indices,
                                             uint32_t* candidates)
{
    uint32_t count = 0;
    for (uint32_t r = 0; r < recent_count; ++r) {
        const uint32_t v = recent[r];
        const uint32_t l = vt[2 * (size_t)v];
        const uint32_t scan = l < SCAN ? l : SCAN;
        const uint32_t* list = adjacent + first[v];
        if (first[v] + SCAN <= list_end) { /* SCAN entries at once, without a branch on the count */
            memcpy(candidates + count, list, SCAN * sizeof *candidates);
        } else {
            for (uint32_t a = 0; a < scan; ++a)
                candidates[count + a] = list[a];
        }
        count += scan;
    }
#if defined(__GNUC__)
    for (uint32_t i = 0; i < count; ++i)
        __builtin_prefetch(indices + 3 * (size_t)candidates[i]);
#else
    (void)indices;
#endif
    return count;
}

/* gc_greedy_fresh_bound on vt (table_step_candidates'): a corner is fresh while all of its
 * vertex's triangles remain. */
static inline float table_fresh_bound(const uint32_t* tv, const uint32_t* vt, const float boost[64], float beta,
                                      float* valence)
{
    float v = 0.0f;
    uint32_t fresh = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t l = vt[2 * (size_t)tv[c]];
        v += l < 64 ? boost[l] : 0.0f;
        fresh += l == vt[2 * (size_t)tv[c] + 1] && !(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]);
    }
    *valence = v;
    return (float)fresh - beta * v;
}

/* A candidate's score in the table greedy with the vertices' own numbers as keys:
 * gc_llvmpipe_price3's misses (a miss writes its slot, which the later corners see) less
 * beta times table_fresh_bound's valence, without branches on the data. mask: the table's
 * size - 1 where that is a power of two, else 0 (gc_llvmpipe_slot's remainder). bonus: per
 * vertex the valence bonus of its remaining triangles l (1/sqrt(l) below 64, else 0), kept
 * beside vt's counts (the same values summed in the same order: the same scores, one load a
 * corner where the count and the table took two in a row). */
static inline float table_score(const gc_llvmpipe_list* m, const uint32_t* tv, const float* bonus, float beta,
                                bool fresh, uint32_t mask)
{
    uint32_t s[3], held[3];
    float v = 0.0f;
    for (int c = 0; c < 3; ++c) {
        s[c] = mask ? tv[c] & mask : tv[c] % m->map;
        held[c] = fresh ? 0 : m->table[s[c]];
        v += bonus[tv[c]];
    }
    const uint32_t miss0 = held[0] != tv[0] + 1;
    const uint32_t h1 = (miss0 & (s[1] == s[0])) ? tv[0] + 1 : held[1];
    const uint32_t miss1 = h1 != tv[1] + 1;
    uint32_t h2 = (miss0 & (s[2] == s[0])) ? tv[0] + 1 : held[2];
    h2 = (miss1 & (s[2] == s[1])) ? tv[1] + 1 : h2;
    const uint32_t miss2 = h2 != tv[2] + 1;
    return (float)(miss0 + miss1 + miss2) - beta * v;
}

/* gc_greedy_restart with vt's remaining triangles (table_step_candidates'). */
static inline int64_t table_restart(const uint32_t* vt, const uint32_t* first, const uint32_t* adjacent,
                                    const uint32_t* dead_end, size_t* dead_top, const unsigned char* emitted,
                                    size_t* input_cursor)
{
    while (*dead_top > 0) {
        const uint32_t d = dead_end[--*dead_top];
        if (vt[2 * (size_t)d] > 0)
            return adjacent[first[d]];
    }
    while (emitted[*input_cursor])
        ++*input_cursor;
    return (int64_t)*input_cursor;
}

#if defined(__GNUC__)
#define GREEDY_INLINE static inline __attribute__((always_inline))
#else
#define GREEDY_INLINE static inline
#endif
GREEDY_INLINE gc_status greedy_body(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                    bool first_use, float beta, uint32_t recent_limit, bool written_out, bool distinct,
                                    uint64_t* fed, gc_order_feed* feed, uint32_t* order, const bool table_only,
                                    gc_error* err)
{
    uint64_t invocations = 0;
    if (fed)
        *fed = 0;
    if (triangle_count == 0)
        return feed_end(feed, GC_OK);
    if (recent_limit == 0 || recent_limit > RECENT_MAX)
        return feed_end(feed, gc_fail(err, GC_ERR_USAGE, "machine greedy: 1 to %d recent vertices", RECENT_MAX));
    /* The remaining triangles of each vertex. Where every vertex has at most LIGHT_VALENCE
     * triangles, a triangle leaves a list by a search of it (a few entries in a row) instead of
     * through gc_live_triangles' slots, whose upkeep reads a scattered triangle per corner;
     * both move the list's last entry into the hole (where a triangle repeats a vertex the two
     * can leave a list in another order: the order is this greedy's own either way). */
    gc_live_triangles lists;
    bool light;
    gc_status s = gc_live_triangles_init_light(&lists, indices, triangle_count, vertex_count, LIGHT_VALENCE, distinct,
                                               &light, err);
    if (s)
        return feed_end(feed, s);
    if (table_only && light) { /* (vt below holds the light form's counts: `live` is never read) */
        free(lists.live);
        lists.live = NULL;
    }
    gc_sim* sim = NULL;
    inline_machine machine;
    memset(&machine, 0, sizeof machine);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    /* first_use: the values the machine keys by are the numbers the vertices will have, in
     * order of first use: below `next` those of the vertices drawn, from `next` on the ones a
     * priced triangle would give its new vertices (UINT32_MAX: none yet) */
    uint32_t* values = first_use ? gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false) : NULL;
    uint32_t next = 0;
    /* table_only: per vertex its remaining triangles and its total, side by side (one read of
       a vertex for the bound where `live` and `first` took two) */
    uint32_t* vt = table_only ? gc_alloc_array(2 * (size_t)(vertex_count ? vertex_count : 1), sizeof(uint32_t), false)
                              : NULL;
    float* bonus = table_only ? gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(float), false) : NULL;
    if (!dead_end || !emitted || (first_use && !values) || (table_only && (!vt || !bonus))) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    if (values)
        for (uint32_t v = 0; v < vertex_count; ++v)
            values[v] = UINT32_MAX;
    if (written_out && (s = inline_machine_init(&machine, target, vertex_count, values, first_number, stream_length,
                                                triangle_count, err)))
        goto done;
    if (!machine.kind && (s = gc_sim_create(target, vertex_count, values, &sim, err)))
        goto done;
    if (sim)
        gc_sim_begin_run(sim, 0, stream_length ? stream_length : 3 * (uint64_t)triangle_count);
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;
    const uint32_t* adjacent = lists.adj.triangles;
    for (uint32_t v = 0; table_only && v < vertex_count; ++v) { /* (light: every list whole) */
        vt[2 * (size_t)v + 1] = first[v + 1] - first[v];
        vt[2 * (size_t)v] = light ? vt[2 * (size_t)v + 1] : live[v];
    }

    float boost[64];
    gc_greedy_boost_table(boost);
    for (uint32_t v = 0; table_only && v < vertex_count; ++v)
        bonus[v] = vt[2 * (size_t)v] < 64 ? boost[vt[2 * (size_t)v]] : 0.0f;

    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    /* the triangles scored in this step: at most RECENT_MAX x SCAN = 128 of 256 slots */
    uint32_t seen_tri[GC_GREEDY_SEEN_SLOTS], seen_step[GC_GREEDY_SEEN_SLOTS];
    memset(seen_step, 0, sizeof seen_step);
    size_t dead_top = 0, input_cursor = 0;
    gc_sim_primitive p = {{0, 0, 0, 0}, {0, 1, 2, 0}, 3, 0, NULL, 0};
    /* table_only: the table's state here, out of the machine (its memory is the machine's, freed with it) */
    gc_llvmpipe_list table = machine.table;
    /* the table's slot mask where its size is a power of two (else 0: the remainder) */
    const uint32_t mask = table.map && (table.map & (table.map - 1)) == 0 ? table.map - 1 : 0;
    /* table_only: the current step's segment + 1 (gc_llvmpipe_list_fresh's), and its primitives so far */
    uint64_t segment = 1, seg_pos = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        const uint32_t mark = (uint32_t)step + 1;
        uint32_t candidates[RECENT_MAX * SCAN];
        bool fresh = false;
        if (table_only) {
            /* the segment of primitive `step` + 1 counted along (no division a step) */
            if (table.per_segment && seg_pos == table.per_segment)
                seg_pos = 0, ++segment;
            ++seg_pos;
            fresh = table.current != segment;
        } else {
            p.number = first_number + step;
            p.positions[0] = 3 * p.number, p.positions[1] = p.positions[0] + 1, p.positions[2] = p.positions[0] + 2;
            inline_machine_step(&machine, p.number);
        }
        const uint32_t count = table_only ? table_step_candidates(recent, recent_count, vt, first[vertex_count], first, adjacent, indices,
                                                                  candidates)
                                          : gc_greedy_step_candidates(recent, recent_count, live, first, adjacent,
                                                                      indices, SCAN, mark, seen_tri, seen_step,
                                                                      candidates);
        if (table_only && !values) {
            /* every candidate priced, the best kept without branches on the data (the bound's
               test mispredicted often): the same winner, the least (score, number), as the
               least of one 64-bit key, the score's bits made to order as unsigned integers
               above the number (one comparison a candidate waits on, where the score's and
               the number's were a longer chain; a score of -0 is made +0 first, equal to it) */
            uint64_t best_key = UINT64_MAX;
            for (uint32_t i = 0; i < count; ++i) {
                const uint32_t tri = candidates[i];
                const float score =
                    table_score(&table, indices + 3 * (size_t)tri, bonus, beta, fresh, mask) + 0.0f;
                uint32_t bits;
                memcpy(&bits, &score, sizeof bits);
                const uint32_t ordered = bits >> 31 ? ~bits : bits | 0x80000000u;
                const uint64_t key = (uint64_t)ordered << 32 | tri;
                best_key = key < best_key ? key : best_key;
            }
            best = best_key == UINT64_MAX ? -1 : (int64_t)(uint32_t)best_key;
        }
        for (uint32_t i = 0; i < (table_only && !values ? 0 : count); ++i) {
            uint32_t tri = candidates[i];
            const uint32_t* tv = indices + 3 * (size_t)tri;
            /* the fewest invocations it can cost could not beat the best: not priced (the same order) */
            float valence;
            const float bound = table_only ? table_fresh_bound(tv, vt, boost, beta, &valence)
                                           : gc_greedy_fresh_bound(tv, live, first, boost, beta, &valence);
            if (best >= 0 && (bound > best_score || (bound == best_score && tri > (uint32_t)best)))
                continue;
            p.vertices[0] = tv[0], p.vertices[1] = tv[1], p.vertices[2] = tv[2];
            if (values)
                gc_number_new_corners(values, next, tv);
            const uint32_t price = table_only    ? gc_llvmpipe_price3(&table, tv, fresh)
                                   : machine.kind ? inline_machine_peek(&machine, tv, p.number)
                                                  : gc_sim_peek(sim, &p, NULL);
            float score = (float)price - beta * valence;
            if (values) /* priced only: its new vertices unnumbered again */
                gc_number_forget_new(values, next, tv);
            if (gc_greedy_beats(score, tri, best, best_score)) {
                best = tri;
                best_score = score;
            }
        }
        if (table_only && light && best < 0) /* gc_greedy_restart on vt (lists.live not kept in the light form) */
            best = table_restart(vt, first, adjacent, dead_end, &dead_top, emitted, &input_cursor);
        const uint32_t tri = gc_greedy_take(best, &lists, dead_end, &dead_top, emitted, &input_cursor);
        const uint32_t* tv = indices + 3 * (size_t)tri;
        p.vertices[0] = tv[0], p.vertices[1] = tv[1], p.vertices[2] = tv[2];
        if (values)
            next = gc_number_new_corners(values, next, tv);
        if (table_only)
            invocations += gc_llvmpipe_feed3_in(&table, tv, segment);
        else if (machine.kind)
            invocations += inline_machine_feed(&machine, tv, p.number);
        else
            gc_sim_feed(sim, &p, NULL);
        order[step] = tri;
        if (feed && (step + 1) % GC_ORDER_FEED_STEP == 0)
            atomic_store_explicit(&feed->written, step + 1, memory_order_release);
        if (table_only && light) /* gc_live_triangles_drop's light form on vt's counts */
            for (int c = 0; c < 3; ++c) {
                uint32_t* list = lists.adj.triangles + first[tv[c]];
                const uint32_t last = --vt[2 * (size_t)tv[c]];
                const uint32_t k = gc_list_find(list, last + 1, tri, first[tv[c]] + 8 <= first[vertex_count]);
                list[k] = list[last];
            }
        else
            gc_live_triangles_drop(&lists, light, indices, tri);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        if (table_only) {
            for (int c = 0; c < 3 && !light; ++c)
                vt[2 * (size_t)tv[c]] = live[tv[c]];
            for (int c = 0; c < 3; ++c) {
                const uint32_t l = vt[2 * (size_t)tv[c]];
                bonus[tv[c]] = l < 64 ? boost[l] : 0.0f;
            }
            gc_recent_after_strided(recent, &recent_count, recent_limit, tv, vt, 2 * sizeof *vt);
        } else {
            gc_recent_after(recent, &recent_count, recent_limit, tv, live);
        }
    }
    if (fed)
        *fed = invocations;
    if (feed)
        atomic_store_explicit(&feed->written, triangle_count, memory_order_release);
done:
    gc_sim_destroy(sim);
    inline_machine_free(&machine);
    free(values);
    free(vt);
    free(bonus);
    free(dead_end);
    free(emitted);
    gc_live_triangles_free(&lists);
    return feed_end(feed, s);
}

static gc_status machine_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                bool first_use, float beta, uint32_t recent_limit, bool written_out, uint32_t* order,
                                gc_error* err)
{
    return greedy_body(indices, triangle_count, vertex_count, target, first_number, stream_length, first_use, beta,
                       recent_limit, written_out, false, NULL, NULL, order, false, err);
}

/* The greedy for llvmpipe and direct-value, their table written out (machine_inline.h's kind
 * 4), its primitives numbered from the list's start (the table's segments counted from
 * there); recent_limit 1 to RECENT_MAX. */
static gc_status table_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, uint64_t stream_length, bool first_use, float beta,
                              uint32_t recent_limit, bool distinct, uint64_t* fed, gc_order_feed* feed,
                              uint32_t* order, gc_error* err)
{
    return greedy_body(indices, triangle_count, vertex_count, target, 0, stream_length, first_use, beta, recent_limit,
                       true, distinct, fed, feed, order, true, err);
}

gc_status gc_opt_machine_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                bool first_use, float beta, uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    /* llvmpipe's table and direct-value's (the same table without segments) in their own copy
       of the loop: the same order */
    if ((target->family == GC_MODEL_LLVMPIPE || target->family == GC_MODEL_DIRECT_VALUE) && recent_limit >= 1 &&
        recent_limit <= RECENT_MAX)
        return gc_opt_llvmpipe_greedy(indices, triangle_count, vertex_count, target, stream_length, first_use, false,
                                      beta, recent_limit, order, err);
    return machine_greedy(indices, triangle_count, vertex_count, target, first_number, stream_length, first_use, beta,
                          recent_limit, true, order, err);
}

gc_status gc_opt_llvmpipe_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                 float beta, uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    return gc_opt_llvmpipe_greedy_fed(indices, triangle_count, vertex_count, target, stream_length, first_use,
                                      distinct, beta, recent_limit, order, NULL, NULL, err);
}

gc_status gc_opt_llvmpipe_greedy_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                     float beta, uint32_t recent_limit, uint32_t* order, uint64_t* fed,
                                     gc_order_feed* feed, gc_error* err)
{
    const uint32_t map = target->family == GC_MODEL_LLVMPIPE ? target->p[1] : target->p[0];
    if ((target->family != GC_MODEL_LLVMPIPE && target->family != GC_MODEL_DIRECT_VALUE) || map == 0) {
        if (fed)
            *fed = 0;
        return feed_end(feed, gc_fail(err, GC_ERR_USAGE, "llvmpipe greedy: not an llvmpipe or direct-value target"));
    }
    recent_limit = recent_limit == 0 ? 1 : recent_limit > RECENT_MAX ? RECENT_MAX : recent_limit;
    return table_greedy(indices, triangle_count, vertex_count, target, stream_length, first_use, beta, recent_limit,
                        distinct, fed, feed, order, err);
}

gc_status gc_opt_machine_greedy_sim(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                    bool first_use, float beta, uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    return machine_greedy(indices, triangle_count, vertex_count, target, first_number, stream_length, first_use, beta,
                          recent_limit, false, order, err);
}

bool gc_machine_greedy_default(const gc_model* target, size_t triangle_count)
{
    return target->family != GC_MODEL_LLVMPIPE || triangle_count < GC_LLVMPIPE_MACHINE_MAX;
}

/* The greedy's settings for a target it serves (direct-value, llvmpipe), chosen on the corpus
 * (docs/PERFORMANCE.md, issue 33): true, with its valence weight and recent vertices. */
bool gc_machine_greedy_settings(const gc_model* target, float* beta, uint32_t* recent)
{
    switch (target->family) {
    case GC_MODEL_DIRECT_VALUE: /* a table keyed by the index value: Forsyth's orders never see its conflicts */
        *beta = 1.5f, *recent = 3;
        return true;
    case GC_MODEL_LLVMPIPE: /* segments of the stream with a table keyed by the value each */
        *beta = 1.0f, *recent = 3;
        return true;
    default:
        return false;
    }
}

/* --effort 1 for a lone batch target under BATCH_SMALL_MAX_TRIANGLES triangles: `order`
 * (meshoptimizer's variant told of the batches, `cost` invocations under the rule) against
 * meshoptimizer's table order counted under the rule (gc_batch_order_cost:
 * src/models/batch_rule.h); the cheaper, `order` among equals. */
static gc_status batch_fast_pair(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint64_t cost, uint32_t* order, gc_error* err)
{
    uint32_t* other = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    if (!other)
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    uint64_t b = 0;
    gc_status s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, other, err);
    if (s == GC_ERR_LIMIT) { /* (the same valences as the told order's: not expected) */
        free(other);
        return GC_OK;
    }
    if (!s)
        s = gc_batch_order_cost(indices, triangle_count, vertex_count, target->p[0], target->p[1], other, &b, err);
    if (!s && b < cost)
        memcpy(order, other, triangle_count * sizeof *order);
    free(other);
    return s;
}

/* --effort 1 for one target whose gain over meshoptimizer comes from its own machine
 * (direct-value and llvmpipe, below; direct-position gets meshoptimizer's order): the
 * greedy above, with the settings chosen on the corpus (docs/PERFORMANCE.md, issue 33); a
 * value-keyed target whose vertices will be numbered in order of first use is driven with
 * those numbers. *served: false when the target is not one of them: auto_fast.c's choice
 * then applies. */
gc_status gc_opt_auto_machine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* targets, size_t target_count, const gc_optimize_options* options,
                              const gc_optimize_placement* placement, uint32_t* order, bool* served, gc_error* err)
{
    *served = false;
    if (target_count != 1)
        return GC_OK;
    gc_family_traits t;
    gc_model_traits(&targets[0], &t);
    float beta = 0.0f;
    uint32_t recent = 0;
    gc_status s = GC_OK;
    if (targets[0].family == GC_MODEL_DIRECT_POSITION) {
        /* Not a greedy's: meshoptimizer's own order (its table, score_table.c), then the pass of
         * direct_position_window.c over it (3 triangles); the order alone: the tuned
         * Forsyth order was above on 11 of the 28 corpus rows (+0.29% on the mean) and no
         * greedy within the time beat (docs/PERFORMANCE.md, issue 33); a hub: auto_fast.c's. */
        /* then the pass for its slots (direct_position_window.c), kept where cheaper; with
         * threads the two side by side (direct_position_pipe.c) */
        s = gc_opt_direct_position_table_window(indices, triangle_count, vertex_count, targets[0].p[0],
                                                placement->stream_position, DP_WINDOW_FAST, options->threads, order,
                                                err);
        if (s == GC_ERR_LIMIT)
            return GC_OK;
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    if (targets[0].family == GC_MODEL_NVIDIA && targets[0].p[0] >= 3) {
        /* nvidia-kepler: meshoptimizer's variant of Forsyth's algorithm with the modelled cache
         * holding what the rule holds (score_table.c), the tuned table: on the corpus
         * -1.62% against meshoptimizer at about 1.3 times its time, where the tuned Forsyth
         * order gave -0.56% (forsyth.c's algorithm told the rule, forsyth_flush.c: -1.72% at
         * 1.5 times); a hub (GC_ERR_LIMIT): forsyth_flush.c's */
        s = gc_opt_score_table_nvidia(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, &targets[0],
                                      placement->stream_position / 3, order, err);
        if (s == GC_ERR_LIMIT)
            s = gc_opt_forsyth_nvidia(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, &targets[0],
                                      placement->stream_position / 3, order, err);
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    gc_flush_rule rule;
    if (gc_flush_rule_of(&targets[0], placement->stream_position, &rule)) {
        /* ati-basic, reuse: Forsyth's order with its cache emptied where the target's is
         * (forsyth_flush.c): on the corpus ati-basic -1.04%, reuse:32,16,32 -2.20% against
         * meshoptimizer, where the plain tuned order gave -0.42% and -0.37% */
        gc_forsyth_scores own;
        s = gc_opt_forsyth_flush(indices, triangle_count, vertex_count, gc_flush_scores(&targets[0], &own), &rule,
                                 order, err);
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    if (targets[0].family == GC_MODEL_BATCH) {
        /* seed 004's slots: meshoptimizer's variant of Forsyth's algorithm (score_table.c) told
         * of the batches (a vertex the open batch holds scores BATCH_BONUS_FAST more), with the
         * table tuned for it (gc_batch_told_scores): on the corpus -1.79% against meshoptimizer
         * at about 1.1 times its time, where the untold variant with auto's tuned table gave
         * -0.18% (the told one with that table -1.49%; docs/optimizers/auto.md, "batch told");
         * below BATCH_SMALL_MAX_TRIANGLES also meshoptimizer's table order, the cheaper kept
         * (batch_fast_pair: -1.83%, no row above meshoptimizer's order); a hub (GC_ERR_LIMIT):
         * the tuned Forsyth order, as before */
        uint64_t told = 0;
        s = targets[0].p[0] >= 3 ? gc_opt_score_table_batch(indices, triangle_count, vertex_count,
                                                            &gc_batch_told_scores, &targets[0], BATCH_BONUS_FAST,
                                                            order, &told, err)
                                 : gc_opt_score_table(indices, triangle_count, vertex_count, &gc_auto_tuned_scores,
                                                      order, err);
        if (s == GC_ERR_LIMIT)
            s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, order, NULL, err);
        else if (!s && triangle_count < BATCH_SMALL_MAX_TRIANGLES && targets[0].p[0] >= 3)
            s = batch_fast_pair(indices, triangle_count, vertex_count, &targets[0], told, order, err);
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    /* nv-gl with pages (the H100) on values that change page, the numbering kept, at every
     * effort (auto.c): the flushed order, blind to the pages, was 3.8% above meshoptimizer's
     * order on igea; the page-classed order (paged_order.c: nv-gl's own orders inside each
     * page, the greedy that follows the pages on the triangles across pages) instead, -11.8%
     * there, at the other efforts -12.2% (the batch greedy too), where the general greedy and
     * meshoptimizer's table, scored, gave -10.1% in 1.5 times the time (--effort 2's
     * candidates and local search -6.8%; docs/optimizers/auto.md, "nvidia-h100 with the
     * numbering kept") */
    if (!placement->first_use_numbering && gc_nv_pages_change(&targets[0], vertex_count)) {
        s = gc_opt_paged_kept(indices, triangle_count, vertex_count, &targets[0], options->effort != 1,
                              options->threads, order, err);
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    if (gc_flush_batch_rule_of(&targets[0], placement->stream_position, &rule)) {
        /* nv-dx, nv-gl: the same with Kerbl et al.'s batches followed along the order and each
         * grown round its start, the tuned table tuned again for them (gc_flush_batch_scores
         * and gc_flush_batch_growth, on half the corpus and igea subdivided once): on the
         * corpus -2.92% and -2.94% against meshoptimizer (not grown: -2.54%, -2.56%; auto's
         * tuned table: -2.14%, -2.17%; the plain tuned order -0.41%, -0.44%; seed 004's batch:
         * +0.94%, plain -0.08%: left out) */
        /* (from GC_FLUSH_FINE_TRIANGLES: the batch greedy on its tail, flush_tail.c) */
        s = triangle_count >= GC_FLUSH_FINE_TRIANGLES
                ? gc_opt_flush_batch_tail(indices, triangle_count, vertex_count, &rule, &targets[0], order, err)
                : gc_opt_forsyth_flush(indices, triangle_count, vertex_count, &gc_flush_batch_scores, &rule, order,
                                       err);
        *served = true;
        if (!s && options->progress)
            options->progress(options->progress_user, 1, 1);
        return s;
    }
    if (!gc_machine_greedy_settings(&targets[0], &beta, &recent))
        return GC_OK;
    *served = true;
    s = gc_opt_machine_greedy(indices, triangle_count, vertex_count, &targets[0],
                                        placement->stream_position / 3, placement->stream_length,
                                        t.value_keyed && placement->first_use_numbering, beta, recent, order, err);
    if (!s && options->progress)
        options->progress(options->progress_user, 1, 1);
    return s;
}


/* What the lone orders' jobs share (gc_lone_orders, lone_jobs.c). */
typedef struct lone_ctx {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    const gc_model* target;
    const gc_optimize_placement* placement;
    gc_target_cost_fn cost;
    void* const* users; /* one a worker */
    gc_family_traits t;
    gc_flush_rule rule;
    bool flushes, nvidia, large; /* gc_opt_auto_lone's */
    gc_occlusion_ahead* ahead;   /* the overdraw pass's occlusion pairs, job LONE_OCCLUSION (NULL: none) */
    const float* positions;
    size_t position_stride;
    bool told, alone;            /* batch_lone's */
    unsigned threads;            /* gc_opt_auto_lone's (direct-position's pipeline) */
} lone_ctx;

/* The job past a lone target's three orders: the overdraw pass's occlusion pairs (they
 * depend on the triangles and positions alone; their status is the pass's to report). */
#define LONE_OCCLUSION 3
static gc_status lone_occlusion(const lone_ctx* c)
{
    gc_occlusion_ahead_run(c->ahead, c->indices, c->triangle_count, c->vertex_count, c->positions, c->position_stride);
    return GC_OK;
}

/* The default effort for a lone batch target (seed 004's slots), see gc_opt_auto_lone:
 * meshoptimizer's variant told of the batches with its table (score_table.c) and the
 * bonus of --effort 1, below BATCH_SMALL_MAX_TRIANGLES the same with BATCH_BONUS_MORE, then
 * meshoptimizer's table order; the cheapest, the first among equals. Where every table order
 * refuses (a hub), the machine greedy with the rule written out (machine_inline.h). Order k
 * of the three (gc_lone_order_fn). */
static gc_status batch_job(void* user, size_t k, unsigned worker, uint32_t* out, uint64_t* cost, int* state,
                           gc_error* err)
{
    const lone_ctx* c = user;
    if (k == LONE_OCCLUSION)
        return lone_occlusion(c);
    if (k == 1 && (c->triangle_count >= BATCH_SMALL_MAX_TRIANGLES || !c->told))
        return GC_OK;
    bool counted = false;
    gc_status s;
    if (k < 2 && c->told) {
        s = gc_opt_score_table_batch(c->indices, c->triangle_count, c->vertex_count, &gc_batch_told_scores, c->target,
                                     k == 0 ? BATCH_BONUS_FAST : BATCH_BONUS_MORE, out, cost, err);
        counted = c->alone;
    } else {
        s = gc_opt_score_table(c->indices, c->triangle_count, c->vertex_count,
                               k == 0 ? &gc_auto_tuned_scores : &gc_meshopt_scores, out, err);
    }
    if (s == GC_ERR_LIMIT) /* a hub: the table orders would not be linear */
        return GC_OK;
    /* a list drawn alone: the told orders' own counts under the rule, meshoptimizer's counted
       with the same step (gc_batch_order_cost: both are the model's, tests/test_batch_rule.c) */
    if (!s && !counted)
        s = c->alone && c->told ? gc_batch_order_cost(c->indices, c->triangle_count, c->vertex_count, c->target->p[0],
                                                      c->target->p[1], out, cost, err)
                                : c->cost(c->users[worker], out, true, 0, cost, err);
    if (!s)
        *state = GC_LONE_SCORED;
    return s;
}

static gc_status batch_lone(lone_ctx* c, unsigned threads, uint32_t* order, gc_error* err)
{
    const gc_optimize_placement* placement = c->placement;
    c->told = c->target->p[0] >= 3;
    c->alone = placement->stream_position == 0 &&
               (placement->stream_length == 0 || placement->stream_length == 3 * (uint64_t)c->triangle_count);
    int chosen = -1;
    gc_status s = gc_lone_orders(threads, c->ahead ? LONE_OCCLUSION + 1 : 3, c->triangle_count, batch_job, c, order,
                                 &chosen, err);
    if (!s && chosen < 0) /* a hub: the greedy */
        s = gc_opt_machine_greedy(c->indices, c->triangle_count, c->vertex_count, c->target,
                                  placement->stream_position / 3, placement->stream_length, false, BATCH_GREEDY_BETA,
                                  BATCH_GREEDY_RECENT, order, err);
    return s;
}

/* auto at the default effort for a lone target whose own orders beat the candidates of
 * auto.c on the corpus (28 rows: 14 meshes stored and shuffled, issue 33) in a third of
 * their time or less; each order scored with `cost`, the cheapest kept (the first among
 * equals), meshoptimizer's (its table, score_table.c) last, so that no mesh ends above it:
 *  - ati-basic, reuse: Forsyth's order with the target's flushes (forsyth_flush.c); the
 *    greedy, the plain Forsyth orders and the patches were better on a few rows only
 *    (ati-basic -1.15% against meshoptimizer where auto gave -0.71%, reuse:32,16,32 -2.24%
 *    for -0.96%);
 *  - direct-position: meshoptimizer's order with the pass of direct_position_window.c, a
 *    window of 16 triangles (-5.99%; the greedy above with 6 recent vertices and a valence
 *    weight of 1, against meshoptimizer's order alone, gave -0.88%);
 *  - nvidia-kepler: Forsyth's order with the rule's cache (forsyth_flush.c; -1.72% against
 *    meshoptimizer on its own, where auto's greedy and the two Forsyth orders gave -0.86%);
 *  - lru:16: its family's Forsyth table (family_scores.c, 26 rows of 28) in Forsyth's
 *    algorithm and in meshoptimizer's variant (score_table.c): -1.81% against meshoptimizer,
 *    where the first with the greedy above (3 recent vertices, 1.3 times meshoptimizer's time
 *    for one row, suzanne stored, by 4 invocations) gave -1.76%; the tuned Forsyth order won
 *    none;
 *  - batch (seed 004's slots): meshoptimizer's variant told of the batches with its table
 *    (two bonuses below 65,536 triangles) and meshoptimizer's table order (batch_lone):
 *    -1.94% against meshoptimizer at 2.1 times its time, where the machine greedy with the
 *    rule written out and the two untold table orders gave -0.67% at 2.3 times. */
/* Order k of gc_opt_auto_lone's three (gc_lone_order_fn). */
static gc_status lone_job(void* user, size_t k, unsigned worker, uint32_t* out, uint64_t* cost, int* state,
                          gc_error* err)
{
    const lone_ctx* c = user;
    if (k == LONE_OCCLUSION)
        return lone_occlusion(c);
    const uint32_t* indices = c->indices;
    const size_t triangle_count = c->triangle_count;
    const uint32_t vertex_count = c->vertex_count;
    const gc_model* target = c->target;
    const gc_optimize_placement* placement = c->placement;
    gc_forsyth_scores own;
    gc_status s;
    if (k == 0 && c->flushes)
        s = gc_opt_forsyth_flush(indices, triangle_count, vertex_count, gc_flush_scores(target, &own), &c->rule, out,
                                 err);
    else if (k == 0 && c->nvidia)
        s = gc_opt_forsyth_nvidia(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, target,
                                  placement->stream_position / 3, out, err);
    else if (k == 0 && c->t.order_scores)
        s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, gc_family_forsyth_scores(&c->t, &own), out,
                                  NULL, err);
    else if (k == 1 && c->t.order_scores && !c->large)
        /* lru:16: its table in meshoptimizer's variant too, but where the surface's largest
         * part has GC_LEAN_LARGE_TRIANGLES or more: its 4 corpus rows have 20,088 triangles
         * or fewer, and from 38,656 on the Forsyth order was 0.07% to 0.6% below it
         * (docs/optimizers/auto.md) */
        s = gc_opt_score_table(indices, triangle_count, vertex_count, gc_family_forsyth_scores(&c->t, &own), out, err);
    else if (k == 2 && target->family == GC_MODEL_DIRECT_POSITION)
        /* meshoptimizer's order and its pass (direct_position_window.c), with threads side by
         * side (direct_position_pipe.c) */
        s = gc_opt_direct_position_table_window(indices, triangle_count, vertex_count, target->p[0],
                                                placement->stream_position, DP_WINDOW_DEFAULT, c->threads, out, err);
    else if (k == 2)
        s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, out, err);
    else
        return GC_OK;
    if (s == GC_ERR_LIMIT && k >= 1) { /* a hub: a table order in meshoptimizer's variant would not be linear */
        if (k != 2 || target->family != GC_MODEL_DIRECT_POSITION)
            return GC_OK;
        /* direct-position: the greedy then, and the pass over it, the order whatever the others' */
        s = gc_opt_machine_greedy(indices, triangle_count, vertex_count, target, placement->stream_position / 3,
                                  placement->stream_length, false, 1.0f, 6, out, err);
        if (!s)
            s = gc_opt_direct_position_window(indices, triangle_count, vertex_count, target->p[0],
                                              placement->stream_position, DP_WINDOW_DEFAULT, out, NULL, NULL, err);
        if (!s)
            *state = GC_LONE_FORCED;
        return s;
    }
    if (!s && k == 2 && target->family == GC_MODEL_DIRECT_POSITION && !c->flushes && !c->nvidia &&
        !c->t.order_scores) {
        /* the only order scored (orders 0 and 1 are skipped for direct-position): the winner
         * whatever its cost, so it is not priced (the same choice, the chain shorter) */
        *state = GC_LONE_SCORED, *cost = 0;
        return s;
    }
    if (!s)
        s = c->cost(c->users[worker], out, true, 0, cost, err);
    if (!s)
        *state = GC_LONE_SCORED;
    return s;
}

gc_status gc_opt_auto_lone(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* target, const gc_optimize_placement* placement, gc_target_cost_fn cost,
                           unsigned threads, void* const* users, gc_occlusion_ahead* ahead, const float* positions,
                           size_t position_stride, uint32_t* order, bool* served, gc_error* err)
{
    *served = false;
    lone_ctx c;
    memset(&c, 0, sizeof c);
    c.indices = indices, c.triangle_count = triangle_count, c.vertex_count = vertex_count, c.target = target;
    c.placement = placement, c.cost = cost, c.users = users;
    c.ahead = ahead, c.positions = positions, c.position_stride = position_stride, c.threads = threads;
    gc_model_traits(target, &c.t);
    if (target->family == GC_MODEL_BATCH) {
        *served = true;
        return batch_lone(&c, threads, order, err);
    }
    c.flushes = gc_flush_rule_of(target, placement->stream_position, &c.rule);
    const bool greedy = target->family == GC_MODEL_DIRECT_POSITION || c.t.order_scores;
    c.nvidia = target->family == GC_MODEL_NVIDIA && target->p[0] >= 3;
    if (!c.flushes && !greedy && !c.nvidia)
        return GC_OK;
    *served = true;
    /* lru:16's table in meshoptimizer's variant is left out on large surfaces (lone_job) */
    c.large = c.t.order_scores && triangle_count >= GC_LEAN_LARGE_TRIANGLES &&
              gc_largest_surface_part(indices, triangle_count, vertex_count) >= GC_LEAN_LARGE_TRIANGLES;
    int chosen = -1;
    return gc_lone_orders(threads, ahead ? LONE_OCCLUSION + 1 : 3, triangle_count, lone_job, &c, order, &chosen, err);
}
