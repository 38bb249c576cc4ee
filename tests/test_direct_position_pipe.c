// SPDX-License-Identifier: MIT
/* Issue 33: direct-position's default chain pipelined (src/optimize/direct_position_pipe.c):
 * meshoptimizer's table order made on one thread, published as it is made (gc_order_feed),
 * and the window pass of direct_position_window.c reading its prefix on another.
 *
 *  - The pass fed by a maker thread that copies a finished order into the buffer a few
 *    triangles at a time (sizes from a fixed sequence, 1 to 700, yielding in between) gives
 *    the order the pass gives over the whole order (gc_opt_direct_position_window, tested
 *    in test_direct_position_window): cow and fandisk, stored and shuffled, windows 3 and 16.
 *  - A maker that ends short (half the order published, then `ended`): the pass stops,
 *    *aborted, GC_OK, the buffer as the maker left it.
 *  - gc_opt_direct_position_table_window with 1 to 4 threads gives gc_opt_score_table's
 *    order followed by gc_opt_direct_position_window's, on the same meshes and on a grid of
 *    8,192 triangles placed at stream positions 0 and 15 (above the pipeline's threshold).
 *  - gc_dp_order_cost of the table order: gc_analyze's invocations under direct-position:32.
 *  - A hub (a fan of 300 triangles round one vertex, over SCORE_TABLE_MAX_VALENCE, then a
 *    strip of 5,000): GC_ERR_LIMIT with 1 and with 2 threads, as gc_opt_score_table's. */
#include "test_util.h"

#include <pthread.h>
#include <sched.h>

#include "optimize/optimize.h"

#include "test_feed.h"

static uint32_t vertices_of(const uint32_t* idx, size_t n)
{
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i)
        v = idx[i] + 1 > v ? idx[i] + 1 : v;
    return v;
}

/* The pass fed as the maker thread publishes `stop` triangles of `source`; its result in out. */
static bool fed_pass(const uint32_t* idx, size_t tc, uint32_t vc, uint32_t window, const uint32_t* source,
                     size_t stop, uint32_t* out)
{
    gc_order_feed feed;
    feed_open(&feed);
    for (size_t t = 0; t < tc; ++t)
        out[t] = UINT32_MAX;
    maker m = {source, out, stop, &feed};
    pthread_t id;
    assert_int_equal(pthread_create(&id, NULL, make, &m), 0);
    bool aborted = false;
    gc_error err;
    assert_int_equal(gc_opt_direct_position_window_fed(idx, tc, vc, 32, 0, window, out, &feed, &aborted, NULL, &err),
                     GC_OK);
    pthread_join(id, NULL);
    return aborted;
}

static void check_mesh(const uint32_t* idx, size_t n)
{
    const size_t tc = n / 3;
    const uint32_t vc = vertices_of(idx, n);
    uint32_t* table = test_indices(tc);
    uint32_t* whole = test_indices(tc);
    uint32_t* fed = test_indices(tc);
    gc_error err;
    assert_int_equal(gc_opt_score_table(idx, tc, vc, &gc_meshopt_scores, table, &err), GC_OK);
    { /* gc_dp_order_cost: the model's own count of the table order (gc_analyze) */
        gc_model model;
        assert_int_equal(gc_model_parse("direct-position:32", &model, &err), GC_OK);
        uint32_t* list = test_indices(n);
        for (size_t t = 0; t < tc; ++t)
            memcpy(list + 3 * t, idx + 3 * (size_t)table[t], 3 * sizeof *list);
        gc_draw draw = {list, n, GC_TRIANGLE_LIST, 0, 0};
        gc_stats st;
        assert_int_equal(gc_analyze(&model, &draw, NULL, &st, &err), GC_OK);
        uint64_t cost = 0;
        assert_int_equal(gc_dp_order_cost(idx, tc, vc, 32, 0, table, &cost, &err), GC_OK);
        assert_int_equal(cost, st.invocations);
        free(list);
    }
    static const uint32_t windows[] = {3, 16};
    for (int w = 0; w < 2; ++w) {
        memcpy(whole, table, tc * sizeof *whole);
        assert_int_equal(
            gc_opt_direct_position_window(idx, tc, vc, 32, 0, windows[w], whole, NULL, NULL, &err), GC_OK);
        assert_false(fed_pass(idx, tc, vc, windows[w], table, tc, fed));
        assert_memory_equal(fed, whole, tc * sizeof *fed);
    }
    /* a maker that fails half way: nothing past what it wrote, the half as it was */
    assert_true(fed_pass(idx, tc, vc, 16, table, tc / 2, fed));
    assert_memory_equal(fed, table, tc / 2 * sizeof *fed);
    for (size_t t = tc / 2; t < tc; ++t)
        assert_int_equal(fed[t], UINT32_MAX);
    /* the pipeline against the chain, 1 to 4 threads, two places in the stream */
    for (uint64_t at = 0; at <= 15; at += 15) {
        memcpy(whole, table, tc * sizeof *whole);
        assert_int_equal(gc_opt_direct_position_window(idx, tc, vc, 32, at, 16, whole, NULL, NULL, &err), GC_OK);
        for (unsigned threads = 1; threads <= 4; ++threads) {
            assert_int_equal(gc_opt_direct_position_table_window(idx, tc, vc, 32, at, 16, threads, fed, &err), GC_OK);
            assert_memory_equal(fed, whole, tc * sizeof *fed);
        }
    }
    free(table), free(whole), free(fed);
}

static void corpus_meshes(void** state)
{
    (void)state;
    static const char* const meshes[] = {"cow.obj", "fandisk.obj"};
    for (corpus_rows r = corpus_rows_of(meshes, 2, 33); corpus_rows_next(&r);)
        check_mesh(r.idx, r.n);
}

static void grid(void** state)
{
    (void)state;
    size_t n = 0;
    uint32_t* idx = rowmajor_grid(64, 64, &n);
    check_mesh(idx, n);
    free(idx);
}

static void hub(void** state)
{
    (void)state;
    enum { FAN = 300, STRIP = 5000 };
    const size_t tc = FAN + STRIP;
    uint32_t* idx = test_indices(3 * tc);
    for (uint32_t t = 0; t < FAN; ++t) /* vertex 0 in all of them */
        idx[3 * t] = 0, idx[3 * t + 1] = 1 + t, idx[3 * t + 2] = 2 + t;
    for (uint32_t t = 0; t < STRIP; ++t) {
        const uint32_t b = FAN + 2 + t;
        idx[3 * (FAN + t)] = b, idx[3 * (FAN + t) + 1] = b + 1, idx[3 * (FAN + t) + 2] = b + 2;
    }
    uint32_t* out = test_indices(tc);
    gc_error err;
    for (unsigned threads = 1; threads <= 2; ++threads)
        assert_int_equal(gc_opt_direct_position_table_window(idx, tc, FAN + STRIP + 4, 32, 0, 16, threads, out, &err),
                         GC_ERR_LIMIT);
    free(idx), free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_meshes),
        cmocka_unit_test(grid),
        cmocka_unit_test(hub),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
