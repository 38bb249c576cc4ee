// SPDX-License-Identifier: MIT
/* Issue 33 item 3: the default effort of a lone llvmpipe or direct-value target, which is one
 * greedy, with less on its chain (src/optimize/llvmpipe_pipe.c, auto_machine_greedy.c, auto.c).
 *
 *  - direct-value:N is llvmpipe's table of N entries without segments: the list-form greedy
 *    (gc_opt_llvmpipe_greedy) gives, for direct-value:64 and direct-value:7, the order of the
 *    target-aware greedy through the model's gc_sim machine (gc_opt_target_greedy, any gamma)
 *    and of the machine greedy through gc_sim (gc_opt_machine_greedy_sim, with and without
 *    first-use numbers), on corpus meshes stored and shuffled with degenerate triangles
 *    added, alone and inside a longer draw.
 *  - The greedy's own count as it feeds its table (gc_opt_llvmpipe_greedy_fed's *fed) is
 *    gc_analyze's invocations of its order (the model's own simulator), for direct-value
 *    anywhere in a draw and for llvmpipe drawn alone; publishing the order to a feed changes
 *    nothing, and the feed ends with the whole order written.
 *  - The polish fed by a maker thread that publishes a finished greedy order a few triangles
 *    at a time (1 to 700, yielding between) is gc_opt_earlier_first's over the whole order,
 *    and its count is gc_analyze's of the polished order; a maker that ends short: *aborted,
 *    GC_OK.
 *  - auto's default for llvmpipe, llvmpipe:segment=96,map=16 and direct-value:64 gives the
 *    same output with 1, 2, 3 and 4 threads (with 2 or more the polish is a job beside the
 *    greedy from 4,096 triangles), on cow (beside the machine greedy's job) and
 *    stanford-bunny (without it), stored and shuffled. */
#include "test_util.h"
#include "test_feed.h"

#include <pthread.h>
#include <sched.h>

#include "optimize/optimize.h"

static void direct_value_greedies(void** state)
{
    (void)state;
    const char* const meshes[] = {"cow.obj", "suzanne.obj", "woody.obj"};
    const char* const specs[] = {"direct-value:64", "direct-value:7"};
    for (corpus_rows r = corpus_rows_degenerate(meshes, 3, 5, 40); corpus_rows_next(&r);)
        assert_list_greedy_as_target(r.idx, r.tc, r.vertices, specs, 2, 3, 1.5f, true, r.what);
}

/* llvmpipe's greedy on row r for the list drawn alone (the weights auto gives it), in out. */
static void greedy_alone(const corpus_rows* r, const gc_model* m, uint32_t* out)
{
    gc_error err;
    assert_int_equal(gc_opt_llvmpipe_greedy(r->idx, r->tc, r->vertices, m, 0, false, true, 1.0f, 10, out, &err),
                     GC_OK);
}

/* llvmpipe's greedy: its count is gc_analyze's for the list drawn alone; the feed publishes
 * the same order and ends complete. */
static void llvmpipe_counts(void** state)
{
    (void)state;
    const char* const names[] = {"cow.obj", "fandisk.obj"};
    const char* const specs[] = {"llvmpipe", "llvmpipe:segment=96,map=16", "llvmpipe:segment=300,map=100"};
    for (corpus_rows r = corpus_rows_of(names, 2, 11); corpus_rows_next(&r);) {
        uint32_t* plain = test_indices(r.tc);
        uint32_t* fed_order = test_indices(r.tc);
        gc_error err;
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            const gc_model m = model_of(specs[s]);
            greedy_alone(&r, &m, plain);
            gc_order_feed feed;
            feed_open(&feed);
            uint64_t fed = 0;
            assert_int_equal(gc_opt_llvmpipe_greedy_fed(r.idx, r.tc, r.vertices, &m, 0, false, true, 1.0f, 10,
                                                        fed_order, &fed, &feed, &err),
                             GC_OK);
            if (memcmp(plain, fed_order, r.tc * sizeof *plain))
                fail_msg("%s, %s: the fed greedy's order differs", r.what, specs[s]);
            assert_int_equal(atomic_load(&feed.written), r.tc);
            assert_int_equal(atomic_load(&feed.ended), 1);
            assert_int_equal(fed, order_invocations(&m, r.idx, fed_order, r.tc));
        }
        free(plain);
        free(fed_order);
    }
}


/* The polish reading `source` as a maker thread publishes `stop` triangles of it. */
static bool fed_polish(const uint32_t* idx, size_t tc, uint32_t vc, const gc_model* m, uint32_t piece, uint32_t first,
                       const uint32_t* source, size_t stop, uint32_t* out, uint64_t* cost)
{
    gc_order_feed feed;
    feed_open(&feed);
    uint32_t* in = test_indices(tc);
    for (size_t t = 0; t < tc; ++t)
        in[t] = out[t] = UINT32_MAX;
    maker mk = {source, in, stop, &feed};
    pthread_t id;
    assert_int_equal(pthread_create(&id, NULL, make, &mk), 0);
    bool aborted = false;
    gc_error err;
    assert_int_equal(gc_llvmpipe_polish_fed(idx, tc, vc, m, piece, first, in, &feed, out, cost, &aborted, &err), GC_OK);
    pthread_join(id, NULL);
    free(in);
    return aborted;
}

static void polish_fed(void** state)
{
    (void)state;
    const char* const names[] = {"cow.obj", "fandisk.obj"};
    const char* const specs[] = {"llvmpipe", "llvmpipe:segment=96,map=16"};
    for (corpus_rows r = corpus_rows_of(names, 2, 13); corpus_rows_next(&r);) {
        uint32_t* greedy = test_indices(r.tc);
        uint32_t* want = test_indices(r.tc);
        uint32_t* got = test_indices(r.tc);
        gc_error err;
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            const gc_model m = model_of(specs[s]);
            greedy_alone(&r, &m, greedy);
            /* pieces of the segment's triangles (auto's), and of 50 with a first of 17 */
            const uint32_t pieces[][2] = {{m.p[0] / 3, m.p[0] / 3}, {50, 17}};
            for (size_t p = 0; p < 2; ++p) {
                memcpy(want, greedy, r.tc * sizeof *want);
                assert_int_equal(
                    gc_opt_earlier_first(r.idx, r.tc, r.vertices, pieces[p][0], pieces[p][1], want, &err), GC_OK);
                uint64_t cost = 0;
                assert_false(fed_polish(r.idx, r.tc, r.vertices, &m, pieces[p][0], pieces[p][1], greedy, r.tc, got,
                                        &cost));
                if (memcmp(want, got, r.tc * sizeof *got))
                    fail_msg("%s, %s, pieces %zu: not gc_opt_earlier_first's order", r.what, specs[s], p);
                assert_int_equal(cost, order_invocations(&m, r.idx, got, r.tc));
                /* the maker ends half way: aborted, nothing counted */
                assert_true(fed_polish(r.idx, r.tc, r.vertices, &m, pieces[p][0], pieces[p][1], greedy, r.tc / 2, got,
                                       &cost));
                assert_int_equal(cost, 0);
            }
        }
        free(greedy);
        free(want);
        free(got);
    }
}

/* auto's default output for 1 to 4 threads, against one thread. */
static void auto_threads(void** state)
{
    (void)state;
    const char* const names[] = {"cow.obj", "stanford-bunny.obj"};
    const char* const specs[] = {"llvmpipe", "llvmpipe:segment=96,map=16", "direct-value:64"};
    for (corpus_rows r = corpus_rows_of(names, 2, 17); corpus_rows_next(&r);)
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            const gc_model m = model_of(specs[s]);
            assert_auto_same_for_threads(r.idx, r.n, r.vertices, &m, 4, r.what);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(direct_value_greedies),
        cmocka_unit_test(llvmpipe_counts),
        cmocka_unit_test(polish_fed),
        cmocka_unit_test(auto_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
