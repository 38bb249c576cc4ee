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
static int load_triangles(const char* path, const gc_load_options* lo, input* in, uint32_t** tri, size_t* n,
                          float** xyz, size_t* vertices)
{
    gc_error err = {0};
    if (load_input(path, lo, in, &err))
        return fail_with(&err);
    gc_draw d = {in->mesh.indices, in->mesh.index_count, in->mesh.topology, in->mesh.restart_enabled,
                 in->mesh.restart_value};
    uint64_t primitives = 0;
    if (gc_draw_validate(&d, in->name, &primitives, &err))
        return fail_with(&err);
    if (d.topology != GC_TRIANGLE_LIST && d.topology != GC_TRIANGLE_STRIP && d.topology != GC_TRIANGLE_FAN) {
        fprintf(stderr, "gpucache: %s: --overdraw needs triangles, not %s\n", in->name, gc_topology_name(d.topology));
        return EXIT_DATA;
    }
    *tri = malloc(3 * (size_t)primitives * sizeof **tri + 1);
    if (!*tri) {
        fprintf(stderr, "gpucache: %s: out of memory for %llu triangles\n", in->name,
                (unsigned long long)primitives);
        return EXIT_DATA;
    }
    if (gc_draw_triangles(&d, *tri, 3 * (size_t)primitives, n, &err) ||
        gc_mesh_load_positions(path, lo, xyz, vertices, &err))
        return fail_with(&err);
    for (size_t i = 0; i < *n; ++i)
        if ((*tri)[i] >= *vertices) {
            fprintf(stderr, "gpucache: %s: index %zu is %u, past the %zu vertices with positions\n", in->name, i,
                    (*tri)[i], *vertices);
            return EXIT_DATA;
        }
    return 0;
}

int probe_overdraw(const char* path, uint32_t device, int json, const gc_load_options* lo)
{
    input in;
    memset(&in, 0, sizeof in);
    uint32_t* tri = NULL;
    float* xyz = NULL;
    size_t n = 0, vertices = 0;
    gc_probe* probe = NULL;
    gc_error err = {0};
    int status = load_triangles(path, lo, &in, &tri, &n, &xyz, &vertices);
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
            sb_json_string(&j, in.name);
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
            printf("input:                %s, %zu triangles\n", in.name, n / 3);
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
    gc_mesh_free(&in.mesh);
    return status;
}
