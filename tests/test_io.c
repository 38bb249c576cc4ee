// SPDX-License-Identifier: MIT
/* The file readers: what they load, and the one-line errors they give on bad input. */
#include "test_util.h"

static char tmp_path[1024];

/* Writes `len` bytes to a fresh file named `name` in the test folder. */
static const char* write_file(const char* name, const void* data, size_t len)
{
    snprintf(tmp_path, sizeof tmp_path, "%s/%s", GPUCACHE_TEST_TMP, name);
    FILE* f = fopen(tmp_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    return tmp_path;
}

static const char* write_text(const char* name, const char* text)
{
    return write_file(name, text, strlen(text));
}

static gc_mesh load_ok(const char* path, const gc_load_options* o)
{
    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(path, o, &m, &err) != GC_OK)
        fail_msg("%s", err.message);
    return m;
}

/* Loading must fail with `code` and a message containing each of the fragments. */
static void load_fails(const char* path, gc_status code, const char* frag1, const char* frag2)
{
    gc_mesh m;
    gc_error err;
    gc_status s = gc_mesh_load(path, NULL, &m, &err);
    if (s != code)
        fail_msg("%s: status %d, expected %d (%s)", path, s, code, s ? err.message : "");
    if (frag1 && !strstr(err.message, frag1))
        fail_msg("'%s' lacks '%s'", err.message, frag1);
    if (frag2 && !strstr(err.message, frag2))
        fail_msg("'%s' lacks '%s'", err.message, frag2);
    assert_null(strchr(err.message, '\n'));
}

static void text(void** state)
{
    (void)state;
    gc_mesh m = load_ok(write_text("a.txt", "# a comment\n0 1 2\n3,4,5 # more\n-1 6\n"), NULL);
    static const uint32_t expected[] = {0, 1, 2, 3, 4, 5, 0xFFFFFFFFu, 6};
    assert_int_equal(m.index_count, 8);
    assert_memory_equal(m.indices, expected, sizeof expected);
    assert_int_equal(m.index_bits, 32);
    assert_false(m.has_topology);
    gc_mesh_free(&m);
    load_fails(write_text("b.txt", "0 1\n2 x3\n"), GC_ERR_DATA, "b.txt:2", "x3");
    load_fails(write_text("c.txt", "0 -5 2\n"), GC_ERR_DATA, "c.txt:1", "negative");
    load_fails(write_text("d.txt", "4294967296\n"), GC_ERR_DATA, "d.txt:1", "larger");
    load_fails(write_text("e.txt", "# only a comment\n"), GC_ERR_DATA, "e.txt", "empty");
    load_fails(write_text("f.idx", ""), GC_ERR_DATA, "f.idx", "empty");
    gc_mesh mem;
    gc_error err;
    assert_int_equal(gc_mesh_parse_text("7 8 9", 5, "inline", &mem, &err), GC_OK);
    assert_int_equal(mem.indices[2], 9);
    gc_mesh_free(&mem);
}

static void raw(void** state)
{
    (void)state;
    static const unsigned char u16[] = {1, 0, 0x34, 0x12, 0xff, 0xff};
    gc_mesh m = load_ok(write_file("a.u16", u16, sizeof u16), NULL);
    assert_int_equal(m.index_count, 3);
    assert_int_equal(m.indices[1], 0x1234);
    assert_int_equal(m.indices[2], 0xFFFF);
    assert_int_equal(m.index_bits, 16);
    assert_int_equal(m.restart_value, 0xFFFF);
    gc_mesh_free(&m);
    static const unsigned char u32[] = {1, 0, 0, 0, 0x78, 0x56, 0x34, 0x12};
    m = load_ok(write_file("a.u32", u32, sizeof u32), NULL);
    assert_int_equal(m.indices[1], 0x12345678);
    gc_mesh_free(&m);
    load_fails(write_file("b.u32", u32, 3), GC_ERR_DATA, "b.u32", "byte 0");
    load_fails(write_file("c.u32", u32, 7), GC_ERR_DATA, "byte 4", "3 left over");
    load_fails(write_file("d.u16", u16, 0), GC_ERR_DATA, "d.u16", "empty");
    load_fails("/nonexistent/x.u16", GC_ERR_IO, "/nonexistent/x.u16", "cannot open");
}

static void obj(void** state)
{
    (void)state;
    const char* path = write_text("a.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 1\nvn 0 0 1\n"
                                           "f 1/1/1 2/1/1 3/2/1\n"
                                           "f 1/1/1 3/2/1 4/2/1 2/2/1\n" /* a quad: two triangles */
                                           "f -4 -3 -2\n"); /* relative: 1 2 3 without attributes */
    gc_mesh m = load_ok(path, NULL);
    /* GPU vertices by first use: 1/1/1=0 2/1/1=1 3/2/1=2 4/2/1=3 2/2/1=4, 1//=5 2//=6 3//=7 */
    static const uint32_t expected[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 5, 6, 7};
    assert_int_equal(m.index_count, 12);
    assert_memory_equal(m.indices, expected, sizeof expected);
    assert_int_equal(m.vertex_count, 8);
    assert_true(m.has_topology);
    gc_mesh_free(&m);
    gc_load_options o = {0};
    o.positions_only = 1;
    m = load_ok(path, &o);
    static const uint32_t positions[] = {0, 1, 2, 0, 2, 3, 0, 3, 1, 0, 1, 2};
    assert_memory_equal(m.indices, positions, sizeof positions);
    assert_int_equal(m.vertex_count, 4);
    gc_mesh_free(&m);
    load_fails(write_text("b.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 0 1 2\n"), GC_ERR_DATA, "b.obj:4", "index 0");
    load_fails(write_text("c.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n"), GC_ERR_DATA, "c.obj:4", "out of range");
    load_fails(write_text("d.obj", "v 0 0 0\nf -1 -2 -5\n"), GC_ERR_DATA, "d.obj:2", "before the first");
    load_fails(write_text("e.obj", "v 0 0 nan\n"), GC_ERR_DATA, "e.obj:1", "finite");
    load_fails(write_text("f.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n"), GC_ERR_DATA, "f.obj:3", "at least 3");
    load_fails(write_text("g.obj", "v 0 0 0\n"), GC_ERR_DATA, "g.obj", "no faces");
    load_fails(write_text("h.obj", "v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1/x 2 3\n"), GC_ERR_DATA, "h.obj:4", "texcoord");
    load_fails(write_text("i.obj", "v 1 2\n"), GC_ERR_DATA, "i.obj:1", "3 numbers");
}

static void ply_ascii(void** state)
{
    (void)state;
    gc_mesh m = load_ok(write_text("a.ply", "ply\nformat ascii 1.0\ncomment hi\nelement vertex 4\n"
                                            "property float x\nproperty float y\nproperty float z\n"
                                            "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
                                            "0 0 0\n1 0 0\n1 1 0\n0 1 0\n3 0 1 2\n4 0 1 2 3\n"),
                        NULL);
    static const uint32_t expected[] = {0, 1, 2, 0, 1, 2, 0, 2, 3};
    assert_int_equal(m.index_count, 9);
    assert_memory_equal(m.indices, expected, sizeof expected);
    assert_int_equal(m.topology, GC_TRIANGLE_LIST);
    assert_int_equal(m.vertex_count, 4);
    gc_mesh_free(&m);
    m = load_ok(write_text("b.ply", "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\n"
                                    "element tristrips 1\nproperty list int int vertex_indices\nend_header\n"
                                    "0\n1\n2\n3\n7 0 1 2 -1 3 2 1\n"),
                NULL);
    static const uint32_t strip[] = {0, 1, 2, 0xFFFFFFFFu, 3, 2, 1};
    assert_int_equal(m.index_count, 7);
    assert_memory_equal(m.indices, strip, sizeof strip);
    assert_int_equal(m.topology, GC_TRIANGLE_STRIP);
    assert_true(m.restart_enabled);
    gc_mesh_free(&m);
    const char* hdr = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nelement face 1\n"
                      "property list uchar int vertex_indices\nend_header\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%s0\n1\n2\n3 0 1 5\n", hdr);
    load_fails(write_text("c.ply", buf), GC_ERR_DATA, "c.ply", "out of range");
    snprintf(buf, sizeof buf, "%s0\n1\n2\n", hdr); /* the header promises a face that never comes */
    load_fails(write_text("d.ply", buf), GC_ERR_DATA, "file ends inside", "face");
    snprintf(buf, sizeof buf, "%s0\n1\nnan\n3 0 1 2\n", hdr);
    load_fails(write_text("e.ply", buf), GC_ERR_DATA, "vertex 2", "finite");
    load_fails(write_text("f.ply", "plx\n"), GC_ERR_DATA, "f.ply:1", "not a PLY");
    load_fails(write_text("g.ply", "ply\nformat ascii 1.0\nelement vertex 3\n"), GC_ERR_DATA, "end_header", NULL);
    load_fails(write_text("h.ply", "ply\nformat ascii 1.0\nelement vertex -3\nend_header\n"), GC_ERR_DATA,
               "negative", NULL);
    snprintf(buf, sizeof buf, "%s0\n1\n2\n3 0 -1 2\n", hdr);
    load_fails(write_text("i.ply", buf), GC_ERR_DATA, "out of range", NULL);
}

static void ply_binary(void** state)
{
    (void)state;
    /* Little endian: 3 vertices of one float, one face (uchar count, uint indices). */
    unsigned char le[512];
    const char* hdr = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
                      "element face 1\nproperty list uchar uint vertex_indices\nend_header\n";
    size_t n = strlen(hdr);
    memcpy(le, hdr, n);
    float xs[3] = {0, 1, 2};
    memcpy(le + n, xs, sizeof xs);
    n += sizeof xs;
    le[n++] = 3;
    uint32_t face[3] = {2, 0, 1};
    memcpy(le + n, face, sizeof face);
    n += sizeof face;
    gc_mesh m = load_ok(write_file("a.ply", le, n), NULL);
    assert_int_equal(m.index_count, 3);
    assert_memory_equal(m.indices, face, sizeof face);
    gc_mesh_free(&m);
    load_fails(write_file("t.ply", le, n - 2), GC_ERR_DATA, "byte", "file ends inside");
    /* Fuzzing found it: an element without properties and a count of 13e12 took no bytes
     * per item and looped for hours. It is skipped in no time, and the mesh still loads. */
    const char* hjunk = "ply\nformat binary_little_endian 1.0\nelement junk 13333333334344\nelement vertex 3\n"
                        "property float x\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n";
    size_t hn = strlen(hjunk);
    unsigned char junk[512];
    memcpy(junk, hjunk, hn);
    memcpy(junk + hn, le + strlen(hdr), n - strlen(hdr));
    m = load_ok(write_file("j.ply", junk, hn + n - strlen(hdr)), NULL);
    assert_int_equal(m.index_count, 3);
    assert_memory_equal(m.indices, face, sizeof face);
    gc_mesh_free(&m);
    /* Big endian: short indices. */
    unsigned char be[512];
    const char* hbe = "ply\nformat binary_big_endian 1.0\nelement vertex 2\nproperty uchar x\n"
                      "element face 1\nproperty list uchar short vertex_index\nend_header\n";
    n = strlen(hbe);
    memcpy(be, hbe, n);
    be[n++] = 0, be[n++] = 0;
    be[n++] = 3;
    be[n++] = 0, be[n++] = 1, be[n++] = 0, be[n++] = 0, be[n++] = 0, be[n++] = 1;
    m = load_ok(write_file("b.ply", be, n), NULL);
    static const uint32_t expected[] = {1, 0, 1};
    assert_memory_equal(m.indices, expected, sizeof expected);
    gc_mesh_free(&m);
}

static void state_changes(void** state)
{
    (void)state;
    uint64_t* list;
    size_t count;
    gc_error err;
    assert_int_equal(gc_state_changes_load(write_text("s.txt", "9 # late\n3\n0\n"), 9, &list, &count, &err), GC_OK);
    assert_int_equal(count, 3);
    assert_int_equal(list[0], 0);
    assert_int_equal(list[1], 3);
    assert_int_equal(list[2], 9);
    free(list);
    assert_int_equal(gc_state_changes_load(write_text("s2.txt", "1\n10\n"), 9, &list, &count, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "s2.txt:2"));
    assert_int_equal(gc_state_changes_load(write_text("s3.txt", "-1\n"), 9, &list, &count, &err), GC_ERR_DATA);
    /* fuzz regression: an empty (or comment-only) file is no state change, not a crash */
    list = NULL;
    assert_int_equal(gc_state_changes_load(write_text("s4.txt", ""), 9, &list, &count, &err), GC_OK);
    assert_int_equal(count, 0);
    free(list);
    assert_int_equal(gc_state_changes_load(write_text("s5.txt", "# nothing\n"), 9, &list, &count, &err), GC_OK);
    assert_int_equal(count, 0);
    free(list);
}

static void other_formats_through_assimp(void** state)
{
    (void)state;
    const char* stl = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
                      "endfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\n"
                      "endfacet\nendsolid t\n";
    gc_mesh m;
    gc_error err;
    gc_status s = gc_mesh_load(write_text("a.stl", stl), NULL, &m, &err);
    if (s == GC_ERR_UNSUPPORTED)
        skip();
    if (s != GC_OK)
        fail_msg("%s", err.message);
    assert_int_equal(m.index_count, 6);
    /* Identical corners joined: two triangles over four vertices. */
    uint32_t seen = 0;
    for (size_t i = 0; i < 6; ++i)
        seen |= 1u << m.indices[i];
    assert_int_equal(__builtin_popcount(seen), 4);
    gc_mesh_free(&m);
    load_fails(write_text("junk.glb", "this is not a mesh"), GC_ERR_DATA, "junk.glb", "cannot read");
    /* A glTF 2.0 quad: 4 positions, 16-bit indices (0 1 2) (1 3 2), buffer embedded as base64. */
    const char* gltf = "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}], \"nodes\": [{\"mesh\": 0}], \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"indices\": 1}]}], \"buffers\": [{\"byteLength\": 60, \"uri\": \"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA\"}], \"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 48}, {\"buffer\": 0, \"byteOffset\": 48, \"byteLength\": 12}], \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 4, \"type\": \"VEC3\", \"min\": [0, 0, 0], \"max\": [1, 1, 0]}, {\"bufferView\": 1, \"componentType\": 5123, \"count\": 6, \"type\": \"SCALAR\"}]}";
    m = load_ok(write_text("quad.gltf", gltf), NULL);
    assert_int_equal(m.index_count, 6);
    assert_int_equal(m.vertex_count, 4);
    gc_mesh_free(&m);
}

/* gc_mesh_write_remap: the old-to-new map that the written numbering came from, and its
 * refusals before anything is written. */
static void write_remap(void** state)
{
    (void)state;
    char in_path[1024], out_path[1024];
    snprintf(in_path, sizeof in_path, "%s", write_text("remap-in.txt", "0 1 2\n"));
    snprintf(out_path, sizeof out_path, "%s/remap-out.txt", GPUCACHE_TEST_TMP);
    /* vertices 0..6, 1 and 5 unused; first use in the written order: 6 3 0 2 4 */
    static const uint32_t tri[] = {6, 3, 0, 0, 3, 2, 4, 2, 3};
    uint32_t* map = NULL;
    size_t count = 0;
    gc_error err;
    remove(out_path);
    if (gc_mesh_write_remap(in_path, NULL, tri, 9, 1, out_path, &map, &count, &err) != GC_OK)
        fail_msg("%s", err.message);
    static const uint32_t expected[] = {2, UINT32_MAX, 3, 1, 4, UINT32_MAX, 0};
    assert_int_equal(count, 7);
    assert_memory_equal(map, expected, sizeof expected);
    gc_mesh m = load_ok(out_path, NULL);
    assert_int_equal(m.index_count, 9);
    for (size_t i = 0; i < 9; ++i)
        assert_int_equal(m.indices[i], map[tri[i]]);
    gc_mesh_free(&m);
    free(map);
    /* refused before writing: no renumbering, a sparse buffer, a mesh format */
    remove(out_path);
    assert_int_equal(gc_mesh_write_remap(in_path, NULL, tri, 9, 0, out_path, &map, &count, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "--reorder-vertices"));
    assert_null(map);
    assert_int_equal(count, 0);
    static const uint32_t sparse[] = {0, 1, 4000000};
    assert_int_equal(gc_mesh_write_remap(in_path, NULL, sparse, 3, 1, out_path, &map, &count, &err), GC_ERR_LIMIT);
    assert_non_null(strstr(err.message, "remap-in.txt"));
    assert_non_null(strstr(err.message, "4000000"));
    assert_null(map);
    FILE* f = fopen(out_path, "rb");
    assert_null(f);
    char obj_path[1024], obj_out[1024];
    snprintf(obj_path, sizeof obj_path, "%s", write_text("remap.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"));
    snprintf(obj_out, sizeof obj_out, "%s/remap-out.obj", GPUCACHE_TEST_TMP);
    static const uint32_t one[] = {0, 1, 2};
    assert_int_equal(gc_mesh_write_remap(obj_path, NULL, one, 3, 1, obj_out, &map, &count, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "index buffers"));
    assert_int_equal(gc_mesh_remap_check(obj_path, 1, &err), GC_ERR_USAGE);
    assert_int_equal(gc_mesh_remap_check(in_path, 1, &err), GC_OK);
    assert_int_equal(gc_mesh_remap_check("-", 1, &err), GC_OK);
    assert_int_equal(gc_mesh_remap_check(in_path, 0, &err), GC_ERR_USAGE);
    /* without a map, the same file as gc_mesh_write */
    assert_int_equal(gc_mesh_write_remap(in_path, NULL, tri, 9, 1, out_path, NULL, NULL, &err), GC_OK);
    m = load_ok(out_path, NULL);
    static const uint32_t renumbered[] = {0, 1, 2, 2, 1, 3, 4, 3, 1};
    assert_memory_equal(m.indices, renumbered, sizeof renumbered);
    gc_mesh_free(&m);
}

/* gc_mesh_load_positions: one position per vertex id of gc_mesh_load's mesh. An OBJ's ids
 * are corners in first use (here 1/1, 2/1, 3/1, 3/2: position 3 twice), with
 * positions_only the positions; a PLY's are its records, read past an element before the
 * vertex element and other vertex properties, in binary too. */
static void positions(void** state)
{
    (void)state;
    gc_error err = {0};
    float* xyz = NULL;
    size_t n = 0;
    const char* obj = write_text("pos.obj", "v 1 2 3\nv 4 5 6\nv 7 8 9\nvt 0 0\nvt 1 1\n"
                                            "f 2/1 1/1 3/1\nf 3/2 2/1 1/1\n");
    gc_mesh m = load_ok(obj, NULL);
    assert_int_equal(m.vertex_count, 4);
    static const uint32_t ids[] = {0, 1, 2, 3, 0, 1};
    assert_memory_equal(m.indices, ids, sizeof ids);
    gc_mesh_free(&m);
    assert_int_equal(gc_mesh_load_positions(obj, NULL, &xyz, &n, &err), GC_OK);
    static const float corners[] = {4, 5, 6, 1, 2, 3, 7, 8, 9, 7, 8, 9};
    assert_int_equal(n, 4);
    assert_memory_equal(xyz, corners, sizeof corners);
    free(xyz);
    gc_load_options po = {0};
    po.positions_only = 1;
    assert_int_equal(gc_mesh_load_positions(obj, &po, &xyz, &n, &err), GC_OK);
    static const float plain[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    assert_int_equal(n, 3);
    assert_memory_equal(xyz, plain, sizeof plain);
    free(xyz);

    const char* ply = write_text("pos.ply", "ply\nformat ascii 1.0\nelement extra 2\nproperty list uchar int v\n"
                                            "element vertex 2\nproperty uchar red\nproperty float z\n"
                                            "property double y\nproperty float x\nelement face 1\n"
                                            "property list uchar int vertex_indices\nend_header\n"
                                            "2 5 6\n0\n9 3 2 1\n9 -3 -2 -1\n3 0 1 1\n");
    assert_int_equal(gc_mesh_load_positions(ply, NULL, &xyz, &n, &err), GC_OK);
    static const float records[] = {1, 2, 3, -1, -2, -3};
    assert_int_equal(n, 2);
    assert_memory_equal(xyz, records, sizeof records);
    free(xyz);
    static const unsigned char binary[] = "ply\nformat binary_little_endian 1.0\nelement vertex 1\n"
                                          "property float x\nproperty float y\nproperty float z\n"
                                          "element face 0\nproperty list uchar int vertex_indices\nend_header\n"
                                          "\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40";
    assert_int_equal(gc_mesh_load_positions(write_file("pos-bin.ply", binary, sizeof binary - 1), NULL, &xyz, &n, &err),
                     GC_OK);
    assert_int_equal(n, 1);
    assert_memory_equal(xyz, records, 3 * sizeof(float));
    free(xyz);

    /* no positions: index buffers, standard input, a PLY without z */
    assert_int_equal(gc_mesh_load_positions(write_text("pos.txt", "0 1 2\n"), NULL, &xyz, &n, &err),
                     GC_ERR_UNSUPPORTED);
    assert_null(xyz);
    assert_int_equal(n, 0);
    assert_int_equal(gc_mesh_load_positions("-", NULL, &xyz, &n, &err), GC_ERR_UNSUPPORTED);
    const char* flat = write_text("pos-flat.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                                  "property float y\nelement face 0\n"
                                                  "property list uchar int vertex_indices\nend_header\n1 2\n");
    assert_int_equal(gc_mesh_load_positions(flat, NULL, &xyz, &n, &err), GC_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "pos-flat.ply"));
    assert_null(xyz);
    /* a count the file cannot hold is refused before 1.2 GB are allocated for it */
    const char* huge = write_text("pos-huge.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 100000000\n"
                                                  "property float x\nproperty float y\nproperty float z\n"
                                                  "element face 0\nproperty list uchar int vertex_indices\n"
                                                  "end_header\n");
    assert_int_equal(gc_mesh_load_positions(huge, NULL, &xyz, &n, &err), GC_ERR_DATA);
    assert_non_null(strstr(err.message, "100000000 vertices declared"));
    assert_null(xyz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text),
        cmocka_unit_test(raw),
        cmocka_unit_test(obj),
        cmocka_unit_test(ply_ascii),
        cmocka_unit_test(ply_binary),
        cmocka_unit_test(state_changes),
        cmocka_unit_test(other_formats_through_assimp),
        cmocka_unit_test(write_remap),
        cmocka_unit_test(positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
