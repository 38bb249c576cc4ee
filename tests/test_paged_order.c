// SPDX-License-Identifier: MIT
/* The page-classed order and the greedy that follows nv-gl's pages (paged_order.c,
 * paged_greedy.c), auto's orders for nvidia-h100 where the pages change and the numbering is
 * kept (docs/optimizers/auto.md, "nvidia-h100 with the numbering kept"). On a synthetic grid
 * of 200 x 200 vertices whose values sit on 3 pages in blocks of 25 x 25 (the page of block
 * (bx, by) is (bx + 2 by) mod 3, values numbered within each page in row order), so the pages
 * interleave spatially and every block border carries triangles across pages:
 *   - each order is a permutation of the triangles;
 *   - the page changes in the page-classed order's stream are at most the bound of its
 *     class structure, derived by hand: inside a pure triangle none, inside a mixed one at
 *     most 2; between two triangles none where both are pure on the same page, else at most
 *     one, and such a boundary touches a mixed triangle (at most 2 each) or joins two pure
 *     classes (at most pages - 1 such joins, the pure classes coming in order of their
 *     page with mixed groups between): 4 M + 2 in all for M mixed triangles, 3 pages; M is
 *     counted here from the values (the grid's block borders);
 *   - under nvidia-h100 (gc_analyze) the orders cost fewer invocations than meshoptimizer's
 *     table order (gc_opt_score_table with gc_meshopt_scores) on the same list, and the greedy
 *     counts its own order as gc_analyze does (the greedy on a grid whose every triangle spans
 *     the 3 pages, blocks of one vertex: where auto runs it on the whole list);
 *   - the output is the same for 1 to 4 threads (the classes are jobs), and auto's too, at
 *     --effort 1 and the default (and --effort 2 gives the default's order);
 *   - below 65,536 vertices auto's nvidia-h100 order is nvidia-gl's (no page changes). */
#include "test_util.h"

#include "optimize/optimize.h"
#include "optimize/paged_order.h"

#define GRID 200
#define BLOCK 25
#define PAGES 3

/* The grid's triangles (two a cell) over the values described above; *vertex_count: above
 * every value. */
static uint32_t* paged_grid(uint32_t block, size_t* triangle_count, uint32_t* vertex_count)
{
    uint32_t* value = malloc((size_t)GRID * GRID * sizeof *value);
    uint32_t next[PAGES] = {0, 0, 0};
    assert_non_null(value);
    uint32_t top = 0;
    for (uint32_t y = 0; y < GRID; ++y)
        for (uint32_t x = 0; x < GRID; ++x) {
            const uint32_t page = (x / block + 2 * (y / block)) % PAGES;
            value[y * GRID + x] = (page << 16) + next[page]++;
            top = value[y * GRID + x] + 1 > top ? value[y * GRID + x] + 1 : top;
        }
    *triangle_count = 2 * (size_t)(GRID - 1) * (GRID - 1);
    uint32_t* idx = test_indices(3 * *triangle_count);
    size_t k = 0;
    for (uint32_t y = 0; y + 1 < GRID; ++y)
        for (uint32_t x = 0; x + 1 < GRID; ++x) {
            const uint32_t a = value[y * GRID + x], b = value[y * GRID + x + 1], c = value[(y + 1) * GRID + x],
                           d = value[(y + 1) * GRID + x + 1];
            const uint32_t t[6] = {a, c, b, b, c, d};
            memcpy(idx + k, t, sizeof t);
            k += 6;
        }
    free(value);
    *vertex_count = top;
    return idx;
}

static void assert_permutation(const uint32_t* order, size_t triangle_count)
{
    uint8_t* seen = calloc(triangle_count, 1);
    assert_non_null(seen);
    for (size_t t = 0; t < triangle_count; ++t) {
        assert_true(order[t] < triangle_count);
        assert_int_equal(seen[order[t]], 0);
        seen[order[t]] = 1;
    }
    free(seen);
}

/* The list in `order` (NULL: as it is), expanded. */
static uint32_t* expand(const uint32_t* idx, size_t triangle_count, const uint32_t* order)
{
    uint32_t* out = test_indices(3 * triangle_count);
    for (size_t t = 0; t < triangle_count; ++t)
        memcpy(out + 3 * t, idx + 3 * (size_t)(order ? order[t] : t), 3 * sizeof *out);
    return out;
}

static uint64_t h100_count(const uint32_t* idx, size_t triangle_count, const uint32_t* order)
{
    uint32_t* list = expand(idx, triangle_count, order);
    gc_model m = model_of("nvidia-h100");
    gc_draw d = {list, 3 * triangle_count, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(&m, &d, NULL, &st, &err) != GC_OK)
        fail_msg("analyze: %s", err.message);
    free(list);
    return st.invocations;
}

static size_t page_changes(const uint32_t* idx, size_t triangle_count, const uint32_t* order)
{
    size_t changes = 0;
    uint32_t last = UINT32_MAX;
    for (size_t t = 0; t < triangle_count; ++t)
        for (unsigned c = 0; c < 3; ++c) {
            const uint32_t page = idx[3 * (size_t)order[t] + c] >> 16;
            changes += last != UINT32_MAX && page != last;
            last = page;
        }
    return changes;
}

static void classed_order_on_interleaved_pages(void** state)
{
    (void)state;
    size_t tc;
    uint32_t vc;
    uint32_t* idx = paged_grid(BLOCK, &tc, &vc);
    size_t mixed = 0;
    for (size_t t = 0; t < tc; ++t)
        mixed += (idx[3 * t] >> 16) != (idx[3 * t + 1] >> 16) || (idx[3 * t + 1] >> 16) != (idx[3 * t + 2] >> 16);
    /* a block border crosses 199 cells twice over its length: some mixed, most pure */
    assert_true(mixed > 0 && 2 * mixed < tc);
    gc_model h100 = model_of("nvidia-h100");
    gc_error err;
    uint32_t* meshopt = malloc(tc * sizeof *meshopt);
    uint32_t* order = malloc(tc * sizeof *order);
    uint32_t* other = malloc(tc * sizeof *other);
    assert_int_equal(gc_opt_score_table(idx, tc, vc, &gc_meshopt_scores, meshopt, &err), GC_OK);
    const uint64_t meshopt_count = h100_count(idx, tc, meshopt);
    for (int more = 0; more < 2; ++more) {
        size_t classes = 0;
        assert_int_equal(gc_opt_paged_order(idx, tc, vc, &h100, more, 1, order, &classes, &err), GC_OK);
        assert_permutation(order, tc);
        assert_true(classes >= PAGES + 1); /* 3 pure classes, and mixed ones */
        const size_t changes = page_changes(idx, tc, order);
        assert_true(changes <= 4 * mixed + (PAGES - 1));
        /* fewer than meshoptimizer's order has, and fewer invocations */
        assert_true(changes < page_changes(idx, tc, meshopt));
        const uint64_t count = h100_count(idx, tc, order);
        if (count >= meshopt_count)
            fail_msg("paged order (more %d): %llu invocations, meshoptimizer's %llu", more,
                     (unsigned long long)count, (unsigned long long)meshopt_count);
        for (unsigned threads = 2; threads <= 4; ++threads) {
            assert_int_equal(gc_opt_paged_order(idx, tc, vc, &h100, more, threads, other, NULL, &err), GC_OK);
            assert_memory_equal(order, other, tc * sizeof *order);
        }
    }
    /* the greedy, on a list whose triangles all span 3 pages (blocks of one vertex) */
    free(idx);
    idx = paged_grid(1, &tc, &vc);
    assert_int_equal(gc_opt_score_table(idx, tc, vc, &gc_meshopt_scores, meshopt, &err), GC_OK);
    uint64_t own = 0;
    assert_int_equal(gc_opt_paged_greedy(idx, tc, vc, &h100, 2, order, &own, &err), GC_OK);
    assert_permutation(order, tc);
    assert_true(own == h100_count(idx, tc, order)); /* its own count, gc_analyze's */
    assert_true(own < h100_count(idx, tc, meshopt));
    /* not nv-gl with pages: refused */
    gc_model gl = model_of("nvidia-gl");
    assert_int_equal(gc_opt_paged_order(idx, tc, vc, &gl, false, 1, order, NULL, &err), GC_ERR_USAGE);
    assert_int_equal(gc_opt_paged_greedy(idx, tc, vc, &gl, 2, order, NULL, &err), GC_ERR_USAGE);
    free(meshopt), free(order), free(other), free(idx);
}

static void run_auto(const uint32_t* idx, size_t n, uint32_t vertices, const char* spec, unsigned effort,
                     unsigned threads, uint32_t* out)
{
    gc_model m = model_of(spec);
    gc_optimize_options o = {0};
    o.targets = &m;
    o.target_count = 1;
    o.effort = effort;
    o.threads = threads;
    gc_error err;
    if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err) != GC_OK)
        fail_msg("auto %s with %u threads: %s", spec, threads, err.message);
}

/* auto -m nvidia-h100, numbering kept: below meshoptimizer's order, the same for 1 to 4
 * threads, on the grid in blocks (the page-classed order) and in blocks of one vertex (the
 * greedy on the whole list). */
static void auto_h100_blocks(uint32_t block)
{
    size_t tc;
    uint32_t vc;
    uint32_t* idx = paged_grid(block, &tc, &vc);
    const size_t n = 3 * tc;
    uint32_t* one = test_indices(n);
    uint32_t* many = test_indices(n);
    uint32_t* meshopt = malloc(tc * sizeof *meshopt);
    gc_error err;
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        if (shuffled)
            gc_shuffle_triangles(idx, n, 11);
        assert_int_equal(gc_opt_score_table(idx, tc, vc, &gc_meshopt_scores, meshopt, &err), GC_OK);
        const uint64_t meshopt_count = h100_count(idx, tc, meshopt);
        for (unsigned effort = 0; effort <= 1; ++effort) {
            run_auto(idx, n, vc, "nvidia-h100", effort, 1, one);
            gc_model m = model_of("nvidia-h100");
            gc_draw d = {one, n, GC_TRIANGLE_LIST, 0, 0};
            gc_stats st;
            assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
            if (st.invocations >= meshopt_count)
                fail_msg("auto nvidia-h100 effort %u: %llu invocations, meshoptimizer's order %llu", effort,
                         (unsigned long long)st.invocations, (unsigned long long)meshopt_count);
            for (unsigned threads = 2; threads <= 4; ++threads) {
                run_auto(idx, n, vc, "nvidia-h100", effort, threads, many);
                assert_memory_equal(one, many, n * sizeof *one);
            }
            if (effort == 0) { /* --effort 2 gives the default's order here */
                run_auto(idx, n, vc, "nvidia-h100", 2, 1, many);
                assert_memory_equal(one, many, n * sizeof *one);
            }
        }
    }
    free(idx), free(one), free(many), free(meshopt);
}

static void auto_h100_on_pages(void** state)
{
    (void)state;
    auto_h100_blocks(BLOCK);
    auto_h100_blocks(1);
}

/* Below 65,536 vertices nvidia-h100 is nvidia-gl: the same orders. */
static void auto_h100_below_a_page(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(120, 120, &n); /* 121 x 121 vertices */
    uint32_t vc = 0;
    for (size_t i = 0; i < n; ++i)
        vc = idx[i] + 1 > vc ? idx[i] + 1 : vc;
    assert_true(vc < 65536);
    uint32_t* h = test_indices(n);
    uint32_t* g = test_indices(n);
    for (unsigned effort = 0; effort <= 1; ++effort) {
        run_auto(idx, n, vc, "nvidia-h100", effort, 1, h);
        run_auto(idx, n, vc, "nvidia-gl", effort, 1, g);
        assert_memory_equal(h, g, n * sizeof *h);
    }
    free(idx), free(h), free(g);
}

/* A fan of 100,000 triangles round vertex 0, its rim on pages 0 and 1: each step of the
 * greedy looks up a bounded number of the hub's triangles (a quadratic scan would not end in
 * the test's time); both orders are permutations, the greedy's count gc_analyze's. */
static void hub_fan(void** state)
{
    (void)state;
    const size_t tc = 100000;
    uint32_t* idx = test_indices(3 * tc);
    for (size_t t = 0; t < tc; ++t)
        idx[3 * t] = 0, idx[3 * t + 1] = (uint32_t)t + 1, idx[3 * t + 2] = (uint32_t)t + 2;
    const uint32_t vc = (uint32_t)tc + 2;
    gc_model h100 = model_of("nvidia-h100");
    gc_error err;
    uint32_t* order = malloc(tc * sizeof *order);
    uint64_t own = 0;
    assert_int_equal(gc_opt_paged_greedy(idx, tc, vc, &h100, 2, order, &own, &err), GC_OK);
    assert_permutation(order, tc);
    assert_true(own == h100_count(idx, tc, order));
    assert_int_equal(gc_opt_paged_order(idx, tc, vc, &h100, true, 2, order, NULL, &err), GC_OK);
    assert_permutation(order, tc);
    free(order), free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classed_order_on_interleaved_pages),
        cmocka_unit_test(auto_h100_on_pages),
        cmocka_unit_test(auto_h100_below_a_page),
        cmocka_unit_test(hub_fan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
