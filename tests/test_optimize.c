// SPDX-License-Identifier: MIT
/* The optimizers: never lose a triangle (checked here independently of the library's
 * own check, which must itself catch a corrupted order), improve real meshes, match
 * meshoptimizer's equivalents on a grid (tipsify: its order, index for index, on the
 * corpus too), stay linear on a huge fan; and the grid layouts of seed 002 behave as the
 * seed says. */
#include "test_util.h"

#include <meshoptimizer.h>

#include <math.h>

static const gc_optimizer algorithms[] = {GC_OPT_TIPSIFY, GC_OPT_FORSYTH, GC_OPT_AUTO};

/* The independent reference: sort both triangle lists, each triangle put in its
 * smallest rotation, and compare. */
typedef struct tri {
    uint32_t v[3];
} tri;

static int compare_tri(const void* a, const void* b)
{
    return memcmp(a, b, sizeof(tri)) < 0 ? -1 : memcmp(a, b, sizeof(tri)) > 0;
}

static void canonical(const uint32_t* t, tri* out)
{
    int best = 0;
    for (int r = 1; r < 3; ++r)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = t[(r + k) % 3], b = t[(best + k) % 3];
            if (a != b) {
                if (a < b)
                    best = r;
                break;
            }
        }
    for (int k = 0; k < 3; ++k)
        out->v[k] = t[(best + k) % 3];
}

static int same_triangles(const uint32_t* a, const uint32_t* b, size_t n)
{
    size_t t = n / 3;
    tri* x = malloc((t ? t : 1) * sizeof *x);
    tri* y = malloc((t ? t : 1) * sizeof *y);
    for (size_t i = 0; i < t; ++i) {
        canonical(a + 3 * i, &x[i]);
        canonical(b + 3 * i, &y[i]);
    }
    /* plain byte order is a valid total order for equality checking */
    qsort(x, t, sizeof *x, compare_tri);
    qsort(y, t, sizeof *y, compare_tri);
    int same = memcmp(x, y, t * sizeof *x) == 0;
    free(x);
    free(y);
    return same;
}

static uint32_t max_plus_one(const uint32_t* idx, size_t n)
{
    uint32_t m = 0;
    for (size_t i = 0; i < n; ++i)
        m = idx[i] > m ? idx[i] : m;
    return m + 1;
}

static void optimize_ok(gc_optimizer a, const uint32_t* idx, size_t n, uint32_t* out, const char* what)
{
    gc_error err;
    gc_optimize_options o = {0};
    if (gc_optimize(a, idx, n, max_plus_one(idx, n), &o, out, &err) != GC_OK)
        fail_msg("%s on %s: %s", gc_optimizer_name(a), what, err.message);
    if (!same_triangles(idx, out, n))
        fail_msg("%s on %s: the output is not a reordering of the input triangles", gc_optimizer_name(a), what);
}

/* The library's check rejects what the reference rejects: a flipped winding, a
 * duplicated triangle, a changed index; it accepts rotations. */
static void check_catches_corruption(void** state)
{
    (void)state;
    const uint32_t before[] = {0, 1, 2, 2, 1, 3, 4, 4, 5, 2, 3, 6};
    uint32_t after[12];
    gc_error err;
    const uint32_t rotated[] = {2, 3, 6, 1, 2, 0, 4, 5, 4, 1, 3, 2};
    assert_int_equal(gc_check_permutation(before, rotated, 12, 7, &err), GC_OK);
    memcpy(after, rotated, sizeof after);
    after[0] = 3, after[1] = 2; /* winding flipped */
    assert_int_equal(gc_check_permutation(before, after, 12, 7, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "triangle 0"));
    memcpy(after, rotated, sizeof after);
    memcpy(after + 9, after + 6, 3 * sizeof *after); /* a triangle twice, one lost */
    assert_int_equal(gc_check_permutation(before, after, 12, 7, &err), GC_ERR_DATA);
    memcpy(after, rotated, sizeof after);
    after[5] = 5; /* an index changed */
    assert_int_equal(gc_check_permutation(before, after, 12, 7, &err), GC_ERR_DATA);
}

/* Random meshes, heavy reuse and degenerate triangles included. */
static void random_meshes(void** state)
{
    (void)state;
    uint64_t seed = 99;
    uint32_t* idx = malloc(30000 * sizeof *idx);
    uint32_t* out = malloc(30000 * sizeof *out);
    for (int round = 0; round < 40; ++round) {
        size_t n = 3 * (1 + test_random(&seed) % 9000);
        uint32_t range = 1 + (uint32_t)(test_random(&seed) % (round % 2 ? 50 : 5000));
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)(test_random(&seed) % range);
        if (round % 3 == 0)
            for (size_t i = 0; i + 2 < n; i += 9)
                idx[i + 1] = idx[i]; /* degenerates */
        for (size_t a = 0; a < 3; ++a)
            optimize_ok(algorithms[a], idx, n, out, "a random mesh");
        /* auto's local search (effort 2, one FIFO target) keeps every triangle too */
        gc_model fifo = model_of("fifo:16");
        gc_optimize_options o = {0};
        o.targets = &fifo;
        o.target_count = 1;
        o.effort = 2;
        gc_error err;
        if (gc_optimize(GC_OPT_AUTO, idx, n, max_plus_one(idx, n), &o, out, &err) != GC_OK)
            fail_msg("auto effort 2: %s", err.message);
        if (!same_triangles(idx, out, n))
            fail_msg("auto effort 2 lost or changed triangles");
        /* ... and so do the swaps between warps, for a warp model (degenerates included) */
        gc_model pascal = model_of(round % 2 ? "meshopt:32,32,32" : "meshopt:12,9,5");
        o.targets = &pascal;
        o.effort = 1 + (unsigned)(round % 2);
        if (gc_optimize(GC_OPT_AUTO, idx, n, max_plus_one(idx, n), &o, out, &err) != GC_OK)
            fail_msg("auto for a warp model: %s", err.message);
        if (!same_triangles(idx, out, n))
            fail_msg("auto for a warp model lost or changed triangles");
    }
    free(idx);
    free(out);
}

static uint32_t* load_triangles(const char* name, size_t* n)
{
    char path[1024];
    if (corpus_path(path, sizeof path, name) != 0)
        return NULL;
    gc_mesh m;
    gc_error err;
    gc_load_options lo = {0};
    if (gc_mesh_load(path, &lo, &m, &err) != GC_OK)
        fail_msg("%s", err.message);
    gc_draw d = {m.indices, m.index_count, m.topology, m.restart_enabled, m.restart_value};
    uint64_t prims;
    assert_int_equal(gc_draw_validate(&d, name, &prims, &err), GC_OK);
    uint32_t* tri = malloc(prims * 6 * sizeof *tri);
    assert_int_equal(gc_draw_triangles(&d, tri, prims * 6, n, &err), GC_OK);
    gc_mesh_free(&m);
    return tri;
}

static double atvr_of(const char* spec, const uint32_t* idx, size_t n)
{
    gc_model m = model_of(spec);
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    return st.atvr;
}

/* Every corpus mesh, shuffled: each algorithm keeps every triangle and lowers the
 * ACMR under fifo:16 and under the algorithm's own target. */
static void corpus_meshes(void** state)
{
    (void)state;
    const char* const* names = corpus_meshes_list;
    int found = 0;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        size_t n;
        uint32_t* tri = load_triangles(names[i], &n);
        if (!tri)
            continue;
        found++;
        gc_shuffle_triangles(tri, n, 5);
        uint32_t* out = malloc(n * sizeof *out);
        double shuffled = atvr_of("fifo:16", tri, n);
        for (size_t a = 0; a < 3; ++a) {
            optimize_ok(algorithms[a], tri, n, out, names[i]);
            double after = atvr_of("fifo:16", out, n);
            if (!(after < shuffled))
                fail_msg("%s on %s: ATVR %.4f, shuffled %.4f", gc_optimizer_name(algorithms[a]), names[i], after,
                         shuffled);
        }
        free(out);
        free(tri);
    }
    if (!found)
        skip();
}

/* Forsyth's algorithm as his article states it, written plainly for this test: scores
 * from the position in a 32-entry LRU and the remaining valence (his constants); the next
 * triangle is the best among the cached vertices' remaining triangles, or when there is
 * none, the best remaining triangle anywhere (a full scan). Quadratic, fine for a grid. */
static void reference_forsyth(const uint32_t* idx, size_t n, uint32_t vertices, uint32_t* out)
{
    const int cache_size = 32;
    size_t t_count = n / 3;
    int* live = calloc(vertices, sizeof *live);
    int* position = malloc(vertices * sizeof *position);
    char* done = calloc(t_count, 1);
    for (size_t i = 0; i < n; ++i)
        live[idx[i]]++;
    for (uint32_t v = 0; v < vertices; ++v)
        position[v] = -1;
    uint32_t cache[40];
    int cached = 0;
#define VSCORE(v)                                                                                                     \
    (live[v] == 0 ? -1.0                                                                                              \
                  : ((position[v] < 0 ? 0.0                                                                           \
                      : position[v] < 3 ? 0.75                                                                        \
                                        : pow(1.0 - (position[v] - 3) / (double)(cache_size - 3), 1.5)) +             \
                     2.0 * pow(live[v], -0.5)))
    for (size_t step = 0; step < t_count; ++step) {
        double best_score = -1e30;
        size_t best = (size_t)-1;
        for (int k = 0; k < cached; ++k)
            for (size_t t = 0; t < t_count; ++t) {
                if (done[t] || (idx[3 * t] != cache[k] && idx[3 * t + 1] != cache[k] && idx[3 * t + 2] != cache[k]))
                    continue;
                double sc = VSCORE(idx[3 * t]) + VSCORE(idx[3 * t + 1]) + VSCORE(idx[3 * t + 2]);
                if (sc > best_score)
                    best_score = sc, best = t;
            }
        if (best == (size_t)-1)
            for (size_t t = 0; t < t_count; ++t) {
                if (done[t])
                    continue;
                double sc = VSCORE(idx[3 * t]) + VSCORE(idx[3 * t + 1]) + VSCORE(idx[3 * t + 2]);
                if (sc > best_score)
                    best_score = sc, best = t;
            }
        done[best] = 1;
        memcpy(out + 3 * step, idx + 3 * best, 3 * sizeof *out);
        uint32_t next[40];
        int m = 0;
        for (int c = 0; c < 3; ++c) {
            uint32_t v = idx[3 * best + c];
            live[v]--;
            int dup = 0;
            for (int k = 0; k < m; ++k)
                dup |= next[k] == v;
            if (!dup)
                next[m++] = v;
        }
        for (int k = 0; k < cached && m < 35; ++k)
            if (cache[k] != idx[3 * best] && cache[k] != idx[3 * best + 1] && cache[k] != idx[3 * best + 2])
                next[m++] = cache[k];
        for (int k = 0; k < m; ++k)
            position[next[k]] = k < cache_size ? k : -1;
        cached = m < cache_size ? m : cache_size;
        memcpy(cache, next, (size_t)cached * sizeof *cache);
    }
#undef VSCORE
    free(live);
    free(position);
    free(done);
}

/* On a (shuffled) 30x30 grid, tipsify (k=16) lands within 2% of meshoptimizer's
 * equivalent, meshopt_optimizeVertexCacheFifo, and forsyth within 2% of the plain
 * statement of Forsyth's algorithm above, under fifo:16. */
static void grid_against_references(void** state)
{
    (void)state;
    size_t n = gc_grid_index_count(30, 30, GC_GRID_ROWMAJOR, 0), written;
    uint32_t* idx = malloc(n * sizeof *idx);
    uint32_t* out = malloc(n * sizeof *out);
    uint32_t* ref = malloc(n * sizeof *ref);
    gc_error err;
    assert_int_equal(gc_grid_generate(30, 30, GC_GRID_ROWMAJOR, 0, idx, &written, &err), GC_OK);
    gc_shuffle_triangles(idx, n, 3);
    optimize_ok(GC_OPT_TIPSIFY, idx, n, out, "grid");
    meshopt_optimizeVertexCacheFifo(ref, idx, n, 31 * 31, 16);
    double ours = atvr_of("fifo:16", out, n), theirs = atvr_of("fifo:16", ref, n);
    if (ours > theirs * 1.02)
        fail_msg("tipsify %.4f vs meshopt_optimizeVertexCacheFifo %.4f", ours, theirs);
    optimize_ok(GC_OPT_FORSYTH, idx, n, out, "grid");
    reference_forsyth(idx, n, 31 * 31, ref);
    ours = atvr_of("fifo:16", out, n), theirs = atvr_of("fifo:16", ref, n);
    print_message("forsyth %.4f, reference %.4f\n", ours, theirs);
    if (ours > theirs * 1.02 || ours < theirs * 0.98)
        fail_msg("forsyth %.4f vs the reference statement of Forsyth's algorithm %.4f", ours, theirs);
    free(idx);
    free(out);
    free(ref);
}

/* tipsify against meshopt_optimizeVertexCacheFifo, meshoptimizer's independent
 * implementation of the same paper: the same triangles in the same order, index for index
 * (the same rotation: both copy the input triangle), on a shuffled grid at several cache
 * sizes and on every corpus mesh as loaded and shuffled, at cache 16. */
static void tipsify_matches_meshoptimizer(void** state)
{
    (void)state;
    gc_error err;
    size_t n = gc_grid_index_count(40, 25, GC_GRID_ROWMAJOR, 0), written;
    uint32_t* idx = malloc(n * sizeof *idx);
    uint32_t* out = malloc(n * sizeof *out);
    uint32_t* ref = malloc(n * sizeof *ref);
    assert_int_equal(gc_grid_generate(40, 25, GC_GRID_ROWMAJOR, 0, idx, &written, &err), GC_OK);
    gc_shuffle_triangles(idx, n, 11);
    const uint32_t sizes[] = {4, 8, 16, 32, 128};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        gc_optimize_options o = {0};
        o.cache_size = sizes[k];
        assert_int_equal(gc_optimize(GC_OPT_TIPSIFY, idx, n, 41 * 26, &o, out, &err), GC_OK);
        meshopt_optimizeVertexCacheFifo(ref, idx, n, 41 * 26, sizes[k]);
        if (memcmp(out, ref, n * sizeof *out) != 0)
            fail_msg("tipsify (k=%u) differs from meshopt_optimizeVertexCacheFifo on the shuffled grid", sizes[k]);
    }
    free(idx);
    free(out);
    free(ref);
    int found = 0;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        uint32_t* tri = load_triangles(corpus_meshes_list[i], &n);
        if (!tri)
            continue;
        found++;
        out = malloc(n * sizeof *out);
        ref = malloc(n * sizeof *ref);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(tri, n, 5);
            gc_optimize_options o = {0};
            uint32_t vertices = max_plus_one(tri, n);
            assert_int_equal(gc_optimize(GC_OPT_TIPSIFY, tri, n, vertices, &o, out, &err), GC_OK);
            meshopt_optimizeVertexCacheFifo(ref, tri, n, vertices, 16);
            if (memcmp(out, ref, n * sizeof *out) != 0)
                fail_msg("tipsify differs from meshopt_optimizeVertexCacheFifo on %s%s", corpus_meshes_list[i],
                         shuffled ? " (shuffled)" : "");
        }
        free(out);
        free(ref);
        free(tri);
    }
    if (!found)
        print_message("corpus not found: the grid only\n");
}

/* auto with NVIDIA Pascal's preset alone (meshopt:32,32,32, where the warps' swaps apply)
 * beats meshopt_optimizeVertexCache on every corpus mesh, shuffled, as meshoptimizer's own
 * analyzer counts (meshopt_analyzeVertexCache with the same parameters). */
static void auto_pascal_beats_meshoptimizer(void** state)
{
    (void)state;
    int found = 0;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        size_t n;
        uint32_t* tri = load_triangles(corpus_meshes_list[i], &n);
        if (!tri)
            continue;
        found++;
        gc_shuffle_triangles(tri, n, 5);
        uint32_t vertices = max_plus_one(tri, n);
        uint32_t* out = malloc(n * sizeof *out);
        uint32_t* ref = malloc(n * sizeof *ref);
        gc_model pascal = model_of("nvidia-pascal");
        gc_optimize_options o = {0};
        o.targets = &pascal;
        o.target_count = 1;
        gc_error err;
        if (gc_optimize(GC_OPT_AUTO, tri, n, vertices, &o, out, &err) != GC_OK)
            fail_msg("auto -m nvidia-pascal on %s: %s", corpus_meshes_list[i], err.message);
        if (!same_triangles(tri, out, n))
            fail_msg("auto -m nvidia-pascal on %s lost or changed triangles", corpus_meshes_list[i]);
        meshopt_optimizeVertexCache(ref, tri, n, vertices);
        unsigned ours = meshopt_analyzeVertexCache(out, n, vertices, 32, 32, 32).vertices_transformed;
        unsigned theirs = meshopt_analyzeVertexCache(ref, n, vertices, 32, 32, 32).vertices_transformed;
        if (ours >= theirs)
            fail_msg("auto -m nvidia-pascal on %s: %u invocations, meshoptimizer %u", corpus_meshes_list[i], ours,
                     theirs);
        free(out);
        free(ref);
        free(tri);
    }
    if (!found)
        skip();
}

/* A 100,000-triangle fan around one vertex: every algorithm completes and keeps every
 * triangle (its time is in bench_optimize). */
static void huge_fan(void** state)
{
    (void)state;
    const size_t t = 100000;
    uint32_t* idx = malloc(3 * t * sizeof *idx);
    uint32_t* out = malloc(3 * t * sizeof *out);
    for (size_t i = 0; i < t; ++i) {
        idx[3 * i] = 0;
        idx[3 * i + 1] = (uint32_t)(i + 1);
        idx[3 * i + 2] = (uint32_t)(i + 2);
    }
    for (size_t a = 0; a < 3; ++a)
        optimize_ok(algorithms[a], idx, 3 * t, out, "a 100k fan");
    free(idx);
    free(out);
}

/* Seed 002: the optimal layout built for a FIFO of N reaches ATVR 1 on it (grids of one
 * strip, strip width N - 2 or less: wider grids re-transform the strips' shared column);
 * the striped layout works only while two rows of a strip fit the cache, 2 (w + 1) <= N,
 * and approaches 2 past that. */
static void grid_layouts(void** state)
{
    (void)state;
    static const struct {
        uint32_t cache, width, height;
    } optimal[] = {{16, 14, 20}, {16, 9, 9}, {32, 30, 7}, {128, 100, 100}, {24, 22, 40}};
    for (size_t i = 0; i < sizeof optimal / sizeof optimal[0]; ++i) {
        uint32_t N = optimal[i].cache;
        size_t n = gc_grid_index_count(optimal[i].width, optimal[i].height, GC_GRID_OPTIMAL, N), written;
        uint32_t* idx = malloc(n * sizeof *idx);
        gc_error err;
        assert_int_equal(gc_grid_generate(optimal[i].width, optimal[i].height, GC_GRID_OPTIMAL, N, idx, &written, &err),
                         GC_OK);
        char spec[32];
        snprintf(spec, sizeof spec, "fifo:%u", N);
        double a = atvr_of(spec, idx, written);
        if (a != 1.0)
            fail_msg("optimal %ux%u for fifo:%u: ATVR %.6f", optimal[i].width, optimal[i].height, N, a);
        free(idx);
    }
    /* Striped grids built for cache c have strips of w = c - 2 quads, w + 1 vertices wide.
     * When two rows fit (2 (w + 1) <= 16) every vertex is shaded once per strip that holds
     * it: ATVR = sum over strips of (strip width + 1) / (W + 1), exactly (worked out by
     * hand: a strip's columns are its own, the shared edge columns are shaded twice).
     * Past that each row is shaded again for the next row: ATVR approaches 2. */
    const uint32_t W = 50, H = 40;
    for (uint32_t c = 4; c <= 30; ++c) {
        size_t n = gc_grid_index_count(W, H, GC_GRID_STRIPED, c), written;
        uint32_t* idx = malloc(n * sizeof *idx);
        gc_error err;
        assert_int_equal(gc_grid_generate(W, H, GC_GRID_STRIPED, c, idx, &written, &err), GC_OK);
        double a = atvr_of("fifo:16", idx, written);
        uint32_t w = c - 2, columns = 0;
        for (uint32_t x0 = 0; x0 < W; x0 += w)
            columns += (W - x0 < w ? W - x0 : w) + 1;
        double expected = (double)columns / (W + 1);
        if (2 * (w + 1) <= 16 && fabs(a - expected) > 1e-12)
            fail_msg("striped w=%u fits two rows in fifo:16: ATVR %.6f, expected %.6f", w, a, expected);
        if (2 * (w + 1) > 16 && a < 1.8)
            fail_msg("striped w=%u does not fit two rows in fifo:16 but ATVR is only %.4f", w, a);
        free(idx);
    }
}

/* Issue 34 F5: a run given to gc_optimize_placed (stream_position, stream_length) must lie inside
 * its draw, for every algorithm: the runs [3, -1] of 2 triangles once made the caller pass
 * 9 indices of a draw of 6, and the optimizer read past the end. Whole runs still pass. */
static void runs_outside_the_draw(void** state)
{
    (void)state;
    /* two triangles, in a buffer large enough that the bad calls read nothing outside it */
    const uint32_t idx[9] = {0, 1, 2, 2, 1, 3, 0, 0, 0};
    uint32_t out[9];
    for (int a = 0; a < GC_OPT_COUNT; ++a) {
        gc_optimize_options o = {0};
        gc_optimize_placement p = {0};
        gc_error err;
        p.stream_length = 6;
        p.stream_position = 0;
        assert_int_equal(gc_optimize_placed((gc_optimizer)a, idx, 9, 4, &o, &p, out, &err), GC_ERR_USAGE);
        assert_non_null(strstr(err.message, "lies outside the draw of 6 indices"));
        p.stream_position = 9; /* past the end: a length of -3 wrapped around */
        assert_int_equal(gc_optimize_placed((gc_optimizer)a, idx, 3, 4, &o, &p, out, &err), GC_ERR_USAGE);
        p.stream_position = 3;
        assert_int_equal(gc_optimize_placed((gc_optimizer)a, idx, 6, 4, &o, &p, out, &err), GC_ERR_USAGE);
        /* the runs [1, 1]: each inside */
        p.stream_position = 0;
        assert_int_equal(gc_optimize_placed((gc_optimizer)a, idx, 3, 4, &o, &p, out, &err), GC_OK);
        p.stream_position = 3;
        assert_int_equal(gc_optimize_placed((gc_optimizer)a, idx + 3, 3, 4, &o, &p, out + 3, &err), GC_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_catches_corruption),
        cmocka_unit_test(random_meshes),
        cmocka_unit_test(corpus_meshes),
        cmocka_unit_test(grid_against_references),
        cmocka_unit_test(tipsify_matches_meshoptimizer),
        cmocka_unit_test(auto_pascal_beats_meshoptimizer),
        cmocka_unit_test(huge_fan),
        cmocka_unit_test(grid_layouts),
        cmocka_unit_test(runs_outside_the_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
