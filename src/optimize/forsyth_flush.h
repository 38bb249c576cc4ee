// SPDX-License-Identifier: MIT
/* The flushed Forsyth orders (forsyth_flush.c): where a target empties its cache, and the
 * orders that follow it. Part of optimize.h (included there, after gc_forsyth_scores). */
#ifndef GPUCACHE_FORSYTH_FLUSH_H
#define GPUCACHE_FORSYTH_FLUSH_H

/* Where a target empties its cache (forsyth_flush.c): hard resets every reset_indices
 * indices of the draw (ati with an LRU under 16 entries), or the warps of reuse:W,F,T (warp
 * vertices, each compared with the last `window` added, warp_triangles: T, 0 none). */
typedef struct gc_flush_rule {
    uint64_t first_index; /* the list's first index's position in the draw */
    uint32_t reset_indices, warp, window, warp_triangles;
    /* the batch families (nv-dx, nv-gl: Kerbl et al.'s): a batch's vertex is held while its
     * last reference is at most window_indices indices back (0: the warp's `window` rule) */
    uint32_t window_indices;
} gc_flush_rule;
/* The rule for a target (true) or false when none is known for its family. */
bool gc_flush_rule_of(const gc_model* target, uint64_t first_index, gc_flush_rule* rule);
/* The same for Kerbl et al.'s nv-dx and nv-gl: their batches followed along the order as
 * reuse's warps, from the model's traits (piece_vertices, piece_triangles) and window; kept
 * apart from gc_flush_rule_of, which also picks auto's default for a lone target. */
bool gc_flush_batch_rule_of(const gc_model* target, uint64_t first_index, gc_flush_rule* rule);
/* The table gc_opt_forsyth_flush runs for nv-dx and nv-gl at --effort 1 (forsyth_flush.c:
 * auto's tuned table tuned again with the batches followed and grown, gc_flush_batch_growth,
 * on half the corpus and igea subdivided once: bench/tune_flush.c). */
extern const gc_forsyth_scores gc_flush_batch_scores;
/* How the flushed order grows a batch (a rule with window_indices: nv-dx, nv-gl): a vertex the
 * open batch holds scores `held` more, and one the batch referenced scores `distance` less per
 * step of its distance (at most distance_max) from the batch's first triangle, so that the
 * batch grows round its start; gc_opt_forsyth_flush runs gc_flush_batch_growth. */
typedef struct gc_flush_growth {
    float held, distance, distance_max;
} gc_flush_growth;
extern const gc_flush_growth gc_flush_batch_growth;
/* On a mesh of GC_FLUSH_FINE_TRIANGLES triangles or more (a large, finely tessellated surface),
 * gc_opt_forsyth_flush and gc_opt_forsyth_flush_kerbl, given gc_flush_batch_scores, run
 * gc_flush_fine_scores and gc_flush_fine_growth instead (bench/tune_flush.c --fine). */
#define GC_FLUSH_FINE_TRIANGLES 1000000u
extern const gc_forsyth_scores gc_flush_fine_scores;
extern const gc_flush_growth gc_flush_fine_growth;
/* gc_opt_forsyth_flush with the growth `growth` (NULL: none) for a rule with window_indices
 * (bench/tune_flush.c tunes it). */
gc_status gc_opt_forsyth_flush_grown(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                     const gc_flush_growth* growth, uint32_t* order, gc_error* err);
/* The table gc_opt_forsyth_flush runs for such a target (chosen on the corpus): lru:16's for
 * ati with an LRU of 15 (ati-basic; into *own), else auto's tuned table. */
const gc_forsyth_scores* gc_flush_scores(const gc_model* target, gc_forsyth_scores* own);
/* gc_opt_forsyth_scored's order with its modelled cache emptied where `rule` says the target's is. */
gc_status gc_opt_forsyth_flush(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_forsyth_scores* scores, const gc_flush_rule* rule, uint32_t* order,
                               gc_error* err);

/* gc_opt_forsyth_scored's order with its modelled cache holding only the vertices that an
 * nvidia target's rule (seed 000's, nvidia-kepler) still holds, the rule followed along the
 * order from primitive `first_primitive` of the draw (forsyth_flush.c). */
gc_status gc_opt_forsyth_nvidia(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, const gc_model* target, uint64_t first_primitive,
                                uint32_t* order, gc_error* err);

/* gc_opt_forsyth_flush_kerbl (optimize.h) stopped at the first batch full to the target's
 * index limit once `head` triangles are emitted, so that whatever follows opens a batch of its
 * own: `order`'s first *placed triangles (all where no such batch comes), their count in
 * *invocations. With a race (order_race.h; NULL: none) it posts or, where the batch greedy
 * leads, chases: *placed below `head` where it gave up. */
struct gc_order_race;
gc_status gc_opt_forsyth_flush_kerbl_head(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                          const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                          const gc_model* target, struct gc_order_race* race, size_t head,
                                          uint32_t* order, uint64_t* invocations, size_t* placed, gc_error* err);

/* nv-dx and nv-gl at --effort 1 on a list of GC_FLUSH_FINE_TRIANGLES triangles or more
 * (flush_tail.c): the flushed order (gc_flush_batch_scores, so the fine table) up to the
 * first full batch past the first (GC_FLUSH_TAIL_PARTS - 1) / GC_FLUSH_TAIL_PARTS of the
 * triangles, then Kerbl's batch greedy on the rest (the tail), where the flushed order does
 * worst: the surface left is in pieces. Where the batch greedy refuses the tail (a vertex of
 * more than 64 triangles) the whole list's flushed order. `rule` from gc_flush_batch_rule_of.
 * Memory beyond the flushed order's: the tail's list and order (16 bytes a tail triangle), a
 * bit a triangle, and the batch greedy's on the tail (about 40 bytes a tail triangle and 28 a
 * vertex), after the flushed order's is freed. */
#define GC_FLUSH_TAIL_PARTS 8
gc_status gc_opt_flush_batch_tail(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  const gc_flush_rule* rule, const gc_model* target, uint32_t* order, gc_error* err);

#endif
