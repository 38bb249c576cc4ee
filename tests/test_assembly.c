// SPDX-License-Identifier: MIT
/* Primitive assembly for every topology, with and without restart, against
 * expectations written by hand; igea.ply as a strip with restarts. */
#include "test_util.h"

#define R 99u /* the restart value in these tests */

/* Assembles and compares with `expected`: primitives of `arity`, flattened. */
static void expect(gc_topology t, const uint32_t* idx, size_t n, bool restart, const uint32_t* expected,
                   size_t prims, unsigned arity)
{
    gc_draw d = {idx, n, t, restart, R};
    uint64_t counted;
    gc_error err;
    if (gc_draw_validate(&d, "test", &counted, &err) != GC_OK)
        fail_msg("%s: %s", gc_topology_name(t), err.message);
    assert_int_equal(counted, prims);
    gc_assembler a;
    gc_primitive p;
    gc_assembler_init(&a, &d);
    size_t k = 0;
    while (gc_assembler_next(&a, &p)) {
        assert_true(k < prims);
        assert_int_equal(p.count, arity);
        for (unsigned j = 0; j < arity; ++j) {
            if (p.vertices[j] != expected[k * arity + j])
                fail_msg("%s primitive %zu corner %u: %u, expected %u", gc_topology_name(t), k, j, p.vertices[j],
                         expected[k * arity + j]);
            assert_int_equal(idx[p.positions[j]], p.vertices[j]);
        }
        k++;
    }
    assert_int_equal(k, prims);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void lists(void** state)
{
    (void)state;
    static const uint32_t i[] = {0, 1, 2, 3, 4, 5, 6, 7};
    static const uint32_t points[] = {0, 1, 2, 3, 4, 5, 6, 7};
    expect(GC_POINT_LIST, i, 8, false, points, 8, 1);
    expect(GC_LINE_LIST, i, 8, false, i, 4, 2);
    expect(GC_TRIANGLE_LIST, i, 6, false, i, 2, 3);
    expect(GC_QUAD_LIST, i, 8, false, i, 2, 4);
}

static void strips_loops_fans(void** state)
{
    (void)state;
    static const uint32_t i[] = {0, 1, 2, 3, 4};
    static const uint32_t line_strip[] = {0, 1, 1, 2, 2, 3, 3, 4};
    expect(GC_LINE_STRIP, i, 5, false, line_strip, 4, 2);
    static const uint32_t line_loop[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 0};
    expect(GC_LINE_LOOP, i, 5, false, line_loop, 5, 2);
    /* Vulkan: triangle k of a strip is (k, k+1+k%2, k+2-k%2). */
    static const uint32_t strip[] = {0, 1, 2, 1, 3, 2, 2, 3, 4};
    expect(GC_TRIANGLE_STRIP, i, 5, false, strip, 3, 3);
    /* Vulkan: triangle k of a fan is (k+1, k+2, 0). */
    static const uint32_t fan[] = {1, 2, 0, 2, 3, 0, 3, 4, 0};
    expect(GC_TRIANGLE_FAN, i, 5, false, fan, 3, 3);
    /* A polygon: (0, k+1, k+2), as OpenGL draws a convex polygon. */
    static const uint32_t polygon[] = {0, 1, 2, 0, 2, 3, 0, 3, 4};
    expect(GC_POLYGON, i, 5, false, polygon, 3, 3);
}

static void with_restart(void** state)
{
    (void)state;
    static const uint32_t s[] = {0, 1, 2, 3, R, 4, 5, 6, R, 7, 8};
    static const uint32_t strip[] = {0, 1, 2, 1, 3, 2, 4, 5, 6};
    expect(GC_TRIANGLE_STRIP, s, N(s), true, strip, 3, 3);
    static const uint32_t fan[] = {1, 2, 0, 2, 3, 0, 5, 6, 4};
    expect(GC_TRIANGLE_FAN, s, N(s), true, fan, 3, 3);
    static const uint32_t polygon[] = {0, 1, 2, 0, 2, 3, 4, 5, 6};
    expect(GC_POLYGON, s, N(s), true, polygon, 3, 3);
    static const uint32_t line_strip[] = {0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8};
    expect(GC_LINE_STRIP, s, N(s), true, line_strip, 6, 2);
    static const uint32_t l[] = {0, 1, 2, R, 3, 4, R, 5, R, R};
    static const uint32_t loop[] = {0, 1, 1, 2, 2, 0, 3, 4, 4, 3};
    expect(GC_LINE_LOOP, l, N(l), true, loop, 5, 2);
    static const uint32_t t[] = {0, 1, 2, R, 3, 4, 5, R};
    static const uint32_t tris[] = {0, 1, 2, 3, 4, 5};
    expect(GC_TRIANGLE_LIST, t, N(t), true, tris, 2, 3);
    static const uint32_t p[] = {R, 0, R, R, 1};
    static const uint32_t points[] = {0, 1};
    expect(GC_POINT_LIST, p, N(p), true, points, 2, 1);
    /* Without restart, 99 is an ordinary vertex. */
    static const uint32_t plain[] = {0, R, 2};
    expect(GC_TRIANGLE_LIST, plain, 3, false, plain, 1, 3);
}

static void counts_that_do_not_fit(void** state)
{
    (void)state;
    static const uint32_t i[] = {0, 1, 2, 3};
    gc_draw d = {i, 4, GC_TRIANGLE_LIST, 0, 0};
    gc_error err;
    assert_int_equal(gc_draw_validate(&d, "x.txt", NULL, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "x.txt"));
    assert_non_null(strstr(err.message, "1 left over"));
    static const uint32_t r[] = {0, 1, R, 2, 3, 4};
    gc_draw dr = {r, 6, GC_TRIANGLE_LIST, 1, R};
    assert_int_equal(gc_draw_validate(&dr, "y.txt", NULL, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "index 2"));
    gc_draw quads = {i, 3, GC_QUAD_LIST, 0, 0};
    assert_int_equal(gc_draw_validate(&quads, "q", NULL, &err), GC_ERR_DATA);
    gc_draw lines = {i, 3, GC_LINE_LIST, 0, 0};
    assert_int_equal(gc_draw_validate(&lines, "l", NULL, &err), GC_ERR_DATA);
    /* Strips accept any count: a short segment just draws nothing. */
    gc_draw strip = {i, 2, GC_TRIANGLE_STRIP, 0, 0};
    uint64_t prims = 7;
    assert_int_equal(gc_draw_validate(&strip, "s", &prims, &err), GC_OK);
    assert_int_equal(prims, 0);
}

/* Quads split into two triangles sharing their first corner; lines have no triangles. */
static void triangles_of_quads(void** state)
{
    (void)state;
    static const uint32_t q[] = {0, 1, 2, 3, 4, 5, 6, 7};
    gc_draw d = {q, 8, GC_QUAD_LIST, 0, 0};
    uint32_t out[12];
    size_t n;
    gc_error err;
    assert_int_equal(gc_draw_triangles(&d, out, 12, &n, &err), GC_OK);
    static const uint32_t expected[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    assert_int_equal(n, 12);
    assert_memory_equal(out, expected, sizeof expected);
    gc_draw lines = {q, 8, GC_LINE_LIST, 0, 0};
    assert_int_equal(gc_draw_triangles(&lines, out, 12, &n, &err), GC_ERR_USAGE);
}

static void topology_names(void** state)
{
    (void)state;
    for (int t = 0; t < GC_TOPOLOGY_COUNT; ++t) {
        gc_topology back;
        gc_error err;
        assert_int_equal(gc_topology_parse(gc_topology_name((gc_topology)t), &back, &err), GC_OK);
        assert_int_equal(back, t);
    }
    gc_topology x;
    gc_error err;
    assert_int_equal(gc_topology_parse("hexagons", &x, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "hexagons"));
}

/* igea.ply: a tristrips element with -1 restarts. Expanded here independently (split at -1,
 * alternate the winding), it must give the very primitives the assembler gives, and every
 * model must cost the same on the strip and on that triangle list. */
static void igea_strips(void** state)
{
    (void)state;
    char path[1024];
    if (corpus_path(path, sizeof path, "igea.ply") != 0)
        skip();
    gc_mesh mesh;
    gc_error err;
    if (gc_mesh_load(path, NULL, &mesh, &err) != GC_OK)
        fail_msg("%s", err.message);
    assert_int_equal(mesh.topology, GC_TRIANGLE_STRIP);
    assert_true(mesh.restart_enabled);
    assert_int_equal(mesh.restart_value, 0xFFFFFFFFu);
    assert_int_equal(mesh.vertex_count, 134345);
    uint32_t* list = malloc(3 * mesh.index_count * sizeof *list);
    size_t n = 0, run = 0, restarts = 0;
    for (size_t i = 0; i < mesh.index_count; ++i) {
        if (mesh.indices[i] == 0xFFFFFFFFu) {
            run = 0;
            restarts++;
            continue;
        }
        if (++run >= 3) {
            const uint32_t* v = mesh.indices + i - 2;
            bool odd = (run - 3) % 2 == 1;
            list[n++] = v[0];
            list[n++] = odd ? v[2] : v[1];
            list[n++] = odd ? v[1] : v[2];
        }
    }
    assert_true(restarts > 0);
    gc_draw strip = {mesh.indices, mesh.index_count, GC_TRIANGLE_STRIP, 1, 0xFFFFFFFFu};
    gc_assembler a;
    gc_primitive p;
    gc_assembler_init(&a, &strip);
    size_t k = 0;
    while (gc_assembler_next(&a, &p)) {
        for (unsigned j = 0; j < 3; ++j)
            assert_int_equal(p.vertices[j], list[k + j]);
        k += 3;
    }
    assert_int_equal(k, n);
    /* The library's own expansion gives the same list. */
    uint32_t* expanded = malloc(n * sizeof *expanded);
    size_t written;
    assert_int_equal(gc_draw_triangles(&strip, expanded, n, &written, &err), GC_OK);
    assert_int_equal(written, n);
    assert_memory_equal(expanded, list, n * sizeof *list);
    assert_int_equal(gc_draw_triangles(&strip, expanded, n - 1, &written, &err), GC_ERR_USAGE);
    free(expanded);
    gc_draw tris = {list, n, GC_TRIANGLE_LIST, 0, 0};
    static const char* const specs[] = {"fifo:16", "lru:16", "nvidia", "meshopt:32,32,32", "reuse:32,16,32",
                                        "direct-value:32", "batch"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; ++s) {
        gc_model m = model_of(specs[s]);
        gc_stats a1, a2;
        assert_int_equal(gc_analyze(&m, &strip, NULL, &a1, &err), GC_OK);
        assert_int_equal(gc_analyze(&m, &tris, NULL, &a2, &err), GC_OK);
        assert_int_equal(a1.invocations, a2.invocations);
        assert_int_equal(a1.primitives, a2.primitives);
        assert_int_equal(a1.vertices, a2.vertices);
    }
    free(list);
    gc_mesh_free(&mesh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists),
        cmocka_unit_test(strips_loops_fans),
        cmocka_unit_test(with_restart),
        cmocka_unit_test(counts_that_do_not_fit),
        cmocka_unit_test(triangles_of_quads),
        cmocka_unit_test(topology_names),
        cmocka_unit_test(igea_strips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
