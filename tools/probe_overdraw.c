// SPDX-License-Identifier: MIT
/* gpucache probe --overdraw: the overdraw model's six views rendered on the Vulkan device,
 * its count of shaded fragments beside the model's (docs/models/overdraw.md). */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_probe.h"
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mesh as the triangles it draws, with its positions. Prints and returns an exit
 * status on failure. */
static int load_triangles(const char* path, const gc_load_options* lo, uint32_t** tri, size_t* n, float** xyz,
                          size_t* vertices)
{
    gc_error err = {0};
    if (gc_mesh_load_triangles(path, lo, tri, n, NULL, &err) || gc_mesh_load_positions(path, lo, xyz, vertices, &err))
        return fail_with(&err);
    for (size_t i = 0; i < *n; ++i)
        if ((*tri)[i] >= *vertices) {
            fprintf(stderr, "gpucache: %s: index %zu is %u, past the %zu vertices with positions\n", path, i,
                    (*tri)[i], *vertices);
            return EXIT_DATA;
        }
    return 0;
}

int probe_overdraw(const char* path, uint32_t device, int json, const gc_load_options* lo)
{
    uint32_t* tri = NULL;
    float* xyz = NULL;
    size_t n = 0, vertices = 0;
    gc_probe* probe = NULL;
    gc_error err = {0};
    int status = load_triangles(path, lo, &tri, &n, &xyz, &vertices);
    gc_overdraw_stats model;
    gc_probe_overdraw_result measured;
    if (!status && gc_analyze_overdraw(tri, n, xyz, vertices, 0, &model, &err))
        status = fail_with(&err);
    if (!status && (gc_probe_open(device, &probe, &err) ||
                    gc_probe_overdraw(probe, tri, n, xyz, vertices, 0, &measured, &err)))
        status = fail_with(&err);
    if (!status) {
        const char* name = gc_probe_info(probe)->name;
        double diff = model.shaded ? ((double)measured.shaded - (double)model.shaded) / (double)model.shaded : 0.0;
        if (json) {
            strbuf j = {0};
            sb_json_open(&j);
            sb_printf(&j, "\"device\": ");
            sb_json_string(&j, name);
            sb_printf(&j, ", \"input\": ");
            sb_json_string(&j, path);
            sb_printf(&j,
                      ", \"triangles\": %zu, \"overdraw\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": %.6f}, "
                      "\"fragment_invocations\": %llu, \"model\": {\"covered\": %llu, \"shaded\": %llu, "
                      "\"ratio\": %.6f}, \"shaded_difference\": %.6f}\n",
                      n / 3, (unsigned long long)measured.covered, (unsigned long long)measured.shaded,
                      measured.ratio, (unsigned long long)measured.fragment_invocations,
                      (unsigned long long)model.covered, (unsigned long long)model.shaded, model.ratio, diff);
            status = print_json_document(&j);
        } else {
            printf("device:               %s\n", name);
            char name[1024];
            copy_printable(name, sizeof name, path);
            printf("input:                %s, %zu triangles\n", name, n / 3);
            printf("                      covered    shaded  overdraw\n");
            printf("device (counters):  %9llu %9llu  %.4f\n", (unsigned long long)measured.covered,
                   (unsigned long long)measured.shaded, measured.ratio);
            printf("model:              %9llu %9llu  %.4f\n", (unsigned long long)model.covered,
                   (unsigned long long)model.shaded, model.ratio);
            printf("fragment invocations: %llu (pipeline statistics)\n",
                   (unsigned long long)measured.fragment_invocations);
            printf("shaded, device vs model: %+.3f%%\n", 100.0 * diff);
        }
    }
    gc_probe_close(probe);
    free(tri);
    free(xyz);
    return status;
}
