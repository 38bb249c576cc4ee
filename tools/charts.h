// SPDX-License-Identifier: MIT
/* The charts of fit --plot and memsys --compare --plot (docs/pictures.md): SVG files
 * written whole or not at all (atomic_open/atomic_commit), every name from a file escaped. */
#ifndef GPUCACHE_CHARTS_H
#define GPUCACHE_CHARTS_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_pictures.h"

/* The most models fit --plot draws (the first of the ranking). */
#define FIT_PLOT_MAX_MODELS GC_FIT_CHART_MAX_MODELS

/* Draws, for each of the first min(found, FIT_PLOT_MAX_MODELS) candidates of `best`, one
 * panel of predicted / measured invocations over the cases of `in` (x: case number): a
 * filled dot for a case predicted exactly (gc_fit_evaluate's exact), a hollow ring for a
 * wrong one, a cross at the panel's top for a case the model cannot run. `name` is the
 * measurement file's name for the title. Costs one gc_fit_evaluate per case and model.
 * Returns 0 or the exit status after printing one line. */
int write_fit_plot(const char* out_path, const char* name, const gc_measurements* in, const gc_fit_candidate* best,
                   size_t found);

/* Draws the total cycles of each of the `count` strategies' reports as a stacked bar (bus
 * traffic, invalidates, writebacks: gc_memsys_stats' bus_cycles, invalidate_cycles and
 * writeback_cycles, which add up to cycles), in the order `order` (best first, marked),
 * labelled with `ids` (indexed like `reports`). `name` is the scenario's name for the title. Returns 0 or the exit
 * status after printing one line. */
int write_memsys_plot(const char* out_path, const char* name, const gc_memsys_report* reports, const int* order,
                      const char* const* ids, int count);

#endif
