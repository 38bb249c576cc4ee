// SPDX-License-Identifier: MIT
/* The invocations of a triangle order under batch:slots,prims (seed 004's data assembler),
 * counted with the rule's step in src/models/batch_rule.h: auto's --effort 1 for a lone
 * batch target compares two orders with it (auto_machine_greedy.c, issue 33). */
#include "optimize.h"
#include "../models/batch_rule.h"

#include <stdlib.h>

gc_status gc_batch_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                              uint32_t prims, const uint32_t* order, uint64_t* cost, gc_error* err)
{
    *cost = 0;
    if (slots < 3)
        return gc_fail(err, GC_ERR_USAGE, "batch: at least 3 slots for a triangle");
    uint32_t* batch_of = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    if (!batch_of)
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the batch count over %u vertices", vertex_count);
    gc_batch_open b = gc_batch_start(slots, prims);
    uint64_t c = 0;
    for (size_t k = 0; k < triangle_count; ++k)
        c += gc_batch_feed3(&b, batch_of, indices + 3 * (size_t)order[k]);
    free(batch_of);
    *cost = c;
    return GC_OK;
}
