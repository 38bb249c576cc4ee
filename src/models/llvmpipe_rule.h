// SPDX-License-Identifier: MIT
/* llvmpipe[:segment=S,map=M] (Mesa's draw module, docs/models/llvmpipe.md), what of its rule
 * the model (llvmpipe.c: its simulator and its gc_sim machine) and auto's machine greedy
 * (src/optimize/machine_inline.h's table, which direct-value:N uses without segments) share,
 * stated once:
 *  - a restart-free run is trimmed to whole primitives and cut into segments of at most S
 *    indices (gc_llvmpipe_per_segment: how many primitives each holds);
 *  - within a segment, a direct-mapped table of M entries keyed by the index value mod M
 *    (gc_llvmpipe_slot) decides whether a vertex was already fetched; every miss is one
 *    invocation, and the table is cleared at every segment.
 * The triangle-list form below (gc_llvmpipe_list) is the rule for a list drawn as one run:
 * its primitive k lies in segment k / P, its corners are fetched in corner order. The state:
 * per slot the vertex + 1 (0: empty). */
#ifndef GPUCACHE_LLVMPIPE_RULE_H
#define GPUCACHE_LLVMPIPE_RULE_H

#include "../internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* First and increment of a topology in indices (draw_pt_split_prim). */
static inline void gc_llvmpipe_split_prim(gc_topology t, unsigned* first, unsigned* incr)
{
    switch (t) {
    case GC_POINT_LIST: *first = 1, *incr = 1; break;
    case GC_LINE_LIST: *first = 2, *incr = 2; break;
    case GC_LINE_STRIP:
    case GC_LINE_LOOP: *first = 2, *incr = 1; break;
    case GC_TRIANGLE_LIST: *first = 3, *incr = 3; break;
    case GC_QUAD_LIST: *first = 4, *incr = 4; break;
    default: *first = 3, *incr = 1; break; /* strips, fans, polygons */
    }
}

/* draw_pt_trim_count: whole primitives only. */
static inline uint64_t gc_llvmpipe_trim(uint64_t count, unsigned first, unsigned incr)
{
    if (count < first)
        return 0;
    return count - (count - first) % incr;
}

/* The primitives of each segment of a run of `index_count` indices of topology t cut into
 * segments of at most `segment` indices (draw_split_tmp.h): 0 when the run is one segment.
 * A split line loop's closing line is not counted: *loop_lines gets its other lines (0 for
 * any other run). */
static inline uint64_t gc_llvmpipe_per_segment(gc_topology t, uint64_t index_count, uint32_t segment,
                                               uint64_t* loop_lines)
{
    unsigned first, incr;
    gc_llvmpipe_split_prim(t, &first, &incr);
    const uint64_t count = gc_llvmpipe_trim(index_count, first, incr);
    *loop_lines = 0;
    if (count < first || count <= segment)
        return 0;
    uint64_t seg_max;
    if (t == GC_LINE_LOOP) {
        seg_max = gc_llvmpipe_trim(segment - 1 < count ? segment - 1 : count, first, incr);
        *loop_lines = count - 1;
    } else {
        seg_max = gc_llvmpipe_trim(segment < count ? segment : count, first, incr);
        /* an even number of triangles per strip segment keeps the winding */
        if (t == GC_TRIANGLE_STRIP && seg_max < count && !(((seg_max - first) / incr) & 1))
            seg_max -= incr;
    }
    return (seg_max - first) / incr + 1;
}

/* The table slot of index value `value` in a table of `map` entries (a power of two, the
 * driver's 256, by mask). */
static inline uint32_t gc_llvmpipe_slot(uint32_t value, uint32_t map)
{
    return (map & (map - 1)) == 0 ? value & (map - 1) : value % map;
}

/* A triangle list drawn as one run, a triangle at a time. */
typedef struct gc_llvmpipe_list {
    uint32_t* table;        /* per slot the vertex + 1, 0: empty (map entries) */
    const uint32_t* values; /* each vertex's index value (NULL: its number) */
    uint32_t map;
    uint64_t per_segment; /* gc_llvmpipe_per_segment, 0: one segment */
    uint64_t current;     /* the segment of the last triangle fed, + 1 (0: none yet) */
} gc_llvmpipe_list;

/* Whether primitive k of the list (from 0) starts a segment, which clears the table. */
static inline bool gc_llvmpipe_list_fresh(const gc_llvmpipe_list* m, uint64_t k)
{
    return m->current != (m->per_segment ? k / m->per_segment : 0) + 1;
}

/* The misses of triangle tv if it came next, the table unchanged; `fresh`: it starts a
 * segment (gc_llvmpipe_list_fresh). A corner's miss writes its slot, which the later corners
 * see. */
static inline uint32_t gc_llvmpipe_price3(const gc_llvmpipe_list* m, const uint32_t* tv, bool fresh)
{
    uint32_t slot[3], entry[3], count = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t id = tv[c];
        const uint32_t s = gc_llvmpipe_slot(m->values ? m->values[id] : id, m->map);
        uint32_t held = fresh ? 0 : m->table[s];
        for (uint32_t w = 0; w < count; ++w)
            held = slot[w] == s ? entry[w] : held;
        if (held == id + 1)
            continue;
        slot[count] = s;
        entry[count++] = id + 1;
    }
    return count;
}

/* Feeds triangle tv to the list, in segment `segment` + 1 (gc_llvmpipe_feed3's, for a caller
 * that counts the segments itself); its misses. */
static inline uint32_t gc_llvmpipe_feed3_in(gc_llvmpipe_list* m, const uint32_t* tv, uint64_t segment)
{
    if (m->current != segment) {
        memset(m->table, 0, m->map * sizeof *m->table);
        m->current = segment;
    }
    uint32_t misses = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t id = tv[c];
        const uint32_t s = gc_llvmpipe_slot(m->values ? m->values[id] : id, m->map);
        if (m->table[s] != id + 1) {
            m->table[s] = id + 1;
            misses++;
        }
    }
    return misses;
}

/* Feeds triangle tv as primitive k of the list (k one more than the last one's); its misses. */
static inline uint32_t gc_llvmpipe_feed3(gc_llvmpipe_list* m, const uint32_t* tv, uint64_t k)
{
    return gc_llvmpipe_feed3_in(m, tv, (m->per_segment ? k / m->per_segment : 0) + 1);
}

#endif
