// SPDX-License-Identifier: MIT
/* analyze on a .gltf/.glb (analyze_gltf.c). */
#ifndef GPUCACHE_ANALYZE_GLTF_H
#define GPUCACHE_ANALYZE_GLTF_H

#include "model_report.h"
#include "vertex_costs.h"

/* Every model of results[0 .. model_count) on every mesh primitive of `path`, each its own
 * draw (gc_mesh_analyze on `threads` threads): the draws and the sums printed as a table or
 * with `json` as analyze --json (with vc's overdraw and fetch); the sums left in results[m].stats. Returns 0 or the exit
 * status after printing one line. */
int analyze_gltf(const char* path, const gc_load_options* lo, model_result* results, int model_count,
                 unsigned threads, int json, const vertex_costs* vc);

#endif
