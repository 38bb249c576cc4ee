// SPDX-License-Identifier: MIT
/* Seed 000's introspection on a backend (gc_backend_introspect, gpucache_probe.h): the
 * buffer drawn, then for every candidate index I the buffer followed by the degenerate
 * primitive (I, I, I): if the count did not grow, I was still cached. On a model the
 * draws' shared part runs once (gc_introspect); on a device each is a draw of its own. */
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_probe.h"

#include <stdlib.h>
#include <string.h>

void gc_introspection_free(gc_introspection* r)
{
    if (!r)
        return;
    free(r->cached);
    memset(r, 0, sizeof *r);
}

gc_status gc_backend_introspect(gc_backend* b, const gc_draw* draw, uint32_t outputs, uint64_t max_lookups,
                                const char* what, gc_progress_fn progress, void* progress_user,
                                gc_introspection* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    /* The probe primitive (I, I, I) only means "one more primitive" in a list. */
    if (draw->topology != GC_POINT_LIST && draw->topology != GC_LINE_LIST && draw->topology != GC_TRIANGLE_LIST)
        return gc_fail(err, GC_ERR_USAGE,
                       "%s: introspect appends a degenerate primitive, which only a point, line or triangle list "
                       "can take (this draw is a %s)",
                       what, gc_topology_name(draw->topology));
    const unsigned arity = gc_topology_arity(draw->topology);
    uint32_t* candidates = NULL;
    size_t candidate_count = 0;
    gc_measurement m = {0};
    uint32_t* probe_buf = gc_alloc_array(draw->index_count + 4, sizeof *probe_buf, false);
    gc_status s = probe_buf ? gc_draw_distinct_values(draw, &candidates, &candidate_count, err)
                            : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", what);
    if (!s && !(out->cached = gc_alloc_array(candidate_count ? candidate_count : 1, sizeof *out->cached, false)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", what);
    if (!s)
        s = gc_backend_measure(b, draw, outputs, &m, err);
    if (s)
        goto out;
    out->candidates = candidate_count;
    out->invocations = m.invocations;
    gc_measurement_free(&m);
    if (!b->probe) {
        s = gc_introspect(&b->model, draw, candidates, candidate_count, out->cached, &out->cached_count, err);
        goto out;
    }
    memcpy(probe_buf, draw->indices, draw->index_count * sizeof *probe_buf);
    gc_draw probe_draw = *draw;
    probe_draw.indices = probe_buf;
    probe_draw.index_count = draw->index_count + arity;
    /* a device: a draw per candidate, each of the whole buffer; bounded before it starts,
     * since a small file can ask for hours */
    uint64_t lookups = (uint64_t)candidate_count * (uint64_t)probe_draw.index_count;
    if (lookups > max_lookups) {
        s = gc_fail(err, GC_ERR_LIMIT,
                    "%s: introspect would draw %zu candidates x %zu indices = %llu index lookups, more than the "
                    "limit of %llu; raise it with --max-lookups N",
                    what, candidate_count, probe_draw.index_count, (unsigned long long)lookups,
                    (unsigned long long)max_lookups);
        goto out;
    }
    for (size_t i = 0; !s && i < candidate_count; ++i) {
        for (unsigned k = 0; k < arity; ++k)
            probe_buf[draw->index_count + k] = candidates[i];
        if ((s = gc_backend_measure(b, &probe_draw, outputs, &m, err)))
            break;
        if (m.invocations == out->invocations)
            out->cached[out->cached_count++] = candidates[i];
        gc_measurement_free(&m);
        if (progress)
            progress(progress_user, i + 1, candidate_count);
    }
out:
    gc_measurement_free(&m);
    free(candidates);
    free(probe_buf);
    if (s)
        gc_introspection_free(out);
    return s;
}

gc_status gc_introspection_print(FILE* f, const char* input, const char* device, const gc_draw* draw,
                                 uint64_t primitives, const gc_introspection* r, int json, gc_error* err)
{
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"input\": ");
        gc_sb_json_string(&j, input);
        gc_sb_printf(&j, ", \"device\": ");
        gc_sb_json_string(&j, device);
        gc_sb_printf(&j,
                     ", \"topology\": \"%s\", \"primitives\": %llu, \"invocations\": %llu, \"candidates\": %zu, "
                     "\"cached\": [",
                     gc_topology_name(draw->topology), (unsigned long long)primitives,
                     (unsigned long long)r->invocations, r->candidates);
        for (size_t i = 0; i < r->cached_count; ++i)
            gc_sb_printf(&j, i ? ", %u" : "%u", r->cached[i]);
        gc_sb_printf(&j, "]}\n");
        return gc_sb_write(&j, f, err);
    }
    fprintf(f, "%s on %s: %llu primitives, %llu invocations; %zu of %zu indices still cached:\n", input, device,
            (unsigned long long)primitives, (unsigned long long)r->invocations, r->cached_count, r->candidates);
    fprintf(f, "[");
    for (size_t i = 0; i < r->cached_count; ++i)
        fprintf(f, i ? ", %u" : "%u", r->cached[i]);
    fprintf(f, "]\n");
    return GC_OK;
}
