// SPDX-License-Identifier: MIT
/* reuse:W,F,T, seed 002's warp hypothesis (after Giesen's "trip through the graphics
 * pipeline"), stated once: every user of the rule drives the functions below (the model,
 * reuse.c: its simulator and its gc_sim machine; the flushed Forsyth order told of a reuse
 * target, src/optimize/forsyth_flush.c).
 *  - Vertices are gathered into a warp of at most W vertices, in primitive order; a
 *    primitive's corners are taken once each (a degenerate triangle's repeated corner counts
 *    once).
 *  - A corner hits while its vertex joined the current warp and fewer than F vertices joined
 *    it after the vertex (F = 0: the whole warp, F = W); otherwise it misses and joins.
 *  - The warp is dispatched (flushed: nothing hits after it) before a primitive when T
 *    primitives are already buffered (T > 0), or when the primitive's misses, counted on
 *    the warp before it, would take it past W vertices.
 * Each user keeps its own record of when a vertex joined (a stamp, or the warp's number and
 * the vertex's place in it) and asks the rule with the count of vertices that joined after. */
#ifndef GPUCACHE_REUSE_RULE_H
#define GPUCACHE_REUSE_RULE_H

#include <stdbool.h>
#include <stdint.h>

/* Whether a vertex of the current warp hits when `after` vertices joined it after the vertex,
 * under a window of `window` (F, or W when F = 0). */
static inline bool gc_reuse_in_window(uint64_t after, uint32_t window)
{
    return after < window;
}

/* Whether the warp, buffering `triangles` primitives and holding `fill` vertices, is flushed
 * before a primitive with `misses` unique misses, under W = warp and T = limit (0: none). */
static inline bool gc_reuse_flushes(uint32_t triangles, uint32_t limit, uint32_t fill, uint32_t misses, uint32_t warp)
{
    return (limit && triangles == limit) || fill + misses > warp;
}

#endif
