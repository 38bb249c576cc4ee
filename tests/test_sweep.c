// SPDX-License-Identifier: MIT
/* gc_sweep_run, the library's sweep engine (src/probe/sweep.c): rows worked out by hand for
 * the original layout, layouts that do not apply left invalid, the same rows for any
 * thread count, and bad descriptions refused. */
#include "test_util.h"

#include "gpucache/gpucache_probe.h"

/* Two triangles 0 1 2 / 2 1 3. Under a FIFO of 3: 0, 1, 2 miss; 2 and 1 hit; 3 misses (and
 * drops 0): 4 invocations of 4 vertices. Under a FIFO of 2: 0, 1, 2 miss (2 drops 0), 2
 * hits, 1 hits, 3 misses: also 4. Under direct-value:2 (slot = value mod 2): 0 -> slot 0,
 * 1 -> slot 1, 2 -> slot 0 (drops 0), 2 hits, 1 hits, 3 -> slot 1 (drops 1): 4. */
static const uint32_t quad[] = {0, 1, 2, 2, 1, 3};

static void original_rows_by_hand(void** state)
{
    (void)state;
    gc_sweep_mesh mesh = {"quad", 0, 0, 0, quad, 6, 4};
    gc_sweep_layout layouts[] = {GC_LAYOUT_ORIGINAL, GC_LAYOUT_OPTIMAL, GC_LAYOUT_FORSYTH};
    gc_model models[2] = {model_of("fifo:3"), model_of("direct-value:2")};
    gc_sweep s = {0};
    s.meshes = &mesh;
    s.mesh_count = 1;
    s.layouts = layouts;
    s.layout_count = 3;
    s.cache_lo = 3;
    s.cache_hi = 4;
    s.models = models;
    s.model_count = 2;
    s.threads = 1;
    gc_sweep_row rows[3 * 2 * 2];
    gc_error err;
    assert_int_equal(gc_sweep_run(&s, rows, &err), GC_OK);
    /* jobs: layout-major within the mesh, then cache size; rows: job * models + model */
    for (int cache = 0; cache < 2; ++cache)
        for (int k = 0; k < 2; ++k) {
            const gc_sweep_row* r = &rows[(0 * 2 + cache) * 2 + k];
            assert_true(r->valid);
            assert_int_equal(r->invocations, 4);
            assert_int_equal(r->triangles, 2);
            assert_int_equal(r->vertices, 4);
            assert_true(r->atvr == 1.0);
            assert_true(r->acmr == 2.0);
            /* the optimal grid layout does not apply to a mesh file */
            assert_false(rows[(1 * 2 + cache) * 2 + k].valid);
        }
    /* forsyth models caches of 4 to 256: not at 3, but at 4 */
    assert_false(rows[(2 * 2 + 0) * 2 + 0].valid);
    assert_true(rows[(2 * 2 + 1) * 2 + 0].valid);
    assert_string_equal(gc_sweep_layout_name(GC_LAYOUT_TIPSIFY), "tipsify");
}

static void same_rows_for_any_thread_count(void** state)
{
    (void)state;
    const uint32_t w = 24, h = 24;
    size_t count = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 16);
    uint32_t* grid = malloc(count * sizeof *grid);
    size_t n = 0;
    gc_error err;
    assert_non_null(grid);
    assert_int_equal(gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 16, grid, &n, &err), GC_OK);
    gc_sweep_mesh mesh = {"grid", 1, w, h, grid, n, (w + 1) * (h + 1)};
    gc_sweep_layout layouts[] = {GC_LAYOUT_OPTIMAL, GC_LAYOUT_STRIPED, GC_LAYOUT_TIPSIFY, GC_LAYOUT_ORIGINAL};
    gc_model models[2] = {model_of("fifo:16"), model_of("lru:12")};
    gc_sweep s = {0};
    s.meshes = &mesh;
    s.mesh_count = 1;
    s.layouts = layouts;
    s.layout_count = 4;
    s.cache_lo = 6;
    s.cache_hi = 13;
    s.models = models;
    s.model_count = 2;
    enum { ROWS = 4 * 8 * 2 };
    gc_sweep_row one[ROWS], four[ROWS];
    s.threads = 1;
    assert_int_equal(gc_sweep_run(&s, one, &err), GC_OK);
    s.threads = 4;
    assert_int_equal(gc_sweep_run(&s, four, &err), GC_OK);
    for (int i = 0; i < ROWS; ++i) {
        assert_true(one[i].valid);
        assert_int_equal(one[i].invocations, four[i].invocations);
        assert_true(one[i].invocations >= one[i].vertices);
        assert_int_equal(one[i].vertices, (w + 1) * (h + 1));
    }
    /* the original layout's rows are what gc_analyze says of the grid */
    gc_draw d = {grid, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    assert_int_equal(gc_analyze(&models[1], &d, NULL, &st, &err), GC_OK);
    assert_int_equal(one[(3 * 8 + 5) * 2 + 1].invocations, st.invocations);
    free(grid);
}

static void bad_descriptions_refused(void** state)
{
    (void)state;
    gc_sweep_mesh mesh = {"quad", 0, 0, 0, quad, 6, 4};
    gc_sweep_layout layout = GC_LAYOUT_ORIGINAL;
    gc_model model = model_of("fifo:3");
    int on_device = 1;
    gc_sweep s = {0};
    s.meshes = &mesh;
    s.mesh_count = 1;
    s.layouts = &layout;
    s.layout_count = 1;
    s.cache_lo = 2; /* below 3 */
    s.cache_hi = 4;
    s.models = &model;
    s.model_count = 1;
    gc_sweep_row rows[3];
    gc_error err;
    assert_int_equal(gc_sweep_run(&s, rows, &err), GC_ERR_USAGE);
    s.cache_lo = 3;
    s.on_device = &on_device; /* a device model and no device */
    assert_int_equal(gc_sweep_run(&s, rows, &err), GC_ERR_USAGE);
    s.on_device = NULL;
    layout = (gc_sweep_layout)99;
    assert_int_equal(gc_sweep_run(&s, rows, &err), GC_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(original_rows_by_hand),
        cmocka_unit_test(same_rows_for_any_thread_count),
        cmocka_unit_test(bad_descriptions_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
