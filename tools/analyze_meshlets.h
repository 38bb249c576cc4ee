// SPDX-License-Identifier: MIT
/* analyze --meshlets (analyze_meshlets.c). */
#ifndef GPUCACHE_ANALYZE_MESHLETS_H
#define GPUCACHE_ANALYZE_MESHLETS_H

#include "gpucache_private.h"

/* Reads the meshlet data file `data_path` (validated as gc_meshlet_data_load does), checks
 * that its meshlets draw exactly the triangles of the mesh `path` (gc_meshlets_cover: one
 * line naming the meshlet otherwise) and prints its figures as `meshlets --check` does.
 * Returns 0 or the exit status after printing one line. */
int analyze_meshlets(const char* data_path, const char* path, const gc_load_options* lo, int json);

#endif
