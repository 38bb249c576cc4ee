// SPDX-License-Identifier: MIT
/* analyze --overdraw and --fetch SPEC (vertex_costs.c): the library's gc_mesh_vertex_costs_of,
 * printed beside the cache counts. */
#ifndef GPUCACHE_VERTEX_COSTS_H
#define GPUCACHE_VERTEX_COSTS_H

#include "model_report.h"

typedef struct vertex_costs {
    int overdraw;            /* --overdraw given */
    const char* fetch_text;  /* --fetch SPEC as given, or NULL */
    gc_fetch_spec fetch;     /* parsed */
    gc_mesh_vertex_costs costs;
} vertex_costs;

/* Computes what was asked for `path` (nothing when neither option was given) and points
 * each results[m].fetch at its model's figure (model-dependent specs). Returns 0 or the
 * exit status after printing one line. */
int vertex_costs_compute(vertex_costs* vc, const char* path, const gc_load_options* lo, model_result* results,
                         int model_count);
/* JSON members for the whole input (", \"overdraw\": {...}", an every-reference fetch). */
void vertex_costs_json(strbuf* j, const vertex_costs* vc);
/* JSON member for the glTF draw `draw` (its index among all draws) when it is the
 * `triangle_draw`-th triangle draw. */
void vertex_costs_json_draw(strbuf* j, const vertex_costs* vc, size_t triangle_draw);
/* Text lines after the table. */
void vertex_costs_print(FILE* f, const vertex_costs* vc, const model_result* results, int model_count);
void vertex_costs_free(vertex_costs* vc);

#endif
