/* The probe library's own helpers (probe_util.c). Not installed. */
#ifndef GPUCACHE_PROBE_UTIL_H
#define GPUCACHE_PROBE_UTIL_H

#include "gpucache/gpucache.h"

#include <stdio.h>

/* As gc_fail: formats the message into *err (when not NULL) and returns code. */
gc_status gc_probe_fail(gc_error* err, gc_status code, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* fopen(path, "rb"), or stdin for "-"; the close leaves stdin open. */
FILE* gc_probe_input_open(const char* path);
void gc_probe_input_close(FILE* f);

#endif
