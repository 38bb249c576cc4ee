// SPDX-License-Identifier: MIT
/* The options of a command as a table: one row per option saying where its value goes and
 * how it is checked, parsed by one parser (cli_options.c). The option names, short letters
 * and whether each takes a value come from the help text (tools/cli-help.txt), so the help
 * and the parser cannot drift: a row the help does not list, or an option of the help
 * without a row (--help aside), is an internal error at the command's first run. */
#ifndef GPUCACHE_CLI_OPTIONS_H
#define GPUCACHE_CLI_OPTIONS_H

#include "gpucache_private.h"

#include <stddef.h>
#include <stdint.h>
#include <unistd.h> /* optind */

typedef enum {
    ARG_FLAG,  /* dest: int, set to 1 */
    ARG_TEXT,  /* dest: const char*, the value as given (NULL: an optional value not given) */
    ARG_COUNT, /* dest: long, a decimal count in [lo, hi] (gc_arg_count) */
    ARG_U64,   /* dest: uint64_t in [lo, hi], with `flags` (gc_arg_u64: GC_PARSE_HEX, _SUFFIX) */
    ARG_REAL,  /* dest: double in [lo, hi] */
    ARG_LIST,  /* dest: const char*[hi], *count of them given (repeatable); error's %s: hi */
    ARG_CALL   /* call(value, dest): 0, -1 (then the error line) or an exit status it printed */
} arg_kind;

typedef struct cli_option {
    const char* name; /* "--cache": the help's long name */
    arg_kind kind;
    void* dest;
    uint64_t lo, hi;
    const char* error;  /* usage_error's format, %s the value: a value that does not parse */
    const char** given; /* when not NULL: set to name each time the option is given */
    size_t* count;      /* ARG_LIST */
    unsigned flags;     /* ARG_U64 */
    int (*call)(const char* value, void* dest);
} cli_option;

/* The rows, by kind; the arguments after the ones named are more fields (.given = &NAME). */
#define OPT_FLAG(name_, dest_, ...) {.name = name_, .kind = ARG_FLAG, .dest = dest_, __VA_ARGS__}
#define OPT_TEXT(name_, dest_, ...) {.name = name_, .kind = ARG_TEXT, .dest = dest_, __VA_ARGS__}
#define OPT_COUNT(name_, dest_, lo_, hi_, error_, ...)                                                                 \
    {.name = name_, .kind = ARG_COUNT, .dest = dest_, .lo = lo_, .hi = hi_, .error = error_, __VA_ARGS__}
#define OPT_U64(name_, dest_, lo_, hi_, flags_, error_, ...)                                                             \
    {.name = name_, .kind = ARG_U64, .dest = dest_, .lo = lo_, .hi = hi_, .flags = flags_, .error = error_, __VA_ARGS__}
#define OPT_REAL(name_, dest_, lo_, hi_, error_, ...)                                                                  \
    {.name = name_, .kind = ARG_REAL, .dest = dest_, .lo = lo_, .hi = hi_, .error = error_, __VA_ARGS__}
#define OPT_LIST(name_, dest_, count_, max_, error_)                                                                   \
    {.name = name_, .kind = ARG_LIST, .dest = dest_, .count = count_, .hi = max_, .error = error_}
#define OPT_CALL(name_, dest_, call_, error_, ...)                                                                     \
    {.name = name_, .kind = ARG_CALL, .dest = dest_, .call = call_, .error = error_, __VA_ARGS__}
#define OPT_END {.name = NULL}

/* Parses argv's options (argv[0]: the command's name) by `rows` (ending with a row whose
 * name is NULL), in order, each value checked when it is met. Returns 0 with optind at the
 * first operand, -1 when -h/--help printed the command's help, else the exit status after
 * one error line ("unknown option 'X'", "option 'X' needs a value", or the row's error). */
int cli_parse(int argc, char** argv, const cli_option* rows);

/* --fetch SPEC (gc_fetch_parse), an ARG_CALL's dest: the spec and its text as given. */
typedef struct fetch_arg {
    gc_fetch_spec spec;
    const char* text;
} fetch_arg;
int parse_fetch_arg(const char* value, void* dest);

/* In a command: parses `rows`, returning from the command on help (0) or an error. */
#define PARSE_OPTIONS(rows)                                                                                             \
    do {                                                                                                               \
        int parsed_ = cli_parse(argc, argv, rows);                                                                     \
        if (parsed_)                                                                                                   \
            return parsed_ < 0 ? 0 : parsed_;                                                                          \
    } while (0)

#endif
