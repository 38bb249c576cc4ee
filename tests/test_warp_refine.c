// SPDX-License-Identifier: MIT
/* Issue 33: the swaps between warps (src/optimize/warp_refine.c), which auto runs for
 * meshopt:C,W,P with C >= W (nvidia-pascal), priced without writing the counts.
 *
 *  - A hand case: warps of 2 triangles and 6 vertices, A = (0,1,2), B = (3,4,5),
 *    C = (0,2,6), D = (3,5,7) in that order. The model's warps are {A, B} and {C, D}, 6
 *    vertices each: 12 invocations under meshopt:8,6,2. Swapping B and C gives {A, C} =
 *    {0,1,2,6} and {B, D} = {3,4,5,7}: 8; swapping A and D gives the same warps the other
 *    way round, and comes first (below). Nothing lowers the sum after that.
 *  - Random meshes with degenerate triangles (repeated corners, which take the general
 *    path) and the corpus: the result is a permutation, and over the warps of the input
 *    order (the positions the model cut it at), the sum of their distinct vertices does not
 *    go up and no warp goes past the vertex limit (every swap is priced on those warps).
 *  - The flags (gc_opt_warp_refine_ex): with GC_WARP_REFINE_NEXT(1) the hand case's warps are
 *    next to each other, so the same swap is found; with GC_WARP_REFINE_KEEP the model's
 *    invocations (gc_analyze of meshopt:W,W,P) never go up, on random meshes (where some
 *    swaps move the model's warp boundaries) and on the corpus.
 *  - GC_WARP_REFINE_KEEP decides as the model does: the result with the flag is the result
 *    without it when gc_analyze counts fewer invocations for that, else the input (corpus
 *    meshes after meshoptimizer's and the tuned Forsyth order, and random meshes).
 *  - gc_opt_warp_fast (auto's --effort 1 for nvidia-pascal): a permutation, never above
 *    meshoptimizer's order (gc_opt_score_table with meshoptimizer's table) under nvidia-pascal
 *    on four corpus meshes, and at least 1.5% below it on their mean. */
#include "test_util.h"

#include "optimize/optimize.h"

/* The model's warps of `order` (positions where each starts), as meshopt:C,W,P with C >= W
 * cuts them: a new warp at P triangles or when the corners' misses, each counted, would take
 * it past W vertices. Returns the number of warps; `start` has room for triangle_count + 1. */
static size_t warp_starts(const uint32_t* idx, const uint32_t* order, size_t triangle_count, uint32_t vertices,
                          uint32_t w, uint32_t p, size_t* start)
{
    uint32_t* stamp = calloc(vertices, sizeof *stamp);
    assert_non_null(stamp);
    size_t warps = 0;
    uint32_t fill = 0, drawn = 0;
    for (size_t i = 0; i < triangle_count; ++i) {
        const uint32_t* tv = idx + 3 * (size_t)order[i];
        uint32_t misses = 0;
        for (int c = 0; c < 3; ++c)
            misses += stamp[tv[c]] != warps;
        if (warps == 0 || drawn == p || fill + misses > w) {
            start[warps++] = i;
            fill = drawn = 0;
        }
        for (int c = 0; c < 3; ++c)
            if (stamp[tv[c]] != warps) {
                stamp[tv[c]] = (uint32_t)warps;
                fill++;
            }
        drawn++;
    }
    start[warps] = triangle_count;
    free(stamp);
    return warps;
}

/* Sum over the given warps of their distinct vertices; the largest in *largest. */
static uint64_t distinct_sum(const uint32_t* idx, const uint32_t* order, uint32_t vertices, const size_t* start,
                             size_t warps, uint32_t* largest)
{
    uint32_t* seen = calloc(vertices, sizeof *seen);
    assert_non_null(seen);
    uint64_t sum = 0;
    *largest = 0;
    for (size_t k = 0; k < warps; ++k) {
        uint32_t here = 0;
        for (size_t i = start[k]; i < start[k + 1]; ++i)
            for (int c = 0; c < 3; ++c) {
                uint32_t v = idx[3 * (size_t)order[i] + c];
                if (seen[v] != k + 1) {
                    seen[v] = (uint32_t)k + 1;
                    here++;
                }
            }
        sum += here;
        *largest = here > *largest ? here : *largest;
    }
    free(seen);
    return sum;
}

static uint64_t expanded_invocations(const char* spec, const uint32_t* idx, const uint32_t* order, size_t n)
{
    uint32_t* list = order_list(idx, order, n);
    uint64_t inv = invocations_of(spec, list, 3 * n, GC_TRIANGLE_LIST);
    free(list);
    return inv;
}

static void hand_case(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 0, 2, 6, 3, 5, 7}; /* A, B, C, D */
    uint32_t order[4] = {0, 1, 2, 3};
    assert_int_equal(expanded_invocations("meshopt:8,6,2", idx, order, 4), 12);
    gc_error err;
    assert_int_equal(gc_opt_warp_refine(idx, 4, 8, 6, 2, 2, order, &err), GC_OK);
    /* Swapping A and D gives {D, B} = {3,4,5,7} and {C, A} = {0,1,2,6}: the same sums (4 + 4,
     * the squared counts 10 + 10) as swapping B and C; the pairs are tried A-C, A-D, B-C,
     * B-D and the first of equals is kept, so A and D trade places. */
    const uint32_t expected[4] = {3, 1, 2, 0}; /* D, B, C, A */
    assert_memory_equal(order, expected, sizeof expected);
    assert_int_equal(expanded_invocations("meshopt:8,6,2", idx, order, 4), 8);
}

/* Refines `order` and checks the properties above. */
static void check_refine(const uint32_t* idx, size_t n, uint32_t vertices, uint32_t w, uint32_t p, unsigned passes,
                         uint32_t* order)
{
    size_t* start = malloc((n + 1) * sizeof *start);
    assert_non_null(start);
    const size_t warps = warp_starts(idx, order, n, vertices, w, p, start);
    uint32_t largest_before, largest_after;
    const uint64_t before = distinct_sum(idx, order, vertices, start, warps, &largest_before);
    gc_error err;
    assert_int_equal(gc_opt_warp_refine(idx, n, vertices, w, p, passes, order, &err), GC_OK);
    assert_is_permutation(order, n);
    const uint64_t after = distinct_sum(idx, order, vertices, start, warps, &largest_after);
    assert_true(after <= before);
    assert_true(largest_after <= w);
    free(start);
}

/* A random mesh of local triangles (corners in a band of 12 vertices), one in eight
 * degenerate when `degenerate`: 16 + (random % vertex_span) vertices into *vertices,
 * 8 + (random % triangle_span) triangles into *n; malloc'ed, with the input order 0..n-1 in
 * *order, malloc'ed. */
static uint32_t* random_band_mesh(uint64_t* seed, uint32_t vertex_span, size_t triangle_span, bool degenerate,
                                  uint32_t* vertices, size_t* n, uint32_t** order)
{
    *vertices = 16 + (uint32_t)(test_random(seed) % vertex_span);
    *n = 8 + (size_t)(test_random(seed) % triangle_span);
    uint32_t* idx = test_indices(3 * *n);
    *order = malloc(*n * sizeof **order);
    assert_non_null(*order);
    for (size_t t = 0; t < *n; ++t) {
        const uint32_t base = (uint32_t)(test_random(seed) % (*vertices - 12));
        for (int c = 0; c < 3; ++c)
            idx[3 * t + c] = base + (uint32_t)(test_random(seed) % 12);
        if (degenerate && test_random(seed) % 8 == 0)
            idx[3 * t + 2] = idx[3 * t + (test_random(seed) % 2)];
        (*order)[t] = (uint32_t)t;
    }
    return idx;
}

static void random_meshes(void** state)
{
    (void)state;
    uint64_t seed = 0x5eed33;
    for (int mesh = 0; mesh < 20; ++mesh) {
        uint32_t vertices;
        size_t n;
        uint32_t* order;
        uint32_t* idx = random_band_mesh(&seed, 200, 600, true, &vertices, &n, &order);
        const uint32_t w = mesh % 2 ? 32 : 9, p = mesh % 3 ? 32 : 5;
        check_refine(idx, n, vertices, w, p, 1 + (unsigned)(mesh % 3), order);
        free(idx);
        free(order);
    }
}

static void hand_case_flags(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 0, 2, 6, 3, 5, 7};
    const unsigned flags[] = {GC_WARP_REFINE_NEXT(1), GC_WARP_REFINE_NEXT(1) | GC_WARP_REFINE_KEEP,
                              GC_WARP_REFINE_CHANGED};
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; ++f) {
        uint32_t order[4] = {0, 1, 2, 3};
        gc_error err;
        assert_int_equal(gc_opt_warp_refine_ex(idx, 4, 8, 6, 2, 2, flags[f], order, &err), GC_OK);
        const uint32_t expected[4] = {3, 1, 2, 0};
        assert_memory_equal(order, expected, sizeof expected);
    }
}

static void keep_never_worse(void** state)
{
    (void)state;
    uint64_t seed = 0xfeed33;
    for (int mesh = 0; mesh < 30; ++mesh) {
        uint32_t vertices;
        size_t n;
        uint32_t* order;
        uint32_t* idx = random_band_mesh(&seed, 300, 500, false, &vertices, &n, &order);
        const uint32_t w = mesh % 2 ? 32 : 9, p = mesh % 3 ? 32 : 5;
        char spec[64];
        snprintf(spec, sizeof spec, "meshopt:%u,%u,%u", w, w, p);
        const uint64_t before = expanded_invocations(spec, idx, order, n);
        gc_error err;
        const unsigned flags = GC_WARP_REFINE_KEEP | (mesh % 4 ? GC_WARP_REFINE_NEXT(1 + mesh % 3) : 0);
        assert_int_equal(gc_opt_warp_refine_ex(idx, n, vertices, w, p, 1 + (unsigned)(mesh % 2), flags, order, &err),
                         GC_OK);
        assert_is_permutation(order, n);
        assert_true(expanded_invocations(spec, idx, order, n) <= before);
        free(idx);
        free(order);
    }
}

/* With and without KEEP from `order`; the KEEP result must be what the model picks. */
static void check_keep(const uint32_t* idx, size_t tc, uint32_t vertices, uint32_t w, uint32_t p, unsigned flags,
                       const uint32_t* order)
{
    char spec[64];
    snprintf(spec, sizeof spec, "meshopt:%u,%u,%u", w, w, p);
    uint32_t* plain = test_indices(tc);
    uint32_t* kept = test_indices(tc);
    memcpy(plain, order, tc * sizeof *order);
    memcpy(kept, order, tc * sizeof *order);
    gc_error err;
    assert_int_equal(gc_opt_warp_refine_ex(idx, tc, vertices, w, p, 1, flags, plain, &err), GC_OK);
    assert_int_equal(gc_opt_warp_refine_ex(idx, tc, vertices, w, p, 1, flags | GC_WARP_REFINE_KEEP, kept, &err),
                     GC_OK);
    const bool better = expanded_invocations(spec, idx, plain, tc) < expanded_invocations(spec, idx, order, tc);
    assert_memory_equal(kept, better ? plain : order, tc * sizeof *order);
    free(plain);
    free(kept);
}

static void keep_matches_model(void** state)
{
    (void)state;
    const char* const names[] = {"cow.obj", "fandisk.obj", "rocker-arm.obj", "teapot.obj", "woody.obj"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k) {
        size_t n;
        uint32_t vertices;
        uint32_t* idx = corpus_mesh_or_skip(names[k], &n, &vertices);
        const size_t tc = n / 3;
        uint32_t* order = test_indices(tc);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, n, 7);
            gc_error err;
            assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, order, &err), GC_OK);
            check_keep(idx, tc, vertices, 32, 32, GC_WARP_REFINE_NEXT(1), order);
            check_keep(idx, tc, vertices, 16, 24, GC_WARP_REFINE_NEXT(2), order);
            assert_int_equal(gc_opt_forsyth_scored(idx, tc, vertices, &gc_auto_tuned_scores, order, NULL, &err), GC_OK);
            check_keep(idx, tc, vertices, 32, 32, 0, order);
            check_keep(idx, tc, vertices, 32, 32, GC_WARP_REFINE_NEXT(1), order);
        }
        free(order);
        free(idx);
    }
    uint64_t seed = 0xcafe33;
    for (int mesh = 0; mesh < 40; ++mesh) {
        const uint32_t vertices = 16 + (uint32_t)(test_random(&seed) % 300);
        const size_t n = 8 + (size_t)(test_random(&seed) % 500);
        uint32_t* idx = test_indices(3 * n);
        uint32_t* order = test_indices(n);
        for (size_t t = 0; t < n; ++t) {
            const uint32_t base = (uint32_t)(test_random(&seed) % (vertices - 12));
            for (int c = 0; c < 3; ++c)
                idx[3 * t + c] = base + (uint32_t)(test_random(&seed) % 12);
            if (mesh % 2 && test_random(&seed) % 16 == 0)
                idx[3 * t + 1] = idx[3 * t];
            order[t] = (uint32_t)t;
        }
        check_keep(idx, n, vertices, mesh % 3 ? 9 : 32, mesh % 4 ? 5 : 32, GC_WARP_REFINE_NEXT(1 + mesh % 3), order);
        free(idx);
        free(order);
    }
}

static void warp_fast(void** state)
{
    (void)state;
    const char* const names[] = {"cow.obj", "spot.obj", "teapot.obj", "woody.obj"};
    double change = 0;
    for (size_t k = 0; k < 4; ++k) {
        size_t n;
        uint32_t vertices;
        uint32_t* idx = corpus_mesh_or_skip(names[k], &n, &vertices);
        const size_t tc = n / 3;
        uint32_t* order = test_indices(tc);
        gc_error err;
        assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, order, &err), GC_OK);
        const uint64_t table = expanded_invocations("nvidia-pascal", idx, order, tc);
        assert_int_equal(gc_opt_warp_fast(idx, tc, vertices, 32, 32, order, &err), GC_OK);
        assert_is_permutation(order, tc);
        const uint64_t fast = expanded_invocations("nvidia-pascal", idx, order, tc);
        assert_true(fast <= table);
        change += ((double)fast - (double)table) / (double)table / 4;
        free(order);
        free(idx);
    }
    assert_true(change <= -0.015);
    /* warps the swaps do not take (a group of 0 triangles: no limit): the patches, a permutation */
    size_t n;
    uint32_t vertices;
    uint32_t* idx = corpus_mesh_or_skip("cow.obj", &n, &vertices);
    uint32_t* order = test_indices(n / 3);
    gc_error err;
    assert_int_equal(gc_opt_warp_fast(idx, n / 3, vertices, 32, 0, order, &err), GC_OK);
    assert_is_permutation(order, n / 3);
    free(order);
    free(idx);
}

static void corpus_mesh(void** state)
{
    (void)state;
    size_t n;
    uint32_t vertices;
    uint32_t* idx = corpus_mesh_or_skip("cow.obj", &n, &vertices);
    const size_t tc = n / 3;
    uint32_t* order = test_indices(tc);
    gc_error err;
    assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, order, &err), GC_OK);
    const uint64_t before = expanded_invocations("nvidia-pascal", idx, order, tc);
    check_refine(idx, tc, vertices, 32, 32, 2, order);
    /* and the model agrees on this mesh: fewer invocations than meshoptimizer's order */
    assert_true(expanded_invocations("nvidia-pascal", idx, order, tc) < before);
    free(order);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_case),
        cmocka_unit_test(random_meshes),
        cmocka_unit_test(corpus_mesh),
        cmocka_unit_test(hand_case_flags),
        cmocka_unit_test(keep_never_worse),
        cmocka_unit_test(keep_matches_model),
        cmocka_unit_test(warp_fast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
