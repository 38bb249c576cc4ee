/* Wavefront OBJ: the triangle list a renderer would draw. Faces are triangulated
 * as fans in file order; a GPU vertex is a unique (position, texcoord, normal)
 * combination, numbered in order of first use, as a renderer builds its vertex
 * buffer. With positions_only the index is the position index alone. Only the
 * element counts of v/vt/vn matter here, but positions must be finite numbers. */
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (64u << 20)

typedef struct corner_key {
    uint32_t p, t, n;
} corner_key;

typedef struct corner_map {
    corner_key* keys;
    uint32_t* ids;
    size_t capacity, count;
} corner_map;

static uint64_t hash_key(corner_key k)
{
    uint64_t h = k.p * 0x9E3779B97F4A7C15ull;
    h ^= (k.t + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
    h ^= (k.n + 0x94D049BB133111EBull) * 0xD6E8FEB86659FD93ull;
    return h ^ (h >> 31);
}

static bool map_grow(corner_map* m)
{
    size_t capacity = m->capacity ? m->capacity * 2 : 4096;
    corner_key* keys = gc_alloc_array(capacity, sizeof(corner_key), false);
    uint32_t* ids = gc_alloc_array(capacity, sizeof(uint32_t), false);
    if (!keys || !ids) {
        free(keys);
        free(ids);
        return false;
    }
    memset(ids, 0xff, capacity * sizeof(uint32_t));
    for (size_t i = 0; i < m->capacity; ++i) {
        if (m->ids[i] == UINT32_MAX)
            continue;
        size_t h = hash_key(m->keys[i]) & (capacity - 1);
        while (ids[h] != UINT32_MAX)
            h = (h + 1) & (capacity - 1);
        keys[h] = m->keys[i];
        ids[h] = m->ids[i];
    }
    free(m->keys);
    free(m->ids);
    m->keys = keys;
    m->ids = ids;
    m->capacity = capacity;
    return true;
}

/* The id of a corner, assigning the next one to a new combination; UINT32_MAX on out of memory. */
static uint32_t map_get(corner_map* m, corner_key k)
{
    if ((m->count + 1) * 2 > m->capacity && !map_grow(m))
        return UINT32_MAX;
    size_t h = hash_key(k) & (m->capacity - 1);
    while (m->ids[h] != UINT32_MAX) {
        corner_key* e = &m->keys[h];
        if (e->p == k.p && e->t == k.t && e->n == k.n)
            return m->ids[h];
        h = (h + 1) & (m->capacity - 1);
    }
    m->keys[h] = k;
    m->ids[h] = (uint32_t)m->count;
    return (uint32_t)m->count++;
}

typedef struct obj_parser {
    const char* path;
    uint64_t line;
    uint64_t positions, texcoords, normals;
    corner_map corners;
    gc_u32_vec indices;
    gc_u32_vec face; /* corners of the current face */
    bool positions_only;
    size_t max_indices;
} obj_parser;

/* Parses one OBJ reference ("3", "-1"): resolves a relative index against `count`
 * and checks the range. Returns the 1-based index, or 0 with err set. */
static uint32_t resolve(obj_parser* o, const char** s, uint64_t count, const char* kind, gc_error* err)
{
    const char* p = *s;
    bool negative = *p == '-';
    if (negative)
        p++;
    if (!isdigit((unsigned char)*p)) {
        gc_fail(err, GC_ERR_DATA, "%s:%llu: bad %s reference '%.20s'", o->path, (unsigned long long)o->line, kind, *s);
        return 0;
    }
    uint64_t v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (uint64_t)(*p++ - '0');
        if (v > UINT32_MAX) {
            gc_fail(err, GC_ERR_DATA, "%s:%llu: %s index too large", o->path, (unsigned long long)o->line, kind);
            return 0;
        }
    }
    *s = p;
    if (v == 0) {
        gc_fail(err, GC_ERR_DATA, "%s:%llu: %s index 0 (OBJ indices start at 1)", o->path,
                (unsigned long long)o->line, kind);
        return 0;
    }
    if (negative) {
        if (v > count) {
            gc_fail(err, GC_ERR_DATA, "%s:%llu: relative %s index -%llu reaches before the first of %llu", o->path,
                    (unsigned long long)o->line, kind, (unsigned long long)v, (unsigned long long)count);
            return 0;
        }
        v = count - v + 1;
    } else if (v > count) {
        gc_fail(err, GC_ERR_DATA, "%s:%llu: %s index %llu out of range (%llu defined so far)", o->path,
                (unsigned long long)o->line, kind, (unsigned long long)v, (unsigned long long)count);
        return 0;
    }
    return (uint32_t)v;
}

static gc_status parse_face(obj_parser* o, const char* s, gc_error* err)
{
    o->face.count = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            break;
        corner_key k = {0, 0, 0};
        k.p = resolve(o, &s, o->positions, "position", err);
        if (!k.p)
            return err->code;
        if (*s == '/') {
            s++;
            if (*s != '/') {
                k.t = resolve(o, &s, o->texcoords, "texcoord", err);
                if (!k.t)
                    return err->code;
            }
            if (*s == '/') {
                s++;
                k.n = resolve(o, &s, o->normals, "normal", err);
                if (!k.n)
                    return err->code;
            }
        }
        if (*s && *s != ' ' && *s != '\t' && *s != '#')
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: unexpected '%c' in a face", o->path,
                           (unsigned long long)o->line, *s);
        uint32_t id = o->positions_only ? k.p - 1 : map_get(&o->corners, k);
        if (id == UINT32_MAX || !gc_u32_vec_push(&o->face, id))
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory", o->path, (unsigned long long)o->line);
    }
    if (o->face.count < 3)
        return gc_fail(err, GC_ERR_DATA, "%s:%llu: a face needs at least 3 corners, this one has %zu", o->path,
                       (unsigned long long)o->line, o->face.count);
    size_t triangles = o->face.count - 2;
    if (o->indices.count + 3 * triangles > o->max_indices)
        return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %zu indices", o->path, (unsigned long long)o->line,
                       o->max_indices);
    for (size_t i = 1; i + 1 < o->face.count; ++i) {
        if (!gc_u32_vec_push(&o->indices, o->face.data[0]) || !gc_u32_vec_push(&o->indices, o->face.data[i]) ||
            !gc_u32_vec_push(&o->indices, o->face.data[i + 1]))
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory", o->path, (unsigned long long)o->line);
    }
    return GC_OK;
}

static gc_status parse_position(obj_parser* o, const char* s, gc_error* err)
{
    for (int i = 0; i < 3; ++i) {
        char* end;
        double v = strtod(s, &end);
        if (end == s)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: a position needs 3 numbers", o->path,
                           (unsigned long long)o->line);
        if (!isfinite(v))
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: position coordinate %d is not a finite number", o->path,
                           (unsigned long long)o->line, i + 1);
        s = end;
    }
    if (o->positions >= UINT32_MAX - 1)
        return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: too many positions", o->path, (unsigned long long)o->line);
    o->positions++;
    return GC_OK;
}

gc_status gc_load_obj(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    gc_reader r;
    gc_status s = gc_reader_open(&r, path, err);
    if (s)
        return s;
    obj_parser o = {0};
    o.path = path;
    o.positions_only = opt && opt->positions_only;
    o.max_indices = opt && opt->max_indices ? opt->max_indices : GC_MAX_INDICES;
    char* line = NULL;
    size_t capacity = 0;
    int c = 0;
    while (c >= 0 && !s) {
        size_t len = 0;
        o.line = r.line;
        while ((c = gc_reader_get(&r)) >= 0 && c != '\n') {
            if (c == 0) {
                s = gc_fail(err, GC_ERR_DATA, "%s:%llu: NUL byte: not a text OBJ file", path,
                            (unsigned long long)o.line);
                break;
            }
            if (len + 2 > capacity) {
                if (capacity >= MAX_LINE) {
                    s = gc_fail(err, GC_ERR_LIMIT, "%s:%llu: line longer than %u bytes", path,
                                (unsigned long long)o.line, MAX_LINE);
                    break;
                }
                size_t next = capacity ? capacity * 2 : 256;
                char* grown = realloc(line, next);
                if (!grown) {
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
                    break;
                }
                line = grown;
                capacity = next;
            }
            line[len++] = (char)c;
        }
        if (s)
            break;
        if (r.error) {
            s = gc_fail(err, GC_ERR_IO, "%s: read error", path);
            break;
        }
        if (len == 0)
            continue;
        line[len] = 0;
        if (len && line[len - 1] == '\r')
            line[--len] = 0;
        const char* p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t'))
            s = parse_position(&o, p + 2, err);
        else if (p[0] == 'v' && p[1] == 't' && (p[2] == ' ' || p[2] == '\t'))
            o.texcoords++;
        else if (p[0] == 'v' && p[1] == 'n' && (p[2] == ' ' || p[2] == '\t'))
            o.normals++;
        else if (p[0] == 'f' && (p[1] == ' ' || p[1] == '\t'))
            s = parse_face(&o, p + 2, err);
    }
    free(line);
    gc_reader_close(&r);
    free(o.face.data);
    uint64_t vertex_count = o.positions_only ? o.positions : o.corners.count;
    free(o.corners.keys);
    free(o.corners.ids);
    if (!s && o.indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no faces", path);
    if (s) {
        free(o.indices.data);
        return s;
    }
    gc_mesh_set(out, o.indices.data, o.indices.count, true, vertex_count);
    return GC_OK;
}
