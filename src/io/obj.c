// SPDX-License-Identifier: MIT
/* Wavefront OBJ: the triangle list a renderer would draw. Faces are triangulated
 * as fans in file order; a GPU vertex is a unique (position, texcoord, normal)
 * combination, numbered in order of first use, as a renderer builds its vertex
 * buffer. With positions_only the index is the position index alone. Only the
 * element counts of v/vt/vn matter here, but positions must be finite numbers. */
#include "io.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>

#define MAX_LINE (64u << 20)

typedef struct corner_key {
    uint32_t p, t, n;
} corner_key;

/* Corners are numbered in order of first use. The table keeps each id's key once
 * (12 bytes per distinct corner, which the rewrite needs anyway to write the corner
 * back) and the hash holds only ids (4 bytes a slot, at most 3/4 full): together about
 * 20 bytes per distinct corner, where a table of (key, id) slots at half load took 32
 * to 64. */
typedef struct corner_map {
    corner_key* keys; /* id -> key */
    size_t key_capacity;
    uint32_t* slots;  /* hash slot -> id, UINT32_MAX when empty */
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
    uint32_t* slots = gc_alloc_array(capacity, sizeof(uint32_t), false);
    if (!slots)
        return false;
    memset(slots, 0xff, capacity * sizeof(uint32_t));
    for (size_t id = 0; id < m->count; ++id) {
        size_t h = hash_key(m->keys[id]) & (capacity - 1);
        while (slots[h] != UINT32_MAX)
            h = (h + 1) & (capacity - 1);
        slots[h] = (uint32_t)id;
    }
    free(m->slots);
    m->slots = slots;
    m->capacity = capacity;
    return true;
}

/* The id of a corner, assigning the next one to a new combination; UINT32_MAX on out of memory. */
static uint32_t map_get(corner_map* m, corner_key k)
{
    if ((m->count + 1) * 4 > m->capacity * 3 && !map_grow(m))
        return UINT32_MAX;
    size_t h = hash_key(k) & (m->capacity - 1);
    while (m->slots[h] != UINT32_MAX) {
        const corner_key* e = &m->keys[m->slots[h]];
        if (e->p == k.p && e->t == k.t && e->n == k.n)
            return m->slots[h];
        h = (h + 1) & (m->capacity - 1);
    }
    if (m->count == m->key_capacity) {
        /* grow by half, like gc_u32_vec: the slack stays under 6 bytes per corner */
        size_t next = m->key_capacity < 1024 ? 1024 : m->key_capacity + m->key_capacity / 2;
        if (next > SIZE_MAX / sizeof(corner_key))
            return UINT32_MAX;
        corner_key* grown = realloc(m->keys, next * sizeof(corner_key));
        if (!grown)
            return UINT32_MAX;
        m->keys = grown;
        m->key_capacity = next;
    }
    m->keys[m->count] = k;
    m->slots[h] = (uint32_t)m->count;
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
    size_t* runs;           /* triangles per closed run */
    size_t run_count, run_capacity;
    size_t run_start;       /* first index of the open run */
    bool keep_keys;         /* for rewriting: the corner (p, t, n) of every index, through corners.keys */
    gc_u32_vec cids;        /* with positions_only and keep_keys: the corner id of every index */
    gc_u32_vec face_cids;   /* the same for the corners of the current face */
    bool keep_xyz;          /* for gc_mesh_load_positions: every position's coordinates */
    float* xyz;             /* 3 per position, with keep_xyz */
    size_t xyz_capacity;    /* positions xyz has room for */
} obj_parser;

/* A statement that changes render state (usemtl, g, o, s, ...) after faces closes the run. */
static bool close_run(obj_parser* o)
{
    if (o->indices.count == o->run_start)
        return true;
    if (o->run_count == o->run_capacity) {
        size_t cap = o->run_capacity ? o->run_capacity * 2 : 8;
        size_t* grown = realloc(o->runs, cap * sizeof *grown);
        if (!grown)
            return false;
        o->runs = grown;
        o->run_capacity = cap;
    }
    o->runs[o->run_count++] = (o->indices.count - o->run_start) / 3;
    o->run_start = o->indices.count;
    return true;
}

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
    /* the digits run to the next '/', blank or end of line; the one number parser reads them */
    size_t digits = 0;
    while (isdigit((unsigned char)p[digits]))
        digits++;
    uint64_t v = 0;
    if (gc_parse_u64(p, digits, 0, 0, UINT32_MAX, &v) != GC_PARSE_OK) {
        gc_fail(err, GC_ERR_DATA, "%s:%llu: %s index too large", o->path, (unsigned long long)o->line, kind);
        return 0;
    }
    p += digits;
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
    o->face_cids.count = 0;
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
        /* The rewrite needs every corner's key even when the indices are positions. */
        uint32_t cid = !o->positions_only || o->keep_keys ? map_get(&o->corners, k) : 0;
        if (cid == UINT32_MAX)
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for the table of %zu distinct corners",
                           o->path, (unsigned long long)o->line, o->corners.count + 1);
        uint32_t id = o->positions_only ? k.p - 1 : cid;
        if (!gc_u32_vec_push(&o->face, id) ||
            (o->positions_only && o->keep_keys && !gc_u32_vec_push(&o->face_cids, cid)))
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for a face of %zu corners", o->path,
                           (unsigned long long)o->line, o->face.count + 1);
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
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for %zu indices", o->path,
                           (unsigned long long)o->line, o->indices.count + 3);
        if (o->face_cids.count && (!gc_u32_vec_push(&o->cids, o->face_cids.data[0]) ||
                                   !gc_u32_vec_push(&o->cids, o->face_cids.data[i]) ||
                                   !gc_u32_vec_push(&o->cids, o->face_cids.data[i + 1])))
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for the corners of %zu indices", o->path,
                           (unsigned long long)o->line, o->indices.count);
    }
    return GC_OK;
}

static gc_status parse_position(obj_parser* o, const char* s, gc_error* err)
{
    double xyz[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        char* end;
        double v = strtod(s, &end);
        if (o->keep_xyz)
            xyz[i] = v;
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
    if (o->keep_xyz) {
        if (o->positions == o->xyz_capacity) {
            size_t cap = o->xyz_capacity ? o->xyz_capacity + o->xyz_capacity / 2 : 1024;
            float* grown = gc_alloc_array(cap, 3 * sizeof(float), false);
            if (!grown)
                return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for %zu positions", o->path,
                               (unsigned long long)o->line, cap);
            if (o->positions)
                memcpy(grown, o->xyz, (size_t)o->positions * 3 * sizeof(float));
            free(o->xyz);
            o->xyz = grown;
            o->xyz_capacity = cap;
        }
        for (int i = 0; i < 3; ++i)
            o->xyz[3 * o->positions + (size_t)i] = gc_coordinate(xyz[i]);
    }
    o->positions++;
    return GC_OK;
}

/* Parses the whole file into *o (the caller sets keep_keys and frees what o holds); from
 * `given` when not NULL (an open reader, closed here), else from `path`. */
static gc_status parse_obj(gc_reader* given, const char* path, const gc_load_options* opt, obj_parser* o_out,
                           gc_error* err)
{
    gc_reader r;
    gc_status s = GC_OK;
    if (given)
        r = *given;
    else if ((s = gc_reader_open(&r, path, err)))
        return s;
    obj_parser o = *o_out;
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
                    s = gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for a line of %zu bytes", path,
                                (unsigned long long)o.line, next);
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
        else if (p[0] != '#' && p[0] != 0 && !(p[0] == 'v' && p[1] == 'p') && !close_run(&o))
            s = gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory for the list of %zu runs", path,
                        (unsigned long long)o.line, o.run_count + 1);
    }
    if (!s && !close_run(&o))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the list of %zu runs", path, o.run_count + 1);
    free(line);
    gc_reader_close(&r);
    free(o.face.data);
    free(o.face_cids.data);
    o.face.data = o.face_cids.data = NULL;
    if (!s && o.indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no faces", path);
    *o_out = o;
    return s;
}

static void obj_parser_free(obj_parser* o)
{
    free(o->corners.keys);
    free(o->corners.slots);
    free(o->indices.data);
    free(o->runs);
    free(o->cids.data);
    free(o->xyz);
    memset(o, 0, sizeof *o);
}

gc_status gc_load_obj(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    return gc_load_obj_from(NULL, path, opt, out, err);
}

gc_status gc_load_obj_from(gc_reader* r, const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    obj_parser o = {0};
    gc_status s = parse_obj(r, path, opt, &o, err);
    uint64_t vertex_count = o.positions_only ? o.positions : o.corners.count;
    free(o.corners.keys);
    free(o.corners.slots);
    o.corners.keys = NULL;
    o.corners.slots = NULL;
    if (s) {
        obj_parser_free(&o);
        return s;
    }
    gc_mesh_set(out, o.indices.data, o.indices.count, true, vertex_count);
    if (o.run_count > 1) {
        out->runs = o.runs;
        out->run_count = o.run_count;
    } else {
        free(o.runs);
    }
    return GC_OK;
}

gc_status gc_obj_positions(const char* path, const gc_load_options* opt, float** xyz, size_t* count, gc_error* err)
{
    obj_parser o = {0};
    o.keep_keys = true; /* corners.keys: the position of every corner id */
    o.keep_xyz = true;
    gc_status s = parse_obj(NULL, path, opt, &o, err);
    size_t n = s ? 0 : o.positions_only ? (size_t)o.positions : o.corners.count;
    float* out = NULL;
    if (!s && !(out = gc_alloc_array(n ? n : 1, 3 * sizeof(float), false)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu vertex positions", path, n);
    for (size_t v = 0; !s && v < n; ++v) {
        /* a corner's key holds its 1-based position; with positions_only the id is the position */
        size_t p = o.positions_only ? v : (size_t)o.corners.keys[v].p - 1;
        memcpy(out + 3 * v, o.xyz + 3 * p, 3 * sizeof(float));
    }
    obj_parser_free(&o);
    if (s) {
        free(out);
        return s;
    }
    *xyz = out;
    *count = n;
    return GC_OK;
}

/* ---------------------------------------------------------------- rewriting */

static void write_corner(FILE* f, const corner_key* key)
{
    if (key->t && key->n)
        fprintf(f, " %u/%u/%u", key->p, key->t, key->n);
    else if (key->t)
        fprintf(f, " %u/%u", key->p, key->t);
    else if (key->n)
        fprintf(f, " %u//%u", key->p, key->n);
    else
        fprintf(f, " %u", key->p);
}

/* Writes one run's triangles: each output triangle is matched to an unused input
 * triangle of the run equal up to rotation, whose own corners (position, texcoord,
 * normal) are written, rotated the same way. */
static gc_status write_run(const obj_parser* o, const uint32_t* out_idx, size_t first, size_t count, FILE* f,
                           const char* path, gc_error* err)
{
    /* chained: a bucket per triangle is enough, and keeps this under 3 bytes per index */
    size_t capacity = 16;
    while (capacity < count)
        capacity *= 2;
    uint32_t* head = gc_alloc_array(capacity, sizeof(uint32_t), false);
    uint32_t* next = gc_alloc_array(count ? count : 1, sizeof(uint32_t), false);
    unsigned char* used = gc_alloc_array(count ? count : 1, 1, true);
    if (!head || !next || !used) {
        free(head), free(next), free(used);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory matching a run of %zu triangles", path, count);
    }
    memset(head, 0xff, capacity * sizeof(uint32_t));
    const uint32_t* in_idx = o->indices.data + 3 * first;
    for (size_t t = 0; t < count; ++t) {
        uint32_t canon[3];
        gc_triangle_canonical(in_idx + 3 * t, canon);
        size_t h = gc_triangle_hash(canon) & (capacity - 1);
        next[t] = head[h];
        head[h] = (uint32_t)t;
    }
    gc_status s = GC_OK;
    for (size_t t = 0; t < count && !s; ++t) {
        uint32_t canon[3];
        int rot_out = gc_triangle_canonical(out_idx + 3 * t, canon);
        size_t h = gc_triangle_hash(canon) & (capacity - 1);
        uint32_t match = UINT32_MAX;
        int rot_in = 0;
        for (uint32_t c = head[h]; c != UINT32_MAX && match == UINT32_MAX; c = next[c]) {
            if (used[c])
                continue;
            uint32_t other[3];
            rot_in = gc_triangle_canonical(in_idx + 3 * (size_t)c, other);
            if (other[0] == canon[0] && other[1] == canon[1] && other[2] == canon[2])
                match = c;
        }
        if (match == UINT32_MAX) {
            s = gc_fail(err, GC_ERR_DATA, "%s: triangle %zu of a run is not one of the run's triangles", path,
                        first + t);
            break;
        }
        used[match] = 1;
        /* out = rotate(canon, -rot_out) and canon = rotate(in, rot_in): out[k] = in[(k + rot_in - rot_out) mod 3]. */
        /* the matched triangle's corner ids (the indices themselves unless they are positions) */
        const size_t at = 3 * (first + match);
        const uint32_t* cids = o->positions_only ? o->cids.data + at : o->indices.data + at;
        fputc('f', f);
        for (int k = 0; k < 3; ++k)
            write_corner(f, &o->corners.keys[cids[(k + rot_in - rot_out + 6) % 3]]);
        fputc('\n', f);
    }
    free(head), free(next), free(used);
    return s;
}

gc_status gc_rewrite_obj(const char* in_path, const gc_load_options* opt, const uint32_t* indices, size_t count,
                         gc_output* out, gc_error* err)
{
    obj_parser o = {0};
    o.keep_keys = true;
    gc_status s = parse_obj(NULL, in_path, opt, &o, err);
    if (!s && count != o.indices.count)
        s = gc_fail(err, GC_ERR_USAGE, "%s: %zu indices given for a file of %zu", out->path, count, o.indices.count);
    if (s) {
        obj_parser_free(&o);
        return s;
    }
    /* Run sizes as the loader found them (one run when it found none). */
    size_t single = o.indices.count / 3;
    const size_t* runs = o.run_count ? o.runs : &single;
    size_t run_count = o.run_count ? o.run_count : 1;

    /* Second pass: every line as it was, except that each run's face lines give way to
     * its triangles, written where the run's last face was. Not the first: vertex
     * statements may stand between a run's faces (they do not close it), and a face after
     * them may use those vertices, so the triangles go where every vertex they use has
     * been defined. A first look through the file counts each run's face lines. */
    FILE* in = fopen(in_path, "rb");
    if (!in) {
        obj_parser_free(&o);
        return gc_fail(err, GC_ERR_IO, "%s: cannot open", in_path);
    }
    size_t* face_lines = gc_alloc_array(run_count, sizeof *face_lines, true);
    if (!face_lines) {
        fclose(in);
        obj_parser_free(&o);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the face counts of %zu runs", in_path, run_count);
    }
    FILE* f = out->file;
    char* line = NULL;
    size_t cap = 0;
    ssize_t len;
    for (int pass = 0; pass < 2 && !s; ++pass) {
        size_t run = 0, run_first = 0, seen = 0;
        bool in_run = false;
        if (pass == 1 && fseek(in, 0, SEEK_SET) != 0)
            s = gc_fail(err, GC_ERR_IO, "%s: cannot read it again", in_path);
        while (!s && (len = getline(&line, &cap, in)) >= 0) {
            const char* p = line;
            while (*p == ' ' || *p == '\t')
                p++;
            bool face = p[0] == 'f' && (p[1] == ' ' || p[1] == '\t');
            /* the loader's rule (parse_obj): what does not close a run */
            bool keeps_run = face || *p == '#' || *p == '\n' || *p == '\r' || *p == 0 ||
                             (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t' || p[1] == 'p')) ||
                             (p[0] == 'v' && (p[1] == 't' || p[1] == 'n') && (p[2] == ' ' || p[2] == '\t'));
            if (face) {
                if (!in_run) {
                    if (run >= run_count) {
                        s = gc_fail(err, GC_ERR_DATA, "%s: the file changed while it was rewritten", in_path);
                        break;
                    }
                    run++;
                    seen = 0;
                    in_run = true;
                }
                if (pass == 0)
                    face_lines[run - 1]++;
                else if (++seen == face_lines[run - 1]) {
                    s = write_run(&o, indices + 3 * run_first, run_first, runs[run - 1], f, in_path, err);
                    run_first += runs[run - 1];
                }
                continue;
            }
            if (!keeps_run)
                in_run = false;
            if (pass == 1)
                fwrite(line, 1, (size_t)len, f);
        }
        if (!s && run != run_count)
            s = gc_fail(err, GC_ERR_DATA, "%s: the file changed while it was rewritten", in_path);
    }
    free(face_lines);
    free(line);
    fclose(in);
    obj_parser_free(&o);
    return s;
}
