// SPDX-License-Identifier: MIT
/* Issue 33 item 3: a lone target's orders made side by side (lone_jobs.c, gc_opt_auto_lone).
 *  - gc_lone_orders keeps, for 1 to 4 threads, the lowest forced order, else the cheapest
 *    scored one, the lowest number among equals, whatever finishes first (orders and costs
 *    made up here, the winner worked out by hand);
 *  - auto's default for the lone targets that run those orders (lru:16, ati-basic,
 *    reuse:32,16,32, direct-position:32, nvidia-kepler, batch) gives the same order for 1, 2,
 *    3 and 4 threads on a hub of 300 triangles around one vertex joined to a strip (the table
 *    orders refuse it: direct-position's greedy is forced, batch's greedy is the fallback),
 *    every triangle kept. */
#include "test_util.h"

#include "optimize/optimize.h"

#include <time.h>

typedef struct made_up {
    uint64_t cost[GC_LONE_ORDERS_MAX];
    int state[GC_LONE_ORDERS_MAX];
} made_up;

/* order k: every entry k; order 0 the slowest, so that the others finish first */
static gc_status made_up_order(void* user, size_t k, unsigned worker, uint32_t* out, uint64_t* cost, int* state,
                               gc_error* err)
{
    (void)worker, (void)err;
    const made_up* m = user;
    if (k == 0) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    for (size_t t = 0; t < 5; ++t)
        out[t] = (uint32_t)k;
    *cost = m->cost[k];
    *state = m->state[k];
    return GC_OK;
}

static void winner_by_number(void** state)
{
    (void)state;
    enum { S = GC_LONE_SCORED, F = GC_LONE_FORCED, N = GC_LONE_SKIPPED };
    static const struct {
        made_up m;
        int winner;
    } cases[] = {
        {{{5, 3, 3, 4}, {S, S, S, S}}, 1}, /* the cheapest, the first of two */
        {{{3, 3, 3, 3}, {S, S, S, S}}, 0}, /* all equal: the first */
        {{{9, 1, 9, 9}, {S, N, S, S}}, 0}, /* a skipped order's cost is not looked at */
        {{{1, 2, 3, 4}, {S, S, F, F}}, 2}, /* the lowest forced, whatever the costs */
        {{{1, 2, 3, 4}, {N, N, N, N}}, -1}, /* none */
        {{{7, 6, 5, 4}, {N, S, N, S}}, 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        for (unsigned threads = 1; threads <= 4; ++threads) {
            uint32_t order[5] = {99, 99, 99, 99, 99};
            int chosen = -2;
            gc_error err;
            assert_int_equal(
                gc_lone_orders(threads, GC_LONE_ORDERS_MAX, 5, made_up_order, (void*)&cases[c].m, order, &chosen, &err),
                GC_OK);
            assert_int_equal(chosen, cases[c].winner);
            const uint32_t expect = cases[c].winner < 0 ? 0 : (uint32_t)cases[c].winner; /* none: order 0's */
            for (size_t t = 0; t < 5; ++t)
                assert_int_equal(order[t], expect);
        }
    }
}

static void same_for_every_thread_count_on_a_hub(void** state)
{
    (void)state;
    enum { FAN = 300, STRIP = 200, N = FAN + STRIP };
    uint32_t idx[3 * N];
    for (uint32_t t = 0; t < FAN; ++t) { /* a closed fan around vertex 0, out of order */
        idx[3 * t] = 0;
        idx[3 * t + 1] = 1 + (t * 7) % FAN;
        idx[3 * t + 2] = 1 + ((t * 7) % FAN + 1) % FAN;
    }
    for (uint32_t t = 0; t < STRIP; ++t) { /* a strip from the fan's rim on */
        const uint32_t a = t == 0 ? 1 : FAN + t, b = FAN + 1 + t, c = t < 2 ? 2 : FAN + t - 1;
        idx[3 * (FAN + t)] = a, idx[3 * (FAN + t) + 1] = b, idx[3 * (FAN + t) + 2] = c;
    }
    const uint32_t vertices = FAN + STRIP + 1;
    static const char* const lone[] = {"lru:16", "ati-basic", "reuse:32,16,32", "direct-position:32",
                                       "nvidia-kepler", "batch"};
    for (size_t k = 0; k < sizeof lone / sizeof *lone; ++k) {
        gc_model target = model_of(lone[k]);
        assert_auto_same_for_threads(idx, 3 * N, vertices, &target, 4, "a hub");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(winner_by_number),
        cmocka_unit_test(same_for_every_thread_count_on_a_hub),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
