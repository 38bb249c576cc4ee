// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), the files
 * a mesh consists of (gc_mesh_input_files): the file and every URI its JSON names. */
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
            if (!gltf_uri_decode(uri, decoded, sizeof decoded) && strcmp(decoded, uri) &&
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
            n = gltf_le32(h + 12);
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
