// SPDX-License-Identifier: MIT
/* The gpucache tool's reports as library functions: what `gpucache memsys`, `fit`,
 * `validate` and `probe` print, as a table or as the JSON of docs/json.md, written to a
 * stream the caller gives. The library never prints on its own: these write only to that
 * stream. A JSON document is built whole first, so that it is written whole or not at all
 * (GC_ERR_NOMEM, nothing written, when memory runs out). */
#ifndef GPUCACHE_TEXT_H
#define GPUCACHE_TEXT_H

#include "gpucache.h"
#include "gpucache_memsys.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ models */

/* `gpucache models`: every family (gc_family_get: its syntax and summary) and every preset
 * (name, spec, source), as text or, with `json`, its JSON. */
GC_API gc_status gc_models_print(FILE* f, int json, gc_error* err);

/* ------------------------------------------------------------------ memsys */

/* A flush strategy's short id ("as-written", "l1-bypass", "l2-bypass", "sc-as-uc"), as
 * memsys --strategy takes it and its JSON writes it; NULL for another value. O(1). */
GC_API const char* gc_memsys_strategy_id(gc_memsys_strategy s);
/* The strategy whose id is `id`; GC_ERR_USAGE naming the four otherwise. O(1). */
GC_API gc_status gc_memsys_strategy_parse(const char* id, gc_memsys_strategy* out, gc_error* err);

/* Replays `scenario` under every strategy (GC_MEMSYS_STRATEGY_COUNT of them, into
 * reports[s] for strategy s) and ranks them into order[] (best first): by total cycles,
 * then Onion and Onion+ bytes, ties in strategy order. `progress`, when not NULL, sees one
 * count over the four replays. On failure no report is left to free; on success the
 * caller frees each with gc_memsys_report_free. Time: four gc_memsys_run. */
GC_API gc_status gc_memsys_compare(const gc_memsys* scenario, gc_progress_fn progress, void* progress_user,
                                   gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT],
                                   int order[GC_MEMSYS_STRATEGY_COUNT], gc_error* err);

/* memsys's report of one replay of the scenario file `path` under `strategy`: the table
 * (per dispatch, between them, the total, then the hazards) or, with `json`, its JSON. */
GC_API gc_status gc_memsys_report_print(FILE* f, const char* path, const gc_memsys_report* report,
                                        gc_memsys_strategy strategy, int json, gc_error* err);
/* memsys --compare's ranking of gc_memsys_compare's reports, as a table or JSON. */
GC_API gc_status gc_memsys_ranking_print(FILE* f, const char* path,
                                         const gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT],
                                         const int order[GC_MEMSYS_STRATEGY_COUNT], int json, gc_error* err);

#ifdef __cplusplus
}
#endif

#endif
