// SPDX-License-Identifier: MIT
/* The small streaming JSON reader (RFC 8259) of the measurement and fitted-model files
 * (measurements.c; json_reader.c holds it): values are read byte by byte from a FILE, members
 * the schema does not use are checked for syntax and skipped without being stored, nesting is
 * bounded, and errors name the file, line and column. Private to src/probe/. */
#ifndef GC_PROBE_JSON_READER_H
#define GC_PROBE_JSON_READER_H

#include "../internal.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_DEPTH 256           /* nesting of skipped values */
#define MAX_KEPT_STRING ((size_t)1 << 20) /* names, topologies, the device: far below this */

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

/* A string of bounded size for values that are kept (names...). */
typedef struct text {
    char* data;
    size_t length, capacity;
} text;

void jr_advance(jreader* r);
int jr_over_limit(jreader* r);
int jr_syntax(jreader* r, const char* what);
int jr_fail_line(jreader* r, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void jr_skip_ws(jreader* r);
int jr_expect(jreader* r, int ch, const char* what);
int jr_read_string(jreader* r, text* t);
int jr_read_number(jreader* r, bool* integral, json_int_t* value, double* real);
int jr_skip_value(jreader* r, int depth);
json_t* jr_read_small(jreader* r);

#endif
