// SPDX-License-Identifier: MIT
/* What the tests of the greedies' own loops share: the machine greedy against its gc_sim
 * form and the list-form llvmpipe greedy against the target-aware one (test_llvmpipe_greedy.c,
 * test_llvmpipe_pipe.c), and a maker thread for the tests of
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

/* A feed with nothing written and not ended. */
static inline void feed_open(gc_order_feed* feed)
{
    atomic_init(&feed->written, 0);
    atomic_init(&feed->ended, 0);
}

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

/* For each model spec of specs: the list-form greedy (gc_opt_llvmpipe_greedy; with `counted`
 * its gc_opt_llvmpipe_greedy_fed form, whose own count must be gc_analyze's of its order) gives
 * the order of the target-aware greedy through the model's gc_sim machine
 * (gc_opt_target_greedy), the list alone and 600 indices into a draw 1200 longer than it,
 * under the weights (1, 0.2, 8), (0.75, 0.1, 7) and (1.5, 0, last_recent); then
 * assert_machine_greedy_as_sim with weight `beta`. */
static inline void assert_list_greedy_as_target(const uint32_t* idx, size_t tc, uint32_t vertices,
                                                const char* const* specs, size_t spec_count, uint32_t last_recent,
                                                float beta, bool counted, const char* what)
{
    uint32_t* want = test_indices(tc);
    uint32_t* got = test_indices(tc);
    gc_error err;
    for (size_t s = 0; s < spec_count; ++s) {
        const gc_model m = model_of(specs[s]);
        for (int placed = 0; placed < 2; ++placed) {
            /* alone, or 600 indices into a draw 1200 longer than the list */
            const gc_stream_place place = {placed ? 600 : 0, placed ? 3 * (uint64_t)tc + 1200 : 0, NULL};
            const float weights[][3] = {{1.0f, 0.2f, 8}, {0.75f, 0.1f, 7}, {1.5f, 0.0f, (float)last_recent}};
            for (size_t w = 0; w < 3; ++w) {
                assert_int_equal(gc_opt_target_greedy(idx, tc, vertices, &m, 1, &place, weights[w][0], weights[w][1],
                                                      (uint32_t)weights[w][2], want, &err),
                                 GC_OK);
                uint64_t fed = 0;
                if (counted)
                    assert_int_equal(gc_opt_llvmpipe_greedy_fed(idx, tc, vertices, &m, place.length, false, true,
                                                                weights[w][0], (uint32_t)weights[w][2], got, &fed,
                                                                NULL, &err),
                                     GC_OK);
                else
                    assert_int_equal(gc_opt_llvmpipe_greedy(idx, tc, vertices, &m, place.length, false, true,
                                                            weights[w][0], (uint32_t)weights[w][2], got, &err),
                                     GC_OK);
                if (memcmp(want, got, tc * sizeof *got))
                    fail_msg("%s, %s, placed %d, weights %zu: not the target greedy's order", what, specs[s], placed,
                             w);
                /* (direct-value, the counted one here, keys by value alone: its count does not
                 * depend on the place) */
                if (counted)
                    assert_int_equal(fed, order_invocations(&m, idx, got, tc));
            }
            assert_machine_greedy_as_sim(idx, tc, vertices, &m, place.position, place.length, beta, want, got, what,
                                         placed);
        }
    }
    free(want);
    free(got);
}

#endif
