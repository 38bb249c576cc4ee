// SPDX-License-Identifier: MIT
/* Measurement backends: the Vulkan probe or an emulator (see gpucache_probe.h). */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what: the thing that could not be allocated, with its size */
static gc_status nomem(gc_error* err, const char* what, size_t count)
{
    snprintf(err->message, sizeof err->message, "out of memory for %s of %zu", what, count);
    err->code = GC_ERR_NOMEM;
    return GC_ERR_NOMEM;
}

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

gc_status gc_draw_distinct_values(const gc_draw* d, uint32_t** out, size_t* count, gc_error* err)
{
    uint32_t* v = malloc((d->index_count ? d->index_count : 1) * sizeof *v);
    if (!v)
        return nomem(err, "the distinct values of a draw, indices", d->index_count);
    size_t n = 0;
    for (size_t i = 0; i < d->index_count; ++i)
        if (!(d->restart_enabled && d->indices[i] == d->restart_value))
            v[n++] = d->indices[i];
    qsort(v, n, sizeof *v, compare_u32);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    *out = v;
    *count = k;
    return GC_OK;
}

gc_status gc_backend_open(gc_backend* b, uint32_t device_index, const char* model_spec, gc_error* err)
{
    memset(b, 0, sizeof *b);
    if (model_spec) {
        gc_status s = gc_model_parse(model_spec, &b->model, err);
        if (s)
            return s;
        snprintf(b->device, sizeof b->device, "emulator %s", b->model.name);
        snprintf(b->driver, sizeof b->driver, "gpucache %s", GPUCACHE_VERSION_STRING);
        snprintf(b->api_version, sizeof b->api_version, "none");
        b->max_outputs = GC_PROBE_MAX_OUTPUTS;
        return GC_OK;
    }
    gc_status s = gc_probe_open(device_index, &b->probe, err);
    if (s) {
        gc_probe_close(b->probe);
        b->probe = NULL;
        return s;
    }
    const gc_probe_device* d = gc_probe_info(b->probe);
    snprintf(b->device, sizeof b->device, "%s", d->name);
    snprintf(b->driver, sizeof b->driver, "%s", d->driver);
    snprintf(b->api_version, sizeof b->api_version, "%u.%u.%u", d->api_version >> 22, (d->api_version >> 12) & 0x3FF,
             d->api_version & 0xFFF);
    b->max_outputs = d->max_outputs;
    return GC_OK;
}

void gc_backend_close(gc_backend* b)
{
    gc_probe_close(b->probe);
    b->probe = NULL;
}

void gc_measurement_free(gc_measurement* m)
{
    free(m->values);
    free(m->counts);
    memset(m, 0, sizeof *m);
}

gc_status gc_backend_measure(gc_backend* b, const gc_draw* draw, uint32_t outputs, gc_measurement* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    gc_status s = gc_draw_distinct_values(draw, &out->values, &out->count, err);
    if (s)
        return s;
    out->counts = calloc(out->count ? out->count : 1, sizeof *out->counts);
    if (!out->counts) {
        gc_measurement_free(out);
        return nomem(err, "per-vertex counts, vertices", out->count);
    }
    if (!b->probe) {
        gc_per_vertex pv = {0};
        gc_analyze_options o = {0};
        o.per_vertex = &pv;
        gc_stats st;
        if ((s = gc_analyze(&b->model, draw, &o, &st, err))) {
            gc_measurement_free(out);
            return s;
        }
        /* Both lists hold the draw's distinct values in ascending order. */
        for (size_t i = 0; i < pv.count && i < out->count; ++i) {
            out->counts[i] = pv.counts[i];
            out->per_vertex_sum += pv.counts[i];
        }
        gc_per_vertex_free(&pv);
        out->invocations = st.invocations;
        out->ia_primitives = st.primitives;
        for (size_t i = 0; i < draw->index_count; ++i)
            out->ia_vertices += !(draw->restart_enabled && draw->indices[i] == draw->restart_value);
        return GC_OK;
    }
    if (out->count && out->values[out->count - 1] >= GC_PROBE_MAX_INDEX_VALUE) {
        snprintf(err->message, sizeof err->message,
                 "vulkan: index value %u: the probe counts invocations per index value, up to %u (renumber the "
                 "vertices)",
                 out->values[out->count - 1], GC_PROBE_MAX_INDEX_VALUE - 1);
        err->code = GC_ERR_LIMIT;
        gc_measurement_free(out);
        return GC_ERR_LIMIT;
    }
    size_t dense = out->count ? (size_t)out->values[out->count - 1] + 1 : 1;
    uint32_t* counters = malloc(dense * sizeof *counters);
    if (!counters) {
        gc_measurement_free(out);
        return nomem(err, "the probe's counters, entries", dense);
    }
    gc_probe_result r;
    if ((s = gc_probe_draw(b->probe, draw, outputs, counters, dense, &r, err))) {
        free(counters);
        gc_measurement_free(out);
        return s;
    }
    for (size_t i = 0; i < out->count; ++i)
        out->counts[i] = counters[out->values[i]];
    free(counters);
    out->invocations = r.invocations;
    out->ia_vertices = r.ia_vertices;
    out->ia_primitives = r.ia_primitives;
    out->per_vertex_sum = r.per_vertex_sum;
    return GC_OK;
}
