// SPDX-License-Identifier: MIT
/* The streaming JSON reader of the measurement files (json_reader.h, measurements.c):
 * jansson's document would hold every array element as a separate json_t, about 43 bytes per
 * index of a measurement file, while the cases need 4. */
#include "../internal.h"
#include "json_reader.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* ---------------------------------------------------------------- the reader */

void jr_advance(jreader* r)
{
    if (r->c == '\n') {
        r->line++;
        r->column = 0;
    }
    r->c = getc(r->f);
    r->column++;
    if (r->limit && r->c >= 0 && ++r->bytes > r->limit) {
        r->over = true; /* reads as the end of the file; jr_syntax() names the limit */
        r->c = -1;
    }
}

int jr_over_limit(jreader* r)
{
    r->failed = true;
    gc_fail(r->err, GC_ERR_LIMIT, "%s: more than %llu bytes: too large to read", r->path,
            (unsigned long long)r->limit);
    return -1;
}

/* Sets the message (the file, line and column, what was expected and found); returns -1. */
int jr_syntax(jreader* r, const char* what)
{
    if (r->failed)
        return -1;
    if (r->over)
        return jr_over_limit(r);
    r->failed = true;
    if (r->c < 0)
        gc_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found the end of the file", r->path, r->line, r->column, what);
    else if (r->c >= 0x20 && r->c < 0x7f)
        gc_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found '%c'", r->path, r->line, r->column, what, r->c);
    else
        gc_fail(r->err, GC_ERR_DATA, "%s:%lu:%lu: %s, found byte 0x%02x", r->path, r->line, r->column, what, r->c);
    return -1;
}

/* Sets the message "PATH: " and the text (GC_ERR_NOMEM for an allocation that failed,
 * which every such message says, else GC_ERR_DATA); returns -1. */
__attribute__((format(printf, 2, 3))) int jr_fail_line(jreader* r, const char* fmt, ...)
{
    if (r->failed)
        return -1;
    r->failed = true;
    char text[sizeof r->err->message];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    gc_fail(r->err, strstr(text, "out of memory") ? GC_ERR_NOMEM : GC_ERR_DATA, "%s: %s", r->path, text);
    return -1;
}

void jr_skip_ws(jreader* r)
{
    while (r->c == ' ' || r->c == '\t' || r->c == '\n' || r->c == '\r')
        jr_advance(r);
}

int jr_expect(jreader* r, int ch, const char* what)
{
    jr_skip_ws(r);
    if (r->c != ch)
        return jr_syntax(r, what);
    jr_advance(r);
    return 0;
}

static int literal(jreader* r, const char* word)
{
    for (const char* w = word; *w; ++w) {
        if (r->c != *w)
            return jr_syntax(r, "invalid literal");
        jr_advance(r);
    }
    return 0;
}

static int text_put(jreader* r, text* t, unsigned char b)
{
    if (!t)
        return 0;
    if (t->length + 2 > t->capacity) {
        if (t->capacity >= MAX_KEPT_STRING)
            return jr_fail_line(r, "a string longer than %zu bytes where a name is expected", MAX_KEPT_STRING);
        size_t next = t->capacity ? 2 * t->capacity : 64;
        char* grown = realloc(t->data, next);
        if (!grown)
            return jr_fail_line(r, "out of memory for a string of %zu bytes", next);
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
            return jr_syntax(r, "invalid \\u escape");
        v = v * 16 + (uint32_t)d;
        jr_advance(r);
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
int jr_read_string(jreader* r, text* t)
{
    if (r->c != '"')
        return jr_syntax(r, "'\"' expected");
    jr_advance(r);
    for (;;) {
        int c = r->c;
        if (c < 0)
            return jr_syntax(r, "unterminated string");
        if (c == '"') {
            jr_advance(r);
            return 0;
        }
        if (c < 0x20)
            return jr_syntax(r, "control character in a string");
        if (c == '\\') {
            jr_advance(r);
            uint32_t cp = 0;
            switch (r->c) {
            case '"': case '\\': case '/': cp = (uint32_t)r->c; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                jr_advance(r);
                if (hex4(r, &cp))
                    return -1;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return jr_syntax(r, "lone low surrogate in a \\u escape");
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    uint32_t low = 0;
                    if (r->c != '\\')
                        return jr_syntax(r, "high surrogate without its low half");
                    jr_advance(r);
                    if (r->c != 'u')
                        return jr_syntax(r, "high surrogate without its low half");
                    jr_advance(r);
                    if (hex4(r, &low))
                        return -1;
                    if (low < 0xdc00 || low > 0xdfff)
                        return jr_syntax(r, "high surrogate without its low half");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                }
                if (cp == 0)
                    return jr_syntax(r, "\\u0000 in a string");
                if (t && is_control(cp))
                    return jr_syntax(r, "control character in a name");
                if (put_utf8(r, t, cp))
                    return -1;
                continue;
            default: return jr_syntax(r, "invalid escape in a string");
            }
            if (t && is_control(cp))
                return jr_syntax(r, "control character in a name");
            jr_advance(r);
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
            return jr_syntax(r, "invalid UTF-8 in a string");
        if (text_put(r, t, (unsigned char)c))
            return -1;
        jr_advance(r);
        for (int i = 0; i < more; ++i) {
            if (r->c < 0x80 || r->c > 0xbf)
                return jr_syntax(r, "invalid UTF-8 in a string");
            cp = (cp << 6) | ((uint32_t)r->c & 0x3f);
            if (text_put(r, t, (unsigned char)r->c))
                return -1;
            jr_advance(r);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return jr_syntax(r, "invalid UTF-8 in a string");
        if (t && is_control(cp))
            return jr_syntax(r, "control character in a name");
    }
}

/* A number at the current position. *integral: it has no fraction or exponent and fits
 * a json_int_t (then *value holds it). */
int jr_read_number(jreader* r, bool* integral, json_int_t* value, double* real)
{
    char digits[64];
    size_t n = 0;
    bool negative = false, fits = true, plain = true;
    uint64_t magnitude = 0;
#define KEEP(ch) (n + 1 < sizeof digits ? (void)(digits[n++] = (char)(ch)) : (void)(plain = plain))
    if (r->c == '-') {
        negative = true;
        KEEP('-');
        jr_advance(r);
    }
    if (r->c < '0' || r->c > '9')
        return jr_syntax(r, "invalid number");
    if (r->c == '0') {
        KEEP('0');
        jr_advance(r);
        if (r->c >= '0' && r->c <= '9')
            return jr_syntax(r, "invalid number (leading zero)");
    } else {
        while (r->c >= '0' && r->c <= '9') {
            unsigned d = (unsigned)(r->c - '0');
            if (magnitude > (UINT64_MAX - d) / 10)
                fits = false;
            else
                magnitude = magnitude * 10 + d;
            KEEP(r->c);
            jr_advance(r);
        }
    }
    if (r->c == '.') {
        plain = false;
        KEEP('.');
        jr_advance(r);
        if (r->c < '0' || r->c > '9')
            return jr_syntax(r, "invalid number (digits expected after '.')");
        while (r->c >= '0' && r->c <= '9') {
            KEEP(r->c);
            jr_advance(r);
        }
    }
    if (r->c == 'e' || r->c == 'E') {
        plain = false;
        KEEP('e');
        jr_advance(r);
        if (r->c == '+' || r->c == '-') {
            KEEP(r->c);
            jr_advance(r);
        }
        if (r->c < '0' || r->c > '9')
            return jr_syntax(r, "invalid number (digits expected in the exponent)");
        while (r->c >= '0' && r->c <= '9') {
            KEEP(r->c);
            jr_advance(r);
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
int jr_skip_value(jreader* r, int depth)
{
    jr_skip_ws(r);
    if (depth > MAX_DEPTH)
        return jr_syntax(r, "nested too deeply");
    switch (r->c) {
    case '"': return jr_read_string(r, NULL);
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n': return literal(r, "null");
    case '[':
    case '{': {
        int close = r->c == '[' ? ']' : '}';
        jr_advance(r);
        jr_skip_ws(r);
        if (r->c == close) {
            jr_advance(r);
            return 0;
        }
        for (;;) {
            if (close == '}') {
                jr_skip_ws(r);
                if (jr_read_string(r, NULL) || jr_expect(r, ':', "':' expected"))
                    return -1;
            }
            if (jr_skip_value(r, depth + 1))
                return -1;
            jr_skip_ws(r);
            if (r->c == ',') {
                jr_advance(r);
                continue;
            }
            if (r->c == close) {
                jr_advance(r);
                return 0;
            }
            return jr_syntax(r, close == ']' ? "',' or ']' expected" : "',' or '}' expected");
        }
    }
    default: {
        bool integral;
        json_int_t v;
        if (r->c == '-' || (r->c >= '0' && r->c <= '9'))
            return jr_read_number(r, &integral, &v, NULL);
        return jr_syntax(r, "a value expected");
    }
    }
}

/* A small value as a jansson value: strings, numbers, literals; an array or object is
 * checked and skipped, standing as an empty one (enough for the type checks). */
json_t* jr_read_small(jreader* r)
{
    jr_skip_ws(r);
    if (r->c == '"') {
        text t = {0};
        if (jr_read_string(r, &t)) {
            free(t.data);
            return NULL;
        }
        json_t* s = json_stringn(t.data ? t.data : "", t.length);
        free(t.data);
        if (!s)
            jr_fail_line(r, "out of memory for a string of %zu bytes", t.length);
        return s;
    }
    json_t* v = NULL;
    if (r->c == '[' || r->c == '{') {
        bool array = r->c == '[';
        if (jr_skip_value(r, 0))
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
        if (jr_read_number(r, &integral, &i, &d))
            return NULL;
        v = integral ? json_integer(i) : json_real(d);
    } else {
        jr_syntax(r, "a value expected");
        return NULL;
    }
    if (!v)
        jr_fail_line(r, "out of memory for a value");
    return v;
}
