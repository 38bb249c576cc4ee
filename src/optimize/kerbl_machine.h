// SPDX-License-Identifier: MIT
/* nv-dx's and nv-gl's machine on an order's own words (src/models/kerbl_rule.h's step), a
 * list drawn alone: the batch greedy for them (batch_greedy_kerbl.c) feeds it as it places
 * triangles, gc_kerbl_order_cost along an order, and the flushed Forsyth order
 * (forsyth_flush.c, gc_opt_forsyth_flush_kerbl) as it emits them, so that each counts the
 * target's invocations (gc_analyze's count) without a gc_sim. */
#ifndef GPUCACHE_KERBL_MACHINE_H
#define GPUCACHE_KERBL_MACHINE_H

#include "../models/kerbl_rule.h"
#include "optimize.h"

typedef struct gc_kerbl_machine {
    gc_kerbl_rule rule;
    uint32_t* words;   /* per vertex: the batch that last referenced it, the position (zeroed) */
    uint32_t current;  /* the open batch, from 1 */
    uint32_t cbatch;   /* its indices */
    uint32_t cuniques; /* its invocations */
    uint32_t progress; /* the next corner's position */
    uint64_t invocations;
} gc_kerbl_machine;

/* The machine of nv-dx or nv-gl target `t` (the caller checks the family), on `words`. It
 * follows Kerbl's rule without nv-gl's pages (page_shift 0): auto scores a paged target (the
 * H100) with its model, and counts with this machine only where there are none. */
static inline gc_kerbl_machine gc_kerbl_machine_of(const gc_model* t, uint32_t* words)
{
    const gc_kerbl_machine m = {{t->family == GC_MODEL_NV_DX ? GC_KERBL_DX : GC_KERBL_GL, t->p[2], t->p[0], t->p[1], 0},
                                words, 1, 0, 0, 0, 0};
    return m;
}

/* Feeds triangle f (its lookups done: adds, cut). */
static inline void gc_kerbl_machine_feed(gc_kerbl_machine* m, const uint32_t* f, uint32_t adds, bool cut)
{
    if (cut) {
        m->current++;
        m->cbatch = m->cuniques = 0;
    }
    for (unsigned i = 0; i < 3; ++i) {
        m->words[2 * (size_t)f[i]] = m->current;
        m->words[2 * (size_t)f[i] + 1] = m->progress + i;
    }
    m->cuniques += adds;
    m->cbatch += 3;
    m->progress += 3;
    m->invocations += adds;
}

/* Looks triangle f up and feeds it. */
static inline void gc_kerbl_machine_add(gc_kerbl_machine* m, const uint32_t* f)
{
    bool miss[3], cut;
    const uint32_t adds = gc_kerbl_lookup(&m->rule, m->words, f, 3, m->progress, m->current, m->cbatch, m->cuniques,
                                          miss, &cut);
    gc_kerbl_machine_feed(m, f, adds, cut);
}

#endif
