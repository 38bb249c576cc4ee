// SPDX-License-Identifier: MIT
/* Issue 33: warp_refine.c's two passes between each warp and the next k (k >= 2) on two
 * threads, the second pass behind the first (gc_opt_warp_refine_threads): the order must be
 * the one-thread refinement's (gc_opt_warp_refine_ex, tested in test_warp_refine) for 1 to 4
 * threads, with k = 2, 3 and 16, warps of 32 x 32 (nvidia-pascal) and 64 x 126, on
 * meshoptimizer's table order of cow and fandisk (stored and shuffled) and of a 64 x 64 grid,
 * with GC_WARP_REFINE_KEEP and without; and on an order already refined twice, where the first
 * pass may swap nothing (the one-thread loop then stops after it).
 * gc_opt_warp_refine_made (the order's maker and the two passes as a pipeline, nvidia-pascal's
 * default on several threads): the maker's order as it made it, and the refined order as
 * gc_opt_warp_refine_ex's two passes make of that order, for 1 to 4 threads, on the same rows
 * and the grid; a maker that fails half-way: its status, with every thread count, and no wait
 * past its end. */
#include "test_util.h"

#include "optimize/optimize.h"
#include "optimize/auto_warps.h"

static void check(const uint32_t* idx, size_t n, const char* name)
{
    const size_t tc = n / 3;
    const uint32_t vc = index_bound(idx, n);
    uint32_t* table = test_indices(tc);
    uint32_t* one = test_indices(tc);
    uint32_t* many = test_indices(tc);
    gc_error err;
    assert_int_equal(gc_opt_score_table(idx, tc, vc, &gc_meshopt_scores, table, &err), GC_OK);
    static const uint32_t warp[][2] = {{32, 32}, {64, 126}};
    static const unsigned next[] = {2, 3, 16};
    for (int w = 0; w < 2; ++w)
        for (int k = 0; k < 3; ++k)
            for (int keep = 0; keep < 2; ++keep)
                for (int again = 0; again < 2; ++again) {
                    const unsigned flags = GC_WARP_REFINE_NEXT(next[k]) | (keep ? GC_WARP_REFINE_KEEP : 0);
                    memcpy(one, table, tc * sizeof *one);
                    for (int r = 0; r <= again; ++r)
                        assert_int_equal(
                            gc_opt_warp_refine_ex(idx, tc, vc, warp[w][0], warp[w][1], 2, flags, one, &err), GC_OK);
                    for (unsigned threads = 1; threads <= 4; ++threads) {
                        memcpy(many, table, tc * sizeof *many);
                        if (again)
                            assert_int_equal(
                                gc_opt_warp_refine_ex(idx, tc, vc, warp[w][0], warp[w][1], 2, flags, many, &err),
                                GC_OK);
                        assert_int_equal(gc_opt_warp_refine_threads(idx, tc, vc, warp[w][0], warp[w][1], 2, flags,
                                                                    threads, many, &err),
                                         GC_OK);
                        if (memcmp(one, many, tc * sizeof *one))
                            fail_msg("%s: warps %u x %u, next %u, keep %d, again %d: %u threads differ", name,
                                     warp[w][0], warp[w][1], next[k], keep, again, threads);
                    }
                }
    free(table), free(one), free(many);
}

/* the maker: auto's greedy for nvidia-pascal (meshopt:32,32,32), its first weights */
typedef struct maker {
    const uint32_t* idx;
    size_t tc;
    uint32_t vc;
    int fail; /* publish half the order, then fail */
} maker;

static gc_status make(void* user, uint32_t* order, gc_order_feed* feed, gc_error* err)
{
    const maker* m = user;
    const gc_fifo_machine fm = {32, 32, 32, true};
    if (!m->fail)
        return gc_opt_fifo_greedy_fed(m->idx, m->tc, m->vc, &fm, 0.75f, 0.1f, 7, order, feed, err);
    for (size_t t = 0; t < m->tc / 2; ++t)
        order[t] = (uint32_t)t;
    atomic_store_explicit(&feed->written, m->tc / 2, memory_order_release);
    atomic_store_explicit(&feed->ended, 1, memory_order_release);
    return gc_fail(err, GC_ERR_NOMEM, "the maker failed on purpose");
}

static void check_made(const uint32_t* idx, size_t n, const char* name)
{
    const size_t tc = n / 3;
    const uint32_t vc = index_bound(idx, n);
    uint32_t* greedy = test_indices(tc);
    uint32_t* one = test_indices(tc);
    uint32_t* made = test_indices(tc);
    uint32_t* refined = test_indices(tc);
    gc_error err;
    const gc_fifo_machine fm = {32, 32, 32, true};
    assert_int_equal(gc_opt_fifo_greedy(idx, tc, vc, &fm, 0.75f, 0.1f, 7, greedy, &err), GC_OK);
    static const uint32_t warp[][2] = {{32, 32}, {64, 126}};
    static const unsigned next[] = {2, 3, 16};
    maker m = {idx, tc, vc, 0};
    for (int w = 0; w < 2; ++w)
        for (int k = 0; k < 3; ++k) {
            memcpy(one, greedy, tc * sizeof *one);
            assert_int_equal(gc_opt_warp_refine_ex(idx, tc, vc, warp[w][0], warp[w][1], 2,
                                                   GC_WARP_REFINE_NEXT(next[k]), one, &err),
                             GC_OK);
            for (unsigned threads = 1; threads <= 4; ++threads) {
                memset(made, 0xFF, tc * sizeof *made);
                memset(refined, 0xFF, tc * sizeof *refined);
                assert_int_equal(gc_opt_warp_refine_made(idx, tc, vc, warp[w][0], warp[w][1], next[k], threads, make,
                                                         &m, made, refined, &err),
                                 GC_OK);
                if (memcmp(made, greedy, tc * sizeof *made))
                    fail_msg("%s: the maker's order, %u threads, differs from the greedy's", name, threads);
                if (memcmp(refined, one, tc * sizeof *refined))
                    fail_msg("%s: warps %u x %u, next %u: %u threads differ from the two passes", name, warp[w][0],
                             warp[w][1], next[k], threads);
            }
        }
    m.fail = 1;
    for (unsigned threads = 1; threads <= 4; ++threads) {
        memset(&err, 0, sizeof err);
        assert_int_equal(
            gc_opt_warp_refine_made(idx, tc, vc, 32, 32, 3, threads, make, &m, made, refined, &err), GC_ERR_NOMEM);
        assert_non_null(strstr(err.message, "on purpose"));
    }
    free(greedy), free(one), free(made), free(refined);
}

static void corpus(void** state)
{
    (void)state;
    static const char* const meshes[] = {"cow.obj", "fandisk.obj"};
    for (corpus_rows r = corpus_rows_of(meshes, 2, 5); corpus_rows_next(&r);)
        check(r.idx, r.n, r.what), check_made(r.idx, r.n, r.what);
}

static void grid(void** state)
{
    (void)state;
    size_t n = 0;
    uint32_t* idx = rowmajor_grid(64, 64, &n);
    check(idx, n, "grid");
    check_made(idx, n, "grid");
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus),
        cmocka_unit_test(grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
