// SPDX-License-Identifier: MIT
/* Issue 33: auto's threads and its greedy with the machine written in (auto_fast.c).
 *  - gc_optimize_options.threads: the output is byte-identical for 1, 2 and 4 threads (and
 *    the default, 0), on corpus meshes as stored and shuffled, for the four presets and for
 *    lone targets whose candidates differ in kind (a FIFO: the greedy; llvmpipe: patches and
 *    their polish; nvidia-pascal: patches and the swaps; nvidia-dx: Kerbl et al.'s greedy;
 *    direct-value and llvmpipe: the machine greedy, a job beside the others),
 *    and with --effort 2 on a small mesh; with positions (the overdraw pass, whose occlusion
 *    pairs are a job beside the candidates) and with first-use numbering; a list of several
 *    runs (gc_mesh_optimize), the runs reordered side by side;
 *  - gc_opt_fifo_greedy gives, step for step, the order of auto's greedy driven through the
 *    targets' state machines (gc_opt_sim_greedy) for fifo and meshopt targets, with several
 *    weights: the fast greedy is the same search, not an approximation;
 *  - --effort 1 keeps every triangle, for every family. */
#include "test_util.h"

#include "optimize/optimize.h"

static uint32_t* load(const char* name, size_t* n, uint32_t* vertices)
{
    char path[1024];
    if (corpus_path(path, sizeof path, name) != 0)
        return NULL;
    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(path, NULL, &m, &err) != GC_OK)
        fail_msg("%s", err.message);
    gc_draw d = {m.indices, m.index_count, m.topology, m.restart_enabled, m.restart_value};
    uint64_t prims;
    assert_int_equal(gc_draw_validate(&d, name, &prims, &err), GC_OK);
    uint32_t* tri = malloc(prims * 6 * sizeof *tri + 4);
    assert_non_null(tri);
    assert_int_equal(gc_draw_triangles(&d, tri, prims * 6, n, &err), GC_OK);
    gc_mesh_free(&m);
    uint32_t v = 0;
    for (size_t i = 0; i < *n; ++i)
        v = tri[i] + 1 > v ? tri[i] + 1 : v;
    *vertices = v;
    return tri;
}

static void run_auto(const uint32_t* idx, size_t n, uint32_t vertices, const gc_model* targets, size_t count,
                     unsigned effort, unsigned threads, uint32_t* out)
{
    gc_optimize_options o = {0};
    o.targets = targets;
    o.target_count = count;
    o.effort = effort;
    o.threads = threads;
    gc_error err;
    if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err) != GC_OK)
        fail_msg("auto with %u threads: %s", threads, err.message);
}

static void same_for_every_thread_count(void** state)
{
    (void)state;
    static const char* const meshes[] = {"cow.obj", "fandisk.obj", "suzanne.obj"};
    static const char* const lone[] = {"fifo:16", "llvmpipe", "nvidia-pascal", "nvidia-dx", "direct-value:64"};
    int found = 0;
    for (size_t m = 0; m < sizeof meshes / sizeof *meshes; ++m) {
        size_t n;
        uint32_t vertices;
        uint32_t* idx = load(meshes[m], &n, &vertices);
        if (!idx)
            continue;
        found++;
        uint32_t* one = malloc(n * sizeof *one);
        uint32_t* many = malloc(n * sizeof *many);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, n, 5);
            for (size_t t = 0; t <= sizeof lone / sizeof *lone; ++t) {
                gc_model target;
                if (t)
                    target = model_of(lone[t - 1]);
                const gc_model* targets = t ? &target : NULL; /* first: the four presets */
                run_auto(idx, n, vertices, targets, t ? 1 : 0, 0, 1, one);
                for (unsigned threads = 0; threads <= 4; threads += threads ? threads : 2) {
                    run_auto(idx, n, vertices, targets, t ? 1 : 0, 0, threads, many);
                    if (memcmp(one, many, n * sizeof *one))
                        fail_msg("%s%s, %s: %u threads give another order than one", meshes[m],
                                 shuffled ? " shuffled" : "", t ? lone[t - 1] : "the presets", threads);
                }
            }
        }
        if (m == 0) { /* positions: the overdraw pass, its occlusion pairs a job beside the candidates */
            char path[1024];
            float* xyz = NULL;
            size_t xyz_count = 0;
            gc_error err;
            assert_int_equal(corpus_path(path, sizeof path, meshes[m]), 0);
            assert_int_equal(gc_mesh_load_positions(path, NULL, &xyz, &xyz_count, &err), GC_OK);
            assert_true(xyz_count >= vertices);
            gc_model pascal = model_of("nvidia-pascal");
            for (int t = 0; t < 2; ++t) {
                for (unsigned threads = 1; threads <= 4; threads *= 2) {
                    gc_optimize_options o = {0};
                    o.targets = t ? &pascal : NULL;
                    o.target_count = t ? 1 : 0;
                    o.threads = threads;
                    o.positions = xyz;
                    assert_int_equal(gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, threads == 1 ? one : many, &err),
                                     GC_OK);
                    if (threads > 1 && memcmp(one, many, n * sizeof *one))
                        fail_msg("%s with positions, %s: %u threads give another order than one", meshes[m],
                                 t ? "nvidia-pascal" : "the presets", threads);
                }
            }
            free(xyz);
        }
        if (m == 0) { /* first-use numbering: each worker numbers on its own (the machine greedy's too) */
            static const char* const keyed[] = {"direct-value:64", "llvmpipe"};
            for (size_t k = 0; k < 2; ++k) {
                gc_model target = model_of(keyed[k]);
                gc_optimize_placement placement = {0, 0, 1};
                gc_error err;
                for (unsigned threads = 1; threads <= 2; ++threads) {
                    gc_optimize_options o = {0};
                    o.targets = &target;
                    o.target_count = 1;
                    o.threads = threads;
                    assert_int_equal(gc_optimize_placed(GC_OPT_AUTO, idx, n, vertices, &o, &placement,
                                                        threads == 1 ? one : many, &err),
                                     GC_OK);
                }
                if (memcmp(one, many, n * sizeof *one))
                    fail_msg("%s, %s numbered by first use: 2 threads give another order than one", meshes[m],
                             keyed[k]);
            }
        }
        if (m == 0) { /* --effort 2: more greedy variants, Tipsify at each size, the local search */
            gc_model fifo = model_of("fifo:16");
            run_auto(idx, n, vertices, &fifo, 1, 2, 1, one);
            run_auto(idx, n, vertices, &fifo, 1, 2, 3, many);
            assert_memory_equal(one, many, n * sizeof *one);
        }
        free(one);
        free(many);
        free(idx);
    }
    if (!found)
        skip();
}

/* A list of several runs (gc_mesh_optimize): with threads the runs are reordered side by
 * side, each on one thread; the output is the same as run by run, for auto and Forsyth. */
static void runs_side_by_side(void** state)
{
    (void)state;
    size_t n;
    uint32_t vertices;
    uint32_t* idx = load("cow.obj", &n, &vertices);
    if (!idx)
        skip();
    gc_shuffle_triangles(idx, n, 3);
    /* five runs of uneven sizes, one empty, tiling the list */
    const size_t t = n / 3;
    const size_t runs[5] = {t / 7, t / 3, 0, t / 4, t - t / 7 - t / 3 - t / 4};
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_model fifo = model_of("fifo:16");
    uint32_t* one = malloc(n * sizeof *one);
    for (int algorithm = 0; algorithm < 2; ++algorithm) {
        for (unsigned threads = 1; threads <= 4; threads *= 2) {
            gc_mesh_optimize_options o;
            memset(&o, 0, sizeof o);
            o.algorithm = algorithm ? GC_OPT_FORSYTH : GC_OPT_AUTO;
            o.optimize.targets = &fifo;
            o.optimize.target_count = 1;
            o.optimize.threads = threads;
            gc_mesh_optimized r;
            gc_error err;
            if (gc_mesh_optimize(NULL, &d, runs, 5, &o, &r, &err) != GC_OK)
                fail_msg("%u threads: %s", threads, err.message);
            assert_int_equal(r.runs, 5);
            assert_int_equal(r.index_count, n);
            if (threads == 1) {
                memcpy(one, r.indices, n * sizeof *one);
                /* each run holds its own triangles: reordered within it */
                size_t at = 0;
                for (int k = 0; k < 5; ++k) {
                    assert_int_equal(gc_check_permutation(idx + at, one + at, 3 * runs[k], vertices, &err), GC_OK);
                    at += 3 * runs[k];
                }
            } else if (memcmp(one, r.indices, n * sizeof *one)) {
                fail_msg("%s over 5 runs: %u threads give another order than one", algorithm ? "forsyth" : "auto",
                         threads);
            }
            gc_mesh_optimized_free(&r);
        }
    }
    free(one);
    free(idx);
}

static void fast_greedy_is_the_greedy(void** state)
{
    (void)state;
    static const char* const meshes[] = {"cow.obj", "homer.obj", "woody.obj"};
    static const char* const specs[] = {"fifo:16", "fifo:7", "intel", "nvidia-pascal", "amd-gcn", "meshopt:12,9,5",
                                        "meshopt:16,32,32"};
    static const float weights[][3] = {{0.75f, 0.1f, 7}, {1.0f, 0.2f, 8}, {0.5f, 0.0f, 5}};
    int found = 0;
    for (size_t m = 0; m < sizeof meshes / sizeof *meshes; ++m) {
        size_t n;
        uint32_t vertices;
        uint32_t* idx = load(meshes[m], &n, &vertices);
        if (!idx)
            continue;
        found++;
        gc_shuffle_triangles(idx, n, 11 + m);
        /* degenerate triangles too: the corner-by-corner count sees a repeated vertex */
        for (size_t i = 0; i + 2 < n; i += 301)
            idx[i + 1] = idx[i];
        const size_t tc = n / 3;
        uint32_t* a = malloc(tc * sizeof *a);
        uint32_t* b = malloc(tc * sizeof *b);
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            gc_model target = model_of(specs[s]);
            gc_fifo_machine fm;
            assert_true(gc_fifo_machine_of(&target, &fm));
            for (size_t w = 0; w < sizeof weights / sizeof *weights; ++w) {
                gc_error err;
                assert_int_equal(gc_opt_sim_greedy(idx, tc, vertices, &target, 1, weights[w][0], weights[w][1],
                                                   (uint32_t)weights[w][2], a, &err),
                                 GC_OK);
                assert_int_equal(gc_opt_fifo_greedy(idx, tc, vertices, &fm, weights[w][0], weights[w][1],
                                                    (uint32_t)weights[w][2], b, &err),
                                 GC_OK);
                if (memcmp(a, b, tc * sizeof *a))
                    fail_msg("%s under %s, weights %zu: the fast greedy's order differs", meshes[m], specs[s], w);
            }
        }
        free(a);
        free(b);
        free(idx);
    }
    if (!found)
        skip();
}

static void effort_one_keeps_every_triangle(void** state)
{
    (void)state;
    size_t n;
    uint32_t vertices;
    uint32_t* idx = load("spot.obj", &n, &vertices);
    if (!idx)
        skip();
    uint32_t* out = malloc(n * sizeof *out);
    gc_error err;
    for (size_t p = 0; p < gc_preset_count(); ++p) {
        gc_model target;
        const char *name, *spec, *source;
        gc_preset_get(p, &name, &spec, &source);
        assert_int_equal(gc_model_parse(name, &target, &err), GC_OK);
        run_auto(idx, n, vertices, &target, 1, 1, 1, out);
        assert_int_equal(gc_check_permutation(idx, out, n, vertices, &err), GC_OK);
    }
    run_auto(idx, n, vertices, NULL, 0, 1, 1, out);
    assert_int_equal(gc_check_permutation(idx, out, n, vertices, &err), GC_OK);
    free(out);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_for_every_thread_count),
        cmocka_unit_test(runs_side_by_side),
        cmocka_unit_test(fast_greedy_is_the_greedy),
        cmocka_unit_test(effort_one_keeps_every_triangle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
