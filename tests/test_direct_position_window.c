// SPDX-License-Identifier: MIT
/* Issue 33: the pass of src/optimize/direct_position_window.c after meshoptimizer's order,
 * which auto runs for a lone direct-position:N target.
 *
 *  - By hand, direct-position:3 (every triangle at slots 0, 1, 2): the order A = (0,1,2),
 *    B = (3,4,5), C = (2,0,1) costs 3 + 3 + 3 = 9 (B writes over all of A's vertices); a
 *    window of 2 places C before B (C: no miss; B: 3 misses and 3 live vertices written
 *    over), A C B, 3 + 0 + 3 = 6, and the order is replaced. A C B itself is left as it is
 *    (nothing strictly cheaper), and so is any order given a window of 1.
 *  - Small random lists with degenerate triangles (random_lists, below): the pass's count
 *    of both orders is the model's (gc_analyze) and it replaces the order exactly when the
 *    new one is strictly cheaper.
 *  - On corpus meshes stored and shuffled, at lists placed at index 0, 15 and 300 of the
 *    draw: the pass gives a permutation that costs (gc_analyze, the model's own rule) no
 *    more than meshoptimizer's table order it starts from, and strictly less over all.
 *  - auto for a lone direct-position:32 at --effort 1 and the default: on the same meshes
 *    and places, never above meshoptimizer's table order, and below meshopt's own
 *    meshopt_optimizeVertexCache over the meshes. */
#include "test_util.h"

#include <meshoptimizer.h>

#include "optimize/optimize.h"

static const char* const meshes[] = {"cow.obj", "fandisk.obj", "spot.obj", "suzanne.obj", "teapot.obj"};
#define MESH_COUNT (sizeof meshes / sizeof meshes[0])

/* The invocations of a list placed at index `at` (a multiple of 3) of the draw: the draw is
 * `at` indices of an unused vertex, then the list; that vertex costs 1 and never keeps a
 * vertex of the list out of a slot it wants (it is never looked up again). */
static uint64_t cost_at(const gc_model* m, const uint32_t* list, size_t n, size_t at, uint32_t unused)
{
    uint32_t* d = test_indices(n + at + 1);
    for (size_t i = 0; i < at; ++i)
        d[i] = unused;
    memcpy(d + at, list, n * sizeof *d);
    gc_draw draw = {d, n + at, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(m, &draw, NULL, &st, &err) != GC_OK)
        fail_msg("analyze %s: %s", m->name, err.message);
    free(d);
    return st.invocations - (at ? 1 : 0);
}

static uint64_t order_cost_at(const gc_model* m, const uint32_t* idx, const uint32_t* order, size_t tc, size_t at,
                              uint32_t unused)
{
    uint32_t* list = order_list(idx, order, tc);
    uint64_t c = cost_at(m, list, 3 * tc, at, unused);
    free(list);
    return c;
}

static void by_hand(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 2, 0, 1};
    gc_model m = model_of("direct-position:3");
    gc_error err;
    bool changed = false;
    uint32_t order[3] = {0, 1, 2};
    assert_int_equal(order_cost_at(&m, idx, order, 3, 0, 6), 9);
    assert_int_equal(gc_opt_direct_position_window(idx, 3, 6, 3, 0, 2, order, &changed, NULL, &err), GC_OK);
    assert_true(changed);
    const uint32_t expect[3] = {0, 2, 1};
    assert_memory_equal(order, expect, sizeof expect);
    assert_int_equal(order_cost_at(&m, idx, order, 3, 0, 6), 6);
    /* already the cheapest: left */
    assert_int_equal(gc_opt_direct_position_window(idx, 3, 6, 3, 0, 2, order, &changed, NULL, &err), GC_OK);
    assert_false(changed);
    assert_memory_equal(order, expect, sizeof expect);
    /* a window of 1: nothing to choose */
    uint32_t plain[3] = {0, 1, 2};
    assert_int_equal(gc_opt_direct_position_window(idx, 3, 6, 3, 0, 1, plain, &changed, NULL, &err), GC_OK);
    assert_false(changed);
    assert_int_equal(plain[1], 1);
    /* three places in the stream later the slots are the same: the same order */
    uint32_t later[3] = {0, 1, 2};
    assert_int_equal(gc_opt_direct_position_window(idx, 3, 6, 3, 3, 2, later, &changed, NULL, &err), GC_OK);
    assert_memory_equal(later, expect, sizeof expect);
}

static void corpus(void** state)
{
    (void)state;
    gc_model m = model_of("direct-position:32");
    const size_t places[] = {0, 15, 300};
    uint64_t peer_sum = 0, fast_sum = 0, default_sum = 0; /* a mesh's, over its two rows */
    for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 11); corpus_rows_next(&r);) {
        const uint32_t* idx = r.idx;
        const size_t n = r.n, tc = r.tc;
        const uint32_t vertices = r.vertices;
        uint32_t* table = test_indices(tc);
        uint32_t* order = test_indices(tc);
        uint32_t* out = test_indices(n);
        for (size_t p = 0; p < sizeof places / sizeof *places; ++p) {
            const size_t at = places[p];
            gc_error err;
            assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, table, &err), GC_OK);
            const uint64_t table_cost = order_cost_at(&m, idx, table, tc, at, vertices);
            memcpy(order, table, tc * sizeof *order);
            bool changed = false;
            for (uint32_t window = 3; window <= 16; window += 13) {
                memcpy(order, table, tc * sizeof *order);
                assert_int_equal(
                    gc_opt_direct_position_window(idx, tc, vertices, 32, at, window, order, &changed, NULL, &err), GC_OK);
                assert_is_permutation(order, tc);
                const uint64_t c = order_cost_at(&m, idx, order, tc, at, vertices);
                assert_true(changed ? c < table_cost : c == table_cost);
                assert_true(c <= table_cost);
            }
            assert_true(changed); /* on these meshes the window of 16 always finds some */
            meshopt_optimizeVertexCache(out, idx, n, vertices);
            peer_sum += cost_at(&m, out, n, at, vertices);
            for (unsigned effort = 0; effort < 2; ++effort) {
                auto_order(&m, idx, n, vertices, effort, at, 0, out);
                const uint64_t c = cost_at(&m, out, n, at, vertices);
                assert_true(c <= table_cost);
                *(effort ? &fast_sum : &default_sum) += c;
            }
        }
        if (r.shuffled) { /* the mesh's two rows done */
            assert_true(fast_sum < peer_sum);
            assert_true(default_sum < peer_sum);
            peer_sum = fast_sum = default_sum = 0;
        }
        free(table);
        free(order);
        free(out);
    }
}

/* Small random lists with degenerate triangles (a corner repeated, or all three), random
 * input orders, N = 3, 4, 7 and 32, windows 2 to 9, places 0 to 99 (multiples of 3): the
 * pass's own count of the two orders agrees with the model's (it replaces the order exactly
 * when gc_analyze says the new one is strictly cheaper) and the result is a permutation. */
static void random_lists(void** state)
{
    (void)state;
    uint64_t x = 12345;
#define NEXT() (x = x * 6364136223846793005ull + 1442695040888963407ull, (uint32_t)(x >> 33))
    const uint32_t sizes[] = {3, 4, 7, 32};
    int replaced = 0;
    for (int round = 0; round < 500; ++round) {
        const size_t tc = 2 + NEXT() % 300;
        const uint32_t vertices = 3 + NEXT() % 60;
        uint32_t* idx = test_indices(3 * tc);
        uint32_t* order = test_indices(tc);
        uint32_t* before = test_indices(tc);
        for (size_t i = 0; i < 3 * tc; ++i)
            idx[i] = NEXT() % vertices;
        for (size_t t = 0; t < tc; ++t)
            order[t] = (uint32_t)t;
        for (size_t t = tc - 1; t > 0; --t) {
            const size_t u = NEXT() % (t + 1);
            const uint32_t tmp = order[t];
            order[t] = order[u], order[u] = tmp;
        }
        const uint32_t slots = sizes[NEXT() % 4];
        char spec[32];
        snprintf(spec, sizeof spec, "direct-position:%u", slots);
        gc_model m = model_of(spec);
        const size_t at = 3 * (NEXT() % 34);
        for (int pass = 0; pass < 4; ++pass) { /* later passes start from orders near their best */
            const uint32_t window = 2 + NEXT() % 8;
            bool changed = false;
            gc_error err;
            uint64_t counts[2] = {0, 0};
            memcpy(before, order, tc * sizeof *order);
            assert_int_equal(
                gc_opt_direct_position_window(idx, tc, vertices, slots, at, window, order, &changed, counts, &err),
                GC_OK);
            assert_is_permutation(order, tc);
            const uint64_t c0 = order_cost_at(&m, idx, before, tc, at, vertices);
            const uint64_t c1 = order_cost_at(&m, idx, order, tc, at, vertices);
            assert_true(changed ? c1 < c0 : c1 == c0);
            assert_int_equal(counts[0], c0); /* the pass's count of the input order is the model's */
            if (changed)
                assert_int_equal(counts[1], c1);
            else
                assert_true(counts[1] >= c0);
            replaced += changed;
            if (!changed)
                assert_memory_equal(order, before, tc * sizeof *order);
        }
        free(idx);
        free(order);
        free(before);
    }
#undef NEXT
    assert_true(replaced >= 200 && replaced <= 1800); /* both ways, often */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(by_hand),
        cmocka_unit_test(random_lists),
        cmocka_unit_test(corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
