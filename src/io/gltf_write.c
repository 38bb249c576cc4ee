// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), writing:
 * the changed document and its buffers, the output set (every file an input names checked
 * against the outputs), GLB to a stream. */
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
    size_t ni = gltf_array_size(g->doc, "images"), n = 0;
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
            !gltf_uri_decode(json_string_value(uri), decoded, sizeof decoded) && !(names[n++] = strdup(plain_name(decoded))))
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
    uint64_t total = (uint64_t)gltf_le32(g->file + 8) - (g->chunks_end - 20) + padded;
    unsigned char h[20];
    memcpy(h, g->file, 20);
    if (changed) {
        gltf_put32(h + 8, (uint32_t)total);
        gltf_put32(h + 12, (uint32_t)padded);
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
    for (size_t i = 0; i < gltf_array_size(g->doc, "images"); ++i) {
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
                gltf_note(g, "%s: buffers[%zu] still refers to '%s' (not copied: outside the input's folder)", out_path, i,
                     b->uri);
                continue;
            }
            /* named by the input: confined to the output's folder, never over another file */
            s = gc_output_set_add(&set, b->uri, 1, b->data, b->size, NULL, what, err);
        }
    }
    /* images in files: copied beside an output in another folder */
    json_t* images = json_object_get(g->doc, "images");
    for (size_t i = 0; i < gltf_array_size(g->doc, "images") && !s && !same_folder; ++i) {
        json_t* uri = json_object_get(json_array_get(images, i), "uri");
        if (!json_is_string(uri) || strncasecmp(json_string_value(uri), "data:", 5) == 0)
            continue;
        char decoded[4096];
        if (gltf_uri_decode(json_string_value(uri), decoded, sizeof decoded))
            continue;
        if (gc_uri_problem(json_string_value(uri))) {
            gltf_note(g, "%s: images[%zu] still refers to '%s' (not copied: outside the input's folder)", out_path, i,
                 decoded);
            continue;
        }
        char from[PATH_MAX * 2], resolved[PATH_MAX];
        snprintf(from, sizeof from, "%s/%s", g->root, decoded);
        if (!realpath(from, resolved)) {
            gltf_note(g, "%s: images[%zu] '%s' does not exist: not copied", g->path, i, decoded);
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
            gltf_note(g, "%s: %s '%s' beside the output%s", m->path, m->skip ? "kept the identical" : "copied",
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
