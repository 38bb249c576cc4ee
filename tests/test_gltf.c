// SPDX-License-Identifier: MIT
/* The glTF reader and writer (src/io/gltf.c): each primitive's own index accessor (u8,
 * u16, u32, offsets and strides, modes, non-indexed), hostile files refused with one line
 * naming the file and the JSON path, and writes that change only the rewritten bytes.
 * Every file is built here byte by byte, so each expected value is written by hand. */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

static char tmp_path[1024];

static const char* tmp(const char* name)
{
    snprintf(tmp_path, sizeof tmp_path, "%s/%s", GPUCACHE_TEST_TMP, name);
    return tmp_path;
}

static void write_bytes(const char* path, const void* data, size_t n)
{
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* The whole of a file (NUL-terminated); *n its size. */
static unsigned char* read_bytes(const char* path, size_t* n)
{
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char* data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    data[size] = 0;
    fclose(f);
    *n = (size_t)size;
    return data;
}

static void put32(unsigned char* p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

/* A GLB: header, JSON chunk padded with spaces, BIN chunk padded with zeros. The header's
 * total and the chunk lengths may be overridden (0: the true ones) to make lying files. */
static const char* make_glb(const char* name, const char* json, const void* bin, size_t bin_len, uint32_t total,
                            uint32_t json_len, uint32_t bin_chunk)
{
    size_t jl = strlen(json), jp = (jl + 3) & ~(size_t)3, bp = (bin_len + 3) & ~(size_t)3;
    size_t size = 12 + 8 + jp + (bin ? 8 + bp : 0);
    unsigned char* f = calloc(1, size);
    assert_non_null(f);
    memcpy(f, "glTF", 4);
    put32(f + 4, 2);
    put32(f + 8, total ? total : (uint32_t)size);
    put32(f + 12, json_len ? json_len : (uint32_t)jp);
    memcpy(f + 16, "JSON", 4);
    memcpy(f + 20, json, jl);
    memset(f + 20 + jl, ' ', jp - jl);
    if (bin) {
        put32(f + 20 + jp, bin_chunk ? bin_chunk : (uint32_t)bp);
        memcpy(f + 24 + jp, "BIN", 4);
        memcpy(f + 28 + jp, bin, bin_len);
    }
    write_bytes(tmp(name), f, size);
    free(f);
    return tmp(name);
}

/* The test GLB's buffer: 6 positions (72 bytes), u8 indices at 72 (2 bytes of padding the
 * accessor skips with byteOffset 2), u16 indices every 4 bytes at 80 (byteStride 4, junk
 * between them), u32 indices at 104. */
static size_t basic_bin(unsigned char* b)
{
    memset(b, 0, 116);
    for (int v = 0; v < 6; ++v) {
        float p[3] = {(float)v, (float)(v % 2), 0.0f};
        memcpy(b + 12 * v, p, sizeof p);
    }
    static const unsigned char u8[8] = {9, 9, 0, 1, 2, 2, 1, 3};
    memcpy(b + 72, u8, 8);
    for (int k = 0; k < 6; ++k) {
        b[80 + 4 * k] = (unsigned char)k;
        b[80 + 4 * k + 2] = 0xEE; /* between the strided indices: never read */
        b[80 + 4 * k + 3] = 0xEE;
    }
    put32(b + 104, 5), put32(b + 108, 4), put32(b + 112, 3);
    return 116;
}

#define BASIC_JSON_HEAD "{\"asset\":{\"version\":\"2.0\"},"
#define BASIC_MESHES                                                                                             \
    "\"meshes\":[{\"name\":\"m0\",\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1},"              \
    "{\"attributes\":{\"POSITION\":0},\"indices\":2,\"mode\":5}]},"                                              \
    "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":3},{\"attributes\":{\"POSITION\":0},\"mode\":0}]}],"
#define BASIC_VIEWS                                                                                              \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":72},{\"buffer\":0,\"byteOffset\":72,\"byteLength\":8},"       \
    "{\"buffer\":0,\"byteOffset\":80,\"byteLength\":24,\"byteStride\":4},{\"buffer\":0,\"byteOffset\":104,"      \
    "\"byteLength\":12}],"
#define BASIC_ACCESSORS                                                                                          \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},"                    \
    "{\"bufferView\":1,\"byteOffset\":2,\"componentType\":5121,\"count\":6,\"type\":\"SCALAR\"},"                \
    "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"                                 \
    "{\"bufferView\":3,\"componentType\":5125,\"count\":3,\"type\":\"SCALAR\"}]}"
static const char basic_json[] =
    BASIC_JSON_HEAD BASIC_MESHES "\"buffers\":[{\"byteLength\":116}]," BASIC_VIEWS BASIC_ACCESSORS;

/* `text` with the first `from` replaced by `to` (into a static buffer). */
static const char* edit(const char* text, const char* from, const char* to)
{
    static char out[8192];
    const char* at = strstr(text, from);
    assert_non_null(at);
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

static gc_gltf* load_ok(const char* path)
{
    gc_gltf* g = NULL;
    gc_error err;
    if (gc_gltf_load(path, NULL, &g, &err) != GC_OK)
        fail_msg("%s", err.message);
    return g;
}

/* Loading must fail with `code`, one line naming the file and holding `fragment`. */
static void load_fails(const char* path, const gc_gltf_options* o, gc_status code, const char* fragment)
{
    gc_gltf* g = NULL;
    gc_error err;
    gc_status s = gc_gltf_load(path, o, &g, &err);
    if (s != code)
        fail_msg("%s: status %d, expected %d (%s)", path, s, code, s ? err.message : "");
    assert_null(g);
    if (!strstr(err.message, path))
        fail_msg("'%s' does not name the file", err.message);
    if (!strstr(err.message, fragment))
        fail_msg("'%s' lacks '%s'", err.message, fragment);
    assert_null(strchr(err.message, '\n'));
}

static void reads_each_primitive(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    gc_gltf* g = load_ok(make_glb("basic.glb", basic_json, bin, sizeof bin, 0, 0, 0));
    assert_int_equal(gc_gltf_primitive_count(g), 4);
    const gc_gltf_primitive* p = gc_gltf_primitive_at(g, 0);
    static const uint32_t u8[] = {0, 1, 2, 2, 1, 3};
    assert_string_equal(p->mesh_name, "m0");
    assert_int_equal(p->mode, 4);
    assert_int_equal(p->topology, GC_TRIANGLE_LIST);
    assert_int_equal(p->index_bits, 8);
    assert_int_equal(p->index_count, 6);
    assert_int_equal(p->vertex_count, 6);
    assert_memory_equal(p->indices, u8, sizeof u8);
    p = gc_gltf_primitive_at(g, 1); /* the strided u16 strip: the 0xEE bytes are skipped */
    static const uint32_t u16[] = {0, 1, 2, 3, 4, 5};
    assert_int_equal(p->mesh, 0);
    assert_int_equal(p->primitive, 1);
    assert_int_equal(p->topology, GC_TRIANGLE_STRIP);
    assert_int_equal(p->index_bits, 16);
    assert_memory_equal(p->indices, u16, sizeof u16);
    p = gc_gltf_primitive_at(g, 2);
    static const uint32_t u32[] = {5, 4, 3};
    assert_null(p->mesh_name);
    assert_int_equal(p->mesh, 1);
    assert_int_equal(p->index_bits, 32);
    assert_memory_equal(p->indices, u32, sizeof u32);
    p = gc_gltf_primitive_at(g, 3); /* not indexed: 0..5, points */
    assert_int_equal(p->index_bits, 0);
    assert_int_equal(p->topology, GC_POINT_LIST);
    assert_memory_equal(p->indices, u16, sizeof u16);
    assert_null(gc_gltf_primitive_at(g, 4));
    gc_gltf_free(g);

    /* gc_mesh_load: the triangles of every triangle primitive, one run each (the strip's 4
     * expanded), the points left out; one vertex set, so no offset */
    gc_mesh m;
    gc_error err;
    assert_int_equal(gc_mesh_load(tmp("basic.glb"), NULL, &m, &err), GC_OK);
    assert_int_equal(m.index_count, 6 + 12 + 3);
    assert_int_equal(m.run_count, 3);
    assert_int_equal(m.runs[1], 4);
    assert_int_equal(m.vertex_count, 6);
    assert_int_equal(m.indices[18], 5);
    gc_mesh_free(&m);
}

static void refuses_hostile_files(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    /* GLB lengths against the file's size, before anything is allocated */
    load_fails(make_glb("total.glb", basic_json, bin, sizeof bin, 4000000000u, 0, 0), NULL, GC_ERR_DATA,
               "byte 8: the GLB header declares 4000000000 bytes");
    load_fails(make_glb("json.glb", basic_json, bin, sizeof bin, 0, 4294967040u, 0), NULL, GC_ERR_DATA,
               "byte 12: a JSON chunk of 4294967040 bytes runs past");
    load_fails(make_glb("bin.glb", basic_json, bin, sizeof bin, 0, 0, 2147483647u), NULL, GC_ERR_DATA,
               "a chunk of 2147483647 bytes runs past");
    write_bytes(tmp("short.glb"), "glTF\2\0\0", 7);
    load_fails(tmp("short.glb"), NULL, GC_ERR_DATA, "a GLB header needs 12 bytes");
    /* declared sizes against what holds them */
    load_fails(make_glb("buflen.glb", edit(basic_json, "\"byteLength\":116", "\"byteLength\":4000000000"), bin,
                        sizeof bin, 0, 0, 0),
               NULL, GC_ERR_DATA, "buffers[0]: byteLength 4000000000 is more than the 116 bytes");
    load_fails(make_glb("view.glb", edit(basic_json, "\"byteOffset\":104,\"byteLength\":12", "\"byteOffset\":104,\"byteLength\":13"),
                        bin, sizeof bin, 0, 0, 0),
               NULL, GC_ERR_DATA, "bufferViews[3]: bytes 104 to 117 lie outside its buffer of 116 bytes");
    load_fails(make_glb("acc.glb", edit(basic_json, "\"count\":3", "\"count\":4"), bin, sizeof bin, 0, 0, 0), NULL,
               GC_ERR_DATA, "accessors[3]: 4 elements need 16 bytes of a buffer view of 12");
    load_fails(make_glb("noview.glb", edit(basic_json, "\"count\":6,\"type\":\"VEC3\"", "\"count\":200000000,\"type\":\"VEC3\",\"byteOffset\":0"),
                        bin, sizeof bin, 0, 0, 0),
               NULL, GC_ERR_DATA, "accessors[0]: 200000000 elements need");
    /* the JSON paths of primitives */
    load_fails(make_glb("range.glb", edit(basic_json, "\"count\":6,\"type\":\"VEC3\"", "\"count\":5,\"type\":\"VEC3\""),
                        bin, sizeof bin, 0, 0, 0),
               NULL, GC_ERR_DATA, "meshes[0].primitives[1].indices: index 5 is 5, the attributes hold 5 vertices");
    load_fails(make_glb("mode.glb", edit(basic_json, "\"mode\":5", "\"mode\":7"), bin, sizeof bin, 0, 0, 0), NULL,
               GC_ERR_DATA, "meshes[0].primitives[1].mode is not 0 to 6");
    load_fails(make_glb("itype.glb", edit(basic_json, "\"componentType\":5121", "\"componentType\":5120"), bin,
                        sizeof bin, 0, 0, 0),
               NULL, GC_ERR_DATA, "meshes[0].primitives[0].indices: an index accessor must be");
    load_fails(make_glb("whole.glb", edit(basic_json, "\"count\":3", "\"count\":2"), bin, sizeof bin, 0, 0, 0), NULL,
               GC_ERR_DATA, "meshes[1].primitives[0]");
    load_fails(make_glb("ref.glb", edit(basic_json, "\"indices\":3", "\"indices\":9"), bin, sizeof bin, 0, 0, 0), NULL,
               GC_ERR_DATA, "meshes[1].primitives[0].indices does not name an accessor");
    /* compressed geometry and other versions: refused by name */
    load_fails(make_glb("draco.glb", edit(basic_json, "\"asset\"", "\"extensionsUsed\":[\"KHR_draco_mesh_compression\"],\"asset\""),
                        bin, sizeof bin, 0, 0, 0),
               NULL, GC_ERR_UNSUPPORTED, "extensionsUsed[0]: KHR_draco_mesh_compression");
    load_fails(make_glb("meshopt.glb", edit(basic_json, "\"asset\"", "\"extensionsRequired\":[\"EXT_meshopt_compression\"],\"asset\""),
                        bin, sizeof bin, 0, 0, 0),
               NULL, GC_ERR_UNSUPPORTED, "EXT_meshopt_compression");
    load_fails(make_glb("v1.glb", edit(basic_json, "\"2.0\"", "\"1.0\""), bin, sizeof bin, 0, 0, 0), NULL,
               GC_ERR_UNSUPPORTED, "only glTF 2.0");
    /* KHR_mesh_quantization is read */
    gc_gltf_free(load_ok(make_glb("quant.glb", edit(basic_json, "\"asset\"", "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"asset\""),
                                  bin, sizeof bin, 0, 0, 0)));
}

/* A .gltf whose one buffer has the URI `uri` (the basic layout). */
static const char* gltf_with_uri(const char* name, const char* uri)
{
    char json[8192];
    snprintf(json, sizeof json, BASIC_JSON_HEAD BASIC_MESHES "\"buffers\":[{\"byteLength\":116,\"uri\":\"%s\"}]," BASIC_VIEWS
             BASIC_ACCESSORS, uri);
    write_bytes(tmp(name), json, strlen(json));
    return tmp(name);
}

static void confines_uris(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    mkdir(tmp("sub"), 0777);
    write_bytes(tmp("outside.bin"), bin, sizeof bin);
    write_bytes(tmp("sub/in.bin"), bin, sizeof bin);
    char path[1024];
    snprintf(path, sizeof path, "%s", gltf_with_uri("sub/ok.gltf", "in.bin"));
    gc_gltf_free(load_ok(path));
    load_fails(gltf_with_uri("sub/dotdot.gltf", "../outside.bin"), NULL, GC_ERR_DATA,
               "buffers[0].uri '../outside.bin' has a '..' component");
    load_fails(gltf_with_uri("sub/enc.gltf", "%2e%2e/outside.bin"), NULL, GC_ERR_DATA, "has a '..' component");
    load_fails(gltf_with_uri("sub/abs.gltf", "/etc/passwd"), NULL, GC_ERR_DATA, "is an absolute path");
    load_fails(gltf_with_uri("sub/scheme.gltf", "file:///etc/passwd"), NULL, GC_ERR_DATA, "names a scheme");
    load_fails(gltf_with_uri("sub/missing.gltf", "nothing.bin"), NULL, GC_ERR_IO, "cannot open");
    /* a symbolic link inside the folder that leads out */
    unlink(tmp("sub/link.bin"));
    char target[1024];
    snprintf(target, sizeof target, "%s/outside.bin", GPUCACHE_TEST_TMP);
    if (symlink(target, tmp("sub/link.bin")) == 0)
        load_fails(gltf_with_uri("sub/link.gltf", "link.bin"), NULL, GC_ERR_DATA, "leads outside the input's folder");
    /* with --allow-external-uris, ".." is followed */
    gc_gltf_options o = {0};
    o.allow_external_uris = 1;
    gc_gltf* g = NULL;
    gc_error err;
    assert_int_equal(gc_gltf_load(gltf_with_uri("sub/dotdot.gltf", "../outside.bin"), &o, &g, &err), GC_OK);
    assert_int_equal(gc_gltf_primitive_at(g, 2)->indices[0], 5);
    gc_gltf_free(g);
    /* data: URIs: base64 only, well formed, at least byteLength bytes */
    load_fails(gltf_with_uri("plain.gltf", "data:application/octet-stream,abc"), NULL, GC_ERR_UNSUPPORTED,
               "buffers[0].uri: only base64 data: URIs");
    load_fails(gltf_with_uri("badb64.gltf", "data:application/octet-stream;base64,AAA*"), NULL, GC_ERR_DATA,
               "buffers[0].uri: character 3 of the base64 data");
    load_fails(gltf_with_uri("short64.gltf", "data:application/octet-stream;base64,AAAA"), NULL, GC_ERR_DATA,
               "buffers[0]: byteLength 116 is more than the 3 bytes");
}

/* Writes change only the bytes of what was rewritten. */
static void writes_only_what_changed(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    char in[1024];
    snprintf(in, sizeof in, "%s", make_glb("w.glb", basic_json, bin, sizeof bin, 0, 0, 0));
    gc_gltf* g = load_ok(in);
    static const uint32_t swapped[] = {2, 1, 3, 0, 1, 2};
    gc_error err;
    assert_int_equal(gc_gltf_set_indices(g, 0, swapped, 6, &err), GC_OK);
    /* only indexed triangle lists are rewritten; values must fit */
    static const uint32_t strip[] = {0, 1, 2, 3, 4, 5};
    assert_int_equal(gc_gltf_set_indices(g, 1, strip, 6, &err), GC_ERR_USAGE);
    static const uint32_t too_big[] = {6, 1, 3, 0, 1, 2};
    assert_int_equal(gc_gltf_set_indices(g, 0, too_big, 6, &err), GC_ERR_USAGE);
    /* never over the input */
    assert_int_equal(gc_gltf_write(g, in, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "is the input"));
    assert_int_equal(gc_gltf_write(g, tmp("w-out.gltf"), &err), GC_ERR_USAGE); /* another container */
    char out[1024];
    snprintf(out, sizeof out, "%s", tmp("w-out.glb"));
    if (gc_gltf_write(g, out, &err) != GC_OK)
        fail_msg("%s", err.message);
    gc_gltf_free(g);
    size_t na, nb;
    unsigned char* a = read_bytes(in, &na);
    unsigned char* b = read_bytes(out, &nb);
    assert_int_equal(na, nb);
    /* the BIN chunk's data starts after 20 + padded JSON + 8 */
    size_t bin_at = 20 + ((strlen(basic_json) + 3) & ~(size_t)3) + 8;
    for (size_t i = 0; i < na; ++i) {
        bool rewritten = i >= bin_at + 74 && i < bin_at + 80;
        if (!rewritten && a[i] != b[i])
            fail_msg("byte %zu changed", i);
    }
    static const unsigned char expected[6] = {2, 1, 3, 0, 1, 2};
    assert_memory_equal(b + bin_at + 74, expected, 6);
    free(a), free(b);
    g = load_ok(out);
    assert_memory_equal(gc_gltf_primitive_at(g, 0)->indices, swapped, sizeof swapped);
    gc_gltf_free(g);
}

/* A .gltf with an external, interleaved buffer: position (12 bytes) and a u8 color (4
 * bytes) in a 16-byte stride, 4 vertices, u16 indices (3 2 1) (3 1 0). */
static void reorders_interleaved_vertices(void** state)
{
    (void)state;
    unsigned char bin[64 + 12];
    memset(bin, 0, sizeof bin);
    for (int v = 0; v < 4; ++v) {
        float p[3] = {(float)v, 10.0f * (float)v, 0.0f};
        memcpy(bin + 16 * v, p, sizeof p);
        memset(bin + 16 * v + 12, 0x10 * (v + 1), 4);
    }
    static const uint16_t idx[6] = {3, 2, 1, 3, 1, 0};
    for (int k = 0; k < 6; ++k)
        bin[64 + 2 * k] = (unsigned char)idx[k], bin[64 + 2 * k + 1] = 0;
    mkdir(tmp("il"), 0777);
    write_bytes(tmp("il/t.bin"), bin, sizeof bin);
    const char* json =
        "{\"asset\":{\"version\":\"2.0\",\"extras\":{\"keep\":[1,2]}},\"meshes\":[{\"primitives\":[{\"attributes\":"
        "{\"POSITION\":0,\"COLOR_0\":1},\"indices\":2}]}],\"buffers\":[{\"byteLength\":76,\"uri\":\"t.bin\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":64,\"byteStride\":16},{\"buffer\":0,\"byteOffset\":64,"
        "\"byteLength\":12}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5121,\"normalized\":true,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}";
    char in[1024];
    snprintf(in, sizeof in, "%s", tmp("il/t.gltf"));
    write_bytes(in, json, strlen(json));
    /* the input itself is never an output */
    gc_gltf* g = load_ok(in);
    gc_error err;
    assert_int_equal(gc_gltf_reorder_vertices(g, &err), GC_OK);
    assert_int_equal(gc_gltf_write(g, in, &err), GC_ERR_USAGE);
    char out[1024];
    snprintf(out, sizeof out, "%s", tmp("il/out.gltf"));
    if (gc_gltf_write(g, out, &err) != GC_OK)
        fail_msg("%s", err.message);
    /* first use 3 2 1 0: vertex 3's data now first; indices (0 1 2) (0 2 3) */
    static const uint32_t renumbered[] = {0, 1, 2, 0, 2, 3};
    assert_memory_equal(gc_gltf_primitive_at(g, 0)->indices, renumbered, sizeof renumbered);
    gc_gltf_free(g);
    size_t n;
    unsigned char* written = read_bytes(tmp("il/out.bin"), &n);
    assert_int_equal(n, sizeof bin);
    for (int v = 0; v < 4; ++v) {
        assert_memory_equal(written + 16 * v, bin + 16 * (3 - v), 16);
    }
    for (int k = 0; k < 6; ++k) {
        assert_int_equal(written[64 + 2 * k], renumbered[k]);
        assert_int_equal(written[64 + 2 * k + 1], 0);
    }
    free(written);
    /* the input's buffer is untouched; the output names its own */
    unsigned char* kept = read_bytes(tmp("il/t.bin"), &n);
    assert_memory_equal(kept, bin, sizeof bin);
    free(kept);
    unsigned char* text = read_bytes(out, &n);
    assert_non_null(strstr((char*)text, "\"uri\":\"out.bin\""));
    assert_non_null(strstr((char*)text, "\"keep\":[1,2]"));
    assert_non_null(strstr((char*)text, "\"normalized\":true"));
    free(text);
}

/* A rewritten data: buffer is encoded again; the JSON is otherwise the same. */
static void reencodes_data_uris(void** state)
{
    (void)state;
    const char* quad =
        "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
        "\"buffers\":[{\"byteLength\":60,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":12}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}";
    char in[1024];
    snprintf(in, sizeof in, "%s", tmp("quad.gltf"));
    write_bytes(in, quad, strlen(quad));
    gc_gltf* g = load_ok(in);
    static const uint32_t swapped[] = {1, 3, 2, 0, 1, 2};
    gc_error err;
    assert_int_equal(gc_gltf_set_indices(g, 0, swapped, 6, &err), GC_OK);
    assert_int_equal(gc_gltf_write(g, tmp("quad-out.gltf"), &err), GC_OK);
    gc_gltf_free(g);
    g = load_ok(tmp("quad-out.gltf"));
    assert_memory_equal(gc_gltf_primitive_at(g, 0)->indices, swapped, sizeof swapped);
    gc_gltf_free(g);
    size_t n;
    unsigned char* text = read_bytes(tmp("quad-out.gltf"), &n);
    /* 1 3 2 0 1 2 as u16 little-endian after the 48 position bytes */
    assert_non_null(strstr((char*)text, "data:application/octet-stream;base64,"));
    assert_non_null(strstr((char*)text, "AQADAAIAAAABAAIA\""));
    free(text);
}

/* Collects the notes of a load into one text (each line ended by '\n'). */
static char notes[8192];

static void collect_note(void* user, const char* line)
{
    (void)user;
    size_t n = strlen(notes);
    snprintf(notes + n, sizeof notes - n, "%s\n", line);
}

/* Index data that another draw or accessor reads stays as it is (indices_kept, and
 * gc_gltf_set_indices refuses it); a vertex group left alone names every primitive. */
static void keeps_index_data_others_read(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    gc_error err;
    static const uint32_t swapped[] = {2, 1, 3, 0, 1, 2};
    /* accessors[1] (u8, mesh 0's list) drawn as points too */
    char text[8192];
    snprintf(text, sizeof text, "%s", edit(basic_json, "\"indices\":2,\"mode\":5", "\"indices\":1,\"mode\":0"));
    gc_gltf_options o = {0};
    o.note = collect_note;
    notes[0] = 0;
    gc_gltf* g = NULL;
    if (gc_gltf_load(make_glb("k1.glb", text, bin, sizeof bin, 0, 0, 0), &o, &g, &err))
        fail_msg("%s", err.message);
    const char* why = gc_gltf_primitive_at(g, 0)->indices_kept;
    assert_non_null(why);
    if (!strstr(why, "accessors[1] is also drawn by meshes[0].primitives[1] (points)"))
        fail_msg("indices_kept: '%s'", why);
    assert_null(gc_gltf_primitive_at(g, 2)->indices_kept); /* mesh 1's u32 list: its own */
    assert_int_equal(gc_gltf_set_indices(g, 0, swapped, 6, &err), GC_ERR_USAGE);
    /* one vertex set (POSITION 0 everywhere) with a non-indexed primitive: all four named */
    assert_int_equal(gc_gltf_reorder_vertices(g, &err), GC_OK);
    static const char* const named[] = {"meshes[0].primitives[0] (mesh 'm0')", "meshes[0].primitives[1] (mesh 'm0')",
                                        "meshes[1].primitives[0]:", "meshes[1].primitives[1]:"};
    for (size_t k = 0; k < 4; ++k)
        if (!strstr(notes, named[k]) || !strstr(notes, "has no indices"))
            fail_msg("notes do not name %s: '%s'", named[k], notes);
    gc_gltf_free(g);

    /* accessors[4]: the bytes of accessors[1] again, drawn as the strip */
    snprintf(text, sizeof text, "%s", edit(basic_json, "\"indices\":2,\"mode\":5", "\"indices\":4,\"mode\":5"));
    char text2[8192];
    snprintf(text2, sizeof text2, "%s",
             edit(text, "\"count\":3,\"type\":\"SCALAR\"}]",
                  "\"count\":3,\"type\":\"SCALAR\"},{\"bufferView\":1,\"byteOffset\":2,\"componentType\":5121,"
                  "\"count\":6,\"type\":\"SCALAR\"}]"));
    g = load_ok(make_glb("k2.glb", text2, bin, sizeof bin, 0, 0, 0));
    why = gc_gltf_primitive_at(g, 0)->indices_kept;
    assert_non_null(why);
    if (!strstr(why, "accessors[1] shares bytes with accessors[4]"))
        fail_msg("indices_kept: '%s'", why);
    assert_int_equal(gc_gltf_set_indices(g, 0, swapped, 6, &err), GC_ERR_USAGE);
    assert_null(gc_gltf_primitive_at(g, 2)->indices_kept);
    gc_gltf_free(g);
}

/* Two external buffers, only the second rewritten, written into another folder under the
 * first one's name: the copy of a.bin keeps its name, the rewritten one gets its own. */
static void rewritten_buffers_get_their_own_files(void** state)
{
    (void)state;
    unsigned char bin[116];
    basic_bin(bin);
    mkdir(tmp("nm"), 0777);
    mkdir(tmp("nm/sub"), 0777);
    write_bytes(tmp("nm/a.bin"), bin, 72);
    static const unsigned char idx[12] = {0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0};
    write_bytes(tmp("nm/idx.bin"), idx, sizeof idx);
    const char* json =
        "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
        "\"buffers\":[{\"byteLength\":72,\"uri\":\"a.bin\"},{\"byteLength\":12,\"uri\":\"idx.bin\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":72},{\"buffer\":1,\"byteLength\":12}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}";
    char in[1024];
    snprintf(in, sizeof in, "%s", tmp("nm/a.gltf"));
    write_bytes(in, json, strlen(json));
    gc_gltf* g = load_ok(in);
    static const uint32_t swapped[] = {2, 1, 3, 0, 1, 2};
    gc_error err;
    assert_int_equal(gc_gltf_set_indices(g, 0, swapped, 6, &err), GC_OK);
    char out[1024];
    snprintf(out, sizeof out, "%s", tmp("nm/sub/a.gltf"));
    if (gc_gltf_write(g, out, &err) != GC_OK)
        fail_msg("%s", err.message);
    gc_gltf_free(g);
    size_t n;
    unsigned char* copied = read_bytes(tmp("nm/sub/a.bin"), &n);
    assert_int_equal(n, 72);
    assert_memory_equal(copied, bin, 72);
    free(copied);
    unsigned char* rewritten = read_bytes(tmp("nm/sub/a-1.bin"), &n);
    static const unsigned char expected[12] = {2, 0, 1, 0, 3, 0, 0, 0, 1, 0, 2, 0};
    assert_int_equal(n, sizeof expected);
    assert_memory_equal(rewritten, expected, sizeof expected);
    free(rewritten);
    unsigned char* text = read_bytes(out, &n);
    assert_non_null(strstr((char*)text, "\"uri\":\"a.bin\""));
    assert_non_null(strstr((char*)text, "\"uri\":\"a-1.bin\""));
    free(text);
    unsigned char* kept = read_bytes(tmp("nm/idx.bin"), &n);
    assert_memory_equal(kept, idx, sizeof idx);
    free(kept);
}

/* Two primitives sharing POSITION under different NORMALs are one group: one permutation
 * of all three accessors, each once (4 vertices; prim 0 draws (3 2 1), prim 1 (1 0 3)). */
static void permutes_shared_attributes_once(void** state)
{
    (void)state;
    unsigned char bin[160];
    memset(bin, 0, sizeof bin);
    for (int v = 0; v < 4; ++v) {
        float p[3] = {(float)v, 0.0f, 0.0f}, n1[3] = {0.0f, (float)v, 0.0f}, n2[3] = {0.0f, 0.0f, (float)v};
        memcpy(bin + 12 * v, p, 12);
        memcpy(bin + 48 + 12 * v, n1, 12);
        memcpy(bin + 96 + 12 * v, n2, 12);
    }
    static const unsigned char idx[12] = {3, 0, 2, 0, 1, 0, 1, 0, 0, 0, 3, 0};
    memcpy(bin + 144, idx, 6);
    memcpy(bin + 152, idx + 6, 6);
    const char* json =
        "{\"asset\":{\"version\":\"2.0\"},\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
        "\"indices\":3},{\"attributes\":{\"POSITION\":0,\"NORMAL\":2},\"indices\":4}]}],"
        "\"buffers\":[{\"byteLength\":160}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":96,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":144,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":152,\"byteLength\":6}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}]}";
    gc_gltf* g = load_ok(make_glb("sa.glb", json, bin, sizeof bin, 0, 0, 0));
    gc_error err;
    assert_int_equal(gc_gltf_reorder_vertices(g, &err), GC_OK);
    /* first use: 3 2 1 take slots {1 2 3} in that order, then 0 keeps 0: to = 0 3 2 1 */
    static const uint32_t p0[] = {1, 2, 3}, p1[] = {3, 0, 1};
    assert_memory_equal(gc_gltf_primitive_at(g, 0)->indices, p0, sizeof p0);
    assert_memory_equal(gc_gltf_primitive_at(g, 1)->indices, p1, sizeof p1);
    assert_int_equal(gc_gltf_write(g, tmp("sa-out.glb"), &err), GC_OK);
    gc_gltf_free(g);
    size_t n;
    unsigned char* out = read_bytes(tmp("sa-out.glb"), &n);
    const unsigned char* b = out + 20 + ((strlen(json) + 3) & ~(size_t)3) + 8;
    static const int old_of_slot[4] = {0, 3, 2, 1};
    for (int slot = 0; slot < 4; ++slot) {
        assert_memory_equal(b + 12 * slot, bin + 12 * old_of_slot[slot], 12);
        assert_memory_equal(b + 48 + 12 * slot, bin + 48 + 12 * old_of_slot[slot], 12);
        assert_memory_equal(b + 96 + 12 * slot, bin + 96 + 12 * old_of_slot[slot], 12);
    }
    static const unsigned char renumbered[12] = {1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 1, 0};
    assert_memory_equal(b + 144, renumbered, 6);
    assert_memory_equal(b + 152, renumbered + 6, 6);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_each_primitive),
        cmocka_unit_test(refuses_hostile_files),
        cmocka_unit_test(confines_uris),
        cmocka_unit_test(writes_only_what_changed),
        cmocka_unit_test(reorders_interleaved_vertices),
        cmocka_unit_test(reencodes_data_uris),
        cmocka_unit_test(keeps_index_data_others_read),
        cmocka_unit_test(rewritten_buffers_get_their_own_files),
        cmocka_unit_test(permutes_shared_attributes_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
