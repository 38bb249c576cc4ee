/* analyze --meshlets FILE INPUT: a meshlet data file (gpucache meshlets --data) checked
 * against the mesh it was cut from, then its figures (meshlets_report). */
#include "analyze_meshlets.h"

#include "cli.h"
#include "meshlets_cli.h"

#include <stdio.h>
#include <stdlib.h>

int analyze_meshlets(const char* data_path, const char* path, const gc_load_options* lo, int json)
{
    gc_error err = {0};
    gc_meshlets m = {0};
    if (gc_meshlet_data_load(data_path, &m, &err))
        return fail_with(&err);
    input in;
    int status = 0;
    uint32_t* tri = NULL;
    size_t n = 0;
    if (load_input(path, lo, &in, &err)) {
        gc_meshlets_free(&m);
        return fail_with(&err);
    }
    gc_draw d = {in.mesh.indices, in.mesh.index_count, in.mesh.topology, in.mesh.restart_enabled,
                 in.mesh.restart_value};
    uint64_t primitives = 0;
    if (gc_draw_validate(&d, in.name, &primitives, &err))
        status = fail_with(&err);
    else if (!(tri = malloc(3 * (size_t)primitives * sizeof *tri + 1))) {
        fprintf(stderr, "gpucache: %s: out of memory for %llu triangles\n", in.name, (unsigned long long)primitives);
        status = EXIT_DATA;
    } else if (gc_draw_triangles(&d, tri, 3 * (size_t)primitives, &n, &err) ||
               gc_meshlets_cover(&m, tri, n, data_path, &err)) {
        status = fail_with(&err);
    }
    if (!status)
        status = meshlets_report(data_path, NULL, &m, 1, 0.0, json);
    free(tri);
    gc_mesh_free(&in.mesh);
    gc_meshlets_free(&m);
    return status;
}
