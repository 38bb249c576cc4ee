/* The report command's parts (report_parts.c). */
#ifndef GPUCACHE_REPORT_PARTS_H
#define GPUCACHE_REPORT_PARTS_H

#include "cli.h"
#include "model_report.h"
#include "pictures.h"

#include <stdio.h>

/* The sweep's layouts for a mesh (optimal and striped are for generated grids only). */
#define SWEEP_LAYOUTS "original,tipsify,forsyth,auto"

/* One row of the report's table: a model before, and after optimize. */
typedef struct report_row {
    model_result before;
    gc_stats after;
    int is_preset;
} report_row;

/* Text as HTML character data or attribute text, line breaks and tabs kept (for <pre>). */
void html_text(FILE* f, const char* s);
/* Appends `s` to *b as one word a POSIX shell reads back byte for byte. */
void sh_word(strbuf* b, const char* s);
/* Every row's model analyzed on one draw into "before" or, with `after`, "after". */
int analyze_rows(report_row* rows, size_t count, const gc_draw* d, long threads, int after);
/* The largest per-vertex count of `d` under `m` (each run its own draw): the heat maps' scale. */
int largest_count(const gc_model* m, const gc_draw* d, const size_t* runs, size_t run_count, size_t vertex_count,
                  uint32_t* out);
/* The sweep of the mesh `tri` (dense ids below vertex_count) for `model`, drawn by gnuplot
 * into `f`, or a note saying why there is none. Non-zero only when the sweep failed. */
int sweep_figure(FILE* f, const char* name, const uint32_t* tri, size_t n, uint32_t vertex_count,
                 const char* model_spec, const gc_model* model, uint32_t lo, uint32_t hi, long threads);
/* The table of every row before and after (and for a glTF what optimize reordered and left). */
void write_table(FILE* f, const report_row* rows, size_t row_count, int target_row, int has_triangles, int gltf,
                 size_t reordered, size_t left);
/* The commands that redo each part of the page; EXIT_DATA when out of memory, else 0. */
int write_commands(FILE* f, const char* in_name, const char* model_spec, const char* dot, heatmap_view view,
                   const char* view_name, int has_triangles, uint32_t scale_max, uint32_t lo_size, uint32_t hi_size);

#endif
