// SPDX-License-Identifier: MIT
/* Issue 30, the measuring half: overdraw and vertex fetch.
 *
 * - Overdraw by hand: one quad seen from the front covers a known set of pixel centres once;
 *   a second quad in front of it drawn after it shades them again, behind it does not.
 * - Overdraw against meshopt_analyzeOverdraw of meshoptimizer 1.2 (an independent
 *   implementation of the same definition; its figures in data/peer/, written by
 *   bench/peer_overdraw.c: Debian's 0.18 has a depth-gradient bug, docs/models/overdraw.md):
 *   within 0.5% on every corpus mesh, in its stored order and shuffled; and against a plain
 *   floating-point rasterizer written here on random triangle soups.
 * - Fetch in meshopt mode equal to meshopt_analyzeVertexFetch (bytes exactly, overfetch as
 *   its float division) on the corpus and random buffers, for several vertex sizes.
 * - Fetch through a model: by hand, a fifo:3 cache and a 2-line direct-mapped cache; and
 *   the fetches never exceed those of every reference.
 * - Bad specs and strides: GC_ERR_USAGE / GC_ERR_DATA. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <meshoptimizer.h>

typedef struct loaded {
    uint32_t* idx;
    size_t n;
    uint32_t vertices;
    float* xyz;
} loaded;

static bool load(const char* name, loaded* m)
{
    char path[4096];
    if (corpus_path(path, sizeof path, name) != 0)
        return false;
    gc_error err;
    /* igea is strips with restarts: drawn as the triangles they assemble into */
    assert_int_equal(gc_mesh_load_triangles(path, NULL, &m->idx, &m->n, NULL, &err), GC_OK);
    size_t count = 0;
    assert_int_equal(gc_mesh_load_positions(path, NULL, &m->xyz, &count, &err), GC_OK);
    m->vertices = (uint32_t)count;
    for (size_t i = 0; i < m->n; ++i)
        assert_true(m->idx[i] < m->vertices);
    return true;
}

static void check_overdraw(const uint32_t* idx, size_t n, const float* xyz, uint32_t vertices, uint64_t covered,
                           uint64_t shaded, const char* reference, const char* what)
{
    gc_overdraw_stats ours;
    gc_error err;
    assert_int_equal(gc_analyze_overdraw(idx, n, xyz, vertices, 0, &ours, &err), GC_OK);
    double ratio = (double)shaded / (double)covered;
    double covered_err = fabs((double)ours.covered - (double)covered) / (double)covered;
    double shaded_err = fabs((double)ours.shaded - (double)shaded) / (double)shaded;
    double ratio_err = fabs(ours.ratio - ratio) / ratio;
    print_message("%-28s covered %8llu / %8llu  shaded %8llu / %8llu  overdraw %.5f / %.5f (%.4f%%)\n", what,
                  (unsigned long long)ours.covered, (unsigned long long)covered, (unsigned long long)ours.shaded,
                  (unsigned long long)shaded, ours.ratio, ratio, 100.0 * ratio_err);
    if (covered_err > 0.005 || shaded_err > 0.005 || ratio_err > 0.005)
        fail_msg("%s: overdraw differs from %s by more than 0.5%%", what, reference);
}

/* data/peer/meshopt-1.2-overdraw.tsv: meshopt_analyzeOverdraw of meshoptimizer 1.2 on each
 * corpus mesh, stored and shuffled (bench/peer_overdraw.c wrote it). */
static void overdraw_corpus(void** state)
{
    (void)state;
    FILE* f = fopen(GPUCACHE_SOURCE_DIR "/data/peer/meshopt-1.2-overdraw.tsv", "r");
    assert_non_null(f);
    char line[512];
    size_t tested = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        char name[128];
        unsigned long long seed, covered, shaded;
        if (line[0] == '#' || sscanf(line, "%127s %llu %llu %llu", name, &seed, &covered, &shaded) != 4)
            continue;
        ++rows;
        loaded m;
        if (!load(name, &m))
            continue;
        if (seed)
            gc_shuffle_triangles(m.idx, m.n, seed);
        char what[160];
        snprintf(what, sizeof what, "%s%s", name, seed ? " shuffled" : "");
        check_overdraw(m.idx, m.n, m.xyz, m.vertices, covered, shaded, "meshopt_analyzeOverdraw 1.2", what);
        free(m.idx), free(m.xyz);
        ++tested;
    }
    fclose(f);
    assert_int_equal(rows, 2 * CORPUS_MESH_COUNT);
    if (!tested)
        skip();
}

/* An independent statement of the definition, in doubles: no snapping, barycentric inside
 * test on the exact corners (a centre on an edge counts as inside: ties are rare in random
 * data), depth interpolated with the same weights. */
static void reference_overdraw(const uint32_t* idx, size_t n, const float* xyz, uint32_t vertices, uint64_t* covered,
                               uint64_t* shaded)
{
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    for (uint32_t v = 0; v < vertices; ++v)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], xyz[3 * v + k]);
            hi[k] = fmax(hi[k], xyz[3 * v + k]);
        }
    double extent = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    double* depth = malloc(2 * 256 * 256 * sizeof *depth);
    uint32_t* count = malloc(2 * 256 * 256 * sizeof *count);
    assert_non_null(depth), assert_non_null(count);
    *covered = *shaded = 0;
    /* looking along x, the picture is (z, y); along y, (x, z); along z, (y, x) */
    const int axes[3][3] = {{2, 1, 0}, {0, 2, 1}, {1, 0, 2}};
    for (int view = 0; view < 3; ++view) {
        memset(count, 0, 2 * 256 * 256 * sizeof *count);
        for (size_t p = 0; p < 2 * 256 * 256; ++p)
            depth[p] = 0.0;
        for (size_t i = 0; i < n; i += 3) {
            double c[3][3];
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 3; ++k)
                    c[j][k] = (xyz[3 * idx[i + j] + axes[view][k]] - lo[axes[view][k]]) * 256.0 / extent;
            double area = (c[1][0] - c[0][0]) * (c[2][1] - c[0][1]) - (c[1][1] - c[0][1]) * (c[2][0] - c[0][0]);
            if (area == 0.0)
                continue;
            int side = area > 0;
            for (int y = 0; y < 256; ++y)
                for (int x = 0; x < 256; ++x) {
                    double px = x + 0.5, py = y + 0.5, w[3];
                    for (int j = 0; j < 3; ++j) {
                        const double* a = c[(j + 1) % 3];
                        const double* b = c[(j + 2) % 3];
                        w[j] = ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) / area;
                    }
                    if (w[0] < 0 || w[1] < 0 || w[2] < 0)
                        continue;
                    double z = w[0] * c[0][2] + w[1] * c[1][2] + w[2] * c[2][2];
                    if (side)
                        z = 256.0 - z;
                    size_t at = (size_t)side * 65536 + (size_t)y * 256 + (size_t)x;
                    if (z >= depth[at]) {
                        depth[at] = z;
                        count[at] += 1;
                    }
                }
        }
        for (size_t p = 0; p < 2 * 256 * 256; ++p) {
            *covered += count[p] > 0;
            *shaded += count[p];
        }
    }
    free(depth), free(count);
}

static void overdraw_random(void** state)
{
    (void)state;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 4; ++round) {
        uint32_t vertices = 50 + (uint32_t)(test_random(&s) % 400);
        size_t n = 3 * (size_t)(50 + test_random(&s) % 150);
        float* xyz = malloc(vertices * 3 * sizeof *xyz);
        uint32_t* idx = malloc(n * sizeof *idx);
        assert_non_null(xyz), assert_non_null(idx);
        for (uint32_t v = 0; v < 3 * vertices; ++v)
            xyz[v] = (float)(test_random(&s) % 100000) / 1000.0f - 50.0f;
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)(test_random(&s) % vertices);
        uint64_t covered, shaded;
        reference_overdraw(idx, n, xyz, vertices, &covered, &shaded);
        char what[64];
        snprintf(what, sizeof what, "random soup %d", round);
        check_overdraw(idx, n, xyz, vertices, covered, shaded, "the reference rasterizer", what);
        free(xyz), free(idx);
    }
}

/* Two squares of side 1 in the planes z = 0 (behind) and z = 1 (in front), at x, y in
 * [0, 1], with a third vertex row making the box 1 x 1 x 1, so that the 256-pixel grid maps
 * one unit to 256 pixels. Seen along z, each square covers all 256 x 256 pixel centres of
 * its side. */
static void overdraw_by_hand(void** state)
{
    (void)state;
    const float xyz[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, /* back square, vertices 0-3 */
                         0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1 /* front square, vertices 4-7 */};
    /* counter-clockwise seen from +z: both squares face the same way */
    const uint32_t back_then_front[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    const uint32_t front_then_back[] = {4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3};
    gc_overdraw_stats a, b, one;
    gc_error err;
    assert_int_equal(gc_analyze_overdraw(back_then_front, 12, xyz, 8, 0, &a, &err), GC_OK);
    assert_int_equal(gc_analyze_overdraw(front_then_back, 12, xyz, 8, 0, &b, &err), GC_OK);
    assert_int_equal(gc_analyze_overdraw(back_then_front, 6, xyz, 8, 0, &one, &err), GC_OK);
    /* Along z: 65536 pixels on one side. Along x and y the squares are edge-on (zero area):
     * nothing. One square alone shades each covered pixel once. */
    assert_int_equal(one.covered, 65536);
    assert_int_equal(one.shaded, 65536);
    /* Back then front: both pass the depth test, each pixel shaded twice. */
    assert_int_equal(a.covered, 65536);
    assert_int_equal(a.shaded, 2 * 65536);
    /* Front first: the back square fails the test everywhere, except where the two depths
     * are equal (never: they are a whole grid apart). */
    assert_int_equal(b.covered, 65536);
    assert_int_equal(b.shaded, 65536);
    assert_true(fabs(a.ratio - 2.0) < 1e-12 && fabs(b.ratio - 1.0) < 1e-12);
    /* A triangle covering the left half of the square's pixel centres, along the diagonal:
     * centres (x + 0.5, y + 0.5) with x + 0.5 < y + 0.5 are inside, those on the diagonal
     * belong to the triangle whose edge is top-left: 256 * 255 / 2 strictly inside plus the
     * 256 on the diagonal, or not. Both halves together are the whole square, once. */
    const uint32_t lower[] = {0, 1, 2}, upper[] = {0, 2, 3};
    gc_overdraw_stats lo, up;
    assert_int_equal(gc_analyze_overdraw(lower, 3, xyz, 8, 0, &lo, &err), GC_OK);
    assert_int_equal(gc_analyze_overdraw(upper, 3, xyz, 8, 0, &up, &err), GC_OK);
    assert_int_equal(lo.covered + up.covered, 65536);
    assert_true(lo.covered == 256 * 255 / 2 || lo.covered == 256 * 255 / 2 + 256);
}

static void check_fetch(const uint32_t* idx, size_t n, uint32_t vertices, unsigned bytes, const char* what)
{
    char spec[32];
    snprintf(spec, sizeof spec, "meshopt:%u", bytes);
    gc_fetch_spec fs;
    gc_error err;
    assert_int_equal(gc_fetch_parse(spec, &fs, &err), GC_OK);
    gc_fetch_stats ours;
    assert_int_equal(gc_analyze_fetch(&fs, NULL, idx, n, vertices, NULL, 0, &ours, &err), GC_OK);
    struct meshopt_VertexFetchStatistics ref = meshopt_analyzeVertexFetch(idx, n, vertices, bytes);
    if (ours.bytes != ref.bytes_fetched || fabs(ours.overfetch - ref.overfetch) > 1e-5 * ref.overfetch)
        fail_msg("%s %s: ours %llu bytes (%.6f), meshopt %u (%.6f)", what, spec, (unsigned long long)ours.bytes,
                 ours.overfetch, ref.bytes_fetched, ref.overfetch);
}

static void fetch_meshopt_mode(void** state)
{
    (void)state;
    static const unsigned sizes[] = {4, 12, 16, 20, 32, 48, 64, 100, 256};
    size_t tested = 0;
    for (size_t c = 0; c < CORPUS_MESH_COUNT; ++c) {
        loaded m;
        if (!load(corpus_meshes_list[c], &m))
            continue;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
            check_fetch(m.idx, m.n, m.vertices, sizes[k], corpus_meshes_list[c]);
        gc_shuffle_triangles(m.idx, m.n, 11 + c);
        check_fetch(m.idx, m.n, m.vertices, 32, corpus_meshes_list[c]);
        free(m.idx), free(m.xyz);
        ++tested;
    }
    uint64_t s = 12345;
    for (int round = 0; round < 20; ++round) {
        uint32_t vertices = 1 + (uint32_t)(test_random(&s) % 50000);
        size_t n = 3 * (size_t)(1 + test_random(&s) % 30000);
        uint32_t* idx = malloc(n * sizeof *idx);
        assert_non_null(idx);
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)(test_random(&s) % vertices);
        check_fetch(idx, n, vertices, 1 + (unsigned)(test_random(&s) % 256), "random");
        free(idx);
    }
    print_message("fetch: %zu corpus meshes equal to meshopt_analyzeVertexFetch\n", tested);
}

/* fifo:3 over (0 1 2) (0 2 3) (4 5 6): it shades 0 1 2, then 3 (0 and 2 hit), then 4 5 6.
 * With 16-byte vertices and 64-byte lines, a direct-mapped cache of two lines: vertices
 * 0-3 are line 0 (set 0), 4-7 line 1 (set 1). Fetches: 0 miss, 1 2 hit, 3 hit, 4 miss,
 * 5 6 hit: 2 lines, 128 bytes. Every reference instead reads 9 vertices, also 2 misses. With
 * a 1-line cache (one set), fetching 4 evicts line 0, and a later 0 misses again. */
static void fetch_by_hand(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 0, 1, 4};
    gc_model fifo3 = model_of("fifo:3");
    gc_fetch_spec two;
    gc_error err;
    assert_int_equal(gc_fetch_parse("cache:64,128,1:16", &two, &err), GC_OK);
    gc_fetch_stats st;
    assert_int_equal(gc_analyze_fetch(&two, &fifo3, idx, 9, 7, NULL, 0, &st, &err), GC_OK);
    assert_int_equal(st.bytes, 128);
    assert_int_equal(st.unique_bytes, 7 * 16);
    gc_fetch_spec one;
    assert_int_equal(gc_fetch_parse("cache:64,64,1:16", &one, &err), GC_OK);
    /* (0 1 4) after the first 9: fifo:3 holds 4 5 6; 0 misses (evicting 4), 1 misses
     * (evicting 5), 4 misses (evicting 6): all three are fetched. With one line: 0 1 2 3
     * read line 0 (a miss), 4 5 6 line 1 (a miss, evicting line 0), then 0 misses line 0,
     * 1 hits it, 4 misses line 1: 4 lines = 256 bytes. */
    assert_int_equal(gc_analyze_fetch(&one, &fifo3, idx, 12, 7, NULL, 0, &st, &err), GC_OK);
    assert_int_equal(st.bytes, 256);
    /* Two streams: positions (12 bytes at 0, stride 12) and a second stream far away (8
     * bytes, stride 8, at 4096): the 7 vertices are 84 bytes (2 lines) and 56 bytes (1
     * line) once each under fifo:3 without reuse misses: 3 lines = 192 bytes, in a cache
     * big enough to keep all. */
    gc_fetch_spec big;
    assert_int_equal(gc_fetch_parse("cache:64,8K,2:16", &big, &err), GC_OK);
    const gc_fetch_stream streams[] = {{0, 12, 12}, {4096, 8, 8}};
    assert_int_equal(gc_analyze_fetch(&big, &fifo3, idx, 9, 7, streams, 2, &st, &err), GC_OK);
    assert_int_equal(st.bytes, 192);
    assert_int_equal(st.unique_bytes, 7 * 20);
    /* The GCN preset: two levels; cold misses reach memory. */
    gc_fetch_spec gcn;
    assert_int_equal(gc_fetch_parse("gcn:32", &gcn, &err), GC_OK);
    assert_int_equal(gcn.level_count, 2);
    assert_int_equal(gc_analyze_fetch(&gcn, &fifo3, idx, 9, 7, NULL, 0, &st, &err), GC_OK);
    /* 7 vertices of 32 bytes = 224 bytes = lines 0..3 (4 lines), each missed once. */
    assert_int_equal(st.bytes, 256);
    assert_int_equal(st.memory_bytes, 256);
}

/* A model's fetches are a subset of every reference's, in the same order: never more
 * bytes with the same cache (LRU inclusion does not hold in general, but a direct-mapped
 * cache fed a subsequence can miss more; so only check a large cache). */
static void fetch_model_at_most_references(void** state)
{
    (void)state;
    loaded m;
    if (!load("spot.obj", &m))
        skip();
    gc_fetch_spec all, shaded;
    gc_error err;
    assert_int_equal(gc_fetch_parse("meshopt:32", &all, &err), GC_OK);
    shaded = all;
    shaded.every_reference = 0;
    shaded.levels[0].capacity_bytes = 1u << 30 >> 4; /* 64 MiB: every line stays */
    all.levels[0] = shaded.levels[0];
    gc_model fifo = model_of("fifo:16");
    gc_fetch_stats a, b;
    assert_int_equal(gc_analyze_fetch(&all, NULL, m.idx, m.n, m.vertices, NULL, 0, &a, &err), GC_OK);
    assert_int_equal(gc_analyze_fetch(&shaded, &fifo, m.idx, m.n, m.vertices, NULL, 0, &b, &err), GC_OK);
    /* with nothing evicted, both read each line once */
    assert_int_equal(a.bytes, b.bytes);
    free(m.idx), free(m.xyz);
}

static void bad_inputs(void** state)
{
    (void)state;
    gc_fetch_spec fs;
    gc_error err;
    const char* bad[] = {"", "meshopt", "meshopt:", "meshopt:0", "meshopt:257", "cache:64:32", "cache:64,100,1:32",
                         "cache:3,64,1:32", "cache:64,128,65:32", "l3:32", "meshopt:32x", "cache:64,1G,1:32"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        gc_status s = gc_fetch_parse(bad[i], &fs, &err);
        if (s == GC_OK)
            fail_msg("fetch spec '%s' accepted", bad[i]);
        assert_true(strlen(err.message) > 0);
    }
    const uint32_t idx[] = {0, 1, 2};
    const float xyz[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    gc_fetch_stats st;
    assert_int_equal(gc_fetch_parse("meshopt:16", &fs, &err), GC_OK);
    const gc_fetch_stream narrow[] = {{0, 8, 12}};
    assert_int_equal(gc_analyze_fetch(&fs, NULL, idx, 3, 3, narrow, 1, &st, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "stride"));
    assert_int_equal(gc_analyze_fetch(&fs, NULL, idx, 3, 2, NULL, 0, &st, &err), GC_ERR_DATA);
    gc_fetch_spec model_needed;
    assert_int_equal(gc_fetch_parse("gcn:16", &model_needed, &err), GC_OK);
    assert_int_equal(gc_analyze_fetch(&model_needed, NULL, idx, 3, 3, NULL, 0, &st, &err), GC_ERR_USAGE);
    gc_overdraw_stats od;
    assert_int_equal(gc_analyze_overdraw(idx, 3, xyz, 2, 0, &od, &err), GC_ERR_DATA);
    assert_int_equal(gc_analyze_overdraw(idx, 2, xyz, 3, 0, &od, &err), GC_ERR_DATA);
    assert_int_equal(gc_analyze_overdraw(idx, 3, xyz, 3, 8, &od, &err), GC_ERR_USAGE);
    const float nan_xyz[] = {0, 0, 0, NAN, 0, 0, 0, 1, 0};
    assert_int_equal(gc_analyze_overdraw(idx, 3, nan_xyz, 3, 0, &od, &err), GC_ERR_DATA);
}

/* gc_overdraw_view: the three views' counts add up to gc_analyze_overdraw's figures (on a
 * corpus mesh), and the squares by hand: along z, the side facing +z holds 2 shades on each
 * of the 65536 pixels, the other side nothing; along x and y nothing (edge-on). */
static void overdraw_views(void** state)
{
    (void)state;
    const float xyz[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    const uint32_t back_then_front[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    uint32_t* counts = malloc(2 * 65536 * sizeof *counts);
    assert_non_null(counts);
    gc_error err;
    assert_int_equal(gc_overdraw_view(back_then_front, 12, xyz, 8, 0, 2, counts, &err), GC_OK);
    for (size_t p = 0; p < 65536; ++p)
        if (counts[p] != 2 || counts[65536 + p] != 0)
            fail_msg("pixel %zu: %u and %u", p, counts[p], counts[65536 + p]);
    for (int axis = 0; axis < 2; ++axis) {
        assert_int_equal(gc_overdraw_view(back_then_front, 12, xyz, 8, 0, axis, counts, &err), GC_OK);
        for (size_t p = 0; p < 2 * 65536; ++p)
            assert_int_equal(counts[p], 0);
    }
    assert_int_equal(gc_overdraw_view(back_then_front, 12, xyz, 8, 0, 3, counts, &err), GC_ERR_USAGE);
    loaded m;
    if (load("cow.obj", &m)) {
        gc_overdraw_stats whole;
        assert_int_equal(gc_analyze_overdraw(m.idx, m.n, m.xyz, m.vertices, 0, &whole, &err), GC_OK);
        uint64_t covered = 0, shaded = 0;
        for (int axis = 0; axis < 3; ++axis) {
            assert_int_equal(gc_overdraw_view(m.idx, m.n, m.xyz, m.vertices, 0, axis, counts, &err), GC_OK);
            for (size_t p = 0; p < 2 * 65536; ++p)
                covered += counts[p] > 0, shaded += counts[p];
        }
        assert_int_equal(covered, whole.covered);
        assert_int_equal(shaded, whole.shaded);
        free(m.idx), free(m.xyz);
    }
    free(counts);
}

/* A glTF's fetch, worked by hand (cache:64,64K,4, fifo:3): one 224-byte buffer holding
 * primitive A's positions (bytes 0-35) and normals (64-99) in two views, and primitive B's
 * interleaved position + normal (stride 24, bytes 128-223). Each draws (0, 1, 2).
 * A: the three positions share line 0, the normals line 1: 128 bytes. B: vertices 0 and 1
 * lie in line 2 (128-175), vertex 2's normal (188-199) crosses into line 3: 128 bytes. Each
 * draw starts cold, so 256 in all; each reads 3 x 24 bytes of vertices (144 in all). The
 * packed approximation (16 bytes, one draw) would give 128. */
static void fetch_gltf_streams_by_hand(void** state)
{
    (void)state;
    char dir[] = "/tmp/gc-fetch-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char bin[64], gltf[64];
    snprintf(bin, sizeof bin, "%s/b.bin", dir);
    snprintf(gltf, sizeof gltf, "%s/m.gltf", dir);
    unsigned char bytes[224] = {0};
    FILE* f = fopen(bin, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, sizeof bytes, f), sizeof bytes);
    fclose(f);
    f = fopen(gltf, "w");
    assert_non_null(f);
    fputs("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"uri\":\"b.bin\",\"byteLength\":224}],"
          "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
          "{\"buffer\":0,\"byteOffset\":64,\"byteLength\":36},"
          "{\"buffer\":0,\"byteOffset\":128,\"byteLength\":96,\"byteStride\":24}],"
          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
          "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
          "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
          "{\"bufferView\":2,\"byteOffset\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
          "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}},"
          "{\"attributes\":{\"POSITION\":2,\"NORMAL\":3}}]}]}",
          f);
    fclose(f);
    gc_error err = {0};
    gc_fetch_spec spec;
    assert_int_equal(gc_fetch_parse("cache:64,64K,4:16", &spec, &err), GC_OK);
    gc_model fifo3 = model_of("fifo:3");
    gc_mesh_vertex_costs c;
    gc_status s = gc_mesh_vertex_costs_of(gltf, NULL, 0, &spec, &fifo3, 1, &c, &err);
    if (s)
        fail_msg("%s", err.message);
    assert_int_equal(c.model_count, 1);
    assert_int_equal(c.draw_count == 0 || c.draw_count == 2, 1);
    assert_non_null(c.draw_fetch);
    assert_int_equal(c.draw_fetch[0].bytes, 128);
    assert_int_equal(c.draw_fetch[1].bytes, 128);
    assert_int_equal(c.fetch[0].bytes, 256);
    assert_int_equal(c.fetch[0].unique_bytes, 144);
    assert_true(fabs(c.fetch[0].overfetch - 256.0 / 144.0) < 1e-12);
    gc_mesh_vertex_costs_free(&c);
    /* meshopt mode stays the peer's packed approximation over the file's triangle list */
    assert_int_equal(gc_fetch_parse("meshopt:16", &spec, &err), GC_OK);
    assert_int_equal(gc_mesh_vertex_costs_of(gltf, NULL, 0, &spec, NULL, 0, &c, &err), GC_OK);
    assert_null(c.draw_fetch);
    assert_int_equal(c.fetch[0].bytes, 128);
    gc_mesh_vertex_costs_free(&c);
    remove(bin);
    remove(gltf);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(overdraw_by_hand),  cmocka_unit_test(overdraw_random),
        cmocka_unit_test(overdraw_corpus),   cmocka_unit_test(fetch_by_hand), cmocka_unit_test(fetch_gltf_streams_by_hand),
        cmocka_unit_test(fetch_meshopt_mode), cmocka_unit_test(fetch_model_at_most_references),
        cmocka_unit_test(bad_inputs),        cmocka_unit_test(overdraw_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
