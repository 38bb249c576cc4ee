// SPDX-License-Identifier: MIT
/* batch:slots=S,prims=P, seed 004's data assembler (NVIDIA patent 8,237,725), its step stated
 * once: primitives are gathered into batches of S vertex slots; a primitive's distinct
 * corners are looked up in the open batch and only those not in it take a slot (one vertex
 * shader invocation each); a primitive whose new corners do not fit in the free slots, or
 * one that comes when the batch already holds its P primitives (P > 0), flushes the batch
 * and starts the next, where all its distinct corners are new; a batch whose slots are all
 * full is flushed at once. A flush of an empty batch (no slot, no primitive) does nothing.
 * So a vertex used again after its batch closed costs again.
 *
 * The state: per vertex the number of the batch holding it (0: none; the open one is
 * `current`, from 1), and the open batch's filled slots and primitives. The model
 * (batch.c: its simulator and its gc_sim machine, which add the state changes and map mode
 * and the statistics around the step) decides with gc_batch_fits; the triangle-list form
 * below (gc_batch_price3, gc_batch_feed3) drives auto's machine greedy
 * (src/optimize/machine_inline.h) and gc_batch_order_cost (src/optimize/batch_order_cost.c),
 * whose counts are gc_analyze's (tests/test_batch_rule.c). */
#ifndef GPUCACHE_BATCH_RULE_H
#define GPUCACHE_BATCH_RULE_H

#include <stdbool.h>
#include <stdint.h>

/* Whether a primitive with `misses` distinct corners not in the open batch goes into it: the
 * batch (`fill` slots and `prims` primitives held) is below its primitive limit (0: none)
 * and has the free slots for them; otherwise the batch flushes first. */
static inline bool gc_batch_fits(uint32_t fill, uint32_t prims, uint32_t slots, uint32_t prim_limit, uint32_t misses)
{
    return !(prim_limit && prims == prim_limit) && fill + misses <= slots;
}

/* The open batch of a triangle list (no state changes). */
typedef struct gc_batch_open {
    uint32_t slots, prim_limit; /* S >= 3, P (0: no limit) */
    uint32_t current;           /* the open batch's number, from 1 */
    uint32_t fill, prims;       /* its filled slots and primitives */
} gc_batch_open;

static inline gc_batch_open gc_batch_start(uint32_t slots, uint32_t prim_limit)
{
    const gc_batch_open b = {slots, prim_limit, 1, 0, 0};
    return b;
}

/* The distinct corners of triangle tv not in the open batch. */
static inline uint32_t gc_batch_misses3(const gc_batch_open* b, const uint32_t* batch_of, const uint32_t* tv)
{
    const uint32_t x = tv[0], y = tv[1], z = tv[2], cur = b->current;
    return (batch_of[x] != cur) + (y != x && batch_of[y] != cur) + (z != x && z != y && batch_of[z] != cur);
}

/* The invocations triangle tv would cost now, the state unchanged: its new corners when they
 * fit, else all its distinct corners (in the next batch). */
static inline uint32_t gc_batch_price3(const gc_batch_open* b, const uint32_t* batch_of, const uint32_t* tv)
{
    const uint32_t misses = gc_batch_misses3(b, batch_of, tv);
    if (gc_batch_fits(b->fill, b->prims, b->slots, b->prim_limit, misses))
        return misses;
    return 1u + (tv[1] != tv[0]) + (tv[2] != tv[0] && tv[2] != tv[1]);
}

/* The open batch flushed (when it holds something): the next one opens. */
static inline void gc_batch_flush(gc_batch_open* b)
{
    if (b->fill || b->prims)
        b->current++, b->fill = 0, b->prims = 0;
}

/* Feeds triangle tv under the rule; its invocations. */
static inline uint32_t gc_batch_feed3(gc_batch_open* b, uint32_t* batch_of, const uint32_t* tv)
{
    uint32_t misses = gc_batch_misses3(b, batch_of, tv);
    if (!gc_batch_fits(b->fill, b->prims, b->slots, b->prim_limit, misses)) {
        gc_batch_flush(b);
        misses = gc_batch_misses3(b, batch_of, tv);
    }
    batch_of[tv[0]] = batch_of[tv[1]] = batch_of[tv[2]] = b->current;
    b->fill += misses;
    b->prims++;
    if (b->fill >= b->slots)
        gc_batch_flush(b);
    return misses;
}

#endif
