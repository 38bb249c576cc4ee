// SPDX-License-Identifier: MIT
/* Warp refinement — gpucache's own improvement step for meshoptimizer's warp model, used by
 * `auto`.
 *
 * In meshopt:C,W,P with C >= W (NVIDIA Pascal's preset meshopt:32,32,32 among them) nothing
 * is evicted within a warp: a warp shades each of its distinct vertices once, and the
 * cost of an order is the sum over its warps of their distinct vertices. The order inside
 * a warp does not matter, only which triangles share one. So this step takes an order,
 * splits it into warps exactly as the model does, and swaps triangles between warps that
 * share vertices (a swap keeps every warp's triangle count, so the model's warp boundaries
 * mostly stay where they were; `auto` keeps the result only if the exact model agrees):
 *   - a swap is kept when it lowers the sum of distinct vertices, or leaves it and
 *     concentrates the warps' vertices (the sum over warps and vertices of the square of
 *     the vertex's corners in the warp goes up): such a swap moves a vertex's triangles
 *     together, so that a later swap can take the vertex out of a warp altogether;
 *   - no warp may hold more than W distinct vertices.
 * The pair (sum, -concentration) goes down with every swap, so the search ends. Each
 * warp is compared with at most REFINE_NEIGHBOURS later warps that its vertices' first
 * REFINE_SCAN triangles lie in, at most REFINE_ROUNDS swaps each per pass: linear time
 * per pass. (A Kernighan-Lin
 * style refinement of a partition; measured in docs/optimizers/auto.md.) */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define REFINE_SCAN 32   /* triangles of a vertex looked at for neighbouring warps */
#define REFINE_ROUNDS 8  /* swaps tried per pair of warps and pass */
#define REFINE_NEIGHBOURS 16 /* later warps compared with each warp, at most */
#define REFINE_TOUCHING 64   /* triangles of a warp that touch the other, looked at per round */
#define REFINE_MAX_WARP 65536 /* llvmpipe's segments: 341 triangles, 256 vertices */

typedef struct refine_state {
    const uint32_t* indices;
    uint32_t* order;     /* triangle ids; warp w is order[start[w] .. start[w + 1]) */
    uint32_t* position;  /* per triangle: its index in order */
    uint32_t* warp_of;   /* per position: its warp */
    uint32_t* count_a;   /* per vertex: corners in warp a (zero outside a pair's evaluation) */
    uint32_t* count_b;
} refine_state;

/* Adds (sign 1) or removes (sign -1) triangle t's corners; returns the change in distinct
 * vertices and adds the change in the sum of squared counts to *square. */
static int corners_update(uint32_t* count, const uint32_t* tv, int sign, int* square)
{
    int distinct = 0;
    for (int c = 0; c < 3; ++c) {
        uint32_t* n = &count[tv[c]];
        if (sign > 0) {
            *square += 2 * (int)*n + 1;
            distinct += (*n)++ == 0;
        } else {
            *square -= 2 * (int)*n - 1;
            distinct -= --(*n) == 0;
        }
    }
    return distinct;
}

static int warp_fill(refine_state* r, uint32_t* count, uint32_t begin, uint32_t end, int sign)
{
    int distinct = 0, square = 0;
    for (uint32_t i = begin; i < end; ++i)
        distinct += corners_update(count, r->indices + 3 * (size_t)r->order[i], sign, &square);
    return distinct;
}

/* Whether triangle tv has a corner in the warp counted by `count`. */
static bool touches(const uint32_t* count, const uint32_t* tv)
{
    return count[tv[0]] || count[tv[1]] || count[tv[2]];
}

/* Up to REFINE_ROUNDS swaps between warps a and b, each the best of all pairs of their
 * triangles that touch the other warp. Returns the swaps made. */
static unsigned refine_pair(refine_state* r, const uint32_t* start, uint32_t a, uint32_t b, uint32_t max_vertices)
{
    unsigned swaps = 0;
    const uint32_t* idx = r->indices;
    int distinct_a = warp_fill(r, r->count_a, start[a], start[a + 1], 1);
    int distinct_b = warp_fill(r, r->count_b, start[b], start[b + 1], 1);
    for (int round = 0; round < REFINE_ROUNDS; ++round) {
        int64_t best = 0;
        uint32_t best_i = 0, best_j = 0;
        int best_da = 0, best_db = 0;
        /* the triangles of each that touch the other, at most REFINE_TOUCHING: a pair of
         * segments around one hub (a fan) would otherwise cost the product of their sizes */
        uint32_t touching_a[REFINE_TOUCHING], touching_b[REFINE_TOUCHING], na = 0, nb = 0;
        for (uint32_t i = start[a]; i < start[a + 1] && na < REFINE_TOUCHING; ++i)
            if (touches(r->count_b, idx + 3 * (size_t)r->order[i]))
                touching_a[na++] = i;
        for (uint32_t j = start[b]; j < start[b + 1] && nb < REFINE_TOUCHING; ++j)
            if (touches(r->count_a, idx + 3 * (size_t)r->order[j]))
                touching_b[nb++] = j;
        for (uint32_t ia = 0; ia < na; ++ia) {
            const uint32_t i = touching_a[ia];
            const uint32_t* x = idx + 3 * (size_t)r->order[i];
            for (uint32_t ib = 0; ib < nb; ++ib) {
                const uint32_t j = touching_b[ib];
                const uint32_t* y = idx + 3 * (size_t)r->order[j];
                int square = 0;
                int da = corners_update(r->count_a, x, -1, &square) + corners_update(r->count_a, y, 1, &square);
                int db = corners_update(r->count_b, y, -1, &square) + corners_update(r->count_b, x, 1, &square);
                int undo = 0;
                corners_update(r->count_a, y, -1, &undo), corners_update(r->count_a, x, 1, &undo);
                corners_update(r->count_b, x, -1, &undo), corners_update(r->count_b, y, 1, &undo);
                if (da + db > 0 || distinct_a + da > (int)max_vertices || distinct_b + db > (int)max_vertices)
                    continue;
                /* fewer distinct vertices first, then more concentration */
                int64_t score = (int64_t)(da + db) * (1 << 20) - square;
                if (score < best) {
                    best = score;
                    best_i = i, best_j = j;
                    best_da = da, best_db = db;
                }
            }
        }
        if (best >= 0)
            break;
        int square = 0;
        const uint32_t x = r->order[best_i], y = r->order[best_j];
        corners_update(r->count_a, idx + 3 * (size_t)x, -1, &square);
        corners_update(r->count_a, idx + 3 * (size_t)y, 1, &square);
        corners_update(r->count_b, idx + 3 * (size_t)y, -1, &square);
        corners_update(r->count_b, idx + 3 * (size_t)x, 1, &square);
        r->order[best_i] = y, r->order[best_j] = x;
        r->position[y] = best_i, r->position[x] = best_j;
        distinct_a += best_da, distinct_b += best_db;
        swaps++;
    }
    warp_fill(r, r->count_a, start[a], start[a + 1], -1);
    warp_fill(r, r->count_b, start[b], start[b + 1], -1);
    return swaps;
}

/* Splits `order` into warps as meshopt:C,W,P with C >= W does: a new warp when the current
 * one holds P triangles or the triangle's uncached corners (each corner counted, as the
 * model counts them) would take it past W vertices; a vertex is cached when it is in the
 * current warp. Writes each position's warp to warp_of; returns the number of warps.
 * `stamp` (per vertex) must be zero. */
static uint32_t form_warps(const uint32_t* indices, const uint32_t* order, size_t triangle_count,
                           uint32_t max_vertices, uint32_t max_triangles, uint32_t* stamp, uint32_t* warp_of)
{
    uint32_t warps = 0, fill = 0, drawn = 0;
    for (size_t i = 0; i < triangle_count; ++i) {
        const uint32_t* tv = indices + 3 * (size_t)order[i];
        uint32_t misses = (stamp[tv[0]] != warps) + (stamp[tv[1]] != warps) + (stamp[tv[2]] != warps);
        if (warps == 0 || drawn == max_triangles || fill + misses > max_vertices) {
            warps++;
            fill = drawn = 0;
        }
        for (int c = 0; c < 3; ++c)
            if (stamp[tv[c]] != warps) {
                stamp[tv[c]] = warps;
                fill++;
            }
        drawn++;
        warp_of[i] = warps - 1;
    }
    return warps;
}

gc_status gc_opt_warp_refine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             uint32_t max_vertices, uint32_t max_triangles, unsigned passes, uint32_t* order,
                             gc_error* err)
{
    if (triangle_count == 0 || passes == 0)
        return GC_OK;
    if (max_vertices < 3 || max_triangles < 1 || max_vertices > REFINE_MAX_WARP || max_triangles > REFINE_MAX_WARP)
        return gc_fail(err, GC_ERR_USAGE, "warp refinement: warps of %u vertices and %u triangles are not supported",
                       max_vertices, max_triangles);
    gc_adjacency adj;
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    refine_state r = {indices, order, NULL, NULL, NULL, NULL};
    uint32_t* stamp = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    uint32_t *start = NULL, *seen_by = NULL, warps = 0;
    uint32_t neighbour[REFINE_NEIGHBOURS];
    r.position = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    r.warp_of = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    r.count_a = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    r.count_b = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    if (!stamp || !r.position || !r.warp_of || !r.count_a || !r.count_b) {
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    /* The warps, counted first so that the per-warp arrays are sized by them. */
    warps = form_warps(indices, order, triangle_count, max_vertices, max_triangles, stamp, r.warp_of);
    start = gc_alloc_array((size_t)warps + 1, sizeof(uint32_t), false);
    seen_by = gc_alloc_array(warps, sizeof(uint32_t), true); /* per warp: the last a + 1 */
    if (!start || !seen_by) {
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %u warps", warps);
        goto done;
    }
    for (size_t i = triangle_count; i-- > 0;) {
        start[r.warp_of[i]] = (uint32_t)i;
        r.position[order[i]] = (uint32_t)i;
    }
    start[warps] = (uint32_t)triangle_count;
    for (unsigned pass = 0; pass < passes; ++pass) {
        unsigned swaps = 0;
        for (uint32_t a = 0; a < warps; ++a) {
            /* the later warps that share a vertex with this one */
            size_t neighbours = 0;
            for (uint32_t i = start[a]; i < start[a + 1]; ++i) {
                const uint32_t* tv = indices + 3 * (size_t)order[i];
                for (int c = 0; c < 3; ++c) {
                    uint32_t first = adj.offsets[tv[c]], end = adj.offsets[tv[c] + 1];
                    if (end - first > REFINE_SCAN)
                        end = first + REFINE_SCAN;
                    for (uint32_t k = first; k < end && neighbours < REFINE_NEIGHBOURS; ++k) {
                        uint32_t b = r.warp_of[r.position[adj.triangles[k]]];
                        if (b > a && seen_by[b] != a + 1) {
                            seen_by[b] = a + 1;
                            neighbour[neighbours++] = b;
                        }
                    }
                }
            }
            for (size_t q = 0; q < neighbours; ++q)
                swaps += refine_pair(&r, start, a, neighbour[q], max_vertices);
        }
        if (swaps == 0)
            break;
    }
done:
    gc_adjacency_free(&adj);
    free(r.position);
    free(r.warp_of);
    free(r.count_a);
    free(r.count_b);
    free(start);
    free(stamp);
    free(seen_by);
    return s;
}
