// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), the container:
 * buffers (the BIN chunk, files beside the input, base64 data: URIs), GLB chunks, the JSON
 * text, and gc_gltf_load / gc_gltf_free. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "gltf_internal.h"

#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- buffers */

static int base64_value(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
         : c == '+' || c == '-' ? 62 : c == '/' || c == '_' ? 63 : -1;
}

/* Decodes a base64 data: URI into a new buffer (its size follows the URI's length, which
 * the file holds). */
static gc_status decode_data_uri(gc_gltf* g, const char* place, const char* uri, gltf_buffer* b, gc_error* err)
{
    const char* comma = strchr(uri, ',');
    const char* b64 = comma ? strstr(uri, ";base64") : NULL;
    if (!comma || !b64 || b64 > comma)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: %s.uri: only base64 data: URIs are read", g->path, place);
    const char* text = comma + 1;
    size_t n = strlen(text);
    b->data = malloc(n / 4 * 3 + 3);
    if (!b->data)
        return gc_fail(err, GC_ERR_NOMEM, "%s: %s.uri: out of memory decoding %zu characters", g->path, place, n);
    uint64_t out = 0;
    uint32_t acc = 0;
    int bits = 0;
    size_t i = 0;
    for (; i < n && text[i] != '='; ++i) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0)
            return gc_fail(err, GC_ERR_DATA, "%s: %s.uri: character %zu of the base64 data is not base64", g->path,
                           place, i);
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            b->data[out++] = (unsigned char)(acc >> bits);
        }
    }
    for (; i < n; ++i)
        if (text[i] != '=')
            return gc_fail(err, GC_ERR_DATA, "%s: %s.uri: character %zu of the base64 data follows its padding",
                           g->path, place, i);
    b->size = out;
    b->kind = BUF_DATA;
    return GC_OK;
}

/* Reads a file buffer (the whole file) after checking where the URI leads. */
static gc_status read_file_buffer(gc_gltf* g, const char* place, const char* uri, gltf_buffer* b, gc_error* err)
{
    const char* problem = gc_uri_problem(uri);
    char decoded[4096];
    if (problem && (!g->allow_external || gltf_uri_decode(uri, decoded, sizeof decoded)))
        return gc_fail(err, GC_ERR_DATA,
                       "%s: %s.uri '%.200s' %s; only data: URIs and files in the input's folder are read%s", g->path,
                       place, uri, problem, g->allow_external ? "" : " (--allow-external-uris reads others)");
    gltf_uri_decode(uri, decoded, sizeof decoded);
    b->relative = problem == NULL;
    b->kind = BUF_FILE;
    b->uri = strdup(decoded);
    size_t need = strlen(g->root) + strlen(decoded) + 2;
    b->file = malloc(need);
    if (!b->uri || !b->file)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    if (decoded[0] == '/')
        snprintf(b->file, need, "%s", decoded);
    else
        snprintf(b->file, need, "%s/%s", g->root, decoded);
    char resolved[PATH_MAX];
    if (!realpath(b->file, resolved))
        return gc_fail(err, GC_ERR_IO, "%s: %s.uri '%.200s': cannot open: %s", g->path, place, uri, strerror(errno));
    /* the file itself, resolved, must also stay inside (a symbolic link may not lead out) */
    if (!g->allow_external && !gc_path_inside(g->root, resolved))
        return gc_fail(err, GC_ERR_DATA, "%s: %s.uri '%.200s' leads outside the input's folder", g->path, place, uri);
    /* a file named again (by any spelling) is not read again: its bytes are shared */
    if (!(b->resolved = strdup(resolved)))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const char* c = resolved; *c; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    size_t slot = (size_t)h & (g->file_table_size - 1);
    for (; g->file_table[slot] != SIZE_MAX; slot = (slot + 1) & (g->file_table_size - 1)) {
        const gltf_buffer* o = &g->buffers[g->file_table[slot]];
        if (strcmp(o->resolved, resolved) == 0) {
            b->same_as = g->file_table[slot];
            b->data = o->data;
            b->size = o->size;
            return GC_OK; /* byteLength is checked by the caller */
        }
    }
    g->file_table[slot] = (size_t)(b - g->buffers);
    const char* why = NULL;
    FILE* f = gc_open_regular(resolved, &b->size, &why);
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: %s.uri '%.200s': cannot open: %s", g->path, place, uri, why);
    if (b->length > b->size) {
        fclose(f);
        return gc_fail(err, GC_ERR_DATA, "%s: %s: byteLength %llu is more than the %llu bytes that hold it", g->path,
                       place, (unsigned long long)b->length, (unsigned long long)b->size);
    }
    b->data = malloc(b->size ? (size_t)b->size : 1);
    if (!b->data) {
        fclose(f);
        return gc_fail(err, GC_ERR_NOMEM, "%s: %s: out of memory for %llu bytes", g->path, place,
                       (unsigned long long)b->size);
    }
    size_t got = fread(b->data, 1, (size_t)b->size, f);
    fclose(f);
    if (got != b->size)
        return gc_fail(err, GC_ERR_IO, "%s: %s.uri '%.200s': read error", g->path, place, uri);
    return GC_OK;
}

static gc_status load_buffers(gc_gltf* g, const unsigned char* bin, uint64_t bin_size, int has_bin, gc_error* err)
{
    json_t* buffers = json_object_get(g->doc, "buffers");
    g->buffer_count = gltf_array_size(g->doc, "buffers");
    g->buffers = calloc(g->buffer_count ? g->buffer_count : 1, sizeof *g->buffers);
    if (!g->buffers)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    for (g->file_table_size = 16; g->file_table_size < 2 * g->buffer_count;)
        g->file_table_size *= 2;
    g->file_table = gc_alloc_array(g->file_table_size, sizeof *g->file_table, false);
    if (!g->file_table)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    memset(g->file_table, 0xff, g->file_table_size * sizeof *g->file_table);
    for (size_t i = 0; i < g->buffer_count; ++i)
        g->buffers[i].same_as = SIZE_MAX;
    for (size_t i = 0; i < g->buffer_count; ++i) {
        json_t* it = json_array_get(buffers, i);
        gltf_buffer* b = &g->buffers[i];
        place_t place;
        snprintf(place, sizeof place, "buffers[%zu]", i);
        if (!json_is_object(it) || !gltf_member_u64(it, "byteLength", UINT64_MAX, &b->length) || b->length == UINT64_MAX)
            return gc_fail(err, GC_ERR_DATA, "%s: %s: byteLength is not a non-negative integer", g->path, place);
        json_t* uri = json_object_get(it, "uri");
        gc_status s;
        if (json_is_string(uri)) {
            const char* u = json_string_value(uri);
            if (strncasecmp(u, "data:", 5) == 0)
                s = decode_data_uri(g, place, u, b, err);
            else
                s = read_file_buffer(g, place, u, b, err);
            if (s)
                return s;
        } else if (uri) {
            return gc_fail(err, GC_ERR_DATA, "%s: %s.uri is not a string", g->path, place);
        } else {
            if (!has_bin || i != 0)
                return gc_fail(err, GC_ERR_DATA, "%s: %s has no uri and is not a GLB's first buffer", g->path, place);
            b->kind = BUF_BIN;
            b->data = (unsigned char*)bin;
            b->size = bin_size;
        }
        if (b->length > b->size)
            return gc_fail(err, GC_ERR_DATA, "%s: %s: byteLength %llu is more than the %llu bytes that hold it",
                           g->path, place, (unsigned long long)b->length, (unsigned long long)b->size);
    }
    /* images are not read, but where they are is checked as for buffers */
    json_t* images = json_object_get(g->doc, "images");
    for (size_t i = 0; i < gltf_array_size(g->doc, "images"); ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        if (!json_is_string(uri) || strncasecmp(json_string_value(uri), "data:", 5) == 0)
            continue;
        const char* problem = gc_uri_problem(json_string_value(uri));
        char decoded[4096];
        if (problem && (!g->allow_external || gltf_uri_decode(json_string_value(uri), decoded, sizeof decoded)))
            return gc_fail(err, GC_ERR_DATA, "%s: images[%zu].uri '%.200s' %s; only data: URIs and files in the "
                                             "input's folder are read%s",
                           g->path, i, json_string_value(uri), problem,
                           g->allow_external ? "" : " (--allow-external-uris reads others)");
        /* not read here, but copied by the writer: a FIFO or a device is refused now (stat
         * opens nothing, so it cannot block) */
        if (!gltf_uri_decode(json_string_value(uri), decoded, sizeof decoded)) {
            char file[PATH_MAX + 4096 + 2];
            struct stat st;
            snprintf(file, sizeof file, "%s%s%s", decoded[0] == '/' ? "" : g->root, decoded[0] == '/' ? "" : "/",
                     decoded);
            if (stat(file, &st) == 0 && !S_ISREG(st.st_mode))
                return gc_fail(err, GC_ERR_IO, "%s: images[%zu].uri '%.200s': cannot open: not a regular file",
                               g->path, i, json_string_value(uri));
        }
    }
    return GC_OK;
}

/* ---------------------------------------------------------------- loading */

static gc_status refuse_compression(gc_gltf* g, gc_error* err)
{
    static const char* const compressed[] = {"KHR_draco_mesh_compression", "EXT_meshopt_compression",
                                             "KHR_meshopt_compression"};
    static const char* const lists[] = {"extensionsRequired", "extensionsUsed"};
    for (size_t l = 0; l < 2; ++l) {
        json_t* list = json_object_get(g->doc, lists[l]);
        for (size_t i = 0; i < (json_is_array(list) ? json_array_size(list) : 0); ++i) {
            json_t* e = json_array_get(list, i);
            for (size_t c = 0; json_is_string(e) && c < sizeof compressed / sizeof *compressed; ++c)
                if (!strcmp(json_string_value(e), compressed[c]))
                    return gc_fail(err, GC_ERR_UNSUPPORTED,
                                   "%s: %s[%zu]: %s: compressed geometry is not read or written (writing it back "
                                   "uncompressed would change the file); decompress it first",
                                   g->path, lists[l], i, compressed[c]);
        }
    }
    return GC_OK;
}

static gc_status parse_glb(gc_gltf* g, uint64_t* bin_at, uint64_t* bin_size, int* has_bin, gc_error* err)
{
    const unsigned char* h = g->file;
    uint64_t size = g->file_size;
    if (size < 12)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 0: a GLB header needs 12 bytes, the file has %llu", g->path,
                       (unsigned long long)size);
    uint32_t version = gltf_le32(h + 4), length = gltf_le32(h + 8);
    if (version != 2)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: byte 4: GLB version %lu; only glTF 2.0 (version 2) is read",
                       g->path, (unsigned long)version);
    if (length > size)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 8: the GLB header declares %lu bytes, the file has %llu", g->path,
                       (unsigned long)length, (unsigned long long)size);
    if (length < 20)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 12: the GLB has no JSON chunk", g->path);
    uint64_t json_length = gltf_le32(h + 12);
    if (memcmp(h + 16, "JSON", 4) != 0)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 16: the first chunk is not JSON", g->path);
    if (json_length > length - 20)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 12: a JSON chunk of %llu bytes runs past the %lu bytes the header declares",
                       g->path, (unsigned long long)json_length, (unsigned long)length);
    g->json_at = 20;
    g->json_length = (size_t)json_length;
    uint64_t next = (20 + json_length + 3) & ~(uint64_t)3;
    g->chunks_end = (size_t)(next < length ? next : length);
    *has_bin = 0;
    while (next + 8 <= length) {
        uint64_t chunk = gltf_le32(h + next);
        if (chunk > length - next - 8)
            return gc_fail(err, GC_ERR_DATA, "%s: byte %llu: a chunk of %llu bytes runs past the %lu bytes the header declares",
                           g->path, (unsigned long long)next, (unsigned long long)chunk, (unsigned long)length);
        if (!*has_bin && memcmp(h + next + 4, "BIN\0", 4) == 0) {
            *has_bin = 1;
            *bin_at = next + 8;
            *bin_size = chunk;
        }
        next = (next + 8 + chunk + 3) & ~(uint64_t)3;
    }
    return GC_OK;
}

gc_status gc_gltf_load(const char* path, const gc_gltf_options* options, gc_gltf** out, gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    *out = NULL;
    gc_gltf* g = calloc(1, sizeof *g);
    if (!g || !(g->path = strdup(path))) {
        free(g);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    }
    if (options) {
        g->allow_external = options->allow_external_uris;
        g->note = options->note;
        g->note_user = options->note_user;
    }
    size_t max_indices = options && options->max_indices ? options->max_indices : GC_MAX_INDICES;
    gc_status s = GC_OK;
    FILE* f = NULL;
    uint64_t file_size = 0;
    const char* why = NULL;
    if (!gc_path_folder(path, g->root)) {
        s = gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    if (!(f = gc_open_regular(path, &file_size, &why))) {
        s = gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, why);
        goto done;
    }
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, 4, f);
    g->glb = got == 4 && memcmp(magic, "glTF", 4) == 0;
    if (!g->glb && gc_has_extension(path, "glb")) {
        s = gc_fail(err, GC_ERR_DATA, "%s: byte 0: cannot read this mesh: not a GLB file (no 'glTF' magic)", path);
        goto done;
    }
    if (!g->glb && file_size > MAX_GLTF_JSON) {
        s = gc_fail(err, GC_ERR_LIMIT, "%s: a glTF JSON of %llu bytes is more than the %llu read", path,
                    (unsigned long long)file_size, (unsigned long long)MAX_GLTF_JSON);
        goto done;
    }
    if (file_size > SIZE_MAX) {
        s = gc_fail(err, GC_ERR_LIMIT, "%s: %llu bytes: too large", path, (unsigned long long)file_size);
        goto done;
    }
    g->file_size = (size_t)file_size;
    g->file = malloc(g->file_size ? g->file_size : 1);
    if (!g->file) {
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu bytes", path, g->file_size);
        goto done;
    }
    rewind(f);
    if (fread(g->file, 1, g->file_size, f) != g->file_size) {
        s = gc_fail(err, GC_ERR_IO, "%s: read error", path);
        goto done;
    }
    uint64_t bin_at = 0, bin_size = 0;
    int has_bin = 0;
    if (g->glb) {
        if ((s = parse_glb(g, &bin_at, &bin_size, &has_bin, err)))
            goto done;
        if (g->json_length > MAX_GLTF_JSON) {
            s = gc_fail(err, GC_ERR_LIMIT, "%s: a glTF JSON of %zu bytes is more than the %llu read", path,
                        g->json_length, (unsigned long long)MAX_GLTF_JSON);
            goto done;
        }
    } else {
        g->json_at = 0;
        g->json_length = g->file_size;
    }
    json_error_t je;
    g->doc = json_loadb((const char*)g->file + g->json_at, g->json_length, 0, &je);
    if (!g->doc) {
        s = g->glb ? gc_fail(err, GC_ERR_DATA, "%s: byte %llu: the JSON chunk is not JSON (%s)", path,
                             (unsigned long long)(g->json_at + (je.position > 0 ? (uint64_t)je.position : 0)), je.text)
                   : gc_fail(err, GC_ERR_DATA, "%s:%d:%d: not a glTF JSON file (%s)", path, je.line, je.column,
                             je.text);
        goto done;
    }
    if (!json_is_object(g->doc)) {
        s = gc_fail(err, GC_ERR_DATA, "%s: the glTF JSON is not an object", path);
        goto done;
    }
    json_t* version = json_object_get(json_object_get(g->doc, "asset"), "version");
    if (!json_is_string(version) || strncmp(json_string_value(version), "2.", 2) != 0) {
        s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: asset.version is %s%.20s%s: only glTF 2.0 is read", path,
                    json_is_string(version) ? "'" : "", json_is_string(version) ? json_string_value(version) : "missing",
                    json_is_string(version) ? "'" : "");
        goto done;
    }
    if ((s = refuse_compression(g, err)) || (s = load_buffers(g, g->file + bin_at, bin_size, has_bin, err)) ||
        (s = gltf_load_accessors(g, err)) || (s = gltf_load_primitives(g, max_indices, err)))
        goto done;
    /* accessors used by skins and animations are never permuted with vertices */
    json_t* skins = json_object_get(g->doc, "skins");
    for (size_t i = 0; i < gltf_array_size(g->doc, "skins"); ++i) {
        size_t a;
        if (gltf_member_ref(json_array_get(skins, i), "inverseBindMatrices", g->accessor_count, &a) == 1)
            g->accessors[a].other_uses++;
    }
    json_t* animations = json_object_get(g->doc, "animations");
    for (size_t i = 0; i < gltf_array_size(g->doc, "animations"); ++i) {
        json_t* samplers = json_object_get(json_array_get(animations, i), "samplers");
        for (size_t k = 0; k < (json_is_array(samplers) ? json_array_size(samplers) : 0); ++k) {
            size_t a;
            if (gltf_member_ref(json_array_get(samplers, k), "input", g->accessor_count, &a) == 1)
                g->accessors[a].other_uses++;
            if (gltf_member_ref(json_array_get(samplers, k), "output", g->accessor_count, &a) == 1)
                g->accessors[a].other_uses++;
        }
    }
    if (!(s = gltf_check_vertex_sets(g, err)))
        s = gltf_classify_index_data(g, err);
done:
    if (f)
        fclose(f);
    if (s) {
        gc_gltf_free(g);
        return s;
    }
    *out = g;
    return GC_OK;
}

size_t gc_gltf_primitive_count(const gc_gltf* doc)
{
    return doc ? doc->prim_count : 0;
}

const gc_gltf_primitive* gc_gltf_primitive_at(const gc_gltf* doc, size_t i)
{
    return doc && i < doc->prim_count ? &doc->prims[i].pub : NULL;
}

void gc_gltf_free(gc_gltf* g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->buffer_count; ++i) {
        if (g->buffers[i].kind != BUF_BIN && g->buffers[i].same_as == SIZE_MAX)
            free(g->buffers[i].data);
        free(g->buffers[i].file);
        free(g->buffers[i].resolved);
        free(g->buffers[i].uri);
    }
    for (size_t i = 0; i < g->prim_count; ++i) {
        if (g->prims[i].pub.shares_indices_with == SIZE_MAX)
            free(g->prims[i].indices);
        free(g->prims[i].attributes);
    }
    free(g->buffers);
    free(g->file_table);
    free(g->accessors);
    free(g->prims);
    if (g->doc)
        json_decref(g->doc);
    free(g->file);
    free(g->path);
    free(g);
}
