// SPDX-License-Identifier: MIT
/* Issue 33: --effort 1 for several targets on a regular grid (src/optimize/auto_regular.c).
 *
 *  - gc_mesh_regular on grids of n x n vertices, each quad cut along the same diagonal: an
 *    inner vertex has 6 corners, one on the border 3 (2 or 1 at the grid's corners), so
 *    (n - 2)^2 of the n^2 vertices have 6. At least 95% of them: 77^2 = 5929 of 6241 for n =
 *    79 (592,900 >= 592,895), but 76^2 = 5776 of 6084 for n = 78 (577,600 < 577,980). Unused
 *    vertices do not count; a fan, and nothing at all, are not regular.
 *  - auto --effort 1 with the four presets (no targets given): on a regular grid, shuffled,
 *    meshoptimizer's table order (gc_opt_score_table with gc_meshopt_scores); on a grid
 *    that is not regular, the tuned Forsyth order as before (gc_opt_forsyth_scored with
 *    gc_auto_tuned_scores), or meshoptimizer's table order where that costs fewer
 *    invocations under the presets (auto_noharm.c, below 65,536 triangles: tuned_or_cheaper).
 *  - gc_mesh_regular_or_grid: a grid with its borders (from 4,096 triangles, at least 90% of
 *    the used vertices with 6 corners or 3, fewer than 2% with 4 or 8): the 60 x 60 grid
 *    (6,962 triangles; 58^2 inner vertices with 6, the 4 * 58 on its borders with 3: 3,596 of
 *    3,600) is one though not regular (93%); the 40 x 40 grid (3,042 triangles) is too small;
 *    the 60 x 60 grid with the quads (i, j), 10 <= i, j < 22, cut along alternating
 *    diagonals (a checkerboard) is not: the 11 x 11 vertices inside that patch have 4 or 8
 *    corners (121 of 3,600: 3.4%), though about 95% still have 3 or 6. --effort 1 with the presets gives meshoptimizer's table
 *    order on the grid (shuffled) and on the corpus teapot, stored and shuffled (a
 *    triangulated grid with its borders: 96% of its vertices with 3 or 6 corners), the tuned
 *    Forsyth order on the cut grid and on cow (or meshoptimizer's where cheaper, as above). */
#include "test_util.h"

#include "optimize/optimize.h"

/* A grid of n x n vertices, vertex (i, j) = j n + i, each quad (i, j)..(i + 1, j + 1) as the
 * triangles (i,j) (i+1,j) (i+1,j+1) and (i,j) (i+1,j+1) (i,j+1). */
static uint32_t* grid(uint32_t n, size_t* index_count)
{
    const size_t quads = (size_t)(n - 1) * (n - 1);
    uint32_t* idx = test_indices(6 * quads);
    size_t k = 0;
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i) {
            const uint32_t a = j * n + i, b = a + 1, c = a + n + 1, d = a + n;
            const uint32_t q[6] = {a, b, c, a, c, d};
            memcpy(idx + k, q, sizeof q);
            k += 6;
        }
    *index_count = k;
    return idx;
}

static void regular_share(void** state)
{
    (void)state;
    size_t n = 0;
    uint32_t* idx = grid(79, &n);
    assert_true(gc_mesh_regular(idx, n / 3, 79 * 79));
    assert_true(gc_mesh_regular(idx, n / 3, 79 * 79 + 10)); /* unused vertices do not count */
    free(idx);
    idx = grid(78, &n);
    assert_false(gc_mesh_regular(idx, n / 3, 78 * 78));
    free(idx);
    idx = grid(4, &n); /* 4 of 16 */
    assert_false(gc_mesh_regular(idx, n / 3, 16));
    free(idx);
    /* a fan of 6 triangles around vertex 0: 6 corners there, 2 at the rim's vertices */
    const uint32_t fan[18] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 6, 0, 6, 1};
    assert_false(gc_mesh_regular(fan, 6, 7));
    assert_false(gc_mesh_regular(fan, 0, 7));
}

/* auto --effort 1 with the default presets; its output as triangle numbers (by matching
 * each output triangle to the input's, the grid's triangles being distinct). */
static void presets_order(const uint32_t* idx, size_t n, uint32_t vertices, uint32_t* order)
{
    gc_optimize_options o = {0};
    o.effort = 1;
    uint32_t* out = test_indices(n);
    gc_error err;
    if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err) != GC_OK)
        fail_msg("auto --effort 1: %s", err.message);
    /* a triangle is found by its first corner's triangles: at most 6 each on a grid */
    size_t tc = n / 3;
    uint32_t* first = calloc((size_t)vertices + 1, sizeof *first);
    uint32_t* by_first = calloc(tc, sizeof *by_first);
    assert_non_null(first);
    assert_non_null(by_first);
    for (size_t t = 0; t < tc; ++t)
        first[idx[3 * t] + 1]++;
    for (uint32_t v = 0; v < vertices; ++v)
        first[v + 1] += first[v];
    uint32_t* fill = calloc((size_t)vertices, sizeof *fill);
    assert_non_null(fill);
    for (size_t t = 0; t < tc; ++t)
        by_first[first[idx[3 * t]] + fill[idx[3 * t]]++] = (uint32_t)t;
    for (size_t i = 0; i < tc; ++i) {
        const uint32_t* tv = out + 3 * i;
        size_t found = SIZE_MAX;
        for (uint32_t k = first[tv[0]]; k < first[tv[0] + 1] && found == SIZE_MAX; ++k) {
            const uint32_t t = by_first[k];
            if (idx[3 * t + 1] == tv[1] && idx[3 * t + 2] == tv[2])
                found = t;
        }
        assert_true(found != SIZE_MAX);
        order[i] = (uint32_t)found;
    }
    free(fill);
    free(first);
    free(by_first);
    free(out);
}

/* The order --effort 1 with the presets gives where the guard does not pick meshoptimizer's
 * table order: the tuned Forsyth order, or meshoptimizer's table order where that costs
 * fewer invocations summed over the four presets (gc_analyze) and the mesh has fewer than
 * 65,536 triangles (auto_noharm.c: --effort 1 never above meshoptimizer's order there). */
static void tuned_or_cheaper(const uint32_t* idx, size_t tc, uint32_t vertices, uint32_t* want)
{
    static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};
    gc_error err;
    assert_int_equal(gc_opt_forsyth_scored(idx, tc, vertices, &gc_auto_tuned_scores, want, NULL, &err), GC_OK);
    uint32_t* table = test_indices(tc);
    assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, table, &err), GC_OK);
    uint64_t tuned_cost = 0, table_cost = 0;
    for (int k = 0; k < 4; ++k) {
        const gc_model m = model_of(presets[k]);
        tuned_cost += order_invocations(&m, idx, want, tc);
        table_cost += order_invocations(&m, idx, table, tc);
    }
    if (tc < 65536 && table_cost < tuned_cost)
        memcpy(want, table, tc * sizeof *want);
    free(table);
}

/* --effort 1 with the presets on idx (shuffled first when `shuffle`): meshoptimizer's table
 * order when `grid`, else the tuned Forsyth order or meshoptimizer's where cheaper
 * (tuned_or_cheaper); `classify` (gc_mesh_regular or
 * gc_mesh_regular_or_grid) says `grid` of it. */
static void presets_pick(uint32_t* idx, size_t n, uint32_t vertices, bool shuffle, bool grid,
                         bool (*classify)(const uint32_t*, size_t, uint32_t))
{
    if (shuffle)
        gc_shuffle_triangles(idx, n, 7);
    const size_t tc = n / 3;
    uint32_t* got = test_indices(tc);
    uint32_t* want = test_indices(tc);
    presets_order(idx, n, vertices, got);
    assert_is_permutation(got, tc);
    gc_error err;
    assert_int_equal(classify(idx, tc, vertices), grid);
    if (grid)
        assert_int_equal(gc_opt_score_table(idx, tc, vertices, &gc_meshopt_scores, want, &err), GC_OK);
    else
        tuned_or_cheaper(idx, tc, vertices, want);
    assert_memory_equal(got, want, tc * sizeof *got);
    free(got);
    free(want);
}

static void effort1_presets(void** state)
{
    (void)state;
    const uint32_t sizes[2] = {100, 40}; /* regular (96%), not (90%) */
    for (int s = 0; s < 2; ++s) {
        const uint32_t g = sizes[s];
        size_t n = 0;
        uint32_t* idx = grid(g, &n);
        presets_pick(idx, n, g * g, true, s == 0, gc_mesh_regular);
        free(idx);
    }
}

/* The grid of n x n vertices with the quads (i, j), 10 <= i, j < 22, i + j even, cut along
 * the other diagonal: (i,j) (i+1,j) (i,j+1) and (i+1,j) (i+1,j+1) (i,j+1). */
static uint32_t* cut_grid(uint32_t n, size_t* index_count)
{
    uint32_t* idx = grid(n, index_count);
    size_t k = 0;
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i, k += 6)
            if (i >= 10 && i < 22 && j >= 10 && j < 22 && (i + j) % 2 == 0) {
                const uint32_t a = j * n + i, b = a + 1, c = a + n + 1, d = a + n;
                const uint32_t q[6] = {a, b, d, b, c, d};
                memcpy(idx + k, q, sizeof q);
            }
    return idx;
}

static void grid_with_borders(void** state)
{
    (void)state;
    size_t n = 0;
    uint32_t* idx = grid(60, &n);
    assert_false(gc_mesh_regular(idx, n / 3, 60 * 60));
    assert_true(gc_mesh_regular_or_grid(idx, n / 3, 60 * 60));
    presets_pick(idx, n, 60 * 60, true, true, gc_mesh_regular_or_grid);
    free(idx);
    idx = grid(40, &n);
    assert_false(gc_mesh_regular_or_grid(idx, n / 3, 40 * 40));
    free(idx);
    idx = cut_grid(60, &n);
    presets_pick(idx, n, 60 * 60, true, false, gc_mesh_regular_or_grid);
    free(idx);
    uint32_t vertices = 0;
    idx = corpus_mesh_or_skip("teapot.obj", &n, &vertices);
    presets_pick(idx, n, vertices, false, true, gc_mesh_regular_or_grid);
    presets_pick(idx, n, vertices, true, true, gc_mesh_regular_or_grid);
    free(idx);
    idx = corpus_mesh_or_skip("cow.obj", &n, &vertices);
    presets_pick(idx, n, vertices, false, false, gc_mesh_regular_or_grid);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_share),
        cmocka_unit_test(effort1_presets),
        cmocka_unit_test(grid_with_borders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
