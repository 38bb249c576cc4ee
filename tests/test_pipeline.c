// SPDX-License-Identifier: MIT
/* The mesh pipeline (src/pipeline/): gc_mesh_analyze counts a glTF's primitives each as
 * its own draw and any other file as one, gc_mesh_optimize runs the whole reordering
 * (runs, sparse values, the report before and after). Every expected value is worked out
 * by hand in the comments. */
#include "test_util.h"

#include <stdio.h>

static char tmp_path[1024];

static const char* tmp(const char* name)
{
    snprintf(tmp_path, sizeof tmp_path, "%s/%s", GPUCACHE_TEST_TMP, name);
    return tmp_path;
}

static void write_file(const char* path, const void* data, size_t n)
{
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static gc_model model(const char* spec)
{
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse(spec, &m, &err), GC_OK);
    return m;
}

/* pipe.gltf: one mesh, two primitives over 4 vertices: an indexed triangle list
 * 0 1 2 2 1 3 (u16), and the same vertices drawn as points without indices (0 1 2 3). */
static const char* write_gltf(void)
{
    unsigned char bin[60] = {0};
    const float xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    memcpy(bin, xyz, sizeof xyz);
    const unsigned short idx[6] = {0, 1, 2, 2, 1, 3};
    memcpy(bin + 48, idx, sizeof idx);
    write_file(tmp("pipe.bin"), bin, sizeof bin);
    const char* json =
        "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"uri\": \"pipe.bin\", \"byteLength\": 60}],"
        " \"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 48},"
        " {\"buffer\": 0, \"byteOffset\": 48, \"byteLength\": 12}],"
        " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"type\": \"VEC3\", \"count\": 4,"
        " \"min\": [0, 0, 0], \"max\": [1, 1, 0]},"
        " {\"bufferView\": 1, \"componentType\": 5123, \"type\": \"SCALAR\", \"count\": 6}],"
        " \"meshes\": [{\"name\": \"m\", \"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"indices\": 1, \"mode\": 4},"
        " {\"attributes\": {\"POSITION\": 0}, \"mode\": 0}]}]}";
    write_file(tmp("pipe.gltf"), json, strlen(json));
    return tmp("pipe.gltf");
}

static void formats(void** state)
{
    (void)state;
    assert_string_equal(gc_mesh_format("a/b.GLB"), "gltf");
    assert_string_equal(gc_mesh_format("x.gltf"), "gltf");
    assert_string_equal(gc_mesh_format("x.Obj"), "obj");
    assert_string_equal(gc_mesh_format("x.idx"), "txt");
    assert_string_equal(gc_mesh_format("-"), "stdin");
    assert_string_equal(gc_mesh_format("obj:-"), "stdin");
    assert_string_equal(gc_mesh_format("x.fbx"), "other");
    assert_true(gc_mesh_numbers_by_first_use("m.OBJ"));
    assert_false(gc_mesh_numbers_by_first_use("m.ply"));
    assert_false(gc_mesh_numbers_by_first_use(NULL));
}

/* Each primitive its own draw from a reset cache. fifo:3: the list misses 0 1 2, hits 2 1,
 * misses 3: 4; the points miss each of 0 1 2 3: 4; sum 8 over 2 + 4 primitives. Merged
 * into one list (gc_mesh_load's view) the points would not be there at all. */
static void analyze_gltf_per_primitive(void** state)
{
    (void)state;
    const char* path = write_gltf();
    gc_model models[2] = {model("fifo:3"), model("lru:2")};
    gc_mesh_analysis a;
    gc_error err;
    assert_int_equal(gc_mesh_analyze(path, NULL, models, 2, 1, &a, &err), GC_OK);
    assert_int_equal(a.draw_count, 2);
    assert_int_equal(a.draws[0].mode, 4);
    assert_int_equal(a.draws[0].index_bits, 16);
    assert_int_equal(a.draws[0].primitives, 2);
    assert_int_equal(a.draws[0].vertices, 4);
    assert_int_equal(a.draws[0].stats[0].invocations, 4);
    assert_string_equal(a.draws[0].mesh_name, "m");
    assert_int_equal(a.draws[1].mode, 0);
    assert_int_equal(a.draws[1].index_bits, 0);
    assert_int_equal(a.draws[1].primitives, 4);
    assert_int_equal(a.draws[1].stats[0].invocations, 4);
    assert_int_equal(a.sums[0].invocations, 8);
    assert_true(a.sums[0].acmr > 8.0 / 6 - 1e-12 && a.sums[0].acmr < 8.0 / 6 + 1e-12);
    /* lru:2 on the list: 0 1 2 miss (3), 2 1 hit, 3 misses (4); points: 4 */
    assert_int_equal(a.draws[0].stats[1].invocations, 4);
    assert_int_equal(a.sums[1].invocations, 8);
    assert_int_equal(a.indices, 10);
    assert_int_equal(a.primitives, 6);
    assert_int_equal(a.vertices, 8);
    assert_int_equal(a.triangles, 2);
    assert_true(a.mixed);
    assert_int_equal(a.topology, GC_TRIANGLE_LIST);
    gc_mesh_analysis_free(&a);
    gc_mesh_analysis_free(&a); /* safe on a zeroed one */
}

/* Any other format is one draw: text 0 1 2 2 1 3 under fifo:3 costs 4 (above). */
static void analyze_text_one_draw(void** state)
{
    (void)state;
    const char* text = "0 1 2 2 1 3\n";
    write_file(tmp("pipe.txt"), text, strlen(text));
    gc_model m = model("fifo:3");
    gc_mesh_analysis a;
    gc_error err;
    assert_int_equal(gc_mesh_analyze(tmp("pipe.txt"), NULL, &m, 1, 1, &a, &err), GC_OK);
    assert_int_equal(a.draw_count, 1);
    assert_int_equal(a.draws[0].mode, -1);
    assert_int_equal(a.sums[0].invocations, 4);
    assert_int_equal(a.indices, 6);
    assert_int_equal(a.primitives, 2);
    assert_false(a.mixed);
    gc_mesh_analysis_free(&a);
    /* a 32-bit restart value without restart is refused, as analyze does */
    const char* bad = "0 1 -1\n";
    write_file(tmp("pipe-bad.txt"), bad, strlen(bad));
    assert_int_equal(gc_mesh_analyze(tmp("pipe-bad.txt"), NULL, &m, 1, 1, &a, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "index 2 is 4294967295"));
    assert_null(a.draws);
}

static void count_trace(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    (void)primitive, (void)entries, (void)count;
    ++*(int*)user;
}

/* gc_mesh_analyze_with, as analyze runs a file that is not a glTF: the draw as -t and
 * --restart say, per-vertex counts and a trace per model, grid:WxH. */
static void analyze_with_draw_options(void** state)
{
    (void)state;
    const char* text = "0 1 2 3 4 5\n";
    write_file(tmp("pipe-strip.txt"), text, strlen(text));
    gc_model m = model("fifo:3");
    gc_mesh_analysis a;
    gc_error err;
    gc_mesh_analyze_options o = {0};
    const gc_topology strip = GC_TRIANGLE_STRIP;
    o.draw.topology = &strip;
    gc_per_vertex pv = {0};
    int calls = 0;
    void* users[1] = {&calls};
    o.per_vertex = &pv;
    o.trace = count_trace;
    o.trace_users = users;
    /* a strip of 6 indices: triangles 012 123 234 345; every vertex new once: 6 */
    assert_int_equal(gc_mesh_analyze_with(tmp("pipe-strip.txt"), &o, &m, 1, &a, &err), GC_OK);
    assert_int_equal(a.draws[0].topology, GC_TRIANGLE_STRIP);
    assert_int_equal(a.draws[0].primitives, 4);
    assert_int_equal(a.sums[0].invocations, 6);
    assert_int_equal(calls, 4);
    assert_int_equal(pv.count, 6);
    for (size_t i = 0; i < pv.count; ++i)
        assert_int_equal(pv.counts[i], 1);
    assert_int_equal(a.draws[0].indices[5], 5);
    gc_per_vertex_free(&pv);
    gc_mesh_analysis_free(&a);
    /* restart: 0 1 2 | 3 4 5 as two strips of one triangle each */
    const char* cut = "0 1 2 -1 3 4 5\n";
    write_file(tmp("pipe-cut.txt"), cut, strlen(cut));
    gc_mesh_analyze_options r = {0};
    r.draw.topology = &strip;
    r.draw.restart = 1;
    assert_int_equal(gc_mesh_analyze_with(tmp("pipe-cut.txt"), &r, &m, 1, &a, &err), GC_OK);
    assert_true(a.draws[0].restart_enabled);
    assert_int_equal(a.draws[0].restart_value, 0xFFFFFFFFu);
    assert_int_equal(a.draws[0].primitives, 2);
    assert_int_equal(a.sums[0].invocations, 6);
    gc_mesh_analysis_free(&a);
    /* grid:2x1: 2 quads, 4 triangles, 12 indices over 3 x 2 vertices, all in a 16-entry FIFO */
    gc_model big = model("fifo:16");
    assert_int_equal(gc_mesh_analyze_with("grid:2x1", NULL, &big, 1, &a, &err), GC_OK);
    assert_int_equal(a.indices, 12);
    assert_int_equal(a.primitives, 4);
    assert_int_equal(a.vertices, 6);
    assert_int_equal(a.sums[0].invocations, 6);
    gc_mesh_analysis_free(&a);
    assert_int_equal(gc_mesh_analyze_with("grid:0x1", NULL, &big, 1, &a, &err), GC_ERR_USAGE);
    /* an OBJ holds a triangle list: -t strip does not apply */
    const char* obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    write_file(tmp("pipe.obj"), obj, strlen(obj));
    assert_int_equal(gc_mesh_analyze_with(tmp("pipe.obj"), &r, &m, 1, &a, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "does not apply"));
    /* a glTF's primitives keep their own modes */
    assert_int_equal(gc_mesh_analyze_with(write_gltf(), &r, &m, 1, &a, &err), GC_ERR_USAGE);
    assert_null(a.draws);
}

/* The glTF's list reordered in its document (the points left alone and not counted as
 * left: they have no triangles); the mesh lists are gc_mesh_load's: 0 1 2 2 1 3. */
static void optimize_gltf_document(void** state)
{
    (void)state;
    const char* path = write_gltf();
    gc_mesh_optimize_options o = {0};
    o.algorithm = GC_OPT_TIPSIFY;
    o.mesh_lists = 1;
    gc_model m = model("fifo:3");
    o.report = &m;
    o.report_count = 1;
    gc_mesh_optimized r;
    gc_error err;
    assert_int_equal(gc_mesh_optimize(path, NULL, NULL, 0, &o, &r, &err), GC_OK);
    assert_non_null(r.gltf);
    assert_int_equal(r.runs, 1);
    assert_int_equal(r.left, 0);
    assert_int_equal(r.triangles, 2);
    assert_int_equal(r.index_count, 6);
    const uint32_t expect[6] = {0, 1, 2, 2, 1, 3};
    assert_memory_equal(r.input, expect, sizeof expect);
    assert_int_equal(gc_check_permutation(r.input, r.indices, 6, 4, &err), GC_OK);
    assert_int_equal(r.before[0].invocations, 8); /* both draws, as analyze counts them */
    assert_int_equal(r.after[0].invocations, 8);  /* 4 is the least the list can cost */
    gc_mesh_optimized_free(&r);
}

/* A draw: runs must tile the list; a line list has no triangles; sparse values are ranked
 * for the optimizer and restored, and refused where a vertex map is wanted. */
static void optimize_draw(void** state)
{
    (void)state;
    const uint32_t idx[6] = {0, 1, 2, 2, 1, 3000000};
    gc_draw d = {idx, 6, GC_TRIANGLE_LIST, 0, 0};
    gc_mesh_optimize_options o = {0};
    o.algorithm = GC_OPT_FORSYTH;
    gc_mesh_optimized r;
    gc_error err;
    const size_t bad_runs[2] = {1, 2};
    assert_int_equal(gc_mesh_optimize(NULL, &d, bad_runs, 2, &o, &r, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "runs 0 to 1 hold more than the 2 triangles"));
    const size_t short_runs[1] = {1};
    assert_int_equal(gc_mesh_optimize(NULL, &d, short_runs, 1, &o, &r, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "the runs hold 1 triangles, the list 2"));
    gc_draw lines = {idx, 6, GC_LINE_LIST, 0, 0};
    assert_int_equal(gc_mesh_optimize(NULL, &lines, NULL, 0, &o, &r, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "a line-list has no triangles to reorder"));
    /* 3000001 > 2 x 6 + 65536: ranks 0 1 2 2 1 3 */
    const size_t runs[2] = {1, 1};
    assert_int_equal(gc_mesh_optimize(NULL, &d, runs, 2, &o, &r, &err), GC_OK);
    assert_true(r.sparse);
    assert_int_equal(r.dense_count, 4);
    const uint32_t ranks[6] = {0, 1, 2, 2, 1, 3};
    assert_memory_equal(r.dense, ranks, sizeof ranks);
    assert_int_equal(r.runs, 2);
    /* each run of one triangle stays in place, at most rotated */
    assert_int_equal(gc_check_permutation(idx, r.indices, 3, UINT32_MAX, &err), GC_OK);
    assert_int_equal(gc_check_permutation(idx + 3, r.indices + 3, 3, UINT32_MAX, &err), GC_OK);
    gc_mesh_optimized_free(&r);
    o.vertex_map = 1;
    assert_int_equal(gc_mesh_optimize(NULL, &d, NULL, 0, &o, &r, &err), GC_ERR_LIMIT);
    assert_non_null(strstr(err.message, "index values up to 3000000 in 6 indices"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formats),
        cmocka_unit_test(analyze_gltf_per_primitive),
        cmocka_unit_test(analyze_text_one_draw),
        cmocka_unit_test(analyze_with_draw_options),
        cmocka_unit_test(optimize_gltf_document),
        cmocka_unit_test(optimize_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
