// SPDX-License-Identifier: MIT
/* What gpucache meshlets prints (the table or --json), its --check of a data file, and the
 * positions of one glTF draw for --bounds. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "meshlets_cli.h"

#include <stdio.h>
#include <stdlib.h>

int meshlets_report(const char* in, const char* out, const gc_meshlets* m, size_t runs, double seconds, int json)
{
    size_t tris = m->triangle_count, count = m->meshlet_count;
    double mv = count ? (double)m->vertex_count / (double)count : 0;
    double mt = count ? (double)tris / (double)count : 0;
    double vpt = tris ? (double)m->vertex_count / (double)tris : 0;
    double fill = count ? 100.0 * mt / m->max_triangles : 0;
    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"input\": ");
        sb_json_string(&j, in);
        sb_printf(&j, ", \"output\": ");
        if (out)
            sb_json_string(&j, out);
        else
            sb_printf(&j, "null");
        sb_printf(&j,
                  ", \"limits\": {\"max_vertices\": %u, \"max_triangles\": %u}, \"runs\": %zu, \"meshlets\": %zu, "
                  "\"meshlet_vertices\": %zu, \"triangles\": %zu, \"mean_vertices\": " JSON_FLOAT
                  ", \"mean_triangles\": " JSON_FLOAT ", \"vertices_per_triangle\": " JSON_FLOAT
                  ", \"triangle_fill\": " JSON_FLOAT ", \"bounds\": %s, \"seconds\": " JSON_FLOAT "}\n",
                  m->max_vertices, m->max_triangles, runs, count, m->vertex_count, tris, JF(mv), JF(mt), JF(vpt),
                  JF(fill / 100.0), m->bounds ? "true" : "false", JF(seconds));
        return print_json_document(&j);
    }
    if (out)
        printf("%s -> %s: meshlets of at most %u vertices and %u triangles, in %.3f s\n", in, out, m->max_vertices,
               m->max_triangles, seconds);
    else
        printf("%s: meshlets of at most %u vertices and %u triangles%s\n", in, m->max_vertices, m->max_triangles,
               m->bounds ? ", with bounds" : "");
    printf("  %-22s %12s\n", "figure", "value");
    printf("  %-22s %12zu\n", "meshlets", count);
    printf("  %-22s %12zu\n", "meshlet vertices", m->vertex_count);
    printf("  %-22s %12zu\n", "triangles", tris);
    printf("  %-22s %12.2f\n", "mean vertices", mv);
    printf("  %-22s %12.2f\n", "mean triangles", mt);
    printf("  %-22s %12.4f\n", "vertices per triangle", vpt);
    printf("  %-22s %11.1f%%\n", "triangle fill", fill);
    return 0;
}

int meshlets_check_file(const char* path, int json)
{
    gc_meshlets m = {0};
    gc_error err = {0};
    if (gc_meshlet_data_load(path, &m, &err))
        return fail_with(&err);
    int status = meshlets_report(path, NULL, &m, 1, 0.0, json);
    gc_meshlets_free(&m);
    return status;
}

int gltf_draw_positions(const char* path, int allow_external, const uint32_t* indices, size_t n, float** xyz,
                        size_t* first, size_t* count)
{
    gc_load_options lo = {0};
    lo.allow_external_uris = allow_external;
    gc_mesh mesh;
    gc_error err = {0};
    *xyz = NULL;
    if (gc_mesh_load(path, &lo, &mesh, &err))
        return fail_with(&err);
    if (gc_mesh_load_positions(path, &lo, xyz, count, &err)) {
        gc_mesh_free(&mesh);
        return fail_with(&err);
    }
    /* the loaded mesh has one run per triangle primitive, its ids offset per vertex set: the
       draw is the run that is `indices` plus one offset */
    size_t single = mesh.index_count / 3, at = 0;
    const size_t* runs = mesh.runs ? mesh.runs : &single;
    size_t run_count = mesh.runs ? mesh.run_count : 1;
    int found = 0;
    for (size_t r = 0; r < run_count && !found; at += 3 * runs[r], ++r) {
        if (3 * runs[r] != n || n == 0 || at + n > mesh.index_count || mesh.indices[at] < indices[0])
            continue;
        uint32_t offset = mesh.indices[at] - indices[0];
        size_t k = 0;
        while (k < n && mesh.indices[at + k] - indices[k] == offset && mesh.indices[at + k] >= indices[k])
            ++k;
        if (k == n && (size_t)offset <= *count) {
            *first = offset;
            found = 1;
        }
    }
    gc_mesh_free(&mesh);
    if (!found) {
        free(*xyz);
        *xyz = NULL;
        fprintf(stderr, "gpucache: %s: cannot find the positions of the triangle list's vertices (--bounds)\n", path);
        return EXIT_DATA;
    }
    return 0;
}
