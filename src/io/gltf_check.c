/* What is checked before a file reaches assimp, and how assimp is confined while it reads.
 *
 * assimp trusts what a file declares: a 52-byte GLB whose chunk lengths lie made it
 * allocate 4.2 GB, and a glTF buffer URI such as "../secret.bin" or "/etc/passwd" was
 * read and copied into the output. Until glTF has a reader of its own:
 *
 *  - a GLB (any file that starts with the "glTF" magic) must have a header length and
 *    chunk lengths that fit in the file;
 *  - a glTF's JSON (a .gltf file, or a GLB's JSON chunk) is parsed here: buffer and
 *    image URIs must be data: URIs or relative paths that stay in the input's folder
 *    (no scheme, no absolute path, no ".." component, also when percent-encoded), a
 *    buffer's byteLength must fit in what holds it (the BIN chunk, the data: URI, the
 *    file it names), buffer views must fit in their buffer and accessors in their
 *    view; an accessor without a view (zeros) may not declare more bytes than the file
 *    and its buffers hold together. So what assimp allocates follows the bytes it is
 *    given, not the numbers a file declares;
 *  - every file assimp opens, for any format (the main file, glTF buffers, OBJ
 *    materials, COLLADA and FBX external references, ...), goes through a file system
 *    that refuses paths outside the input's folder (after resolving symbolic links).
 *
 * What remains trusted: assimp's parsers of the other formats (FBX, COLLADA, 3DS,
 * STL, ...) for the sizes they declare inside the file. They read nothing outside the
 * folder, but their memory and time are not bounded here; prefer OBJ, PLY or glTF for
 * files from untrusted sources. No process-wide limit (RLIMIT) is set: this is a
 * library. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io.h"

#ifdef GPUCACHE_HAVE_ASSIMP
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <jansson.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The JSON of a glTF is held as a jansson document: keep it to a size where that is cheap. */
#define MAX_GLTF_JSON ((uint64_t)64 << 20)

static uint32_t le32(const unsigned char* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---------------------------------------------------------------- paths */

/* The folder of `path` ("." when it has none), resolved; false when it cannot be. */
static bool input_folder(const char* path, char* out)
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

/* Whether `resolved` (a realpath) lies inside the resolved folder `root`. */
static bool inside(const char* root, const char* resolved)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return true;
    return strncmp(resolved, root, n) == 0 && resolved[n] == '/';
}

/* Why a glTF URI may not be followed, or NULL when it is a relative path inside the
 * folder. Percent escapes are decoded first, as a reader would. */
static const char* uri_problem(const char* uri)
{
    char decoded[4096];
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
        if (n + 1 >= sizeof decoded)
            return "is too long";
        decoded[n++] = (char)c;
    }
    decoded[n] = 0;
    if (n == 0)
        return "is empty";
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

/* ---------------------------------------------------------------- the confined file system */

typedef struct confined {
    char root[PATH_MAX];  /* the input's folder, resolved */
    char input[PATH_MAX]; /* the input itself, resolved */
    char refused[512];    /* the first path refused, for the message */
} confined;

static size_t file_read(struct aiFile* f, char* buffer, size_t size, size_t count)
{
    return size && count ? fread(buffer, size, count, (FILE*)f->UserData) : 0;
}

static size_t file_write(struct aiFile* f, const char* buffer, size_t size, size_t count)
{
    (void)f, (void)buffer, (void)size, (void)count;
    return 0; /* reading only */
}

static size_t file_tell(struct aiFile* f)
{
    long at = ftell((FILE*)f->UserData);
    return at < 0 ? 0 : (size_t)at;
}

static size_t file_size(struct aiFile* f)
{
    struct stat st;
    return fstat(fileno((FILE*)f->UserData), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
}

static void file_flush(struct aiFile* f)
{
    (void)f;
}

static enum aiReturn file_seek(struct aiFile* f, size_t offset, enum aiOrigin origin)
{
    if (offset > LONG_MAX)
        return aiReturn_FAILURE;
    int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
    return fseek((FILE*)f->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static struct aiFile* confined_open(struct aiFileIO* io, const char* path, const char* mode)
{
    confined* c = (confined*)io->UserData;
    if (!path || !mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
        return NULL;
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return NULL; /* missing: assimp reports it */
    if (strcmp(resolved, c->input) != 0 && !inside(c->root, resolved)) {
        if (!c->refused[0])
            snprintf(c->refused, sizeof c->refused, "%s", path);
        return NULL;
    }
    struct aiFile* f = calloc(1, sizeof *f);
    FILE* file = fopen(resolved, "rb");
    if (!f || !file) {
        free(f);
        if (file)
            fclose(file);
        return NULL;
    }
    f->ReadProc = file_read;
    f->WriteProc = file_write;
    f->TellProc = file_tell;
    f->FileSizeProc = file_size;
    f->SeekProc = file_seek;
    f->FlushProc = file_flush;
    f->UserData = (aiUserData)file;
    return f;
}

static void confined_close(struct aiFileIO* io, struct aiFile* f)
{
    (void)io;
    if (!f)
        return;
    fclose((FILE*)f->UserData);
    free(f);
}

/* ---------------------------------------------------------------- glTF JSON */

typedef struct gltf_check {
    const char* path;
    const char* root;      /* the input's folder, resolved */
    uint64_t file_bytes;
    uint64_t bin_bytes;    /* a GLB's BIN chunk, UINT64_MAX when there is none */
    uint64_t total_bytes;  /* the file and every buffer it names */
    gc_error* err;
} gltf_check;

/* glTF 2 keeps its objects in arrays, glTF 1 in objects keyed by id: both are walked,
 * and a place is named "buffers[0]" or "buffers.name". */
typedef struct item {
    json_t* value;
    char place[160];
} item;

static size_t collection_size(json_t* c)
{
    return json_is_array(c) ? json_array_size(c) : json_is_object(c) ? json_object_size(c) : 0;
}

static bool collection_get(json_t* c, const char* name, size_t i, item* out)
{
    if (json_is_array(c)) {
        out->value = json_array_get(c, i);
        snprintf(out->place, sizeof out->place, "%s[%zu]", name, i);
        return out->value != NULL;
    }
    size_t k = 0;
    const char* key;
    json_t* v;
    json_object_foreach(c, key, v) {
        if (k++ == i) {
            out->value = v;
            snprintf(out->place, sizeof out->place, "%s.%.100s", name, key);
            return true;
        }
    }
    return false;
}

/* A reference to another object: an index (glTF 2) or an id (glTF 1). */
static json_t* lookup(json_t* collection, json_t* ref)
{
    if (json_is_integer(ref) && json_is_array(collection) && json_integer_value(ref) >= 0)
        return json_array_get(collection, (size_t)json_integer_value(ref));
    if (json_is_string(ref) && json_is_object(collection))
        return json_object_get(collection, json_string_value(ref));
    return NULL;
}

/* A non-negative integer member (absent: `fallback`); false when it is something else. */
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

/* The bytes a data: URI decodes to (base64 or not), an upper bound. */
static uint64_t data_uri_bytes(const char* uri)
{
    const char* comma = strchr(uri, ',');
    if (!comma)
        return 0;
    uint64_t n = strlen(comma + 1);
    const char* b64 = strstr(uri, ";base64");
    return b64 && b64 < comma ? n / 4 * 3 + 3 : n;
}

/* Checks a URI; for a file, *bytes is its size. */
static gc_status check_uri(gltf_check* g, const item* it, const char* uri, bool* data, uint64_t* bytes)
{
    *data = strncasecmp(uri, "data:", 5) == 0;
    if (*data) {
        *bytes = data_uri_bytes(uri);
        return GC_OK;
    }
    const char* problem = uri_problem(uri);
    if (problem)
        return gc_fail(g->err, GC_ERR_DATA, "%s: %s.uri '%.200s' %s; only data: URIs and files in the input's folder "
                                            "are read",
                       g->path, it->place, uri, problem);
    /* The file itself, resolved, must also stay inside (a symbolic link may not lead out). */
    char joined[PATH_MAX * 2], resolved[PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", g->root, uri);
    struct stat st;
    if (realpath(joined, resolved) && stat(resolved, &st) == 0) {
        if (!inside(g->root, resolved))
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s.uri '%.200s' leads outside the input's folder", g->path,
                           it->place, uri);
        *bytes = (uint64_t)st.st_size;
    } else {
        *bytes = 0; /* missing (or percent-encoded): assimp reports it, reading nothing */
    }
    return GC_OK;
}

static uint64_t component_bytes(json_t* type)
{
    switch (json_is_integer(type) ? json_integer_value(type) : 0) {
    case 5120: case 5121: return 1;     /* BYTE, UNSIGNED_BYTE */
    case 5122: case 5123: return 2;     /* SHORT, UNSIGNED_SHORT */
    case 5125: case 5126: return 4;     /* UNSIGNED_INT, FLOAT */
    default: return 0;
    }
}

static uint64_t type_components(json_t* type)
{
    static const struct { const char* name; uint64_t n; } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; json_is_string(type) && i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(json_string_value(type), types[i].name) == 0)
            return types[i].n;
    return 0;
}

#define TOO_LARGE(what, ...) gc_fail(g->err, GC_ERR_DATA, "%s: %s: " what, g->path, it.place, __VA_ARGS__)

static gc_status check_gltf_json(gltf_check* g, json_t* doc)
{
    if (!json_is_object(doc))
        return gc_fail(g->err, GC_ERR_DATA, "%s: the glTF JSON is not an object", g->path);
    json_t* buffers = json_object_get(doc, "buffers");
    json_t* views = json_object_get(doc, "bufferViews");
    json_t* accessors = json_object_get(doc, "accessors");
    json_t* images = json_object_get(doc, "images");
    gc_status s;
    item it;
    /* Buffers: where their bytes come from, and that they hold what they declare. */
    size_t nb = collection_size(buffers);
    g->total_bytes = g->file_bytes;
    for (size_t i = 0; i < nb && collection_get(buffers, "buffers", i, &it); ++i) {
        uint64_t length, available;
        if (!json_is_object(it.value) || !member_u64(it.value, "byteLength", 0, &length))
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s: byteLength is not a non-negative integer", g->path, it.place);
        json_t* uri = json_object_get(it.value, "uri");
        bool data = false;
        if (json_is_string(uri)) {
            if ((s = check_uri(g, &it, json_string_value(uri), &data, &available)))
                return s;
            if (!data && available == 0)
                continue; /* a missing file: assimp reports it */
        } else if (uri) {
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s.uri is not a string", g->path, it.place);
        } else {
            /* no URI: the GLB's BIN chunk (glTF 1's binary body is the same) */
            available = g->bin_bytes == UINT64_MAX ? 0 : g->bin_bytes;
        }
        if (length > available)
            return TOO_LARGE("byteLength %llu is more than the %llu bytes that hold it", (unsigned long long)length,
                             (unsigned long long)available);
        if (!data && json_is_string(uri))
            g->total_bytes += available;
    }
    /* Images: only where they are read from (assimp may embed them in the output). */
    size_t ni = collection_size(images);
    for (size_t i = 0; i < ni && collection_get(images, "images", i, &it); ++i) {
        json_t* uri = json_is_object(it.value) ? json_object_get(it.value, "uri") : NULL;
        bool data;
        uint64_t bytes;
        if (json_is_string(uri) && (s = check_uri(g, &it, json_string_value(uri), &data, &bytes)))
            return s;
    }
    /* Buffer views inside their buffers. */
    size_t nv = collection_size(views);
    for (size_t i = 0; i < nv && collection_get(views, "bufferViews", i, &it); ++i) {
        uint64_t offset, length, buffer_length;
        json_t* buffer = json_is_object(it.value) ? lookup(buffers, json_object_get(it.value, "buffer")) : NULL;
        if (!buffer || !member_u64(it.value, "byteOffset", 0, &offset) ||
            !member_u64(it.value, "byteLength", 0, &length) || !member_u64(buffer, "byteLength", 0, &buffer_length))
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s: no valid buffer, byteOffset and byteLength", g->path,
                           it.place);
        if (offset > buffer_length || length > buffer_length - offset)
            return TOO_LARGE("bytes %llu to %llu lie outside its buffer of %llu bytes", (unsigned long long)offset,
                             (unsigned long long)(offset + length), (unsigned long long)buffer_length);
    }
    /* Accessors inside their views; without a view, no larger than everything given. */
    size_t na = collection_size(accessors);
    for (size_t i = 0; i < na && collection_get(accessors, "accessors", i, &it); ++i) {
        uint64_t count, offset;
        if (!json_is_object(it.value) || !member_u64(it.value, "count", 0, &count) ||
            !member_u64(it.value, "byteOffset", 0, &offset))
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s: count and byteOffset must be non-negative integers", g->path,
                           it.place);
        uint64_t element = component_bytes(json_object_get(it.value, "componentType")) *
                           type_components(json_object_get(it.value, "type"));
        if (element == 0)
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s: unknown componentType or type", g->path, it.place);
        if (count > UINT64_MAX / 16 / element)
            return TOO_LARGE("count %llu is too large", (unsigned long long)count);
        json_t* view_ref = json_object_get(it.value, "bufferView");
        if (!view_ref) {
            if (count * element > g->total_bytes)
                return TOO_LARGE("%llu elements of %llu bytes without a buffer view: more than the %llu bytes of the "
                                 "file and its buffers",
                                 (unsigned long long)count, (unsigned long long)element,
                                 (unsigned long long)g->total_bytes);
            continue;
        }
        json_t* view = lookup(views, view_ref);
        uint64_t view_length, stride;
        if (!json_is_object(view) || !member_u64(view, "byteLength", 0, &view_length) ||
            !member_u64(view, "byteStride", 0, &stride) || !member_u64(it.value, "byteStride", stride, &stride))
            return gc_fail(g->err, GC_ERR_DATA, "%s: %s: bufferView does not name a valid buffer view", g->path,
                           it.place);
        if (stride < element)
            stride = element;
        if (stride > (uint64_t)1 << 20)
            return TOO_LARGE("byteStride %llu is too large", (unsigned long long)stride);
        uint64_t need = count ? offset + (count - 1) * stride + element : offset;
        if (need > view_length)
            return TOO_LARGE("%llu elements need %llu bytes of a buffer view of %llu", (unsigned long long)count,
                             (unsigned long long)need, (unsigned long long)view_length);
    }
    return GC_OK;
}

/* A GLB's header and chunks against the file's size; its JSON chunk is checked as above. */
static gc_status check_glb(FILE* f, gltf_check* g)
{
    unsigned char h[20];
    if (fread(h, 1, 12, f) != 12)
        return gc_fail(g->err, GC_ERR_DATA, "%s: byte 0: a GLB header needs 12 bytes, the file has %llu", g->path,
                       (unsigned long long)g->file_bytes);
    uint32_t version = le32(h + 4), length = le32(h + 8);
    if (length > g->file_bytes)
        return gc_fail(g->err, GC_ERR_DATA, "%s: byte 8: the GLB header declares %lu bytes, the file has %llu",
                       g->path, (unsigned long)length, (unsigned long long)g->file_bytes);
    uint64_t json_at, json_length;
    g->bin_bytes = UINT64_MAX;
    if (version == 1) {
        /* glTF 1 binary: contentLength, contentFormat (0 = JSON), then the body */
        if (fread(h + 12, 1, 8, f) != 8 || length < 20)
            return gc_fail(g->err, GC_ERR_DATA, "%s: byte 12: a glTF 1 binary header needs 20 bytes", g->path);
        json_length = le32(h + 12);
        json_at = 20;
        if (le32(h + 16) != 0)
            return gc_fail(g->err, GC_ERR_DATA, "%s: byte 16: unknown content format %lu", g->path,
                           (unsigned long)le32(h + 16));
        if (json_length > length - 20)
            return gc_fail(g->err, GC_ERR_DATA,
                           "%s: byte 12: a content length of %llu runs past the %lu bytes the header declares", g->path,
                           (unsigned long long)json_length, (unsigned long)length);
        g->bin_bytes = length - 20 - json_length;
    } else if (version == 2) {
        if (length < 20 || fread(h + 12, 1, 8, f) != 8)
            return gc_fail(g->err, GC_ERR_DATA, "%s: byte 12: the GLB has no JSON chunk", g->path);
        json_length = le32(h + 12);
        json_at = 20;
        if (memcmp(h + 16, "JSON", 4) != 0)
            return gc_fail(g->err, GC_ERR_DATA, "%s: byte 16: the first chunk is not JSON", g->path);
        if (json_length > length - 20)
            return gc_fail(g->err, GC_ERR_DATA,
                           "%s: byte 12: a JSON chunk of %llu bytes runs past the %lu bytes the header declares",
                           g->path, (unsigned long long)json_length, (unsigned long)length);
        uint64_t next = 20 + json_length;
        /* chunks are 4-byte aligned; a BIN chunk may follow */
        next = (next + 3) & ~(uint64_t)3;
        if (next + 8 <= length) {
            unsigned char c[8];
            if (fseek(f, (long)next, SEEK_SET) != 0 || fread(c, 1, 8, f) != 8)
                return gc_fail(g->err, GC_ERR_IO, "%s: byte %llu: read error", g->path, (unsigned long long)next);
            uint64_t bin_length = le32(c);
            if (bin_length > length - next - 8)
                return gc_fail(g->err, GC_ERR_DATA,
                               "%s: byte %llu: a chunk of %llu bytes runs past the %lu bytes the header declares",
                               g->path, (unsigned long long)next, (unsigned long long)bin_length,
                               (unsigned long)length);
            if (memcmp(c + 4, "BIN\0", 4) == 0)
                g->bin_bytes = bin_length;
        }
    } else {
        return gc_fail(g->err, GC_ERR_DATA, "%s: byte 4: unknown GLB version %lu", g->path, (unsigned long)version);
    }
    if (json_length > MAX_GLTF_JSON)
        return gc_fail(g->err, GC_ERR_LIMIT, "%s: a glTF JSON of %llu bytes is more than the %llu read", g->path,
                       (unsigned long long)json_length, (unsigned long long)MAX_GLTF_JSON);
    char* text = malloc(json_length ? json_length : 1);
    if (!text)
        return gc_fail(g->err, GC_ERR_NOMEM, "%s: out of memory for a JSON chunk of %llu bytes", g->path,
                       (unsigned long long)json_length);
    if (fseek(f, (long)json_at, SEEK_SET) != 0 || fread(text, 1, json_length, f) != json_length) {
        free(text);
        return gc_fail(g->err, GC_ERR_IO, "%s: byte %llu: read error", g->path, (unsigned long long)json_at);
    }
    json_error_t je;
    json_t* doc = json_loadb(text, json_length, 0, &je);
    free(text);
    if (!doc)
        return gc_fail(g->err, GC_ERR_DATA, "%s: byte %llu: the JSON chunk is not JSON (%s)", g->path,
                       (unsigned long long)(json_at + (je.position > 0 ? (uint64_t)je.position : 0)), je.text);
    gc_status s = check_gltf_json(g, doc);
    json_decref(doc);
    return s;
}

static gc_status check_gltf_text(gltf_check* g)
{
    if (g->file_bytes > MAX_GLTF_JSON)
        return gc_fail(g->err, GC_ERR_LIMIT, "%s: a glTF JSON of %llu bytes is more than the %llu read", g->path,
                       (unsigned long long)g->file_bytes, (unsigned long long)MAX_GLTF_JSON);
    json_error_t je;
    json_t* doc = json_load_file(g->path, 0, &je);
    if (!doc)
        return gc_fail(g->err, GC_ERR_DATA, "%s:%d:%d: not a glTF JSON file (%s)", g->path, je.line, je.column,
                       je.text);
    g->bin_bytes = UINT64_MAX;
    gc_status s = check_gltf_json(g, doc);
    json_decref(doc);
    return s;
}

gc_status gc_assimp_import(const char* path, unsigned flags, const struct aiScene** out, gc_error* err)
{
    *out = NULL;
    confined c;
    memset(&c, 0, sizeof c);
    if (!input_folder(path, c.root) || !realpath(path, c.input))
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    FILE* f = fopen(path, "rb");
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    gltf_check g = {path, c.root, 0, UINT64_MAX, 0, err};
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0)
        g.file_bytes = (uint64_t)st.st_size;
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, 4, f);
    gc_status s = GC_OK;
    if (got == 4 && memcmp(magic, "glTF", 4) == 0) {
        rewind(f);
        s = check_glb(f, &g);
    } else if (gc_has_extension(path, "glb")) {
        s = gc_fail(err, GC_ERR_DATA, "%s: byte 0: cannot read this mesh: not a GLB file (no 'glTF' magic)", path);
    } else if (gc_has_extension(path, "gltf")) {
        s = check_gltf_text(&g);
    }
    fclose(f);
    if (s)
        return s;
    struct aiFileIO io = {confined_open, confined_close, (aiUserData)&c};
    const struct aiScene* scene = aiImportFileEx(path, flags, &io);
    if (!scene) {
        if (c.refused[0])
            return gc_fail(err, GC_ERR_DATA, "%s: refers to '%.300s', outside the input's folder: not read", path,
                           c.refused);
        return gc_fail(err, GC_ERR_DATA, "%s: cannot read this mesh (assimp: %s)", path, aiGetErrorString());
    }
    *out = scene;
    return GC_OK;
}
#endif
