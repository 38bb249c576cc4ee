/* gpucache meshlets' report (tools/meshlets_report.c), shared by tools/cmd_meshlets.c. */
#ifndef GPUCACHE_MESHLETS_CLI_H
#define GPUCACHE_MESHLETS_CLI_H

#include "gpucache/gpucache.h"

#include <stddef.h>

/* Prints the figures of a set of meshlets (meshlets, meshlet vertices, triangles, means,
 * vertices per triangle, fill, limits) as a table or, with `json`, as one JSON document.
 * Returns 0 or the exit status. */
int meshlets_report(const char* in, const char* out, const gc_meshlets* m, size_t runs, double seconds, int json);
/* --check FILE: reads and validates a meshlet data file (gc_meshlet_data_load), then
 * reports it; one line and exit 1 when it is bad. */
int meshlets_check_file(const char* path, int json);

#endif
