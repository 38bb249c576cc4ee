// SPDX-License-Identifier: MIT
/* Issue 31: meshlets. The scan property is checked with the batch-all model's own state
 * machine (src/models/kerbl_batch.c), not a restatement of the rule: feeding the expanded
 * index buffer one triangle at a time, a meshlet starts where the machine's batch count
 * rises, and its vertices are the invocations the machine counts for it. */
#include "test_util.h"

#include <math.h>

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}
static double rndf(void)
{
    return (double)rnd() / 2147483648.0;
}

/* The meshlets the batch-all machine cuts from `idx` (a triangle list): triangle count and
 * invocations (vertices) of each, written to tri[] and vert[]; returns their number. */
static size_t machine_cut(const uint32_t* idx, size_t n, uint32_t vertex_count, uint32_t v, uint32_t t, uint32_t* tri,
                          uint32_t* vert)
{
    char spec[96];
    snprintf(spec, sizeof spec, "batch-all:indices=%u,vertices=%u", 3 * t, v);
    gc_model m = model_of(spec);
    gc_sim* sim = NULL;
    gc_error err;
    assert_int_equal(gc_sim_create(&m, vertex_count, NULL, &sim, &err), GC_OK);
    gc_sim_begin_run(sim, 0, n);
    size_t count = 0;
    uint64_t batches = 0;
    for (size_t k = 0; k < n / 3; ++k) {
        gc_sim_primitive p = {0};
        p.count = 3;
        p.number = k;
        for (unsigned j = 0; j < 3; ++j) {
            p.vertices[j] = idx[3 * k + j];
            p.positions[j] = 3 * k + j;
        }
        uint32_t cost = gc_sim_feed(sim, &p, NULL);
        gc_stats st;
        gc_sim_stats(sim, &st);
        if (st.batches != batches) {
            assert_int_equal(st.batches, batches + 1);
            batches = st.batches;
            tri[count] = vert[count] = 0;
            count++;
        }
        tri[count - 1]++;
        vert[count - 1] += cost;
    }
    gc_sim_destroy(sim);
    return count;
}

/* The scan property: the expanded meshlets are a reordering of `idx`, and the machine cuts
 * them into exactly these meshlets. */
static void check_scan_property(const gc_meshlets* ml, const uint32_t* idx, size_t n, uint32_t vertex_count)
{
    gc_error err;
    assert_int_equal(gc_meshlets_check(ml, vertex_count, "test", &err), GC_OK);
    uint32_t* out = malloc((n ? n : 1) * sizeof *out);
    size_t written = 0;
    assert_int_equal(gc_meshlets_expand(ml, out, n, &written, &err), GC_OK);
    assert_int_equal(written, n);
    assert_int_equal(gc_check_permutation(idx, out, n, vertex_count, &err), GC_OK);
    size_t cap = n / 3 + 1;
    uint32_t* tri = malloc(cap * sizeof *tri);
    uint32_t* vert = malloc(cap * sizeof *vert);
    size_t count = machine_cut(out, n, vertex_count, ml->max_vertices, ml->max_triangles, tri, vert);
    assert_int_equal(count, ml->meshlet_count);
    for (size_t i = 0; i < count; ++i) {
        assert_int_equal(tri[i], ml->meshlets[i].triangle_count);
        assert_int_equal(vert[i], ml->meshlets[i].vertex_count);
    }
    free(tri);
    free(vert);
    free(out);
}

/* A random mesh: a shuffled grid with some random extra triangles (degenerate ones too). */
static uint32_t* random_mesh(size_t* n_out, uint32_t* vc_out)
{
    uint32_t w = 2 + rnd() % 30, h = 2 + rnd() % 30;
    size_t cap = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 16) + 3 * 40;
    uint32_t* idx = malloc(cap * sizeof *idx);
    size_t n = 0;
    gc_error err;
    assert_int_equal(gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 16, idx, &n, &err), GC_OK);
    uint32_t vc = (w + 1) * (h + 1);
    unsigned extra = rnd() % 40;
    for (unsigned e = 0; e < extra; ++e) {
        uint32_t a = rnd() % vc, b = rnd() % vc, c = rnd() % 4 ? rnd() % vc : a;
        idx[n++] = a, idx[n++] = b, idx[n++] = c;
    }
    gc_shuffle_triangles(idx, n, rnd());
    *n_out = n;
    *vc_out = vc;
    return idx;
}

static void scan_property_random(void** state)
{
    (void)state;
    rng_state = 31;
    static const uint32_t limits[][2] = {{3, 1}, {3, 512}, {4, 2}, {7, 5}, {64, 124}, {64, 126}, {128, 256},
                                         {255, 512}, {256, 512}, {256, 1}, {17, 33}, {100, 3}};
    for (unsigned round = 0; round < 3 * sizeof limits / sizeof limits[0]; ++round) {
        size_t n;
        uint32_t vc;
        uint32_t* idx = random_mesh(&n, &vc);
        gc_meshlet_options o = {0};
        o.max_vertices = limits[round % 12][0];
        o.max_triangles = limits[round % 12][1];
        o.keep_order = round % 3 == 0;
        o.local_order = round % 2 == 0;
        o.seed = round;
        o.effort = round % 4 == 1 ? 2 : 0; /* the grower alone, or against auto */
        gc_meshlets ml = {0};
        gc_error err;
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &ml, &err), GC_OK);
        check_scan_property(&ml, idx, n, vc);
        gc_meshlets_free(&ml);
        free(idx);
    }
}

/* keep_order is meshopt_buildMeshletsScan's cut: a 3-vertex limit on a strip-like list. */
static void scan_by_hand(void** state)
{
    (void)state;
    /* (0,1,2) (1,2,3): 4 vertices; with V = 4 one meshlet, with V = 3 two */
    const uint32_t idx[] = {0, 1, 2, 2, 1, 3, 0, 2, 3, 4, 4, 4};
    gc_meshlet_options o = {0};
    o.max_vertices = 4;
    o.max_triangles = 8;
    o.keep_order = 1;
    gc_meshlets ml = {0};
    gc_error err;
    assert_int_equal(gc_meshlets_build(idx, 12, 5, &o, &ml, &err), GC_OK);
    /* {0,1,2,3} take three triangles; (4,4,4) needs a fifth vertex: meshlet 2 */
    assert_int_equal(ml.meshlet_count, 2);
    assert_int_equal(ml.meshlets[0].vertex_count, 4);
    assert_int_equal(ml.meshlets[0].triangle_count, 3);
    assert_int_equal(ml.meshlets[1].vertex_count, 1);
    assert_int_equal(ml.meshlets[1].triangle_count, 1);
    const uint8_t want_tris[] = {0, 1, 2, 2, 1, 3, 0, 2, 3, 0, 0, 0};
    assert_memory_equal(ml.triangles, want_tris, 12);
    const uint32_t want_verts[] = {0, 1, 2, 3, 4};
    assert_memory_equal(ml.vertices, want_verts, sizeof want_verts);
    gc_meshlets_free(&ml);
    o.max_vertices = 3;
    o.max_triangles = 1;
    assert_int_equal(gc_meshlets_build(idx, 12, 5, &o, &ml, &err), GC_OK);
    assert_int_equal(ml.meshlet_count, 4);
    gc_meshlets_free(&ml);
}

static void limits_refused(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2};
    static const uint32_t bad[][2] = {{2, 10}, {0, 10}, {257, 10}, {64, 0}, {64, 513}};
    for (unsigned i = 0; i < 5; ++i) {
        gc_meshlet_options o = {0};
        o.max_vertices = bad[i][0];
        o.max_triangles = bad[i][1];
        gc_meshlets ml = {0};
        gc_error err = {0};
        assert_int_equal(gc_meshlets_build(idx, 3, 3, &o, &ml, &err), GC_ERR_USAGE);
        assert_non_null(strstr(err.message, "out of range"));
        assert_int_equal(ml.meshlet_count, 0);
    }
}

static void scan_property_corpus(void** state)
{
    (void)state;
    static const char* const meshes[] = {"alligator.obj", "cow.obj", "fandisk.obj", "stanford-bunny.obj", "teapot.obj"};
    static const uint32_t limits[][2] = {{64, 124}, {128, 256}, {37, 51}};
    int found = 0;
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
        char path[1024];
        if (corpus_path(path, sizeof path, meshes[i]))
            continue;
        found++;
        gc_mesh mesh;
        gc_error err;
        assert_int_equal(gc_mesh_load(path, NULL, &mesh, &err), GC_OK);
        for (unsigned l = 0; l < 3; ++l) {
            gc_meshlet_options o = {0};
            o.max_vertices = limits[l][0];
            o.max_triangles = limits[l][1];
            o.local_order = 1;
            gc_meshlets ml = {0};
            assert_int_equal(gc_meshlets_build(mesh.indices, mesh.index_count, (uint32_t)mesh.vertex_count, &o, &ml,
                                               &err),
                             GC_OK);
            check_scan_property(&ml, mesh.indices, mesh.index_count, (uint32_t)mesh.vertex_count);
            gc_meshlets_free(&ml);
        }
        gc_mesh_free(&mesh);
    }
    if (!found)
        skip();
}

/* Local order keeps each meshlet's vertex set and triangles; vertices are numbered by
 * first use. */
static void local_order(void** state)
{
    (void)state;
    rng_state = 7;
    for (unsigned round = 0; round < 10; ++round) {
        size_t n;
        uint32_t vc;
        uint32_t* idx = random_mesh(&n, &vc);
        gc_meshlet_options o = {0};
        o.max_vertices = 64;
        o.max_triangles = 124;
        o.keep_order = 1;
        gc_meshlets a = {0}, b = {0};
        gc_error err;
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &a, &err), GC_OK);
        o.local_order = 1;
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &b, &err), GC_OK);
        assert_int_equal(a.meshlet_count, b.meshlet_count);
        for (size_t i = 0; i < a.meshlet_count; ++i) {
            const gc_meshlet* ma = &a.meshlets[i];
            const gc_meshlet* mb = &b.meshlets[i];
            assert_memory_equal(ma, mb, sizeof *ma);
            /* same triangles (as vertex ids), each at most rotated */
            uint32_t ta[3 * 124], tb[3 * 124];
            for (uint32_t k = 0; k < 3 * ma->triangle_count; ++k) {
                ta[k] = a.vertices[ma->vertex_offset + a.triangles[ma->triangle_offset + k]];
                tb[k] = b.vertices[mb->vertex_offset + b.triangles[mb->triangle_offset + k]];
            }
            assert_int_equal(gc_check_permutation(ta, tb, 3 * ma->triangle_count, vc, &err), GC_OK);
            /* first-use numbering: each local index is at most one past the largest before */
            int top = -1;
            for (uint32_t k = 0; k < 3 * mb->triangle_count; ++k) {
                int l = b.triangles[mb->triangle_offset + k];
                assert_true(l <= top + 1);
                top = l > top ? l : top;
            }
        }
        check_scan_property(&b, idx, n, vc);
        gc_meshlets_free(&a);
        gc_meshlets_free(&b);
        free(idx);
    }
}

/* ------------------------------------------------------------------ bounds */

static gc_meshlet_bounds bounds_of(const uint32_t* idx, size_t n, const float* pos, uint32_t vc)
{
    gc_meshlet_options o = {0};
    o.max_vertices = 256;
    o.max_triangles = 512;
    o.keep_order = 1;
    gc_meshlets ml = {0};
    gc_error err;
    assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &ml, &err), GC_OK);
    assert_int_equal(ml.meshlet_count, 1);
    assert_int_equal(gc_meshlets_compute_bounds(&ml, pos, vc, 0, &err), GC_OK);
    gc_meshlet_bounds b = ml.bounds[0];
    gc_meshlets_free(&ml);
    return b;
}

static void bounds_by_hand(void** state)
{
    (void)state;
    /* one triangle in z = 0, counter-clockwise seen from +z: normal +z, a cone of one
     * direction (cutoff sin 0 = 0), apex at the sphere's center (already on the plane).
     * Ritter: the x extremes (0,0,0) and (2,0,0) are the farthest pair (2 against the
     * y extremes' 2, first wins): center (1,0,0), radius 1; (0,2,0) is sqrt 5 away: radius
     * (1 + sqrt 5) / 2, the center moved toward it by (r - 1) / sqrt 5 of (-1, 2, 0). */
    const float tri[] = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    const uint32_t i1[] = {0, 1, 2};
    gc_meshlet_bounds b = bounds_of(i1, 3, tri, 3);
    double r = (1 + sqrt(5.0)) / 2, shift = (r - 1) / sqrt(5.0);
    assert_float_equal(b.radius, r, 1e-5);
    assert_float_equal(b.center[0], 1 - shift, 1e-5);
    assert_float_equal(b.center[1], 2 * shift, 1e-5);
    assert_float_equal(b.center[2], 0, 1e-6);
    assert_float_equal(b.cone_axis[2], 1, 1e-6);
    assert_float_equal(b.cone_cutoff, 0, 1e-6);
    assert_float_equal(b.cone_apex[0], b.center[0], 1e-6);
    assert_float_equal(b.cone_apex[2], 0, 1e-6);

    /* a roof: two triangles with normals (±1, 0, 1)/sqrt 2 meeting on the ridge x = 0, z = 1.
     * Axis +z; the widest normal is 45 degrees off: mindp = cos 45, cutoff = sin 45. The
     * apex: on the axis below the sphere's center, far enough to be behind both planes:
     * plane x + z = 1 through (0,?,1); the apex (cx, cy, cz - t) is behind it when
     * cx + cz - t <= 1. */
    const float roof[] = {-1, 0, 0, 0, 0, 1, 0, 1, 1, -1, 1, 0, 1, 0, 0, 1, 1, 0};
    const uint32_t i2[] = {0, 1, 2, 0, 2, 3, 4, 2, 1, 4, 5, 2};
    b = bounds_of(i2, 12, roof, 6);
    assert_float_equal(b.cone_axis[0], 0, 1e-6);
    assert_float_equal(b.cone_axis[1], 0, 1e-6);
    assert_float_equal(b.cone_axis[2], 1, 1e-6);
    assert_float_equal(b.cone_cutoff, sqrt(0.5), 1e-6);
    double t = fmax(0, (double)b.center[2] - 1 + fabs((double)b.center[0]));
    assert_float_equal(b.cone_apex[2], b.center[2] - t, 1e-5);
    assert_float_equal(b.cone_apex[0], b.center[0], 1e-6);

    /* a closed tetrahedron: normals everywhere, the cone is no use: cutoff 1, axis 0 */
    const float tet[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const uint32_t i3[] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    b = bounds_of(i3, 12, tet, 4);
    assert_float_equal(b.cone_cutoff, 1, 0);
    assert_float_equal(b.cone_axis[0] * b.cone_axis[0] + b.cone_axis[1] * b.cone_axis[1] +
                           b.cone_axis[2] * b.cone_axis[2],
                       0, 0);
    /* only degenerate triangles: every field 0 */
    const float line[] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    b = bounds_of(i1, 3, line, 3);
    const gc_meshlet_bounds zero = {{0, 0, 0}, 0, {0, 0, 0}, {0, 0, 0}, 0};
    assert_memory_equal(&b, &zero, sizeof b);
}

/* On random meshes with random positions (a bumpy height field, so that cones are
 * useful): every corner in the sphere; every normal within the cone; and a camera the
 * perspective test rejects sees every triangle from behind. */
static void bounds_cone_property(void** state)
{
    (void)state;
    rng_state = 99;
    for (unsigned round = 0; round < 20; ++round) {
        uint32_t w = 4 + rnd() % 20, h = 4 + rnd() % 20;
        size_t cap = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 16);
        uint32_t* idx = malloc(cap * sizeof *idx);
        size_t n = 0;
        gc_error err;
        assert_int_equal(gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 16, idx, &n, &err), GC_OK);
        gc_shuffle_triangles(idx, n, round);
        uint32_t vc = (w + 1) * (h + 1);
        float* pos = malloc(4 * (size_t)vc * sizeof *pos); /* stride 16: x y z and a pad */
        double bump = round % 4 * 0.3;
        for (uint32_t v = 0; v < vc; ++v) {
            pos[4 * v] = (float)(v % (w + 1));
            pos[4 * v + 1] = (float)(v / (w + 1));
            pos[4 * v + 2] = (float)(bump * rndf());
            pos[4 * v + 3] = NAN;
        }
        gc_meshlet_options o = {0};
        o.max_vertices = 3 + rnd() % 100;
        o.max_triangles = 1 + rnd() % 200;
        gc_meshlets ml = {0};
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &ml, &err), GC_OK);
        assert_int_equal(gc_meshlets_compute_bounds(&ml, pos, vc, 16, &err), GC_OK);
        size_t useful = 0;
        for (size_t i = 0; i < ml.meshlet_count; ++i) {
            const gc_meshlet* m = &ml.meshlets[i];
            const gc_meshlet_bounds* b = &ml.bounds[i];
            useful += b->cone_cutoff < 1;
            double need = sqrt(1 - (double)b->cone_cutoff * b->cone_cutoff);
            for (uint32_t k = 0; k < m->triangle_count; ++k) {
                const float* p[3];
                for (unsigned j = 0; j < 3; ++j) {
                    p[j] = pos + 4 * (size_t)ml.vertices[m->vertex_offset + ml.triangles[m->triangle_offset + 3 * k + j]];
                    double d2 = 0;
                    for (unsigned a = 0; a < 3; ++a)
                        d2 += ((double)p[j][a] - b->center[a]) * ((double)p[j][a] - b->center[a]);
                    assert_true(sqrt(d2) <= b->radius);
                }
                double e1[3], e2[3], nn[3];
                for (unsigned a = 0; a < 3; ++a)
                    e1[a] = p[1][a] - p[0][a], e2[a] = p[2][a] - p[0][a];
                nn[0] = e1[1] * e2[2] - e1[2] * e2[1];
                nn[1] = e1[2] * e2[0] - e1[0] * e2[2];
                nn[2] = e1[0] * e2[1] - e1[1] * e2[0];
                double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                if (b->cone_cutoff >= 1 || len == 0)
                    continue;
                double d = (nn[0] * b->cone_axis[0] + nn[1] * b->cone_axis[1] + nn[2] * b->cone_axis[2]) / len;
                assert_true(d >= need - 1e-5);
                /* cameras: random points; where the test rejects, the triangle faces away */
                for (unsigned c = 0; c < 8; ++c) {
                    double cam[3] = {b->center[0] + 40 * (rndf() - 0.5), b->center[1] + 40 * (rndf() - 0.5),
                                     b->center[2] - 40 * rndf()};
                    double v[3], vl = 0;
                    for (unsigned a = 0; a < 3; ++a)
                        v[a] = b->cone_apex[a] - cam[a], vl += v[a] * v[a];
                    vl = sqrt(vl);
                    double dv = (v[0] * b->cone_axis[0] + v[1] * b->cone_axis[1] + v[2] * b->cone_axis[2]) / vl;
                    if (dv >= b->cone_cutoff + 1e-4) {
                        double facing = 0;
                        for (unsigned a = 0; a < 3; ++a)
                            facing += (p[0][a] - cam[a]) * nn[a] / len;
                        assert_true(facing >= -1e-4);
                    }
                }
            }
        }
        if (bump == 0)
            assert_int_equal(useful, ml.meshlet_count); /* a flat grid: every cone a direction */
        gc_meshlets_free(&ml);
        free(pos);
        free(idx);
    }
}

/* ------------------------------------------------------------------- data */

static void data_round_trip(void** state)
{
    (void)state;
    rng_state = 5;
    size_t n;
    uint32_t vc;
    uint32_t* idx = random_mesh(&n, &vc);
    float* pos = malloc(3 * (size_t)vc * sizeof *pos);
    for (uint32_t v = 0; v < 3 * vc; ++v)
        pos[v] = (float)rndf();
    for (int with_bounds = 0; with_bounds < 2; ++with_bounds) {
        gc_meshlet_options o = {0};
        o.max_vertices = 31;
        o.max_triangles = 45;
        o.local_order = 1;
        gc_meshlets ml = {0}, back = {0};
        gc_error err;
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &ml, &err), GC_OK);
        if (with_bounds)
            assert_int_equal(gc_meshlets_compute_bounds(&ml, pos, vc, 0, &err), GC_OK);
        char path[1024];
        snprintf(path, sizeof path, "%s/meshlets-round-trip.bin", GPUCACHE_TEST_TMP);
        assert_int_equal(gc_meshlet_data_save(path, &ml, &err), GC_OK);
        assert_int_equal(gc_meshlet_data_load(path, &back, &err), GC_OK);
        assert_int_equal(back.max_vertices, 31);
        assert_int_equal(back.max_triangles, 45);
        assert_int_equal(back.meshlet_count, ml.meshlet_count);
        assert_int_equal(back.vertex_count, ml.vertex_count);
        assert_int_equal(back.triangle_count, ml.triangle_count);
        assert_memory_equal(back.meshlets, ml.meshlets, ml.meshlet_count * sizeof *ml.meshlets);
        assert_memory_equal(back.vertices, ml.vertices, ml.vertex_count * 4);
        assert_memory_equal(back.triangles, ml.triangles, ml.triangle_count * 3);
        if (with_bounds)
            assert_memory_equal(back.bounds, ml.bounds, ml.meshlet_count * sizeof *ml.bounds);
        else
            assert_null(back.bounds);
        /* the file's size, from the format's layout (docs/formats/meshlets.md) */
        FILE* f = fopen(path, "rb");
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fclose(f);
        size_t want = 48 + 16 * ml.meshlet_count + 4 * ml.vertex_count + 3 * ml.triangle_count;
        want = (want + 3) / 4 * 4 + (with_bounds ? 48 * ml.meshlet_count : 0);
        assert_int_equal(size, want);
        gc_meshlets_free(&ml);
        gc_meshlets_free(&back);
        remove(path);
    }
    free(pos);
    free(idx);
}

static void put32(uint8_t* p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* Each corruption of a good file is refused with GC_ERR_DATA and a message with `needle`. */
static void expect_refused(const uint8_t* good, size_t size, size_t at, uint32_t value, size_t cut,
                           const char* needle)
{
    uint8_t* bad = malloc(size);
    memcpy(bad, good, size);
    if (at != SIZE_MAX)
        put32(bad + at, value);
    gc_meshlets m = {0};
    gc_error err = {0};
    gc_status s = gc_meshlet_data_decode(bad, size - cut, "f.bin", &m, &err);
    if (s != GC_ERR_DATA || !strstr(err.message, needle))
        fail_msg("at %zu = %u, cut %zu: status %d, message '%s' (wanted '%s')", at, value, cut, s, err.message,
                 needle);
    assert_null(m.meshlets);
    free(bad);
}

static void data_reader_refuses(void** state)
{
    (void)state;
    /* three meshlets of a hand-made list, V = 4, T = 2 */
    const uint32_t idx[] = {0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7, 8, 9, 10};
    gc_meshlet_options o = {0};
    o.max_vertices = 4;
    o.max_triangles = 2;
    o.keep_order = 1;
    gc_meshlets ml = {0};
    gc_error err;
    assert_int_equal(gc_meshlets_build(idx, 15, 11, &o, &ml, &err), GC_OK);
    assert_int_equal(ml.meshlet_count, 3);
    uint8_t* good;
    size_t size;
    assert_int_equal(gc_meshlet_data_encode(&ml, &good, &size, &err), GC_OK);
    /* header 48, meshlets 48 (from 48), vertices 44 (from 96), triangles 15 (from 140), pad 1 */
    assert_int_equal(size, 156);
    gc_meshlets back = {0};
    assert_int_equal(gc_meshlet_data_decode(good, size, "f.bin", &back, &err), GC_OK);
    gc_meshlets_free(&back);
    expect_refused(good, size, SIZE_MAX, 0, 1, "truncated");
    expect_refused(good, size, SIZE_MAX, 0, size - 10, "header");
    expect_refused(good, size, 0, 0x12345678, 0, "magic");
    expect_refused(good, size, 8, 2, 0, "version 2");
    expect_refused(good, size, 12, 4, 0, "flags");
    expect_refused(good, size, 24, 4, 0, "counts past the arrays"); /* 4 meshlets claimed */
    expect_refused(good, size, 24, 0xFFFFFFFF, 0, "counts past the arrays");
    expect_refused(good, size, 16, 2, 0, "max vertices 2");
    expect_refused(good, size, 20, 513, 0, "max triangles 513");
    expect_refused(good, size, 48 + 16 + 8, 5, 0, "meshlet 1 has 5 vertices");      /* over V = 4 */
    expect_refused(good, size, 48 + 16 + 12, 3, 0, "meshlet 1 has 3 triangles");    /* over T = 2 */
    expect_refused(good, size, 48 + 32 + 4, 9, 0, "meshlet 2 starts");              /* not contiguous */
    expect_refused(good, size, 140 + 12, 0x00000009, 0, "meshlet 2: triangle 0 refers to local vertex 9");
    expect_refused(good, size, 96 + 4, 0, 0, "meshlet 0: vertex id 0 is listed twice");
    expect_refused(good, size, 140, 0x00000000, 0, "meshlet 0: vertex 2 (id 2) is used by no triangle");
    free(good);
    gc_meshlets_free(&ml);
}

/* ------------------------------------------------------------------- CLI */

/* gpucache meshlets writes OUTPUT and --data FILE: the output, loaded back as a renderer
 * would (an OBJ's vertices numbered by first use), is the data file's meshlets expanded,
 * and scanning it run by run gives those meshlets. */
static void cli_output_is_the_data(void** state)
{
    (void)state;
    char grid_cmd[2048];
    snprintf(grid_cmd, sizeof grid_cmd, "'%s' -q grid 17 11 -o '%s/ml-grid.ply' >/dev/null", GPUCACHE_CLI,
             GPUCACHE_TEST_TMP);
    assert_int_equal(system(grid_cmd), 0);
    char inputs[3][1024];
    snprintf(inputs[0], sizeof inputs[0], "%s/ml-grid.ply", GPUCACHE_TEST_TMP);
    int count = 1;
    if (corpus_path(inputs[1], sizeof inputs[1], "cow.obj") == 0)
        count++;
    if (corpus_path(inputs[count], sizeof inputs[count], "teapot.obj") == 0)
        count++;
    static const char* const limits[] = {"--max-vertices 64 --max-triangles 124", "--target nvidia",
                                         "--max-vertices 5 --max-triangles 3 --scan"};
    for (int i = 0; i < count; ++i)
        for (unsigned l = 0; l < 3; ++l) {
            const char* ext = strrchr(inputs[i], '.');
            char out[1024], data[1024], cmd[8192];
            snprintf(out, sizeof out, "%s/ml-out%s", GPUCACHE_TEST_TMP, ext);
            snprintf(data, sizeof data, "%s/ml-out.bin", GPUCACHE_TEST_TMP);
            snprintf(cmd, sizeof cmd, "'%s' -q meshlets %s --bounds '%s' -o '%s' --data '%s' >/dev/null",
                     GPUCACHE_CLI, limits[l], inputs[i], out, data);
            assert_int_equal(system(cmd), 0);
            gc_mesh mesh;
            gc_meshlets ml;
            gc_error err;
            assert_int_equal(gc_mesh_load(out, NULL, &mesh, &err), GC_OK);
            assert_int_equal(gc_meshlet_data_load(data, &ml, &err), GC_OK);
            assert_non_null(ml.bounds);
            uint32_t* expanded = malloc(mesh.index_count * sizeof *expanded);
            size_t written = 0;
            assert_int_equal(gc_meshlets_expand(&ml, expanded, mesh.index_count, &written, &err), GC_OK);
            assert_int_equal(written, mesh.index_count);
            assert_memory_equal(expanded, mesh.indices, written * sizeof *expanded);
            /* the scan property on the written file, run by run */
            size_t single = mesh.index_count / 3, at = 0, first = 0;
            const size_t* runs = mesh.runs ? mesh.runs : &single;
            size_t run_count = mesh.runs ? mesh.run_count : 1;
            for (size_t r = 0; r < run_count; ++r) {
                size_t len = 3 * runs[r];
                uint32_t* tri = malloc((len / 3 + 1) * sizeof *tri);
                uint32_t* vert = malloc((len / 3 + 1) * sizeof *vert);
                size_t c = machine_cut(mesh.indices + at, len, (uint32_t)mesh.vertex_count, ml.max_vertices,
                                       ml.max_triangles, tri, vert);
                for (size_t k = 0; k < c; ++k) {
                    assert_true(first + k < ml.meshlet_count);
                    assert_int_equal(tri[k], ml.meshlets[first + k].triangle_count);
                    assert_int_equal(vert[k], ml.meshlets[first + k].vertex_count);
                }
                first += c;
                at += len;
                free(tri);
                free(vert);
            }
            assert_int_equal(first, ml.meshlet_count);
            free(expanded);
            gc_meshlets_free(&ml);
            gc_mesh_free(&mesh);
            remove(out);
            remove(data);
        }
}

/* gc_meshlets_cover: a quad of two triangles cut into meshlets of one triangle each. The
 * same triangles rotated are covered; a mirrored winding, a missing triangle and a triangle
 * drawn twice are refused naming the meshlet or the triangle. */
static void cover_by_hand(void** state)
{
    (void)state;
    const uint32_t quad[] = {0, 1, 2, 2, 3, 0};
    gc_meshlet_options o = {0};
    o.max_vertices = 3, o.max_triangles = 1, o.keep_order = 1;
    gc_meshlets m = {0};
    gc_error err;
    assert_int_equal(gc_meshlets_build(quad, 6, 4, &o, &m, &err), GC_OK);
    assert_int_equal(m.meshlet_count, 2);
    assert_int_equal(gc_meshlets_cover(&m, quad, 6, "quad", &err), GC_OK);
    const uint32_t rotated[] = {3, 0, 2, 1, 2, 0};
    assert_int_equal(gc_meshlets_cover(&m, rotated, 6, "quad", &err), GC_OK);
    const uint32_t mirrored[] = {0, 2, 1, 2, 3, 0};
    assert_int_equal(gc_meshlets_cover(&m, mirrored, 6, "quad", &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "quad: "));
    const uint32_t twice[] = {0, 1, 2, 0, 1, 2};
    assert_int_equal(gc_meshlets_cover(&m, twice, 6, "quad", &err), GC_ERR_DATA);
    const uint32_t one[] = {0, 1, 2};
    assert_int_equal(gc_meshlets_cover(&m, one, 3, "quad", &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "2 triangles, the mesh 1"));
    /* the mesh draws (0 1 2) twice, the meshlets (0 1 2) and (2 3 0): its second copy is
     * in no meshlet */
    assert_int_equal(gc_meshlets_cover(&m, twice, 6, "quad", &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "triangle 1 (0, 1, 2) is in no meshlet"));
    /* the other way round: the meshlets draw (0 2 3), which the mesh ((0 1 2) and (0 3 4),
     * sorted after it) does not */
    const uint32_t other[] = {0, 1, 2, 0, 3, 4};
    assert_int_equal(gc_meshlets_cover(&m, other, 6, "quad", &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "meshlet 1 draws the triangle (0, 2, 3)"));
    gc_meshlets_free(&m);
}

/* Meshlet costs of a list as it is (analyze's rows), by the scan rule worked by hand. */
static void costs_by_hand(void** state)
{
    (void)state;
    /* a strip of four triangles, then a triangle of one vertex (degenerate) */
    static const uint32_t idx[] = {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5, 6, 6, 6};
    gc_meshlet_costs c;
    gc_error err;
    /* V 4, T 8: {0,1,2,3} takes the first two; the third brings 4 (a fifth vertex): {2,3,4,5}
       takes the next two; the last brings 6 (a fifth): a meshlet of one vertex */
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 7, 4, 8, &c, &err), GC_OK);
    assert_int_equal(c.meshlets, 3);
    assert_int_equal(c.meshlet_vertices, 4 + 4 + 1);
    assert_int_equal(c.triangles, 5);
    assert_float_equal(c.vertices_per_triangle, 9.0 / 5, 1e-12);
    assert_float_equal(c.vertex_fill, 9.0 / (3 * 4), 1e-12);
    assert_float_equal(c.triangle_fill, 5.0 / (3 * 8), 1e-12);
    /* V 6, T 2: two triangles a meshlet, {0,1,2,3}, {2,3,4,5}, {6} */
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 7, 6, 2, &c, &err), GC_OK);
    assert_int_equal(c.meshlets, 3);
    assert_int_equal(c.meshlet_vertices, 9);
    assert_float_equal(c.triangle_fill, 5.0 / 6, 1e-12);
    /* V 7, T 5: one meshlet of the seven vertices */
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 7, 7, 5, &c, &err), GC_OK);
    assert_int_equal(c.meshlets, 1);
    assert_int_equal(c.meshlet_vertices, 7);
    assert_float_equal(c.vertex_fill, 1.0, 1e-12);
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 7, 2, 5, &c, &err), GC_ERR_USAGE);
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 7, 64, 513, &c, &err), GC_ERR_USAGE);
    assert_int_equal(gc_meshlet_costs_of(idx, 15, 6, 64, 126, &c, &err), GC_ERR_DATA);
    assert_int_equal(gc_meshlet_costs_of(idx, 14, 7, 64, 126, &c, &err), GC_ERR_USAGE);
}

/* On random meshes: the costs are the batch-all model's own figures (invocations, batches)
 * and the meshlets gc_meshlets_build cuts from the same order (keep_order). */
static void costs_are_batch_all(void** state)
{
    (void)state;
    rng_state = 41;
    static const uint32_t limits[][2] = {{3, 1}, {7, 5}, {64, 124}, {64, 126}, {128, 256}, {256, 512}, {17, 33}};
    for (unsigned round = 0; round < 2 * sizeof limits / sizeof limits[0]; ++round) {
        size_t n;
        uint32_t vc;
        uint32_t* idx = random_mesh(&n, &vc);
        const uint32_t v = limits[round % 7][0], t = limits[round % 7][1];
        gc_meshlet_costs c;
        gc_error err;
        assert_int_equal(gc_meshlet_costs_of(idx, n, vc, v, t, &c, &err), GC_OK);
        char spec[96];
        snprintf(spec, sizeof spec, "batch-all:indices=%u,vertices=%u", 3 * t, v);
        gc_model m = model_of(spec);
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        gc_stats st;
        assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
        assert_int_equal(c.meshlet_vertices, st.invocations);
        assert_int_equal(c.meshlets, st.batches);
        gc_meshlet_options o = {0};
        o.max_vertices = v, o.max_triangles = t, o.keep_order = 1;
        gc_meshlets ml = {0};
        assert_int_equal(gc_meshlets_build(idx, n, vc, &o, &ml, &err), GC_OK);
        assert_int_equal(c.meshlets, ml.meshlet_count);
        assert_int_equal(c.meshlet_vertices, ml.vertex_count);
        assert_int_equal(c.triangles, n / 3);
        gc_meshlets_free(&ml);
        free(idx);
    }
}

/* analyze's rows: every preset's costs of the draw's triangles, in JSON and text; a strip
 * costs what its triangle list does; lines have no rows. */
static void costs_report(void** state)
{
    (void)state;
    assert_true(gc_meshlet_preset_count() >= 1);
    assert_null(gc_meshlet_preset_at(gc_meshlet_preset_count()));
    const gc_meshlet_preset* p = gc_meshlet_preset_at(0);
    assert_string_equal(p->name, "nvidia");
    assert_int_equal(p->max_vertices, 64);
    assert_int_equal(p->max_triangles, 126);
    /* a strip of 300 triangles along a band of 302 vertices */
    uint32_t strip[302], list[900];
    for (uint32_t i = 0; i < 302; ++i)
        strip[i] = i;
    for (uint32_t k = 0; k < 300; ++k) { /* the strip's triangles, odd ones with their winding flipped */
        list[3 * k] = k % 2 ? k + 1 : k;
        list[3 * k + 1] = k % 2 ? k : k + 1;
        list[3 * k + 2] = k + 2;
    }
    gc_meshlet_costs c;
    gc_error err;
    assert_int_equal(gc_meshlet_costs_of(list, 900, 302, 64, 126, &c, &err), GC_OK);
    /* 62 triangles a meshlet (64 vertices), the next bringing a 65th: 300 = 4 x 62 + 52 */
    assert_int_equal(c.meshlets, 5);
    assert_int_equal(c.meshlet_vertices, 4 * 64 + 54);
    /* 310 / 300, 310 / (5 x 64), 300 / (5 x 126) with 9 decimals, trailing zeros dropped */
    const char* expect = ", \"meshlets\": [{\"preset\": \"nvidia\", \"max_vertices\": 64, \"max_triangles\": 126, "
                         "\"meshlets\": 5, \"meshlet_vertices\": 310, \"triangles\": 300, \"vertices_per_triangle\": "
                         "1.033333333, \"vertex_fill\": 0.96875, \"triangle_fill\": 0.476190476}]";
    char* text = NULL;
    gc_draw d = {strip, 302, GC_TRIANGLE_STRIP, 0, 0};
    assert_int_equal(gc_draw_meshlet_report(&d, 1, &text, &err), GC_OK);
    assert_non_null(strstr(text, expect));
    free(text);
    gc_draw dl = {list, 900, GC_TRIANGLE_LIST, 0, 0};
    assert_int_equal(gc_draw_meshlet_report(&dl, 0, &text, &err), GC_OK);
    assert_non_null(strstr(text, "nvidia (64/126): 5 meshlets, 310 meshlet vertices, 1.033 vertices per triangle"));
    free(text);
    gc_draw lines = {strip, 302, GC_LINE_STRIP, 0, 0};
    assert_int_equal(gc_draw_meshlet_report(&lines, 1, &text, &err), GC_OK);
    assert_string_equal(text, "");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_by_hand),
        cmocka_unit_test(limits_refused),
        cmocka_unit_test(scan_property_random),
        cmocka_unit_test(scan_property_corpus),
        cmocka_unit_test(local_order),
        cmocka_unit_test(bounds_by_hand),
        cmocka_unit_test(bounds_cone_property),
        cmocka_unit_test(data_round_trip),
        cmocka_unit_test(data_reader_refuses),
        cmocka_unit_test(cli_output_is_the_data),
        cmocka_unit_test(cover_by_hand),
        cmocka_unit_test(costs_by_hand),
        cmocka_unit_test(costs_are_batch_all),
        cmocka_unit_test(costs_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
