// SPDX-License-Identifier: MIT
/* What the tests of the greedies' own loops share: the machine greedy against its gc_sim
 * form (test_llvmpipe_greedy.c, test_llvmpipe_pipe.c), and a maker thread for the tests of
 * passes fed an order as it is made (gc_order_feed:
 * test_direct_position_pipe.c, test_llvmpipe_pipe.c): it copies a finished order into the
 * buffer the pass reads a few hundred triangles at a time, in uneven steps, publishing each,
 * and ends after `stop` triangles (short of the order: a maker that failed). */
#ifndef GPUCACHE_TEST_FEED_H
#define GPUCACHE_TEST_FEED_H

#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "optimize/optimize.h"

typedef struct maker {
    const uint32_t* source; /* the finished order */
    uint32_t* order;        /* the buffer the pass reads */
    size_t stop;            /* publish this many, then end */
    gc_order_feed* feed;
} maker;

static inline void* make(void* arg)
{
    maker* m = arg;
    size_t written = 0, step = 1;
    while (written < m->stop) {
        step = (step * 37 + 11) % 700 + 1;
        size_t k = written + step < m->stop ? written + step : m->stop;
        memcpy(m->order + written, m->source + written, (k - written) * sizeof *m->order);
        written = k;
        atomic_store_explicit(&m->feed->written, written, memory_order_release);
        sched_yield();
    }
    atomic_store_explicit(&m->feed->ended, 1, memory_order_release);
    return NULL;
}

/* The machine greedy (its own loop) against the same greedy driven by gc_sim, both
 * numberings, recent 3, weight `beta`: the same order (want, got: tc entries each). */
static inline void assert_machine_greedy_as_sim(const uint32_t* idx, size_t tc, uint32_t vertices, const gc_model* m,
                                                uint64_t position, uint64_t length, float beta, uint32_t* want,
                                                uint32_t* got, const char* what, int placed)
{
    gc_error err;
    for (int first_use = 0; first_use < 2; ++first_use) {
        assert_int_equal(
            gc_opt_machine_greedy_sim(idx, tc, vertices, m, position / 3, length, first_use, beta, 3, want, &err),
            GC_OK);
        assert_int_equal(gc_opt_machine_greedy(idx, tc, vertices, m, position / 3, length, first_use, beta, 3, got, &err),
                         GC_OK);
        if (memcmp(want, got, tc * sizeof *got))
            fail_msg("%s, %s, placed %d, first use %d: not the machine greedy's order", what, m->name, placed,
                     first_use);
    }
}

#endif
