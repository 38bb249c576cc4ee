// SPDX-License-Identifier: MIT
/* PLY rewriting (gc_rewrite_ply) and positions (gc_ply_positions); the header is read by
 * ply.c's ply_parse_header (ply_internal.h). */
#include "ply_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- rewriting */

/* Skips one item of an element, checking it as the loader would read it. */
static gc_status skip_item(ply_parser* p, const ply_element* e, gc_error* err)
{
    for (int pi = 0; pi < e->prop_count; ++pi) {
        const ply_property* prop = &e->props[pi];
        double v;
        gc_status s;
        if (prop->count_type == T_NONE) {
            if ((s = ply_read_value(p, prop->type, e->name, &v, err)))
                return s;
            continue;
        }
        uint32_t length = 0;
        if ((s = ply_list_length(p, prop, e->name, &length, err)))
            return s;
        for (uint32_t k = 0; k < length; ++k)
            if ((s = ply_read_value(p, prop->type, e->name, &v, err)))
                return s;
    }
    return GC_OK;
}

/* gc_mesh_load_positions for a PLY: the x, y, z properties of the vertex element, one
 * triple per vertex (a PLY's vertex ids are its vertex records). Reads the file up to the
 * end of the vertex element; the faces are not read (gc_mesh_load checks them). */
gc_status gc_ply_positions(const char* path, float** xyz, size_t* count, gc_error* err)
{
    ply_parser p;
    memset(&p, 0, sizeof p);
    p.path = path;
    gc_status s = gc_reader_open(&p.r, path, err);
    if (s)
        return s;
    float* out = NULL;
    uint64_t n = 0;
    s = ply_parse_header(&p, NULL, 0, err);
    if (!s && p.vertex_element < 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no 'vertex' element", path);
    int axis_of[MAX_PROPERTIES];
    if (!s) {
        const ply_element* v = &p.elements[p.vertex_element];
        int found = 0;
        for (int pi = 0; pi < v->prop_count; ++pi) {
            const char* name = v->props[pi].name;
            axis_of[pi] = v->props[pi].count_type != T_NONE ? -1 : strcmp(name, "x") == 0 ? 0
                          : strcmp(name, "y") == 0 ? 1 : strcmp(name, "z") == 0 ? 2 : -1;
            found |= axis_of[pi] >= 0 ? 1 << axis_of[pi] : 0;
        }
        n = v->count;
        /* the declared count bounds the allocation: at least one byte per coordinate */
        struct stat st;
        if (found == 7 && stat(path, &st) == 0 && S_ISREG(st.st_mode) && n > (uint64_t)st.st_size / 3)
            s = gc_fail(err, GC_ERR_DATA, "%s: %llu vertices declared, more than its %lld bytes can hold", path,
                        (unsigned long long)n, (long long)st.st_size);
        else if (found != 7)
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: the vertex element has no x, y and z properties", path);
        else if (n > SIZE_MAX / 3 || !(out = gc_alloc_array(n ? (size_t)n : 1, 3 * sizeof(float), true)))
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu vertex positions", path,
                        (unsigned long long)n);
    }
    for (int ei = 0; !s && ei <= p.vertex_element; ++ei) {
        const ply_element* e = &p.elements[ei];
        if (e->prop_count == 0)
            continue;
        for (uint64_t item = 0; !s && item < e->count; ++item) {
            if (ei != p.vertex_element) {
                s = skip_item(&p, e, err);
                continue;
            }
            for (int pi = 0; !s && pi < e->prop_count; ++pi) {
                const ply_property* prop = &e->props[pi];
                double value;
                if (prop->count_type == T_NONE) {
                    s = ply_read_value(&p, prop->type, e->name, &value, err);
                    if (!s && axis_of[pi] >= 0) {
                        if (!isfinite(value))
                            s = gc_fail(err, GC_ERR_DATA, "%s: vertex %llu: coordinate %s is not a finite number",
                                        path, (unsigned long long)item, prop->name);
                        out[3 * item + (uint64_t)axis_of[pi]] = gc_coordinate(value);
                    }
                    continue;
                }
                uint32_t length = 0;
                s = ply_list_length(&p, prop, e->name, &length, err);
                for (uint32_t k = 0; !s && k < length; ++k)
                    s = ply_read_value(&p, prop->type, e->name, &value, err);
            }
        }
    }
    gc_reader_close(&p.r);
    if (s) {
        free(out);
        return s;
    }
    *xyz = out;
    *count = (size_t)n;
    return GC_OK;
}

/* The size of every item of a binary element of scalars (its records can then be
 * found by arithmetic, without a table of offsets); 0 for ASCII or lists. */
static uint64_t fixed_item_size(const ply_parser* p, const ply_element* e)
{
    if (p->format == F_ASCII)
        return 0;
    uint64_t size = 0;
    for (int pi = 0; pi < e->prop_count; ++pi) {
        if (e->props[pi].count_type != T_NONE)
            return 0;
        size += ply_type_size(e->props[pi].type);
    }
    return size;
}

/* Copies bytes [from, to) of `in` to `out`; for ASCII, trims the leading whitespace
 * (the previous line's end) and ends with a newline. */
static bool copy_span(FILE* in, FILE* out, uint64_t from, uint64_t to, bool ascii)
{
    if (ftello(in) != (off_t)from && fseeko(in, (off_t)from, SEEK_SET) != 0)
        return false;
    char buf[65536];
    uint64_t left = to - from;
    bool leading = ascii;
    while (left > 0) {
        size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
        if (fread(buf, 1, n, in) != n)
            return false;
        size_t skip = 0;
        while (leading && skip < n && (buf[skip] == ' ' || buf[skip] == '\t' || buf[skip] == '\n' || buf[skip] == '\r'))
            skip++;
        if (skip < n)
            leading = false;
        fwrite(buf + skip, 1, n - skip, out);
        left -= n;
    }
    if (ascii && !leading)
        fputc('\n', out);
    return true;
}

static void put_u32(FILE* f, uint32_t v, ply_format format)
{
    unsigned char b[4];
    for (int i = 0; i < 4; ++i)
        b[format == F_LE ? i : 3 - i] = (unsigned char)(v >> (8 * i));
    fwrite(b, 1, 4, f);
}

/* The vertex element's records and where each one lies in the input. */
typedef struct vertex_records {
    uint64_t start, end; /* the element's bytes */
    uint64_t size;       /* every record's size, or 0: then ends[] */
    uint64_t* ends;      /* end offset of each record, grown as they are read */
    uint64_t count, capacity;
} vertex_records;

static void record_span(const vertex_records* vr, uint64_t v, uint64_t* from, uint64_t* to)
{
    if (vr->size) {
        *from = vr->start + v * vr->size;
        *to = *from + vr->size;
    } else {
        *from = v ? vr->ends[v - 1] : vr->start;
        *to = vr->ends[v];
    }
}

/* Notes where a vertex record ends. The table grows with the records actually read,
 * never from the header's count: memory follows the file, not what it claims. */
static bool record_end(vertex_records* vr, uint64_t end)
{
    if (vr->count == vr->capacity) {
        uint64_t next = vr->capacity ? vr->capacity + vr->capacity / 2 : 1024;
        uint64_t* grown =
            next <= SIZE_MAX / sizeof(uint64_t) ? realloc(vr->ends, (size_t)next * sizeof(uint64_t)) : NULL;
        if (!grown)
            return false;
        vr->ends = grown;
        vr->capacity = next;
    }
    vr->ends[vr->count++] = end;
    return true;
}

gc_status gc_rewrite_ply(const char* in_path, const uint32_t* indices, size_t count, const uint32_t* order,
                         size_t used, gc_output* out, gc_error* err)
{
    FILE* f = out->file;
    if (count % 3)
        return gc_fail(err, GC_ERR_USAGE, "%s: %zu indices is not a whole number of triangles", out->path, count);
    ply_parser p;
    memset(&p, 0, sizeof p);
    p.path = in_path;
    gc_status s = gc_reader_open(&p.r, in_path, err);
    if (s)
        return s;
    /* The header as the loader understands it, the faces replaced by the triangles. */
    s = ply_parse_header(&p, f, count / 3, err);
    if (!s && p.face_element < 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no 'face' or 'tristrips' element", in_path);
    if (!s) {
        const ply_element* e = &p.elements[p.face_element];
        if (e->prop_count != 1 || e->props[0].count_type == T_NONE)
            s = gc_fail(err, GC_ERR_UNSUPPORTED,
                        "%s: element '%s' has properties besides its vertex list; they cannot be reordered "
                        "with the triangles",
                        in_path, e->name);
    }
    /* The indices (and the vertex order) must name vertices of this file: they came
     * from loading it, but the file may have changed since, and the caller may err. */
    uint64_t vertex_count = s ? 0 : p.elements[p.vertex_element].count;
    if (!s && order && used > vertex_count)
        s = gc_fail(err, GC_ERR_DATA, "%s: %zu vertices used, but the file has %llu", in_path, used,
                    (unsigned long long)vertex_count);
    for (size_t k = 0; !s && order && k < used; ++k)
        if (order[k] >= vertex_count)
            s = gc_fail(err, GC_ERR_DATA, "%s: vertex %u is used, but the file has %llu vertices", in_path, order[k],
                        (unsigned long long)vertex_count);
    uint64_t limit = order ? used : vertex_count;
    for (size_t i = 0; !s && i < count; ++i)
        if (indices[i] >= limit)
            s = gc_fail(err, GC_ERR_DATA, "%s: index %zu is %u, not below the %llu vertices", in_path, i, indices[i],
                        (unsigned long long)limit);
    /* Records without properties are all alike: nothing to reorder. */
    bool reorder = !s && order && p.elements[p.vertex_element].prop_count > 0;
    vertex_records vr = {0};
    uint64_t before_face_end = p.header_end, face_end = 0;
    for (int ei = 0; !s && ei < p.element_count; ++ei) {
        const ply_element* e = &p.elements[ei];
        bool vertex = reorder && ei == p.vertex_element;
        if (vertex) {
            vr.start = gc_reader_offset(&p.r);
            vr.size = fixed_item_size(&p, e);
        }
        /* no properties, no bytes: a huge count must not become a long loop */
        for (uint64_t item = 0; !s && e->prop_count > 0 && item < e->count; ++item) {
            s = skip_item(&p, e, err);
            if (!s && vertex && !vr.size && !record_end(&vr, gc_reader_offset(&p.r)))
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the offsets of %llu vertices", in_path,
                            (unsigned long long)e->count);
        }
        if (vertex)
            vr.end = gc_reader_offset(&p.r);
        if (ei == p.face_element - 1)
            before_face_end = gc_reader_offset(&p.r);
        if (ei == p.face_element)
            face_end = gc_reader_offset(&p.r);
    }
    gc_reader_close(&p.r);
    FILE* in = s ? NULL : fopen(in_path, "rb");
    if (!s && !in)
        s = gc_fail(err, GC_ERR_IO, "%s: cannot open", in_path);
    bool ascii = p.format == F_ASCII;
    /* Elements before the faces: as they were, the vertex records possibly reordered. */
    if (!s && !reorder) {
        if (before_face_end > p.header_end && !copy_span(in, f, p.header_end, before_face_end, ascii))
            s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
    } else if (!s) {
        /* The used vertices in their new order (order[new] = old), then the unused ones in
         * their old order: the record count stays the header's. A bit per vertex marks
         * the used ones (and catches an order that repeats one). */
        uint64_t* placed = gc_alloc_array((size_t)((vertex_count + 63) / 64), sizeof(uint64_t), true);
        if (!placed)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu vertices", in_path,
                        (unsigned long long)vertex_count);
        if (!s && vr.start > p.header_end && !copy_span(in, f, p.header_end, vr.start, ascii))
            s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
        for (size_t k = 0; !s && k < used; ++k) {
            uint32_t v = order[k];
            if (v >= vertex_count || (placed[v / 64] >> (v % 64) & 1)) {
                s = gc_fail(err, GC_ERR_USAGE, "%s: the vertex order is not a permutation of the file's vertices",
                            in_path);
                break;
            }
            placed[v / 64] |= 1ull << (v % 64);
            uint64_t from, to;
            record_span(&vr, v, &from, &to);
            if (!copy_span(in, f, from, to, ascii))
                s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
        }
        for (uint64_t v = 0; !s && v < vertex_count; ++v) {
            if (placed[v / 64] >> (v % 64) & 1)
                continue;
            uint64_t from, to;
            record_span(&vr, v, &from, &to);
            if (!copy_span(in, f, from, to, ascii))
                s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
        }
        free(placed);
        if (!s && before_face_end > vr.end && !copy_span(in, f, vr.end, before_face_end, ascii))
            s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
    }
    /* The triangles. */
    for (size_t t = 0; !s && t < count / 3; ++t) {
        const uint32_t* v = indices + 3 * t;
        if (ascii) {
            fprintf(f, "3 %u %u %u\n", v[0], v[1], v[2]);
        } else {
            fputc(3, f);
            for (int k = 0; k < 3; ++k)
                put_u32(f, v[k], p.format);
        }
    }
    /* Whatever follows the faces, as it was. */
    if (!s) {
        if (fseeko(in, 0, SEEK_END) != 0) {
            s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
        } else {
            uint64_t size = (uint64_t)ftello(in);
            if (size > face_end && !copy_span(in, f, face_end, size, ascii))
                s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
        }
    }
    if (in)
        fclose(in);
    free(vr.ends);
    return s;
}
