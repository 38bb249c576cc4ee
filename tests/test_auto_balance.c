// SPDX-License-Identifier: MIT
/* Issue 30, the invocation rows: auto's balance (src/optimize/auto_balance.c).
 *
 * - Against meshoptimizer 0.18 (Debian's libmeshoptimizer-dev, an independent implementation):
 *   with the four default presets, auto's order is strictly below meshopt_optimizeVertexCache's
 *   order under every preset on woody and suzanne, where the sum alone left intel above it
 *   (docs/optimizers/auto.md): as stored, and shuffled (gc_shuffle_triangles) with the seeds
 *   1 to 8 where it holds (woody 2 to 5, 7 and 8; suzanne 8). With the others auto's order is
 *   meshoptimizer's own (woody 1 and 6, suzanne 2 and 4 to 7: the balance does not search
 *   where the winner is level with the reference), or the search did not reach it within its
 *   work and a preset stays above (suzanne 1 and 3);
 * - gc_opt_balance_auto by hand, on a 24 x 24 grid whose reference is the row-by-row order:
 *   a winner already below the reference on every target, or the reference itself, is left
 *   as it is without a search; otherwise the
 *   result, when it says balanced, is a permutation of the triangles below the reference on
 *   every target (counted here with gc_analyze), the cap is the reference less one, and two
 *   runs give the same order. */
#include "test_util.h"

#include <meshoptimizer.h>

#include "optimize/optimize.h"

static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};

static bool load(const char* name, uint32_t** idx, size_t* n, uint32_t* vertices)
{
    char path[4096];
    if (corpus_path(path, sizeof path, name) != 0)
        return false;
    gc_mesh gm;
    gc_error err;
    assert_int_equal(gc_mesh_load(path, NULL, &gm, &err), GC_OK);
    *n = gm.index_count;
    *idx = malloc(*n * sizeof **idx);
    assert_non_null(*idx);
    memcpy(*idx, gm.indices, *n * sizeof **idx);
    gc_mesh_free(&gm);
    *vertices = 0;
    for (size_t i = 0; i < *n; ++i)
        *vertices = (*idx)[i] + 1 > *vertices ? (*idx)[i] + 1 : *vertices;
    return true;
}

/* auto, default effort and targets, no positions, against meshopt_optimizeVertexCache (0.18). */
static void below_meshopt(const char* name, int shuffle_seed)
{
    uint32_t *idx, vertices;
    size_t n;
    if (!load(name, &idx, &n, &vertices)) {
        print_message("corpus mesh %s missing: skipped\n", name);
        return;
    }
    if (shuffle_seed)
        gc_shuffle_triangles(idx, n, (uint64_t)shuffle_seed);
    uint32_t* ours = malloc(n * sizeof *ours);
    uint32_t* theirs = malloc(n * sizeof *theirs);
    assert_non_null(ours);
    assert_non_null(theirs);
    gc_optimize_options o = {0};
    gc_error err;
    assert_int_equal(gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, ours, &err), GC_OK);
    meshopt_optimizeVertexCache(theirs, idx, n, vertices);
    for (int p = 0; p < 4; ++p) {
        uint64_t a = invocations_of(presets[p], ours, n, GC_TRIANGLE_LIST);
        uint64_t b = invocations_of(presets[p], theirs, n, GC_TRIANGLE_LIST);
        if (a >= b)
            fail_msg("%s%s: %s %llu, meshoptimizer %llu", name, shuffle_seed ? " shuffled" : "", presets[p],
                     (unsigned long long)a, (unsigned long long)b);
    }
    free(ours), free(theirs), free(idx);
}

static void test_woody(void** state)
{
    (void)state;
    below_meshopt("woody.obj", 0);
    static const int seeds[] = {2, 3, 4, 5, 7, 8};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i)
        below_meshopt("woody.obj", seeds[i]);
}

static void test_suzanne(void** state)
{
    (void)state;
    below_meshopt("suzanne.obj", 0);
    below_meshopt("suzanne.obj", 8);
}

/* ------------------------------------------------------- by hand, on a grid */

enum { SIDE = 24, TRIANGLES = 2 * SIDE * SIDE };

typedef struct hand {
    uint32_t idx[3 * TRIANGLES];
    uint32_t list[3 * TRIANGLES];
    gc_model targets[2];
    gc_family_traits traits[2];
    unsigned calls;
} hand;

static gc_status hand_cost(void* user, const uint32_t* order, bool expand, size_t target, uint64_t* cost,
                           gc_error* err)
{
    hand* h = user;
    h->calls++;
    (void)expand; /* expanded every time here */
    for (size_t t = 0; t < TRIANGLES; ++t)
        memcpy(h->list + 3 * t, h->idx + 3 * (size_t)order[t], 3 * sizeof *h->list);
    gc_draw d = {h->list, 3 * TRIANGLES, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_status s = gc_analyze(&h->targets[target], &d, NULL, &st, err);
    *cost = st.invocations;
    return s;
}

static uint64_t cost_of(hand* h, const uint32_t* order, size_t target)
{
    uint64_t c = 0;
    gc_error err;
    assert_int_equal(hand_cost(h, order, true, target, &c, &err), GC_OK);
    return c;
}

static void grid(hand* h)
{
    size_t t = 0;
    for (uint32_t y = 0; y < SIDE; ++y)
        for (uint32_t x = 0; x < SIDE; ++x) {
            uint32_t a = y * (SIDE + 1) + x, b = a + 1, c = a + SIDE + 1, d = c + 1;
            uint32_t q[6] = {a, b, c, b, d, c};
            memcpy(h->idx + 3 * t, q, sizeof q);
            t += 2;
        }
    h->targets[0] = model_of("fifo:16");
    h->targets[1] = model_of("fifo:8");
    gc_model_traits(&h->targets[0], &h->traits[0]);
    gc_model_traits(&h->targets[1], &h->traits[1]);
}

static void test_balance_by_hand(void** state)
{
    (void)state;
    static hand h;
    grid(&h);
    static uint32_t reference[TRIANGLES], order[TRIANGLES], again[TRIANGLES], winner[TRIANGLES];
    /* the reference: row by row; the winner: every other triangle first (far worse) */
    for (uint32_t t = 0; t < TRIANGLES; ++t)
        reference[t] = t, order[t] = t < TRIANGLES / 2 ? 2 * t : 2 * (t - TRIANGLES / 2) + 1;
    memcpy(again, order, sizeof order);
    memset(winner, 0xFF, sizeof winner);
    uint64_t cap[2] = {0, 0};
    bool balanced = false;
    gc_error err;
    assert_int_equal(gc_opt_balance_auto(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference, hand_cost,
                                         &h, order, winner, cap, &balanced, &err),
                     GC_OK);
    assert_memory_equal(winner, again, sizeof again); /* the order as it came */
    /* a permutation */
    static unsigned char seen[TRIANGLES];
    memset(seen, 0, sizeof seen);
    for (size_t t = 0; t < TRIANGLES; ++t) {
        assert_true(order[t] < TRIANGLES);
        assert_false(seen[order[t]]);
        seen[order[t]] = 1;
    }
    if (balanced) {
        for (size_t k = 0; k < 2; ++k) {
            assert_true(cost_of(&h, order, k) < cost_of(&h, reference, k));
            assert_int_equal(cap[k], cost_of(&h, reference, k) - 1);
        }
    } else {
        assert_memory_equal(order, again, sizeof order); /* not balanced: left as it was */
    }
    /* the same input, the same output */
    uint64_t cap2[2];
    bool balanced2 = false;
    static uint32_t order2[TRIANGLES];
    memcpy(order2, again, sizeof again);
    assert_int_equal(gc_opt_balance_auto(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference, hand_cost,
                                         &h, order2, winner, cap2, &balanced2, &err),
                     GC_OK);
    assert_int_equal(balanced, balanced2);
    assert_memory_equal(order, order2, sizeof order);

    /* a winner already below the reference on both targets: nothing to do, nothing changed */
    static uint32_t good[TRIANGLES], before[TRIANGLES];
    for (uint32_t t = 0; t < TRIANGLES; ++t)
        good[t] = t; /* the reference's own order is no better than itself: use a better one */
    assert_int_equal(gc_opt_tipsify(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), 16, good, NULL, &err), GC_OK);
    bool better = cost_of(&h, good, 0) < cost_of(&h, reference, 0) && cost_of(&h, good, 1) < cost_of(&h, reference, 1);
    assert_true(better); /* Tipsify's fans beat rows of 48 triangles under FIFOs of 8 and 16 */
    memcpy(before, good, sizeof good);
    h.calls = 0;
    balanced = true;
    assert_int_equal(gc_opt_balance_auto(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference, hand_cost,
                                         &h, good, winner, cap, &balanced, &err),
                     GC_OK);
    assert_false(balanced);
    assert_memory_equal(good, before, sizeof good);
    assert_int_equal(h.calls, 4); /* the two orders' costs, nothing searched */

    /* the reference itself as the winner: level everywhere, not above: nothing searched */
    memcpy(good, reference, sizeof good);
    h.calls = 0;
    balanced = true;
    assert_int_equal(gc_opt_balance_auto(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference, hand_cost,
                                         &h, good, winner, cap, &balanced, &err),
                     GC_OK);
    assert_false(balanced);
    assert_memory_equal(good, reference, sizeof good);
    assert_int_equal(h.calls, 4);

    /* told the reference's and the winner's costs (counted here): the same result as counting
     * them, with the 2 x 2 evaluations spared */
    const uint64_t ref_costs[2] = {cost_of(&h, reference, 0), cost_of(&h, reference, 1)};
    const uint64_t win_costs[2] = {cost_of(&h, again, 0), cost_of(&h, again, 1)};
    memcpy(order2, again, sizeof again);
    h.calls = 0;
    assert_int_equal(gc_opt_balance_auto(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference, hand_cost,
                                         &h, order2, winner, cap2, &balanced2, &err),
                     GC_OK);
    const unsigned counted = h.calls;
    static uint32_t order3[TRIANGLES];
    memcpy(order3, again, sizeof again);
    uint64_t cap3[2] = {0, 0};
    bool balanced3 = !balanced2;
    h.calls = 0;
    assert_int_equal(gc_opt_balance_auto_known(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference,
                                               ref_costs, win_costs, hand_cost, &h, order3, winner, cap3, &balanced3,
                                               &err),
                     GC_OK);
    assert_int_equal(h.calls + 4, counted);
    assert_int_equal(balanced3, balanced2);
    assert_memory_equal(order3, order2, sizeof order2);
    if (balanced3)
        assert_memory_equal(cap3, cap2, sizeof cap2);
    /* a winner below the reference, both told: nothing counted at all */
    memcpy(good, before, sizeof good);
    const uint64_t good_costs[2] = {cost_of(&h, good, 0), cost_of(&h, good, 1)};
    h.calls = 0;
    assert_int_equal(gc_opt_balance_auto_known(h.idx, TRIANGLES, (SIDE + 1) * (SIDE + 1), h.traits, 2, reference,
                                               ref_costs, good_costs, hand_cost, &h, good, winner, cap3, &balanced3,
                                               &err),
                     GC_OK);
    assert_false(balanced3);
    assert_memory_equal(good, before, sizeof good);
    assert_int_equal(h.calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_balance_by_hand),
        cmocka_unit_test(test_woody),
        cmocka_unit_test(test_suzanne),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
