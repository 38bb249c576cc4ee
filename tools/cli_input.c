// SPDX-License-Identifier: MIT
/* Shared pieces of the command-line tool (see cli.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "gpucache/gpucache_probe.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_verbosity;

int progress_wanted(void)
{
    return cli_verbosity >= 0 && isatty(2);
}

static void vnote(const char* fmt, va_list args)
{
    fprintf(stderr, "gpucache: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
}

void note(const char* fmt, ...)
{
    if (cli_verbosity < 0)
        return;
    va_list args;
    va_start(args, fmt);
    vnote(fmt, args);
    va_end(args);
}

void verbose_note(const char* fmt, ...)
{
    if (cli_verbosity < 1)
        return;
    va_list args;
    va_start(args, fmt);
    vnote(fmt, args);
    va_end(args);
}

void copy_printable(char* out, size_t size, const char* in)
{
    size_t k = 0;
    for (; in[k] && k + 1 < size; ++k)
        out[k] = (unsigned char)in[k] < 0x20 || in[k] == 0x7f ? '?' : in[k];
    out[k] = 0;
}

void print_note(void* user, const char* line)
{
    (void)user;
    if (cli_verbosity < 0) /* -q: notes are not errors */
        return;
    char printable[1024];
    copy_printable(printable, sizeof printable, line);
    fprintf(stderr, "gpucache: %s\n", printable);
}

int fail_with(const gc_error* err)
{
    char line[sizeof err->message];
    copy_printable(line, sizeof line, err->message);
    fprintf(stderr, "gpucache: %s\n", line);
    return err->code == GC_ERR_USAGE ? EXIT_USAGE : EXIT_DATA;
}

int usage_error(const char* fmt, const char* arg)
{
    fprintf(stderr, "gpucache: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see 'gpucache help')\n");
    return EXIT_USAGE;
}

void progress_init(progress_line* p, const char* label)
{
    memset(p, 0, sizeof *p);
    p->label = label;
    p->start = gc_now_seconds();
    p->enabled = progress_wanted();
}

void progress_report(void* user, uint64_t done, uint64_t total)
{
    progress_line* p = user;
    if (!p->enabled)
        return;
    double now = gc_now_seconds();
    /* Quiet for the first second, then at most four lines a second. */
    if (now - p->start < 1.0 || now - p->last < 0.25)
        return;
    p->last = now;
    p->shown = 1;
    double part = total ? (double)done / (double)total : 1.0;
    if (part > 1.0)
        part = 1.0;
    double elapsed = now - p->start;
    fprintf(stderr, "\rgpucache: %s: %3.0f%%, %.0f s left   ", p->label, 100.0 * part,
            part > 0 ? elapsed * (1.0 - part) / part : 0.0);
}

void progress_end(progress_line* p)
{
    if (p->shown)
        fprintf(stderr, "\rgpucache: %s: done in %.1f s          \n", p->label, gc_now_seconds() - p->start);
    p->shown = 0;
}

int one_input(int argc, char** argv, const char* command, const char** path)
{
    if (optind >= argc) {
        fprintf(stderr, "gpucache: %s needs an INPUT (see 'gpucache help')\n", command);
        return EXIT_USAGE;
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "gpucache: %s takes one INPUT, got also '%s' (see 'gpucache help')\n", command,
                argv[optind + 1]);
        return EXIT_USAGE;
    }
    *path = argv[optind];
    return 0;
}

int load_draw(const char* path, const gc_load_options* lo, const char* topology_name, int restart,
              const char* restart_text, input* in, gc_draw* draw, uint64_t* primitives)
{
    gc_error err = {0};
    gc_topology parsed = GC_TRIANGLE_LIST;
    gc_draw_options o = {0};
    if (topology_name) {
        if (gc_topology_parse(topology_name, &parsed, &err))
            return fail_with(&err);
        o.topology = &parsed;
    }
    if (restart && restart_text) {
        uint64_t v;
        if (gc_arg_u64(restart_text, GC_PARSE_HEX, 0, UINT32_MAX, &v) != 0)
            return usage_error("--restart value '%s' is not a 32-bit unsigned number", restart_text);
        o.restart_value = (uint32_t)v;
        o.restart_given = 1;
    }
    o.restart = restart;
    double started = gc_now_seconds();
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", path);
    if (gc_mesh_load_draw(path, lo, &o, &in->mesh, draw, primitives, &err))
        return fail_with(&err);
    verbose_note("%s: %zu indices of %d bits read in %.3f s", path, in->mesh.index_count, in->mesh.index_bits,
                 gc_now_seconds() - started);
    return 0;
}
