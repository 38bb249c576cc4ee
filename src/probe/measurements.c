/* Reading measurement files (see measurements.h). */
#define _POSIX_C_SOURCE 200809L
#include "measurements.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fit_input_free(fit_input* in)
{
    for (size_t i = 0; in->buffers && i < 3 * in->count; ++i)
        free(in->buffers[i]);
    free(in->buffers);
    free(in->cases);
    free(in->names);
    json_decref(in->root);
    memset(in, 0, sizeof *in);
}

static int bad(const char* path, size_t i, const char* what)
{
    fprintf(stderr, "gpucache: %s: case %zu: %s\n", path, i, what);
    return EXIT_DATA;
}

/* A JSON integer in [0, 2^32). */
static int get_u32(json_t* v, uint32_t* out)
{
    if (!json_is_integer(v))
        return -1;
    json_int_t x = json_integer_value(v);
    if (x < 0 || x > (json_int_t)UINT32_MAX)
        return -1;
    *out = (uint32_t)x;
    return 0;
}

int load_measurements(const char* path, fit_input* in)
{
    memset(in, 0, sizeof *in);
    /* jansson holds the whole document: bound it before reading */
    FILE* probe = fopen(path, "rb");
    if (probe) {
        fseek(probe, 0, SEEK_END);
        long size = ftell(probe);
        fclose(probe);
        if (size > (512L << 20)) {
            fprintf(stderr, "gpucache: %s: %ld bytes; measurement files are limited to 512 MiB\n", path, size);
            return EXIT_DATA;
        }
    }
    json_error_t je;
    in->root = json_load_file(path, 0, &je);
    if (!in->root) {
        if (je.line < 0)
            fprintf(stderr, "gpucache: %s: %s\n", path, je.text);
        else
            fprintf(stderr, "gpucache: %s:%d:%d: %s\n", path, je.line, je.column, je.text);
        return EXIT_DATA;
    }
    json_t* cases = json_object_get(in->root, "cases");
    if (!json_is_object(in->root) || !json_is_array(cases)) {
        fprintf(stderr, "gpucache: %s: not a measurement file (no \"cases\" array; write one with probe --suite)\n",
                path);
        return EXIT_DATA;
    }
    size_t n = json_array_size(cases);
    if (n == 0) {
        fprintf(stderr, "gpucache: %s: no cases\n", path);
        return EXIT_DATA;
    }
    in->cases = calloc(n, sizeof *in->cases);
    in->names = calloc(n, sizeof *in->names);
    in->buffers = calloc(3 * n, sizeof *in->buffers);
    if (!in->cases || !in->names || !in->buffers) {
        fprintf(stderr, "gpucache: %s: out of memory\n", path);
        return EXIT_DATA;
    }
    in->count = n;
    for (size_t i = 0; i < n; ++i) {
        json_t* c = json_array_get(cases, i);
        if (!json_is_object(c))
            return bad(path, i, "not an object");
        json_t* name = json_object_get(c, "name");
        in->names[i] = json_is_string(name) ? json_string_value(name) : "(unnamed)";
        gc_fit_case* fc = &in->cases[i];
        gc_error err;
        json_t* topo = json_object_get(c, "topology");
        if (!json_is_string(topo) || gc_topology_parse(json_string_value(topo), &fc->draw.topology, &err))
            return bad(path, i, "missing or unknown \"topology\"");
        json_t* restart = json_object_get(c, "restart");
        if (restart && !json_is_null(restart)) {
            if (get_u32(restart, &fc->draw.restart_value))
                return bad(path, i, "\"restart\" is not a 32-bit index value or null");
            fc->draw.restart_enabled = 1;
        }
        json_t* idx = json_object_get(c, "indices");
        if (!json_is_array(idx))
            return bad(path, i, "missing \"indices\" array");
        size_t count = json_array_size(idx);
        uint32_t* buf = malloc((count ? count : 1) * sizeof *buf);
        if (!buf)
            return bad(path, i, "out of memory");
        in->buffers[3 * i] = buf;
        for (size_t k = 0; k < count; ++k)
            if (get_u32(json_array_get(idx, k), &buf[k])) {
                fprintf(stderr, "gpucache: %s: case %zu: index %zu is not a 32-bit unsigned integer\n", path, i, k);
                return EXIT_DATA;
            }
        fc->draw.indices = buf;
        fc->draw.index_count = count;
        char what[64];
        snprintf(what, sizeof what, "case %zu", i);
        uint64_t prims;
        if (gc_draw_validate(&fc->draw, what, &prims, &err)) {
            fprintf(stderr, "gpucache: %s: %s\n", path, err.message);
            return EXIT_DATA;
        }
        json_t* inv = json_object_get(c, "invocations");
        if (!json_is_integer(inv) || json_integer_value(inv) < 0)
            return bad(path, i, "missing \"invocations\"");
        fc->invocations = (uint64_t)json_integer_value(inv);
        json_t* pv = json_object_get(c, "per_vertex");
        if (pv && !json_is_null(pv)) {
            if (!json_is_array(pv))
                return bad(path, i, "\"per_vertex\" is not an array of [index, count] pairs");
            size_t rows = json_array_size(pv);
            uint32_t* values = malloc((rows ? rows : 1) * sizeof *values);
            uint32_t* counts = malloc((rows ? rows : 1) * sizeof *counts);
            in->buffers[3 * i + 1] = values;
            in->buffers[3 * i + 2] = counts;
            if (!values || !counts)
                return bad(path, i, "out of memory");
            for (size_t k = 0; k < rows; ++k) {
                json_t* row = json_array_get(pv, k);
                if (!json_is_array(row) || json_array_size(row) != 2 || get_u32(json_array_get(row, 0), &values[k]) ||
                    get_u32(json_array_get(row, 1), &counts[k]) || (k && values[k] <= values[k - 1])) {
                    fprintf(stderr,
                            "gpucache: %s: case %zu: per_vertex row %zu is not an [index, count] pair in ascending "
                            "index order\n",
                            path, i, k);
                    return EXIT_DATA;
                }
            }
            fc->values = values;
            fc->counts = counts;
            fc->count = rows;
        }
    }
    return 0;
}

