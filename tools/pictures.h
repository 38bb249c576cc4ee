// SPDX-License-Identifier: MIT
/* analyze's pictures (docs/pictures.md): the heat map of per-vertex invocations on the
 * mesh, and seed 000's cache listings as a timeline. The library draws them
 * (gpucache_pictures.h); these put them in SVG (or PNG) files written whole or not at all
 * (picture_file.h) and print what went wrong. */
#ifndef GPUCACHE_PICTURES_H
#define GPUCACHE_PICTURES_H

#include "gpucache_private.h"
#include "gpucache/gpucache_pictures.h"

#include <stdio.h>

/* The views of the heat map: orthographic, looking along -Z (front), -X (side) or -Y
 * (top). */
typedef gc_heatmap_view heatmap_view;
#define VIEW_FRONT GC_VIEW_FRONT
#define VIEW_SIDE GC_VIEW_SIDE
#define VIEW_TOP GC_VIEW_TOP

/* The view named `name` ("front", "side", "top") into *(heatmap_view*)out; -1 for another name (an ARG_CALL). */
int heatmap_view_parse(const char* name, void* out);

/* The most triangles the heat map draws: past it, every k-th triangle is drawn (the
 * counts are those of the whole draw) and the caption says so. */
#define HEATMAP_MAX_TRIANGLES GC_HEATMAP_MAX_TRIANGLES

/* Draws `draw` (a triangle list, strip or fan of the mesh file `mesh_path`, loaded with
 * `lo`) into the SVG `out_path`, each triangle filled by the mean invocation count of its
 * vertices under `model` (analyzed with `base`'s state changes; with `runs`, a triangle
 * list whose runs of runs[i] triangles are analyzed each as its own draw, as analyze does
 * a glTF's primitives, the counts and totals added up), on a scale from 1 to
 * `scale_max` (0: the largest count; larger counts take its colour). `name` is the input's
 * name for the caption. Returns 0 or the exit status after printing one line. */
int write_heatmap(const char* out_path, const char* mesh_path, const gc_load_options* lo, const char* name,
                  const gc_model* model, const gc_draw* draw, const size_t* runs, size_t run_count,
                  const gc_analyze_options* base, heatmap_view view, uint32_t scale_max);

/* write_heatmap's drawing on positions already loaded (xyz: vertex_count x, y, z triples,
 * indexed by the draw's index values): into `into` as an <svg> element without the XML
 * declaration (gpucache report inlines it; nothing is written on failure before the
 * element starts), or, with `into` NULL, into the SVG file `out_path`, whole or not at
 * all. At most `max_triangles` are drawn (write_heatmap: HEATMAP_MAX_TRIANGLES). Returns 0 or
 * the exit status after printing one line. */
int draw_heatmap(FILE* into, const char* out_path, const float* xyz, size_t vertex_count, const char* name,
                 const gc_model* model, const gc_draw* draw, const size_t* runs, size_t run_count,
                 const gc_analyze_options* base, heatmap_view view, uint32_t scale_max, size_t max_triangles);

/* The timeline's default window and its largest: primitives drawn. */
#define TRACE_PLOT_DEFAULT_COUNT GC_TIMELINE_DEFAULT_COUNT
#define TRACE_PLOT_MAX_COUNT GC_TIMELINE_MAX_COUNT
/* The most cells (slots x primitives) one timeline draws, about 11 MB of SVG; past it the
 * command asks for a smaller --count (exit 2) before writing anything. */
#define TRACE_PLOT_MAX_CELLS GC_TIMELINE_MAX_CELLS

/* Draws the cache contents after primitives [from, from + count) of `draw` under `model`
 * into the SVG `out_path`: one column per primitive, one row per slot, each cell coloured
 * by the index value it holds (printed in it when there is room), a dot where a value
 * entered the cache, a vertical line where the cache lost entries (a reset, a flush or a
 * new batch). Returns 0 or the exit status after printing one line. */
/* analyze --overdraw-map: the overdraw model's view (front, side, top) of the mesh file
 * `mesh_path`, its shaded count per pixel (gc_overdraw_map_write), as SVG or PNG. Returns
 * 0 or the exit status after printing one line. */
int write_overdraw_map(const char* out_path, const char* mesh_path, const gc_load_options* lo, heatmap_view view);
int write_trace_plot(const char* out_path, const char* name, const gc_model* model, const gc_draw* draw,
                     const gc_analyze_options* base, uint64_t from, uint64_t count);

#endif
