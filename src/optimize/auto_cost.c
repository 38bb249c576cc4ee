// SPDX-License-Identifier: MIT
/* auto's count of an order under its targets (auto.c's candidates, the balance, the
 * overdraw pass's budget): the exact invocations, summed, and where the models count them
 * one target at a time, each target's, which the balance is told instead of counting the
 * winner and meshoptimizer's order again (auto_balance.c). */
#include "optimize.h"
#include "auto_warps.h"

#include <string.h>

/* Sum of the targets' exact invocations for an order (the triangle list `order`, scratch:
 * it may be renumbered): gc_analyze's fast loops for a list drawn alone, the state
 * machines fed at the list's place in its draw otherwise. each (NULL: not wanted): each
 * target's count, where the fast loops count them one by one (*each_known, else false). */
gc_status gc_auto_order_cost(uint32_t* order, size_t index_count, uint32_t vertex_count, const gc_model* targets,
                             size_t target_count, const gc_stream_place* place, uint64_t* cost, uint64_t* each,
                             bool* each_known, gc_error* err)
{
    if (each_known)
        *each_known = false;
    gc_draw d = {order, index_count, GC_TRIANGLE_LIST, 0, 0};
    *cost = 0;
    const uint32_t* values = NULL;
    if (place->numbering) {
        /* The numbering the output will have: first use, as gc_reorder_vertices gives. */
        uint32_t* number = place->numbering;
        for (uint32_t v = 0; v < vertex_count; ++v)
            number[v] = UINT32_MAX;
        uint32_t next = 0;
        for (size_t i = 0; i < index_count; ++i)
            if (number[order[i]] == UINT32_MAX)
                number[order[i]] = next++;
        for (uint32_t v = 0; v < vertex_count; ++v)
            if (number[v] == UINT32_MAX)
                number[v] = next++;
        values = number;
    }
    if (values && place->position == 0 && (place->length == 0 || place->length == index_count)) {
        /* a list drawn alone: the fast loops, on the list renumbered in place (it is scratch) */
        for (size_t i = 0; i < index_count; ++i)
            order[i] = values[order[i]];
        values = NULL;
    }
    if (values || place->position != 0 || (place->length != 0 && place->length != index_count)) {
        gc_target_sims t;
        gc_status s = gc_target_sims_init(&t, targets, target_count, vertex_count, index_count / 3, place, values, err);
        for (size_t i = 0; !s && i < index_count / 3; ++i) {
            gc_sim_primitive p = gc_target_sims_triangle(&t, order + 3 * i, i);
            *cost += gc_target_sims_feed(&t, &p);
        }
        gc_target_sims_free(&t);
        return s;
    }
    for (size_t i = 0; i < target_count; ++i) {
        uint64_t invocations = 0; /* gc_analyze's, without its pass over the indices where the model checks them */
        gc_status s = gc_analyze_invocations(&targets[i], &d, vertex_count, &invocations, err);
        if (s)
            return s;
        *cost += invocations;
        if (each)
            each[i] = invocations;
    }
    if (each_known)
        *each_known = each != NULL;
    return GC_OK;
}

/* Scores `candidate` with the exact emulators and makes it the order if it costs less;
 * each, each_known: as gc_auto_order_cost's (the candidate's, kept or not). */
gc_status gc_auto_keep_if_better(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const uint32_t* candidate, uint32_t* expanded, const gc_model* targets,
                                 size_t target_count, const gc_stream_place* place, uint64_t* best_cost,
                                 uint32_t* order, uint64_t* each, bool* each_known, gc_error* err)
{
    for (size_t t = 0; t < triangle_count; ++t)
        memcpy(expanded + 3 * t, indices + 3 * (size_t)candidate[t], 3 * sizeof *expanded);
    uint64_t cost = 0;
    gc_status s = gc_auto_order_cost(expanded, triangle_count * 3, vertex_count, targets, target_count, place, &cost,
                                     each, each_known, err);
    if (!s && cost < *best_cost) {
        *best_cost = cost;
        memcpy(order, candidate, triangle_count * sizeof *order);
    }
    return s;
}

/* (auto_warps.h) */
bool gc_auto_warp_set_targets(const gc_model* targets, size_t target_count)
{
    bool ok = true;
    gc_family_traits first;
    gc_model_traits(&targets[0], &first);
    for (size_t k = 0; k < target_count; ++k) {
        gc_family_traits t;
        gc_model_traits(&targets[k], &t);
        ok &= t.warp_sum && t.piece_vertices >= 3 && t.piece_vertices <= 256 && t.piece_triangles >= 1 &&
              t.piece_triangles <= 256 && t.piece_vertices == first.piece_vertices &&
              t.piece_triangles == first.piece_triangles;
    }
    return ok;
}

/* The swaps between warps (warp_refine.c) on a copy of the order, kept if better. */
gc_status gc_auto_refine_warps(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* targets, size_t target_count, const gc_stream_place* place,
                               unsigned passes, unsigned flags, unsigned threads, uint32_t* candidate,
                               uint32_t* expanded, uint64_t* best_cost, uint32_t* order, gc_error* err)
{
    memcpy(candidate, order, triangle_count * sizeof *order);
    gc_family_traits t;
    gc_model_traits(&targets[0], &t);
    gc_status s = gc_opt_warp_refine_threads(indices, triangle_count, vertex_count, t.piece_vertices,
                                             t.piece_triangles, passes, flags, threads, candidate, err);
    if (!s)
        s = gc_auto_keep_if_better(indices, triangle_count, vertex_count, candidate, expanded, targets, target_count,
                                   place, best_cost, order, NULL, NULL, err);
    return s;
}

/* The greedy's order for gc_opt_warp_refine_made (gc_opt_fifo_greedy_fed). */
typedef struct warp_greedy_maker {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    gc_fifo_machine machine;
    const float* weights;
} warp_greedy_maker;

static gc_status warp_greedy_make(void* user, uint32_t* order, gc_order_feed* feed, gc_error* err)
{
    const warp_greedy_maker* m = user;
    return gc_opt_fifo_greedy_fed(m->indices, m->triangle_count, m->vertex_count, &m->machine, m->weights[0],
                                  m->weights[1], (uint32_t)m->weights[2], order, feed, err);
}

gc_status gc_auto_warp_greedy_refined(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                      const gc_model* target, const gc_stream_place* place, const float weights[3],
                                      unsigned threads, uint32_t* candidate, uint32_t* expanded, uint64_t* best_cost,
                                      uint32_t* order, gc_error* err)
{
    warp_greedy_maker m = {indices, triangle_count, vertex_count, {0, 0, 0, false}, weights};
    gc_family_traits t;
    gc_model_traits(target, &t);
    if (!gc_fifo_machine_of(target, &m.machine))
        return gc_fail(err, GC_ERR_USAGE, "auto: '%s' has no FIFO machine", target->name);
    /* the greedy's order in `order` (the only candidate: it wins), the swapped one in `candidate` */
    gc_status s = gc_opt_warp_refine_made(indices, triangle_count, vertex_count, t.piece_vertices, t.piece_triangles, 3,
                                          threads, warp_greedy_make, &m, order, candidate, err);
    if (!s) {
        for (size_t i = 0; i < triangle_count; ++i)
            memcpy(expanded + 3 * i, indices + 3 * (size_t)order[i], 3 * sizeof *expanded);
        s = gc_auto_order_cost(expanded, 3 * triangle_count, vertex_count, target, 1, place, best_cost, NULL, NULL,
                               err);
    }
    if (!s)
        s = gc_auto_keep_if_better(indices, triangle_count, vertex_count, candidate, expanded, target, 1, place,
                                   best_cost, order, NULL, NULL, err);
    return s;
}
