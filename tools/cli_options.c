// SPDX-License-Identifier: MIT
/* The one option parser of the commands (cli_options.h): getopt_long's tables built from
 * the command's entries in the help text, each value stored and checked by its row. */
#define _POSIX_C_SOURCE 200809L
#include "cli_options.h"

#include "cli.h"
#include "help.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTIONS 48

static int store(const cli_option* o, const char* v)
{
    char* end = NULL;
    if (o->given)
        *o->given = o->name;
    switch (o->kind) {
    case ARG_FLAG: *(int*)o->dest = 1; return 0;
    case ARG_TEXT: *(const char**)o->dest = v; return 0;
    case ARG_COUNT: return gc_arg_count(v, (long)o->lo, (long)o->hi, o->dest) ? usage_error(o->error, v) : 0;
    case ARG_U64: return gc_arg_u64(v, o->flags, o->lo, o->hi, o->dest) ? usage_error(o->error, v) : 0;
    case ARG_REAL: {
        double d = *(double*)o->dest = strtod(v, &end);
        return end == v || *end || !(d >= (double)o->lo && d <= (double)o->hi) ? usage_error(o->error, v) : 0;
    }
    case ARG_LIST:
        if (*o->count == o->hi) {
            char limit[24];
            snprintf(limit, sizeof limit, "%llu", (unsigned long long)o->hi);
            return usage_error(o->error, limit);
        }
        ((const char**)o->dest)[(*o->count)++] = v;
        return 0;
    case ARG_CALL: {
        int status = o->call(v, o->dest);
        return status < 0 ? usage_error(o->error, v) : status;
    }
    }
    return 0;
}

int parse_fetch_arg(const char* value, void* dest)
{
    gc_error err = {0};
    fetch_arg* f = dest;
    if (gc_fetch_parse(value, &f->spec, &err))
        return usage_error("--fetch: %s", err.message);
    f->text = value;
    return 0;
}

int cli_parse(int argc, char** argv, const cli_option* rows)
{
    help_load();
    const help_option* h = NULL;
    for (size_t i = 0; i < help_command_count; ++i)
        if (!strcmp(help_commands[i].name, argv[0]))
            h = help_commands[i].options;
    /* "-m, --model MODEL": 'm', "model", a value; "--restart[=VALUE]": an optional value */
    struct option longs[MAX_OPTIONS + 1];
    const cli_option* row_of[MAX_OPTIONS];
    char names[MAX_OPTIONS][32], shorts[3 * MAX_OPTIONS + 2] = ":";
    size_t n = 0, matched = 0, row_count = 0;
    for (; h && h->flags && n < MAX_OPTIONS; ++h, ++n) {
        const char* f = h->flags;
        int letter = f[1] != '-' ? f[1] : 0;
        f += letter ? 6 : 2;
        size_t len = strcspn(f, " [");
        snprintf(names[n], sizeof names[n], "%.*s", (int)len, f);
        int arg = f[len] == '[' ? optional_argument : f[len] == ' ' ? required_argument : no_argument;
        longs[n] = (struct option){names[n], arg, NULL, letter ? letter : 256 + (int)n};
        if (letter)
            snprintf(shorts + strlen(shorts), 3, "%c%s", letter, arg == required_argument ? ":" : "");
        row_of[n] = NULL;
        for (const cli_option* r = rows; r->name; ++r)
            if (!strcmp(r->name + 2, names[n]))
                row_of[n] = r, ++matched;
        if (!row_of[n] && strcmp(names[n], "help")) {
            fprintf(stderr, "gpucache: internal error: %s --%s has no option row\n", argv[0], names[n]);
            return EXIT_DATA;
        }
    }
    longs[n] = (struct option){NULL, 0, NULL, 0};
    while (rows[row_count].name)
        ++row_count;
    if (matched != row_count) {
        fprintf(stderr, "gpucache: internal error: %s has an option row cli-help.txt does not list\n", argv[0]);
        return EXIT_DATA;
    }
    opterr = 0;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1;) {
        if (c == ':')
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        size_t i = 0;
        while (i < n && longs[i].val != c)
            ++i;
        if (i == n)
            return usage_error("unknown option '%s'", argv[optind - 1]);
        if (!row_of[i]) {
            print_command_help(stdout, argv[0]);
            return -1;
        }
        int status = store(row_of[i], optarg);
        if (status)
            return status;
    }
    return 0;
}
