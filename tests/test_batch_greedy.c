// SPDX-License-Identifier: MIT
/* Kerbl et al.'s batch greedy (src/optimize/batch_greedy.c, issue 33's faster data layout):
 *  - a worked example derived by hand from gbatch's scores (1024 per cached vertex, -4 per
 *    remaining triangle of a vertex, -1 per unit of distance) and the batch rules;
 *  - on corpus meshes, shuffled and with degenerate triangles, under the batch families:
 *    the order is a permutation, and it shades fewer vertices than the shuffled order;
 *  - a hub vertex (more than 64 triangles) is refused with GC_ERR_LIMIT. */
#include "test_util.h"

#include "optimize/optimize.h"

static void expand(const uint32_t* idx, const uint32_t* order, size_t tc, uint32_t* out)
{
    for (size_t t = 0; t < tc; ++t)
        memcpy(out + 3 * t, idx + 3 * (size_t)order[t], 3 * sizeof *out);
}

/* Two quads, their triangles stored interleaved: t0 = (0,1,2) and t2 = (2,1,3) form the
 * first, t1 = (4,5,6) and t3 = (6,5,7) the second. Batches of 6 indices and 4 vertices.
 * Every triangle starts at -4 x (1 + 2 + 2) = -20, so t0 goes first (the lowest number).
 * Then t2 has two cached vertices: -20 + 2 x 1024 + 2 x 4 (two vertices lost a triangle)
 * - 1 (distance 1 to t0) = 2035, the others -20: t2 is placed, the batch holds 6 indices
 * and 4 vertices. t1 (-20, the lower number) does not fit: the batch ends, t1 opens the
 * next, and t3 (two cached vertices) follows. Order 0, 2, 1, 3; 4 + 4 = 8 invocations.
 * The stored order takes 12: no two neighbouring stored triangles share a vertex, and three
 * fresh vertices never fit a batch that holds three already, so each opens a batch. */
static void hand_two_quads(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 4, 5, 6, 2, 1, 3, 6, 5, 7};
    const char* const specs[] = {"batch-all:indices=6,vertices=4", "nv-dx:indices=6,vertices=4",
                                 "nv-gl:indices=6,vertices=4"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
        gc_model m = model_of(specs[s]);
        gc_family_traits t;
        gc_model_traits(&m, &t);
        const gc_batch_greedy_weights w = {1024, t.batch_reuse_weight, -1};
        uint32_t order[4], out[12];
        gc_error err;
        assert_int_equal(gc_opt_batch_greedy(idx, 4, 8, &m, &w, 0, 0, order, &err), GC_OK);
        const uint32_t expected[4] = {0, 2, 1, 3};
        for (int k = 0; k < 4; ++k)
            if (order[k] != expected[k])
                fail_msg("%s: place %d holds triangle %u, expected %u", specs[s], k, order[k], expected[k]);
        expand(idx, order, 4, out);
        assert_int_equal(invocations_of(specs[s], out, 12, GC_TRIANGLE_LIST), 8);
        assert_int_equal(invocations_of(specs[s], idx, 12, GC_TRIANGLE_LIST), 12);
    }
}

/* The LCG step of the shuffle below, and its pick below i. */
static size_t lcg_pick(uint64_t* seed, size_t i)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)((*seed >> 33) % i);
}

/* A Fisher-Yates shuffle of the triangles (fixed seed), then one degenerate triangle. */
static uint32_t* shuffled_with_degenerate(const uint32_t* idx, size_t tc, size_t* out_tc)
{
    return shuffled_plus_degenerates(idx, tc, 1, 0x9E3779B97F4A7C15ULL, lcg_pick, out_tc);
}

static void corpus_permutations(void** state)
{
    (void)state;
    const char* const meshes[] = {"cow.obj", "suzanne.obj", "woody.obj"};
    const char* const specs[] = {"nvidia-dx", "nvidia-gl", "cure-warp", "ati-basic"};
    for (size_t mi = 0; mi < sizeof meshes / sizeof *meshes; ++mi) {
        size_t n, tc;
        uint32_t* idx = corpus_triangles_or_skip(meshes[mi], &n);
        uint32_t* sh = shuffled_with_degenerate(idx, n / 3, &tc);
        uint32_t vertices = 0;
        for (size_t i = 0; i < 3 * tc; ++i)
            vertices = sh[i] >= vertices ? sh[i] + 1 : vertices;
        uint32_t* order = malloc(tc * sizeof *order);
        uint32_t* out = malloc(3 * tc * sizeof *out);
        uint8_t* seen = malloc(tc);
        assert_non_null(order);
        assert_non_null(out);
        assert_non_null(seen);
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            gc_model m = model_of(specs[s]);
            gc_family_traits t;
            gc_model_traits(&m, &t);
            const gc_batch_greedy_weights w = {1024, t.batch_reuse_weight, -1};
            gc_error err;
            if (gc_opt_batch_greedy(sh, tc, vertices, &m, &w, 0, 0, order, &err) != GC_OK)
                fail_msg("%s under %s: %s", meshes[mi], specs[s], err.message);
            memset(seen, 0, tc);
            for (size_t k = 0; k < tc; ++k) {
                assert_true(order[k] < tc);
                assert_false(seen[order[k]]);
                seen[order[k]] = 1;
            }
            expand(sh, order, tc, out);
            const uint64_t greedy = invocations_of(specs[s], out, 3 * tc, GC_TRIANGLE_LIST);
            const uint64_t shuffled = invocations_of(specs[s], sh, 3 * tc, GC_TRIANGLE_LIST);
            if (greedy >= shuffled)
                fail_msg("%s under %s: %llu invocations, the shuffled order %llu", meshes[mi], specs[s],
                         (unsigned long long)greedy, (unsigned long long)shuffled);
        }
        free(order);
        free(out);
        free(seen);
        free(sh);
        free(idx);
    }
}

/* A fan of 65 triangles around vertex 0: more than 64, refused. */
static void hub_refused(void** state)
{
    (void)state;
    uint32_t idx[3 * 65];
    for (uint32_t t = 0; t < 65; ++t)
        idx[3 * t] = 0, idx[3 * t + 1] = t + 1, idx[3 * t + 2] = t + 2;
    gc_model m = model_of("nvidia-dx");
    const gc_batch_greedy_weights w = {1024, -4, -1};
    uint32_t order[65];
    gc_error err;
    assert_int_equal(gc_opt_batch_greedy(idx, 65, 67, &m, &w, 0, 0, order, &err), GC_ERR_LIMIT);
    /* 64 triangles are taken */
    assert_int_equal(gc_opt_batch_greedy(idx, 64, 66, &m, &w, 0, 0, order, &err), GC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_two_quads),
        cmocka_unit_test(corpus_permutations),
        cmocka_unit_test(hub_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
