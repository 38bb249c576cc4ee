// SPDX-License-Identifier: MIT
/* Reading the published measurements (the JSON files of data/published, gpucache_validate.h): each
 * value with its source, sentence, GPU, index buffer (a generator) and figure. Every file
 * is hostile: each field is checked for its type and range, strings may not hold control
 * characters, and an error names the file and the value. */
#define _POSIX_C_SOURCE 200809L
#include "../internal.h"
#include "gpucache/gpucache_validate.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PUBLISHED_MAX_BYTES ((size_t)16 << 20)
#define PUBLISHED_MAX_INDICES ((size_t)1 << 22)
#define PUBLISHED_MAX_FILES 256

static const char* const kind_names[GC_FIGURE_COUNT] = {"invocations", "atvr", "best_cache", "best_atvr",
                                                        "break_cache"};
static const char* const layout_names[] = {"optimal", "striped", "tipsify"};

const char* gc_figure_kind_name(gc_figure_kind kind)
{
    return (unsigned)kind < GC_FIGURE_COUNT ? kind_names[kind] : "";
}

static int starts_with(const char* s, const char* prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char* gc_published_vendor_of(const char* n)
{
    if (!n)
        return NULL;
    if (!strcmp(n, "intel") || starts_with(n, "intel-"))
        return "intel";
    if (!strcmp(n, "nvidia") || starts_with(n, "nvidia-") || starts_with(n, "nv-"))
        return "nvidia";
    if (starts_with(n, "amd-") || starts_with(n, "ati") || starts_with(n, "radeonsi-"))
        return "amd";
    return NULL;
}

/* The file being read and the value in it, for messages. */
typedef struct reader {
    const char* path;
    char where[128];
    gc_error* err;
} reader;

static gc_status bad(reader* r, const char* what)
{
    return gc_fail(r->err, GC_ERR_DATA, "%s: %s%s", r->path, r->where, what);
}

/* A string member without control characters (an empty one when optional and absent). */
static gc_status get_string(reader* r, json_t* obj, const char* key, int required, const char** out)
{
    json_t* v = json_object_get(obj, key);
    *out = "";
    if (!v) {
        if (!required)
            return GC_OK;
        return gc_fail(r->err, GC_ERR_DATA, "%s: %s\"%s\" is missing", r->path, r->where, key);
    }
    if (!json_is_string(v))
        return gc_fail(r->err, GC_ERR_DATA, "%s: %s\"%s\" is not a string", r->path, r->where, key);
    const char* s = json_string_value(v);
    size_t len = json_string_length(v);
    for (size_t i = 0; i < len; ++i)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return gc_fail(r->err, GC_ERR_DATA, "%s: %s\"%s\" holds a control character", r->path, r->where, key);
    if (required && len == 0)
        return gc_fail(r->err, GC_ERR_DATA, "%s: %s\"%s\" is empty", r->path, r->where, key);
    *out = s;
    return GC_OK;
}

/* An id: letters, digits, '.', '_' and '-', 1 to 80 of them. */
static int valid_id(const char* s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 80)
        return 0;
    for (size_t i = 0; i < n; ++i) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return 0;
    }
    return 1;
}

/* A whole number in [lo, hi]. */
static int get_uint(json_t* v, uint64_t lo, uint64_t hi, uint64_t* out)
{
    if (!json_is_integer(v))
        return 0;
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x < lo || (uint64_t)x > hi)
        return 0;
    *out = (uint64_t)x;
    return 1;
}

/* "A..B" or "N", sizes in [3, 4096]. */
static int parse_cache_range(const char* s, uint32_t* lo, uint32_t* hi)
{
    unsigned a = 0, b = 0;
    int n = 0;
    if (sscanf(s, "%u..%u%n", &a, &b, &n) == 2 && s[n] == 0) {
    } else if (sscanf(s, "%u%n", &a, &n) == 1 && s[n] == 0) {
        b = a;
    } else {
        return 0;
    }
    if (a < 3 || b > 4096 || a > b || s[0] < '0' || s[0] > '9')
        return 0;
    *lo = a;
    *hi = b;
    return 1;
}

/* Appends to the buffer's text, keeping it terminated; "..." when it is full. */
static void text_add(char* text, size_t size, const char* add)
{
    size_t used = strlen(text);
    if (used + strlen(add) + 4 >= size) {
        if (used + 4 < size && !strstr(text, "..."))
            strcat(text, "...");
        return;
    }
    strcat(text, add);
}

/* Room for `more` indices in the growing sequence. */
static gc_status reserve(reader* r, uint32_t** seq, size_t n, size_t* cap, uint64_t more)
{
    if (more > PUBLISHED_MAX_INDICES - n)
        return gc_fail(r->err, GC_ERR_LIMIT, "%s: %sthe sequence is longer than %zu indices", r->path, r->where,
                       PUBLISHED_MAX_INDICES);
    size_t need = n + (size_t)more;
    if (need > *cap) {
        size_t c = need * 2 < PUBLISHED_MAX_INDICES ? need * 2 : PUBLISHED_MAX_INDICES;
        uint32_t* grown = realloc(*seq, c * sizeof **seq);
        if (!grown)
            return gc_fail(r->err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", r->path, c);
        *seq = grown;
        *cap = c;
    }
    return GC_OK;
}

/* An array of index values, `times` over, into the growing sequence. */
static gc_status add_values(reader* r, json_t* arr, uint32_t** seq, size_t* n, size_t* cap, uint64_t times)
{
    size_t len = json_array_size(arr);
    if (!json_is_array(arr) || len == 0)
        return bad(r, "a part's indices must be a non-empty array");
    if (times > PUBLISHED_MAX_INDICES || len > PUBLISHED_MAX_INDICES)
        return reserve(r, seq, *n, cap, (uint64_t)PUBLISHED_MAX_INDICES + 1);
    gc_status s = reserve(r, seq, *n, cap, (uint64_t)len * times);
    if (s)
        return s;
    for (size_t i = 0; i < len; ++i) {
        uint64_t v;
        if (!get_uint(json_array_get(arr, i), 0, UINT32_MAX - 1, &v))
            return bad(r, "an index is not a whole number in [0, 4294967294]");
        (*seq)[*n + i] = (uint32_t)v;
    }
    for (uint64_t t = 1; t < times; ++t)
        memcpy(*seq + *n + t * len, *seq + *n, len * sizeof **seq);
    *n += len * (size_t)times;
    return GC_OK;
}

/* "(0 1 2)" of an array, shortened past a few values. */
static void text_values(char* out, size_t size, json_t* arr)
{
    size_t used = (size_t)snprintf(out, size, "(");
    for (size_t i = 0; i < json_array_size(arr) && used < size; ++i) {
        if (i == 6) {
            used += (size_t)snprintf(out + used, size - used, " ...");
            break;
        }
        used += (size_t)snprintf(out + used, size - used, "%s%lld", i ? " " : "",
                                 (long long)json_integer_value(json_array_get(arr, i)));
    }
    if (used < size)
        snprintf(out + used, size - used, ")");
}

static gc_status read_buffer(reader* r, json_t* b, gc_published* p)
{
    if (!json_is_object(b))
        return bad(r, "\"buffer\" must be an object");
    json_t* grid = json_object_get(b, "grid");
    json_t* parts = json_object_get(b, "parts");
    if ((grid != NULL) == (parts != NULL))
        return bad(r, "\"buffer\" needs either \"grid\" or \"parts\"");
    if (grid) {
        const char *size, *layout, *cache;
        gc_status s;
        if ((s = get_string(r, b, "grid", 1, &size)) || (s = get_string(r, b, "layout", 1, &layout)) ||
            (s = get_string(r, b, "cache", 1, &cache)))
            return s;
        unsigned w = 0, h = 0;
        int n = 0;
        if (sscanf(size, "%ux%u%n", &w, &h, &n) != 2 || size[n] || w < 1 || h < 1 || w > 4000 || h > 4000 ||
            size[0] < '0' || size[0] > '9')
            return bad(r, "\"grid\" must be WxH with W and H in [1, 4000]");
        size_t l = 0;
        while (l < 3 && strcmp(layout, layout_names[l]))
            ++l;
        if (l == 3)
            return bad(r, "\"layout\" must be optimal, striped or tipsify");
        if (!parse_cache_range(cache, &p->cache_lo, &p->cache_hi))
            return bad(r, "\"cache\" must be N or A..B with sizes in [3, 4096]");
        p->is_grid = 1;
        p->width = w;
        p->height = h;
        p->layout = (gc_published_layout)l;
        snprintf(p->buffer, sizeof p->buffer, "grid:%ux%u %s, cache %s", w, h, layout, cache);
        return GC_OK;
    }
    if (!json_is_array(parts) || json_array_size(parts) == 0)
        return bad(r, "\"parts\" must be a non-empty array");
    const char* topology;
    gc_status s = get_string(r, b, "topology", 0, &topology);
    if (s)
        return s;
    p->topology = GC_TRIANGLE_LIST;
    if (!strcmp(topology, "points"))
        p->topology = GC_POINT_LIST;
    else if (!strcmp(topology, "lines"))
        p->topology = GC_LINE_LIST;
    else if (topology[0] && strcmp(topology, "triangles"))
        return bad(r, "\"topology\" must be triangles, lines or points");
    size_t n = 0, cap = 0;
    uint32_t* seq = NULL;
    p->buffer[0] = 0;
    for (size_t i = 0; i < json_array_size(parts); ++i) {
        json_t* part = json_array_get(parts, i);
        json_t *range = json_object_get(part, "range"), *values = json_object_get(part, "indices"),
               *repeat = json_object_get(part, "repeat");
        char text[80];
        if (!json_is_object(part) || (range != NULL) + (values != NULL) + (repeat != NULL) != 1) {
            s = bad(r, "each part needs one of \"range\", \"indices\" or \"repeat\"");
        } else if (range) {
            uint64_t a, z;
            if (json_array_size(range) != 2 || !get_uint(json_array_get(range, 0), 0, UINT32_MAX - 1, &a) ||
                !get_uint(json_array_get(range, 1), a, UINT32_MAX - 1, &z)) {
                s = bad(r, "\"range\" must be [first, last] with first <= last < 4294967295");
            } else if (!(s = reserve(r, &seq, n, &cap, z - a + 1))) {
                for (uint64_t v = a; v <= z; ++v)
                    seq[n++] = (uint32_t)v;
                snprintf(text, sizeof text, "%llu..%llu", (unsigned long long)a, (unsigned long long)z);
            }
        } else if (values) {
            s = add_values(r, values, &seq, &n, &cap, 1);
            if (!s)
                text_values(text, sizeof text, values);
        } else {
            uint64_t times;
            if (!get_uint(json_object_get(part, "times"), 1, PUBLISHED_MAX_INDICES, &times)) {
                s = bad(r, "\"repeat\" needs \"times\", a whole number in [1, 4194304]");
            } else {
                s = add_values(r, repeat, &seq, &n, &cap, times);
                if (!s) {
                    char v[64];
                    text_values(v, sizeof v, repeat);
                    snprintf(text, sizeof text, "%sx%llu", v, (unsigned long long)times);
                }
            }
        }
        if (s) {
            free(seq);
            return s;
        }
        if (i)
            text_add(p->buffer, sizeof p->buffer, " + ");
        text_add(p->buffer, sizeof p->buffer, text);
    }
    p->indices = seq;
    p->index_count = n;
    return GC_OK;
}

static gc_status read_value(reader* r, json_t* m, const char* source, gc_published* p)
{
    gc_status s;
    if (!json_is_object(m))
        return bad(r, "a measurement must be an object");
    if ((s = get_string(r, m, "id", 1, &p->id)))
        return s;
    if (!valid_id(p->id))
        return bad(r, "\"id\" must be 1 to 80 letters, digits, '.', '_' or '-'");
    snprintf(r->where, sizeof r->where, "measurement \"%s\": ", p->id);
    p->source = source;
    if ((s = get_string(r, m, "gpu", 1, &p->gpu)) || (s = get_string(r, m, "vendor", 1, &p->vendor)) ||
        (s = get_string(r, m, "section", 1, &p->section)) || (s = get_string(r, m, "sentence", 1, &p->sentence)) ||
        (s = get_string(r, m, "note", 0, &p->note)))
        return s;
    if (strcmp(p->vendor, "amd") && strcmp(p->vendor, "nvidia") && strcmp(p->vendor, "intel"))
        return bad(r, "\"vendor\" must be amd, nvidia or intel");
    json_t* sec = json_object_get(m, "secondary");
    if (sec && !json_is_boolean(sec))
        return bad(r, "\"secondary\" must be true or false");
    p->secondary = sec && json_is_true(sec);
    json_t* fig = json_object_get(m, "figure");
    if (!json_is_object(fig))
        return bad(r, "\"figure\" must be an object");
    const char *kind, *bound;
    if ((s = get_string(r, fig, "kind", 1, &kind)) || (s = get_string(r, fig, "bound", 0, &bound)))
        return s;
    size_t k = 0;
    while (k < GC_FIGURE_COUNT && strcmp(kind, kind_names[k]))
        ++k;
    if (k == GC_FIGURE_COUNT)
        return bad(r, "\"kind\" must be invocations, atvr, best_cache, best_atvr or break_cache");
    p->kind = (gc_figure_kind)k;
    p->bound = !bound[0] ? GC_BOUND_EQUAL : !strcmp(bound, "above") ? GC_BOUND_ABOVE : GC_BOUND_BELOW;
    if (bound[0] && strcmp(bound, "above") && strcmp(bound, "below"))
        return bad(r, "\"bound\" must be above or below");
    json_t* v = json_object_get(fig, "value");
    if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1e15)
        return bad(r, "\"value\" must be a number in [0, 1e15]");
    p->value = json_number_value(v);
    if ((s = read_buffer(r, json_object_get(m, "buffer"), p)))
        return s;
    int grid_kind = p->kind != GC_FIGURE_INVOCATIONS;
    if (grid_kind != p->is_grid)
        return bad(r, grid_kind ? "an ATVR or cache-size figure needs a \"grid\" buffer"
                                : "an invocations figure needs a \"parts\" buffer");
    if (p->kind == GC_FIGURE_ATVR && p->cache_lo != p->cache_hi)
        return bad(r, "an \"atvr\" figure is at one cache size");
    if ((p->kind == GC_FIGURE_BEST_CACHE || p->kind == GC_FIGURE_BEST_ATVR || p->kind == GC_FIGURE_BREAK_CACHE) &&
        p->cache_lo == p->cache_hi)
        return bad(r, "a best or break figure needs a range of cache sizes");
    return GC_OK;
}

/* Reads one file into the set (grown), keeping its document in owner. */
static gc_status load_file(const char* path, json_t* owner, gc_published** items, size_t* count, size_t* cap,
                           gc_error* err)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char* text = malloc(PUBLISHED_MAX_BYTES + 1);
    if (!text) {
        fclose(f);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    }
    size_t n = fread(text, 1, PUBLISHED_MAX_BYTES + 1, f);
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        free(text);
        return gc_fail(err, GC_ERR_IO, "%s: read failed", path);
    }
    if (n > PUBLISHED_MAX_BYTES) {
        free(text);
        return gc_fail(err, GC_ERR_LIMIT, "%s: larger than %zu bytes", path, PUBLISHED_MAX_BYTES);
    }
    json_error_t je;
    json_t* doc = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!doc)
        return gc_fail(err, GC_ERR_DATA, "%s:%d:%d: not JSON: %s", path, je.line, je.column, je.text);
    json_t* file_name = json_string(path);
    if (!file_name || json_array_append_new(owner, doc) || json_array_append_new(owner, file_name))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    reader r = {path, "", err};
    json_t* src = json_object_get(doc, "source");
    json_t* list = json_object_get(doc, "measurements");
    const char* source;
    if (!json_is_object(doc) || !json_is_object(src) || !json_is_array(list))
        return bad(&r, "expected an object with \"source\" (an object) and \"measurements\" (an array)");
    snprintf(r.where, sizeof r.where, "\"source\": ");
    gc_status s = get_string(&r, src, "id", 1, &source);
    if (s)
        return s;
    if (!valid_id(source))
        return bad(&r, "\"id\" must be 1 to 80 letters, digits, '.', '_' or '-'");
    for (size_t i = 0; i < json_array_size(list); ++i) {
        if (*count == *cap) {
            size_t c = *cap ? *cap * 2 : 64;
            gc_published* grown = realloc(*items, c * sizeof **items);
            if (!grown)
                return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
            *items = grown;
            *cap = c;
        }
        gc_published* p = &(*items)[*count];
        memset(p, 0, sizeof *p);
        p->file = json_string_value(file_name);
        snprintf(r.where, sizeof r.where, "measurement %zu: ", i + 1);
        s = read_value(&r, json_array_get(list, i), source, p);
        if (s) {
            free(p->indices);
            return s;
        }
        for (size_t j = 0; j < *count; ++j)
            if (!strcmp((*items)[j].source, p->source) && !strcmp((*items)[j].id, p->id)) {
                free(p->indices);
                return bad(&r, "the id is used twice in its source");
            }
        ++*count;
    }
    return GC_OK;
}

static int compare_names(const void* a, const void* b)
{
    return strcmp(*(char* const*)a, *(char* const*)b);
}

static int has_json_ext(const char* name)
{
    size_t n = strlen(name);
    return n > 5 && name[0] != '.' && !strcmp(name + n - 5, ".json");
}

gc_status gc_published_load(const char* path, gc_published_set* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!path || !path[0])
        return gc_fail(err, GC_ERR_USAGE, "published measurements: no file or folder given");
    json_t* owner = json_array();
    if (!owner)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    out->owner = (gc_published_doc*)owner; /* a jansson array, never dereferenced as this type */
    size_t cap = 0;
    struct stat st;
    if (stat(path, &st) != 0)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return load_file(path, owner, &out->items, &out->count, &cap, err);
    DIR* dir = opendir(path);
    if (!dir)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char* names[PUBLISHED_MAX_FILES];
    size_t n = 0;
    gc_status s = GC_OK;
    struct dirent* e;
    while (!s && (e = readdir(dir)) != NULL) {
        if (!has_json_ext(e->d_name))
            continue;
        if (n == PUBLISHED_MAX_FILES) {
            s = gc_fail(err, GC_ERR_LIMIT, "%s: more than %d .json files", path, PUBLISHED_MAX_FILES);
            break;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) {
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
            break;
        }
        snprintf(names[n], len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
        ++n;
    }
    closedir(dir);
    qsort(names, n, sizeof *names, compare_names);
    if (!s && n == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no .json file in the folder", path);
    for (size_t i = 0; i < n; ++i) {
        if (!s)
            s = load_file(names[i], owner, &out->items, &out->count, &cap, err);
        free(names[i]);
    }
    return s;
}

void gc_published_free(gc_published_set* set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->count; ++i)
        free(set->items[i].indices);
    free(set->items);
    json_decref((json_t*)set->owner);
    memset(set, 0, sizeof *set);
}
