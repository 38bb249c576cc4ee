// SPDX-License-Identifier: MIT
/* auto's greedy for one nvidia target (issue 33): the target-aware greedy of target_sims.c
 * (gc_opt_target_greedy) with seed 000's NVIDIA rule (src/models/nvidia.c) written into the
 * loop instead of driven through gc_sim, so that a candidate's price is a few array reads
 * instead of a peek through the rule table with its overlay.
 *
 * The same search, step for step, so the same order: the candidates are the remaining
 * triangles (at most SCAN of each, in the live lists' order) of the `recent_limit` most
 * recently used vertices; a candidate's price is the rule's misses for it as the next
 * primitive (its distinct corners that no valid slot holds; all of them when they would
 * write past the last slot, which resets the cache), less beta times its corners' valence
 * bonus; the rule keeps no age (gc_sim_keeps_age), so gamma's term is zero as there. The
 * lowest score wins, the lower triangle number among equals; dead ends as gc_greedy_restart.
 * The floating-point operations are gc_opt_target_greedy's, in its order.
 *
 * The rule is nvidia_rule.h's (src/models/), its state by slot as the simulator keeps it. */
#include "optimize.h"
#include "../models/nvidia_rule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_MAX 16
#define SCAN 8

/* The rule's invocations for tv as primitive `prim`, the state unchanged. */
static inline uint32_t nv_price(const gc_nv_slots* m, const uint32_t* tv, uint32_t prim)
{
    bool fresh[3];
    gc_nv_fresh3(tv, fresh);
    return gc_nv_price(m, tv, fresh, 3, prim);
}

static void nv_feed(gc_nv_slots* m, const uint32_t* tv, uint32_t prim)
{
    bool fresh[3];
    int32_t inserted[3];
    gc_nv_fresh3(tv, fresh);
    gc_nv_feed(m, tv, fresh, 3, prim, inserted);
}

bool gc_nvidia_greedy_fits(const gc_model* target)
{
    /* a vertex's tag holds its slot in SLOT_BITS bits, as nvidia.c's */
    return target->family == GC_MODEL_NVIDIA && target->p[0] >= 3 && target->p[0] <= (1u << GC_NV_SLOT_BITS);
}

gc_status gc_opt_nvidia_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* target, uint64_t first_primitive, float beta, float gamma,
                               uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    if (!gc_nvidia_greedy_fits(target))
        return gc_fail(err, GC_ERR_USAGE, "auto: the nvidia greedy takes an nvidia target of 3 to 1024 entries");
    if (recent_limit > RECENT_MAX)
        recent_limit = RECENT_MAX;
    gc_live_triangles lists;
    gc_status s = gc_live_triangles_init(&lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    gc_nv_slots m = {NULL, NULL, NULL, vertex_count, target->p[0], target->p[1], target->p[2], 1, 0};
    m.tag = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    m.expires = gc_alloc_array(m.size, sizeof(uint32_t), true);
    m.life_end = gc_alloc_array(m.size, sizeof(uint32_t), true);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!m.tag || !m.expires || !m.life_end || !dead_end || !emitted) {
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
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        const uint32_t prim = (uint32_t)(first_primitive + step);
        int64_t best = -1;
        float best_score = 0.0f;
        for (uint32_t r = 0; r < recent_count; ++r) {
            const uint32_t v = recent[r];
            const uint32_t scan = live[v] < SCAN ? live[v] : SCAN;
            for (uint32_t a = first[v]; a < first[v] + scan; ++a) {
                const uint32_t tri = lists.adj.triangles[a];
                const uint32_t* tv = indices + 3 * (size_t)tri;
                float valence = 0.0f;
                const float age = 0.0f;
                for (int c = 0; c < 3; ++c) {
                    const uint32_t l = live[tv[c]];
                    valence += l < 64 ? boost[l] : 0.0f;
                }
                const uint32_t misses = nv_price(&m, tv, prim);
                const float score = (float)misses - beta * valence - gamma * age;
                if (best < 0 || score < best_score || (score == best_score && tri < (uint32_t)best)) {
                    best = tri;
                    best_score = score;
                }
            }
        }
        if (best < 0)
            best = gc_greedy_restart(&lists, dead_end, &dead_top, emitted, &input_cursor);
        const uint32_t tri = (uint32_t)best;
        const uint32_t* tv = indices + 3 * (size_t)tri;
        emitted[tri] = 1;
        nv_feed(&m, tv, prim);
        order[step] = tri;
        gc_live_triangles_remove(&lists, indices, tri);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        gc_recent_after(recent, &recent_count, recent_limit, tv, live);
    }
done:
    gc_live_triangles_free(&lists);
    free(m.tag);
    free(m.expires);
    free(m.life_end);
    free(dead_end);
    free(emitted);
    return s;
}
