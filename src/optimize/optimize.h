// SPDX-License-Identifier: MIT
/* Internal interface of the optimizers (src/optimize/): the adjacency and live-triangle
 * helpers every optimizer uses (adjacency.c) and one entry point per optimizer, called by
 * the dispatcher (optimize.c). Not installed. */
#ifndef GPUCACHE_OPTIMIZE_H
#define GPUCACHE_OPTIMIZE_H

#include "../internal.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

/* Vertex -> triangle adjacency of a triangle list (CSR): the triangles of vertex v are
 * triangles[offsets[v] .. offsets[v+1]), one entry per corner (a degenerate triangle
 * appears twice in its repeated vertex's list). */
typedef struct gc_adjacency {
    uint32_t* offsets;   /* vertex_count + 1 */
    uint32_t* triangles; /* 3 * triangle count */
} gc_adjacency;

gc_status gc_adjacency_build(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             gc_adjacency* out, gc_error* err);
void gc_adjacency_free(gc_adjacency* a);
/* gc_adjacency_build's lists into the caller's arrays: offsets (vertex_count + 1, zeroed)
 * and triangles (3 * triangle_count). */
void gc_adjacency_fill(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t* offsets,
                       uint32_t* triangles);

/* Each vertex's remaining (not yet emitted) triangles, kept compact: those of v are
 * adj.triangles[adj.offsets[v] .. adj.offsets[v] + live[v]). An emitted triangle leaves
 * its vertices' lists in O(1) through a back-pointer per corner, whatever the valence. */
typedef struct gc_live_triangles {
    gc_adjacency adj;
    uint32_t* live; /* per vertex: remaining triangles (corners) */
    uint32_t* slot; /* per corner: its entry in its vertex's list, UINT32_MAX once removed */
} gc_live_triangles;

gc_status gc_live_triangles_init(gc_live_triangles* lt, const uint32_t* indices, size_t triangle_count,
                                 uint32_t vertex_count, gc_error* err);
/* gc_live_triangles_init, or, where every vertex has at most `light_valence` triangles (and,
 * with `distinct`, no triangle repeats a vertex), the light form without slots (*light true):
 * its user removes a triangle by a search of each corner's list, a few entries in a row,
 * instead of the slots' upkeep, which reads a scattered triangle per corner. */
gc_status gc_live_triangles_init_light(gc_live_triangles* lt, const uint32_t* indices, size_t triangle_count,
                                       uint32_t vertex_count, uint32_t light_valence, bool distinct, bool* light,
                                       gc_error* err);
/* Removes triangle t (its three corners) from its vertices' lists. */
void gc_live_triangles_remove(gc_live_triangles* lt, const uint32_t* indices, uint32_t t);
void gc_live_triangles_free(gc_live_triangles* lt);
/* Removes triangle tri from its corners' lists: in the light form (gc_live_triangles_init_light,
 * *light true) by a search of each list, the list's last entry moved into the hole; else
 * through the slots (gc_live_triangles_remove). Inline: the greedies call it every step. */
static inline void gc_live_triangles_drop(gc_live_triangles* lt, bool light, const uint32_t* indices, uint32_t tri)
{
    if (!light) {
        gc_live_triangles_remove(lt, indices, tri);
        return;
    }
    const uint32_t* tv = indices + 3 * (size_t)tri;
    for (int c = 0; c < 3; ++c) {
        uint32_t* list = lt->adj.triangles + lt->adj.offsets[tv[c]];
        uint32_t last = --lt->live[tv[c]], k = 0;
        while (list[k] != tri)
            ++k;
        list[k] = list[last];
    }
}

/* The optimizers, one file each. Each writes the triangle ids in their new order to
 * `order` (triangle_count entries); gc_optimize validates, dispatches, checks that the
 * ids are a permutation and writes the triangles out. Tipsify and Forsyth also write each
 * triangle's indices to `out` (when not NULL) as they emit it: the indices are at hand
 * then, and reading them again in a second pass, in the new order, costs a cache miss per
 * triangle on a large mesh. */
gc_status gc_opt_tipsify(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, uint32_t* out, gc_error* err);
gc_status gc_opt_forsyth(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, uint32_t* out, gc_error* err);

/* Forsyth's algorithm with any score tables: a vertex at position p of the modelled LRU
 * cache (cache_size entries) scores position[p] (0 outside it), plus live[min(n,
 * live_count - 1)] for n remaining triangles (live[0] is not used: a vertex with no
 * triangles left scores -1). gc_opt_forsyth fills them with Forsyth's published curves;
 * auto also runs a table tuned on the vertex cache models (auto.c). */
#define GC_FORSYTH_MAX_CACHE 256
#define GC_FORSYTH_MAX_LIVE 64
typedef struct gc_forsyth_scores {
    uint32_t cache_size, live_count;
    float position[GC_FORSYTH_MAX_CACHE];
    float live[GC_FORSYTH_MAX_LIVE];
} gc_forsyth_scores;
/* The Forsyth table for a lone target (auto_fast.c): the one its traits give (its family's
 * own, tuned for that model: gc_family_traits.order_scores), copied into *own, else auto's
 * tuned table (gc_auto_tuned_scores). */
const gc_forsyth_scores* gc_family_forsyth_scores(const gc_family_traits* t, gc_forsyth_scores* own);
gc_status gc_opt_forsyth_scored(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, uint32_t* order, uint32_t* out, gc_error* err);
/* GC_OK for a table Forsyth's orders can run (1 to GC_FORSYTH_MAX_CACHE positions, 2 to
 * GC_FORSYTH_MAX_LIVE live counts; forsyth.c, forsyth_flush.c), else GC_ERR_USAGE. */
static inline gc_status gc_forsyth_scores_check(const gc_forsyth_scores* scores, gc_error* err)
{
    if (scores->cache_size < 1 || scores->cache_size > GC_FORSYTH_MAX_CACHE || scores->live_count < 2 ||
        scores->live_count > GC_FORSYTH_MAX_LIVE)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: bad score tables");
    return GC_OK;
}
/* Forsyth's first triangle (forsyth.c, forsyth_flush.c): the highest sum of its corners'
 * scores in vscore, the first of equals; -1 when none sums above -1. */
static inline int64_t gc_forsyth_first(const uint32_t* indices, size_t triangle_count, const float* vscore)
{
    int64_t best = -1;
    float best_score = -1.0f;
    for (size_t t = 0; t < triangle_count; ++t) {
        float sc = vscore[indices[3 * t]] + vscore[indices[3 * t + 1]] + vscore[indices[3 * t + 2]];
        if (sc > best_score) {
            best_score = sc;
            best = (int64_t)t;
        }
    }
    return best;
}
#include "forsyth_flush.h" /* the flushed orders' rules and functions */
/* Whether nv-gl's pages (page=P, the H100) can change in a list of vertex_count vertices:
 * its values reach past page 0. Else the target is plain nv-gl there. */
static inline bool gc_nv_pages_change(const gc_model* target, uint32_t vertex_count)
{
    return target->family == GC_MODEL_NV_GL && target->p[3] && vertex_count > 0 &&
           ((vertex_count - 1) >> target->p[3]) != 0;
}

/* meshoptimizer's variant (score_table.c) likewise; GC_ERR_LIMIT as there. */
gc_status gc_opt_score_table_nvidia(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_forsyth_scores* table, const gc_model* target, uint64_t first_primitive,
                                    uint32_t* order, gc_error* err);
/* meshoptimizer's variant (score_table.c) told of seed 004's batches (a batch target,
 * batch:slots=S,prims=P, S >= 3): a vertex the open batch holds scores `bonus` more; the
 * batches follow the rule from the list's first triangle (a batch of its own, as
 * gc_batch_order_cost counts them), and *invocations (NULL: not wanted) the order's under the
 * rule, as gc_batch_order_cost counts them. GC_ERR_LIMIT as gc_opt_score_table. */
gc_status gc_opt_score_table_batch(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                   const gc_forsyth_scores* table, const gc_model* target, float bonus,
                                   uint32_t* order, uint64_t* invocations, gc_error* err);

/* Warp refinement (warp_refine.c), for meshopt:C,W,P with C >= W: splits `order` into
 * the model's warps (at most max_vertices vertices and max_triangles triangles each) and
 * swaps triangles between warps that share vertices while the sum of the warps' distinct
 * vertices goes down (or stays and their vertices get more concentrated), at most
 * `passes` passes. Used by auto. */
gc_status gc_opt_warp_refine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             uint32_t max_vertices, uint32_t max_triangles, unsigned passes, uint32_t* order,
                             gc_error* err);
/* The same with flags: GC_WARP_REFINE_CHANGED, after the first pass only the warps that a
 * swap changed in the pass before (or in this one) are compared with their neighbours;
 * GC_WARP_REFINE_KEEP, the input is given back unless the model's warps of the result have
 * fewer distinct vertices in all (the model's invocations, for C >= W); GC_WARP_REFINE_NEXT(k),
 * each warp is compared with the next k (1 to 16) in the order instead of the warps that share
 * its vertices (no adjacency: on the corpus about 0.4 of a pass's time, the same gain). */
#define GC_WARP_REFINE_CHANGED 1u
#define GC_WARP_REFINE_KEEP 2u
#define GC_WARP_REFINE_NEXT(k) ((unsigned)(k) << 8)
gc_status gc_opt_warp_refine_ex(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                uint32_t max_vertices, uint32_t max_triangles, unsigned passes, unsigned flags,
                                uint32_t* order, gc_error* err);
/* gc_opt_warp_refine_ex with `threads`: two passes with GC_WARP_REFINE_NEXT(k), k >= 2, on
 * two threads, the second a few warps behind the first (the same order for every count). */
gc_status gc_opt_warp_refine_threads(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     uint32_t max_vertices, uint32_t max_triangles, unsigned passes, unsigned flags,
                                     unsigned threads, uint32_t* order, gc_error* err);
/* auto's --effort 1 order for meshopt:C,W,P with C >= W (warp_refine.c): meshoptimizer's
 * table order, then one pass of swaps between each warp and the next (kept if better). */
gc_status gc_opt_warp_fast(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           uint32_t max_vertices, uint32_t max_triangles, uint32_t* order, gc_error* err);
/* Patches (patches.c): cuts the list into consecutive pieces of at most patch_triangles
 * triangles (0: no limit; the first piece first_patch, 0: the same) and patch_vertices
 * distinct vertices (0: no limit), each grown as a compact patch of the surface. */
#define GC_PATCH_SEED_LAST 1u /* seed from the previous patch's last vertex with triangles left,
                                 not the one with the fewest */
#define GC_PATCH_NEWEST 2u    /* among vertices that close as many triangles, the newest, not the oldest */
gc_status gc_opt_patches(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                         uint32_t patch_triangles, uint32_t first_patch, uint32_t patch_vertices, unsigned style,
                         uint32_t* order, gc_error* err);
/* Reorders within each piece of `order` (pieces as gc_opt_patches cuts them) so that the
 * triangles using vertices of earlier pieces come first (patches.c). */
gc_status gc_opt_earlier_first(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               uint32_t piece_triangles, uint32_t first_piece, uint32_t* order, gc_error* err);
/* For a value-keyed table cleared every piece (llvmpipe's index % map), with vertices
 * numbered in order of first use: reorders within each piece, piece after piece, choosing
 * among a few orders the one with the fewest misses (patches.c). */
gc_status gc_opt_value_keyed_pieces(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    uint32_t piece_triangles, uint32_t first_piece, uint32_t map, uint32_t* order,
                                    gc_error* err);
/* meshoptimizer's variant of Forsyth's algorithm with a table of 16 cache positions
 * (score_table.c); GC_ERR_LIMIT when a vertex has more than SCORE_TABLE_MAX_VALENCE
 * triangles, as its time grows with the valences. */
#define SCORE_TABLE_MAX_VALENCE 256
gc_status gc_opt_score_table(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_forsyth_scores* table, uint32_t* order, gc_error* err);
/* An order published as it is made, for a pass that reads its prefix on another thread
 * (direct_position_pipe.c): `written` (release) the triangles written so far, every
 * GC_ORDER_FEED_STEP and at the end; `ended` 1 once the maker has returned (written is then
 * final: short of the count when it failed). Zero-initialise. */
#define GC_ORDER_FEED_STEP 256
typedef struct gc_order_feed {
    atomic_size_t written;
    atomic_int ended;
} gc_order_feed;
/* How much of a fed order there is to read: `need` triangles or more, else all the maker
 * wrote once it ended (short of `need` after a failure); waits (yielding) until one holds. */
static inline size_t gc_order_feed_wait(const gc_order_feed* feed, size_t need)
{
    for (;;) {
        const size_t w = atomic_load_explicit(&feed->written, memory_order_acquire);
        if (w >= need)
            return w;
        if (atomic_load_explicit(&feed->ended, memory_order_acquire))
            return atomic_load_explicit(&feed->written, memory_order_acquire);
        sched_yield();
    }
}
/* gc_opt_score_table with the order published to `feed` as it is made (the same order). */
gc_status gc_opt_score_table_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_forsyth_scores* table, uint32_t* order, gc_order_feed* feed, gc_error* err);
/* A pass after an order for a lone direct-position:N target (direct_position_window.c): each
 * step places the cheapest under the target's rule of the next `window` (2 to
 * GC_DP_WINDOW_MAX) triangles of `order` not placed yet, first_position being the list's
 * first index's position in the stream; `order` is replaced (*changed) only when the result
 * costs strictly fewer invocations; counts (NULL: not wanted): the input order's invocations and
 * the new one's, when the pass ran (window >= 2, at least 2 triangles; otherwise untouched). */
#define GC_DP_WINDOW_MAX 32
gc_status gc_opt_direct_position_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                        uint32_t slots, uint64_t first_position, uint32_t window, uint32_t* order,
                                        bool* changed, uint64_t* counts, gc_error* err);
/* The pass's result left to the caller (gc_opt_direct_position_window_fed): the new order
 * in `out` (the caller's, triangle_count entries) and its invocations in cost_out, made
 * true when the pass ran; the input order is then not simulated (gc_dp_order_cost), nor
 * replaced. */
typedef struct gc_dp_split {
    uint32_t* out;
    uint64_t cost_out;
    bool made;
} gc_dp_split;
/* The same pass reading `order` as `feed` publishes it (NULL: all there); when the maker
 * ends short of the count, *aborted and nothing is changed (GC_OK); split: NULL, or the
 * result left to the caller. */
gc_status gc_opt_direct_position_window_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                            uint32_t slots, uint64_t first_position, uint32_t window,
                                            uint32_t* order, const gc_order_feed* feed, bool* aborted,
                                            gc_dp_split* split, gc_error* err);
/* The invocations of `order` under direct-position:slots from first_position, the slots
 * empty (the pass's count of its input order). */
gc_status gc_dp_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                           uint64_t first_position, const uint32_t* order, uint64_t* cost, gc_error* err);
/* meshoptimizer's table order (gc_opt_score_table with gc_meshopt_scores) then the pass
 * above over it, with 2 threads or more the pass on a second thread reading the order's
 * prefix as it is made (direct_position_pipe.c): the same order for every thread count;
 * GC_ERR_LIMIT as gc_opt_score_table's (order then undefined). */
gc_status gc_opt_direct_position_table_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                              uint32_t slots, uint64_t first_position, uint32_t window,
                                              unsigned threads, uint32_t* order, gc_error* err);
/* The invocations of `order` under batch:slots,prims (batch_order_cost.c, the step of
 * src/models/batch_rule.h; the slots empty at the start, no state changes), slots >= 3. */
gc_status gc_batch_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                              uint32_t prims, const uint32_t* order, uint64_t* cost, gc_error* err);
/* auto (auto.c); `scratch` holds 3 * triangle_count indices (the caller's output buffer,
 * written after), for the candidate orders it scores. */
/* The greedy optimizers' priority queue (triangle_heap.c): a max-heap of triangle numbers
 * on (score[t], then the lower number), `where[t]` each one's place (UINT32_MAX once
 * removed). The caller owns the arrays (score and where of one entry per triangle, heap of
 * as many), sets a triangle's score before pushing it, and changes it only through
 * rescore. O(log n) each; the best is heap[0] while size > 0. */
typedef struct gc_triangle_heap {
    int32_t* score;
    uint32_t* heap;
    uint32_t* where;
    size_t size;
} gc_triangle_heap;
void gc_triangle_heap_push(gc_triangle_heap* h, uint32_t t);
/* Adds delta to a triangle's score; nothing for a removed triangle or a zero delta. */
void gc_triangle_heap_rescore(gc_triangle_heap* h, uint32_t t, int32_t delta);
void gc_triangle_heap_remove(gc_triangle_heap* h, uint32_t t);

/* gbatch's scores (Kerbl et al. 2018): per cached vertex, per remaining valence, per unit of
 * accumulated distance. */
typedef struct gc_batch_greedy_weights {
    int32_t cache, valence, distance;
} gc_batch_greedy_weights;
/* Batch greedy (batch_greedy.c): Kerbl et al.'s gbatch driven by `target`'s state machine;
 * writes a triangle order. `first_number`: the list's first triangle's number in the draw;
 * `stream_length`: the draw's indices (0: the list alone). GC_ERR_LIMIT for a vertex of more
 * than 64 triangles or batches of more than 256 vertices or 2048 indices (its cost would not
 * be linear); GC_ERR_USAGE for a target of another family. */
gc_status gc_opt_batch_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, const gc_batch_greedy_weights* weights, uint64_t first_number,
                              uint64_t stream_length, uint32_t* order, gc_error* err);
/* The same, always driven by the target's gc_sim machine (gc_opt_batch_greedy runs
 * gc_opt_batch_greedy_kerbl for nv-dx and nv-gl: the same orders). */
gc_status gc_opt_batch_greedy_sim(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  const gc_model* target, const gc_batch_greedy_weights* weights, uint64_t first_number,
                                  uint64_t stream_length, uint32_t* order, gc_error* err);
/* The batch greedy for nv-dx and nv-gl (batch_greedy_kerbl.c) with their machine written into
 * the loop: the same orders as gc_opt_batch_greedy_sim, faster. *invocations (if not NULL):
 * the order's invocations under the target, a list drawn alone (gc_analyze's count). The same
 * limits; GC_ERR_USAGE for a target of another family. */
gc_status gc_opt_batch_greedy_kerbl(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_model* target, const gc_batch_greedy_weights* weights, uint32_t* order,
                                    uint64_t* invocations, gc_error* err);
/* gc_opt_forsyth_flush's order for nv-dx or nv-gl target `target` (its rule from
 * gc_flush_batch_rule_of), with its invocations under the target counted as it is emitted
 * (gc_kerbl_order_cost's count, without a pass of its own). GC_ERR_USAGE for another family. */
gc_status gc_opt_forsyth_flush_kerbl(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                     const gc_model* target, uint32_t* order, uint64_t* invocations, gc_error* err);
/* The invocations of the triangles indices[3 * order[t]..] (order NULL: as they are) under
 * nv-dx or nv-gl, a list drawn alone: gc_analyze's count, without a gc_sim. */
gc_status gc_kerbl_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, const uint32_t* order, uint64_t* invocations, gc_error* err);
/* The overdraw half of Tipsify (overdraw_sort.c): cuts `order` into clusters at flushes of
 * a FIFO of cache_size entries (0: 16) and where a cluster's ACMR from a cold cache drops
 * below lambda (0: flushes only) or to at most `relative` times the ACMR of the flush-bounded
 * cluster it lies in (0: not), merges neighbouring clusters whose potentials differ by at most
 * `merge` times the largest potential (0: none), and rewrites `order` with the clusters sorted by
 * decreasing occlusion potential (stable). positions: x, y, z of each vertex, stride bytes
 * apart (0: 12). */
gc_status gc_opt_overdraw_sort(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const float* positions, size_t position_stride, uint32_t cache_size, double lambda,
                               double relative, double merge, uint32_t* order, gc_error* err);
/* A triangle order's invocations under each target (auto.c's order_cost), one per target,
 * for the overdraw budget. */
typedef gc_status (*gc_order_costs_fn)(void* user, const uint32_t* order, uint64_t* costs, gc_error* err);
/* The clusters gc_opt_overdraw_sort cuts from `order` (relative as there; no merge, no sort):
 * cluster c is order[ends[c - 1] .. ends[c]) (from 0 for c = 0); ends holds triangle_count
 * entries (overdraw_sort.c). flush_acmr: gc_opt_overdraw_flush_acmr of the same order, or
 * NULL to compute it here (the same for every rung: a pass over several rungs gives it once). */
gc_status gc_opt_overdraw_clusters(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                   uint32_t cache_size, double relative, const float* flush_acmr,
                                   const uint32_t* order, uint32_t* ends, size_t* count, gc_error* err);
/* The ACMR of the flush-bounded cluster at each position of `order` (triangle_count floats). */
gc_status gc_opt_overdraw_flush_acmr(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     uint32_t cache_size, const uint32_t* order, float* acmr, gc_error* err);
/* Occlusion (overdraw_graph.c): for each pixel of overdraw's six views (docs/models/overdraw.md)
 * on a grid of `resolution` (0: 256) over the box's longest side, the nearest triangle and each
 * triangle behind it there, as pairs (front[i], back[i]) counted weight[i] pixels (a pair may
 * repeat). GC_ERR_LIMIT beyond 2^24 fragments plus 64 a triangle. */
typedef struct gc_occlusion {
    uint32_t *front, *back, *weight;
    size_t count, capacity;
} gc_occlusion;
gc_status gc_occlusion_pairs(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const float* positions, size_t position_stride, uint32_t resolution, gc_occlusion* out,
                             gc_error* err);
void gc_occlusion_free(gc_occlusion* o);
/* Rewrites `order`, cut into clusters at `ends`, with each cluster drawn after the clusters
 * that hide it by at least min_weight pixels net (the pairs), the earliest ready cluster first,
 * cycles broken at the cluster with the least weight left in front of it; `reverse`: built from
 * the end instead, the latest cluster whose occludees are all placed last, so that occluders
 * move forward rather than the clusters they hide back (overdraw_graph.c). */
gc_status gc_opt_occlusion_order(size_t triangle_count, const gc_occlusion* pairs, const uint32_t* ends,
                                 size_t cluster_count, uint32_t min_weight, bool reverse, uint32_t* order,
                                 gc_error* err);
/* auto's overdraw budget (overdraw_graph.c): `order` replaced by the finest clustering of it
 * (gc_opt_overdraw_clusters at s = 1, 0.5, 0.25, 0.1, 0.03, then the flushes; a bisection),
 * ordered by gc_opt_occlusion_order, under which each of the target_count targets'
 * invocations (costs() writes them) stays at most threshold times its own in `order`; at that
 * rung, the reversed construction too, kept if it fits and breaks fewer occlusion pairs
 * (pixels); then the next coarser rung in each direction, kept if it fits and breaks fewer
 * pairs and fetches fewer bytes (meshoptimizer's fetch model, 32-byte vertices numbered by
 * first use); first_use (the output's vertices will be numbered by first use): then the rung
 * half way toward the coarser one, each direction, kept if it fits and fetches fewer bytes
 * while breaking at most 1/20 more pairs. Left as it is when no rung fits. candidate:
 * triangle_count entries of scratch. */
/* The occlusion pairs the budget below uses (at resolution 256), computed ahead (auto runs it on
 * a thread beside its candidates, and once for both of its passes): gc_occlusion_pairs' status
 * and message kept; the caller frees `pairs` (gc_occlusion_free). */
typedef struct gc_occlusion_ahead {
    gc_occlusion pairs;
    gc_status status;
    gc_error err;
} gc_occlusion_ahead;
void gc_occlusion_ahead_run(gc_occlusion_ahead* a, const uint32_t* indices, size_t triangle_count,
                            uint32_t vertex_count, const float* positions, size_t position_stride);
/* (ahead: the pairs computed before for these triangles and positions, NULL: computed here) */
gc_status gc_opt_overdraw_budget_occlusion(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                           const float* positions, size_t position_stride, uint32_t cache_size,
                                           double threshold, size_t target_count, gc_order_costs_fn costs, void* user,
                                           bool first_use, const gc_occlusion_ahead* ahead, uint32_t* order,
                                           uint32_t* candidate, gc_error* err);
/* Jobs 0 .. jobs - 1 shared among `threads` workers, the calling thread worker 0 (parallel.c):
 * fn(user, job, worker, &units, err) for each, each worker meeting its jobs in increasing
 * order; report(user, units done so far), if not NULL, on the calling thread after each of
 * its jobs. The lowest failing job's status and message. */
#define GC_MAX_THREADS 64
typedef gc_status (*gc_job_fn)(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err);
typedef void (*gc_units_fn)(void* user, uint64_t units);
gc_status gc_parallel_run(unsigned threads, size_t jobs, gc_job_fn fn, void* user, gc_units_fn report,
                          gc_error* err);
/* auto's score tables (score_table.c): tuned on the vertex cache models for Forsyth's
 * algorithm, and meshoptimizer 0.18's for gc_opt_score_table. */
extern const gc_forsyth_scores gc_auto_tuned_scores, gc_meshopt_scores;
/* auto's tuned table tuned again for gc_opt_score_table_batch (seed 004's batches). */
extern const gc_forsyth_scores gc_batch_told_scores;
/* Whether at least 95% of the used vertices have exactly 6 corners: a regular grid almost
 * everywhere, as a finely subdivided surface (auto_regular.c); false when out of memory. */
bool gc_mesh_regular(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count);
/* gc_mesh_regular, or a triangulated grid with its borders (auto_regular.c:
 * from 4,096 triangles, at least 90% of the used vertices with 6 or 3 corners, fewer than 2%
 * with 4 or 8), in one pass; false when out of memory. */
bool gc_mesh_regular_or_grid(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count);
/* auto at --effort 1 (auto_fast.c): one order per target family, no candidates scored. */
gc_status gc_opt_auto_fast(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* targets, size_t target_count, const gc_optimize_options* options,
                           uint32_t* order, gc_error* err);
/* auto's "do no harm" (auto_noharm.c): at --effort 1 for several targets below 65,536
 * triangles and for most lone targets below 16,384, and at every effort on a grid (a regular
 * mesh or a grid with its borders) below 2^22 triangles, meshoptimizer's table order made
 * `order` where it costs less under the targets at the list's place (`expanded`: scratch of
 * 3 x triangle_count). Where it applies: one more order and two counts (about once
 * meshoptimizer's time) and 4 bytes a triangle. */
gc_status gc_auto_no_harm(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                          const gc_model* targets, size_t target_count, const gc_optimize_placement* placement,
                          unsigned effort, uint32_t* expanded, uint32_t* order, gc_error* err);
/* auto's target-aware greedy (auto.c), the targets driven through gc_sim, for a list drawn
 * alone. */
gc_status gc_opt_sim_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                            const gc_model* targets, size_t target_count, float beta, float gamma,
                            uint32_t recent_limit, uint32_t* order, gc_error* err);
/* auto's target-aware greedy for a lone FIFO-like target, the machine written into the loop
 * (auto_fast.c): the order auto.c's greedy gives with that target, faster. The machine: a
 * FIFO of `cache` entries (fifo:N), with warp_rule meshopt:C,W,P's flushes at warps of W
 * vertices and groups of P triangles (0: none). */
typedef struct gc_fifo_machine {
    uint32_t cache, warp, group;
    bool warp_rule;
} gc_fifo_machine;
bool gc_fifo_machine_of(const gc_model* target, gc_fifo_machine* m);
gc_status gc_opt_fifo_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                             uint32_t* order, gc_error* err);
/* auto's target-aware greedy for a lone nvidia target, seed 000's rule written into the loop
 * (auto_nvidia_greedy.c): the order gc_opt_target_greedy gives with that target (its list
 * placed at primitive first_primitive), faster. */
bool gc_nvidia_greedy_fits(const gc_model* target);
gc_status gc_opt_nvidia_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* target, uint64_t first_primitive, float beta, float gamma,
                               uint32_t recent_limit, uint32_t* order, gc_error* err);
/* One target's invocations for a triangle order (auto_balance.c's cost function): `expand`
 * on the first call for an order (the caller may expand it then and reuse it after). */
typedef gc_status (*gc_target_cost_fn)(void* user, const uint32_t* order, bool expand, size_t target, uint64_t* cost,
                                       gc_error* err);
/* auto's default effort for a lone target whose own orders beat auto's candidates on the
 * corpus (auto_machine_greedy.c: ati-basic and reuse, forsyth_flush.c's order; direct-position,
 * the machine greedy; lru:16, its family's Forsyth table and the machine greedy), then
 * meshoptimizer's table order: the cheapest by `cost` (target 0), the first among equals.
 * *served: false for the other targets (nothing done). */
/* The orders are made and scored side by side on `threads` workers (gc_lone_orders), worker
 * w scoring with cost(users[w], ...): users holds `threads` of them, each with scratch of its
 * own; the output is the same for every count. ahead (NULL: none): the overdraw pass's
 * occlusion pairs of `positions`, computed beside the orders (a job after them). */
gc_status gc_opt_auto_lone(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* target, const gc_optimize_placement* placement, gc_target_cost_fn cost,
                           unsigned threads, void* const* users, gc_occlusion_ahead* ahead, const float* positions,
                           size_t position_stride, uint32_t* order, bool* served, gc_error* err);
/* Orders 0 .. count - 1 made side by side on `threads` workers (lone_jobs.c): fn(user, k,
 * worker, out, &cost, &state, err) makes order k into out (order 0 into `order` itself, the
 * others into buffers of their own), scores it into cost and says so in state (state is
 * GC_LONE_SKIPPED when fn is called). The winner, copied into `order`, is the lowest forced
 * order if any, else the cheapest scored, the lowest k among equals; *chosen: its k, -1 where
 * none was scored or forced (`order` then holds whatever order 0 left there). */
#define GC_LONE_ORDERS_MAX 4
enum { GC_LONE_SKIPPED = 0, GC_LONE_SCORED, GC_LONE_FORCED };
typedef gc_status (*gc_lone_order_fn)(void* user, size_t k, unsigned worker, uint32_t* out, uint64_t* cost,
                                      int* state, gc_error* err);
gc_status gc_lone_orders(unsigned threads, size_t count, size_t triangle_count, gc_lone_order_fn fn, void* user,
                         uint32_t* order, int* chosen, gc_error* err);
/* auto's balance (auto_balance.c): block moves of `order` (costs: each target's, updated)
 * until every target is strictly below `reference`, kept while the excess over it
 * (sum_k max(0, cost_k + 1 - reference_k)) goes down, or stays and the sum goes down; the
 * re-misses of a FIFO of fifo_entries (0: none) propose moves too; at most `work` target
 * evaluations of a triangle each. */
gc_status gc_opt_balance(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                         size_t target_count, const uint64_t* reference, uint32_t fifo_entries, uint64_t work,
                         gc_target_cost_fn cost, void* user, uint32_t* order, uint64_t* costs, gc_error* err);
/* The balance as auto runs it (auto_balance.c): where the winner `order` is above the order
 * `reference` (meshoptimizer's) on some target, gc_opt_balance from the nearest of
 * the winner, the reference and gc_opt_score_table with auto's tuned table, the re-misses of
 * the largest FIFO-like target (traits) proposing moves; the result replaces `order` only if
 * it is below the reference on every target (then `balanced`, and cap[k] = the reference's
 * cost less one). `winner`: a copy of the order as it came. gc_balance_fits: whether the
 * step's work allows a mesh of that size (auto runs it only then). */
bool gc_balance_fits(size_t triangle_count, size_t target_count);
gc_status gc_opt_balance_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_family_traits* traits, size_t target_count, const uint32_t* reference,
                              gc_target_cost_fn cost, void* user, uint32_t* order, uint32_t* winner, uint64_t* cap,
                              bool* balanced, gc_error* err);
/* gc_opt_balance_auto told each target's cost of the reference and of the winner where the
 * caller already counted them with `cost`'s counts (auto's candidates: each is scored once
 * anyway); NULL: counted here. The same result, without those 2 x target_count evaluations
 * (on a small mesh, 10-40% of the four presets' time). */
gc_status gc_opt_balance_auto_known(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_family_traits* traits, size_t target_count, const uint32_t* reference,
                                    const uint64_t* reference_costs, const uint64_t* winner_costs,
                                    gc_target_cost_fn cost, void* user, uint32_t* order, uint32_t* winner,
                                    uint64_t* cap, bool* balanced, gc_error* err);
/* auto's greedy for one target at --effort 1 (auto_machine_greedy.c): the target's state
 * machine driven alongside the order, candidates priced with gc_sim_peek (lru, direct-position
 * and batch by machine_inline.h's machines, llvmpipe by gc_opt_llvmpipe_greedy: the same
 * prices). first_number: the
 * list's first triangle's number in the draw; stream_length: the draw's indices (0: the list
 * alone); first_use: the machine keyed by the numbers of first use the output will have. */
gc_status gc_opt_machine_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                bool first_use, float beta, uint32_t recent_limit, uint32_t* order, gc_error* err);
/* That greedy's settings for a target it serves (direct-value, llvmpipe): true. */
/* The same greedy with every target's machine driven through gc_sim (lru and direct-position
 * otherwise run machine_inline.h's, at the same prices): for tests. */
gc_status gc_opt_machine_greedy_sim(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_model* target, uint64_t first_number, uint64_t stream_length,
                                    bool first_use, float beta, uint32_t recent_limit, uint32_t* order, gc_error* err);
bool gc_machine_greedy_settings(const gc_model* target, float* beta, uint32_t* recent);
/* The greedies above for a lone llvmpipe or direct-value target, its rule written out
 * (auto_machine_greedy.c with machine_inline.h's table, src/models/llvmpipe_rule.h;
 * direct-value:N is llvmpipe's table of N entries without segments): with `distinct` lists
 * and no first-use numbers the order of gc_opt_target_greedy with that one target (any
 * gamma: neither keeps ages); with `distinct` false that of gc_opt_machine_greedy_sim.
 * stream_length: the draw's indices (0: the list alone). */
/* Whether the default effort scores that greedy's order too for a lone target it serves
 * (auto.c): not for llvmpipe from GC_LLVMPIPE_MACHINE_MAX triangles (auto_machine_greedy.c). */
bool gc_machine_greedy_default(const gc_model* target, size_t triangle_count);
gc_status gc_opt_llvmpipe_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                 float beta, uint32_t recent_limit, uint32_t* order, gc_error* err);
/* The same order; fed (NULL: not wanted): the table's misses as the order was fed to it, the
 * list's invocations under the target where it is drawn alone and not renumbered (first_use
 * false); feed (NULL: none): the order published as it is made (gc_order_feed), ended whatever
 * the outcome. */
gc_status gc_opt_llvmpipe_greedy_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                     float beta, uint32_t recent_limit, uint32_t* order, uint64_t* fed,
                                     gc_order_feed* feed, gc_error* err);
/* The polish of auto's candidates for a lone llvmpipe target drawn alone (gc_opt_earlier_first
 * with pieces of piece_triangles, the first first_piece) made from `in` as `feed` publishes it,
 * into `out`, and its invocations under the target in *cost (llvmpipe_pipe.c): what
 * gc_opt_earlier_first on a copy of the whole order gives, and auto's score of it. A maker
 * that ends short: *aborted, nothing counted. */
gc_status gc_llvmpipe_polish_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint32_t piece_triangles, uint32_t first_piece,
                                 const uint32_t* in, const gc_order_feed* feed, uint32_t* out, uint64_t* cost,
                                 bool* aborted, gc_error* err);
/* One piece of gc_opt_earlier_first (patches.c): the piece's triangles that use a vertex of an
 * earlier piece (used_before) first, both parts in their order; `scratch` holds a piece. */
void gc_earlier_first_piece(const uint32_t* indices, uint32_t* piece, size_t count, const unsigned char* used_before,
                            uint32_t* scratch);
/* auto at --effort 1 for a lone target whose family that greedy serves (*served); otherwise
 * nothing is done (*served false). Also every other effort for nv-gl with pages where they
 * change, the numbering kept (paged_order.c). */
gc_status gc_opt_auto_machine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* targets, size_t target_count, const gc_optimize_options* options,
                              const gc_optimize_placement* placement, uint32_t* order, bool* served, gc_error* err);
/* Candidates auto's default effort leaves out for some targets (auto_lean.c): Tipsify, the
 * Forsyth orders (tuned and meshoptimizer's table), the tuned one alone, the patches as
 * candidates (they still polish the greedy's orders), the winner's polish for segments; where
 * the surface's largest part has greedy_from triangles or more the greedy, machine_from the
 * machine greedy if the vertices keep their numbers (0: never). */
typedef struct gc_auto_lean {
    bool no_tipsify, no_forsyth, no_tuned, no_patch_jobs, no_winner_polish;
    size_t greedy_from, machine_from;
} gc_auto_lean;
/* A surface from which some lone targets' defaults leave out an order that won only on
 * smaller corpus meshes (auto_lean.c, gc_opt_auto_lone), in triangles of its largest part
 * (gc_largest_surface_part): the corpus has none between 20,088 and 38,656 triangles. */
#define GC_LEAN_LARGE_TRIANGLES 32768
/* The triangles of the largest part of the list's surface (triangles joined through shared
 * vertices; surface_parts.c); 0 when out of memory (every order is then kept), the
 * triangle count from 2^32 - 1 triangles. O(triangles + vertices). */
size_t gc_largest_surface_part(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count);
gc_auto_lean gc_auto_default_lean(const gc_model* targets, const gc_family_traits* traits, size_t target_count);
gc_status gc_opt_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                      const gc_optimize_options* options, const gc_optimize_placement* placement, uint32_t* order,
                      uint32_t* scratch, gc_error* err);

/* The greedies' recent vertices (auto.c, auto_fast.c) once the triangle tv is drawn: its
 * corners that still have triangles left, each once, then the previous recent ones that
 * do, at most `limit` of them (at most 16). The remaining triangles of vertex v: the
 * uint32_t `stride * v` bytes after `live` (gc_recent_after: an array, stride 4). */
static inline void gc_recent_after_strided(uint32_t* recent, uint32_t* recent_count, uint32_t limit,
                                           const uint32_t* tv, const uint32_t* live, size_t stride)
{
    /* Without branches on the data: each vertex is written, and counted when it is kept
     * (a repeated corner has its first's count: kept at most once); the previous recent
     * ones all pass, the number kept cut to `limit` after (but not below the corners'). */
    uint32_t next[3 + 16];
    uint32_t n = 0;
    uint32_t left[3];
    for (int c = 0; c < 3; ++c)
        left[c] = *(const uint32_t*)((const char*)live + stride * tv[c]) > 0;
    next[n] = tv[0], n += left[0];
    next[n] = tv[1], n += left[1] & (tv[1] != tv[0]);
    next[n] = tv[2], n += left[2] & (tv[2] != tv[0]) & (tv[2] != tv[1]);
    const uint32_t corners = n; /* kept whatever the limit */
    for (uint32_t k = 0; k < *recent_count; ++k) {
        uint32_t v = recent[k];
        next[n] = v;
        n += (v != tv[0]) & (v != tv[1]) & (v != tv[2]) & (*(const uint32_t*)((const char*)live + stride * v) > 0);
    }
    n = n < limit ? n : corners > limit ? corners : limit;
    memcpy(recent, next, n * sizeof *recent);
    *recent_count = n;
}
static inline void gc_recent_after(uint32_t* recent, uint32_t* recent_count, uint32_t limit, const uint32_t* tv,
                                   const uint32_t* live)
{
    gc_recent_after_strided(recent, recent_count, limit, tv, live, sizeof *live);
}

/* The distinct corners of triangle v (3 indices) not marked `group` in `mark`, into
 * which[]; their number (0: the triangle lies inside the group). The patch and meshlet
 * growers' test (patches.c, meshlet_grow.c). */
static inline unsigned gc_corners_outside(const uint32_t* v, const uint32_t* mark, uint32_t group, uint32_t* which)
{
    unsigned n = 0;
    for (int c = 0; c < 3; ++c) {
        bool repeated = (c > 0 && v[c] == v[0]) || (c > 1 && v[c] == v[1]);
        if (!repeated && mark[v[c]] != group)
            which[n++] = v[c];
    }
    return n;
}

/* The greedies' next triangle when no recent vertex offers one (auto.c, auto_fast.c): the
 * first live triangle of the latest dead-end vertex that still has some (popped from
 * dead_end), else the first triangle not yet emitted, in input order (*input_cursor moves
 * past the emitted ones). Some triangle is left to emit when it is called. */
static inline int64_t gc_greedy_restart(const gc_live_triangles* lists, const uint32_t* dead_end, size_t* dead_top,
                                        const unsigned char* emitted, size_t* input_cursor)
{
    while (*dead_top > 0) {
        uint32_t d = dead_end[--*dead_top];
        if (lists->live[d] > 0)
            return lists->adj.triangles[lists->adj.offsets[d]];
    }
    while (emitted[*input_cursor])
        ++*input_cursor;
    return (int64_t)*input_cursor;
}

/* The greedies' valence bonus (auto_nvidia_greedy.c, target_sims.c): boost[n] = 1/sqrt(n)
 * for a vertex with n live triangles, 0 for none. */
static inline void gc_greedy_boost_table(float boost[64])
{
    boost[0] = 0.0f;
    for (int n = 1; n < 64; ++n)
        boost[n] = 1.0f / sqrtf((float)n);
}

/* Forsyth's orders' next-triangle scan (forsyth.c, forsyth_flush.c): where each of the
 * `count` scanned vertices' lists of remaining triangles starts in `list` (by
 * list_start[vertex]), each list fetched ahead so that the scan's reads overlap. */
static inline void gc_forsyth_scan_starts(const uint32_t* scan, uint32_t count, const uint32_t* list_start,
                                          const uint32_t* list, uint32_t* scan_start)
{
    for (uint32_t k = 0; k < count; ++k) {
        scan_start[k] = list_start[scan[k]];
#if defined(__GNUC__)
        __builtin_prefetch(list + scan_start[k]);
#else
        (void)list;
#endif
    }
}

/* The machine greedies' lower bound on a candidate's score (auto_machine_greedy.c): its
 * corners whose vertex no drawn triangle had (`first` gives each vertex's triangle count,
 * `live` those not drawn; a vertex repeated in the triangle once) miss in any machine, less
 * beta times the corners' valence boosts (gc_greedy_boost_table);
 * *valence gets that boost sum for the score itself. A candidate is priced only when this
 * could win. */
static inline float gc_greedy_fresh_bound(const uint32_t* tv, const uint32_t* live, const uint32_t* first,
                                          const float boost[64], float beta, float* valence)
{
    float v = 0.0f;
    uint32_t fresh = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t l = live[tv[c]];
        v += l < 64 ? boost[l] : 0.0f;
        fresh += l == first[tv[c] + 1] - first[tv[c]] && !(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]);
    }
    *valence = v;
    return (float)fresh - beta * v;
}

/* The target greedy's bound of a candidate's score (target_sims.c) where no triangle repeats
 * a vertex: the sum of its corners' shares. A vertex's share, with `l` of its
 * `total` triangles left: `fresh_cost` if no triangle drawn so far had it (no machine holds
 * it), less beta times its valence bonus, less `aged_weight` (gamma times the targets that
 * keep ages) if it may be cached with triangles left. */
static inline float gc_greedy_bound_share(uint32_t l, uint32_t total, const float* boost, float fresh_cost,
                                          float beta, float aged_weight)
{
    const bool fresh = l == total;
    return (fresh ? fresh_cost : 0.0f) - beta * (l < 64 ? boost[l] : 0.0f) - (l > 1 && !fresh ? aged_weight : 0.0f);
}

/* Slots of the set of a step's candidates (gc_greedy_step_candidates): the triangle number's
 * multiplicative hash takes its top 8 bits. */
#define GC_GREEDY_SEEN_SLOTS 256

/* A greedy step's candidates, each once: the first `scan` remaining triangles of each of the
 * recent vertices (a triangle of two recent vertices is met twice; its score is the same both
 * times, so once is enough for the same winner), their corners fetched ahead so that the
 * reads of scattered triangles overlap. `mark` is the step's (non-zero, new each step); the
 * seen sets have GC_GREEDY_SEEN_SLOTS entries, `candidates` room for recent_count x scan
 * (fewer than GC_GREEDY_SEEN_SLOTS). The count. */
static inline uint32_t gc_greedy_step_candidates(const uint32_t* recent, uint32_t recent_count, const uint32_t* live,
                                                 const uint32_t* first, const uint32_t* adjacent,
                                                 const uint32_t* indices, uint32_t scan_limit, uint32_t mark,
                                                 uint32_t* seen_tri, uint32_t* seen_step, uint32_t* candidates)
{
    uint32_t count = 0;
    for (uint32_t r = 0; r < recent_count; ++r) {
        const uint32_t v = recent[r];
        const uint32_t scan = live[v] < scan_limit ? live[v] : scan_limit;
        for (uint32_t a = first[v]; a < first[v] + scan; ++a) {
            const uint32_t tri = adjacent[a];
            uint32_t h = (tri * 2654435761u) >> 24;
            while (seen_step[h] == mark && seen_tri[h] != tri)
                h = (h + 1) & (GC_GREEDY_SEEN_SLOTS - 1);
            if (seen_step[h] == mark)
                continue;
            seen_step[h] = mark, seen_tri[h] = tri;
            __builtin_prefetch(indices + 3 * (size_t)tri);
            candidates[count++] = tri;
        }
    }
    return count;
}

/* Whether a candidate of `score` beats the best so far (none while best < 0): the lower
 * score, ties to the lower triangle number. */
static inline bool gc_greedy_beats(float score, uint32_t tri, int64_t best, float best_score)
{
    return best < 0 || score < best_score || (score == best_score && tri < (uint32_t)best);
}

/* The triangle the greedies emit at a step: `best`, or gc_greedy_restart's when no candidate
 * was found (best < 0); marked emitted. */
static inline uint32_t gc_greedy_take(int64_t best, const gc_live_triangles* lists, const uint32_t* dead_end,
                                      size_t* dead_top, unsigned char* emitted, size_t* input_cursor)
{
    if (best < 0)
        best = gc_greedy_restart(lists, dead_end, dead_top, emitted, input_cursor);
    const uint32_t tri = (uint32_t)best;
    emitted[tri] = 1;
    return tri;
}

/* ---- the targets' machines side by side (target_sims.c) ---- */

#define GC_TARGET_SIMS_MAX 16     /* targets auto drives at once */
#define GC_WINDOW_SEARCH_TICKS 40 /* progress ticks of a pass of gc_opt_window_search */

/* One machine per target (gc_sim), fed the same triangles. */
typedef struct gc_target_sims {
    gc_sim* sim[GC_TARGET_SIMS_MAX];
    size_t count;
    uint64_t base; /* the number of the list's first triangle in the draw */
} gc_target_sims;

/* Where the list sits in the draw (gc_optimize_placement.stream_position, stream_length). */
typedef struct gc_stream_place {
    uint64_t position, length;
    uint32_t* numbering; /* scratch of a vertex each when orders are scored renumbered, else NULL */
} gc_stream_place;
/* Whether auto's default takes the count a lone llvmpipe or direct-value target's greedy
 * makes of its order (gc_opt_llvmpipe_greedy_fed's *fed) as the order's score
 * (llvmpipe_pipe.c): where the vertices keep their numbers, and for llvmpipe where the list
 * is drawn alone (its segments counted from the list's start). */
bool gc_table_greedy_counts(const gc_model* targets, size_t target_count, const gc_stream_place* place,
                            size_t triangle_count);
/* Below this many triangles the polish of a lone llvmpipe target stays in its greedy's job: a
 * second thread's start would cost more than the overlap saves. */
#define GC_LLVMPIPE_PIPE_MIN_TRIANGLES 4096
/* auto's polish of an order for llvmpipe's segments (llvmpipe_pipe.c): l as auto's patch
 * limits (triangles, first piece, vertices, map); with `refine` the swaps between segments
 * first (the winner's). */
gc_status gc_llvmpipe_polish_segments(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                      const uint32_t* l, const gc_stream_place* place, unsigned effort, bool refine,
                                      uint32_t* candidate, gc_error* err);
/* Whether the target's cache is a table keyed by the index value (llvmpipe, direct-value):
 * gc_opt_llvmpipe_greedy serves it. */
static inline bool gc_value_table_target(const gc_model* t)
{
    return t->family == GC_MODEL_LLVMPIPE || t->family == GC_MODEL_DIRECT_VALUE;
}
/* The default's greedy for a lone llvmpipe or direct-value target in auto's jobs
 * (llvmpipe_pipe.c): whether its order is priced by its own count, and llvmpipe's polish a
 * job beside it reading the order as it is made. */
typedef struct gc_table_pipe {
    bool count, polish;
    uint32_t piece, first; /* the polish's pieces */
    uint32_t* order;       /* the greedy's order (polish: the job's), published to feed */
    gc_order_feed feed;
} gc_table_pipe;
/* one_greedy: the default's one greedy variant; limits: a lone llvmpipe target's patch limits
 * (NULL: none); gc_table_pipe_alloc then holds the order where needed (freed with free). */
void gc_table_pipe_plan(gc_table_pipe* p, const gc_model* targets, size_t target_count,
                        const gc_stream_place* place, size_t triangle_count, bool one_greedy, const uint32_t* limits,
                        unsigned threads);
gc_status gc_table_pipe_alloc(gc_table_pipe* p, size_t triangle_count, gc_error* err);
/* The greedy's job: the order made in *made (candidate, or p->order with the polish beside
 * it), its count in *cost (UINT64_MAX: not counted, to be scored). */
gc_status gc_table_pipe_greedy(gc_table_pipe* p, const uint32_t* indices, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* target, uint64_t stream_length, float beta,
                               uint32_t recent, uint32_t* candidate, uint32_t** made, uint64_t* cost, gc_error* err);
/* The polish's job: the polished order in out, its count in *cost (UINT64_MAX: the greedy
 * failed, nothing made). */
gc_status gc_table_pipe_polish(gc_table_pipe* p, const uint32_t* indices, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* target, uint32_t* out, uint64_t* cost,
                               gc_error* err);

/* auto's count of an order (auto_cost.c): the sum of the targets' exact invocations for the
 * triangle list `order` (scratch: it may be renumbered), gc_analyze's fast loops for a list
 * drawn alone (`place`), the state machines fed at the list's place in its draw otherwise.
 * each (NULL: not wanted): each target's count, where the fast loops count them one by one
 * (*each_known; false where the machines are fed together). */
gc_status gc_auto_order_cost(uint32_t* order, size_t index_count, uint32_t vertex_count, const gc_model* targets,
                             size_t target_count, const gc_stream_place* place, uint64_t* cost, uint64_t* each,
                             bool* each_known, gc_error* err);
/* `candidate` (triangle numbers) expanded into `expanded`, counted, and copied to `order` if
 * it costs less than *best_cost (then lowered); each, each_known: the candidate's, kept or not. */
gc_status gc_auto_keep_if_better(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const uint32_t* candidate, uint32_t* expanded, const gc_model* targets,
                                 size_t target_count, const gc_stream_place* place, uint64_t* best_cost,
                                 uint32_t* order, uint64_t* each, bool* each_known, gc_error* err);

/* One fresh machine per target, each told of one triangle list of `triangle_count` placed at
 * `place`; `values` as gc_sim_create's. Freed by gc_target_sims_free (also after a failure). */
gc_status gc_target_sims_init(gc_target_sims* t, const gc_model* targets, size_t target_count, uint32_t vertex_count,
                              size_t triangle_count, const gc_stream_place* place, const uint32_t* values,
                              gc_error* err);
void gc_target_sims_free(gc_target_sims* t);
/* Feeds a triangle to every target; the invocations, summed. */
uint32_t gc_target_sims_feed(gc_target_sims* t, const gc_sim_primitive* p);

/* Triangle tv[0..2] as the list's primitive `step`. */
static inline gc_sim_primitive gc_target_sims_triangle(const gc_target_sims* t, const uint32_t* tv, uint64_t step)
{
    const uint64_t number = t->base + step;
    gc_sim_primitive p = {{tv[0], tv[1], tv[2]}, {3 * number, 3 * number + 1, 3 * number + 2}, 3, number, NULL, 0};
    return p;
}

/* auto's target-aware greedy (auto.c, step 1): the next triangle among the remaining ones of
 * the `recent_limit` most recent vertices, priced by the targets' machines (gc_sim_peek), less
 * `beta` times Forsyth's valence boost and `gamma` times the ages of cached corners still in
 * use. O(triangles x recent_limit x 8 x targets) prices. */
gc_status gc_opt_target_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* targets, size_t target_count, const gc_stream_place* place,
                               float beta, float gamma, uint32_t recent_limit, uint32_t* order, gc_error* err);
/* auto's local search (step 3): `passes` passes of move descent over windows of 32 triangles,
 * bringing one of the next 8 forward where the window's invocations go down; `tick` told of
 * GC_WINDOW_SEARCH_TICKS ticks a pass. */
gc_status gc_opt_window_search(const uint32_t* indices, uint32_t* order, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* targets, size_t target_count,
                               const gc_stream_place* place, unsigned passes, void (*tick)(void* user, uint32_t ticks),
                               void* user, gc_error* err);

/* The triangle's vertices not numbered yet (values[v] == UINT32_MAX) numbered from `next` in
 * corner order, a vertex repeated in it once; the next free number (the greedies that number
 * vertices by first use as they go: auto_machine_greedy.c). */
static inline uint32_t gc_number_new_corners(uint32_t* values, uint32_t next, const uint32_t* tv)
{
    uint32_t at = next;
    for (int c = 0; c < 3; ++c)
        if (values[tv[c]] == UINT32_MAX && !(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]))
            values[tv[c]] = at++;
    return at;
}

/* Undoes gc_number_new_corners(values, next, tv) for a triangle that was only priced: the
 * vertices it numbered (from `next` up) unnumbered again. */
static inline void gc_number_forget_new(uint32_t* values, uint32_t next, const uint32_t* tv)
{
    for (int c = 0; c < 3; ++c)
        if (values[tv[c]] >= next)
            values[tv[c]] = UINT32_MAX;
}

#endif
