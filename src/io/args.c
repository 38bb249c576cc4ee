// SPDX-License-Identifier: MIT
/* The command line's values (gpucache_private.h): counts, numbers, grid sizes, ranges and
 * -m arguments through the checked parsers, the clock and the default thread count. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache_private.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int gc_arg_count(const char* text, long lo, long hi, long* out)
{
    int64_t v;
    if (gc_parse_i64(text, strlen(text), lo, hi, &v) != GC_PARSE_OK)
        return -1;
    *out = (long)v;
    return 0;
}

int gc_arg_u64(const char* text, unsigned flags, uint64_t lo, uint64_t hi, uint64_t* out)
{
    return gc_parse_u64(text, strlen(text), flags, lo, hi, out) == GC_PARSE_OK ? 0 : -1;
}

int gc_arg_grid_size(const char* text, uint32_t max_side, uint64_t max_quads, uint32_t* w, uint32_t* h)
{
    const char* x = strchr(text, 'x');
    uint64_t a, b;
    if (!x || gc_parse_u64(text, (size_t)(x - text), 0, 1, max_side, &a) != GC_PARSE_OK ||
        gc_parse_u64(x + 1, strlen(x + 1), 0, 1, max_side, &b) != GC_PARSE_OK || a * b > max_quads)
        return -1;
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return 0;
}

int gc_arg_range(const char* text, uint64_t lo, uint64_t hi, uint64_t* a, uint64_t* b)
{
    const char* dots = strstr(text, "..");
    if (!dots) {
        if (gc_parse_u64(text, strlen(text), 0, lo, hi, a) != GC_PARSE_OK)
            return -1;
        *b = *a;
        return 0;
    }
    if (gc_parse_u64(text, (size_t)(dots - text), 0, lo, hi, a) != GC_PARSE_OK ||
        gc_parse_u64(dots + 2, strlen(dots + 2), 0, lo, hi, b) != GC_PARSE_OK || *b < *a)
        return -1;
    return 0;
}

const char* gc_model_arg_file(const char* arg)
{
    return arg && arg[0] == '@' ? arg + 1 : NULL;
}

gc_status gc_model_arg(const char* arg, gc_model* out, gc_error* err)
{
    const char* file = gc_model_arg_file(arg);
    return file ? gc_model_load_fitted(file, out, err) : gc_model_parse(arg, out, err);
}

double gc_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long gc_default_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 64 ? 64 : cpus;
}
