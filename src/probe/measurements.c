/* Reading measurement files (see gpucache_probe.h). */
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gc_measurements_free(gc_measurements* in)
{
    for (size_t i = 0; in->buffers && i < 3 * in->count; ++i)
        free(in->buffers[i]);
    free(in->buffers);
    free(in->cases);
    free(in->names);
    json_decref(in->root);
    memset(in, 0, sizeof *in);
}

static gc_status bad(gc_error* e, const char* path, size_t i, const char* what)
{
    return gc_fail(e, GC_ERR_DATA, "%s: case %zu: %s", path, i, what);
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

gc_status gc_measurements_load(const char* path, gc_measurements* in, gc_error* e)
{
    memset(in, 0, sizeof *in);
    /* jansson holds the whole document: bound it before reading */
    FILE* probe = fopen(path, "rb");
    if (probe) {
        fseek(probe, 0, SEEK_END);
        long size = ftell(probe);
        fclose(probe);
        if (size > (512L << 20))
            return gc_fail(e, GC_ERR_LIMIT, "%s: %ld bytes; measurement files are limited to 512 MiB", path, size);
    }
    json_error_t je;
    in->root = json_load_file(path, 0, &je);
    if (!in->root) {
        if (je.line < 0)
            return gc_fail(e, GC_ERR_IO, "%s: %s", path, je.text);
        else
            return gc_fail(e, GC_ERR_DATA, "%s:%d:%d: %s", path, je.line, je.column, je.text);
    }
    json_t* cases = json_object_get(in->root, "cases");
    if (!json_is_object((json_t*)in->root) || !json_is_array(cases))
        return gc_fail(e, GC_ERR_DATA,
                       "%s: not a measurement file (no \"cases\" array; write one with probe --suite)", path);
    json_t* device = json_object_get(in->root, "device");
    in->device = json_is_string(device) ? json_string_value(device) : NULL;
    size_t n = json_array_size(cases);
    if (n == 0)
        return gc_fail(e, GC_ERR_DATA, "%s: no cases", path);
    in->cases = calloc(n, sizeof *in->cases);
    in->names = calloc(n, sizeof *in->names);
    in->buffers = calloc(3 * n, sizeof *in->buffers);
    if (!in->cases || !in->names || !in->buffers)
        return gc_fail(e, GC_ERR_NOMEM, "%s: out of memory", path);
    in->count = n;
    for (size_t i = 0; i < n; ++i) {
        json_t* c = json_array_get(cases, i);
        if (!json_is_object(c))
            return bad(e, path, i, "not an object");
        json_t* name = json_object_get(c, "name");
        in->names[i] = json_is_string(name) ? json_string_value(name) : "(unnamed)";
        gc_fit_case* fc = &in->cases[i];
        gc_error err;
        json_t* topo = json_object_get(c, "topology");
        if (!json_is_string(topo) || gc_topology_parse(json_string_value(topo), &fc->draw.topology, &err))
            return bad(e, path, i, "missing or unknown \"topology\"");
        json_t* restart = json_object_get(c, "restart");
        if (restart && !json_is_null(restart)) {
            if (get_u32(restart, &fc->draw.restart_value))
                return bad(e, path, i, "\"restart\" is not a 32-bit index value or null");
            fc->draw.restart_enabled = 1;
        }
        json_t* idx = json_object_get(c, "indices");
        if (!json_is_array(idx))
            return bad(e, path, i, "missing \"indices\" array");
        size_t count = json_array_size(idx);
        uint32_t* buf = malloc((count ? count : 1) * sizeof *buf);
        if (!buf)
            return bad(e, path, i, "out of memory");
        in->buffers[3 * i] = buf;
        for (size_t k = 0; k < count; ++k)
            if (get_u32(json_array_get(idx, k), &buf[k]))
                return gc_fail(e, GC_ERR_DATA, "%s: case %zu: index %zu is not a 32-bit unsigned integer", path, i, k);
        fc->draw.indices = buf;
        fc->draw.index_count = count;
        char what[64];
        snprintf(what, sizeof what, "case %zu", i);
        uint64_t prims;
        if (gc_draw_validate(&fc->draw, what, &prims, &err))
            return gc_fail(e, GC_ERR_DATA, "%s: %s", path, err.message);
        json_t* inv = json_object_get(c, "invocations");
        if (!json_is_integer(inv) || json_integer_value(inv) < 0)
            return bad(e, path, i, "missing \"invocations\"");
        fc->invocations = (uint64_t)json_integer_value(inv);
        json_t* pv = json_object_get(c, "per_vertex");
        if (pv && !json_is_null(pv)) {
            if (!json_is_array(pv))
                return bad(e, path, i, "\"per_vertex\" is not an array of [index, count] pairs");
            size_t rows = json_array_size(pv);
            uint32_t* values = malloc((rows ? rows : 1) * sizeof *values);
            uint32_t* counts = malloc((rows ? rows : 1) * sizeof *counts);
            in->buffers[3 * i + 1] = values;
            in->buffers[3 * i + 2] = counts;
            if (!values || !counts)
                return bad(e, path, i, "out of memory");
            for (size_t k = 0; k < rows; ++k) {
                json_t* row = json_array_get(pv, k);
                if (!json_is_array(row) || json_array_size(row) != 2 || get_u32(json_array_get(row, 0), &values[k]) ||
                    get_u32(json_array_get(row, 1), &counts[k]) || (k && values[k] <= values[k - 1]))
                    return gc_fail(e, GC_ERR_DATA,
                                   "%s: case %zu: per_vertex row %zu is not an [index, count] pair in ascending "
                                   "index order",
                                   path, i, k);
            }
            fc->values = values;
            fc->counts = counts;
            fc->count = rows;
        }
    }
    return GC_OK;
}

