// SPDX-License-Identifier: MIT
/* Error reporting, checked allocation, a growable array and a buffered reader. */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

gc_status gc_fail(gc_error* err, gc_status code, const char* fmt, ...)
{
    if (err) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
        err->code = code;
    }
    return code;
}

void* gc_alloc_array(size_t count, size_t size, bool zeroed)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    if (bytes == 0)
        bytes = 1;
    return zeroed ? calloc(1, bytes) : malloc(bytes);
}

bool gc_u32_vec_reserve(gc_u32_vec* v, size_t capacity)
{
    if (capacity <= v->capacity)
        return true;
    if (capacity > SIZE_MAX / sizeof(uint32_t))
        return false;
    uint32_t* grown = realloc(v->data, capacity * sizeof(uint32_t));
    if (!grown)
        return false;
    v->data = grown;
    v->capacity = capacity;
    return true;
}

bool gc_u32_vec_push(gc_u32_vec* v, uint32_t value)
{
    if (GC_UNLIKELY(v->count == v->capacity)) {
        /* Grow by half: peak memory during a realloc stays near 2.5x the payload. */
        size_t next = v->capacity < 1024 ? 1024 : v->capacity + v->capacity / 2;
        if (!gc_u32_vec_reserve(v, next))
            return false;
    }
    v->data[v->count++] = value;
    return true;
}

/* ---------------------------------------------------------------- reader */

#define READER_CHUNK 65536

/* "-" and "FORMAT:-": standard input for gc_mesh_load (here, below the readers and the
 * writers that all ask). */
const char* gc_stdin_format(const char* path)
{
    static const char* const forms[][2] = {{"-", ""},         {"txt:-", "txt"}, {"idx:-", "txt"},
                                           {"obj:-", "obj"}, {"ply:-", "ply"}, {"u16:-", "u16"},
                                           {"u32:-", "u32"}};
    for (size_t i = 0; path && i < sizeof forms / sizeof forms[0]; ++i)
        if (strcmp(path, forms[i][0]) == 0)
            return forms[i][1];
    return NULL;
}

FILE* gc_input_open(const char* path)
{
    return strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
}

void gc_input_close(FILE* f)
{
    if (f && f != stdin)
        fclose(f);
}

gc_status gc_reader_open(gc_reader* r, const char* path, gc_error* err)
{
    memset(r, 0, sizeof *r);
    r->what = path;
    r->line = 1;
    FILE* f;
    if (strcmp(path, "-") == 0) {
        f = stdin;
        r->what = "<stdin>";
    } else {
        f = fopen(path, "rb");
        if (!f)
            return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    r->buffer = malloc(READER_CHUNK);
    if (!r->buffer) {
        if (f != stdin)
            fclose(f);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for a read buffer of %d bytes", path, READER_CHUNK);
    }
    r->capacity = READER_CHUNK;
    r->file = f;
    return GC_OK;
}

void gc_reader_from_memory(gc_reader* r, const char* data, size_t length, const char* what)
{
    memset(r, 0, sizeof *r);
    r->what = what;
    r->line = 1;
    r->memory = data;
    r->buffer = (unsigned char*)data; /* read only: the memory reader never writes it */
    r->length = length;
    r->capacity = length;
    r->eof = true;
}

void gc_reader_close(gc_reader* r)
{
    if (!r->memory) {
        if (r->file && r->file != stdin)
            fclose(r->file);
        free(r->buffer);
    }
    memset(r, 0, sizeof *r);
}

static bool reader_fill(gc_reader* r)
{
    if (r->eof || r->error)
        return false;
    r->consumed += r->length;
    r->offset = 0;
    r->length = fread(r->buffer, 1, r->capacity, (FILE*)r->file);
    if (r->length == 0) {
        if (ferror((FILE*)r->file))
            r->error = true;
        r->eof = true;
        return false;
    }
    return true;
}

int gc_reader_peek(gc_reader* r)
{
    if (GC_UNLIKELY(r->offset >= r->length) && !reader_fill(r))
        return -1;
    return r->buffer[r->offset];
}

int gc_reader_get(gc_reader* r)
{
    if (GC_UNLIKELY(r->offset >= r->length) && !reader_fill(r))
        return -1;
    int c = r->buffer[r->offset++];
    if (c == '\n')
        r->line++;
    return c;
}

uint64_t gc_reader_offset(const gc_reader* r)
{
    return r->consumed + r->offset;
}

/* ---------------------------------------------------------------- numbers */

static bool is_digit_of(unsigned char c, unsigned base, unsigned* d)
{
    if (c >= '0' && c <= '9')
        *d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
        *d = c - 'a' + 10u;
    else if (base == 16 && c >= 'A' && c <= 'F')
        *d = c - 'A' + 10u;
    else
        return false;
    return true;
}

/* Accumulates the digits text[0 .. length) into *out, checking before each step that
 * nothing wraps. A stray character anywhere is a syntax error, even after an overflow. */
static gc_parse_result digits_u64(const char* text, size_t length, unsigned base, uint64_t* out)
{
    if (length == 0)
        return GC_PARSE_SYNTAX;
    uint64_t v = 0;
    bool overflow = false;
    for (size_t i = 0; i < length; ++i) {
        unsigned d;
        if (!is_digit_of((unsigned char)text[i], base, &d))
            return GC_PARSE_SYNTAX;
        if (overflow || v > (UINT64_MAX - d) / base)
            overflow = true;
        else
            v = v * base + d;
    }
    *out = v;
    return overflow ? GC_PARSE_RANGE : GC_PARSE_OK;
}

/* The shape of a decimal number: [-]digits[.digits][(e|E)[+-]digits]. Sets *integral
 * when it has neither a fraction nor an exponent. */
static bool decimal_shape(const char* t, size_t n, bool* integral)
{
    size_t i = 0;
    if (i < n && t[i] == '-')
        i++;
    size_t start = i;
    while (i < n && t[i] >= '0' && t[i] <= '9')
        i++;
    bool digits = i > start;
    *integral = true;
    if (i < n && t[i] == '.') {
        *integral = false;
        size_t f = ++i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        digits = digits || i > f;
    }
    if (!digits)
        return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        *integral = false;
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        size_t e = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        if (i == e)
            return false;
    }
    return i == n;
}

gc_parse_result gc_parse_u64(const char* text, size_t length, unsigned flags, uint64_t lo, uint64_t hi,
                             uint64_t* out)
{
    if (!text)
        return GC_PARSE_SYNTAX;
    const char* t = text;
    size_t n = length;
    uint64_t scale = 1;
    if ((flags & GC_PARSE_SUFFIX) && n > 0) {
        switch (t[n - 1]) {
        case 'K': case 'k': scale = (uint64_t)1 << 10; n--; break;
        case 'M': case 'm': scale = (uint64_t)1 << 20; n--; break;
        case 'G': case 'g': scale = (uint64_t)1 << 30; n--; break;
        default: break;
        }
    }
    unsigned base = 10;
    if ((flags & GC_PARSE_HEX) && n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t += 2;
        n -= 2;
    }
    uint64_t v = 0;
    gc_parse_result r = digits_u64(t, n, base, &v);
    if (r == GC_PARSE_SYNTAX) {
        bool integral;
        if (decimal_shape(text, scale == 1 ? length : length - 1, &integral) && !integral)
            return GC_PARSE_NOT_INTEGER;
        return GC_PARSE_SYNTAX;
    }
    if (r != GC_PARSE_OK || v > UINT64_MAX / scale)
        return GC_PARSE_RANGE;
    v *= scale;
    if (v < lo || v > hi)
        return GC_PARSE_RANGE;
    *out = v;
    return GC_PARSE_OK;
}

gc_parse_result gc_parse_i64(const char* text, size_t length, int64_t lo, int64_t hi, int64_t* out)
{
    if (!text)
        return GC_PARSE_SYNTAX;
    bool negative = length > 0 && text[0] == '-';
    uint64_t magnitude;
    gc_parse_result r = gc_parse_u64(text + negative, length - negative, 0, 0, UINT64_MAX, &magnitude);
    if (r == GC_PARSE_SYNTAX || r == GC_PARSE_NOT_INTEGER) {
        bool integral;
        return decimal_shape(text, length, &integral) && !integral ? GC_PARSE_NOT_INTEGER : GC_PARSE_SYNTAX;
    }
    if (r != GC_PARSE_OK)
        return GC_PARSE_RANGE;
    int64_t v;
    if (negative) {
        /* -2^63 is the one magnitude that has no positive counterpart */
        if (magnitude > (uint64_t)INT64_MAX + 1)
            return GC_PARSE_RANGE;
        v = magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)magnitude;
    } else {
        if (magnitude > (uint64_t)INT64_MAX)
            return GC_PARSE_RANGE;
        v = (int64_t)magnitude;
    }
    if (v < lo || v > hi)
        return GC_PARSE_RANGE;
    *out = v;
    return GC_PARSE_OK;
}

gc_parse_result gc_parse_double(const char* text, size_t length, double lo, double hi, double* out)
{
    bool integral;
    if (!text || !decimal_shape(text, length, &integral))
        return GC_PARSE_SYNTAX;
    /* strtod needs a terminated string; the shape check above already refused what
     * strtod would also take (blanks, "inf", "nan", hexadecimal). The C locale's '.'
     * is assumed: the library never calls setlocale. */
    char buf[128];
    if (length >= sizeof buf)
        return GC_PARSE_RANGE;
    memcpy(buf, text, length);
    buf[length] = 0;
    errno = 0;
    char* end;
    double v = strtod(buf, &end);
    if (end != buf + length)
        return GC_PARSE_SYNTAX;
    if (errno == ERANGE || !isfinite(v) || !(v >= lo && v <= hi))
        return GC_PARSE_RANGE;
    *out = v;
    return GC_PARSE_OK;
}

const char* gc_parse_result_text(gc_parse_result r)
{
    switch (r) {
    case GC_PARSE_OK: return "is a number";
    case GC_PARSE_NOT_INTEGER: return "is not a whole number";
    case GC_PARSE_RANGE: return "is out of range";
    default: return "is not a number";
    }
}

bool gc_has_extension(const char* path, const char* ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && path[n - e - 1] == '.' && strcasecmp(path + n - e, ext) == 0;
}
