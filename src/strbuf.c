// SPDX-License-Identifier: MIT
/* A growable string and the JSON number format (strbuf.h). */
#include "strbuf.h"

#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void gc_sb_printf(gc_strbuf* b, const char* fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list args;
        va_start(args, fmt);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->data ? b->data + b->length : NULL, b->data ? room : 0, fmt, args);
        va_end(args);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t next = b->capacity ? b->capacity * 2 : 256;
        while (next < b->length + (size_t)n + 1)
            next *= 2;
        char* grown = realloc(b->data, next);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->capacity = next;
        if (b->length == 0)
            b->data[0] = 0;
    }
}

void gc_sb_json_open(gc_strbuf* b)
{
    gc_sb_printf(b, "{\"gpucache_version\": \"%s\", \"schema\": %d, ", GPUCACHE_VERSION_STRING,
                 GPUCACHE_JSON_SCHEMA);
}

const char* gc_json_float(char* buffer, double value)
{
    if (!isfinite(value))
        return strcpy(buffer, "null");
    int n = snprintf(buffer, JSON_FLOAT_SIZE, "%.9f", value);
    while (n > 0 && buffer[n - 1] == '0')
        buffer[--n] = 0;
    if (n > 0 && buffer[n - 1] == '.')
        buffer[--n] = 0;
    if (strcmp(buffer, "-0") == 0)
        strcpy(buffer, "0");
    return buffer;
}

void gc_sb_json_string(gc_strbuf* b, const char* s)
{
    gc_sb_printf(b, "\"");
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            gc_sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            gc_sb_printf(b, "\\u%04x", *p);
        else
            gc_sb_printf(b, "%c", *p);
    }
    gc_sb_printf(b, "\"");
}

gc_status gc_sb_write(gc_strbuf* b, FILE* f, gc_error* err)
{
    int failed = b->failed;
    if (!failed && b->data)
        fputs(b->data, f);
    free(b->data);
    b->data = NULL;
    b->length = b->capacity = 0;
    return failed ? gc_fail(err, GC_ERR_NOMEM, "out of memory writing JSON") : GC_OK;
}
