// SPDX-License-Identifier: MIT
/* auto's greedy for one FIFO (issue 33): the target-aware greedy of auto.c (greedy_order)
 * with the machine of a FIFO of `fifo_size` entries written into the loop instead of
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
 * order (tests/test_auto_fast.c checks it on the corpus). A triangle met through two of the
 * recent vertices is scored once per step (its score is the same both times). */
#include "optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16
#define SCAN 8

/* Per vertex, what a candidate reads, side by side: its stamp in the FIFO and its
 * remaining triangles (the live lists' count, kept in step). */
typedef struct vertex_state {
    uint32_t stamp, live;
} vertex_state;

gc_status gc_opt_fifo_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                             uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    if (m->cache == 0 || recent_limit > RECENT_MAX)
        return gc_fail(err, GC_ERR_USAGE, "fifo greedy: a FIFO of at least one entry and at most %d recent vertices",
                       RECENT_MAX);
    gc_live_triangles lists;
    gc_status s = gc_live_triangles_init(&lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    vertex_state* vs = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(vertex_state), true);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!dead_end || !vs || !emitted) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    for (uint32_t v = 0; v < vertex_count; ++v)
        vs[v].live = lists.live[v];
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;
    const uint32_t* adjacent = lists.adj.triangles;
    const uint32_t size = m->cache, warp = m->warp, group = m->group;
    /* gc_sim_age: fifo (stamp - 1 - w) / size below size; meshopt (stamp - w) / (size + 1) up to size */
    const uint32_t age_shift = m->warp_rule ? 0 : 1, age_limit = m->warp_rule ? size + 1 : size;
    const float age_scale = m->warp_rule ? (float)(size + 1) : (float)size;
    uint32_t clock = size + 1; /* the next stamp: v is cached when clock - stamp <= size */
    uint32_t warp_fill = 0, group_fill = 0;

    float boost[64];
    boost[0] = 0.0f;
    for (int n = 1; n < 64; ++n)
        boost[n] = 1.0f / sqrtf((float)n);

    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    /* the triangles scored in this step: at most RECENT_MAX x SCAN = 128 of 256 slots */
    uint32_t seen_tri[256], seen_step[256];
    memset(seen_step, 0, sizeof seen_step);
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        const uint32_t mark = (uint32_t)step + 1;
        const bool group_full = m->warp_rule && group && group_fill == group;
        for (uint32_t r = 0; r < recent_count; ++r) {
            uint32_t v = recent[r];
            uint32_t scan = live[v] < SCAN ? live[v] : SCAN;
            for (uint32_t a = first[v]; a < first[v] + scan; ++a) {
                uint32_t tri = adjacent[a];
                /* scored already this step? (a small table, in the first-level cache) */
                uint32_t h = (tri * 2654435761u) >> 24;
                while (seen_step[h] == mark && seen_tri[h] != tri)
                    h = (h + 1) & 255;
                if (seen_step[h] == mark)
                    continue;
                seen_step[h] = mark, seen_tri[h] = tri;
                const uint32_t* tv = indices + 3 * (size_t)tri;
                const vertex_state x[3] = {vs[tv[0]], vs[tv[1]], vs[tv[2]]};
                float valence = 0.0f, age = 0.0f;
                for (int c = 0; c < 3; ++c)
                    valence += x[c].live < 64 ? boost[x[c].live] : 0.0f;
                uint32_t at = clock;
                if (m->warp_rule) {
                    /* meshopt: a new warp (a flush) when the group is full or the corners'
                     * misses, each counted, would take the warp past its vertices */
                    uint32_t corner_misses = (at - x[0].stamp > size) + (at - x[1].stamp > size) +
                                             (at - x[2].stamp > size);
                    if (group_full || (warp && warp_fill + corner_misses > warp))
                        at += size + 1;
                }
                /* corner by corner: a miss stamps its vertex at once (later corners see it) */
                uint32_t w[3] = {x[0].stamp, x[1].stamp, x[2].stamp};
                uint32_t misses = 0;
                /* without branches: whether a corner hits is what the data says */
                w[1] = tv[1] == tv[0] ? w[0] : w[1];
                uint32_t miss = at - w[0] > size;
                w[0] = miss ? at : w[0];
                w[1] = tv[1] == tv[0] ? w[0] : w[1];
                w[2] = tv[2] == tv[0] ? w[0] : w[2];
                at += miss, misses += miss;
                float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f; /* the ages of the corners that hit (gc_sim_age, before the feed) */
                {
                    uint32_t old = clock - age_shift - x[0].stamp;
                    a0 = !miss && x[0].live > 1 && old < age_limit ? (float)old / age_scale : 0.0f;
                }
                miss = at - w[1] > size;
                w[1] = miss ? at : w[1];
                w[2] = tv[2] == tv[1] ? w[1] : w[2];
                at += miss, misses += miss;
                {
                    uint32_t old = clock - age_shift - x[1].stamp;
                    a1 = !miss && x[1].live > 1 && old < age_limit ? (float)old / age_scale : 0.0f;
                }
                miss = at - w[2] > size;
                misses += miss;
                {
                    uint32_t old = clock - age_shift - x[2].stamp;
                    a2 = !miss && x[2].live > 1 && old < age_limit ? (float)old / age_scale : 0.0f;
                }
                if (gamma != 0.0f)
                    age = ((age + a0) + a1) + a2;
                float score = (float)misses - beta * valence - gamma * age;
                if (best < 0 || score < best_score || (score == best_score && tri < (uint32_t)best)) {
                    best = tri;
                    best_score = score;
                }
            }
        }
        if (best < 0)
            best = gc_greedy_restart(&lists, dead_end, &dead_top, emitted, &input_cursor);
        uint32_t tri = (uint32_t)best;
        const uint32_t* tv = indices + 3 * (size_t)tri;
        emitted[tri] = 1;
        if (m->warp_rule) {
            uint32_t corner_misses = 0;
            for (int c = 0; c < 3; ++c)
                corner_misses += clock - vs[tv[c]].stamp > size;
            if ((group && group_fill == group) || (warp && warp_fill + corner_misses > warp)) {
                warp_fill = group_fill = 0;
                clock += size + 1;
            }
        }
        for (int c = 0; c < 3; ++c)
            if (clock - vs[tv[c]].stamp > size) {
                vs[tv[c]].stamp = clock++;
                warp_fill++;
            }
        group_fill++;
        order[step] = tri;
        gc_live_triangles_remove(&lists, indices, tri);
        for (int c = 0; c < 3; ++c) {
            vs[tv[c]].live--;
            dead_end[dead_top++] = tv[c];
        }
        gc_recent_after(recent, &recent_count, recent_limit, tv, live);
    }
done:
    free(dead_end);
    free(vs);
    free(emitted);
    gc_live_triangles_free(&lists);
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

/* --effort 1 (issue 33): one order, chosen by the target's family, and nothing scored: the
 * greedy above where its machine is the target's (fifo, meshopt); Tipsify at a FIFO's size
 * from 64 entries (where it won at every effort on the corpus); patches of a warp for
 * meshopt's warps when nothing is evicted inside one (nvidia-pascal), and for Kerbl et
 * al.'s batches of 128 vertices or more; otherwise, and for several targets, the tuned
 * Forsyth order (the winner for the four presets on every corpus mesh). Chosen on four
 * corpus meshes, stored and shuffled; figures in docs/PERFORMANCE.md. */
gc_status gc_opt_auto_fast(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* targets, size_t target_count, const gc_optimize_options* options,
                           uint32_t* order, gc_error* err)
{
    gc_status s = GC_OK;
    gc_family_traits t;
    gc_fifo_machine fm;
    if (target_count == 1)
        gc_model_traits(&targets[0], &t);
    if (target_count == 1 && targets[0].family == GC_MODEL_FIFO && t.order_cache >= 64)
        s = gc_opt_tipsify(indices, triangle_count, vertex_count, t.order_cache < 256 ? t.order_cache : 256, order,
                           NULL, err);
    else if (target_count == 1 && t.warp_sum && t.piece_vertices >= 3)
        /* meshopt:C,W,P with C >= W (nvidia-pascal): compact patches of a warp each */
        s = gc_opt_patches(indices, triangle_count, vertex_count, t.piece_triangles, 0, t.piece_vertices, 0, order,
                           err);
    else if (target_count == 1 && gc_fifo_machine_of(&targets[0], &fm))
        s = gc_opt_fifo_greedy(indices, triangle_count, vertex_count, &fm, 0.75f, 0.1f, 7, order, err);
    else if (target_count == 1 && targets[0].family == GC_MODEL_BATCH_ALL && t.piece_vertices >= 128)
        s = gc_opt_patches(indices, triangle_count, vertex_count, t.piece_triangles, 0, t.piece_vertices, 0, order,
                           err);
    else
        s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, order, NULL, err);
    if (!s && options->progress)
        options->progress(options->progress_user, 1, 1);
    return s;
}
