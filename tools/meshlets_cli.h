// SPDX-License-Identifier: MIT
/* gpucache meshlets' report (tools/meshlets_report.c), shared by tools/cmd_meshlets.c. */
#ifndef GPUCACHE_MESHLETS_CLI_H
#define GPUCACHE_MESHLETS_CLI_H

#include "gpucache/gpucache.h"

#include <stddef.h>
#include <stdint.h>

/* Prints the figures of a set of meshlets (meshlets, meshlet vertices, triangles, means,
 * vertices per triangle, fill, limits) as a table or, with `json`, as one JSON document.
 * Returns 0 or the exit status. */
int meshlets_report(const char* in, const char* out, const gc_meshlets* m, size_t runs, double seconds, int json);
/* --check FILE: reads and validates a meshlet data file (gc_meshlet_data_load), then
 * reports it; one line and exit 1 when it is bad. */
int meshlets_check_file(const char* path, int json);

/* --bounds on a glTF: the POSITION data of the draw whose index values are `indices` (n of
 * them, as in the file), found among gc_mesh_load's runs; *xyz (free it) holds *count
 * vertices, the draw's value v at *xyz + 3 * (*first + v). Returns 0 or the exit status
 * after printing one line. */
int gltf_draw_positions(const char* path, int allow_external, const uint32_t* indices, size_t n, float** xyz,
                        size_t* first, size_t* count);

#endif
