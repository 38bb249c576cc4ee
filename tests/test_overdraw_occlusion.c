// SPDX-License-Identifier: MIT
/* auto's overdraw pass by measured occlusion (src/optimize/overdraw_graph.c), its parts on
 * scenes whose answers are worked out by hand:
 *
 * - the occlusion pairs of two parallel squares, one above the other: every pair says the
 *   near square hides the far one, and they count the far square's pixels in the one view
 *   that sees them (the other views see both edge-on);
 * - the order of clusters: a cluster hidden by a later one waits for it (forward), or the
 *   later one comes forward (reverse); the clusters that no pair touches keep their order; a
 *   cycle is broken at the cluster with the least weight in front of it; the two directions of
 *   a pair of clusters cancel.
 *
 * The pass's bound (each target within T times auto's best) and its domination of
 * meshoptimizer's pipeline are in test_overdraw_opt.c. */
#include "test_util.h"

#include "optimize/optimize.h"

/* Two squares of side 2 facing +z (counter-clockwise seen from +z), the far one at z = 0
 * (triangles 0, 1), the near one at z = 1 (triangles 2, 3). */
static const float two_squares_xyz[] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0, 0, 0, 1, 2, 0, 1, 2, 2, 1, 0, 2, 1};
static const uint32_t two_squares_idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};

static void near_square_hides_far_square(void** state)
{
    (void)state;
    gc_occlusion pairs;
    gc_error err;
    assert_int_equal(gc_occlusion_pairs(two_squares_idx, 4, 8, two_squares_xyz, 0, 256, &pairs, &err), GC_OK);
    uint64_t total = 0;
    for (size_t p = 0; p < pairs.count; ++p) {
        assert_true(pairs.front[p] == 2 || pairs.front[p] == 3);
        assert_true(pairs.back[p] == 0 || pairs.back[p] == 1);
        total += pairs.weight[p];
    }
    /* The box's longest side, 2, spans the 256 pixels: the far square covers all 256 x 256
     * pixel centres of the z view; the centres on its diagonal (x = y) lie on the edge of
     * both of its triangles and may be counted once for each. */
    assert_true(total >= 256u * 256u);
    assert_true(total <= 256u * 256u + 256u);
    gc_occlusion_free(&pairs);

    /* Listed the other way round (the near square first): the same pairs under the triangles'
     * new numbers; they do not depend on the input order. */
    const uint32_t swapped[] = {4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3};
    assert_int_equal(gc_occlusion_pairs(swapped, 4, 8, two_squares_xyz, 0, 256, &pairs, &err), GC_OK);
    total = 0;
    for (size_t p = 0; p < pairs.count; ++p) {
        assert_true(pairs.front[p] == 0 || pairs.front[p] == 1);
        assert_true(pairs.back[p] == 2 || pairs.back[p] == 3);
        total += pairs.weight[p];
    }
    assert_true(total >= 256u * 256u && total <= 256u * 256u + 256u);
    gc_occlusion_free(&pairs);
}

/* Clusters of one triangle each (ends 1, 2, ..., n) over triangles 0..n-1 in that order. */
static void order_of(const gc_occlusion* pairs, size_t n, bool reverse, uint32_t* order)
{
    uint32_t ends[8];
    for (size_t i = 0; i < n; ++i)
        order[i] = (uint32_t)i, ends[i] = (uint32_t)(i + 1);
    gc_error err;
    assert_int_equal(gc_opt_occlusion_order(n, pairs, ends, n, 1, reverse, order, &err), GC_OK);
}

static void clusters_wait_for_their_occluders(void** state)
{
    (void)state;
    uint32_t order[8];
    /* 3 hides 1 (5 pixels): forward, 1 waits and follows 3 (0, 2, 3, 1, 4); reverse, 3 comes
     * forward to just before 1 (0, 3, 1, 2, 4). 0, 2 and 4 keep their order either way. */
    uint32_t front[] = {3}, back[] = {1}, weight[] = {5};
    gc_occlusion one = {.front = front, .back = back, .weight = weight, .count = 1, .capacity = 1};
    order_of(&one, 5, false, order);
    const uint32_t forward[] = {0, 2, 3, 1, 4};
    assert_memory_equal(order, forward, sizeof forward);
    order_of(&one, 5, true, order);
    const uint32_t backward[] = {0, 3, 1, 2, 4};
    assert_memory_equal(order, backward, sizeof backward);

    /* Both directions between 0 and 2: 2 hides 0 by 3 pixels, 0 hides 2 by 4 (two pairs that
     * add up): net, 0 hides 2, which is the order already. */
    uint32_t f2[] = {2, 0, 0}, b2[] = {0, 2, 2}, w2[] = {3, 1, 3};
    gc_occlusion cancel = {.front = f2, .back = b2, .weight = w2, .count = 3, .capacity = 3};
    order_of(&cancel, 3, false, order);
    const uint32_t same[] = {0, 1, 2};
    assert_memory_equal(order, same, sizeof same);
    /* 2 by 5 against 0 by 4: 0 waits for 2. */
    w2[0] = 5;
    order_of(&cancel, 3, false, order);
    const uint32_t moved[] = {1, 2, 0};
    assert_memory_equal(order, moved, sizeof moved);

    /* A cycle, 0 hides 1 (10), 1 hides 2 (10), 2 hides 0 (1): nothing is ready, and 0, with
     * the least weight in front of it, goes first; then 1 and 2 are free. */
    uint32_t f3[] = {0, 1, 2}, b3[] = {1, 2, 0}, w3[] = {10, 10, 1};
    gc_occlusion cycle = {.front = f3, .back = b3, .weight = w3, .count = 3, .capacity = 3};
    order_of(&cycle, 3, false, order);
    assert_memory_equal(order, same, sizeof same);
    /* the weak link elsewhere, 1 hides 2 by 1: 2 goes first, then 0, then 1 */
    w3[1] = 1, w3[2] = 10;
    order_of(&cycle, 3, false, order);
    const uint32_t broken[] = {2, 0, 1};
    assert_memory_equal(order, broken, sizeof broken);

    /* Pairs inside one cluster do not move it: clusters {0, 1} and {2}, 1 hides 0. */
    uint32_t f4[] = {1}, b4[] = {0}, w4[] = {9};
    gc_occlusion inside = {.front = f4, .back = b4, .weight = w4, .count = 1, .capacity = 1};
    uint32_t ends[] = {2, 3};
    for (uint32_t i = 0; i < 3; ++i)
        order[i] = i;
    gc_error err;
    assert_int_equal(gc_opt_occlusion_order(3, &inside, ends, 2, 1, false, order, &err), GC_OK);
    assert_memory_equal(order, same, sizeof same);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(near_square_hides_far_square),
        cmocka_unit_test(clusters_wait_for_their_occluders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
