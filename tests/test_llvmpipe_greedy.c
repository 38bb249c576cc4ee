// SPDX-License-Identifier: MIT
/* Issue 33: auto's greedies for a lone llvmpipe target with the rule written out
 * (gc_opt_llvmpipe_greedy: src/optimize/auto_machine_greedy.c with machine_inline.h's table,
 * src/models/llvmpipe_rule.h's triangle-list form).
 *
 *  - The rule's list form on a hand-worked list (llvmpipe:segment=9,map=4: three triangles a
 *    segment, values 0 and 4 in the same slot): each triangle's misses, priced before it is
 *    fed and fed, are the ones worked out below, and their sum is gc_analyze's for the list
 *    (the model's own simulator).
 *  - Its orders are the ones of the greedies that drive the model's gc_sim machine: the
 *    target-aware greedy with llvmpipe alone (gc_opt_target_greedy, the default's greedy) and
 *    the machine greedy through gc_sim (gc_opt_machine_greedy_sim, with and without
 *    first-use numbers), on corpus meshes stored and shuffled with degenerate triangles added,
 *    on random meshes with a hub (the lists' heavy form), for the driver's table and for
 *    small ones (a table of 100 entries, not a power of two), the list alone and inside a
 *    longer draw. */
#include "test_util.h"
#include "test_feed.h"

#include "models/llvmpipe_rule.h"
#include "optimize/optimize.h"

static void rule_by_hand(void** state)
{
    (void)state;
    const uint32_t list[] = {0, 1, 2, 0, 4, 5, 4, 0, 1, 0, 1, 2};
    /* segment 0, table of 4 slots keyed by value mod 4:
     * (0,1,2): all three miss -> slots 0:0 1:1 2:2;
     * (0,4,5): 0 hits, 4 misses (slot 0 -> 4), 5 misses (slot 1 -> 5);
     * (4,0,1): 4 hits, 0 misses (slot 0 -> 0), 1 misses (slot 1 -> 1);
     * segment 1 (the table cleared): (0,1,2) all three miss. */
    const uint32_t want[] = {3, 2, 2, 3};
    uint64_t loop_lines = 7;
    const uint64_t per = gc_llvmpipe_per_segment(GC_TRIANGLE_LIST, 12, 9, &loop_lines);
    assert_int_equal(per, 3);
    assert_int_equal(loop_lines, 0);
    assert_int_equal(gc_llvmpipe_per_segment(GC_TRIANGLE_LIST, 9, 9, &loop_lines), 0); /* one segment */
    uint32_t table[4] = {0};
    gc_llvmpipe_list m = {table, NULL, 4, per, 0};
    uint32_t sum = 0;
    for (uint64_t k = 0; k < 4; ++k) {
        const bool fresh = gc_llvmpipe_list_fresh(&m, k);
        assert_true(fresh == (k == 0 || k == 3));
        assert_int_equal(gc_llvmpipe_price3(&m, list + 3 * k, fresh), want[k]);
        assert_int_equal(gc_llvmpipe_feed3(&m, list + 3 * k, k), want[k]);
        sum += want[k];
    }
    assert_int_equal(sum, 10);
    gc_model model = model_of("llvmpipe:segment=9,map=4");
    assert_int_equal(list_cost(&model, list, 12), 10);
    /* a triangle whose corners share a slot: (0,4,8) through an empty table misses thrice,
     * (0,4,0) too (4 evicted 0), (0,1,0) twice */
    memset(table, 0, sizeof table);
    m.current = 0;
    const uint32_t same[] = {0, 4, 8}, back[] = {0, 4, 0}, repeat[] = {0, 1, 0};
    assert_int_equal(gc_llvmpipe_price3(&m, same, true), 3);
    assert_int_equal(gc_llvmpipe_price3(&m, back, true), 3);
    assert_int_equal(gc_llvmpipe_price3(&m, repeat, true), 2);
}

/* Both greedies against the gc_sim ones on one mesh, for each spec and place. */
static void compare_on(const uint32_t* idx, size_t tc, uint32_t vertices, const char* what)
{
    const char* const specs[] = {"llvmpipe", "llvmpipe:segment=96,map=16", "llvmpipe:segment=300,map=100"};
    assert_list_greedy_as_target(idx, tc, vertices, specs, 3, 5, 1.0f, false, what);
}

static void corpus_orders(void** state)
{
    (void)state;
    const char* const meshes[] = {"cow.obj", "suzanne.obj", "woody.obj"};
    /* degenerate triangles added: one of a repeated pair per 40, one of a single vertex per 160 */
    for (corpus_rows r = corpus_rows_degenerate(meshes, 3, 9, 40); corpus_rows_next(&r);) {
        compare_on(r.idx, r.tc, r.vertices, r.what);
        compare_on(r.idx, r.n / 3 < 700 ? r.n / 3 : 700, r.vertices, r.what); /* a prefix: other segments */
    }
}

static void random_orders(void** state)
{
    (void)state;
    uint64_t seed = 0x1234567u;
    for (int round = 0; round < 4; ++round) {
        const size_t tc = 500 + 400 * (size_t)round;
        const uint32_t vertices = (uint32_t)(tc / 2 + 3);
        uint32_t* idx = test_indices(3 * tc);
        for (size_t t = 0; t < tc; ++t) {
            const uint32_t a = (uint32_t)(test_random(&seed) % vertices);
            for (int c = 0; c < 3; ++c) /* nearby vertices, sometimes a repeat, and a hub (vertex 0) */
                idx[3 * t + c] = c == 0 && t % 7 == 0 ? 0
                                                      : (a + (uint32_t)(test_random(&seed) % (round + 4))) % vertices;
        }
        compare_on(idx, tc, vertices, "random");
        free(idx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rule_by_hand),
        cmocka_unit_test(corpus_orders),
        cmocka_unit_test(random_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
