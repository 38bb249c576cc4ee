// SPDX-License-Identifier: MIT
/* The triangle lists of Forsyth's orders (forsyth.c, forsyth_flush.c; issue 33), stated once.
 *
 * Each vertex lists its triangles in triangle order, corner by corner (gc_adjacency_fill).
 * An emitted triangle leaves its corners' lists at once, the list's last entry taking its
 * place (found by comparing the list's first 8 entries at once, as a mask). The orders used
 * to drop an emitted triangle from a list only when the scan next met it. Both give the same
 * lists, entry for entry: a triangle is emitted through its corners, which come first in the
 * next modelled cache and are scanned in the same step (when the cache has 3 places or more),
 * so the scan met each emitted entry in the step that emitted it, and a scan dropping the
 * emitted entries it meets from the front is the same as dropping them one by one, the one
 * listed first first (the last entry moved into a dropped one's place is met next; a
 * triangle that repeats a vertex is listed there twice, and the first found is dropped
 * first). Two exceptions keep the old way, entries dropped when met: a hub (a vertex of more
 * than GC_FORSYTH_SCAN triangles, of which a step scans only the first GC_FORSYTH_SCAN
 * remaining ones), and every vertex when the cache has fewer than 3 places (a corner may then
 * be left out of the next scan).
 *
 * With the lists clean, a step's candidates are copied out (8 entries at once, the count
 * kept) and scored in one loop: far fewer branches that the data decides (lru:16's order on
 * ogre, cachegrind: 197 to 213 million instructions, 2.95 to 0.75 million mispredicted
 * branches, meshoptimizer's own 2.1 million; 24 to 17 ms, docs/optimizers/auto.md). A slot
 * per corner, to find the entry without comparing, made the 4.3M-triangle igea (shuffled)
 * 15% slower: its stores to the moved entry's slot miss the cache there. */
#ifndef GC_FORSYTH_LISTS_H
#define GC_FORSYTH_LISTS_H

#include "optimize.h"

#include <string.h>

/* At most this many remaining triangles of a vertex are scored in a step. */
#define GC_FORSYTH_SCAN 32

/* A vertex's record begins with these: its remaining triangles, and for a vertex whose
 * entries are dropped when met (a hub, or any vertex with a cache of fewer than 3 places) the
 * length of its list, which may still hold emitted triangles; 0 for every other vertex, whose
 * list holds only its remaining triangles. */
typedef struct gc_forsyth_vertex {
    uint32_t live, listed;
} gc_forsyth_vertex;

/* The `listed` mark of a vertex of `count` triangles (above). */
static inline uint32_t gc_forsyth_listed(uint32_t count, uint32_t cache_size)
{
    return cache_size < 3 || count > GC_FORSYTH_SCAN ? count : 0;
}

/* A vertex's score: `score` (its place's and its remaining triangles') while it has triangles
 * left, else -1; chosen without a branch (which vertices finish is hard to foresee). */
static inline float gc_forsyth_score_live(float score, uint32_t live)
{
    uint32_t bits;
    memcpy(&bits, &score, sizeof bits);
    const uint32_t keep = 0u - (uint32_t)(live != 0);
    bits = (bits & keep) | (0xbf800000u /* -1.0f */ & ~keep);
    memcpy(&score, &bits, sizeof score);
    return score;
}

#define GC_FORSYTH_VERTEX(records, stride, v) ((gc_forsyth_vertex*)(void*)((records) + (size_t)(v) * (stride)))

/* Where t first stands in entries[0 .. live) (it is there): among the first 8 as a mask where
 * 8 entries are readable (a search's branch mispredicts where t sits), else searched. The
 * table greedy's drop too (auto_machine_greedy.c), where the last lists have fewer readable. */
static inline uint32_t gc_list_find(const uint32_t* entries, uint32_t live, uint32_t t, bool readable8)
{
    uint32_t mask = 0;
    for (uint32_t i = 0; readable8 && i < 8; ++i)
        mask |= (uint32_t)(entries[i] == t) << i;
    mask &= live >= 8 ? 0xFFu : (1u << live) - 1;
    uint32_t at = readable8 ? 8 : 0;
    if (mask)
        return (uint32_t)__builtin_ctz(mask);
    while (entries[at] != t)
        ++at;
    return at;
}

/* Triangle t leaves the list `entries` of one of its corners' vertices (entries dropped at
 * once, the list `fv->live` long): the first entry that is t, found among the first 8 as a
 * mask (the list may be followed by other entries: 8 are readable), else further on. */
static inline void gc_forsyth_drop(uint32_t* entries, gc_forsyth_vertex* fv, uint32_t t)
{
    const uint32_t live = fv->live;
    entries[gc_list_find(entries, live, t, true)] = entries[live - 1];
    fv->live = live - 1;
}

/* Emitted triangle t (corners tv) leaves its corners' counts, and their lists where entries
 * are dropped at once (a corner that repeats a vertex: its first entry there, each time). */
static inline __attribute__((always_inline)) void gc_forsyth_emit(uint32_t* list, const uint32_t* list_start,
                                                                 char* records, size_t stride, const uint32_t* tv,
                                                                 uint32_t t)
{
    for (uint32_t k = 0; k < 3; ++k) {
        gc_forsyth_vertex* fv = GC_FORSYTH_VERTEX(records, stride, tv[k]);
        if (fv->listed)
            fv->live--;
        else
            gc_forsyth_drop(list + list_start[tv[k]], fv, t);
    }
}

static inline bool gc_forsyth_emitted(const uint64_t* emitted, size_t t)
{
    return emitted[t / 64] >> (t % 64) & 1;
}

/* A step's candidates into cand (room for GC_FORSYTH_SCAN per vertex, and 8 entries past the
 * lists readable): the remaining triangles of the `count` vertices scan[] (their
 * lists at scan_start[]), at most GC_FORSYTH_SCAN of each, in that order, each list in its
 * order; a list of 8 or fewer copied as 8 entries (the count kept); a list whose entries are
 * dropped when met drops the emitted ones it meets. Returns their number. */
static inline __attribute__((always_inline)) uint32_t gc_forsyth_candidates(const uint32_t* scan, uint32_t count,
                                                                           const uint32_t* scan_start,
                                                                           uint32_t* list, char* records,
                                                                           size_t stride, const uint64_t* emitted,
                                                                           uint32_t* cand)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < count; ++k) {
        gc_forsyth_vertex* fv = GC_FORSYTH_VERTEX(records, stride, scan[k]);
        uint32_t* entries = list + scan_start[k];
        if (!fv->listed) {
            const uint32_t live = fv->live;
            memcpy(cand + n, entries, 8 * sizeof *cand);
            if (live > 8)
                memcpy(cand + n + 8, entries + 8, (live - 8) * sizeof *cand);
            n += live;
            continue;
        }
        for (uint32_t i = 0, scanned = 0; i < fv->listed && scanned < GC_FORSYTH_SCAN;) {
            if (gc_forsyth_emitted(emitted, entries[i])) {
                entries[i] = entries[--fv->listed];
                continue;
            }
            cand[n++] = entries[i];
            ++i, ++scanned;
        }
    }
    return n;
}

/* The best candidate: the highest sum of its corners' scores, above `floor` (the orders'
 * -1), the first of equals; -1 when none. */
static inline int64_t gc_forsyth_best(const uint32_t* cand, uint32_t count, const uint32_t* indices,
                                      const float* vscore, float floor)
{
    int64_t best = -1;
    float best_score = floor;
    for (uint32_t i = 0; i < count; ++i) {
        const size_t u = cand[i];
        const float sc = vscore[indices[3 * u]] + vscore[indices[3 * u + 1]] + vscore[indices[3 * u + 2]];
        if (sc > best_score) {
            best_score = sc;
            best = (int64_t)u;
        }
    }
    return best;
}

/* A dead end: a remaining triangle of the most recently emitted vertex that has one (the
 * stack dead_end[0 .. *dead_top), popped past the finished ones), the first in its list;
 * -1 when none. */
static inline int64_t gc_forsyth_dead_end(const uint32_t* dead_end, size_t* dead_top, uint32_t* list,
                                          const uint32_t* list_start, char* records, size_t stride,
                                          const uint64_t* emitted)
{
    while (*dead_top > 0) {
        const uint32_t d = dead_end[--*dead_top];
        gc_forsyth_vertex* dv = GC_FORSYTH_VERTEX(records, stride, d);
        if (dv->live == 0)
            continue;
        uint32_t* entries = list + list_start[d];
        if (!dv->listed)
            return entries[0];
        for (uint32_t i = 0; i < dv->listed;)
            if (gc_forsyth_emitted(emitted, entries[i]))
                entries[i] = entries[--dv->listed];
            else
                return entries[i];
    }
    return -1;
}

#endif
