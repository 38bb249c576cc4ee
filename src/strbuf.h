// SPDX-License-Identifier: MIT
/* A growable string and the one format of the JSON documents gpucache writes (strbuf.c):
 * the library's text and JSON writers (memsys, fit, probe reports) and the gpucache tool
 * build their documents with it. Not installed. */
#ifndef GPUCACHE_STRBUF_H
#define GPUCACHE_STRBUF_H

#include "gpucache/gpucache.h"

#include <stddef.h>
#include <stdio.h>

/* A growable string; `failed` is set (and further output dropped) on out of memory. */
typedef struct gc_strbuf {
    char* data;
    size_t length, capacity;
    int failed;
} gc_strbuf;

void gc_sb_printf(gc_strbuf* b, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Every JSON document gpucache writes starts with these two fields (docs/json.md): the
 * version that wrote it and the schema number, raised only when a field changes meaning
 * or goes away (fields are only ever added within one schema). */
#define GPUCACHE_JSON_SCHEMA 1
/* Opens a JSON document: appends '{', the version and the schema fields, and ", ". */
void gc_sb_json_open(gc_strbuf* b);
/* The one format of every floating-point number in the JSON: fixed-point with up to nine
 * decimals, trailing zeros dropped ("1", "0.5", "1.333333333", "0.00003357"), never an
 * exponent, so that a pattern like [0-9.]* takes the whole number; "null" for a value
 * that is not finite. Use JSON_FLOAT in the format and JF(x) as its argument. */
#define JSON_FLOAT "%s"
#define JSON_FLOAT_SIZE 330 /* the largest double: 309 digits, the point, 9 decimals */
const char* gc_json_float(char* buffer, double value);
#define JF(x) gc_json_float((char[JSON_FLOAT_SIZE]){0}, (x))
/* Appends s as a JSON string literal, quotes included. */
void gc_sb_json_string(gc_strbuf* b, const char* s);
/* Writes the finished document to f and frees it: GC_ERR_NOMEM ("out of memory writing
 * JSON", nothing written) when memory ran out while it was built. */
gc_status gc_sb_write(gc_strbuf* b, FILE* f, gc_error* err);

#endif
