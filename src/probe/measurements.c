/* Reading measurement files (see gpucache_probe.h).
 *
 * A small streaming JSON reader (RFC 8259) instead of jansson's document: jansson holds
 * every array element as a separate json_t, about 43 bytes per index of a measurement
 * file, while the cases need 4. Members the schema does not use are checked for syntax
 * and skipped without being stored; nesting is bounded. Errors name the file, line and
 * column, as jansson's did. */
#include "../internal.h"
#include "probe_util.h"
#include "gpucache/gpucache_probe.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#define MAX_DEPTH 256           /* nesting of skipped values */
#define MAX_KEPT_STRING ((size_t)1 << 20) /* names, topologies, the device: far below this */

void gc_measurements_free(gc_measurements* in)
{
    for (size_t i = 0; in->buffers && i < 3 * in->count; ++i)
        free(in->buffers[i]);
    free(in->buffers);
    free(in->cases);
    free(in->names);
    json_decref((json_t*)in->root);
    json_decref((json_t*)in->strings);
    memset(in, 0, sizeof *in);
}

/* ---------------------------------------------------------------- the reader */

typedef struct jreader {
    FILE* f;
    const char* path;
    int c;                     /* the current byte, -1 at the end */
    unsigned long line, column; /* of the current byte */
    bool failed;               /* the message is in err */
    gc_error* err;
    uint64_t limit;            /* bytes that may be read, 0: no limit */
    uint64_t bytes;            /* bytes read so far (counted only with a limit) */
    bool over;                 /* more than limit bytes: the reader stopped */
} jreader;

static void advance(jreader* r)
{
    if (r->c == '\n') {
        r->line++;
        r->column = 0;
    }
    r->c = getc(r->f);
    r->column++;
    if (r->limit && r->c >= 0 && ++r->bytes > r->limit) {
        r->over = true; /* reads as the end of the file; syntax() names the limit */
        r->c = -1;
    }
}

static int over_limit(jreader* r)
{
    r->failed = true;
    gc_probe_fail(r->err, GC_ERR_LIMIT, "%s: more than %llu bytes: too large to read", r->path,
            (unsigned long long)r->limit);
    return -1;
}

/* Sets the message (the file, line and column, what was expected and found); returns -1. */
static int syntax(jreader* r, const char* what)
{
    if (r->failed)
        return -1;
    if (r->over)
        return over_limit(r);
    r->failed = true;
    if (r->c < 0)
        gc_probe_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found the end of the file", r->path, r->line, r->column, what);
    else if (r->c >= 0x20 && r->c < 0x7f)
        gc_probe_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found '%c'", r->path, r->line, r->column, what, r->c);
    else
        gc_probe_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found byte 0x%02x", r->path, r->line, r->column, what, r->c);
    return -1;
}

/* Sets the message "PATH: " and the text (GC_ERR_NOMEM for an allocation that failed,
 * which every such message says, else GC_ERR_DATA); returns -1. */
__attribute__((format(printf, 2, 3))) static int fail_line(jreader* r, const char* fmt, ...)
{
    if (r->failed)
        return -1;
    r->failed = true;
    char text[sizeof r->err->message];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    gc_probe_fail(r->err, strstr(text, "out of memory") ? GC_ERR_NOMEM : GC_ERR_DATA, "%s: %s", r->path, text);
    return -1;
}

static void skip_ws(jreader* r)
{
    while (r->c == ' ' || r->c == '\t' || r->c == '\n' || r->c == '\r')
        advance(r);
}

static int expect(jreader* r, int ch, const char* what)
{
    skip_ws(r);
    if (r->c != ch)
        return syntax(r, what);
    advance(r);
    return 0;
}

static int literal(jreader* r, const char* word)
{
    for (const char* w = word; *w; ++w) {
        if (r->c != *w)
            return syntax(r, "invalid literal");
        advance(r);
    }
    return 0;
}

/* A string of bounded size for values that are kept (names...). */
typedef struct text {
    char* data;
    size_t length, capacity;
} text;

static int text_put(jreader* r, text* t, unsigned char b)
{
    if (!t)
        return 0;
    if (t->length + 2 > t->capacity) {
        if (t->capacity >= MAX_KEPT_STRING)
            return fail_line(r, "a string longer than %zu bytes where a name is expected", MAX_KEPT_STRING);
        size_t next = t->capacity ? 2 * t->capacity : 64;
        char* grown = realloc(t->data, next);
        if (!grown)
            return fail_line(r, "out of memory for a string of %zu bytes", next);
        t->data = grown;
        t->capacity = next;
    }
    t->data[t->length++] = (char)b;
    t->data[t->length] = 0;
    return 0;
}

static int put_utf8(jreader* r, text* t, uint32_t cp)
{
    if (cp < 0x80)
        return text_put(r, t, (unsigned char)cp);
    if (cp < 0x800)
        return text_put(r, t, (unsigned char)(0xc0 | (cp >> 6))) || text_put(r, t, (unsigned char)(0x80 | (cp & 0x3f)));
    if (cp < 0x10000)
        return text_put(r, t, (unsigned char)(0xe0 | (cp >> 12))) ||
               text_put(r, t, (unsigned char)(0x80 | ((cp >> 6) & 0x3f))) ||
               text_put(r, t, (unsigned char)(0x80 | (cp & 0x3f)));
    return text_put(r, t, (unsigned char)(0xf0 | (cp >> 18))) ||
           text_put(r, t, (unsigned char)(0x80 | ((cp >> 12) & 0x3f))) ||
           text_put(r, t, (unsigned char)(0x80 | ((cp >> 6) & 0x3f))) ||
           text_put(r, t, (unsigned char)(0x80 | (cp & 0x3f)));
}

static int hex4(jreader* r, uint32_t* out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        int c = r->c, d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return syntax(r, "invalid \\u escape");
        v = v * 16 + (uint32_t)d;
        advance(r);
    }
    *out = v;
    return 0;
}

/* C0 and C1 control characters and DEL: JSON lets a string carry them escaped, but a kept
 * string (a device, a case or a model name) is shown as it is in messages and tables, where
 * an escape sequence would drive the terminal and a newline would split the one line. */
static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/* A string at the current position ('"' expected), into t (NULL: checked and dropped).
 * Raw bytes must be valid UTF-8 without control characters, as JSON requires; a kept string
 * (t) must not hold one escaped either (is_control). */
static int read_string(jreader* r, text* t)
{
    if (r->c != '"')
        return syntax(r, "'\"' expected");
    advance(r);
    for (;;) {
        int c = r->c;
        if (c < 0)
            return syntax(r, "unterminated string");
        if (c == '"') {
            advance(r);
            return 0;
        }
        if (c < 0x20)
            return syntax(r, "control character in a string");
        if (c == '\\') {
            advance(r);
            uint32_t cp = 0;
            switch (r->c) {
            case '"': case '\\': case '/': cp = (uint32_t)r->c; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                advance(r);
                if (hex4(r, &cp))
                    return -1;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return syntax(r, "lone low surrogate in a \\u escape");
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    uint32_t low = 0;
                    if (r->c != '\\')
                        return syntax(r, "high surrogate without its low half");
                    advance(r);
                    if (r->c != 'u')
                        return syntax(r, "high surrogate without its low half");
                    advance(r);
                    if (hex4(r, &low))
                        return -1;
                    if (low < 0xdc00 || low > 0xdfff)
                        return syntax(r, "high surrogate without its low half");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                }
                if (cp == 0)
                    return syntax(r, "\\u0000 in a string");
                if (t && is_control(cp))
                    return syntax(r, "control character in a name");
                if (put_utf8(r, t, cp))
                    return -1;
                continue;
            default: return syntax(r, "invalid escape in a string");
            }
            if (t && is_control(cp))
                return syntax(r, "control character in a name");
            advance(r);
            if (text_put(r, t, (unsigned char)cp))
                return -1;
            continue;
        }
        /* UTF-8: the lead byte says how many continuation bytes follow; overlong forms,
         * surrogates and values above U+10FFFF are refused. */
        int more;
        uint32_t cp, min;
        if (c < 0x80)
            more = 0, cp = (uint32_t)c, min = 0;
        else if (c >= 0xc2 && c <= 0xdf)
            more = 1, cp = (uint32_t)c & 0x1f, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef)
            more = 2, cp = (uint32_t)c & 0x0f, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4)
            more = 3, cp = (uint32_t)c & 0x07, min = 0x10000;
        else
            return syntax(r, "invalid UTF-8 in a string");
        if (text_put(r, t, (unsigned char)c))
            return -1;
        advance(r);
        for (int i = 0; i < more; ++i) {
            if (r->c < 0x80 || r->c > 0xbf)
                return syntax(r, "invalid UTF-8 in a string");
            cp = (cp << 6) | ((uint32_t)r->c & 0x3f);
            if (text_put(r, t, (unsigned char)r->c))
                return -1;
            advance(r);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return syntax(r, "invalid UTF-8 in a string");
        if (t && is_control(cp))
            return syntax(r, "control character in a name");
    }
}

/* A number at the current position. *integral: it has no fraction or exponent and fits
 * a json_int_t (then *value holds it). */
static int read_number(jreader* r, bool* integral, json_int_t* value, double* real)
{
    char digits[64];
    size_t n = 0;
    bool negative = false, fits = true, plain = true;
    uint64_t magnitude = 0;
#define KEEP(ch) (n + 1 < sizeof digits ? (void)(digits[n++] = (char)(ch)) : (void)(plain = plain))
    if (r->c == '-') {
        negative = true;
        KEEP('-');
        advance(r);
    }
    if (r->c < '0' || r->c > '9')
        return syntax(r, "invalid number");
    if (r->c == '0') {
        KEEP('0');
        advance(r);
        if (r->c >= '0' && r->c <= '9')
            return syntax(r, "invalid number (leading zero)");
    } else {
        while (r->c >= '0' && r->c <= '9') {
            unsigned d = (unsigned)(r->c - '0');
            if (magnitude > (UINT64_MAX - d) / 10)
                fits = false;
            else
                magnitude = magnitude * 10 + d;
            KEEP(r->c);
            advance(r);
        }
    }
    if (r->c == '.') {
        plain = false;
        KEEP('.');
        advance(r);
        if (r->c < '0' || r->c > '9')
            return syntax(r, "invalid number (digits expected after '.')");
        while (r->c >= '0' && r->c <= '9') {
            KEEP(r->c);
            advance(r);
        }
    }
    if (r->c == 'e' || r->c == 'E') {
        plain = false;
        KEEP('e');
        advance(r);
        if (r->c == '+' || r->c == '-') {
            KEEP(r->c);
            advance(r);
        }
        if (r->c < '0' || r->c > '9')
            return syntax(r, "invalid number (digits expected in the exponent)");
        while (r->c >= '0' && r->c <= '9') {
            KEEP(r->c);
            advance(r);
        }
    }
#undef KEEP
    digits[n] = 0;
    *integral = plain && fits && magnitude <= (uint64_t)INT64_MAX + (negative ? 1u : 0u);
    if (*integral)
        *value = negative ? (json_int_t)(0 - magnitude) : (json_int_t)magnitude;
    if (real)
        *real = strtod(digits, NULL); /* only shown back, never used as an index */
    return 0;
}

/* Checks and drops one value. */
static int skip_value(jreader* r, int depth)
{
    skip_ws(r);
    if (depth > MAX_DEPTH)
        return syntax(r, "nested too deeply");
    switch (r->c) {
    case '"': return read_string(r, NULL);
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n': return literal(r, "null");
    case '[':
    case '{': {
        int close = r->c == '[' ? ']' : '}';
        advance(r);
        skip_ws(r);
        if (r->c == close) {
            advance(r);
            return 0;
        }
        for (;;) {
            if (close == '}') {
                skip_ws(r);
                if (read_string(r, NULL) || expect(r, ':', "':' expected"))
                    return -1;
            }
            if (skip_value(r, depth + 1))
                return -1;
            skip_ws(r);
            if (r->c == ',') {
                advance(r);
                continue;
            }
            if (r->c == close) {
                advance(r);
                return 0;
            }
            return syntax(r, close == ']' ? "',' or ']' expected" : "',' or '}' expected");
        }
    }
    default: {
        bool integral;
        json_int_t v;
        if (r->c == '-' || (r->c >= '0' && r->c <= '9'))
            return read_number(r, &integral, &v, NULL);
        return syntax(r, "a value expected");
    }
    }
}

/* A small value as a jansson value: strings, numbers, literals; an array or object is
 * checked and skipped, standing as an empty one (enough for the type checks). */
static json_t* read_small(jreader* r)
{
    skip_ws(r);
    if (r->c == '"') {
        text t = {0};
        if (read_string(r, &t)) {
            free(t.data);
            return NULL;
        }
        json_t* s = json_stringn(t.data ? t.data : "", t.length);
        free(t.data);
        if (!s)
            fail_line(r, "out of memory for a string of %zu bytes", t.length);
        return s;
    }
    json_t* v = NULL;
    if (r->c == '[' || r->c == '{') {
        bool array = r->c == '[';
        if (skip_value(r, 0))
            return NULL;
        v = array ? json_array() : json_object();
    } else if (r->c == 't' || r->c == 'f' || r->c == 'n') {
        int c = r->c;
        if (literal(r, c == 't' ? "true" : c == 'f' ? "false" : "null"))
            return NULL;
        v = c == 't' ? json_true() : c == 'f' ? json_false() : json_null();
    } else if (r->c == '-' || (r->c >= '0' && r->c <= '9')) {
        bool integral;
        json_int_t i = 0;
        double d = 0;
        if (read_number(r, &integral, &i, &d))
            return NULL;
        v = integral ? json_integer(i) : json_real(d);
    } else {
        syntax(r, "a value expected");
        return NULL;
    }
    if (!v)
        fail_line(r, "out of memory for a value");
    return v;
}

/* ---------------------------------------------------------------- the schema */

/* A growable uint32 buffer; grows by half, so the slack stays under 2 bytes an index. */
typedef struct u32buf {
    uint32_t* data;
    size_t count, capacity;
} u32buf;

static bool u32_push(u32buf* b, uint32_t v)
{
    if (b->count == b->capacity) {
        size_t next = b->capacity < 1024 ? 1024 : b->capacity + b->capacity / 2;
        if (next > SIZE_MAX / sizeof(uint32_t))
            return false;
        uint32_t* grown = realloc(b->data, next * sizeof(uint32_t));
        if (!grown)
            return false;
        b->data = grown;
        b->capacity = next;
    }
    b->data[b->count++] = v;
    return true;
}

/* The exact size, once the array is complete (never NULL for a successful read). */
static uint32_t* u32_finish(u32buf* b)
{
    uint32_t* fitted = realloc(b->data, (b->count ? b->count : 1) * sizeof(uint32_t));
    if (fitted)
        b->data = fitted;
    uint32_t* out = b->data;
    b->data = NULL;
    return out;
}

/* A value that must be an integer in [0, 2^32): *ok is false for anything else (which
 * is still read, so that the error can name the element). */
static int read_u32(jreader* r, uint32_t* out, bool* ok)
{
    skip_ws(r);
    *ok = false;
    if (r->c == '-' || (r->c >= '0' && r->c <= '9')) {
        bool integral;
        json_int_t v = 0;
        if (read_number(r, &integral, &v, NULL))
            return -1;
        if (integral && v >= 0 && v <= (json_int_t)UINT32_MAX) {
            *out = (uint32_t)v;
            *ok = true;
        }
        return 0;
    }
    return skip_value(r, 0);
}

/* Calls element(r, user, k) for each element of the array at the current position. */
typedef int (*element_fn)(jreader* r, void* user, size_t k);

static int read_array(jreader* r, element_fn element, void* user)
{
    if (expect(r, '[', "'[' expected"))
        return -1;
    skip_ws(r);
    if (r->c == ']') {
        advance(r);
        return 0;
    }
    for (size_t k = 0;; ++k) {
        if (element(r, user, k))
            return -1;
        skip_ws(r);
        if (r->c == ',') {
            advance(r);
            continue;
        }
        if (r->c == ']') {
            advance(r);
            return 0;
        }
        return syntax(r, "',' or ']' expected");
    }
}

typedef struct case_reader {
    size_t index; /* of the case */
    u32buf indices, values, counts;
    bool have_indices, have_per_vertex, per_vertex_null;
} case_reader;

static int index_element(jreader* r, void* user, size_t k)
{
    case_reader* cr = user;
    uint32_t v = 0;
    bool ok;
    if (read_u32(r, &v, &ok))
        return -1;
    if (!ok)
        return fail_line(r, "case %zu: index %zu is not a 32-bit unsigned integer", cr->index, k);
    if (k >= GC_MAX_INDICES)
        return fail_line(r, "case %zu: more than %zu indices", cr->index, GC_MAX_INDICES);
    if (!u32_push(&cr->indices, v))
        return fail_line(r, "case %zu: out of memory for %zu indices", cr->index, k + 1);
    return 0;
}

typedef struct pair_reader {
    case_reader* cr;
    size_t row, items;
    uint32_t pair[2];
    bool ok;
} pair_reader;

static int pair_element(jreader* r, void* user, size_t k)
{
    pair_reader* pr = user;
    bool ok = false;
    if (k < 2) {
        if (read_u32(r, &pr->pair[k], &ok))
            return -1;
    } else if (skip_value(r, 0)) {
        return -1;
    }
    pr->ok = pr->ok && ok;
    pr->items = k + 1;
    return 0;
}

static int per_vertex_row(jreader* r, void* user, size_t k)
{
    case_reader* cr = user;
    pair_reader pr = {cr, k, 0, {0, 0}, true};
    skip_ws(r);
    int bad = r->c != '[';
    if (bad ? skip_value(r, 0) : read_array(r, pair_element, &pr))
        return -1;
    if (bad || !pr.ok || pr.items != 2 || (k && pr.pair[0] <= cr->values.data[k - 1]))
        return fail_line(r,
                         "case %zu: per_vertex row %zu is not an [index, count] pair in ascending index order",
                         cr->index, k);
    if (!u32_push(&cr->values, pr.pair[0]) || !u32_push(&cr->counts, pr.pair[1]))
        return fail_line(r, "case %zu: out of memory for %zu per_vertex rows", cr->index, k + 1);
    return 0;
}

static int bad(jreader* r, size_t i, const char* what)
{
    gc_probe_fail(r->err, GC_ERR_DATA, "%s: case %zu: %s", r->path, i, what);
    return -1;
}

/* Room for one more case: arrays grow by half. */
static int add_case(jreader* r, gc_measurements* in, size_t* capacity)
{
    if (in->count == *capacity) {
        size_t next = *capacity < 16 ? 16 : *capacity + *capacity / 2;
        gc_fit_case* cases = realloc(in->cases, next * sizeof *cases);
        if (cases)
            in->cases = cases;
        const char** names = realloc(in->names, next * sizeof *names);
        if (names)
            in->names = names;
        uint32_t** buffers = next > SIZE_MAX / 3 / sizeof *buffers ? NULL : realloc(in->buffers, 3 * next * sizeof *buffers);
        if (buffers)
            in->buffers = buffers;
        if (!cases || !names || !buffers)
            return fail_line(r, "out of memory for a list of %zu cases", next);
        *capacity = next;
    }
    memset(&in->cases[in->count], 0, sizeof in->cases[0]);
    in->names[in->count] = "(unnamed)";
    in->buffers[3 * in->count] = in->buffers[3 * in->count + 1] = in->buffers[3 * in->count + 2] = NULL;
    in->count++;
    return 0;
}

/* One case object, read and then checked (in the order the checks always had). */
static int read_case(jreader* r, gc_measurements* in, size_t i)
{
    skip_ws(r);
    if (r->c != '{') {
        if (skip_value(r, 0))
            return -1;
        r->failed = true;
        return bad(r, i, "not an object");
    }
    advance(r);
    case_reader cr = {0};
    cr.index = i;
    json_t* fields = json_object(); /* the case's small members: name, topology, restart, invocations */
    int status = fields ? 0 : fail_line(r, "out of memory reading case %zu", i);
    skip_ws(r);
    if (!status && r->c == '}') {
        advance(r);
    } else {
        while (!status) {
            text key = {0};
            skip_ws(r);
            if (read_string(r, &key) || expect(r, ':', "':' expected")) {
                free(key.data);
                status = -1;
                break;
            }
            const char* k = key.data ? key.data : "";
            if (!strcmp(k, "indices")) {
                skip_ws(r);
                cr.indices.count = 0; /* a repeated member replaces the earlier one */
                cr.have_indices = r->c == '[';
                status = cr.have_indices ? read_array(r, index_element, &cr) : skip_value(r, 0);
            } else if (!strcmp(k, "per_vertex")) {
                skip_ws(r);
                cr.values.count = cr.counts.count = 0;
                cr.have_per_vertex = true;
                cr.per_vertex_null = r->c == 'n';
                if (r->c == '[')
                    status = read_array(r, per_vertex_row, &cr);
                else if ((status = skip_value(r, 0)) == 0 && !cr.per_vertex_null) {
                    r->failed = true;
                    status = bad(r, i, "\"per_vertex\" is not an array of [index, count] pairs");
                }
            } else if (!strcmp(k, "name") || !strcmp(k, "topology") || !strcmp(k, "restart") ||
                       !strcmp(k, "invocations")) {
                json_t* v = read_small(r);
                status = v ? json_object_set_new(fields, k, v) : -1;
            } else {
                status = skip_value(r, 0);
            }
            free(key.data);
            if (status)
                break;
            skip_ws(r);
            if (r->c == ',') {
                advance(r);
                continue;
            }
            if (r->c == '}') {
                advance(r);
                break;
            }
            status = syntax(r, "',' or '}' expected");
        }
    }
    gc_fit_case* fc = &in->cases[i];
    gc_error err;
    if (!status) {
        json_t* name = json_object_get(fields, "name");
        if (json_is_string(name) && json_array_append((json_t*)in->strings, name) == 0)
            in->names[i] = json_string_value(name);
        json_t* topo = json_object_get(fields, "topology");
        json_t* restart = json_object_get(fields, "restart");
        json_t* inv = json_object_get(fields, "invocations");
        if (!json_is_string(topo) || gc_topology_parse(json_string_value(topo), &fc->draw.topology, &err)) {
            status = bad(r, i, "missing or unknown \"topology\"");
        } else if (restart && !json_is_null(restart) &&
                   (!json_is_integer(restart) || json_integer_value(restart) < 0 ||
                    json_integer_value(restart) > (json_int_t)UINT32_MAX)) {
            status = bad(r, i, "\"restart\" is not a 32-bit index value or null");
        } else if (!cr.have_indices) {
            status = bad(r, i, "missing \"indices\" array");
        } else {
            if (restart && !json_is_null(restart)) {
                fc->draw.restart_value = (uint32_t)json_integer_value(restart);
                fc->draw.restart_enabled = 1;
            }
            fc->draw.index_count = cr.indices.count;
            in->buffers[3 * i] = u32_finish(&cr.indices);
            fc->draw.indices = in->buffers[3 * i];
            char what[64];
            snprintf(what, sizeof what, "case %zu", i);
            uint64_t prims;
            if (gc_draw_validate(&fc->draw, what, &prims, &err)) {
                gc_probe_fail(r->err, GC_ERR_DATA, "%s: %s", r->path, err.message);
                status = -1;
            } else if (!json_is_integer(inv) || json_integer_value(inv) < 0) {
                status = bad(r, i, "missing \"invocations\"");
            } else {
                fc->invocations = (uint64_t)json_integer_value(inv);
                if (cr.have_per_vertex && !cr.per_vertex_null) {
                    fc->count = cr.values.count;
                    in->buffers[3 * i + 1] = u32_finish(&cr.values);
                    in->buffers[3 * i + 2] = u32_finish(&cr.counts);
                    fc->values = in->buffers[3 * i + 1];
                    fc->counts = in->buffers[3 * i + 2];
                }
            }
        }
        if (status)
            r->failed = true;
    }
    free(cr.indices.data);
    free(cr.values.data);
    free(cr.counts.data);
    json_decref(fields);
    return status ? -1 : 0;
}

/* The cases array, through read_array: each element is a case. */
typedef struct cases_reader {
    gc_measurements* in;
    size_t capacity;
} cases_reader;

static int case_element(jreader* r, void* user, size_t k)
{
    cases_reader* c = user;
    (void)k; /* the cases are counted in in->count, which add_case advances */
    return add_case(r, c->in, &c->capacity) || read_case(r, c->in, c->in->count - 1) ? -1 : 0;
}

static int read_cases(jreader* r, gc_measurements* in)
{
    cases_reader c = {in, 0};
    return read_array(r, case_element, &c);
}

/* The document: an object whose "cases" are read as they come; of the other members
 * only "device" is kept. */
static int read_document(jreader* r, gc_measurements* in, bool* have_cases)
{
    skip_ws(r);
    if (r->c != '{') {
        if (skip_value(r, 0))
            return -1;
        *have_cases = false;
    } else {
        advance(r);
        skip_ws(r);
        if (r->c == '}') {
            advance(r);
        } else {
            for (;;) {
                text key = {0};
                skip_ws(r);
                int status = read_string(r, &key) || expect(r, ':', "':' expected") ? -1 : 0;
                const char* k = key.data ? key.data : "";
                if (!status) {
                    skip_ws(r);
                    if (!strcmp(k, "cases") && r->c == '[' && !*have_cases) {
                        *have_cases = true;
                        status = read_cases(r, in);
                    } else if (!strcmp(k, "device")) {
                        json_t* v = read_small(r);
                        status = v ? json_object_set_new((json_t*)in->root, "device", v) : -1;
                    } else {
                        status = skip_value(r, 0);
                    }
                }
                free(key.data);
                if (status)
                    return -1;
                skip_ws(r);
                if (r->c == ',') {
                    advance(r);
                    continue;
                }
                if (r->c == '}') {
                    advance(r);
                    break;
                }
                return syntax(r, "',' or '}' expected");
            }
        }
    }
    skip_ws(r);
    if (r->c >= 0)
        return syntax(r, "the end of the file expected");
    if (ferror(r->f)) {
        r->failed = true;
        gc_probe_fail(r->err, GC_ERR_IO, "%s: read error", r->path);
        return -1;
    }
    return 0;
}

gc_status gc_measurements_load(const char* path, gc_measurements* in, gc_error* e)
{
    memset(in, 0, sizeof *in);
    FILE* f = gc_probe_input_open(path);
    if (!f)
        return gc_probe_fail(e, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    in->root = json_object();
    in->strings = json_array();
    if (!in->root || !in->strings) {
        gc_probe_input_close(f);
        return gc_probe_fail(e, GC_ERR_NOMEM, "%s: out of memory for the document's top level", path);
    }
    jreader r = {.f = f, .path = path, .line = 1, .err = e};
    r.c = getc(f);
    r.column = 1;
    bool have_cases = false;
    int status = read_document(&r, in, &have_cases);
    gc_probe_input_close(f);
    if (status)
        return e ? e->code : GC_ERR_DATA;
    if (!have_cases)
        return gc_probe_fail(e, GC_ERR_DATA,
                       "%s: not a measurement file (no \"cases\" array; write one with probe --suite)", path);
    if (in->count == 0)
        return gc_probe_fail(e, GC_ERR_DATA, "%s: no cases", path);
    json_t* device = json_object_get((json_t*)in->root, "device");
    in->device = json_is_string(device) ? json_string_value(device) : NULL;
    return GC_OK;
}

/* ------------------------------------------------------------ fitted models */

/* Calls member(r, user, key) for each member of the object at the current position, the
 * reader on the member's value. */
typedef int (*member_fn)(jreader* r, void* user, const char* key);

static int read_object(jreader* r, member_fn member, void* user)
{
    if (expect(r, '{', "'{' expected"))
        return -1;
    skip_ws(r);
    if (r->c == '}') {
        advance(r);
        return 0;
    }
    for (;;) {
        text key = {0};
        skip_ws(r);
        int status = read_string(r, &key) || expect(r, ':', "':' expected") ? -1 : 0;
        if (!status) {
            skip_ws(r);
            status = member(r, user, key.data ? key.data : "");
        }
        free(key.data);
        if (status)
            return -1;
        skip_ws(r);
        if (r->c == ',') {
            advance(r);
            continue;
        }
        if (r->c == '}') {
            advance(r);
            return 0;
        }
        return syntax(r, "',' or '}' expected");
    }
}

/* What a fit result holds that gc_model_load_fitted uses: the first candidate of "best". */
typedef struct fitted_reader {
    bool have_best;           /* a "best" array was read */
    size_t candidates;        /* its elements */
    bool first_is_object;
    unsigned long line, column; /* where the first candidate starts */
    text model, family;       /* its "model" and "family" strings, when they are strings */
    bool have_model, have_family;
} fitted_reader;

static int candidate_member(jreader* r, void* user, const char* key)
{
    fitted_reader* fr = user;
    if (!strcmp(key, "model") && r->c == '"' && !fr->have_model) {
        fr->have_model = true;
        return read_string(r, &fr->model);
    }
    if (!strcmp(key, "family") && r->c == '"' && !fr->have_family) {
        fr->have_family = true;
        return read_string(r, &fr->family);
    }
    return skip_value(r, 0);
}

static int candidate_element(jreader* r, void* user, size_t k)
{
    fitted_reader* fr = user;
    fr->candidates = k + 1;
    skip_ws(r);
    if (k == 0) {
        fr->line = r->line;
        fr->column = r->column;
        fr->first_is_object = r->c == '{';
    }
    if (k > 0 || r->c != '{')
        return skip_value(r, 0);
    return read_object(r, candidate_member, fr);
}

static int fitted_member(jreader* r, void* user, const char* key)
{
    fitted_reader* fr = user;
    if (!strcmp(key, "best") && r->c == '[' && !fr->have_best) {
        fr->have_best = true;
        return read_array(r, candidate_element, fr);
    }
    return skip_value(r, 0);
}

static int read_fitted(jreader* r, fitted_reader* fr)
{
    skip_ws(r);
    if ((r->c == '{' ? read_object(r, fitted_member, fr) : skip_value(r, 0)))
        return -1;
    skip_ws(r);
    if (r->c >= 0)
        return syntax(r, "the end of the file expected");
    if (r->over)
        return over_limit(r);
    if (ferror(r->f)) {
        r->failed = true;
        gc_probe_fail(r->err, GC_ERR_IO, "%s: read error", r->path);
        return -1;
    }
    return 0;
}

gc_status gc_model_load_fitted(const char* path, gc_model* out, gc_error* e)
{
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return gc_probe_fail(e, GC_ERR_USAGE, "no fit result file given");
    FILE* f = gc_probe_input_open(path);
    if (!f)
        return gc_probe_fail(e, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    jreader r = {.f = f, .path = path, .line = 1, .err = e, .limit = GC_FITTED_MAX_BYTES};
    r.c = getc(f);
    r.column = 1;
    if (r.c >= 0)
        r.bytes = 1;
    fitted_reader fr;
    memset(&fr, 0, sizeof fr);
    int status = read_fitted(&r, &fr);
    gc_probe_input_close(f);
    gc_status s = GC_OK;
    if (status)
        s = e ? e->code : GC_ERR_DATA;
    else if (!fr.have_best)
        s = gc_probe_fail(e, GC_ERR_DATA,
                    "%s: not a fit result (no \"best\" array; write one with 'gpucache fit --json')", path);
    else if (fr.candidates == 0)
        s = gc_probe_fail(e, GC_ERR_DATA, "%s: the fit result has no candidates (\"best\" is empty)", path);
    else if (!fr.first_is_object)
        s = gc_probe_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best candidate (\"best\"[0]) is not an object: not a fit result",
                    path, fr.line, fr.column);
    else if (!fr.have_model)
        s = gc_probe_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best candidate has no \"model\" string: not a fit result", path,
                    fr.line, fr.column);
    if (!s) {
        gc_error parse_err = {0};
        const char* spec = fr.model.data ? fr.model.data : "";
        if (gc_model_parse(spec, out, &parse_err)) {
            s = gc_probe_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best model does not parse: %s", path, fr.line, fr.column,
                        parse_err.message);
        } else if (fr.have_family && strcmp(fr.family.data ? fr.family.data : "", gc_model_family_name(out->family))) {
            s = gc_probe_fail(e, GC_ERR_DATA,
                        "%s:%lu:%lu: the best model '%s' is a %s model, but its \"family\" says '%.100s'", path,
                        fr.line, fr.column, out->name, gc_model_family_name(out->family),
                        fr.family.data ? fr.family.data : "");
        }
    }
    free(fr.model.data);
    free(fr.family.data);
    if (s)
        memset(out, 0, sizeof *out);
    return s;
}
