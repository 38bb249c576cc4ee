// SPDX-License-Identifier: MIT
/* auto_balance — auto's balance against a reference order (issue 30): auto keeps the order
 * with the fewest invocations summed over its targets, which can leave one target above
 * meshoptimizer's own order while the sum is lower (a large FIFO such as intel's on small
 * meshes). Where the winner is above the reference on some target, this step looks for an
 * order strictly below it on every target at once (gc_opt_balance_auto):
 *
 * - the excess of an order is sum_k max(0, cost_k + 1 - reference_k): 0 when every target
 *   is strictly below the reference;
 * - a local search over block moves: a block of 1 to 16 consecutive triangles is taken out
 *   and put back elsewhere, either next to a triangle that shares a vertex with one of its
 *   ends, or (for a FIFO-like target of `fifo_entries`; three moves in four) across a re-miss
 *   of that FIFO: the block at the triangle whose corner was evicted since its previous use,
 *   moved to just after that use, or the block at the previous use moved to just before the
 *   re-miss (a large FIFO is the target that moves next to a neighbour seldom lower);
 * - a move is kept when the excess goes down, or stays and the sum goes down; each move is
 *   priced by the targets' exact models (the caller's cost function), the targets with an
 *   excess first, and dropped as soon as those alone exceed the current excess;
 * - it stops at excess 0 or when `work` target evaluations of a triangle each are spent.
 *
 * Moves are drawn from a fixed pseudo-random sequence: the same input gives the same order.
 * auto keeps the result only if it is below the reference on every target, and then holds
 * its overdraw pass to the reference less one (auto.c). */
#include "optimize.h"

#include "../models/fifo_rule.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 64

typedef struct balance_state {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    uint64_t rng;
    /* re-misses of the FIFO: the triangle at `at` reads a corner last used at `before` */
    uint32_t *remiss_at, *remiss_before, remiss_count;
    uint32_t *stamp, *last; /* per vertex: FIFO insertion stamp (fifo_rule.h), position of the last use */
} balance_state;

static uint32_t draw(balance_state* b, uint32_t bound)
{
    b->rng = b->rng * 6364136223846793005ull + 1442695040888963407ull;
    return bound ? (uint32_t)((b->rng >> 33) % bound) : 0;
}

static uint64_t excess_of(const uint64_t* cost, const uint64_t* reference, size_t k)
{
    return cost[k] + 1 > reference[k] ? cost[k] + 1 - reference[k] : 0;
}

/* The re-misses of a FIFO of `entries` (fifo_rule.h's) over the order. */
static void find_remisses(balance_state* b, const uint32_t* order, uint32_t entries)
{
    for (uint32_t v = 0; v < b->vertex_count; ++v)
        b->stamp[v] = 0, b->last[v] = UINT32_MAX;
    uint32_t clock = GC_FIFO_FIRST(entries), n = 0;
    for (size_t i = 0; i < b->triangle_count; ++i)
        for (int c = 0; c < 3; ++c) {
            uint32_t v = b->indices[3 * (size_t)order[i] + c];
            if (gc_fifo_access(&b->stamp[v], &clock, entries) && b->last[v] != UINT32_MAX && b->last[v] + 1 < i) {
                b->remiss_at[n] = (uint32_t)i;
                b->remiss_before[n] = b->last[v];
                n++;
            }
            b->last[v] = (uint32_t)i;
        }
    b->remiss_count = n;
}

/* order with the block [a, a + len) moved to just before position `to` (outside the block). */
static void move_block(const uint32_t* order, size_t n, size_t a, size_t len, size_t to, uint32_t* out)
{
    if (to < a) {
        memcpy(out, order, to * sizeof *out);
        memcpy(out + to, order + a, len * sizeof *out);
        memcpy(out + to + len, order + to, (a - to) * sizeof *out);
        memcpy(out + a + len, order + a + len, (n - a - len) * sizeof *out);
    } else {
        memcpy(out, order, a * sizeof *out);
        memcpy(out + a, order + a + len, (to - a - len) * sizeof *out);
        memcpy(out + to - len, order + a, len * sizeof *out);
        memcpy(out + to, order + to, (n - to) * sizeof *out);
    }
}

/* A move: false when the draw gave none. */
static bool propose(balance_state* b, const gc_adjacency* adj, const uint32_t* order, const uint32_t* where,
                    uint32_t fifo_entries, size_t* a_out, size_t* len_out, size_t* to_out)
{
    const size_t n = b->triangle_count;
    size_t len = (size_t)1 << draw(b, 5), a, to;
    if (len >= n)
        len = n - 1;
    if (fifo_entries && b->remiss_count && draw(b, 4) < 3) { /* three moves in four (measured: fewer tries) */
        const uint32_t e = draw(b, b->remiss_count);
        const size_t at = b->remiss_at[e], before = b->remiss_before[e];
        switch (draw(b, 4)) {
        case 0: /* the block from the re-miss, to after the previous use */
            a = at, len = a + len > n ? n - a : len, to = before + 1;
            break;
        case 1: /* the block ending at the re-miss, to after the previous use */
            a = at + 1 >= len ? at + 1 - len : 0, len = at + 1 - a, to = before + 1;
            break;
        case 2: /* the block from the previous use, to before the re-miss */
            a = before, len = a + len > at ? at - a : len, to = at;
            break;
        default: /* the block ending at the previous use, to before the re-miss */
            a = before + 1 >= len ? before + 1 - len : 0, len = before + 1 - a, to = at;
            break;
        }
    } else {
        a = draw(b, (uint32_t)(n - len + 1));
        const uint32_t t = order[draw(b, 2) ? a : a + len - 1];
        const uint32_t v = b->indices[3 * (size_t)t + draw(b, 3)];
        const uint32_t valence = adj->offsets[v + 1] - adj->offsets[v];
        to = where[adj->triangles[adj->offsets[v] + draw(b, valence)]] + draw(b, 2);
    }
    if (len == 0 || (to >= a && to <= a + len) || to > n)
        return false;
    *a_out = a, *len_out = len, *to_out = to;
    return true;
}

gc_status gc_opt_balance(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                         size_t target_count, const uint64_t* reference, uint32_t fifo_entries, uint64_t work,
                         gc_target_cost_fn cost, void* user, uint32_t* order, uint64_t* costs, gc_error* err)
{
    if (triangle_count < 3 || target_count == 0 || target_count > MAX_TARGETS)
        return GC_OK;
    uint64_t excess = 0, sum = 0;
    for (size_t k = 0; k < target_count; ++k)
        excess += excess_of(costs, reference, k), sum += costs[k];
    if (excess == 0)
        return GC_OK;
    balance_state b = {indices, triangle_count, vertex_count, 0x2545F4914F6CDD1Dull, NULL, NULL, 0, NULL, NULL};
    gc_adjacency adj;
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    uint32_t* next = gc_alloc_array(triangle_count, sizeof *next, false);
    uint32_t* where = gc_alloc_array(triangle_count, sizeof *where, false);
    b.remiss_at = gc_alloc_array(3 * triangle_count, sizeof *b.remiss_at, false);
    b.remiss_before = gc_alloc_array(3 * triangle_count, sizeof *b.remiss_before, false);
    b.stamp = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *b.stamp, false);
    b.last = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *b.last, false);
    if (!next || !where || !b.remiss_at || !b.remiss_before || !b.stamp || !b.last) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the balance of %zu triangles", triangle_count);
        goto done;
    }
    for (size_t i = 0; i < triangle_count; ++i)
        where[order[i]] = (uint32_t)i;
    if (fifo_entries)
        find_remisses(&b, order, fifo_entries);
    uint64_t spent = 0;
    size_t rank[MAX_TARGETS];
    uint64_t got[MAX_TARGETS];
    while (excess > 0 && spent < work && !s) {
        size_t a, len, to;
        if (!propose(&b, &adj, order, where, fifo_entries, &a, &len, &to)) {
            spent += 1; /* a draw that gave no move still counts, so that the loop ends */
            continue;
        }
        move_block(order, triangle_count, a, len, to, next);
        /* the targets with an excess first, the largest first */
        size_t ranked = 0;
        for (size_t k = 0; k < target_count; ++k)
            if (excess_of(costs, reference, k))
                rank[ranked++] = k;
        for (size_t i = 1; i < ranked; ++i)
            for (size_t j = i; j > 0 && excess_of(costs, reference, rank[j]) > excess_of(costs, reference, rank[j - 1]);
                 --j) {
                size_t x = rank[j];
                rank[j] = rank[j - 1], rank[j - 1] = x;
            }
        for (size_t k = 0; k < target_count; ++k)
            if (!excess_of(costs, reference, k))
                rank[ranked++] = k;
        uint64_t new_excess = 0, new_sum = 0;
        size_t i;
        for (i = 0; i < target_count && !s; ++i) {
            const size_t k = rank[i];
            s = cost(user, next, i == 0, k, &got[k], err);
            spent += triangle_count;
            new_excess += excess_of(got, reference, k);
            new_sum += got[k];
            if (new_excess > excess)
                break;
        }
        if (s || i < target_count || new_excess > excess || (new_excess == excess && new_sum >= sum))
            continue;
        memcpy(order, next, triangle_count * sizeof *order);
        memcpy(costs, got, target_count * sizeof *costs);
        excess = new_excess, sum = new_sum;
        for (size_t t = 0; t < triangle_count; ++t)
            where[order[t]] = (uint32_t)t;
        if (fifo_entries)
            find_remisses(&b, order, fifo_entries);
    }
done:
    free(next), free(where), free(b.remiss_at), free(b.remiss_before), free(b.stamp), free(b.last);
    gc_adjacency_free(&adj);
    return s;
}

/* Each target's invocations for an order. */
static gc_status all_costs(gc_target_cost_fn cost, void* user, const uint32_t* order, size_t target_count,
                           uint64_t* out, gc_error* err)
{
    gc_status s = GC_OK;
    for (size_t k = 0; k < target_count && !s; ++k)
        s = cost(user, order, k == 0, k, &out[k], err);
    return s;
}

/* The balance's work: at most 2^21 target evaluations of a triangle (10 to 30 ms on this
 * project's machine), run where that gives at least 64 evaluations of every target (4
 * targets: up to 8,192 triangles; fandisk's 12,946 got 45 and never reached the reference). */
#define BALANCE_WORK ((uint64_t)1 << 21)

bool gc_balance_fits(size_t triangle_count, size_t target_count)
{
    return (uint64_t)triangle_count * target_count * 64 <= BALANCE_WORK;
}

gc_status gc_opt_balance_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_family_traits* traits, size_t target_count, const uint32_t* reference,
                              gc_target_cost_fn cost, void* user, uint32_t* order, uint32_t* winner, uint64_t* cap,
                              bool* balanced, gc_error* err)
{
    return gc_opt_balance_auto_known(indices, triangle_count, vertex_count, traits, target_count, reference, NULL,
                                     NULL, cost, user, order, winner, cap, balanced, err);
}

gc_status gc_opt_balance_auto_known(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_family_traits* traits, size_t target_count, const uint32_t* reference,
                                    const uint64_t* reference_costs, const uint64_t* winner_costs,
                                    gc_target_cost_fn cost, void* user, uint32_t* order, uint32_t* winner,
                                    uint64_t* cap, bool* balanced, gc_error* err)
{
    *balanced = false;
    memcpy(winner, order, triangle_count * sizeof *order);
    if (target_count == 0 || target_count > MAX_TARGETS)
        return GC_OK;
    /* the re-misses of the largest FIFO-like target propose moves */
    uint32_t fifo_entries = 0;
    for (size_t k = 0; k < target_count; ++k)
        if (traits[k].fifo_like && traits[k].order_cache > fifo_entries)
            fifo_entries = traits[k].order_cache;
    const uint64_t work = BALANCE_WORK;
    uint64_t ref[MAX_TARGETS], got[3][MAX_TARGETS];
    gc_status s = GC_OK;
    if (reference_costs)
        memcpy(ref, reference_costs, target_count * sizeof *ref);
    else
        s = all_costs(cost, user, reference, target_count, ref, err);
    if (!s && winner_costs)
        memcpy(got[0], winner_costs, target_count * sizeof *got[0]);
    else if (!s)
        s = all_costs(cost, user, order, target_count, got[0], err);
    /* Searched only where the winner is above the reference on some target: where it is
     * level with it everywhere (the reference itself won), auto does not lose to it, and the
     * search from there never reached it on the corpus (teapot, spot, cow: 12 ms each). */
    uint64_t excess[3] = {0, 0, 0}, sum[3] = {0, 0, 0};
    bool above = false;
    for (size_t k = 0; k < target_count && !s; ++k)
        excess[0] += excess_of(got[0], ref, k), above |= got[0][k] > ref[k];
    if (s || !above)
        return s;
    /* The starts: the winner, meshoptimizer's order, and meshoptimizer's variant of Forsyth's
     * algorithm with auto's tuned table; the one with the least excess (then sum) is searched,
     * on a copy: `order` changes only if the search's result beats the reference. */
    uint32_t* start[3] = {gc_alloc_array(triangle_count, sizeof(uint32_t), false),
                          gc_alloc_array(triangle_count, sizeof(uint32_t), false),
                          gc_alloc_array(triangle_count, sizeof(uint32_t), false)};
    if (!start[0] || !start[1] || !start[2]) {
        free(start[0]), free(start[1]), free(start[2]);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the balance of %zu triangles", triangle_count);
    }
    memcpy(start[0], order, triangle_count * sizeof *order);
    memcpy(start[1], reference, triangle_count * sizeof *order);
    memcpy(got[1], ref, target_count * sizeof *ref);
    size_t starts = 3;
    s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, start[2], err);
    if (s == GC_ERR_LIMIT) /* a hub: no third start */
        s = GC_OK, starts = 2;
    else if (!s)
        s = all_costs(cost, user, start[2], target_count, got[2], err);
    size_t pick = 0;
    for (size_t i = 0; i < starts && !s; ++i) {
        for (size_t k = 0; k < target_count; ++k)
            excess[i] += i ? excess_of(got[i], ref, k) : 0, sum[i] += got[i][k];
        if (i && (excess[i] < excess[pick] || (excess[i] == excess[pick] && sum[i] < sum[pick])))
            pick = i;
    }
    if (!s && excess[pick])
        s = gc_opt_balance(indices, triangle_count, vertex_count, target_count, ref, fifo_entries, work, cost, user,
                           start[pick], got[pick], err);
    bool beats = !s;
    for (size_t k = 0; k < target_count && beats; ++k)
        beats = got[pick][k] < ref[k];
    if (beats) {
        memcpy(order, start[pick], triangle_count * sizeof *order);
        for (size_t k = 0; k < target_count; ++k)
            cap[k] = ref[k] - 1;
        *balanced = true;
    }
    free(start[0]), free(start[1]), free(start[2]);
    return s;
}
