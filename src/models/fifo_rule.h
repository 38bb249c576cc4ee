// SPDX-License-Identifier: MIT
/* fifo:N, a FIFO of insertions (seeds 000, 001, 002), and meshopt:C,W,P's warps around it
 * (meshoptimizer 0.18's meshopt_analyzeVertexCache), stated once: every user of the rule
 * drives the functions below (the models, fifo.c and meshopt.c: their simulators and gc_sim
 * machines; auto's FIFO greedy, src/optimize/auto_fast.c).
 *  - fifo:N: vertices are looked up one at a time in primitive order; a miss writes the
 *    next slot round-robin, evicting the vertex inserted N misses before; a hit changes
 *    nothing.
 *  - meshopt:C,W,P: a FIFO of C inside the current warp. Before a primitive the warp is
 *    flushed (nothing stays cached) when it already holds P primitives (P > 0), or when the
 *    primitive's misses, counted corner by corner on the state before it (so that a
 *    degenerate (a, a, b) with a and b uncached counts 3), would take it past W vertices
 *    (W > 0).
 *
 * The state: per vertex its insertion stamp, and a clock, the next stamp, which counts the
 * misses from GC_FIFO_FIRST(N), so that a zeroed stamp reads as never inserted; a vertex is
 * cached while fewer than N misses came after its insertion (gc_fifo_missed). The slot it
 * occupies is its stamp modulo N (a trace keeps the ring). A flush moves the clock N + 1
 * on (gc_fifo_flush), past every stamp's reach. */
#ifndef GPUCACHE_FIFO_RULE_H
#define GPUCACHE_FIFO_RULE_H

#include <stdbool.h>
#include <stdint.h>

/* The clock of an empty FIFO of n entries over zeroed stamps. */
#define GC_FIFO_FIRST(n) ((uint32_t)(n) + 1u)

/* 1 when a vertex with insertion stamp `stamp` misses at `clock` in a FIFO of n entries
 * (as an integer, so that a branch-free loop can sum and mask it). */
static inline uint32_t gc_fifo_missed(uint32_t clock, uint32_t stamp, uint32_t n)
{
    return (uint32_t)(clock - stamp > n);
}

/* Vertex `*stamp`'s lookup at *clock in a FIFO of n entries: on a miss it is inserted (the
 * next stamp taken; the stamp is written only then). 1 on a miss. */
static inline uint32_t gc_fifo_access(uint32_t* stamp, uint32_t* clock, uint32_t n)
{
    if (!gc_fifo_missed(*clock, *stamp, n))
        return 0;
    *stamp = (*clock)++;
    return 1;
}

/* The clock after a flush of a FIFO of n entries: every vertex then misses. */
static inline uint32_t gc_fifo_flush(uint32_t clock, uint32_t n)
{
    return clock + n + 1u;
}

/* meshopt: 1 when the warp flushes before a primitive whose corners miss `corner_misses`
 * times on the state before it (each corner counted), the warp holding `warp_fill` shaded
 * vertices of at most `warp` (0: no limit), and `group_full` when it already holds the
 * group's P primitives (gc_meshopt_group_full). Written without a branch (a loop may mask
 * with it). */
static inline uint32_t gc_meshopt_flushes(bool group_full, uint32_t warp_fill, uint32_t corner_misses, uint32_t warp)
{
    return (uint32_t)group_full | ((uint32_t)(warp != 0) & (uint32_t)(warp_fill + corner_misses > warp));
}

/* meshopt: whether a warp that holds `group_fill` primitives is at its limit of `group` (0:
 * no limit). */
static inline bool gc_meshopt_group_full(uint32_t group_fill, uint32_t group)
{
    return group != 0 && group_fill == group;
}

/* The age of a cached vertex, which greedy orders read as gc_sim_age (0 for one not cached,
 * else in [0, 1), the newest 0): (clock - shift - stamp) / scale while that count is below
 * `limit`, else 0. fifo:N counts the misses after its insertion out of N; meshopt:C counts
 * from its insertion out of C + 1. */
typedef struct gc_fifo_age_form {
    uint32_t shift, limit;
    float scale;
} gc_fifo_age_form;

static inline gc_fifo_age_form gc_fifo_age_form_of(uint32_t n, bool warps)
{
    const gc_fifo_age_form f = {warps ? 0u : 1u, warps ? n + 1u : n, warps ? (float)(n + 1u) : (float)n};
    return f;
}

static inline float gc_fifo_age(gc_fifo_age_form f, uint32_t clock, uint32_t stamp)
{
    const uint32_t age = clock - f.shift - stamp;
    return age < f.limit ? (float)age / f.scale : 0.0f;
}

#endif
