// SPDX-License-Identifier: MIT
/* Issue 33: auto's greedy for a lone nvidia target with the rule written into the loop
 * (src/optimize/auto_nvidia_greedy.c) gives the order of the greedy that drives the rule
 * through gc_sim (gc_opt_target_greedy), triangle for triangle: on corpus meshes as stored and
 * shuffled, for nvidia-kepler and two other nvidia settings (one with lifetimes off), three
 * weight settings, and the list placed at the draw's start and at triangle 1000 (lifetimes
 * count primitives from the draw's start). A hand case checks the rule's price through the
 * order: triangles A = (0,1,2) then, of B = (3,4,5) and C = (2,1,6), C shares two vertices
 * with A, so it costs 1 against B's 3 and comes second. */
#include "test_util.h"

#include "optimize/optimize.h"

static void hand_case(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 2, 1, 6};
    gc_model m = model_of("nvidia-kepler");
    uint32_t order[3];
    gc_error err;
    assert_int_equal(gc_opt_nvidia_greedy(idx, 3, 7, &m, 0, 0.75f, 0.1f, 7, order, &err), GC_OK);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 1);
}

static void same_as_sim_greedy(void** state)
{
    (void)state;
    const char* const meshes[] = {"cow.obj", "woody.obj", "suzanne.obj", "teapot.obj"};
    const char* const specs[] = {"nvidia-kepler", "nvidia:size=16,idle=8,life=20", "nvidia:size=24,idle=0,life=0"};
    const float weights[][3] = {{0.75f, 0.1f, 7}, {1.0f, 0.2f, 8}, {0.25f, 0.0f, 16}};
    for (corpus_rows r = corpus_rows_of(meshes, sizeof meshes / sizeof *meshes, 7); corpus_rows_next(&r);) {
        const size_t tc = r.tc;
        uint32_t* a = test_indices(tc);
        uint32_t* b = test_indices(tc);
        for (size_t sp = 0; sp < sizeof specs / sizeof *specs; ++sp) {
            gc_model m = model_of(specs[sp]);
            for (size_t w = 0; w < sizeof weights / sizeof *weights; ++w) {
                const uint64_t at = (r.mesh + w) % 2 ? 3000 : 0; /* triangle 1000 */
                gc_stream_place place = {at, 0, NULL};
                gc_error err;
                assert_int_equal(gc_opt_target_greedy(r.idx, tc, r.vertices, &m, 1, &place, weights[w][0],
                                                      weights[w][1], (uint32_t)weights[w][2], a, &err),
                                 GC_OK);
                assert_int_equal(gc_opt_nvidia_greedy(r.idx, tc, r.vertices, &m, at / 3, weights[w][0], weights[w][1],
                                                      (uint32_t)weights[w][2], b, &err),
                                 GC_OK);
                if (memcmp(a, b, tc * sizeof *a) != 0)
                    fail_msg("%s %s, weights %zu: the orders differ", r.what, specs[sp], w);
            }
        }
        free(a);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_case),
        cmocka_unit_test(same_as_sim_greedy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
