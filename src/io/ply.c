// SPDX-License-Identifier: MIT
/* PLY, ASCII and binary (little or big endian): a "face" element (lists named
 * vertex_indices or vertex_index, triangulated as fans in file order) gives a
 * triangle list; a "tristrips" element (lists with -1 restarts, as Stanford's
 * igea.ply) gives a triangle strip with restarts. Nothing is allocated from a
 * header's counts: a header that lies runs into the end of the file instead.
 *
 * The loader (gc_load_ply) and the rewriter (gc_rewrite_ply) read the header through
 * the same parse_header: the rewriter writes the header back from what that parser
 * understood (never from the raw text), so the two cannot disagree about a file: what
 * one refuses the other refuses, and a header the loader reads one way is never
 * copied out meaning something else. */
#include "ply_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
    const char* name;
    ply_type type;
} type_names[] = {{"char", T_I8},     {"uchar", T_U8},    {"short", T_I16},  {"ushort", T_U16}, {"int", T_I32},
                  {"uint", T_U32},    {"float", T_F32},   {"double", T_F64}, {"int8", T_I8},    {"uint8", T_U8},
                  {"int16", T_I16},   {"uint16", T_U16},  {"int32", T_I32},  {"uint32", T_U32}, {"float32", T_F32},
                  {"float64", T_F64}};

static ply_type parse_type(const char* s)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; ++i)
        if (strcmp(s, type_names[i].name) == 0)
            return type_names[i].type;
    return T_NONE;
}

/* The spec's own name of a type (the first of the table), for the rewritten header. */
static const char* type_name(ply_type t)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; ++i)
        if (type_names[i].type == t)
            return type_names[i].name;
    return "?";
}

size_t ply_type_size(ply_type t)
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

static bool is_integer_type(ply_type t)
{
    return t != T_F32 && t != T_F64 && t != T_NONE;
}

/* The values an integer type holds. */
static void integer_range(ply_type t, double* lo, double* hi)
{
    switch (t) {
    case T_I8: *lo = -128.0, *hi = 127.0; break;
    case T_U8: *lo = 0.0, *hi = 255.0; break;
    case T_I16: *lo = -32768.0, *hi = 32767.0; break;
    case T_U16: *lo = 0.0, *hi = 65535.0; break;
    case T_I32: *lo = -2147483648.0, *hi = 2147483647.0; break;
    default: *lo = 0.0, *hi = 4294967295.0; break;
    }
}

/* "line N" (ASCII) or "byte N" (binary): where the last value read began. */
static const char* value_place(const ply_parser* p, char* buf, size_t size)
{
    if (p->format == F_ASCII)
        snprintf(buf, size, "line %llu", (unsigned long long)p->value_line);
    else
        snprintf(buf, size, "byte %llu", (unsigned long long)p->value_offset);
    return buf;
}

/* ------------------------------------------------------------------ header */

/* Reads one header line into buf, its "\n" or "\r\n" removed; *eof when the input
 * ended before any byte of it. The header is text: a NUL or another control byte
 * (tab aside) is refused, so that no string function can see a shorter line than the
 * one read, and a line ends only at "\n" for every reader of it. */
static gc_status header_line(ply_parser* p, char* buf, size_t size, bool* eof, gc_error* err)
{
    uint64_t line = p->r.line;
    size_t n = 0;
    int c = -1;
    bool any = false;
    *eof = false;
    while ((c = gc_reader_get(&p->r)) >= 0) {
        any = true;
        if (c == '\n')
            break;
        if (n + 1 >= size)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: header line longer than %zu bytes", p->path,
                           (unsigned long long)line, size - 1);
        buf[n++] = (char)c;
    }
    if (!any) {
        *eof = true;
        buf[0] = 0;
        return GC_OK;
    }
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char ch = (unsigned char)buf[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: control byte 0x%02x in the header (a PLY header is text)",
                           p->path, (unsigned long long)line, ch);
    }
    return GC_OK;
}

/* Splits a line in place at spaces and tabs; returns the number of words, or
 * max + 1 when there are more than max. */
static int split_words(char* line, char** words, int max)
{
    int n = 0;
    char* s = line;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            return n;
        if (n == max)
            return max + 1;
        words[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = 0;
    }
}

/* A decimal count: digits only, through the one number parser (overflow refused). */
static bool parse_count(const char* s, uint64_t* out)
{
    return gc_parse_u64(s, strlen(s), 0, 0, UINT64_MAX, out) == GC_PARSE_OK;
}

/* Parses the header into p (elements, format, the vertex and face elements) and
 * checks everything about the file's structure that both the loader and the rewriter
 * rely on (whether there are faces at all is left to the caller, after the data). With
 * `echo`, writes the header as understood to it, the face (or tristrips) element
 * replaced by `echo_faces` triangles: "element face N" and one int (or uint) list. */
gc_status ply_parse_header(ply_parser* p, FILE* echo, uint64_t echo_faces, gc_error* err)
{
    char line[HEADER_LINE], copy[HEADER_LINE];
    bool eof;
    p->vertex_element = p->face_element = -1;
    if (header_line(p, line, sizeof line, &eof, err) != GC_OK || eof || strcmp(line, "ply") != 0)
        return gc_fail(err, GC_ERR_DATA, "%s:1: not a PLY file (no 'ply' magic line)", p->path);
    if (echo)
        fputs("ply\n", echo);
    bool have_format = false;
    for (;;) {
        unsigned long long at = (unsigned long long)p->r.line;
        gc_status s = header_line(p, line, sizeof line, &eof, err);
        if (s)
            return s;
        if (eof)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: header ends without 'end_header'", p->path, at);
        memcpy(copy, line, strlen(line) + 1);
        char* w[MAX_WORDS];
        int n = split_words(copy, w, MAX_WORDS);
        if (n == 0)
            continue;
        if (strcmp(w[0], "comment") == 0 || strcmp(w[0], "obj_info") == 0) {
            if (echo)
                fprintf(echo, "%s\n", line);
            continue;
        }
        if (n > MAX_WORDS)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: too many words in header line '%.200s'", p->path, at, line);
        for (int i = 0; i < n; ++i)
            if (strlen(w[i]) >= WORD_SIZE)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: word '%.40s...' longer than %d bytes", p->path, at, w[i],
                               WORD_SIZE - 1);
        if (strcmp(w[0], "end_header") == 0) {
            if (n != 1)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad end_header line '%s'", p->path, at, line);
            break;
        }
        if (strcmp(w[0], "format") == 0) {
            if (n != 3 || strcmp(w[2], "1.0") != 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: unsupported format line '%s'", p->path, at, line);
            if (have_format)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: a second format line", p->path, at);
            if (strcmp(w[1], "ascii") == 0)
                p->format = F_ASCII;
            else if (strcmp(w[1], "binary_little_endian") == 0)
                p->format = F_LE;
            else if (strcmp(w[1], "binary_big_endian") == 0)
                p->format = F_BE;
            else
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown PLY format '%s'", p->path, at, w[1]);
            have_format = true;
            if (echo)
                fprintf(echo, "format %s 1.0\n", w[1]);
        } else if (strcmp(w[0], "element") == 0) {
            if (n != 3)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad element line '%s'", p->path, at, line);
            if (p->element_count == MAX_ELEMENTS)
                return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %d elements", p->path, at, MAX_ELEMENTS);
            if (w[2][0] == '-')
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: negative element count '%s'", p->path, at, w[2]);
            uint64_t count;
            if (!parse_count(w[2], &count))
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad element count '%s'", p->path, at, w[2]);
            bool vertex = strcmp(w[1], "vertex") == 0;
            bool face = strcmp(w[1], "face") == 0, strips = strcmp(w[1], "tristrips") == 0;
            if (vertex && p->vertex_element >= 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: a second 'vertex' element", p->path, at);
            if (vertex && count > UINT32_MAX)
                return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: %llu vertices exceed 32-bit indices", p->path, at,
                               (unsigned long long)count);
            if ((face || strips) && p->face_element >= 0) {
                if (p->strips == strips)
                    return gc_fail(err, GC_ERR_DATA, "%s:%llu: a second '%s' element", p->path, at, w[1]);
                return gc_fail(err, GC_ERR_UNSUPPORTED,
                               "%s:%llu: both 'face' and 'tristrips' elements: one topology per file", p->path, at);
            }
            if ((face || strips) && p->vertex_element < 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: element '%s' comes before any 'vertex' element", p->path,
                               at, w[1]);
            ply_element* e = &p->elements[p->element_count];
            memset(e, 0, sizeof *e);
            snprintf(e->name, sizeof e->name, "%s", w[1]);
            e->count = count;
            if (vertex)
                p->vertex_element = p->element_count;
            if (face || strips) {
                p->face_element = p->element_count;
                p->strips = strips;
            }
            p->element_count++;
            /* ids above INT32_MAX need the unsigned type to read back as written */
            if (echo && (face || strips))
                fprintf(echo, "element face %llu\nproperty list uchar %s vertex_indices\n",
                        (unsigned long long)echo_faces,
                        p->elements[p->vertex_element].count > INT32_MAX ? "uint" : "int");
            else if (echo)
                fprintf(echo, "element %s %llu\n", e->name, (unsigned long long)count);
        } else if (strcmp(w[0], "property") == 0) {
            if (p->element_count == 0)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: property before any element", p->path, at);
            ply_element* e = &p->elements[p->element_count - 1];
            if (e->prop_count == MAX_PROPERTIES)
                return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %d properties", p->path, at, MAX_PROPERTIES);
            ply_property* prop = &e->props[e->prop_count];
            memset(prop, 0, sizeof *prop);
            if (n == 5 && strcmp(w[1], "list") == 0) {
                prop->count_type = parse_type(w[2]);
                prop->type = parse_type(w[3]);
                snprintf(prop->name, sizeof prop->name, "%s", w[4]);
                if (!is_integer_type(prop->count_type) || prop->type == T_NONE)
                    return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad list property '%s'", p->path, at, line);
            } else if (n == 3 && strcmp(w[1], "list") != 0) {
                prop->type = parse_type(w[1]);
                snprintf(prop->name, sizeof prop->name, "%s", w[2]);
                if (prop->type == T_NONE)
                    return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown property type '%s'", p->path, at, w[1]);
            } else {
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: bad property line '%s'", p->path, at, line);
            }
            e->prop_count++;
            /* the face element's properties are replaced by the one list written with it */
            if (echo && p->element_count - 1 != p->face_element) {
                if (prop->count_type != T_NONE)
                    fprintf(echo, "property list %s %s %s\n", type_name(prop->count_type), type_name(prop->type),
                            prop->name);
                else
                    fprintf(echo, "property %s %s\n", type_name(prop->type), prop->name);
            }
        } else {
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: unknown header keyword '%s'", p->path, at, w[0]);
        }
    }
    if (!have_format)
        return gc_fail(err, GC_ERR_DATA, "%s: header has no format line", p->path);
    if (echo)
        fputs("end_header\n", echo);
    p->header_end = gc_reader_offset(&p->r);
    return GC_OK;
}

/* ------------------------------------------------------------------ data */

/* Reads one value of type t as a double (exact for every integer type); an integer
 * type's value is checked to be an integer within the type, in ASCII as in binary. */
gc_status ply_read_value(ply_parser* p, ply_type t, const char* where, double* out, gc_error* err)
{
    if (p->format == F_ASCII) {
        int c;
        while ((c = gc_reader_peek(&p->r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
            gc_reader_get(&p->r);
        size_t n = 0, length = 0;
        uint64_t line = p->r.line;
        p->value_line = line;
        p->value_offset = gc_reader_offset(&p->r);
        while ((c = gc_reader_peek(&p->r)) >= 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            if (n + 1 < sizeof p->token)
                p->token[n++] = (char)c;
            length++;
            gc_reader_get(&p->r);
        }
        p->token[n] = 0;
        if (n == 0)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: file ends inside %s", p->path, (unsigned long long)line, where);
        /* a cut token would be read as another number */
        if (length != n)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%.20s...' is longer than %zu bytes (in %s)", p->path,
                           (unsigned long long)line, p->token, sizeof p->token - 1, where);
        char* end;
        double v = strtod(p->token, &end);
        /* a NUL inside the token would end strtod's view of it early: it is not a number */
        if (*end || strlen(p->token) != n)
            return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not a number (in %s)", p->path,
                           (unsigned long long)line, p->token, where);
        if (is_integer_type(t)) {
            double lo, hi;
            integer_range(t, &lo, &hi);
            if (v != floor(v))
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not an integer (in %s)", p->path,
                               (unsigned long long)line, p->token, where);
            if (v < lo || v > hi)
                return gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is out of range for a %s (in %s)", p->path,
                               (unsigned long long)line, p->token, type_name(t), where);
        }
        *out = v;
        return GC_OK;
    }
    unsigned char b[8];
    size_t size = ply_type_size(t);
    uint64_t offset = gc_reader_offset(&p->r);
    p->value_offset = offset;
    p->value_line = p->r.line;
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

/* A list length as read: within [0, MAX_LIST] (the count type is an integer type). */
gc_status ply_list_length(ply_parser* p, const ply_property* prop, const char* where, uint32_t* out,
                             gc_error* err)
{
    double v;
    gc_status s = ply_read_value(p, prop->count_type, where, &v, err);
    if (s)
        return s;
    if (v < 0 || v > MAX_LIST) {
        char place[48];
        return gc_fail(err, GC_ERR_DATA, "%s: %s: list length %.0f out of range [0, %u] (%s)", p->path, where, v,
                       MAX_LIST, value_place(p, place, sizeof place));
    }
    *out = (uint32_t)v;
    return GC_OK;
}

/* An index value as read (a double, whatever the list's type) to a vertex id: it
 * must be an integer in [0, vertex_count). NaN, infinities and fractions are refused
 * before any conversion (converting them to an integer is undefined behaviour, and a
 * fraction would silently become another vertex). */
static gc_status index_value(const ply_parser* p, double v, uint64_t vertex_count, const char* where, uint32_t* out,
                             gc_error* err)
{
    char place[48];
    if (!(v == floor(v)) || !isfinite(v))
        return gc_fail(err, GC_ERR_DATA, "%s: %s: vertex index %.17g is not an integer (%s)", p->path, where, v,
                       value_place(p, place, sizeof place));
    if (v < 0 || v >= (double)vertex_count)
        return gc_fail(err, GC_ERR_DATA, "%s: %s: vertex index %.17g out of range [0, %llu) (%s)", p->path, where, v,
                       (unsigned long long)vertex_count, value_place(p, place, sizeof place));
    *out = (uint32_t)v;
    return GC_OK;
}

static bool is_coordinate(const char* name)
{
    return strcmp(name, "x") == 0 || strcmp(name, "y") == 0 || strcmp(name, "z") == 0;
}

gc_status gc_load_ply(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    return gc_load_ply_from(NULL, path, opt, out, err);
}

gc_status gc_load_ply_from(gc_reader* r, const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    ply_parser p;
    memset(&p, 0, sizeof p);
    p.path = path;
    gc_status s = GC_OK;
    if (r)
        p.r = *r;
    else if ((s = gc_reader_open(&p.r, path, err)))
        return s;
    size_t max = opt && opt->max_indices ? opt->max_indices : GC_MAX_INDICES;
    gc_u32_vec indices = {0};
    gc_u32_vec list = {0};
    s = ply_parse_header(&p, NULL, 0, err);
    /* parse_header allows at most one vertex element, before the face or tristrips element */
    uint64_t vertex_count = !s && p.vertex_element >= 0 ? p.elements[p.vertex_element].count : 0;
    for (int ei = 0; !s && ei < p.element_count; ++ei) {
        ply_element* e = &p.elements[ei];
        bool is_vertex = ei == p.vertex_element;
        bool is_face = ei == p.face_element && !p.strips;
        bool is_strip = ei == p.face_element && p.strips;
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
                    s = ply_read_value(&p, prop->type, where, &v, err);
                    if (!s && is_vertex && !isfinite(v) && is_coordinate(prop->name))
                        s = gc_fail(err, GC_ERR_DATA, "%s: vertex %llu: coordinate %s is not a finite number", path,
                                    (unsigned long long)item, prop->name);
                    continue;
                }
                uint32_t length = 0;
                s = ply_list_length(&p, prop, where, &length, err);
                if (s)
                    break;
                bool wanted = (is_face && (strcmp(prop->name, "vertex_indices") == 0 ||
                                           strcmp(prop->name, "vertex_index") == 0)) ||
                              (is_strip && strcmp(prop->name, "vertex_indices") == 0);
                list.count = 0;
                for (uint32_t k = 0; !s && k < length; ++k) {
                    double v;
                    uint32_t id = 0;
                    s = ply_read_value(&p, prop->type, where, &v, err);
                    if (s || !wanted)
                        continue;
                    if (is_strip && v == -1) {
                        if (!gc_u32_vec_push(&list, UINT32_MAX))
                            s = gc_fail(err, GC_ERR_NOMEM, "%s: %s: out of memory for a list of %zu indices", path,
                                        where, list.count + 1);
                        continue;
                    }
                    if ((s = index_value(&p, v, vertex_count, where, &id, err)))
                        break;
                    if (!gc_u32_vec_push(&list, id))
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
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: %s: out of memory for %zu indices", path, where,
                                indices.count + add + indices.count / 2);
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
    /* after the data, so that a file cut short says so first */
    if (!s && p.face_element < 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no 'face' or 'tristrips' element", path);
    if (!s && indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no indices", path);
    if (s) {
        free(indices.data);
        return s;
    }
    gc_mesh_set(out, indices.data, indices.count, true, vertex_count);
    if (p.strips) {
        out->topology = GC_TRIANGLE_STRIP;
        out->restart_enabled = 1;
    }
    return GC_OK;
}
