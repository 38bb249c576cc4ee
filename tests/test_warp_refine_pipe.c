// SPDX-License-Identifier: MIT
/* Issue 33: warp_refine.c's two passes between each warp and the next k (k >= 2) on two
 * threads, the second pass behind the first (gc_opt_warp_refine_threads): the order must be
 * the one-thread refinement's (gc_opt_warp_refine_ex, tested in test_warp_refine) for 1 to 4
 * threads, with k = 2, 3 and 16, warps of 32 x 32 (nvidia-pascal) and 64 x 126, on
 * meshoptimizer's table order of cow and fandisk (stored and shuffled) and of a 64 x 64 grid,
 * with GC_WARP_REFINE_KEEP and without; and on an order already refined twice, where the first
 * pass may swap nothing (the one-thread loop then stops after it). */
#include "test_util.h"

#include "optimize/optimize.h"

static void check(const uint32_t* idx, size_t n, const char* name)
{
    const size_t tc = n / 3;
    uint32_t vc = 0;
    for (size_t i = 0; i < n; ++i)
        vc = idx[i] + 1 > vc ? idx[i] + 1 : vc;
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

static void corpus(void** state)
{
    (void)state;
    static const char* const meshes[] = {"cow.obj", "fandisk.obj"};
    for (corpus_rows r = corpus_rows_of(meshes, 2, 5); corpus_rows_next(&r);)
        check(r.idx, r.n, r.what);
}

static void grid(void** state)
{
    (void)state;
    size_t n = 0;
    uint32_t* idx = rowmajor_grid(64, 64, &n);
    check(idx, n, "grid");
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
