// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), helpers
 * shared by the reader and the writer: little-endian words, notes, paths and URIs (the
 * folder of a file, a path inside a folder, percent-decoding, the URIs refused), JSON members. */
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

uint32_t gltf_le32(const unsigned char* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void gltf_put32(unsigned char* p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

void gltf_note(gc_gltf* g, const char* fmt, ...)
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
const char* gltf_uri_decode(const char* uri, char* out, size_t size)
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
    const char* bad = gltf_uri_decode(uri, decoded, sizeof decoded);
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

/* A non-negative integer member; absent: `fallback`. False when it is something else. */
bool gltf_member_u64(json_t* obj, const char* key, uint64_t fallback, uint64_t* out)
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
int gltf_member_ref(json_t* obj, const char* key, size_t limit, size_t* out)
{
    json_t* v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= limit)
        return -1;
    *out = (size_t)json_integer_value(v);
    return 1;
}

size_t gltf_array_size(json_t* doc, const char* key)
{
    json_t* a = json_object_get(doc, key);
    return json_is_array(a) ? json_array_size(a) : 0;
}
