// SPDX-License-Identifier: MIT
/* Helpers shared by the unit tests that hold auto against meshoptimizer (they link it; the
 * others include test_util.h alone). */
#ifndef GPUCACHE_TEST_PEER_H
#define GPUCACHE_TEST_PEER_H

#include "test_util.h"

#include <meshoptimizer.h>

#include "optimize/optimize.h"

/* One mesh's row of "auto against meshopt_optimizeVertexCache" under m, for the list idx of
 * n indices over `vertices`: the invocations (gc_analyze) of meshoptimizer's order added to
 * *peer_sum and of auto --effort 1's to *fast_sum. With with_default, the default effort's
 * order is left in out and its invocations returned; else out holds effort 1's and 0 is
 * returned. */
static inline uint64_t peer_row(const gc_model* m, const uint32_t* idx, size_t n, uint32_t vertices, bool with_default,
                                uint64_t* peer_sum, uint64_t* fast_sum, uint32_t* out)
{
    meshopt_optimizeVertexCache(out, idx, n, vertices);
    *peer_sum += list_cost(m, out, n);
    auto_order(m, idx, n, vertices, 1, 0, 0, out);
    *fast_sum += list_cost(m, out, n);
    if (!with_default)
        return 0;
    auto_order(m, idx, n, vertices, 0, 0, 0, out);
    return list_cost(m, out, n);
}

/* Asserts that `chosen` invocations under m are not above those of meshoptimizer's table
 * order (score_table.c with gc_meshopt_scores) of the tc triangles of idx over `vertices`;
 * that order is left in order. */
static inline void assert_not_above_table(const gc_model* m, const uint32_t* idx, size_t tc, uint32_t vertices,
                                          uint64_t chosen, uint32_t* order)
{
    gc_error err;
    assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, order, &err), GC_OK);
    assert_true(chosen <= order_invocations(m, idx, order, tc));
}

#endif
