// SPDX-License-Identifier: MIT
/* gc_mesh_load from standard input (issue 20): "-" tells a PLY, an OBJ and text indices
 * apart by their first bytes and reads each as the file would be read; "FORMAT:-" names
 * the format; raw formats are bounded by the index limit. Standard input is a file the
 * test writes (freopen), the expected meshes the same bytes loaded from a named file. */
#include "test_util.h"

static char path_of[512];

/* Writes `bytes` to a file named NAME in the test folder; returns its path. */
static const char* write_file(const char* name, const void* bytes, size_t n)
{
    snprintf(path_of, sizeof path_of, "%s/stdin-%s", GPUCACHE_TEST_TMP, name);
    FILE* f = fopen(path_of, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    return path_of;
}

/* Loads `spec` ("-" or "FORMAT:-") with standard input reading the file at `path`. */
static gc_status load_stdin(const char* spec, const char* path, const gc_load_options* o, gc_mesh* m, gc_error* err)
{
    assert_non_null(freopen(path, "rb", stdin));
    return gc_mesh_load(spec, o, m, err);
}

static void same_mesh(const gc_mesh* a, const gc_mesh* b)
{
    assert_int_equal(a->index_count, b->index_count);
    assert_memory_equal(a->indices, b->indices, a->index_count * sizeof *a->indices);
    assert_int_equal(a->topology, b->topology);
    assert_int_equal(a->has_topology, b->has_topology);
    assert_int_equal(a->index_bits, b->index_bits);
}

/* the same bytes as a named file (by extension) and on standard input (sniffed and named) */
static void check_format(const char* ext, const char* text, size_t expected_indices)
{
    char name[32];
    snprintf(name, sizeof name, "mesh.%s", ext);
    const char* path = write_file(name, text, strlen(text));
    gc_mesh want, got;
    gc_error err;
    if (gc_mesh_load(path, NULL, &want, &err) != GC_OK)
        fail_msg("%s", err.message);
    assert_int_equal(want.index_count, expected_indices);
    if (load_stdin("-", path, NULL, &got, &err) != GC_OK)
        fail_msg("- as %s: %s", ext, err.message);
    same_mesh(&want, &got);
    gc_mesh_free(&got);
    char spec[16];
    snprintf(spec, sizeof spec, "%s:-", ext);
    if (load_stdin(spec, path, NULL, &got, &err) != GC_OK)
        fail_msg("%s: %s", spec, err.message);
    same_mesh(&want, &got);
    gc_mesh_free(&got);
    gc_mesh_free(&want);
}

static void sniffed_and_named(void** state)
{
    (void)state;
    /* a quad as two triangles: 6 indices each way */
    check_format("txt", "# two triangles\n0 1 2\n2 1 3\n", 6);
    check_format("obj", "# a quad\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 3 2 4\n", 6);
    check_format("ply",
                 "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                 "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
                 "0 0 0\n1 0 0\n0 1 0\n1 1 0\n3 0 1 2\n3 2 1 3\n",
                 6);
}

static void raw_from_stdin(void** state)
{
    (void)state;
    const unsigned char u16[] = {0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0};
    const char* path = write_file("raw.u16", u16, sizeof u16);
    gc_mesh want, got;
    gc_error err;
    assert_int_equal(gc_mesh_load(path, NULL, &want, &err), GC_OK);
    assert_int_equal(load_stdin("u16:-", path, NULL, &got, &err), GC_OK);
    same_mesh(&want, &got);
    assert_int_equal(got.restart_value, 0xFFFFu);
    gc_mesh_free(&got);
    gc_mesh_free(&want);
    /* the same 12 bytes as 32-bit indices: 3 of them */
    assert_int_equal(load_stdin("u32:-", path, NULL, &got, &err), GC_OK);
    assert_int_equal(got.index_count, 3);
    assert_int_equal(got.indices[0], 0x00010000u);
    gc_mesh_free(&got);
    /* bounded: the index limit applies on standard input too, before all is read */
    gc_load_options o = {0};
    o.max_indices = 5;
    assert_int_equal(load_stdin("u16:-", path, &o, &got, &err), GC_ERR_LIMIT);
    assert_non_null(strstr(err.message, "<stdin>"));
    assert_null(got.indices);
    /* a broken last index and an empty input: data errors naming standard input */
    path = write_file("odd.u32", u16, 6);
    assert_int_equal(load_stdin("u32:-", path, NULL, &got, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "<stdin>: byte 4"));
    path = write_file("empty.u16", u16, 0);
    assert_int_equal(load_stdin("u16:-", path, NULL, &got, &err), GC_ERR_DATA);
}

static void names(void** state)
{
    (void)state;
    assert_string_equal(gc_stdin_format("-"), "");
    assert_string_equal(gc_stdin_format("idx:-"), "txt");
    assert_string_equal(gc_stdin_format("ply:-"), "ply");
    assert_null(gc_stdin_format("mesh.obj"));
    assert_null(gc_stdin_format("obj:-x"));
    assert_null(gc_stdin_format("gltf:-"));
    /* an output is a file: "-" names standard input to the library */
    gc_error err;
    assert_int_equal(gc_mesh_write_check("in.txt", "-", &err), GC_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sniffed_and_named),
        cmocka_unit_test(raw_from_stdin),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
