// SPDX-License-Identifier: MIT
/* What `gpucache probe` prints (gpucache_probe.h): the devices, and one measurement, as
 * lines or as the JSON of docs/json.md. */
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_probe.h"

gc_status gc_probe_devices_print(FILE* f, const gc_probe_device* devices, uint32_t n, int json, gc_error* err)
{
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"devices\": [");
        for (uint32_t i = 0; i < n; ++i) {
            const gc_probe_device* d = &devices[i];
            gc_sb_printf(&j, "%s{\"index\": %u, \"name\": ", i ? ", " : "", i);
            gc_sb_json_string(&j, d->name);
            gc_sb_printf(&j, ", \"type\": ");
            gc_sb_json_string(&j, d->type);
            gc_sb_printf(&j, ", \"driver\": ");
            gc_sb_json_string(&j, d->driver);
            gc_sb_printf(&j,
                         ", \"api_version\": \"%u.%u.%u\", \"driver_version\": %u, \"vendor_id\": %u, "
                         "\"device_id\": %u, \"max_outputs\": %u, \"list_restart\": %s, \"usable\": %s}",
                         d->api_version >> 22, (d->api_version >> 12) & 0x3FF, d->api_version & 0xFFF,
                         d->driver_version, d->vendor_id, d->device_id, d->max_outputs,
                         d->list_restart ? "true" : "false", d->usable ? "true" : "false");
        }
        gc_sb_printf(&j, "]}\n");
        return gc_sb_write(&j, f, err);
    }
    for (uint32_t i = 0; i < n; ++i) {
        const gc_probe_device* d = &devices[i];
        fprintf(f, "%u: %s [%s] driver \"%s\" Vulkan %u.%u.%u, %u outputs max, list restart %s%s\n", i, d->name,
                d->type, d->driver, d->api_version >> 22, (d->api_version >> 12) & 0x3FF, d->api_version & 0xFFF,
                d->max_outputs, d->list_restart ? "yes" : "no",
                d->usable ? "" : " (unusable: no pipeline statistics or vertex atomics)");
    }
    return GC_OK;
}

gc_status gc_measurement_print(FILE* f, const gc_backend* b, const char* input, const gc_draw* draw,
                               uint64_t expected, uint32_t outputs, const gc_measurement* m, int json, gc_error* err)
{
    const int agree = m->invocations == m->per_vertex_sum;
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"device\": ");
        gc_sb_json_string(&j, b->device);
        gc_sb_printf(&j, ", \"driver\": ");
        gc_sb_json_string(&j, b->driver);
        gc_sb_printf(&j, ", \"input\": ");
        gc_sb_json_string(&j, input);
        gc_sb_printf(&j, ", \"topology\": \"%s\", \"restart\": ", gc_topology_name(draw->topology));
        if (draw->restart_enabled)
            gc_sb_printf(&j, "%u", draw->restart_value);
        else
            gc_sb_printf(&j, "null");
        gc_sb_printf(&j,
                     ", \"outputs\": %u, \"indices\": %zu, \"primitives\": %llu, \"invocations\": %llu, "
                     "\"ia_vertices\": %llu, \"ia_primitives\": %llu, \"per_vertex_sum\": %llu, "
                     "\"statistics_agree\": %s, \"ia_primitives_expected\": %s}\n",
                     outputs, draw->index_count, (unsigned long long)expected, (unsigned long long)m->invocations,
                     (unsigned long long)m->ia_vertices, (unsigned long long)m->ia_primitives,
                     (unsigned long long)m->per_vertex_sum, agree ? "true" : "false",
                     m->ia_primitives == expected ? "true" : "false");
        return gc_sb_write(&j, f, err);
    }
    fprintf(f, "device:          %s (%s)\n", b->device, b->driver);
    fprintf(f, "input:           %s, %s, %zu indices%s, %u output%s\n", input, gc_topology_name(draw->topology),
            draw->index_count, draw->restart_enabled ? ", with restart" : "", outputs, outputs == 1 ? "" : "s");
    fprintf(f, "primitives:      %llu expected, %llu by input assembly\n", (unsigned long long)expected,
            (unsigned long long)m->ia_primitives);
    fprintf(f, "ia vertices:     %llu\n", (unsigned long long)m->ia_vertices);
    fprintf(f, "invocations:     %llu (pipeline statistics)\n", (unsigned long long)m->invocations);
    fprintf(f, "per-vertex sum:  %llu (atomic counters)\n", (unsigned long long)m->per_vertex_sum);
    return GC_OK;
}

void gc_measurement_csv(FILE* f, const gc_measurement* m)
{
    fprintf(f, "index,invocations\n");
    for (size_t i = 0; i < m->count; ++i)
        fprintf(f, "%u,%u\n", m->values[i], m->counts[i]);
}
