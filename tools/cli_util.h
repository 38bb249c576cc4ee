/* Small helpers of the command-line tool: a growable string and atomic file output. */
#ifndef GPUCACHE_CLI_UTIL_H
#define GPUCACHE_CLI_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* A growable string; `failed` is set (and further output dropped) on out of memory. */
typedef struct strbuf {
    char* data;
    size_t length, capacity;
    int failed;
} strbuf;

void sb_printf(strbuf* b, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends s as a JSON string literal, quotes included. */
void sb_json_string(strbuf* b, const char* s);

/* An output file written to a temporary name in the target's folder and renamed
 * on success, so that a failure never leaves a partial file nor touches an old one. */
typedef struct atomic_file {
    FILE* f;
    char target[4096];
    char temp[4096 + 32];
} atomic_file;

/* True when path ends in "." ext, case-insensitively. */
int has_ext(const char* path, const char* ext);

int atomic_open(atomic_file* af, const char* path);
/* Flushes, closes and renames; on any failure removes the temporary file. Returns 0 on success. */
int atomic_commit(atomic_file* af);
/* Drops the temporary file. */
void atomic_abort(atomic_file* af);

#endif
