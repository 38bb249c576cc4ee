// SPDX-License-Identifier: MIT
/* Issue 33: auto's threads and its greedy with the machine written in (auto_fast.c).
 *  - gc_optimize_options.threads: the output is byte-identical for 1, 2 and 4 threads (and
 *    the default, 0), on corpus meshes as stored and shuffled, for the four presets and for
 *    lone targets whose candidates differ in kind (a FIFO: the greedy; llvmpipe: patches and
 *    their polish; nvidia-pascal: patches and the swaps; nvidia-dx: Kerbl et al.'s greedy;
 *    direct-value and llvmpipe: the machine greedy, a job beside the others; batch: its
 *    orders told of the batches; lru:16, ati-basic, reuse, direct-position and nvidia-kepler:
 *    their two or three orders side by side, lone_jobs.c),
 *    and with --effort 2 on a small mesh; with positions (the overdraw pass, whose occlusion
 *    pairs are a job beside the candidates) and with first-use numbering; a list of several
 *    runs (gc_mesh_optimize), the runs reordered side by side; a glTF's primitives likewise,
 *    the document and its notes as with one thread;
 *  - gc_opt_fifo_greedy gives, step for step, the order of auto's greedy driven through the
 *    targets' state machines (gc_opt_sim_greedy) for fifo and meshopt targets, with several
 *    weights: the fast greedy is the same search, not an approximation;
 *  - --effort 1 keeps every triangle, for every family. */
#include "test_util.h"

#include "optimize/optimize.h"

/* corpus_triangles and the vertex count it needs; NULL when the corpus lacks the mesh. */
static uint32_t* load(const char* name, size_t* n, uint32_t* vertices)
{
    uint32_t* tri = corpus_triangles(name, n);
    *vertices = tri ? index_bound(tri, *n) : 0;
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
    static const char* const lone[] = {"fifo:16", "llvmpipe", "nvidia-pascal", "nvidia-dx", "direct-value:64",
                                       "batch", "lru:16", "ati-basic", "reuse:32,16,32", "direct-position:32",
                                       "nvidia-kepler"};
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
            /* (lru:16 and batch: a lone target's orders, the occlusion pairs a job beside them) */
            static const char* const placed[] = {"the presets", "nvidia-pascal", "lru:16", "batch"};
            for (int t = 0; t < 4; ++t) {
                gc_model pascal = model_of(t ? placed[t] : "nvidia-pascal");
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
                                 placed[t], threads);
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
    assert_runs_same_for_threads(&d, n, vertices, runs, 5, GC_OPT_AUTO, &fifo, "auto");
    assert_runs_same_for_threads(&d, n, vertices, runs, 5, GC_OPT_FORSYTH, &fifo, "forsyth");
    free(idx);
}

/* The notes gc_mesh_optimize gives for a glTF, one after the other. */
typedef struct notes {
    char text[4096];
} notes;

static void note_down(void* user, const char* line)
{
    notes* n = user;
    size_t at = strlen(n->text);
    snprintf(n->text + at, sizeof n->text - at, "%s\n", line);
}

static void put_u32(unsigned char* p, uint32_t v)
{
    for (int k = 0; k < 4; ++k)
        p[k] = (unsigned char)(v >> (8 * k));
}

/* A glTF of several primitives (gc_mesh_optimize): with threads they are reordered side by
 * side; the document, the notes and the counts are those of one thread. A GLB of a 24 x 24
 * grid's positions and five index accessors: four triangle lists (shuffled parts of the grid,
 * of uneven sizes) and a strip, with a points primitive between them (two notes). */
static void primitives_side_by_side(void** state)
{
    (void)state;
    enum { SIDE = 24, V = (SIDE + 1) * (SIDE + 1), T = 2 * SIDE * SIDE };
    size_t n = 0;
    uint32_t* grid = malloc(3 * T * sizeof *grid);
    gc_error err;
    assert_int_equal(gc_grid_generate(SIDE, SIDE, GC_GRID_ROWMAJOR, 0, grid, &n, &err), GC_OK);
    assert_int_equal(n, 3 * T);
    gc_shuffle_triangles(grid, n, 9);
    const size_t parts[4] = {100, 300, 40, T - 440}; /* triangles of each list */
    const size_t bin_len = 12 * V + 4 * 3 * T + 4 * 4;
    unsigned char* bin = calloc(1, bin_len);
    for (uint32_t v = 0; v < V; ++v) {
        const float xyz[3] = {(float)(v % (SIDE + 1)), (float)(v / (SIDE + 1)), 0.0f};
        memcpy(bin + 12 * v, xyz, sizeof xyz);
    }
    for (size_t i = 0; i < n; ++i)
        put_u32(bin + 12 * V + 4 * i, grid[i]);
    for (uint32_t k = 0; k < 4; ++k) /* the strip's indices */
        put_u32(bin + 12 * V + 12 * T + 4 * k, k);
    char json[4096];
    int len = snprintf(json, sizeof json,
                       "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":["
                       "{\"attributes\":{\"POSITION\":0},\"indices\":1},{\"attributes\":{\"POSITION\":0},\"indices\":2},"
                       "{\"attributes\":{\"POSITION\":0},\"mode\":0},{\"attributes\":{\"POSITION\":0},\"indices\":5,"
                       "\"mode\":5}]},{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":3},"
                       "{\"attributes\":{\"POSITION\":0},\"indices\":4}]}],\"buffers\":[{\"byteLength\":%zu}],"
                       "\"bufferViews\":[{\"buffer\":0,\"byteLength\":%d},{\"buffer\":0,\"byteOffset\":%d,"
                       "\"byteLength\":%zu}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%d,"
                       "\"type\":\"VEC3\"}",
                       bin_len, 12 * V, 12 * V, bin_len - 12 * V, V);
    size_t first = 0;
    for (int k = 0; k < 4; ++k) {
        len += snprintf(json + len, sizeof json - (size_t)len,
                        ",{\"bufferView\":1,\"byteOffset\":%zu,\"componentType\":5125,\"count\":%zu,"
                        "\"type\":\"SCALAR\"}",
                        4 * 3 * first, 3 * parts[k]);
        first += parts[k];
    }
    len += snprintf(json + len, sizeof json - (size_t)len,
                    ",{\"bufferView\":1,\"byteOffset\":%d,\"componentType\":5125,\"count\":4,\"type\":\"SCALAR\"}]}",
                    12 * T);
    /* the GLB: header, the JSON chunk padded with spaces, the BIN chunk */
    const size_t jp = ((size_t)len + 3) & ~(size_t)3, bp = (bin_len + 3) & ~(size_t)3;
    const size_t size = 12 + 8 + jp + 8 + bp;
    unsigned char* glb = calloc(1, size);
    memcpy(glb, "glTF", 4);
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (uint32_t)size);
    put_u32(glb + 12, (uint32_t)jp);
    memcpy(glb + 16, "JSON", 4);
    memcpy(glb + 20, json, (size_t)len);
    memset(glb + 20 + len, ' ', jp - (size_t)len);
    put_u32(glb + 20 + jp, (uint32_t)bp);
    memcpy(glb + 24 + jp, "BIN", 4);
    memcpy(glb + 28 + jp, bin, bin_len);
    char path[1024];
    snprintf(path, sizeof path, "%s/threads_primitives.glb", GPUCACHE_TEST_TMP);
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(glb, 1, size, f), size);
    fclose(f);
    free(glb);
    free(bin);

    gc_model fifo = model_of("fifo:16");
    uint32_t* one[4] = {NULL, NULL, NULL, NULL};
    notes first_notes;
    for (unsigned threads = 1; threads <= 4; threads *= 2) {
        gc_mesh_optimize_options o;
        memset(&o, 0, sizeof o);
        o.algorithm = GC_OPT_AUTO;
        o.optimize.targets = &fifo;
        o.optimize.target_count = 1;
        o.optimize.threads = threads;
        notes got;
        got.text[0] = 0;
        o.note = note_down;
        o.note_user = &got;
        gc_mesh_optimized r;
        if (gc_mesh_optimize(path, NULL, NULL, 0, &o, &r, &err) != GC_OK)
            fail_msg("%u threads: %s", threads, err.message);
        assert_int_equal(r.runs, 4);
        assert_int_equal(r.left, 1);
        assert_int_equal(r.triangles, T);
        /* the four lists, in the document's order: primitives 0, 1, 4 and 5 */
        static const size_t lists[4] = {0, 1, 4, 5};
        for (size_t k = 0, at = 0; k < 4; at += 3 * parts[k], ++k) {
            const gc_gltf_primitive* p = gc_gltf_primitive_at(r.gltf, lists[k]);
            assert_int_equal(p->index_count, 3 * parts[k]);
            if (threads == 1) {
                /* each list holds its own part's triangles, reordered */
                assert_int_equal(gc_check_permutation(grid + at, p->indices, p->index_count, V, &err), GC_OK);
                one[k] = malloc(p->index_count * sizeof *one[k]);
                memcpy(one[k], p->indices, p->index_count * sizeof *one[k]);
            } else if (memcmp(one[k], p->indices, p->index_count * sizeof *one[k])) {
                fail_msg("primitive %zu: %u threads give another order than one", lists[k], threads);
            }
        }
        if (threads == 1) {
            first_notes = got;
            assert_non_null(strstr(got.text, "triangle-strip left as it is"));
        } else {
            assert_string_equal(first_notes.text, got.text);
        }
        gc_mesh_optimized_free(&r);
    }
    for (int k = 0; k < 4; ++k)
        free(one[k]);
    free(grid);
    remove(path);
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
        const size_t tc = n / 3;
        uint32_t* a = malloc(tc * sizeof *a);
        uint32_t* b = malloc(tc * sizeof *b);
        /* as loaded (no triangle repeats a vertex: the fast greedy's loop without the
         * repeated-corner masks), then with degenerate triangles (the corner-by-corner count
         * sees a repeated vertex) */
        for (size_t s = 0; s < 2 * (sizeof specs / sizeof *specs); ++s) {
            if (s == sizeof specs / sizeof *specs)
                for (size_t i = 0; i + 2 < n; i += 301)
                    idx[i + 1] = idx[i];
            gc_model target = model_of(specs[s % (sizeof specs / sizeof *specs)]);
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
                    fail_msg("%s under %s, weights %zu%s: the fast greedy's order differs", meshes[m],
                             specs[s % (sizeof specs / sizeof *specs)], w,
                             s < sizeof specs / sizeof *specs ? "" : ", degenerate triangles");
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
        cmocka_unit_test(primitives_side_by_side),
        cmocka_unit_test(fast_greedy_is_the_greedy),
        cmocka_unit_test(effort_one_keeps_every_triangle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
