/* PLY, ASCII and binary (little or big endian): a "face" element (lists named
 * vertex_indices or vertex_index, triangulated as fans in file order) gives a
 * triangle list; a "tristrips" element (lists with -1 restarts, as Stanford's
 * igea.ply) gives a triangle strip with restarts. Nothing is allocated from a
 * header's counts: a header that lies runs into the end of the file instead. */
#include "io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROPERTIES 64
#define MAX_LIST 1000000u

typedef enum ply_type { T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 } ply_type;

typedef struct ply_property {
    char name[64];
    ply_type type;       /* scalar type, or the item type of a list */
    ply_type count_type; /* T_NONE for a scalar */
} ply_property;

typedef struct ply_element {
    char name[64];
    uint64_t count;
    ply_property props[MAX_PROPERTIES];
    int prop_count;
} ply_element;

typedef enum ply_format { F_ASCII, F_LE, F_BE } ply_format;

typedef struct ply_parser {
    gc_reader r;
    const char* path;
    ply_format format;
    ply_element elements[16];
    int element_count;
    char token[128];
} ply_parser;

static ply_type parse_type(const char* s)
{
    static const struct {
        const char* name;
        ply_type type;
    } names[] = {{"char", T_I8},    {"int8", T_I8},     {"uchar", T_U8},   {"uint8", T_U8},   {"short", T_I16},
                 {"int16", T_I16},  {"ushort", T_U16},  {"uint16", T_U16}, {"int", T_I32},    {"int32", T_I32},
                 {"uint", T_U32},   {"uint32", T_U32},  {"float", T_F32},  {"float32", T_F32}, {"double", T_F64},
                 {"float64", T_F64}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(s, names[i].name) == 0)
            return names[i].type;
    return T_NONE;
}

static size_t type_size(ply_type t)
{
    switch (t) {
    case T_I8:
    case T_U8: return 1;
    case T_I16:
    case T_U16: return 2;
    case T_I32:
    case T_U32:
    case T_F32: return 4;
    case T_F64: return 8;
    default: return 0;
    }
}

/* Reads a header line into buf; returns false at the end of input or on an overlong line. */
static bool header_line(ply_parser* p, char* buf, size_t size)
{
    size_t n = 0;
    int c;
    while ((c = gc_reader_get(&p->r)) >= 0 && c != '\n') {
        if (n + 1 >= size)
            return false;
        buf[n++] = (char)c;
    }
    if (c < 0 && n == 0)
        return false;
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = 0;
    return true;
}

static gc_status parse_header(ply_parser* p, gc_error* err)
{
    char line[512];
    if (!header_line(p, line, sizeof line) || strcmp(line, "ply") != 0)
        return gc_fail(err, GC_ERR_DATA, "%s:1: not a PLY file (no 'ply' magic line)", p->path);
    bool have_format = false;
    for (;;) {
        uint64_t at = p->r.line;
        if (!header_line(p, line, sizeof line))
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: header ends without 'end_header'", p->path,
                           (unsigned long long)at);
        char word[64], a[64], b[64], c[64], d[64];
        int n = sscanf(line, "%63s %63s %63s %63s %63s", word, a, b, c, d);
        if (n <= 0 || strcmp(word, "comment") == 0 || strcmp(word, "obj_info") == 0)
            continue;
        if (strcmp(word, "end_header") == 0)
            break;
        if (strcmp(word, "format") == 0) {
            if (n < 3 || strcmp(b, "1.0") != 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: unsupported format line '%s'", p->path,
                               (unsigned long long)at, line);
            if (strcmp(a, "ascii") == 0)
                p->format = F_ASCII;
            else if (strcmp(a, "binary_little_endian") == 0)
                p->format = F_LE;
            else if (strcmp(a, "binary_big_endian") == 0)
                p->format = F_BE;
            else
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown PLY format '%s'", p->path, (unsigned long long)at,
                               a);
            have_format = true;
        } else if (strcmp(word, "element") == 0) {
            if (n != 3 || p->element_count == 16)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad element line '%s'", p->path, (unsigned long long)at,
                               line);
            char* end;
            if (b[0] == '-')
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: negative element count '%s'", p->path,
                               (unsigned long long)at, b);
            unsigned long long count = strtoull(b, &end, 10);
            if (*end)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad element count '%s'", p->path, (unsigned long long)at, b);
            ply_element* e = &p->elements[p->element_count++];
            memset(e, 0, sizeof *e);
            snprintf(e->name, sizeof e->name, "%s", a);
            e->count = count;
        } else if (strcmp(word, "property") == 0) {
            if (p->element_count == 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: property before any element", p->path,
                               (unsigned long long)at);
            ply_element* e = &p->elements[p->element_count - 1];
            if (e->prop_count == MAX_PROPERTIES)
                return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %d properties", p->path, (unsigned long long)at,
                               MAX_PROPERTIES);
            ply_property* prop = &e->props[e->prop_count];
            memset(prop, 0, sizeof *prop);
            if (n >= 5 && strcmp(a, "list") == 0) {
                prop->count_type = parse_type(b);
                prop->type = parse_type(c);
                snprintf(prop->name, sizeof prop->name, "%s", d);
                if (prop->count_type == T_NONE || prop->type == T_NONE || prop->count_type == T_F32 ||
                    prop->count_type == T_F64)
                    return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad list property '%s'", p->path,
                                   (unsigned long long)at, line);
            } else if (n == 3) {
                prop->type = parse_type(a);
                snprintf(prop->name, sizeof prop->name, "%s", b);
                if (prop->type == T_NONE)
                    return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown property type '%s'", p->path,
                                   (unsigned long long)at, a);
            } else {
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad property line '%s'", p->path, (unsigned long long)at,
                               line);
            }
            e->prop_count++;
        } else {
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown header keyword '%s'", p->path, (unsigned long long)at,
                           word);
        }
    }
    if (!have_format)
        return gc_fail(err, GC_ERR_DATA, "%s: header has no format line", p->path);
    return GC_OK;
}

/* Reads one value of type t as a double (exact for every integer type). */
static gc_status read_value(ply_parser* p, ply_type t, const char* where, double* out, gc_error* err)
{
    if (p->format == F_ASCII) {
        int c;
        while ((c = gc_reader_peek(&p->r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
            gc_reader_get(&p->r);
        size_t n = 0;
        uint64_t line = p->r.line;
        while ((c = gc_reader_peek(&p->r)) >= 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            if (n + 1 < sizeof p->token)
                p->token[n++] = (char)c;
            gc_reader_get(&p->r);
        }
        p->token[n] = 0;
        if (n == 0)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: file ends inside %s", p->path, (unsigned long long)line, where);
        char* end;
        double v = strtod(p->token, &end);
        if (*end)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not a number (in %s)", p->path,
                           (unsigned long long)line, p->token, where);
        if (t != T_F32 && t != T_F64 && v != floor(v))
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not an integer (in %s)", p->path,
                           (unsigned long long)line, p->token, where);
        *out = v;
        return GC_OK;
    }
    unsigned char b[8];
    size_t size = type_size(t);
    uint64_t offset = gc_reader_offset(&p->r);
    for (size_t i = 0; i < size; ++i) {
        int c = gc_reader_get(&p->r);
        if (c < 0)
            return gc_fail(err, GC_ERR_DATA, "%s: byte %llu: file ends inside %s", p->path,
                           (unsigned long long)offset, where);
        b[p->format == F_LE ? i : size - 1 - i] = (unsigned char)c;
    }
    uint64_t u = 0;
    for (size_t i = size; i-- > 0;)
        u = u << 8 | b[i];
    switch (t) {
    case T_I8: *out = (int8_t)u; break;
    case T_U8: *out = (uint8_t)u; break;
    case T_I16: *out = (int16_t)u; break;
    case T_U16: *out = (uint16_t)u; break;
    case T_I32: *out = (int32_t)u; break;
    case T_U32: *out = (uint32_t)u; break;
    case T_F32: {
        uint32_t bits = (uint32_t)u;
        float f;
        memcpy(&f, &bits, 4);
        *out = f;
        break;
    }
    default: {
        double d;
        memcpy(&d, &u, 8);
        *out = d;
        break;
    }
    }
    return GC_OK;
}

gc_status gc_load_ply(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    ply_parser p;
    memset(&p, 0, sizeof p);
    p.path = path;
    gc_status s = gc_reader_open(&p.r, path, err);
    if (s)
        return s;
    size_t max = opt && opt->max_indices ? opt->max_indices : GC_MAX_INDICES;
    gc_u32_vec indices = {0};
    gc_u32_vec list = {0};
    uint64_t vertex_count = 0;
    bool have_vertices = false, have_faces = false, have_strips = false;
    s = parse_header(&p, err);
    for (int ei = 0; !s && ei < p.element_count; ++ei) {
        ply_element* e = &p.elements[ei];
        bool is_vertex = strcmp(e->name, "vertex") == 0;
        bool is_face = strcmp(e->name, "face") == 0;
        bool is_strip = strcmp(e->name, "tristrips") == 0;
        if (is_vertex) {
            have_vertices = true;
            vertex_count = e->count;
            if (vertex_count > UINT32_MAX) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: %llu vertices exceed 32-bit indices", path,
                            (unsigned long long)vertex_count);
                break;
            }
        }
        if ((is_face || is_strip) && !have_vertices) {
            s = gc_fail(err, GC_ERR_DATA, "%s: element '%s' comes before any 'vertex' element", path, e->name);
            break;
        }
        if ((is_face && have_strips) || (is_strip && have_faces)) {
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: both 'face' and 'tristrips' elements: one topology per file",
                        path);
            break;
        }
        have_faces |= is_face;
        have_strips |= is_strip;
        /* An element without properties takes no bytes: its count, however large (a fuzzed
         * file had 13e12), must not turn into a loop that reads nothing. */
        if (e->prop_count == 0)
            continue;
        for (uint64_t item = 0; !s && item < e->count; ++item) {
            for (int pi = 0; !s && pi < e->prop_count; ++pi) {
                ply_property* prop = &e->props[pi];
                char where[160];
                snprintf(where, sizeof where, "element '%s' item %llu of %llu", e->name, (unsigned long long)item,
                         (unsigned long long)e->count);
                if (prop->count_type == T_NONE) {
                    double v;
                    s = read_value(&p, prop->type, where, &v, err);
                    if (!s && is_vertex && (prop->type == T_F32 || prop->type == T_F64) && !isfinite(v) &&
                        (strcmp(prop->name, "x") == 0 || strcmp(prop->name, "y") == 0 || strcmp(prop->name, "z") == 0))
                        s = gc_fail(err, GC_ERR_DATA, "%s: vertex %llu: coordinate %s is not a finite number", path,
                                    (unsigned long long)item, prop->name);
                    continue;
                }
                double countv;
                s = read_value(&p, prop->count_type, where, &countv, err);
                if (s)
                    break;
                if (countv < 0 || countv > MAX_LIST) {
                    s = gc_fail(err, GC_ERR_DATA, "%s: %s: list length %.0f out of range [0, %u]", path, where,
                                countv, MAX_LIST);
                    break;
                }
                bool wanted = (is_face && (strcmp(prop->name, "vertex_indices") == 0 ||
                                           strcmp(prop->name, "vertex_index") == 0)) ||
                              (is_strip && strcmp(prop->name, "vertex_indices") == 0);
                list.count = 0;
                for (uint32_t k = 0; !s && k < (uint32_t)countv; ++k) {
                    double v;
                    s = read_value(&p, prop->type, where, &v, err);
                    if (s || !wanted)
                        continue;
                    if (is_strip && v == -1) {
                        if (!gc_u32_vec_push(&list, UINT32_MAX))
                            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
                        continue;
                    }
                    if (v < 0 || v >= (double)vertex_count) {
                        s = gc_fail(err, GC_ERR_DATA, "%s: %s: vertex index %.0f out of range [0, %llu)", path, where,
                                    v, (unsigned long long)vertex_count);
                        break;
                    }
                    if (!gc_u32_vec_push(&list, (uint32_t)v))
                        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
                }
                if (s || !wanted)
                    continue;
                size_t add = is_face ? (list.count >= 3 ? 3 * (list.count - 2) : 0) : list.count + 1;
                if (is_face && list.count < 3) {
                    s = gc_fail(err, GC_ERR_DATA, "%s: %s: a face needs at least 3 vertices, it has %zu", path, where,
                                list.count);
                    break;
                }
                if (indices.count + add > max) {
                    s = gc_fail(err, GC_ERR_LIMIT, "%s: %s: more than %zu indices", path, where, max);
                    break;
                }
                /* geometric growth: requesting a size that moves with the count would realloc every face */
                if (indices.count + add > indices.capacity &&
                    !gc_u32_vec_reserve(&indices, indices.count + add + indices.count / 2)) {
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
                    break;
                }
                if (is_face) {
                    for (size_t i = 1; i + 1 < list.count; ++i) {
                        indices.data[indices.count++] = list.data[0];
                        indices.data[indices.count++] = list.data[i];
                        indices.data[indices.count++] = list.data[i + 1];
                    }
                } else {
                    /* Each list is its own strip: a restart separates consecutive lists. */
                    if (indices.count > 0)
                        indices.data[indices.count++] = UINT32_MAX;
                    for (size_t i = 0; i < list.count; ++i)
                        indices.data[indices.count++] = list.data[i];
                }
            }
        }
    }
    gc_reader_close(&p.r);
    free(list.data);
    if (!s && !have_faces && !have_strips)
        s = gc_fail(err, GC_ERR_DATA, "%s: no 'face' or 'tristrips' element", path);
    if (!s && indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no indices", path);
    if (s) {
        free(indices.data);
        return s;
    }
    gc_mesh_set(out, indices.data, indices.count, true, vertex_count);
    if (have_strips) {
        out->topology = GC_TRIANGLE_STRIP;
        out->restart_enabled = 1;
    }
    return GC_OK;
}

/* ---------------------------------------------------------------- rewriting */

/* Skips one item of an element; false (err set) on bad data. */
static gc_status skip_item(ply_parser* p, const ply_element* e, gc_error* err)
{
    for (int pi = 0; pi < e->prop_count; ++pi) {
        const ply_property* prop = &e->props[pi];
        double v;
        gc_status s;
        if (prop->count_type == T_NONE) {
            if ((s = read_value(p, prop->type, e->name, &v, err)))
                return s;
            continue;
        }
        if ((s = read_value(p, prop->count_type, e->name, &v, err)))
            return s;
        if (v < 0 || v > MAX_LIST)
            return gc_fail(err, GC_ERR_DATA, "%s: element '%s': list length %.0f out of range", p->path, e->name, v);
        uint32_t length = (uint32_t)v;
        for (uint32_t k = 0; k < length; ++k)
            if ((s = read_value(p, prop->type, e->name, &v, err)))
                return s;
    }
    return GC_OK;
}

/* Copies bytes [from, to) of `in` to `out`; for ASCII, trims the leading whitespace
 * (the previous line's end) and ends with a newline. */
static bool copy_span(FILE* in, FILE* out, uint64_t from, uint64_t to, bool ascii)
{
    if (fseeko(in, (off_t)from, SEEK_SET) != 0)
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

gc_status gc_rewrite_ply(const char* in_path, const uint32_t* indices, size_t count, const uint32_t* vertex_remap,
                         gc_output* out, gc_error* err)
{
    ply_parser p;
    memset(&p, 0, sizeof p);
    p.path = in_path;
    gc_status s = gc_reader_open(&p.r, in_path, err);
    if (s)
        return s;
    s = parse_header(&p, err);
    uint64_t header_end = gc_reader_offset(&p.r);
    int face_element = -1;
    for (int ei = 0; !s && ei < p.element_count; ++ei)
        if (!strcmp(p.elements[ei].name, "face") || !strcmp(p.elements[ei].name, "tristrips")) {
            const ply_element* e = &p.elements[ei];
            if (e->prop_count != 1 || e->props[0].count_type == T_NONE)
                s = gc_fail(err, GC_ERR_UNSUPPORTED,
                            "%s: element '%s' has properties besides its vertex list; they cannot be reordered "
                            "with the triangles",
                            in_path, e->name);
            face_element = ei;
        }
    if (!s && face_element < 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no 'face' or 'tristrips' element", in_path);
    /* Byte spans: every item of the vertex element (to reorder it), and the elements
     * before and after the faces (copied as they are). */
    uint64_t* vertex_ends = NULL;
    uint64_t vertex_count = 0, vertex_start = 0, before_face_end = header_end, face_end = 0;
    int vertex_element = -1;
    for (int ei = 0; !s && ei < p.element_count; ++ei) {
        const ply_element* e = &p.elements[ei];
        bool is_vertex = !strcmp(e->name, "vertex") && ei < face_element;
        if (is_vertex && vertex_remap) {
            vertex_element = ei;
            vertex_count = e->count;
            vertex_start = gc_reader_offset(&p.r);
            vertex_ends = gc_alloc_array(e->count ? e->count : 1, sizeof(uint64_t), false);
            if (!vertex_ends) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
                break;
            }
        }
        for (uint64_t item = 0; !s && item < e->count; ++item) {
            s = skip_item(&p, e, err);
            if (is_vertex && vertex_ends)
                vertex_ends[item] = gc_reader_offset(&p.r);
        }
        if (ei == face_element - 1)
            before_face_end = gc_reader_offset(&p.r);
        if (ei == face_element)
            face_end = gc_reader_offset(&p.r);
    }
    gc_reader_close(&p.r);
    FILE* in = s ? NULL : fopen(in_path, "rb");
    if (!s && !in)
        s = gc_fail(err, GC_ERR_IO, "%s: cannot open", in_path);
    FILE* f = out->file;
    bool ascii = p.format == F_ASCII;
    if (!s) {
        /* The header, with the face element rewritten as triangles. */
        char* header = malloc((size_t)header_end + 1);
        if (!header || fseeko(in, 0, SEEK_SET) != 0 || fread(header, 1, (size_t)header_end, in) != header_end) {
            free(header);
            s = gc_fail(err, GC_ERR_IO, "%s: cannot read the header", in_path);
        } else {
            header[header_end] = 0;
            int element = -1;
            char* save = NULL;
            for (char* line = strtok_r(header, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                if (!strncmp(line, "element ", 8)) {
                    element++;
                    if (element == face_element) {
                        fprintf(f, "element face %zu\nproperty list uchar int vertex_indices\n", count / 3);
                        continue;
                    }
                }
                if (element == face_element && !strncmp(line, "property ", 9))
                    continue;
                fprintf(f, "%s\n", line);
            }
            free(header);
        }
    }
    /* Elements before the faces: as they were, the vertex element possibly reordered. */
    if (!s) {
        uint64_t at = header_end;
        if (vertex_ends) {
            if (!copy_span(in, f, at, vertex_start, ascii))
                s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
            uint64_t* order = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint64_t), false);
            if (!order)
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
            /* order[new] = old; unused vertices go last, in their old order */
            uint64_t used = 0;
            for (uint64_t v = 0; !s && v < vertex_count; ++v)
                if (vertex_remap[v] != UINT32_MAX) {
                    if (vertex_remap[v] >= vertex_count) {
                        s = gc_fail(err, GC_ERR_USAGE, "%s: vertex remap out of range", in_path);
                        break;
                    }
                    order[vertex_remap[v]] = v;
                    used++;
                }
            for (uint64_t v = 0, k = used; !s && v < vertex_count; ++v)
                if (vertex_remap[v] == UINT32_MAX)
                    order[k++] = v;
            for (uint64_t k = 0; !s && k < vertex_count; ++k) {
                uint64_t v = order[k];
                uint64_t from = v ? vertex_ends[v - 1] : vertex_start;
                if (!copy_span(in, f, from, vertex_ends[v], ascii))
                    s = gc_fail(err, GC_ERR_IO, "%s: read error", in_path);
            }
            free(order);
            at = vertex_count ? vertex_ends[vertex_count - 1] : vertex_start;
        }
        if (!s && at < before_face_end && !copy_span(in, f, at, before_face_end, ascii))
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
    (void)vertex_element;
    if (in)
        fclose(in);
    free(vertex_ends);
    return s;
}
