// SPDX-License-Identifier: MIT
/* analyze --meshlets FILE INPUT: a meshlet data file (gpucache meshlets --data) checked
 * against the mesh it was cut from, then its figures (meshlets_report). */
#include "analyze_meshlets.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

int analyze_meshlets(const char* data_path, const char* path, const gc_load_options* lo, int json)
{
    gc_error err = {0};
    gc_meshlets m = {0};
    if (gc_meshlet_data_load(data_path, &m, &err))
        return fail_with(&err);
    uint32_t* tri = NULL;
    size_t n = 0;
    int status = 0;
    if (gc_mesh_load_triangles(path, lo, &tri, &n, NULL, &err) || gc_meshlets_cover(&m, tri, n, data_path, &err))
        status = fail_with(&err);
    if (!status)
        status = gc_meshlets_report_print(stdout, data_path, NULL, &m, 1, 0.0, json, &err) ? fail_with(&err) : 0;
    free(tri);
    gc_meshlets_free(&m);
    return status;
}
