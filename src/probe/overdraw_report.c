// SPDX-License-Identifier: MIT
/* `gpucache probe --overdraw` (gpucache_private.h): the overdraw model's six views rendered
 * on a Vulkan device, its count of shaded fragments beside the model's
 * (docs/models/overdraw.md), as lines or JSON. */
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_probe.h"
#include "gpucache_private.h"

#include <stdlib.h>

static void print_text(FILE* f, const char* device, const char* path, size_t n, const gc_probe_overdraw_result* m,
                       const gc_overdraw_stats* model, double diff)
{
    char name[1024];
    size_t k = 0;
    for (; path[k] && k + 1 < sizeof name; ++k) /* a file name reaches the terminal printable */
        name[k] = (unsigned char)path[k] < 0x20 || path[k] == 0x7f ? '?' : path[k];
    name[k] = 0;
    fprintf(f, "device:               %s\n", device);
    fprintf(f, "input:                %s, %zu triangles\n", name, n / 3);
    fprintf(f, "                      covered    shaded  overdraw\n");
    fprintf(f, "device (counters):  %9llu %9llu  %.4f\n", (unsigned long long)m->covered,
            (unsigned long long)m->shaded, m->ratio);
    fprintf(f, "model:              %9llu %9llu  %.4f\n", (unsigned long long)model->covered,
            (unsigned long long)model->shaded, model->ratio);
    fprintf(f, "fragment invocations: %llu (pipeline statistics)\n", (unsigned long long)m->fragment_invocations);
    fprintf(f, "shaded, device vs model: %+.3f%%\n", 100.0 * diff);
}

static gc_status report(FILE* f, const char* path, const uint32_t* tri, size_t n, const float* xyz,
                        size_t vertices, uint32_t device, int json, gc_error* err)
{
    for (size_t i = 0; i < n; ++i)
        if (tri[i] >= vertices)
            return gc_fail(err, GC_ERR_DATA, "%s: index %zu is %u, past the %zu vertices with positions", path, i,
                           tri[i], vertices);
    gc_overdraw_stats model;
    gc_probe_overdraw_result m;
    gc_probe* probe = NULL;
    gc_status s = gc_analyze_overdraw(tri, n, xyz, vertices, 0, &model, err);
    if (!s)
        s = gc_probe_open(device, &probe, err);
    if (!s)
        s = gc_probe_overdraw(probe, tri, n, xyz, vertices, 0, &m, err);
    if (s) {
        gc_probe_close(probe);
        return s;
    }
    const char* name = gc_probe_info(probe)->name;
    double diff = model.shaded ? ((double)m.shaded - (double)model.shaded) / (double)model.shaded : 0.0;
    if (!json) {
        print_text(f, name, path, n, &m, &model, diff);
        gc_probe_close(probe);
        return GC_OK;
    }
    gc_strbuf j = {0};
    gc_sb_json_open(&j);
    gc_sb_printf(&j, "\"device\": ");
    gc_sb_json_string(&j, name);
    gc_sb_printf(&j, ", \"input\": ");
    gc_sb_json_string(&j, path);
    gc_sb_printf(&j,
                 ", \"triangles\": %zu, \"overdraw\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": %.6f}, "
                 "\"fragment_invocations\": %llu, \"model\": {\"covered\": %llu, \"shaded\": %llu, "
                 "\"ratio\": %.6f}, \"shaded_difference\": %.6f}\n",
                 n / 3, (unsigned long long)m.covered, (unsigned long long)m.shaded, m.ratio,
                 (unsigned long long)m.fragment_invocations, (unsigned long long)model.covered,
                 (unsigned long long)model.shaded, model.ratio, diff);
    gc_probe_close(probe);
    return gc_sb_write(&j, f, err);
}

gc_status gc_probe_overdraw_print(FILE* f, const char* path, const gc_load_options* lo, uint32_t device, int json,
                                  gc_error* err)
{
    uint32_t* tri = NULL;
    float* xyz = NULL;
    size_t n = 0, vertices = 0;
    gc_status s = gc_mesh_load_triangles(path, lo, &tri, &n, NULL, err);
    if (!s)
        s = gc_mesh_load_positions(path, lo, &xyz, &vertices, err);
    if (!s)
        s = report(f, path, tri, n, xyz, vertices, device, json, err);
    free(tri);
    free(xyz);
    return s;
}
