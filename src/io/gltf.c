/* glTF 2.0, read and written by gpucache itself (docs/formats/gltf.md).
 *
 * Reading: the whole file is read once (a GLB's BIN chunk stays inside that copy), the JSON
 * is parsed with jansson and every buffer is resolved: the BIN chunk, a file beside the
 * input (only inside the input's folder unless allow_external_uris) or a base64 data: URI.
 * Every declared size is checked against the bytes that hold it before anything is
 * allocated: the GLB header and chunk lengths against the file, a buffer's byteLength
 * against its bytes, each bufferView against its buffer, each accessor against its view.
 * Each primitive's index accessor (u8, u16, u32, with offsets and strides) is decoded to
 * 32 bits; its attributes (morph targets included) fix its vertex count.
 *
 * Writing changes only bytes of the accessors the caller rewrote (gc_gltf_set_indices,
 * gc_gltf_reorder_vertices): the buffers are modified in memory, in place, and written back
 * with the JSON as it was (byte for byte when no URI had to change). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io.h"

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

/* The JSON of a glTF is held as a jansson document: keep it to a size where that is cheap. */
#define MAX_GLTF_JSON ((uint64_t)64 << 20)

/* The expansion cap (docs/SECURITY.md, "Reader limits"): the indices of all primitives
 * together (each primitive's own copy; a primitive without indices gets 0, 1, 2, ...) and
 * the vertices of all vertex sets together may each be at most 8 per byte of the input
 * (the glTF file and each buffer file once) plus 2^20. A file of a few bytes otherwise
 * declares billions: accessors without a buffer view are zeros of any count, and many
 * primitives may draw one accessor. */
#define EXPANSION_PER_BYTE 8
#define EXPANSION_FLOOR ((uint64_t)1 << 20)

enum { BUF_NONE, BUF_BIN, BUF_FILE, BUF_DATA }; /* NONE: not resolved yet (its data, if any, is owned) */

typedef struct gltf_buffer {
    unsigned char* data; /* BIN: points into the file copy; else owned */
    uint64_t size;       /* bytes held (a file's whole size, a data: URI's decoded size) */
    uint64_t length;     /* byteLength */
    int kind;
    int dirty;           /* bytes rewritten */
    char* file;          /* BUF_FILE: the path it was read from */
    char* uri;           /* BUF_FILE: the URI as written, percent-decoded */
    int relative;        /* BUF_FILE: a plain relative path (no "..", not absolute) */
    char* resolved;      /* BUF_FILE: the file's real path (symbolic links resolved) */
    size_t same_as;      /* BUF_FILE: an earlier buffer of the same file whose bytes this one
                            shares (each file is read once); SIZE_MAX: its own */
} gltf_buffer;

typedef struct gltf_accessor {
    int valid;           /* parsed and inside its buffer */
    int has_view;
    int sparse;
    size_t buffer;
    uint64_t offset;     /* of element 0 in the buffer */
    uint64_t stride;     /* bytes from one element to the next */
    uint64_t element;    /* bytes of one element */
    uint64_t count;
    int component;       /* componentType */
    int uses;            /* references from primitives' attributes */
    int other_uses;      /* references as indices or from skins and animations */
    size_t group;        /* the vertex group whose attribute it is (SIZE_MAX: none yet,
                            SIZE_MAX - 1: several) */
    size_t index_group;  /* the same for the primitives that use it as indices */
    size_t view;         /* its bufferView, when has_view */
    size_t bytes_of;     /* the buffer whose bytes it reads (buffer, or the buffer it shares
                            a file with): accessors overlap only within one */
    size_t same_data;    /* during assign_sets: the first accessor that reads the same
                            elements (same bytes, offset, stride, element, count) */
    size_t first_index_user; /* the first primitive that uses it as indices, or SIZE_MAX */
    int index_uses;      /* references as indices (counted in other_uses too) */
    uint64_t user_vertices; /* the fewest vertices of a primitive that uses it as indices */
    size_t crossed_by;   /* an accessor whose bytes cross its own; SIZE_MAX: none; CROSSED_VIEW:
                            its view overlaps another view (or too many accessors to compare) */
    size_t odd_users[3]; /* the first primitives that draw it as indices in a mode other than
                            a triangle list */
    size_t odd_count;    /* how many do */
} gltf_accessor;

#define CROSSED_VIEW (SIZE_MAX - 1)
#define PERMUTED (SIZE_MAX - 2) /* gltf_accessor.group during gc_gltf_reorder_vertices: done */

typedef struct gltf_prim {
    gc_gltf_primitive pub;
    uint32_t* indices;   /* owned, or (pub.shares_indices_with set) the first user's: one
                            decoded copy of an index accessor however many draw it */
    size_t index_accessor; /* SIZE_MAX: none */
    size_t* attributes;  /* accessors of the attributes and morph targets, sorted */
    size_t attribute_count;
    size_t group;
    const size_t* set_key; /* during assign_sets: its attributes' same_data ids, sorted */
    char kept[320];      /* pub.indices_kept's text */
} gltf_prim;

struct gc_gltf {
    char* path;
    char root[PATH_MAX]; /* the input's folder, resolved */
    int glb;
    int allow_external;
    gc_note_fn note;
    void* note_user;
    unsigned char* file; /* the whole input */
    size_t file_size;
    size_t json_at, json_length;   /* the JSON text inside `file` */
    size_t chunks_end;             /* GLB: the end of the JSON chunk (with its padding) */
    json_t* doc;
    gltf_buffer* buffers;
    size_t buffer_count;
    gltf_accessor* accessors;
    size_t accessor_count;
    gltf_prim* prims;
    size_t prim_count;
    uint64_t input_bytes; /* the file and each buffer file once */
    size_t* file_table;  /* while loading buffers: buffers by resolved path (hashed) */
    size_t file_table_size;
};

static uint32_t le32(const unsigned char* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char* p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

static void note(gc_gltf* g, const char* fmt, ...) GC_PRINTF(2, 3);
static void note(gc_gltf* g, const char* fmt, ...)
{
    if (!g->note)
        return;
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    g->note(g->note_user, line);
}

/* ---------------------------------------------------------------- paths and URIs */

bool gc_path_folder(const char* path, char* out)
{
    char folder[PATH_MAX];
    const char* slash = strrchr(path, '/');
    if (!slash)
        snprintf(folder, sizeof folder, ".");
    else if (slash == path)
        snprintf(folder, sizeof folder, "/");
    else if ((size_t)(slash - path) < sizeof folder)
        snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
    else
        return false;
    return realpath(folder, out) != NULL;
}

bool gc_path_inside(const char* root, const char* resolved)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return true;
    return strncmp(resolved, root, n) == 0 && resolved[n] == '/';
}

/* Percent-decodes `uri` into out (size bytes); NULL, or why it cannot be. */
static const char* uri_decode(const char* uri, char* out, size_t size)
{
    size_t n = 0;
    for (const char* p = uri; *p; ++p) {
        int c = (unsigned char)*p;
        if (c == '%') {
            int hi = gc_hex_digit(p[1]), lo = hi < 0 ? -1 : gc_hex_digit(p[2]);
            if (lo < 0)
                return "has a malformed percent escape";
            c = hi * 16 + lo;
            p += 2;
            if (c == 0)
                return "holds a NUL byte";
        }
        if (n + 1 >= size)
            return "is too long";
        out[n++] = (char)c;
    }
    out[n] = 0;
    return n == 0 ? "is empty" : NULL;
}

const char* gc_uri_problem(const char* uri)
{
    char decoded[4096];
    const char* bad = uri_decode(uri, decoded, sizeof decoded);
    if (bad)
        return bad;
    if (decoded[0] == '/' || decoded[0] == '\\')
        return "is an absolute path";
    /* a scheme (file:, http:, ...) or a drive letter: a ':' before any separator */
    size_t sep = strcspn(decoded, "/\\");
    const char* colon = strchr(decoded, ':');
    if (colon && (size_t)(colon - decoded) < sep)
        return "names a scheme other than data";
    for (const char* part = decoded; *part;) {
        size_t len = strcspn(part, "/\\");
        if (len == 2 && part[0] == '.' && part[1] == '.')
            return "has a '..' component";
        part += len;
        if (*part)
            part++;
    }
    return NULL;
}

/* ---------------------------------------------------------------- JSON helpers */

/* A place in the JSON for messages: "meshes[2].primitives[0].indices". */
typedef char place_t[200];

/* A non-negative integer member; absent: `fallback`. False when it is something else. */
static bool member_u64(json_t* obj, const char* key, uint64_t fallback, uint64_t* out)
{
    json_t* v = json_object_get(obj, key);
    if (!v) {
        *out = fallback;
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return false;
    *out = (uint64_t)json_integer_value(v);
    return true;
}

/* A reference `key` of obj into an array of `limit` items: 1 with *out, 0 absent, -1 bad. */
static int member_ref(json_t* obj, const char* key, size_t limit, size_t* out)
{
    json_t* v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= limit)
        return -1;
    *out = (size_t)json_integer_value(v);
    return 1;
}

static size_t array_size(json_t* doc, const char* key)
{
    json_t* a = json_object_get(doc, key);
    return json_is_array(a) ? json_array_size(a) : 0;
}

static uint64_t component_bytes(int type)
{
    switch (type) {
    case 5120: case 5121: return 1; /* BYTE, UNSIGNED_BYTE */
    case 5122: case 5123: return 2; /* SHORT, UNSIGNED_SHORT */
    case 5125: case 5126: return 4; /* UNSIGNED_INT, FLOAT */
    default: return 0;
    }
}

/* Bytes of one element: matrices of 1- and 2-byte components pad each column to 4 bytes. */
static uint64_t element_bytes(int component, json_t* type)
{
    uint64_t c = component_bytes(component);
    const char* t = json_is_string(type) ? json_string_value(type) : "";
    if (!strcmp(t, "SCALAR"))
        return c;
    if (!strcmp(t, "VEC2"))
        return 2 * c;
    if (!strcmp(t, "VEC3"))
        return 3 * c;
    if (!strcmp(t, "VEC4"))
        return 4 * c;
    uint64_t n = !strcmp(t, "MAT2") ? 2 : !strcmp(t, "MAT3") ? 3 : !strcmp(t, "MAT4") ? 4 : 0;
    return n * ((n * c + 3) & ~(uint64_t)3);
}

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
    if (problem && (!g->allow_external || uri_decode(uri, decoded, sizeof decoded)))
        return gc_fail(err, GC_ERR_DATA,
                       "%s: %s.uri '%.200s' %s; only data: URIs and files in the input's folder are read%s", g->path,
                       place, uri, problem, g->allow_external ? "" : " (--allow-external-uris reads others)");
    uri_decode(uri, decoded, sizeof decoded);
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
    g->buffer_count = array_size(g->doc, "buffers");
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
        if (!json_is_object(it) || !member_u64(it, "byteLength", UINT64_MAX, &b->length) || b->length == UINT64_MAX)
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
    for (size_t i = 0; i < array_size(g->doc, "images"); ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        if (!json_is_string(uri) || strncasecmp(json_string_value(uri), "data:", 5) == 0)
            continue;
        const char* problem = gc_uri_problem(json_string_value(uri));
        char decoded[4096];
        if (problem && (!g->allow_external || uri_decode(json_string_value(uri), decoded, sizeof decoded)))
            return gc_fail(err, GC_ERR_DATA, "%s: images[%zu].uri '%.200s' %s; only data: URIs and files in the "
                                             "input's folder are read%s",
                           g->path, i, json_string_value(uri), problem,
                           g->allow_external ? "" : " (--allow-external-uris reads others)");
        /* not read here, but copied by the writer: a FIFO or a device is refused now (stat
         * opens nothing, so it cannot block) */
        if (!uri_decode(json_string_value(uri), decoded, sizeof decoded)) {
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

/* ---------------------------------------------------------------- accessors */

static gc_status load_accessors(gc_gltf* g, gc_error* err)
{
    json_t* views = json_object_get(g->doc, "bufferViews");
    json_t* accessors = json_object_get(g->doc, "accessors");
    size_t nv = array_size(g->doc, "bufferViews");
    /* every byte the file brings: an accessor without a view (zeros) may declare no more */
    uint64_t total = g->file_size;
    for (size_t i = 0; i < g->buffer_count; ++i)
        total += g->buffers[i].kind == BUF_FILE && g->buffers[i].same_as == SIZE_MAX ? g->buffers[i].size : 0;
    g->input_bytes = total;
    for (size_t i = 0; i < nv; ++i) {
        json_t* v = json_array_get(views, i);
        uint64_t offset, length, stride;
        size_t buffer;
        if (!json_is_object(v) || member_ref(v, "buffer", g->buffer_count, &buffer) != 1 ||
            !member_u64(v, "byteOffset", 0, &offset) || !member_u64(v, "byteLength", UINT64_MAX, &length) ||
            length == UINT64_MAX || !member_u64(v, "byteStride", 0, &stride))
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: no valid buffer, byteOffset and byteLength",
                           g->path, i);
        uint64_t have = g->buffers[buffer].length;
        if (offset > have || length > have - offset)
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: bytes %llu to %llu lie outside its buffer of %llu bytes",
                           g->path, i, (unsigned long long)offset, (unsigned long long)(offset + length),
                           (unsigned long long)have);
        if (stride > 252)
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: byteStride %llu is more than 252", g->path, i,
                           (unsigned long long)stride);
    }
    g->accessor_count = array_size(g->doc, "accessors");
    g->accessors = calloc(g->accessor_count ? g->accessor_count : 1, sizeof *g->accessors);
    if (!g->accessors)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    for (size_t i = 0; i < g->accessor_count; ++i) {
        json_t* a = json_array_get(accessors, i);
        gltf_accessor* x = &g->accessors[i];
        x->group = SIZE_MAX;
        x->first_index_user = SIZE_MAX;
        x->crossed_by = SIZE_MAX;
        uint64_t count, offset;
        if (!json_is_object(a) || !member_u64(a, "count", UINT64_MAX, &count) || count == UINT64_MAX ||
            !member_u64(a, "byteOffset", 0, &offset))
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: count and byteOffset must be non-negative integers",
                           g->path, i);
        json_t* ct = json_object_get(a, "componentType");
        x->component = json_is_integer(ct) ? (int)json_integer_value(ct) : 0;
        x->element = element_bytes(x->component, json_object_get(a, "type"));
        if (x->element == 0)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: unknown componentType or type", g->path, i);
        if (count > UINT64_MAX / 16 / x->element)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: count %llu is too large", g->path, i,
                           (unsigned long long)count);
        x->count = count;
        x->sparse = json_object_get(a, "sparse") != NULL;
        size_t view;
        int r = member_ref(a, "bufferView", nv, &view);
        if (r < 0)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: bufferView does not name a valid buffer view",
                           g->path, i);
        if (r == 0) {
            uint64_t bytes;
            if (!gc_mul_u64(count, x->element, &bytes) || bytes > total)
                return gc_fail(err, GC_ERR_DATA,
                               "%s: accessors[%zu]: %llu elements of %llu bytes without a buffer view: more than the "
                               "%llu bytes of the file and its buffers",
                               g->path, i, (unsigned long long)count, (unsigned long long)x->element,
                               (unsigned long long)total);
            x->valid = 1;
            continue;
        }
        json_t* v = json_array_get(views, view);
        uint64_t view_offset = 0, view_length = 0, stride = 0;
        size_t buffer = 0;
        member_ref(v, "buffer", g->buffer_count, &buffer);
        member_u64(v, "byteOffset", 0, &view_offset);
        member_u64(v, "byteLength", 0, &view_length);
        member_u64(v, "byteStride", 0, &stride);
        if (stride == 0)
            stride = x->element;
        if (stride < x->element)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: byteStride %llu is less than an element of %llu bytes",
                           g->path, i, (unsigned long long)stride, (unsigned long long)x->element);
        /* offset + (count - 1) * stride + element, each step checked (2^57 + 1 elements of
         * stride 128 must not wrap around to a few bytes) */
        uint64_t need = offset, span = 0;
        bool fits = !count || (gc_mul_u64(count - 1, stride, &span) && gc_add_u64(span, x->element, &span) &&
                               gc_add_u64(offset, span, &need));
        if (!fits)
            return gc_fail(err, GC_ERR_DATA,
                           "%s: accessors[%zu]: %llu elements need more than 2^64 bytes of a buffer view of %llu",
                           g->path, i, (unsigned long long)count, (unsigned long long)view_length);
        if (need > view_length)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: %llu elements need %llu bytes of a buffer view of %llu",
                           g->path, i, (unsigned long long)count, (unsigned long long)need,
                           (unsigned long long)view_length);
        x->has_view = 1;
        x->view = view;
        x->buffer = buffer;
        x->bytes_of = g->buffers[buffer].same_as == SIZE_MAX ? buffer : g->buffers[buffer].same_as;
        x->offset = view_offset + offset;
        x->stride = stride;
        x->valid = 1;
    }
    return GC_OK;
}

/* Decodes index accessor `a` into 32-bit values, each below vertex_count (the attributes'
 * count; with none, or 0 elements, no index is valid). */
static gc_status read_indices(gc_gltf* g, const char* place, const gltf_accessor* a, uint64_t vertex_count,
                              uint32_t* out, gc_error* err)
{
    if (a->sparse)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: %s: sparse index accessors are not read", g->path, place);
    if (!a->has_view) {
        if (a->count && vertex_count == 0) /* zeros: index 0 names no vertex either */
            return gc_fail(err, GC_ERR_DATA, "%s: %s: index 0 is 0, the attributes hold 0 vertices", g->path, place);
        memset(out, 0, (size_t)a->count * sizeof *out);
        return GC_OK;
    }
    const unsigned char* p = g->buffers[a->buffer].data + a->offset;
    for (uint64_t i = 0; i < a->count; ++i, p += a->stride) {
        uint32_t v = a->component == 5121 ? p[0] : a->component == 5123 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : le32(p);
        if (v >= vertex_count) /* 0 vertices included: no index is valid then */
            return gc_fail(err, GC_ERR_DATA, "%s: %s: index %llu is %lu, the attributes hold %llu vertices", g->path,
                           place, (unsigned long long)i, (unsigned long)v, (unsigned long long)vertex_count);
        out[i] = v;
    }
    return GC_OK;
}

static int compare_size(const void* a, const void* b)
{
    size_t x = *(const size_t*)a, y = *(const size_t*)b;
    return (x > y) - (x < y);
}

/* The attribute accessors of one attributes object (the primitive's or a target's), all of
 * one count; appended to p->attributes. */
static gc_status collect_attributes(gc_gltf* g, const char* place, json_t* attributes, gltf_prim* p,
                                    uint64_t* count, gc_error* err)
{
    if (!json_is_object(attributes))
        return gc_fail(err, GC_ERR_DATA, "%s: %s is not an object", g->path, place);
    const char* key;
    json_t* v;
    json_object_foreach(attributes, key, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= g->accessor_count)
            return gc_fail(err, GC_ERR_DATA, "%s: %s.%.60s does not name an accessor", g->path, place, key);
        size_t a = (size_t)json_integer_value(v);
        if (*count == UINT64_MAX)
            *count = g->accessors[a].count;
        else if (g->accessors[a].count != *count)
            return gc_fail(err, GC_ERR_DATA, "%s: %s.%.60s: %llu elements where the other attributes have %llu",
                           g->path, place, key, (unsigned long long)g->accessors[a].count,
                           (unsigned long long)*count);
        size_t* grown = realloc(p->attributes, (p->attribute_count + 1) * sizeof *grown);
        if (!grown)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
        p->attributes = grown;
        p->attributes[p->attribute_count++] = a;
        g->accessors[a].uses++;
    }
    return GC_OK;
}

static const gc_topology mode_topology[7] = {GC_POINT_LIST,     GC_LINE_LIST,      GC_LINE_LOOP,  GC_LINE_STRIP,
                                             GC_TRIANGLE_LIST, GC_TRIANGLE_STRIP, GC_TRIANGLE_FAN};

static uint64_t expansion_cap(const gc_gltf* g)
{
    uint64_t cap;
    if (!gc_mul_u64(g->input_bytes, EXPANSION_PER_BYTE, &cap) || !gc_add_u64(cap, EXPANSION_FLOOR, &cap))
        return UINT64_MAX;
    return cap;
}

static gc_status load_primitives(gc_gltf* g, size_t max_indices, gc_error* err)
{
    json_t* meshes = json_object_get(g->doc, "meshes");
    size_t total = 0, indices_total = 0;
    for (size_t m = 0; m < array_size(g->doc, "meshes"); ++m) {
        json_t* prims = json_object_get(json_array_get(meshes, m), "primitives");
        if (!json_is_array(prims))
            return gc_fail(err, GC_ERR_DATA, "%s: meshes[%zu].primitives is not an array", g->path, m);
        total += json_array_size(prims);
    }
    g->prims = calloc(total ? total : 1, sizeof *g->prims);
    if (!g->prims)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    for (size_t m = 0; m < array_size(g->doc, "meshes"); ++m) {
        json_t* mesh = json_array_get(meshes, m);
        json_t* prims = json_object_get(mesh, "primitives");
        json_t* name = json_object_get(mesh, "name");
        for (size_t k = 0; k < json_array_size(prims); ++k) {
            json_t* pj = json_array_get(prims, k);
            gltf_prim* p = &g->prims[g->prim_count++];
            p->index_accessor = SIZE_MAX;
            p->group = SIZE_MAX;
            p->pub.mesh = m;
            p->pub.mesh_name = json_is_string(name) ? json_string_value(name) : NULL;
            p->pub.primitive = k;
            p->pub.shares_indices_with = SIZE_MAX;
            place_t place;
            snprintf(place, sizeof place, "meshes[%zu].primitives[%zu]", m, k);
            if (!json_is_object(pj))
                return gc_fail(err, GC_ERR_DATA, "%s: %s is not an object", g->path, place);
            uint64_t mode;
            if (!member_u64(pj, "mode", 4, &mode) || mode > 6)
                return gc_fail(err, GC_ERR_DATA, "%s: %s.mode is not 0 to 6", g->path, place);
            p->pub.mode = (int)mode;
            p->pub.topology = mode_topology[mode];
            uint64_t count = UINT64_MAX;
            place_t where;
            snprintf(where, sizeof where, "%.160s.attributes", place);
            gc_status s = collect_attributes(g, where, json_object_get(pj, "attributes"), p, &count, err);
            if (s)
                return s;
            json_t* targets = json_object_get(pj, "targets");
            if (targets && !json_is_array(targets))
                return gc_fail(err, GC_ERR_DATA, "%s: %s.targets is not an array", g->path, place);
            for (size_t t = 0; t < json_array_size(targets); ++t) {
                snprintf(where, sizeof where, "%.160s.targets[%zu]", place, t);
                if ((s = collect_attributes(g, where, json_array_get(targets, t), p, &count, err)))
                    return s;
            }
            qsort(p->attributes, p->attribute_count, sizeof *p->attributes, compare_size);
            p->pub.vertex_count = count == UINT64_MAX ? 0 : count;
            size_t ia = 0;
            int r = member_ref(pj, "indices", g->accessor_count, &ia);
            snprintf(where, sizeof where, "%.160s.indices", place);
            if (r < 0)
                return gc_fail(err, GC_ERR_DATA, "%s: %s does not name an accessor", g->path, where);
            uint64_t n = r ? g->accessors[ia].count : p->pub.vertex_count;
            if (n > max_indices || indices_total > max_indices - n)
                return gc_fail(err, GC_ERR_LIMIT, "%s: %s: more than %zu indices in all", g->path, where, max_indices);
            if (n > expansion_cap(g) - indices_total)
                return gc_fail(err, GC_ERR_LIMIT,
                               "%s: %s: more indices than the reader expands from an input of %llu bytes (at most "
                               "%llu in all primitives: 8 a byte, plus 2^20)",
                               g->path, where, (unsigned long long)g->input_bytes,
                               (unsigned long long)expansion_cap(g));
            indices_total += (size_t)n;
            gltf_accessor* a = r ? &g->accessors[ia] : NULL;
            if (a && a->first_index_user != SIZE_MAX) {
                /* a later user of an index accessor: the first user's values, checked
                 * against its own vertex count */
                const gltf_prim* first = &g->prims[a->first_index_user];
                p->indices = first->indices;
                p->pub.indices = p->indices;
                p->pub.index_count = (size_t)n;
                p->pub.index_bits = first->pub.index_bits;
                p->pub.shares_indices_with = a->first_index_user;
                p->index_accessor = ia;
                a->other_uses++;
                a->index_uses++;
                if (p->pub.topology != GC_TRIANGLE_LIST) {
                    if (a->odd_count < sizeof a->odd_users / sizeof *a->odd_users)
                        a->odd_users[a->odd_count] = g->prim_count - 1;
                    a->odd_count++;
                }
                if (p->pub.vertex_count < a->user_vertices) {
                    for (size_t k = 0; k < p->pub.index_count; ++k)
                        if (p->indices[k] >= p->pub.vertex_count)
                            return gc_fail(err, GC_ERR_DATA, "%s: %s: index %zu is %lu, the attributes hold %llu vertices",
                                           g->path, where, k, (unsigned long)p->indices[k],
                                           (unsigned long long)p->pub.vertex_count);
                    a->user_vertices = p->pub.vertex_count;
                }
            } else {
                p->indices = gc_alloc_array((size_t)n ? (size_t)n : 1, sizeof(uint32_t), false);
                if (!p->indices)
                    return gc_fail(err, GC_ERR_NOMEM, "%s: %s: out of memory for %llu indices", g->path, where,
                                   (unsigned long long)n);
                p->pub.indices = p->indices;
                p->pub.index_count = (size_t)n;
            }
            if (a && a->first_index_user == SIZE_MAX) {
                p->index_accessor = ia;
                a->other_uses++;
                a->index_uses++;
                if (p->pub.topology != GC_TRIANGLE_LIST) {
                    if (a->odd_count < sizeof a->odd_users / sizeof *a->odd_users)
                        a->odd_users[a->odd_count] = g->prim_count - 1;
                    a->odd_count++;
                }
                p->pub.index_bits = a->component == 5121 ? 8 : a->component == 5123 ? 16 : a->component == 5125 ? 32 : 0;
                if (!p->pub.index_bits || a->element != component_bytes(a->component))
                    return gc_fail(err, GC_ERR_DATA,
                                   "%s: %s: an index accessor must be a SCALAR of unsigned byte, short or int", g->path,
                                   where);
                if ((s = read_indices(g, where, a, p->pub.vertex_count, p->indices, err)))
                    return s;
                a->first_index_user = g->prim_count - 1;
                a->user_vertices = p->pub.vertex_count;
            } else if (!a) {
                for (uint64_t v = 0; v < n; ++v)
                    p->indices[v] = (uint32_t)v;
            }
            /* whole primitives in every list (glTF requires them) */
            gc_draw d = {p->indices, p->pub.index_count, p->pub.topology, 0, 0};
            uint64_t prims_n;
            char what[sizeof place + 300];
            snprintf(what, sizeof what, "%s: %s", g->path, place);
            if ((s = gc_draw_validate(&d, what, &prims_n, err)))
                return s;
        }
    }
    return GC_OK;
}

/* ---------------------------------------------------------------- loading */

static gc_status classify_index_data(gc_gltf* g, gc_error* err);
static gc_status check_vertex_sets(gc_gltf* g, gc_error* err);

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
    uint32_t version = le32(h + 4), length = le32(h + 8);
    if (version != 2)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: byte 4: GLB version %lu; only glTF 2.0 (version 2) is read",
                       g->path, (unsigned long)version);
    if (length > size)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 8: the GLB header declares %lu bytes, the file has %llu", g->path,
                       (unsigned long)length, (unsigned long long)size);
    if (length < 20)
        return gc_fail(err, GC_ERR_DATA, "%s: byte 12: the GLB has no JSON chunk", g->path);
    uint64_t json_length = le32(h + 12);
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
        uint64_t chunk = le32(h + next);
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
        (s = load_accessors(g, err)) || (s = load_primitives(g, max_indices, err)))
        goto done;
    /* accessors used by skins and animations are never permuted with vertices */
    json_t* skins = json_object_get(g->doc, "skins");
    for (size_t i = 0; i < array_size(g->doc, "skins"); ++i) {
        size_t a;
        if (member_ref(json_array_get(skins, i), "inverseBindMatrices", g->accessor_count, &a) == 1)
            g->accessors[a].other_uses++;
    }
    json_t* animations = json_object_get(g->doc, "animations");
    for (size_t i = 0; i < array_size(g->doc, "animations"); ++i) {
        json_t* samplers = json_object_get(json_array_get(animations, i), "samplers");
        for (size_t k = 0; k < (json_is_array(samplers) ? json_array_size(samplers) : 0); ++k) {
            size_t a;
            if (member_ref(json_array_get(samplers, k), "input", g->accessor_count, &a) == 1)
                g->accessors[a].other_uses++;
            if (member_ref(json_array_get(samplers, k), "output", g->accessor_count, &a) == 1)
                g->accessors[a].other_uses++;
        }
    }
    if (!(s = check_vertex_sets(g, err)))
        s = classify_index_data(g, err);
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

/* ---------------------------------------------------------------- rewriting */

/* Writes index values into index accessor `a`, in its component type. */
static void write_indices(gc_gltf* g, const gltf_accessor* a, const uint32_t* v)
{
    unsigned char* p = g->buffers[a->buffer].data + a->offset;
    for (uint64_t i = 0; i < a->count; ++i, p += a->stride) {
        if (a->component == 5121) {
            p[0] = (unsigned char)v[i];
        } else if (a->component == 5123) {
            p[0] = (unsigned char)v[i];
            p[1] = (unsigned char)(v[i] >> 8);
        } else {
            put32(p, v[i]);
        }
    }
    g->buffers[a->buffer].dirty = 1;
}

gc_status gc_gltf_set_indices(gc_gltf* g, size_t i, const uint32_t* indices, size_t count, gc_error* err)
{
    if (!g || i >= g->prim_count)
        return gc_fail(err, GC_ERR_USAGE, "gc_gltf_set_indices: no primitive %zu", i);
    gltf_prim* p = &g->prims[i];
    if (p->index_accessor == SIZE_MAX || p->pub.topology != GC_TRIANGLE_LIST)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: only indexed triangle lists are rewritten",
                       g->path, p->pub.mesh, p->pub.primitive);
    if (p->pub.indices_kept)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: its index data stays: %s", g->path,
                       p->pub.mesh, p->pub.primitive, p->pub.indices_kept);
    if (count != p->pub.index_count)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: %zu indices given for %zu", g->path,
                       p->pub.mesh, p->pub.primitive, count, p->pub.index_count);
    const gltf_accessor* a = &g->accessors[p->index_accessor];
    if (!a->has_view)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu].indices has no buffer view to rewrite",
                       g->path, p->pub.mesh, p->pub.primitive);
    /* below the vertex count of every primitive that draws these index data */
    for (size_t k = 0; k < count; ++k)
        if (indices[k] >= a->user_vertices || (p->pub.index_bits < 32 && indices[k] >> p->pub.index_bits))
            return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: index %zu (%lu) is out of range",
                           g->path, p->pub.mesh, p->pub.primitive, k, (unsigned long)indices[k]);
    /* primitives that share the accessor share this copy: they see the same values (O(count),
     * however many share it) */
    memmove(p->indices, indices, count * sizeof *indices);
    write_indices(g, a, indices);
    return GC_OK;
}

/* Whether the bytes of accessor x and accessor y may overlap: their extents cross and they
 * are not disjoint fields of one interleaved layout. */
static bool accessors_overlap(const gltf_accessor* x, const gltf_accessor* y)
{
    if (!x->has_view || !y->has_view || x->bytes_of != y->bytes_of || !x->count || !y->count)
        return false;
    uint64_t xs = x->offset, xe = x->offset + (x->count - 1) * x->stride + x->element;
    uint64_t ys = y->offset, ye = y->offset + (y->count - 1) * y->stride + y->element;
    if (xe <= ys || ye <= xs)
        return false;
    if (x->stride != y->stride)
        return true;
    /* one stride: fields at their offsets within the stride must not cross */
    uint64_t xo = x->offset % x->stride, yo = y->offset % y->stride;
    if (xo + x->element > x->stride || yo + y->element > y->stride)
        return true;
    return !(xo + x->element <= yo || yo + y->element <= xo);
}

/* Permutes the elements of accessor x: element v moves to slot to[v]. */
static bool permute_accessor(gc_gltf* g, const gltf_accessor* x, const uint32_t* to)
{
    if (!x->has_view || !x->count)
        return true; /* zeros: every order is the same */
    unsigned char* copy = gc_alloc_array((size_t)x->count, (size_t)x->element, false);
    if (!copy)
        return false;
    unsigned char* base = g->buffers[x->buffer].data + x->offset;
    for (uint64_t v = 0; v < x->count; ++v)
        memcpy(copy + v * x->element, base + v * x->stride, (size_t)x->element);
    for (uint64_t v = 0; v < x->count; ++v)
        memcpy(base + (uint64_t)to[v] * x->stride, copy + v * x->element, (size_t)x->element);
    free(copy);
    g->buffers[x->buffer].dirty = 1;
    return true;
}

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static bool same_set(const gltf_prim* a, const gltf_prim* b)
{
    if (a->attribute_count != b->attribute_count)
        return false;
    for (size_t k = 0; k < a->attribute_count; ++k)
        if (a->set_key[k] != b->set_key[k])
            return false;
    return true;
}

/* Orders primitives by their attribute sets (count, then the accessors' data), then file
 * order. */
static int compare_sets(const void* a, const void* b)
{
    const gltf_prim* x = *(const gltf_prim* const*)a;
    const gltf_prim* y = *(const gltf_prim* const*)b;
    if (x->attribute_count != y->attribute_count)
        return x->attribute_count < y->attribute_count ? -1 : 1;
    for (size_t k = 0; k < x->attribute_count; ++k)
        if (x->set_key[k] != y->set_key[k])
            return x->set_key[k] < y->set_key[k] ? -1 : 1;
    return (x > y) - (x < y);
}

/* Accessors that read the same elements: with a view, the same bytes (buffer, or the
 * buffer of the same file), offset, stride, element size, component type and count;
 * without one (zeros), the same element size, component type and count. Sparse accessors
 * are each their own. */
static int compare_data(const gltf_accessor* x, const gltf_accessor* y)
{
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    CMP(sparse); CMP(has_view); CMP(element); CMP(component); CMP(count);
    if (x->sparse)
        return (x > y) - (x < y);
    if (x->has_view) {
        CMP(bytes_of); CMP(offset); CMP(stride);
    }
#undef CMP
    return 0;
}

static int compare_data_refs(const void* a, const void* b)
{
    const gltf_accessor* x = *(const gltf_accessor* const*)a;
    const gltf_accessor* y = *(const gltf_accessor* const*)b;
    int c = compare_data(x, y);
    return c ? c : (x > y) - (x < y);
}

/* Sets every accessor's same_data and every primitive's set_key (in *keys, owned by the
 * caller): O(accessors log accessors + attributes log attributes). */
static bool data_keys(gc_gltf* g, size_t** keys)
{
    size_t na = g->accessor_count, total = 0;
    for (size_t i = 0; i < g->prim_count; ++i)
        total += g->prims[i].attribute_count;
    gltf_accessor** order = gc_alloc_array(na ? na : 1, sizeof *order, false);
    *keys = gc_alloc_array(total ? total : 1, sizeof **keys, false);
    if (!order || !*keys) {
        free(order), free(*keys);
        *keys = NULL;
        return false;
    }
    for (size_t a = 0; a < na; ++a)
        order[a] = &g->accessors[a];
    qsort(order, na, sizeof *order, compare_data_refs); /* equal data: in accessor order */
    for (size_t k = 0; k < na; ++k)
        order[k]->same_data = k && compare_data(order[k - 1], order[k]) == 0 ? order[k - 1]->same_data
                                                                             : (size_t)(order[k] - g->accessors);
    free(order);
    size_t at = 0;
    for (size_t i = 0; i < g->prim_count; ++i) {
        gltf_prim* p = &g->prims[i];
        for (size_t k = 0; k < p->attribute_count; ++k)
            (*keys)[at + k] = g->accessors[p->attributes[k]].same_data;
        qsort(*keys + at, p->attribute_count, sizeof **keys, compare_size);
        p->set_key = *keys + at;
        at += p->attribute_count;
    }
    return true;
}

/* Vertex sets: primitives whose attribute accessors read the same data (the same
 * accessors, or accessors over the same bytes, offset and stride: one POSITION accessor per
 * primitive over one vertex buffer makes one set, not one per primitive). Sets p->group
 * (numbered by first appearance in file order), each accessor's group and index_group,
 * and the members of each set in file order: members[start[k] .. start[k + 1]).
 * O(P log P) comparisons of attribute lists. */
typedef struct vertex_sets {
    size_t count;
    size_t* start;   /* count + 1 */
    size_t* members; /* prim_count */
} vertex_sets;

static void free_sets(vertex_sets* v)
{
    free(v->start);
    free(v->members);
    memset(v, 0, sizeof *v);
}

static bool assign_sets(gc_gltf* g, vertex_sets* v)
{
    memset(v, 0, sizeof *v);
    size_t n = g->prim_count;
    gltf_prim** order = gc_alloc_array(n ? n : 1, sizeof *order, false);
    size_t* relabel = gc_alloc_array(n ? n : 1, sizeof *relabel, false);
    v->start = gc_alloc_array(n + 2, sizeof *v->start, true);
    v->members = gc_alloc_array(n ? n : 1, sizeof *v->members, false);
    size_t* keys = NULL;
    if (!order || !relabel || !v->start || !v->members || !data_keys(g, &keys)) {
        free(order), free(relabel), free_sets(v);
        return false;
    }
    for (size_t i = 0; i < n; ++i)
        order[i] = &g->prims[i];
    qsort(order, n, sizeof *order, compare_sets);
    size_t runs = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i && !same_set(order[i - 1], order[i]))
            runs++;
        order[i]->group = runs; /* provisional: by set */
    }
    for (size_t i = 0; i < n; ++i)
        g->prims[i].set_key = NULL;
    free(keys);
    for (size_t i = 0; i < n; ++i)
        relabel[i] = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) { /* number the sets by first appearance */
        size_t t = g->prims[i].group;
        if (relabel[t] == SIZE_MAX)
            relabel[t] = v->count++;
        g->prims[i].group = relabel[t];
        v->start[g->prims[i].group + 1]++;
    }
    for (size_t k = 0; k < v->count; ++k)
        v->start[k + 1] += v->start[k];
    memset(relabel, 0, (v->count ? v->count : 1) * sizeof *relabel); /* fill positions */
    for (size_t i = 0; i < n; ++i) {
        size_t k = g->prims[i].group;
        v->members[v->start[k] + relabel[k]++] = i;
    }
    free(order), free(relabel);
    for (size_t a = 0; a < g->accessor_count; ++a)
        g->accessors[a].group = g->accessors[a].index_group = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) {
        gltf_prim* p = &g->prims[i];
        for (size_t k = 0; k < p->attribute_count; ++k) {
            gltf_accessor* x = &g->accessors[p->attributes[k]];
            x->group = x->group == SIZE_MAX || x->group == p->group ? p->group : SIZE_MAX - 1;
        }
        if (p->index_accessor != SIZE_MAX) {
            gltf_accessor* x = &g->accessors[p->index_accessor];
            x->index_group = x->index_group == SIZE_MAX || x->index_group == p->group ? p->group : SIZE_MAX - 1;
        }
    }
    return true;
}

/* The expansion cap on the vertices of all vertex sets together (each set's vertices get
 * ids, and positions, of their own): accessors over the same data share a set, but a file
 * may still shift each accessor by one byte. */
static gc_status check_vertex_sets(gc_gltf* g, gc_error* err)
{
    vertex_sets sets;
    if (!assign_sets(g, &sets))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    uint64_t total = 0, cap = expansion_cap(g);
    gc_status s = GC_OK;
    for (size_t k = 0; k < sets.count && !s; ++k) {
        const gltf_prim* p = &g->prims[sets.members[sets.start[k]]];
        if (p->pub.vertex_count > cap - total)
            s = gc_fail(err, GC_ERR_LIMIT,
                        "%s: meshes[%zu].primitives[%zu]: more vertices than the reader expands from an input of "
                        "%llu bytes (at most %llu in all vertex sets: 8 a byte, plus 2^20)",
                        g->path, p->pub.mesh, p->pub.primitive, (unsigned long long)g->input_bytes,
                        (unsigned long long)cap);
        else
            total += p->pub.vertex_count;
    }
    free_sets(&sets);
    return s;
}

/* The accessors of each buffer view (CSR), and whether a view's bytes overlap another
 * view's in the same buffer. */
typedef struct view_index {
    size_t* start;    /* views + 1 */
    size_t* members;  /* accessors with a view */
    bool* overlaps;   /* views */
} view_index;

static void free_views(view_index* v)
{
    free(v->start), free(v->members), free(v->overlaps);
    memset(v, 0, sizeof *v);
}

typedef struct view_span {
    size_t buffer;
    uint64_t start, end;
    size_t view;
} view_span;

static int compare_spans(const void* a, const void* b)
{
    const view_span* x = a;
    const view_span* y = b;
    if (x->buffer != y->buffer)
        return x->buffer < y->buffer ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

static bool index_views(gc_gltf* g, view_index* v)
{
    memset(v, 0, sizeof *v);
    json_t* views = json_object_get(g->doc, "bufferViews");
    size_t nv = array_size(g->doc, "bufferViews");
    v->start = gc_alloc_array(nv + 2, sizeof *v->start, true);
    v->members = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *v->members, false);
    v->overlaps = gc_alloc_array(nv ? nv : 1, sizeof *v->overlaps, true);
    view_span* spans = gc_alloc_array(nv ? nv : 1, sizeof *spans, false);
    size_t* fill = gc_alloc_array(nv ? nv : 1, sizeof *fill, true);
    if (!v->start || !v->members || !v->overlaps || !spans || !fill) {
        free(spans), free(fill), free_views(v);
        return false;
    }
    for (size_t a = 0; a < g->accessor_count; ++a)
        if (g->accessors[a].has_view)
            v->start[g->accessors[a].view + 1]++;
    for (size_t k = 0; k < nv; ++k)
        v->start[k + 1] += v->start[k];
    for (size_t a = 0; a < g->accessor_count; ++a)
        if (g->accessors[a].has_view) {
            size_t k = g->accessors[a].view;
            v->members[v->start[k] + fill[k]++] = a;
        }
    size_t n = 0;
    for (size_t k = 0; k < nv; ++k) {
        json_t* vj = json_array_get(views, k);
        uint64_t offset = 0, length = 0;
        size_t buffer = 0;
        member_ref(vj, "buffer", g->buffer_count, &buffer);
        member_u64(vj, "byteOffset", 0, &offset);
        member_u64(vj, "byteLength", 0, &length);
        if (g->buffers[buffer].same_as != SIZE_MAX) /* views of one file's bytes may overlap */
            buffer = g->buffers[buffer].same_as;
        if (length)
            spans[n++] = (view_span){buffer, offset, offset + length, k};
    }
    qsort(spans, n, sizeof *spans, compare_spans);
    /* sorted by start: a view overlaps an earlier one when it starts before the largest end
     * so far, and a later one when the next starts before its end */
    uint64_t max_end = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i && spans[i].buffer != spans[i - 1].buffer)
            max_end = 0;
        if (spans[i].start < max_end)
            v->overlaps[spans[i].view] = true;
        if (i + 1 < n && spans[i + 1].buffer == spans[i].buffer && spans[i + 1].start < spans[i].end)
            v->overlaps[spans[i].view] = true;
        max_end = spans[i].end > max_end ? spans[i].end : max_end;
    }
    free(spans), free(fill);
    return true;
}

/* An accessor's extent within its view, for sorting by where it starts. */
typedef struct accessor_span {
    uint64_t start;
    size_t accessor;
} accessor_span;

static int compare_accessor_spans(const void* a, const void* b)
{
    const accessor_span* x = a;
    const accessor_span* y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->accessor > y->accessor) - (x->accessor < y->accessor);
}

/* Sets every accessor's crossed_by: the accessors of each view sorted by their first byte,
 * each compared with the later ones that start before it ends (accessors_overlap, so the
 * fields of one interleaved layout do not cross). A view that overlaps another view marks
 * all its accessors; so does running out of the pair budget (a hostile file may put a
 * million accessors on the same bytes). */
static bool mark_crossings(gc_gltf* g, const view_index* views)
{
    size_t nv = array_size(g->doc, "bufferViews");
    accessor_span* spans = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *spans, false);
    if (!spans)
        return false;
    uint64_t budget = (uint64_t)1 << 27;
    for (size_t k = 0; k < nv; ++k) {
        size_t n = views->start[k + 1] - views->start[k];
        const size_t* members = views->members + views->start[k];
        if (views->overlaps[k]) {
            for (size_t i = 0; i < n; ++i)
                g->accessors[members[i]].crossed_by = CROSSED_VIEW;
            continue;
        }
        for (size_t i = 0; i < n; ++i)
            spans[i] = (accessor_span){g->accessors[members[i]].offset, members[i]};
        qsort(spans, n, sizeof *spans, compare_accessor_spans);
        for (size_t i = 0; i < n; ++i) {
            gltf_accessor* x = &g->accessors[spans[i].accessor];
            if (!x->count)
                continue;
            uint64_t end = x->offset + (x->count - 1) * x->stride + x->element;
            for (size_t j = i + 1; j < n && spans[j].start < end; ++j) {
                gltf_accessor* y = &g->accessors[spans[j].accessor];
                if (budget == 0) { /* the rest of this view, once (not again for each i) */
                    for (size_t r = i; r < n; ++r)
                        g->accessors[spans[r].accessor].crossed_by = CROSSED_VIEW;
                    i = n;
                    break;
                }
                --budget;
                if (accessors_overlap(x, y)) {
                    x->crossed_by = x->crossed_by == SIZE_MAX ? spans[j].accessor : x->crossed_by;
                    y->crossed_by = y->crossed_by == SIZE_MAX ? spans[i].accessor : y->crossed_by;
                }
            }
        }
    }
    free(spans);
    return true;
}

static const char* const mode_names[7] = {"points",    "lines",          "line loop",   "line strip",
                                          "triangles", "triangle strip", "triangle fan"};

/* Sets each indexed triangle list's indices_kept: its index data may be reordered only when
 * nothing else reads those bytes. A primitive of another mode drawing the same accessor
 * would see its strip's triangles or its points' order change; an accessor that also holds
 * vertex data or animation keys, or whose bytes another accessor reads, would change for
 * that other user too. O(accessors log accessors + primitives). */
static gc_status classify_index_data(gc_gltf* g, gc_error* err)
{
    view_index views;
    if (!index_views(g, &views))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the buffer views", g->path);
    bool ok = mark_crossings(g, &views);
    free_views(&views);
    if (!ok)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the accessors", g->path);
    for (size_t i = 0; i < g->prim_count; ++i) {
        gltf_prim* p = &g->prims[i];
        if (p->index_accessor == SIZE_MAX || p->pub.topology != GC_TRIANGLE_LIST)
            continue;
        size_t ai = p->index_accessor;
        const gltf_accessor* a = &g->accessors[ai];
        char* t = p->kept;
        size_t size = sizeof p->kept;
        if (!a->has_view) {
            snprintf(t, size, "its index accessor accessors[%zu] has no buffer view to rewrite", ai);
        } else if (a->uses || a->other_uses > a->index_uses) {
            snprintf(t, size, "its index accessor accessors[%zu] is also used as vertex data or by a skin or an "
                              "animation", ai);
        } else if (a->crossed_by == CROSSED_VIEW) {
            snprintf(t, size, "the buffer view of its index accessor accessors[%zu] overlaps another buffer view", ai);
        } else if (a->crossed_by != SIZE_MAX) {
            snprintf(t, size, "its index accessor accessors[%zu] shares bytes with accessors[%zu]", ai, a->crossed_by);
        } else if (a->odd_count) {
            int n = snprintf(t, size, "its index accessor accessors[%zu] is also drawn by", ai);
            size_t listed = a->odd_count < sizeof a->odd_users / sizeof *a->odd_users
                                ? a->odd_count : sizeof a->odd_users / sizeof *a->odd_users;
            for (size_t k = 0; k < listed && n > 0 && (size_t)n < size; ++k) {
                const gltf_prim* q = &g->prims[a->odd_users[k]];
                n += snprintf(t + n, size - (size_t)n, "%s meshes[%zu].primitives[%zu] (%s)", k ? "," : "",
                              q->pub.mesh, q->pub.primitive, mode_names[q->pub.mode]);
            }
            if (n > 0 && (size_t)n < size && a->odd_count > listed)
                snprintf(t + n, size - (size_t)n, " and %zu more", a->odd_count - listed);
        } else {
            continue;
        }
        p->pub.indices_kept = p->kept;
    }
    return GC_OK;
}

/* Why the attributes of vertex set `gid` cannot be permuted, or NULL. `budget` bounds the
 * accessor pairs compared over the whole document (a hostile file may hold a million
 * accessors in one view). */
static const char* set_problem(gc_gltf* g, const vertex_sets* sets, const view_index* views, size_t gid,
                               uint64_t* budget)
{
    const size_t* members = sets->members + sets->start[gid];
    size_t users = sets->start[gid + 1] - sets->start[gid];
    const gltf_prim* p0 = &g->prims[members[0]];
    if (p0->attribute_count == 0 || p0->pub.vertex_count == 0)
        return "it has no vertex attributes";
    for (size_t m = 0; m < users; ++m)
        if (g->prims[members[m]].index_accessor == SIZE_MAX)
            return "a primitive with these attributes has no indices";
    for (size_t k = 0; k < p0->attribute_count; ++k) {
        const gltf_accessor* x = &g->accessors[p0->attributes[k]];
        if (x->sparse)
            return "an attribute accessor is sparse";
        if (x->other_uses)
            return "an attribute accessor is also used as indices or by a skin or an animation";
    }
    /* bytes: no other accessor may lie under an attribute's elements */
    for (size_t k = 0; k < p0->attribute_count; ++k) {
        const gltf_accessor* x = &g->accessors[p0->attributes[k]];
        if (!x->has_view)
            continue;
        if (views->overlaps[x->view])
            return "an attribute's buffer view overlaps another buffer view";
        for (size_t j = views->start[x->view]; j < views->start[x->view + 1]; ++j) {
            size_t a = views->members[j];
            if (a == p0->attributes[k])
                continue;
            if (*budget == 0)
                return "the file has too many accessors to check their bytes for overlap";
            --*budget;
            if (accessors_overlap(x, &g->accessors[a]))
                return "another accessor overlaps an attribute's bytes";
        }
    }
    return NULL;
}

/* Why the index data of primitive p cannot be renumbered, or NULL: its values are rewritten
 * in place, so nothing else may read those bytes. */
static const char* index_problem(const gc_gltf* g, const gltf_prim* p)
{
    const gltf_accessor* a = &g->accessors[p->index_accessor];
    if (!a->has_view)
        return "an index accessor has no buffer view to rewrite";
    if (a->uses || a->other_uses > a->index_uses)
        return "an index accessor is also used as vertex data or by a skin or an animation";
    if (a->crossed_by != SIZE_MAX)
        return "an index accessor shares its bytes with another accessor or buffer view";
    return NULL;
}

static size_t find_root(size_t* parent, size_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* Vertex sets joined into components: one index accessor drawn over two sets of
 * attributes, or one attribute accessor used by two sets, needs one permutation of both,
 * or neither. Component c's sets (in set order) are set_list[set_start[c] ..
 * set_start[c + 1]), its primitives (in file order) prim_list[prim_start[c] ..
 * prim_start[c + 1]). Union-find over the sets: O((primitives + attributes) log sets). */
typedef struct vertex_components {
    size_t count;
    size_t* set_start;  /* count + 1 */
    size_t* set_list;   /* sets->count */
    size_t* prim_start; /* count + 1 */
    size_t* prim_list;  /* prim_count */
} vertex_components;

static void free_components(vertex_components* c)
{
    free(c->set_start), free(c->set_list), free(c->prim_start), free(c->prim_list);
    memset(c, 0, sizeof *c);
}

static bool join_sets(gc_gltf* g, const vertex_sets* sets, vertex_components* c)
{
    memset(c, 0, sizeof *c);
    size_t ns = sets->count ? sets->count : 1, np = g->prim_count ? g->prim_count : 1;
    size_t* parent = gc_alloc_array(ns, sizeof *parent, false);
    size_t* label = gc_alloc_array(ns, sizeof *label, false);
    size_t* fill = gc_alloc_array(ns + 1, sizeof *fill, true);
    c->set_start = gc_alloc_array(ns + 2, sizeof *c->set_start, true);
    c->set_list = gc_alloc_array(ns, sizeof *c->set_list, false);
    c->prim_start = gc_alloc_array(ns + 2, sizeof *c->prim_start, true);
    c->prim_list = gc_alloc_array(np, sizeof *c->prim_list, false);
    size_t* owner = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *owner, false);
    bool ok = parent && label && fill && c->set_start && c->set_list && c->prim_start && c->prim_list && owner;
    if (ok) {
        for (size_t s = 0; s < sets->count; ++s)
            parent[s] = s, label[s] = SIZE_MAX;
        for (size_t a = 0; a < g->accessor_count; ++a)
            owner[a] = SIZE_MAX;
        for (size_t i = 0; i < g->prim_count; ++i) {
            const gltf_prim* p = &g->prims[i];
            /* the sets of one index accessor's users, and of one attribute accessor's */
            size_t with[2] = {SIZE_MAX, SIZE_MAX};
            if (p->index_accessor != SIZE_MAX)
                with[0] = g->prims[g->accessors[p->index_accessor].first_index_user].group;
            for (size_t k = 0; k <= p->attribute_count; ++k) {
                if (k < p->attribute_count) {
                    size_t a = p->attributes[k];
                    if (owner[a] == SIZE_MAX)
                        owner[a] = p->group;
                    with[1] = owner[a];
                }
                for (size_t w = 0; w < 2; ++w) {
                    if (with[w] == SIZE_MAX)
                        continue;
                    size_t x = find_root(parent, p->group), y = find_root(parent, with[w]);
                    if (x != y)
                        parent[x > y ? x : y] = x < y ? x : y;
                }
            }
        }
        /* components numbered by their first set (sets are numbered by first appearance) */
        for (size_t s = 0; s < sets->count; ++s) {
            size_t r = find_root(parent, s);
            if (label[r] == SIZE_MAX)
                label[r] = c->count++;
            label[s] = label[r];
            c->set_start[label[s] + 1]++;
        }
        for (size_t i = 0; i < g->prim_count; ++i)
            c->prim_start[label[g->prims[i].group] + 1]++;
        for (size_t k = 0; k < c->count; ++k) {
            c->set_start[k + 1] += c->set_start[k];
            c->prim_start[k + 1] += c->prim_start[k];
        }
        for (size_t s = 0; s < sets->count; ++s)
            c->set_list[c->set_start[label[s]] + fill[label[s]]++] = s;
        memset(fill, 0, (ns + 1) * sizeof *fill);
        for (size_t i = 0; i < g->prim_count; ++i) {
            size_t k = label[g->prims[i].group];
            c->prim_list[c->prim_start[k] + fill[k]++] = i;
        }
    }
    free(parent), free(label), free(fill), free(owner);
    if (!ok)
        free_components(c);
    return ok;
}

gc_status gc_gltf_reorder_vertices(gc_gltf* g, gc_error* err)
{
    if (!g)
        return gc_fail(err, GC_ERR_USAGE, "gc_gltf_reorder_vertices: no document");
    vertex_sets sets;
    view_index views;
    vertex_components comps;
    if (!assign_sets(g, &sets))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    if (!index_views(g, &views)) {
        free_sets(&sets);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the buffer views", g->path);
    }
    if (!join_sets(g, &sets, &comps)) {
        free_sets(&sets), free_views(&views);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    }
    json_t* accessors = json_object_get(g->doc, "accessors");
    uint64_t budget = (uint64_t)1 << 27;
    gc_status s = GC_OK;
    for (size_t c = 0; c < comps.count && !s; ++c) {
        const size_t* members = comps.prim_list + comps.prim_start[c];
        size_t member_count = comps.prim_start[c + 1] - comps.prim_start[c];
        const size_t* set_ids = comps.set_list + comps.set_start[c];
        size_t set_count = comps.set_start[c + 1] - comps.set_start[c];
        gltf_prim* p0 = &g->prims[members[0]];
        const char* problem = NULL;
        for (size_t k = 0; k < set_count && !problem; ++k) {
            problem = set_problem(g, &sets, &views, set_ids[k], &budget);
            if (!problem && g->prims[sets.members[sets.start[set_ids[k]]]].pub.vertex_count != p0->pub.vertex_count)
                problem = "an index accessor is shared with primitives whose attributes hold another number of "
                          "vertices";
        }
        for (size_t m = 0; m < member_count && !problem; ++m)
            problem = index_problem(g, &g->prims[members[m]]);
        size_t n = (size_t)p0->pub.vertex_count;
        uint32_t* to = problem ? NULL : gc_alloc_array(n, sizeof(uint32_t), false);    /* to[old] = new */
        uint32_t* order = problem ? NULL : gc_alloc_array(n, sizeof(uint32_t), false); /* first-use order */
        if (!problem && (!to || !order)) {
            free(to), free(order);
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu vertices", g->path, n);
            break;
        }
        if (!problem) {
            memset(to, 0xff, n * sizeof *to);
            /* Primitive by primitive in file order: the vertices a primitive uses first (not
             * used by an earlier one), in order of first use, take the slots those same
             * vertices had, sorted; unused vertices stay. A primitive that shares no vertex
             * keeps its set of values (so its index accessor keeps its min and max); one
             * primitive alone gets its used slots filled in first-use order. */
            size_t used = 0;
            for (size_t m = 0; m < member_count && !s; ++m) {
                const gltf_prim* p = &g->prims[members[m]];
                if (p->pub.shares_indices_with != SIZE_MAX)
                    continue;
                size_t start = used;
                for (size_t k = 0; k < p->pub.index_count; ++k) {
                    uint32_t v = p->indices[k];
                    if (to[v] == UINT32_MAX) {
                        to[v] = 0;
                        order[used++] = v;
                    }
                }
                uint32_t* slots = gc_alloc_array(used - start ? used - start : 1, sizeof(uint32_t), false);
                if (!slots) {
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu vertices", g->path, n);
                    break;
                }
                memcpy(slots, order + start, (used - start) * sizeof *slots);
                qsort(slots, used - start, sizeof *slots, compare_u32);
                for (size_t k = start; k < used; ++k)
                    to[order[k]] = slots[k - start];
                free(slots);
            }
            for (size_t v = 0; v < n && !s; ++v)
                if (to[v] == UINT32_MAX)
                    to[v] = (uint32_t)v;
            /* each index accessor that declares a min or max keeps them (the validator
             * checks them); where sharing would change them, the vertices stay */
            for (size_t m = 0; m < member_count && !problem && !s; ++m) {
                const gltf_prim* p = &g->prims[members[m]];
                json_t* declared = json_array_get(accessors, p->index_accessor);
                if (!p->pub.index_count || (!json_object_get(declared, "min") && !json_object_get(declared, "max")))
                    continue;
                uint32_t omin = UINT32_MAX, omax = 0, nmin = UINT32_MAX, nmax = 0;
                for (size_t k = 0; k < p->pub.index_count; ++k) {
                    uint32_t v = p->indices[k], w = to[v];
                    omin = v < omin ? v : omin, omax = v > omax ? v : omax;
                    nmin = w < nmin ? w : nmin, nmax = w > nmax ? w : nmax;
                }
                if (omin != nmin || omax != nmax)
                    problem = "an index accessor's min or max would change";
            }
        }
        /* every primitive whose vertices stay is named, not only the first of its set */
        for (size_t m = 0; m < member_count && problem && !s; ++m) {
            const gltf_prim* p = &g->prims[members[m]];
            if (p->pub.mesh_name)
                note(g, "%s: meshes[%zu].primitives[%zu] (mesh '%.100s'): vertices not reordered: %s", g->path,
                     p->pub.mesh, p->pub.primitive, p->pub.mesh_name, problem);
            else
                note(g, "%s: meshes[%zu].primitives[%zu]: vertices not reordered: %s", g->path, p->pub.mesh,
                     p->pub.primitive, problem);
        }
        /* one permutation for every set of the component: each attribute accessor once,
         * however many sets or attributes name it (its group marks it done) */
        for (size_t k = 0; k < set_count && !s && !problem; ++k) {
            const gltf_prim* q = &g->prims[sets.members[sets.start[set_ids[k]]]];
            for (size_t a = 0; a < q->attribute_count && !s; ++a) {
                gltf_accessor* x = &g->accessors[q->attributes[a]];
                if (x->group == PERMUTED)
                    continue;
                if (!permute_accessor(g, x, to))
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory permuting accessor %zu", g->path,
                                q->attributes[a]);
                x->group = PERMUTED;
            }
        }
        for (size_t m = 0; m < member_count && !s && !problem; ++m) {
            gltf_prim* p = &g->prims[members[m]];
            if (p->pub.shares_indices_with != SIZE_MAX)
                continue; /* the first user's copy, renumbered once (it is in this component) */
            for (size_t k = 0; k < p->pub.index_count; ++k)
                p->indices[k] = to[p->indices[k]];
            write_indices(g, &g->accessors[p->index_accessor], p->indices);
        }
        free(to), free(order);
    }
    free_components(&comps);
    free_sets(&sets);
    free_views(&views);
    return s;
}

/* ---------------------------------------------------------------- writing */

/* A URI for a file name: RFC 3986 unreserved characters kept, others percent-encoded. */
static char* uri_encode(const char* name)
{
    size_t n = strlen(name);
    char* out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~/", c)) {
            out[k++] = (char)c;
        } else {
            snprintf(out + k, 4, "%%%02X", c);
            k += 3;
        }
    }
    out[k] = 0;
    return out;
}

static char* base64_encode(const char* prefix, size_t prefix_len, const unsigned char* data, size_t n)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char* out = malloc(prefix_len + (n + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    memcpy(out, prefix, prefix_len);
    char* o = out + prefix_len;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
        *o++ = digits[v >> 18], *o++ = digits[(v >> 12) & 63], *o++ = digits[(v >> 6) & 63], *o++ = digits[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < n ? (uint32_t)data[i + 1] << 8 : 0);
        *o++ = digits[v >> 18], *o++ = digits[(v >> 12) & 63];
        *o++ = i + 1 < n ? digits[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o = 0;
    return out;
}

/* A relative file name without leading "./" parts, for comparing names. */
static const char* plain_name(const char* name)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    return name;
}

static int compare_names(const void* a, const void* b)
{
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* The names a rewritten buffer's file must not take, because the output still refers to
 * them: unchanged external buffers and images (copied beside an output in another folder,
 * or the input's own in its folder), and every external buffer of the input when the
 * output goes to the input's folder. Sorted, "./" prefixes dropped; NULL when out of
 * memory. O(n log n) in the buffers and images, so that naming stays cheap whatever the
 * file holds. */
static char** taken_names(const gc_gltf* g, bool same_folder, size_t* count)
{
    size_t ni = array_size(g->doc, "images"), n = 0;
    char** names = gc_alloc_array(g->buffer_count + ni + 1, sizeof *names, false);
    if (!names)
        return NULL;
    for (size_t i = 0; i < g->buffer_count; ++i) {
        const gltf_buffer* b = &g->buffers[i];
        if (b->kind == BUF_FILE && b->uri && (same_folder || !b->dirty) && !(names[n++] = strdup(plain_name(b->uri))))
            goto fail;
    }
    json_t* images = json_object_get(g->doc, "images");
    for (size_t i = 0; i < ni; ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        char decoded[4096];
        if (json_is_string(uri) && strncasecmp(json_string_value(uri), "data:", 5) != 0 &&
            !uri_decode(json_string_value(uri), decoded, sizeof decoded) && !(names[n++] = strdup(plain_name(decoded))))
            goto fail;
    }
    qsort(names, n, sizeof *names, compare_names);
    *count = n;
    return names;
fail:
    gc_free_names(names, n - 1);
    return NULL;
}

/* Whether a rewritten buffer's file may not be called `name`: a taken name or one chosen
 * for another rewritten buffer. */
static bool name_taken(char* const* taken, size_t taken_count, char* const* chosen, size_t chosen_count,
                       const char* name)
{
    name = plain_name(name);
    for (size_t i = 0; i < chosen_count; ++i)
        if (!strcmp(plain_name(chosen[i]), name))
            return true;
    return taken_count && bsearch(&name, taken, taken_count, sizeof *taken, compare_names) != NULL;
}

static bool write_all(FILE* f, const void* data, size_t n)
{
    return n == 0 || fwrite(data, 1, n, f) == n;
}

/* A rewritten data: buffer's URI encoded again (its media type kept). */
static gc_status encode_data_buffer(gc_gltf* g, size_t i, const char* out_path, gc_error* err)
{
    const gltf_buffer* b = &g->buffers[i];
    json_t* bj = json_array_get(json_object_get(g->doc, "buffers"), i);
    const char* uri = json_string_value(json_object_get(bj, "uri"));
    const char* comma = strchr(uri, ',');
    char* encoded = base64_encode(uri, (size_t)(comma - uri) + 1, b->data, (size_t)b->size);
    gc_status s = GC_OK;
    if (!encoded || json_object_set_new(bj, "uri", json_string(encoded)) != 0)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory encoding buffers[%zu]", out_path, i);
    free(encoded);
    return s;
}

/* The document's own file: the JSON `json` (text_length bytes; `changed` when it is not
 * the input's), or a GLB's header, JSON chunk and every later chunk as it is now. */
static bool write_document(const gc_gltf* g, FILE* f, const char* json, size_t text_length, bool changed)
{
    if (!g->glb)
        return write_all(f, json, text_length);
    /* header, JSON chunk (padded with spaces), then every later chunk as it is now */
    size_t padded = (text_length + 3) & ~(size_t)3;
    size_t rest = g->file_size > g->chunks_end ? g->file_size - g->chunks_end : 0;
    /* the declared length changes by what the JSON chunk's size changes */
    uint64_t total = (uint64_t)le32(g->file + 8) - (g->chunks_end - 20) + padded;
    unsigned char h[20];
    memcpy(h, g->file, 20);
    if (changed) {
        put32(h + 8, (uint32_t)total);
        put32(h + 12, (uint32_t)padded);
    } else { /* unchanged: header, chunk and padding exactly as they were */
        padded = g->chunks_end - 20, total = 0;
    }
    bool ok = total <= UINT32_MAX && write_all(f, h, 20);
    if (changed)
        ok = ok && write_all(f, json, text_length) && write_all(f, "   ", padded - text_length);
    else
        ok = ok && write_all(f, g->file + 20, padded);
    return ok && write_all(f, g->file + g->chunks_end, rest);
}

gc_status gc_gltf_write_stream(gc_gltf* g, void* file, const char* name, gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    if (!g || !file)
        return gc_fail(err, GC_ERR_USAGE, "no output stream given");
    if (!name)
        name = "the stream";
    /* a stream is one file: only a self-contained document */
    for (size_t i = 0; i < g->buffer_count; ++i)
        if (g->buffers[i].kind == BUF_FILE)
            return gc_fail(err, GC_ERR_USAGE,
                           "%s: buffers[%zu] is the file '%.200s': only a self-contained glTF (a GLB's own chunk, "
                           "data: URIs) can be written as one stream",
                           name, i, g->buffers[i].uri ? g->buffers[i].uri : "");
    json_t* images = json_object_get(g->doc, "images");
    for (size_t i = 0; i < array_size(g->doc, "images"); ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        if (json_is_string(uri) && strncasecmp(json_string_value(uri), "data:", 5) != 0)
            return gc_fail(err, GC_ERR_USAGE,
                           "%s: images[%zu] is the file '%.200s': only a self-contained glTF (a GLB's own chunk, "
                           "data: URIs) can be written as one stream",
                           name, i, json_string_value(uri));
    }
    bool changed = false;
    gc_status s = GC_OK;
    for (size_t i = 0; i < g->buffer_count && !s; ++i)
        if (g->buffers[i].kind == BUF_DATA && g->buffers[i].dirty) {
            s = encode_data_buffer(g, i, name, err);
            changed = true;
        }
    char* text = NULL;
    size_t text_length = g->json_length;
    const char* json = (const char*)g->file + g->json_at;
    if (!s && changed) {
        text = json_dumps(g->doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
        if (!text)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory writing the JSON", name);
        else
            json = text, text_length = strlen(text);
    }
    if (!s && !write_document(g, (FILE*)file, json, text_length, changed))
        s = gc_fail(err, GC_ERR_IO, "%s: write failed", name);
    free(text);
    return s;
}

gc_status gc_gltf_write(gc_gltf* g, const char* out_path, gc_error* err)
{
    return gc_gltf_write_inputs(g, out_path, NULL, 0, err);
}

gc_status gc_gltf_write_inputs(gc_gltf* g, const char* out_path, const char* const* also_inputs, size_t also_count,
                               gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    if (!g || !out_path || !*out_path)
        return gc_fail(err, GC_ERR_USAGE, "no output file given");
    int out_glb = gc_has_extension(out_path, "glb");
    if (out_glb != g->glb || (!out_glb && !gc_has_extension(out_path, "gltf")))
        return gc_fail(err, GC_ERR_USAGE, "%s: the output keeps the input's container (%s)", out_path,
                       g->glb ? ".glb" : ".gltf");
    char** inputs = NULL;
    size_t input_count = 0;
    gc_status s = gc_mesh_input_files(g->path, &inputs, &input_count, err);
    if (s)
        return s;
    /* resolved names of the input's buffers too (a URI may be written in many ways), and
     * the caller's other inputs */
    for (size_t i = 0; i < g->buffer_count + also_count && !s; ++i)
        if (i >= g->buffer_count ? also_inputs[i - g->buffer_count] != NULL : g->buffers[i].file != NULL) {
            const char* name = i >= g->buffer_count ? also_inputs[i - g->buffer_count] : g->buffers[i].file;
            char** grown = realloc(inputs, (input_count + 1) * sizeof *inputs);
            if (!grown || !(grown[input_count] = strdup(name))) {
                if (grown)
                    inputs = grown;
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", out_path);
            } else {
                inputs = grown;
                input_count++;
            }
        }
    char out_root[PATH_MAX];
    if (!s && !gc_path_folder(out_path, out_root))
        s = gc_fail(err, GC_ERR_IO, "%s: cannot create: its folder: %s", out_path, strerror(errno));
    bool same_folder = !s && strcmp(out_root, g->root) == 0;
    /* the output's folder as written, for the files beside it */
    const char* slash = strrchr(out_path, '/');
    char out_dir[PATH_MAX];
    snprintf(out_dir, sizeof out_dir, "%.*s", slash ? (int)(slash - out_path + (slash == out_path)) : 1,
             slash ? out_path : ".");
    const char* base = slash ? slash + 1 : out_path;
    const char* dot = strrchr(base, '.');
    int stem = dot ? (int)(dot - base) : (int)strlen(base);

    /* The output is a set of files: every member decided and checked first (output_set.c),
     * then all written, then all renamed; nothing of it is left on failure. */
    gc_output_set set;
    gc_output_set_init(&set, out_dir, (const char* const*)inputs, input_count);
    /* the names given to rewritten external buffers (at most one per output file) */
    char* chosen[256];
    size_t chosen_count = 0;
    char** taken = NULL;
    size_t taken_count = 0;
    json_t* buffers = json_object_get(g->doc, "buffers");
    bool json_changed = false;
    unsigned bin_files = 0;
    char what[PATH_MAX + 64]; /* the input and the member, for messages */
    for (size_t i = 0; i < g->buffer_count && !s; ++i) {
        gltf_buffer* b = &g->buffers[i];
        json_t* bj = json_array_get(buffers, i);
        snprintf(what, sizeof what, "%.*s: buffers[%zu]", PATH_MAX, g->path, i);
        if (b->kind == BUF_DATA && b->dirty) {
            s = encode_data_buffer(g, i, out_path, err);
            json_changed = true;
        } else if (b->kind == BUF_FILE && b->dirty) {
            /* its own file under the output's name: "out.bin" for the first, "out-I.bin" for
             * buffers[I] (or when "out.bin" is one the output still refers to), then "-K"
             * added while the name is taken */
            char name[PATH_MAX];
            if (!taken && !(taken = taken_names(g, same_folder, &taken_count))) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", out_path);
                break;
            }
            unsigned k = bin_files == 0 ? 0 : 1;
            for (;; ++k) {
                if (k == 0)
                    snprintf(name, sizeof name, "%.*s.bin", stem, base);
                else if (k == 1)
                    snprintf(name, sizeof name, "%.*s-%zu.bin", stem, base, i);
                else
                    snprintf(name, sizeof name, "%.*s-%zu-%u.bin", stem, base, i, k - 1);
                if (k > 64 || !name_taken(taken, taken_count, chosen, chosen_count, name))
                    break;
            }
            bin_files++;
            if (k > 64) {
                s = gc_fail(err, GC_ERR_IO, "%s: no free file name beside it for buffers[%zu]", out_path, i);
                break;
            }
            if (chosen_count == sizeof chosen / sizeof chosen[0]) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: more than %zu buffer files to write", out_path, chosen_count);
                break;
            }
            if (!(chosen[chosen_count++] = strdup(name))) {
                chosen_count--;
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", out_path);
                break;
            }
            /* a name of the output's own (the user chose it): it may replace a file that is
             * not an input, as the document does */
            s = gc_output_set_add(&set, name, 0, b->data, b->size, NULL, what, err);
            char* uri = s ? NULL : uri_encode(name);
            if (!s && (!uri || json_object_set_new(bj, "uri", json_string(uri)) != 0))
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", out_path);
            free(uri);
            json_changed = true;
        } else if (b->kind == BUF_FILE && !same_folder) {
            if (!b->relative) {
                note(g, "%s: buffers[%zu] still refers to '%s' (not copied: outside the input's folder)", out_path, i,
                     b->uri);
                continue;
            }
            /* named by the input: confined to the output's folder, never over another file */
            s = gc_output_set_add(&set, b->uri, 1, b->data, b->size, NULL, what, err);
        }
    }
    /* images in files: copied beside an output in another folder */
    json_t* images = json_object_get(g->doc, "images");
    for (size_t i = 0; i < array_size(g->doc, "images") && !s && !same_folder; ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        if (!json_is_string(uri) || strncasecmp(json_string_value(uri), "data:", 5) == 0)
            continue;
        char decoded[4096];
        if (uri_decode(json_string_value(uri), decoded, sizeof decoded))
            continue;
        if (gc_uri_problem(json_string_value(uri))) {
            note(g, "%s: images[%zu] still refers to '%s' (not copied: outside the input's folder)", out_path, i,
                 decoded);
            continue;
        }
        char from[PATH_MAX * 2], resolved[PATH_MAX];
        snprintf(from, sizeof from, "%s/%s", g->root, decoded);
        if (!realpath(from, resolved)) {
            note(g, "%s: images[%zu] '%s' does not exist: not copied", g->path, i, decoded);
            continue;
        }
        if (!gc_path_inside(g->root, resolved) && !g->allow_external) {
            s = gc_fail(err, GC_ERR_DATA, "%s: images[%zu].uri '%.200s' leads outside the input's folder", g->path, i,
                        decoded);
            break;
        }
        snprintf(what, sizeof what, "%.*s: images[%zu]", PATH_MAX, g->path, i);
        s = gc_output_set_add(&set, decoded, 1, NULL, 0, resolved, what, err);
    }
    /* the JSON: as it was, or dumped again when a URI changed */
    char* text = NULL;
    size_t text_length = g->json_length;
    const char* json = (const char*)g->file + g->json_at;
    if (!s && json_changed) {
        text = json_dumps(g->doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
        if (!text)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory writing the JSON", out_path);
        else
            json = text, text_length = strlen(text);
    }
    /* the document last: renamed after the files it names */
    size_t doc = set.count;
    for (size_t i = 0; i < set.count && !s; ++i)
        if (!strcmp(set.members[i].name, base))
            s = gc_fail(err, GC_ERR_DATA, "%s '%.200s': has the output's own name", set.members[i].what,
                        set.members[i].name);
    if (!s)
        s = gc_output_set_add(&set, base, 0, NULL, 0, NULL, "the document", err);
    if (!s)
        s = gc_output_set_begin(&set, err);
    FILE* f = s ? NULL : gc_output_set_file(&set, doc);
    if (f && !write_document(g, f, json, text_length, text != NULL))
        s = gc_fail(err, GC_ERR_IO, "%s: write failed", out_path);
    free(text);
    if (!s)
        s = gc_output_set_commit(&set, err);
    else
        gc_output_set_abort(&set);
    /* only now, when they are in place: what was copied */
    for (size_t i = 0; i < set.count && !s; ++i) {
        const gc_output_member* m = &set.members[i];
        if (m->companion)
            note(g, "%s: %s '%s' beside the output%s", m->path, m->skip ? "kept the identical" : "copied",
                 m->name, m->from_fd >= 0 ? "" : " (an unchanged buffer)");
    }
    gc_output_set_free(&set);
    gc_free_names(inputs, input_count);
    for (size_t i = 0; i < chosen_count; ++i)
        free(chosen[i]);
    if (taken)
        gc_free_names(taken, taken_count);
    return s;
}

/* ---------------------------------------------------------------- the URIs of a file */

/* Every "uri" string member anywhere in the JSON that is not a data: URI. */
static bool collect_uris(json_t* v, const char* dir, char*** list, size_t* count, int depth);

static bool push_path(const char* dir, const char* name, char*** list, size_t* count)
{
    size_t need = strlen(dir) + strlen(name) + 2;
    char* p = malloc(need);
    char** grown = p ? realloc(*list, (*count + 1) * sizeof **list) : NULL;
    if (!grown) {
        free(p);
        return false;
    }
    if (name[0] == '/' || !strcmp(dir, "."))
        snprintf(p, need, "%s", name);
    else
        snprintf(p, need, "%s/%s", dir, name);
    *list = grown;
    grown[(*count)++] = p;
    return true;
}

static bool collect_uris(json_t* v, const char* dir, char*** list, size_t* count, int depth)
{
    if (depth > 64)
        return true;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); ++i)
            if (!collect_uris(json_array_get(v, i), dir, list, count, depth + 1))
                return false;
        return true;
    }
    if (!json_is_object(v))
        return true;
    const char* key;
    json_t* m;
    json_object_foreach(v, key, m) {
        if (!strcmp(key, "uri") && json_is_string(m) && strncasecmp(json_string_value(m), "data:", 5) != 0) {
            const char* uri = json_string_value(m);
            char decoded[4096];
            /* as written and percent-decoded: a name too many only refuses an output */
            if (!push_path(dir, uri, list, count))
                return false;
            if (!uri_decode(uri, decoded, sizeof decoded) && strcmp(decoded, uri) &&
                !push_path(dir, decoded, list, count))
                return false;
        } else if (!collect_uris(m, dir, list, count, depth + 1)) {
            return false;
        }
    }
    return true;
}

static bool gltf_uris(const char* path, const char* dir, char*** list, size_t* count)
{
    const char* why = NULL;
    FILE* f = gc_open_regular(path, NULL, &why); /* a FIFO would block */
    if (!f)
        return true; /* the reader reports it */
    struct stat st;
    unsigned char h[20];
    size_t at = 0, n = 0;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0) {
        if (fread(h, 1, 20, f) == 20 && !memcmp(h, "glTF", 4) && !memcmp(h + 16, "JSON", 4)) {
            at = 20;
            n = le32(h + 12);
        } else if ((uint64_t)st.st_size <= MAX_GLTF_JSON) {
            n = (size_t)st.st_size;
        }
        if ((uint64_t)at + n > (uint64_t)st.st_size || n > MAX_GLTF_JSON)
            n = 0; /* the reader refuses it */
    }
    char* text = n ? malloc(n) : NULL;
    bool ok = true;
    if (text && fseek(f, (long)at, SEEK_SET) == 0 && fread(text, 1, n, f) == n) {
        json_t* doc = json_loadb(text, n, 0, NULL);
        if (doc) {
            ok = collect_uris(doc, dir, list, count, 0);
            json_decref(doc);
        }
    } else if (n && !text) {
        ok = false;
    }
    free(text);
    fclose(f);
    return ok;
}

/* ---------------------------------------------------------------- as one gc_mesh */

/* The id offset of each vertex set in the concatenated mesh (primitives that share a
 * vertex buffer share their ids): bases[set], in order of first appearance; *total the sum
 * of the sets' vertex counts. NULL when out of memory. */
static uint64_t* set_bases(gc_gltf* g, vertex_sets* sets, uint64_t* total)
{
    *total = 0;
    if (!assign_sets(g, sets))
        return NULL;
    uint64_t* bases = gc_alloc_array(sets->count ? sets->count : 1, sizeof *bases, false);
    if (!bases) {
        free_sets(sets);
        return NULL;
    }
    for (size_t k = 0; k < sets->count; ++k) {
        bases[k] = *total;
        *total += g->prims[sets->members[sets->start[k]]].pub.vertex_count;
    }
    return bases;
}

static bool is_triangles(gc_topology t)
{
    return t == GC_TRIANGLE_LIST || t == GC_TRIANGLE_STRIP || t == GC_TRIANGLE_FAN;
}

/* Indices of the triangle list a triangle primitive draws (strips and fans expanded). */
static size_t triangle_list_length(const gc_gltf_primitive* p)
{
    gc_draw d = {p->indices, p->index_count, p->topology, 0, 0};
    uint64_t prims = 0;
    gc_error ignored;
    return gc_draw_validate(&d, "", &prims, &ignored) ? 0 : (size_t)prims * 3;
}

/* gc_gltf_load with the mesh loader's options (gc_mesh_load, gc_mesh_write and
 * gc_mesh_load_positions on a glTF file all read it this way). */
static gc_status load_with_mesh_options(const char* path, const gc_load_options* o, gc_gltf** g, gc_error* err)
{
    gc_gltf_options go = {0};
    go.allow_external_uris = o ? o->allow_external_uris : 0;
    go.max_indices = o ? o->max_indices : 0;
    *g = NULL;
    return gc_gltf_load(path, &go, g, err);
}

/* gc_mesh_load_positions for a glTF: each vertex set's POSITION accessor (float VEC3, read
 * with its stride; a sparse one is refused), at the ids gc_load_gltf gives that set. The
 * node hierarchy is not applied: positions are in each mesh's own space. */
gc_status gc_gltf_positions(const char* path, const gc_load_options* o, float** xyz, size_t* count, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(path, o, &g, err);
    if (s)
        return s;
    uint64_t total = 0;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &total);
    float* out = NULL;
    bool* filled = NULL; /* per vertex set: its positions are read (once, however many draw it) */
    if (!bases || !(filled = gc_alloc_array(sets.count ? sets.count : 1, sizeof *filled, true)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    else if (total > UINT32_MAX || !(out = gc_alloc_array(total ? (size_t)total : 1, 3 * sizeof(float), true)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu vertex positions", path, (unsigned long long)total);
    json_t* meshes = json_object_get(g->doc, "meshes");
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        if (!is_triangles(p->pub.topology) || p->group == SIZE_MAX || filled[p->group])
            continue;
        filled[p->group] = true;
        json_t* pj = json_array_get(json_object_get(json_array_get(meshes, p->pub.mesh), "primitives"), p->pub.primitive);
        json_t* ref = json_object_get(json_object_get(pj, "attributes"), "POSITION");
        json_int_t a_index = json_is_integer(ref) ? json_integer_value(ref) : -1;
        if (a_index < 0 || (uint64_t)a_index >= g->accessor_count) {
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: meshes[%zu].primitives[%zu]: no POSITION attribute", path,
                        p->pub.mesh, p->pub.primitive);
            break;
        }
        const gltf_accessor* a = &g->accessors[a_index];
        const gltf_buffer* b = a->has_view ? &g->buffers[a->buffer] : NULL;
        uint64_t n = p->pub.vertex_count < a->count ? p->pub.vertex_count : a->count;
        if (!a->valid || a->sparse || a->component != 5126 || a->element != 12 || !b || !b->data ||
            a->offset > b->size) {
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: accessors[%lld] (POSITION): not float VEC3 data gpucache can read",
                        path, (long long)a_index);
            break;
        }
        uint64_t base = bases[p->group];
        for (uint64_t v = 0; v < n; ++v) {
            /* valid accessors lie inside their buffer; checked again against the bytes held */
            uint64_t from = a->offset + v * (a->stride ? a->stride : 12);
            if (from > b->size || b->size - from < 12)
                break;
            const unsigned char* at = b->data + from;
            for (int k = 0; k < 3; ++k) {
                uint32_t bits = le32(at + 4 * k);
                float f;
                memcpy(&f, &bits, sizeof f);
                out[3 * (base + v) + (uint64_t)k] = isfinite(f) ? f : 0.0f;
            }
        }
    }
    gc_gltf_free(g);
    free(filled);
    if (bases) {
        free(bases);
        free_sets(&sets);
    }
    if (s) {
        free(out);
        return s;
    }
    *xyz = out;
    *count = (size_t)total;
    return GC_OK;
}

gc_status gc_load_gltf(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(path, o, &g, err);
    if (s)
        return s;
    size_t total = 0, runs = 0;
    for (size_t i = 0; i < g->prim_count; ++i) {
        const gc_gltf_primitive* p = &g->prims[i].pub;
        if (!is_triangles(p->topology))
            continue;
        total += triangle_list_length(p);
        runs++;
    }
    size_t max = o && o->max_indices ? o->max_indices : GC_MAX_INDICES;
    uint32_t* idx = total <= max ? gc_alloc_array(total ? total : 1, sizeof(uint32_t), false) : NULL;
    size_t* run = gc_alloc_array(runs ? runs : 1, sizeof(size_t), false);
    if (!idx || !run) {
        free(idx), free(run);
        gc_gltf_free(g);
        return total > max ? gc_fail(err, GC_ERR_LIMIT, "%s: more than %zu indices", path, max)
                           : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, total);
    }
    size_t at = 0, r = 0;
    uint64_t next = 0;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &next);
    if (!bases)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        uint64_t base = bases[p->group];
        if (!is_triangles(p->pub.topology))
            continue;
        gc_draw d = {p->indices, p->pub.index_count, p->pub.topology, 0, 0};
        size_t written = 0;
        if ((s = gc_draw_triangles(&d, idx + at, total - at, &written, err)))
            break;
        for (size_t k = at; k < at + written; ++k) {
            if (base + idx[k] > UINT32_MAX - 1) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: more than 2^32 - 1 vertices in all", path);
                break;
            }
            idx[k] += (uint32_t)base;
        }
        at += written;
        run[r++] = written / 3;
    }
    gc_gltf_free(g);
    if (bases) {
        free(bases);
        free_sets(&sets);
    }
    if (!s && at == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no triangles", path);
    if (s) {
        free(idx), free(run);
        return s;
    }
    gc_mesh_set(out, idx, at, true, next);
    if (r > 1) {
        out->runs = run;
        out->run_count = r;
    } else {
        free(run);
    }
    return GC_OK;
}

gc_status gc_rewrite_gltf(const char* in_path, const gc_load_options* o, const uint32_t* indices, size_t count,
                          int reorder_vertices, const char* out_path, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(in_path, o, &g, err);
    if (s)
        return s;
    size_t at = 0;
    uint64_t next = 0;
    uint32_t* local = NULL;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &next);
    if (!bases)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        uint64_t base = bases[p->group];
        if (!is_triangles(p->pub.topology))
            continue;
        size_t n = triangle_list_length(&p->pub);
        if (at + n > count) {
            s = gc_fail(err, GC_ERR_USAGE, "%s: fewer indices given than the file has", in_path);
            break;
        }
        /* strips, fans, primitives without indices and shared index data keep theirs */
        if (p->pub.topology == GC_TRIANGLE_LIST && p->index_accessor != SIZE_MAX && !p->pub.indices_kept &&
            p->pub.shares_indices_with == SIZE_MAX) {
            free(local);
            local = gc_alloc_array(n ? n : 1, sizeof(uint32_t), false);
            if (!local) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
                break;
            }
            for (size_t k = 0; k < n && !s; ++k) {
                uint32_t v = indices[at + k];
                if (v < base || v - base >= p->pub.vertex_count)
                    s = gc_fail(err, GC_ERR_DATA, "%s: meshes[%zu].primitives[%zu]: a reordered triangle left its "
                                                  "primitive", in_path, p->pub.mesh, p->pub.primitive);
                local[k] = (uint32_t)(v - base);
            }
            if (!s)
                s = gc_gltf_set_indices(g, i, local, n, err);
        }
        at += n;
    }
    free(local);
    if (bases) {
        free(bases);
        free_sets(&sets);
    }
    if (!s && at != count)
        s = gc_fail(err, GC_ERR_USAGE, "%s: more indices given than the file has", in_path);
    if (!s && reorder_vertices)
        s = gc_gltf_reorder_vertices(g, err);
    if (!s)
        s = gc_gltf_write(g, out_path, err);
    gc_gltf_free(g);
    return s;
}

/* The files a mesh consists of: itself and, for a glTF, every file its URIs name (here,
 * beside the one scanner of glTF URIs, so that output.c needs nothing of the formats). */
gc_status gc_mesh_input_files(const char* in_path, char*** files, size_t* count, gc_error* err)
{
    *files = NULL;
    *count = 0;
    if (!in_path || gc_stdin_format(in_path))
        return GC_OK;
    char* self = strdup(in_path);
    *files = self ? malloc(sizeof **files) : NULL;
    if (!*files) {
        free(self);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    }
    (*files)[(*count)++] = self;
    if (!gc_has_extension(in_path, "gltf") && !gc_has_extension(in_path, "glb"))
        return GC_OK;
    /* A glTF's buffers and images are files of its own: an output must not replace them. */
    const char* slash = strrchr(in_path, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - in_path + (slash == in_path)) : 1, slash ? in_path : ".");
    if (!gltf_uris(in_path, dir, files, count)) {
        gc_free_names(*files, *count);
        *files = NULL, *count = 0;
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    }
    return GC_OK;
}
