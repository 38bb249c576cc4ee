// SPDX-License-Identifier: MIT
/* Shared pieces of the command-line tool: exit statuses, error printing, and
 * loading an INPUT into a validated draw. Each command lives in its own file. The values
 * of the command line go through the library's checked parsers (gc_arg_count and friends,
 * gc_model_arg: gpucache_private.h). */
#ifndef GPUCACHE_CLI_H
#define GPUCACHE_CLI_H

#include "gpucache_private.h"

#include "cli_util.h"

#define EXIT_DATA 1
#define EXIT_USAGE 2

/* Copies `in` into out[size] (truncated, always terminated) with every control character
 * and DEL replaced by '?': text that comes from a file (a mesh name, a URI) or a library
 * message quoting it reaches the terminal only this way, never as escape sequences. */
void copy_printable(char* out, size_t size, const char* in);
/* A gc_note_fn printing "gpucache: LINE" (through copy_printable) on standard error. */
void print_note(void* user, const char* line);
/* Prints "gpucache: MESSAGE" (through copy_printable) and returns the exit status for err
 * (2 for a usage error, 1 for anything else). */
int fail_with(const gc_error* err);
/* Prints "gpucache: " fmt(arg) " (see 'gpucache help')" and returns EXIT_USAGE. */
int usage_error(const char* fmt, const char* arg);

/* -q/--quiet (-1), neither (0), -v/--verbose (1): set by main before the command runs. */
extern int cli_verbosity;
/* Whether to show progress: standard error is a terminal and -q was not given. */
int progress_wanted(void);
/* "gpucache: " fmt on standard error unless -q: a note, not an error nor a warning. */
void note(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The same, only with -v. */
void verbose_note(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A progress line on standard error, only when progress_wanted() and only once the work
 * has taken more than a second: "gpucache: LABEL: N%, S s left". */
typedef struct progress_line {
    const char* label;
    double start, last;
    int enabled, shown;
} progress_line;
void progress_init(progress_line* p, const char* label);
/* A gc_progress_fn: user is the progress_line. */
void progress_report(void* user, uint64_t done, uint64_t total);
/* Ends the line (if one was shown). */
void progress_end(progress_line* p);

/* A loaded INPUT. */
typedef struct input {
    gc_mesh mesh;
    char name[1024];
} input;

/* Loads INPUT and builds the draw the options describe: topology (a name from -t, NULL:
 * the file's or a triangle list), restart (restart_text NULL: the index width's default),
 * then validates it. Prints the error and returns an exit status on failure (0 on success;
 * then the caller frees in->mesh). */
int load_draw(const char* path, const gc_load_options* lo, const char* topology_name, int restart,
              const char* restart_text, input* in, gc_draw* draw, uint64_t* primitives);

/* The one INPUT after the options: sets *path, or prints a usage error and returns EXIT_USAGE. */
int one_input(int argc, char** argv, const char* command, const char** path);

#endif
