// SPDX-License-Identifier: MIT
/* Issue 33: where the largest part of the surface (triangles joined through shared vertices)
 * has GC_LEAN_LARGE_TRIANGLES (32,768) triangles or more, the default effort for a lone
 * direct-value, intel-lower-bound or lru:16 target leaves out the order that won only on
 * smaller corpus meshes (docs/optimizers/auto.md, "The lone defaults on large surfaces"):
 *  - direct-value:64 (vertices keeping their numbers): the greedy alone, without the
 *    machine greedy after it;
 *  - intel-lower-bound: the patches and meshoptimizer's table, without the greedy;
 *  - lru:16: the Forsyth order with lru's table and meshoptimizer's table, without lru's
 *    table in meshoptimizer's variant.
 * Elsewhere every order is still scored. (On the grid, auto's "do no harm" then weighs
 * meshoptimizer's table order too: auto_noharm.c.) auto keeps the cheapest, the first in its candidate
 * order among equals; the expected orders below are made by calling each order on its own
 * and pricing it with gc_analyze. Meshes: a shuffled grid of 128 x 128 quads (one part of
 * 32,768 triangles), and more than 32,768 triangles made of copies of a small corpus mesh on
 * which the order left out wins (woody for direct-value, suzanne for the others): there
 * every order is kept. */
#include "test_util.h"

#include "optimize/optimize.h"

typedef struct grid {
    uint32_t* idx;
    size_t n, tc;
    uint32_t vertices;
} grid;

static grid shuffled_grid(uint32_t side)
{
    grid g;
    gc_error err;
    size_t written = 0;
    g.n = gc_grid_index_count(side, side, GC_GRID_ROWMAJOR, 0);
    g.idx = test_indices(g.n);
    if (gc_grid_generate(side, side, GC_GRID_ROWMAJOR, 0, g.idx, &written, &err) != GC_OK)
        fail_msg("grid: %s", err.message);
    assert_int_equal(written, g.n);
    gc_shuffle_triangles(g.idx, g.n, 11);
    g.tc = g.n / 3;
    g.vertices = (side + 1) * (side + 1);
    return g;
}

/* `copies` copies of a corpus mesh as stored, one after the other, each with its own vertices
 * (numbered after the previous copy's): a mesh of that many times the triangles on which each
 * order does about what it does on one copy (skips the test without the corpus). */
static grid tiled(const char* name, uint32_t copies)
{
    size_t n;
    uint32_t vertices;
    uint32_t* one = corpus_mesh_or_skip(name, &n, &vertices);
    grid g;
    g.n = n * copies;
    g.tc = g.n / 3;
    g.vertices = vertices * copies;
    g.idx = test_indices(g.n);
    for (uint32_t k = 0; k < copies; ++k)
        for (size_t i = 0; i < n; ++i)
            g.idx[k * n + i] = one[i] + k * vertices;
    free(one);
    return g;
}

/* The orders auto would score, in its candidate order: the cheapest, the first among equals. */
static const uint32_t* cheapest(const gc_model* m, const grid* g, uint32_t* const* orders, size_t count)
{
    const uint32_t* best = NULL;
    uint64_t best_cost = UINT64_MAX;
    for (size_t k = 0; k < count; ++k) {
        const uint64_t c = order_invocations(m, g->idx, orders[k], g->tc);
        if (c < best_cost)
            best_cost = c, best = orders[k];
    }
    return best;
}

/* auto's output (the reordered list) is the expected order's list */
static void assert_same_order(const uint32_t* out, const grid* g, const uint32_t* order, const char* what)
{
    uint32_t* list = order_list(g->idx, order, g->tc);
    const bool same = memcmp(out, list, g->n * sizeof *list) == 0;
    free(list);
    if (!same)
        fail_msg("%s: auto's order is not the expected one", what);
}

static void direct_value(void** state)
{
    (void)state;
    const gc_model m = model_of("direct-value:64");
    float beta;
    uint32_t recent;
    assert_true(gc_machine_greedy_settings(&m, &beta, &recent));
    const gc_stream_place place = {0, 0, NULL};
    gc_error err;
    for (int large = 0; large < 2; ++large) {
        grid g = large ? shuffled_grid(128) : tiled("woody.obj", 26);
        assert_int_equal(gc_largest_surface_part(g.idx, g.tc, g.vertices), large ? g.tc : 1267);
        uint32_t* greedy = test_indices(g.tc);
        uint32_t* machine = test_indices(g.tc);
        uint32_t* out = test_indices(g.n);
        /* the default's greedy: auto's first weights (0.75, 0.1, 7 recent vertices) */
        assert_int_equal(gc_opt_target_greedy(g.idx, g.tc, g.vertices, &m, 1, &place, 0.75f, 0.1f, 7, greedy, &err),
                         GC_OK);
        assert_int_equal(gc_opt_machine_greedy(g.idx, g.tc, g.vertices, &m, 0, 0, false, beta, recent, machine, &err),
                         GC_OK);
        auto_order(&m, g.idx, g.n, g.vertices, 0, 0, 0, out);
        uint32_t* const both[] = {greedy, machine};
        /* on the grid also meshoptimizer's table order, kept where strictly cheaper (auto's
         * "do no harm" on grids, auto_noharm.c: the greedy is above it there) */
        uint32_t* table = test_indices(g.tc);
        assert_int_equal(gc_opt_score_table(g.idx, g.tc, g.vertices, &gc_meshopt_scores, table, &err), GC_OK);
        uint32_t* const greedy_then_table[] = {greedy, table};
        const uint32_t* expected = large ? cheapest(&m, &g, greedy_then_table, 2) : cheapest(&m, &g, both, 2);
        assert_same_order(out, &g, expected, large ? "direct-value, a grid" : "direct-value, 26 woodies");
        free(greedy), free(machine), free(table), free(out), free(g.idx);
    }
}

static void intel_lower_bound(void** state)
{
    (void)state;
    const gc_model m = model_of("intel-lower-bound");
    gc_family_traits t;
    gc_model_traits(&m, &t);
    const gc_stream_place place = {0, 0, NULL};
    gc_error err;
    for (int large = 0; large < 2; ++large) {
        grid g = large ? shuffled_grid(128) : tiled("suzanne.obj", 34);
        uint32_t* greedy = test_indices(g.tc);
        uint32_t* patches = test_indices(g.tc);
        uint32_t* table = test_indices(g.tc);
        uint32_t* out = test_indices(g.n);
        assert_int_equal(gc_opt_target_greedy(g.idx, g.tc, g.vertices, &m, 1, &place, 0.75f, 0.1f, 7, greedy, &err),
                         GC_OK);
        assert_int_equal(gc_opt_patches(g.idx, g.tc, g.vertices, t.piece_triangles, 0, t.piece_vertices, 0, patches,
                                        &err),
                         GC_OK);
        assert_int_equal(gc_opt_score_table(g.idx, g.tc, g.vertices, &gc_meshopt_scores, table, &err), GC_OK);
        auto_order(&m, g.idx, g.n, g.vertices, 0, 0, 0, out);
        uint32_t* const all[] = {greedy, patches, table};
        const uint32_t* expected = large ? cheapest(&m, &g, all + 1, 2) : cheapest(&m, &g, all, 3);
        assert_same_order(out, &g, expected, large ? "intel-lower-bound, a grid" : "intel-lower-bound, 34 suzannes");
        free(greedy), free(patches), free(table), free(out), free(g.idx);
    }
}

static void lru16(void** state)
{
    (void)state;
    const gc_model m = model_of("lru:16");
    gc_family_traits t;
    gc_model_traits(&m, &t);
    gc_forsyth_scores own;
    const gc_forsyth_scores* scores = gc_family_forsyth_scores(&t, &own);
    gc_error err;
    for (int large = 0; large < 2; ++large) {
        grid g = large ? shuffled_grid(128) : tiled("suzanne.obj", 34);
        uint32_t* forsyth = test_indices(g.tc);
        uint32_t* variant = test_indices(g.tc);
        uint32_t* table = test_indices(g.tc);
        uint32_t* out = test_indices(g.n);
        assert_int_equal(gc_opt_forsyth_scored(g.idx, g.tc, g.vertices, scores, forsyth, NULL, &err), GC_OK);
        assert_int_equal(gc_opt_score_table(g.idx, g.tc, g.vertices, scores, variant, &err), GC_OK);
        assert_int_equal(gc_opt_score_table(g.idx, g.tc, g.vertices, &gc_meshopt_scores, table, &err), GC_OK);
        auto_order(&m, g.idx, g.n, g.vertices, 0, 0, 0, out);
        uint32_t* const kept[] = {forsyth, table};
        uint32_t* const all[] = {forsyth, variant, table};
        const uint32_t* expected = large ? cheapest(&m, &g, kept, 2) : cheapest(&m, &g, all, 3);
        assert_same_order(out, &g, expected, large ? "lru:16, a grid" : "lru:16, 34 suzannes");
        free(forsyth), free(variant), free(table), free(out), free(g.idx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(direct_value),
        cmocka_unit_test(intel_lower_bound),
        cmocka_unit_test(lru16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
