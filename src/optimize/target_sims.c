// SPDX-License-Identifier: MIT
/* The targets' own state machines (gc_sim, src/models/) run side by side, and the two orders
 * auto makes by driving them (auto.c, step 1 and 3): the target-aware greedy and the local
 * search over short windows, replayed and rolled back (gc_sim_save / gc_sim_restore). No rule
 * is stated here: every price is a machine's. */
#include "optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16 /* recently used vertices whose triangles are candidates: at most */
#define SCAN 8         /* remaining triangles scanned per recent vertex */

/* ------------------------------------------------------------- emulators */

void gc_target_sims_free(gc_target_sims* t)
{
    for (size_t k = 0; k < t->count; ++k)
        gc_sim_destroy(t->sim[k]);
    t->count = 0;
}

/* One fresh machine per target, each told of one triangle list of `triangle_count`. */
gc_status gc_target_sims_init(gc_target_sims* t, const gc_model* targets, size_t target_count, uint32_t vertex_count,
                              size_t triangle_count, const gc_stream_place* place, const uint32_t* values,
                              gc_error* err)
{
    t->count = 0;
    t->base = place->position / 3;
    uint64_t length = place->length ? place->length : 3 * (uint64_t)triangle_count;
    for (size_t k = 0; k < target_count; ++k) {
        gc_status s = gc_sim_create(&targets[k], vertex_count, values, &t->sim[k], err);
        if (s) {
            gc_target_sims_free(t);
            return s;
        }
        t->count++;
        gc_sim_begin_run(t->sim[k], 0, length);
    }
    return GC_OK;
}

/* Feeds a triangle to every target; the invocations, summed. */
uint32_t gc_target_sims_feed(gc_target_sims* t, const gc_sim_primitive* p)
{
    uint32_t cost = 0;
    for (size_t k = 0; k < t->count; ++k)
        cost += gc_sim_feed(t->sim[k], p, NULL);
    return cost;
}

static void target_sims_save(gc_target_sims* t)
{
    for (size_t k = 0; k < t->count; ++k)
        gc_sim_save(t->sim[k]);
}

static gc_status target_sims_restore(gc_target_sims* t, gc_error* err)
{
    for (size_t k = 0; k < t->count; ++k) {
        gc_status s = gc_sim_restore(t->sim[k], err);
        if (s)
            return s;
    }
    return GC_OK;
}

static void target_sims_release(gc_target_sims* t)
{
    for (size_t k = 0; k < t->count; ++k)
        gc_sim_release(t->sim[k]);
}

/* ---------------------------------------------------------------- greedy */

/* Every triangle a step scores, each once: at most RECENT_MAX x SCAN of GC_GREEDY_SEEN_SLOTS slots. */
/* Where every vertex has at most LIGHT_VALENCE triangles, a triangle leaves its corners'
 * lists by a search of each (a few entries in a row) instead of through gc_live_triangles'
 * slots; both move the list's last entry into the hole, so the lists are the same where no
 * triangle repeats a vertex (where one does, the two can leave a list in another order). */
#define LIGHT_VALENCE 64

/* The greedy of auto.c's step 1, the same order as pricing every candidate of every recent
 * vertex on every machine, with less work:
 * - each candidate once a step (gc_greedy_step_candidates);
 * - a candidate is priced only when a lower bound of its score could still win: a vertex
 *   that no triangle drawn so far had is in no machine, so each of the targets shades it
 *   at least once (checked on the corpus and random meshes for every family,
 *   tests/test_target_greedy.c), and the age bonus is at most 1 per target that keeps ages
 *   and cached corner; the float expressions are the score's own with these bounds in
 *   place of the misses and the ages, and rounding is monotonic, so the bound never exceeds
 *   the score;
 * - the candidate with the lowest bound is priced first, so that the best score is known
 *   early and the bound leaves out most of the others;
 * - where no triangle repeats a vertex and no vertex has more than LIGHT_VALENCE triangles
 *   (and the weights are at most 64), the bound is the sum of its corners' shares
 *   (gc_greedy_bound_share), kept per vertex and made again only for the three corners of
 *   the triangle drawn, less a margin that covers the rounding of both sums (about 10 float
 *   operations on magnitudes up to 3 (targets + beta + gamma x targets): 1e-4 of that is
 *   over a hundred times their error). A candidate's valence is then summed as before when
 *   it is priced, so the scores, and the winner (the lowest score, then the lowest triangle
 *   number, whichever order the candidates are priced in), are the same. */
gc_status gc_opt_target_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* targets, size_t target_count, const gc_stream_place* place,
                               float beta, float gamma, uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    if (recent_limit > RECENT_MAX)
        recent_limit = RECENT_MAX;
    gc_live_triangles lists;
    bool light;
    gc_status s = gc_live_triangles_init_light(&lists, indices, triangle_count, vertex_count, LIGHT_VALENCE, true,
                                               &light, err);
    if (s)
        return s;
    gc_target_sims t = {0};
    float* share = NULL; /* each vertex's gc_greedy_bound_share, on light meshes */
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!dead_end || !emitted) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    if ((s = gc_target_sims_init(&t, targets, target_count, vertex_count, triangle_count, place, NULL, err)))
        goto done;
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;
    const uint32_t* adjacent = lists.adj.triangles;
    /* which targets' rules say how old a cached vertex is (fifo, meshopt) */
    bool has_age[GC_TARGET_SIMS_MAX];
    uint32_t age_targets = 0;
    for (size_t k = 0; k < t.count; ++k) {
        has_age[k] = gc_sim_keeps_age(t.sim[k]);
        age_targets += has_age[k] && gamma != 0.0f;
    }
    /* the bound needs weights of the usual signs (NaN fails these: then every candidate is priced) */
    const bool bounded = beta >= 0.0f && gamma >= 0.0f;

    float boost[64];
    gc_greedy_boost_table(boost);
    const float fresh_cost = (float)(uint32_t)t.count, aged_weight = gamma * (float)age_targets;
    const bool by_share = light && bounded && beta <= 64.0f && gamma <= 64.0f;
    const float margin = 1e-4f * (1.0f + 3.0f * (fresh_cost + beta + aged_weight));
    if (by_share) {
        if (!(share = gc_alloc_array((size_t)vertex_count + 1, sizeof *share, false))) {
            s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the bounds of %u vertices", vertex_count);
            goto done;
        }
        for (uint32_t v = 0; v < vertex_count; ++v)
            share[v] = gc_greedy_bound_share(live[v], first[v + 1] - first[v], boost, fresh_cost, beta, aged_weight);
    }

    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    uint32_t seen_tri[GC_GREEDY_SEEN_SLOTS], seen_step[GC_GREEDY_SEEN_SLOTS];
    memset(seen_step, 0, sizeof seen_step);
    uint32_t candidates[RECENT_MAX * SCAN];
    float bounds[RECENT_MAX * SCAN], valences[RECENT_MAX * SCAN];
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        const uint32_t count = gc_greedy_step_candidates(recent, recent_count, live, first, adjacent, indices, SCAN,
                                                         (uint32_t)step + 1, seen_tri, seen_step, candidates);
        /* each candidate's valence bonus and the bound of its score; the lowest bound first */
        uint32_t lowest = 0;
        for (uint32_t i = 0; i < count && by_share; ++i) {
            const uint32_t* tv = indices + 3 * (size_t)candidates[i];
            bounds[i] = share[tv[0]] + share[tv[1]] + share[tv[2]] - margin;
            if (bounds[i] < bounds[lowest] || (bounds[i] == bounds[lowest] && candidates[i] < candidates[lowest]))
                lowest = i;
        }
        for (uint32_t i = 0; i < count && !by_share; ++i) {
            const uint32_t* tv = indices + 3 * (size_t)candidates[i];
            float valence = 0.0f;
            uint32_t fresh = 0, aged = 0;
            for (int c = 0; c < 3; ++c) {
                uint32_t l = live[tv[c]];
                valence += l < 64 ? boost[l] : 0.0f;
                bool is_fresh = l == first[tv[c] + 1] - first[tv[c]] && !(c > 0 && tv[c] == tv[0]) &&
                                !(c > 1 && tv[c] == tv[1]);
                fresh += is_fresh;
                aged += l > 1 && !is_fresh;
            }
            valences[i] = valence;
            bounds[i] = (float)(fresh * (uint32_t)t.count) - beta * valence - gamma * (float)(aged * age_targets);
            if (bounds[i] < bounds[lowest] || (bounds[i] == bounds[lowest] && candidates[i] < candidates[lowest]))
                lowest = i;
        }
        for (uint32_t n = 0; n < count; ++n) {
            /* the lowest bound's candidate first, then the others as they came */
            const uint32_t i = n == 0 ? lowest : n <= lowest ? n - 1 : n;
            const uint32_t tri = candidates[i];
            if (best >= 0 && bounded &&
                (bounds[i] > best_score || (bounds[i] == best_score && tri > (uint32_t)best)))
                continue; /* it cannot win: not priced */
            const uint32_t* tv = indices + 3 * (size_t)tri;
            float age = 0.0f;
            /* Each target's cost, and the ages of the corners it had cached whose vertex
             * has more triangles left (read before the feed changes them). */
            gc_sim_primitive p = gc_target_sims_triangle(&t, tv, step);
            uint32_t misses = 0;
            for (size_t k = 0; k < t.count; ++k) {
                float ages[3] = {0.0f, 0.0f, 0.0f};
                if (gamma != 0.0f && has_age[k])
                    for (int c = 0; c < 3; ++c)
                        ages[c] = live[tv[c]] > 1 ? gc_sim_age(t.sim[k], tv[c]) : 0.0f;
                unsigned shaded;
                misses += gc_sim_peek(t.sim[k], &p, &shaded);
                for (int c = 0; c < 3; ++c)
                    age += GC_SIM_SHADED(shaded, c) ? 0.0f : ages[c];
            }
            float valence = 0.0f;
            if (by_share) /* summed as the loop above sums it where the bound is not by share */
                for (int c = 0; c < 3; ++c)
                    valence += live[tv[c]] < 64 ? boost[live[tv[c]]] : 0.0f;
            else
                valence = valences[i];
            float score = (float)misses - beta * valence - gamma * age;
            if (gc_greedy_beats(score, tri, best, best_score)) {
                best = tri;
                best_score = score;
            }
        }
        const uint32_t tri = gc_greedy_take(best, &lists, dead_end, &dead_top, emitted, &input_cursor);
        const uint32_t* tv = indices + 3 * tri;
        gc_sim_primitive p = gc_target_sims_triangle(&t, tv, step);
        gc_target_sims_feed(&t, &p);
        order[step] = tri;
        gc_live_triangles_drop(&lists, light, indices, tri);
        for (int c = 0; c < 3 && by_share; ++c)
            share[tv[c]] = gc_greedy_bound_share(live[tv[c]], first[tv[c] + 1] - first[tv[c]], boost, fresh_cost, beta,
                                       aged_weight);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        gc_recent_after(recent, &recent_count, recent_limit, tv, live);
    }
done:
    free(share);
    gc_target_sims_free(&t);
    free(dead_end);
    free(emitted);
    gc_live_triangles_free(&lists);
    return s;
}

gc_status gc_opt_sim_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                            const gc_model* targets, size_t target_count, float beta, float gamma,
                            uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    const gc_stream_place place = {0, 0, NULL};
    return gc_opt_target_greedy(indices, triangle_count, vertex_count, targets, target_count, &place, beta, gamma,
                        recent_limit, order, err);
}

/* ------------------------------------------------------------ local search */

/* The cost of the window order[i .. end) with order[i + d] brought to the front (d = 0: as
 * it is), replayed from the machines' state at i and stopped once it reaches `limit`. */
static uint32_t window_cost(gc_target_sims* t, const uint32_t* indices, const uint32_t* order, size_t i, size_t end,
                            size_t d, uint32_t limit)
{
    gc_sim_primitive p = gc_target_sims_triangle(t, indices + 3 * (size_t)order[i + d], i);
    uint32_t cost = gc_target_sims_feed(t, &p);
    size_t at = i + 1;
    for (size_t j = i; j < end && cost < limit; ++j) {
        if (j == i + d)
            continue;
        p = gc_target_sims_triangle(t, indices + 3 * (size_t)order[j], at++);
        cost += gc_target_sims_feed(t, &p);
    }
    return cost;
}

/* Move descent: at each position, bringing forward one of the next REACH triangles is kept
 * when the invocations of the next WINDOW triangles, replayed from the machines' state
 * before the position, go down. Linear: a bounded window per position. */
gc_status gc_opt_window_search(const uint32_t* indices, uint32_t* order, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* targets, size_t target_count,
                               const gc_stream_place* place, unsigned passes, void (*tick)(void* user, uint32_t ticks),
                               void* user, gc_error* err)
{
    enum { WINDOW = 32, REACH = 8 };
    gc_status s = GC_OK;
    /* GC_WINDOW_SEARCH_TICKS a pass, given out along the positions */
    const size_t step = triangle_count / GC_WINDOW_SEARCH_TICKS + 1;
    for (unsigned pass = 0; pass < passes && !s; ++pass) {
        gc_target_sims t;
        if ((s = gc_target_sims_init(&t, targets, target_count, vertex_count, triangle_count, place, NULL, err)))
            break;
        uint64_t given = 0;
        for (size_t i = 0; i + 1 < triangle_count && !s; ++i) {
            if (i % step == step - 1 && given < GC_WINDOW_SEARCH_TICKS) {
                given++;
                tick(user, 1);
            }
            size_t end = i + WINDOW < triangle_count ? i + WINDOW : triangle_count;
            target_sims_save(&t);
            uint32_t best = window_cost(&t, indices, order, i, end, 0, UINT32_MAX);
            s = target_sims_restore(&t, err);
            size_t best_d = 0;
            for (size_t d = 1; d <= REACH && i + d < end && !s; ++d) {
                uint32_t cost = window_cost(&t, indices, order, i, end, d, best);
                s = target_sims_restore(&t, err);
                if (cost < best)
                    best = cost, best_d = d;
            }
            target_sims_release(&t);
            if (best_d) {
                uint32_t moved = order[i + best_d];
                memmove(order + i + 1, order + i, best_d * sizeof *order);
                order[i] = moved;
            }
            gc_sim_primitive p = gc_target_sims_triangle(&t, indices + 3 * (size_t)order[i], i);
            gc_target_sims_feed(&t, &p);
        }
        gc_target_sims_free(&t);
        tick(user, GC_WINDOW_SEARCH_TICKS - given);
    }
    return s;
}
