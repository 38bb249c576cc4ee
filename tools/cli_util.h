// SPDX-License-Identifier: MIT
/* Small helpers of the command-line tool: atomic file output, standard output. */
#ifndef GPUCACHE_CLI_UTIL_H
#define GPUCACHE_CLI_UTIL_H

#include "gpucache_private.h"
#include "../src/strbuf.h" /* the library's growable string and JSON */

#include <stddef.h>
#include <stdio.h>

/* An output file (the library's gc_atomic_file: a mkstemp temporary beside the target,
 * renamed on success), with the termination signals held from open to commit or abort
 * so that an interrupted run leaves no temporary. On failure errno is set and err holds
 * the library's one-line message ("PATH: cannot create: ..."). */
typedef struct atomic_file {
    FILE* f;
    gc_atomic_file file;
    gc_error err;
    int to_stdout; /* the path was "-": f is standard output, nothing to rename */
} atomic_file;

/* True for "-", which names standard output as an output and standard input as an input. */
int is_stdio_path(const char* path);

/* True when path ends in "." ext, case-insensitively. */
int has_ext(const char* path, const char* ext);

int atomic_open(atomic_file* af, const char* path);
/* Checks every write, flushes, syncs, closes and renames; on any failure removes the
 * temporary file. Returns 0 on success, -1 on failure. */
int atomic_commit(atomic_file* af);
/* Drops the temporary file. */
void atomic_abort(atomic_file* af);

/* atomic_open and atomic_commit printing "gpucache: PATH: cannot create: REASON" or
 * "...: write failed: REASON" and returning EXIT_DATA on failure, else 0. */
int output_open(atomic_file* af, const char* path);
int output_commit(atomic_file* af, const char* path);

/* Holds SIGINT, SIGTERM and SIGHUP (nesting) while temporaries exist. */
void signals_hold(void);
void signals_release(void);

/* gc_output_check before any work: prints the one error line and returns the exit status
 * (2 when the output is one of the inputs, 1 otherwise), 0 when the path is fine. For "-"
 * it claims standard output for that output's data (from then on the command's own
 * printing goes to standard error); a second "-" is a usage error (2). */
int check_output(const char* path, const char* const* inputs, size_t input_count);

/* At the end of main: flushes and closes standard output (and the data stream of an
 * output given as "-"); a write that failed there or
 * earlier turns a successful status into 1 with one error line. */
int finish_stdout(int status);

#endif
