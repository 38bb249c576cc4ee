// SPDX-License-Identifier: MIT
/* gc_mesh_write on PLY and index files (issue 14, items 3, 4 and 6): vertex records
 * reordered with unused ones kept (middle and trailing), binary records of fixed and of
 * variable size, both byte orders; indices renumbered by first use whatever their values;
 * a caller's out-of-range index refused. The outputs are read back here with a reader of
 * this test's own (it knows the one layout it wrote), not with the library's. */
#include "test_util.h"

#include <unistd.h>

typedef struct vec3 {
    float x, y, z;
} vec3;

static char path_buf[2][1024];

static const char* tmp(int slot, const char* name)
{
    snprintf(path_buf[slot], sizeof path_buf[slot], "%s/%s", GPUCACHE_TEST_TMP, name);
    return path_buf[slot];
}

static void put_bytes(FILE* f, const void* value, size_t size, bool big)
{
    const unsigned char* b = value;
    for (size_t i = 0; i < size; ++i)
        fputc(b[big ? size - 1 - i : i], f); /* the test machines are little endian */
}

static void get_bytes(FILE* f, void* value, size_t size, bool big)
{
    unsigned char* b = value;
    for (size_t i = 0; i < size; ++i) {
        int c = fgetc(f);
        assert_true(c >= 0);
        b[big ? size - 1 - i : i] = (unsigned char)c;
    }
}

/* The header this test writes, and the one the rewriter must write back for it. */
static void header(char* buf, size_t size, bool big, bool extra, size_t nv, size_t nt)
{
    snprintf(buf, size,
             "ply\nformat %s 1.0\ncomment made by test_ply_rewrite\nelement vertex %zu\nproperty float x\n"
             "property float y\nproperty float z\n%selement face %zu\nproperty list uchar int vertex_indices\n"
             "end_header\n",
             big ? "binary_big_endian" : "binary_little_endian", nv, extra ? "property list uchar float extra\n" : "",
             nt);
}

/* Vertex i's extra list (when the records vary in size): i % 3 floats, each i + 0.5. */
static void write_ply(const char* path, bool big, bool extra, const vec3* v, size_t nv, const uint32_t* tri,
                      size_t nt)
{
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    char h[512];
    header(h, sizeof h, big, extra, nv, nt);
    fputs(h, f);
    for (size_t i = 0; i < nv; ++i) {
        put_bytes(f, &v[i].x, 4, big), put_bytes(f, &v[i].y, 4, big), put_bytes(f, &v[i].z, 4, big);
        if (extra) {
            fputc((int)(i % 3), f);
            for (size_t k = 0; k < i % 3; ++k) {
                float e = (float)i + 0.5f;
                put_bytes(f, &e, 4, big);
            }
        }
    }
    for (size_t t = 0; t < nt; ++t) {
        fputc(3, f);
        for (int k = 0; k < 3; ++k) {
            int32_t id = (int32_t)tri[3 * t + k];
            put_bytes(f, &id, 4, big);
        }
    }
    assert_int_equal(fclose(f), 0);
}

/* Reads back a file of write_ply's layout: the header must be exactly the expected one,
 * every extra list must still belong to its vertex (its values name the vertex). */
static void read_ply(const char* path, bool big, bool extra, vec3* v, size_t nv, uint32_t* tri, size_t nt)
{
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    char want[512], got[512];
    header(want, sizeof want, big, extra, nv, nt);
    size_t len = strlen(want);
    assert_int_equal(fread(got, 1, len, f), len);
    got[len] = 0;
    assert_string_equal(got, want);
    for (size_t i = 0; i < nv; ++i) {
        get_bytes(f, &v[i].x, 4, big), get_bytes(f, &v[i].y, 4, big), get_bytes(f, &v[i].z, 4, big);
        if (extra) {
            int n = fgetc(f);
            assert_true(n >= 0 && n < 3);
            for (int k = 0; k < n; ++k) {
                float e;
                get_bytes(f, &e, 4, big);
                /* the extra list of the vertex at x = 10 * i is i % 3 values i + 0.5 */
                float owner = v[i].x / 10.0f;
                assert_true(e == owner + 0.5f);
                assert_int_equal(n, (int)owner % 3);
            }
        }
    }
    for (size_t t = 0; t < nt; ++t) {
        assert_int_equal(fgetc(f), 3);
        for (int k = 0; k < 3; ++k) {
            int32_t id;
            get_bytes(f, &id, 4, big);
            assert_true(id >= 0 && (size_t)id < nv);
            tri[3 * t + k] = (uint32_t)id;
        }
    }
    assert_int_equal(fgetc(f), EOF);
    fclose(f);
}

static bool same_vertex(vec3 a, vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* 8 vertices, x = 10 * i: 4, 6 and 7 are used by no triangle (one in the middle, two
 * trailing: the case whose remap the old rewriter read past). */
#define NV 8
#define NT 3
static const uint32_t input_tris[3 * NT] = {5, 1, 0, 0, 2, 5, 2, 3, 5};

static void check_rewrite(bool big, bool extra, int reorder)
{
    vec3 v[NV];
    for (int i = 0; i < NV; ++i)
        v[i] = (vec3){10.0f * (float)i, (float)i * 0.25f, -(float)i};
    char name[64], out_name[64];
    snprintf(name, sizeof name, "in-%d%d%d.ply", big, extra, reorder);
    snprintf(out_name, sizeof out_name, "out-%d%d%d.ply", big, extra, reorder);
    const char* in = tmp(0, name);
    const char* out = tmp(1, out_name);
    write_ply(in, big, extra, v, NV, input_tris, NT);

    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(in, NULL, &m, &err))
        fail_msg("%s", err.message);
    assert_int_equal(m.index_count, 3 * NT);
    assert_memory_equal(m.indices, input_tris, sizeof input_tris);
    gc_mesh_free(&m);

    /* the triangles in a new order: last first */
    const uint32_t order[3 * NT] = {2, 3, 5, 0, 2, 5, 5, 1, 0};
    if (gc_mesh_write(in, NULL, order, 3 * NT, reorder, out, &err))
        fail_msg("%s", err.message);
    vec3 w[NV];
    uint32_t tri[3 * NT];
    read_ply(out, big, extra, w, NV, tri, NT);
    if (!reorder) {
        /* records as they were, triangles as given */
        for (int i = 0; i < NV; ++i)
            assert_true(same_vertex(v[i], w[i]));
        assert_memory_equal(tri, order, sizeof order);
    } else {
        /* By hand: first use in `order` is 2, 3, 5, 0, 1; then the unused 4, 6, 7. */
        static const uint32_t records[NV] = {2, 3, 5, 0, 1, 4, 6, 7};
        static const uint32_t renumbered[3 * NT] = {0, 1, 2, 3, 0, 2, 2, 4, 3};
        for (int i = 0; i < NV; ++i)
            assert_true(same_vertex(v[records[i]], w[i]));
        assert_memory_equal(tri, renumbered, sizeof renumbered);
    }
    /* the same triangles, by position */
    for (int k = 0; k < 3 * NT; ++k)
        assert_true(same_vertex(w[tri[k]], v[order[k]]));
    /* and the library reads it back to the same triangles */
    if (gc_mesh_load(out, NULL, &m, &err))
        fail_msg("%s", err.message);
    assert_int_equal(m.index_count, 3 * NT);
    assert_memory_equal(m.indices, tri, sizeof tri);
    assert_int_equal(m.vertex_count, NV);
    gc_mesh_free(&m);
}

static void ply_little_endian(void** state)
{
    (void)state;
    check_rewrite(false, false, 1);
    check_rewrite(false, false, 0);
}

static void ply_big_endian(void** state)
{
    (void)state;
    check_rewrite(true, false, 1);
    check_rewrite(true, false, 0);
}

static void ply_variable_records(void** state)
{
    (void)state;
    check_rewrite(false, true, 1);
    check_rewrite(true, true, 1);
    check_rewrite(false, true, 0);
}

/* An index the file has no vertex for is the caller's mistake (or the file changed):
 * refused, and no output left behind. */
static void ply_index_beyond_the_file(void** state)
{
    (void)state;
    vec3 v[NV];
    for (int i = 0; i < NV; ++i)
        v[i] = (vec3){10.0f * (float)i, 0, 0};
    const char* in = tmp(0, "beyond.ply");
    const char* out = tmp(1, "beyond-out.ply");
    write_ply(in, false, false, v, NV, input_tris, NT);
    const uint32_t bad[6] = {0, 1, 2, 0, 2, NV};
    gc_error err;
    for (int reorder = 0; reorder < 2; ++reorder) {
        unlink(out);
        gc_status s = gc_mesh_write(in, NULL, bad, 6, reorder, out, &err);
        /* renumbered, the index is a used vertex too many for the file */
        assert_int_equal(s, GC_ERR_DATA);
        assert_non_null(strstr(err.message, "beyond.ply"));
        assert_int_equal(access(out, F_OK), -1);
    }
}

/* Index files: first-use renumbering whatever the values, memory after the count. */
static void index_files_sparse_values(void** state)
{
    (void)state;
    const uint32_t idx[6] = {4000000000u, 7, 4000000000u, 7, 9, 3000000000u};
    const char* out = tmp(1, "sparse-out.txt");
    gc_error err;
    if (gc_mesh_write("sparse.txt", NULL, idx, 6, 1, out, &err))
        fail_msg("%s", err.message);
    FILE* f = fopen(out, "rb");
    assert_non_null(f);
    char text[64] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    /* 4000000000 -> 0, 7 -> 1, 9 -> 2, 3000000000 -> 3 */
    assert_string_equal(text, "0 1 0\n1 2 3\n");

    const uint32_t top[3] = {0xFFFFFFFFu, 5, 0xFFFFFFFEu};
    out = tmp(1, "top-out.u32");
    if (gc_mesh_write("top.u32", NULL, top, 3, 1, out, &err))
        fail_msg("%s", err.message);
    f = fopen(out, "rb");
    assert_non_null(f);
    uint32_t got[4];
    assert_int_equal(fread(got, 4, 4, f), 3);
    fclose(f);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 1);
    assert_int_equal(got[2], 2);
}

/* The rewriter reads the header as the loader does: a quad under a header written with
 * tabs becomes two triangles, and the file written loads back to them. */
static void ply_header_with_tabs(void** state)
{
    (void)state;
    const char* in = tmp(0, "tabs.ply");
    const char* out = tmp(1, "tabs-out.ply");
    FILE* f = fopen(in, "wb");
    assert_non_null(f);
    fputs("ply\nformat\tascii 1.0\r\nelement vertex\t4\nproperty float x\nproperty\tfloat\ty\n"
          "element\tface 1\nproperty list\tuchar int\tvertex_indices \nend_header\n"
          "0 0\n1 0\n1 1\n0 1\n4 0 1 2 3\n",
          f);
    fclose(f);
    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(in, NULL, &m, &err))
        fail_msg("%s", err.message);
    static const uint32_t fan[6] = {0, 1, 2, 0, 2, 3};
    assert_int_equal(m.index_count, 6);
    assert_memory_equal(m.indices, fan, sizeof fan);
    gc_mesh_free(&m);
    const uint32_t order[6] = {0, 2, 3, 0, 1, 2};
    if (gc_mesh_write(in, NULL, order, 6, 0, out, &err))
        fail_msg("%s", err.message);
    f = fopen(out, "rb");
    assert_non_null(f);
    char text[512] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    assert_string_equal(text, "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                              "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
                              "0 0\n1 0\n1 1\n0 1\n3 0 2 3\n3 0 1 2\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ply_little_endian),        cmocka_unit_test(ply_big_endian),
        cmocka_unit_test(ply_variable_records),     cmocka_unit_test(ply_index_beyond_the_file),
        cmocka_unit_test(index_files_sparse_values), cmocka_unit_test(ply_header_with_tabs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
