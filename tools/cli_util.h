/* Small helpers of the command-line tool: a growable string and atomic file output. */
#ifndef GPUCACHE_CLI_UTIL_H
#define GPUCACHE_CLI_UTIL_H

#include "gpucache/gpucache.h"

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

/* An output file (the library's gc_atomic_file: a mkstemp temporary beside the target,
 * renamed on success), with the termination signals held from open to commit or abort
 * so that an interrupted run leaves no temporary. On failure errno is set and err holds
 * the library's one-line message ("PATH: cannot create: ..."). */
typedef struct atomic_file {
    FILE* f;
    gc_atomic_file file;
    gc_error err;
} atomic_file;

/* True when path ends in "." ext, case-insensitively. */
int has_ext(const char* path, const char* ext);

int atomic_open(atomic_file* af, const char* path);
/* Checks every write, flushes, syncs, closes and renames; on any failure removes the
 * temporary file. Returns 0 on success, -1 on failure. */
int atomic_commit(atomic_file* af);
/* Drops the temporary file. */
void atomic_abort(atomic_file* af);

/* Holds SIGINT, SIGTERM and SIGHUP (nesting) while temporaries exist; signals_child
 * restores the original mask in a child about to exec another program. */
void signals_hold(void);
void signals_release(void);
void signals_child(void);

/* gc_output_check before any work: prints the one error line and returns the exit status
 * (2 when the output is one of the inputs, 1 otherwise), 0 when the path is fine. */
int check_output(const char* path, const char* const* inputs, size_t input_count);

/* At the end of main: flushes and closes standard output; a write that failed there or
 * earlier turns a successful status into 1 with one error line. */
int finish_stdout(int status);

#endif
