// SPDX-License-Identifier: MIT
/* The pictures' files (docs/pictures.md): the library draws every picture as SVG
 * (gpucache_pictures.h); these write it whole or not at all, as SVG or, when the output's
 * name ends in .png, rendered to PNG by rsvg-convert (the library's gc_png_file), and print
 * what went wrong (pictures.c). */
#ifndef GPUCACHE_PICTURES_H
#define GPUCACHE_PICTURES_H

#include "cli_util.h"
#include "gpucache/gpucache_pictures.h"


typedef struct picture_file {
    FILE* f;        /* the SVG is written here */
    atomic_file af; /* an SVG output: the temporary renamed into place */
    int png;        /* the output's name ends in .png: gc_png_file, signals held until done */
    gc_png_file png_file;
    const char* path;
} picture_file;

/* Opens the picture's SVG stream; prints one line and returns EXIT_DATA on failure. */
int picture_open(picture_file* p, const char* path);
/* Puts the picture in place (PNG: rendered first); nothing is left behind and the output
 * is whole or untouched. Prints one line and returns EXIT_DATA on failure. */
int picture_commit(picture_file* p);
/* Drops the picture: its temporaries go, the output is untouched. */
void picture_abort(picture_file* p);
/* picture_commit when s is GC_OK, else picture_abort and fail_with(err). */
int picture_end(picture_file* p, gc_status s, const gc_error* err);

/* The view named `name` ("front", "side", "top") into *(gc_heatmap_view*)out; -1 for another
 * name (an ARG_CALL). */
int heatmap_view_parse(const char* name, void* out);

/* analyze --heatmap: `draw` of the mesh file `mesh_path` (loaded with `lo`), each triangle
 * filled by the mean invocation count of its vertices under `model` (gc_heatmap_write:
 * `runs`, `base`, a scale up to `scale_max`, 0: the largest count). */
int write_heatmap(const char* out_path, const char* mesh_path, const gc_load_options* lo, const gc_model* model,
                  const gc_draw* draw, const size_t* runs, size_t run_count, const gc_analyze_options* base,
                  gc_heatmap_view view, uint32_t scale_max);
/* analyze --trace-plot: the cache contents after primitives [from, from + count) of `draw`
 * under `model` (gc_timeline_write). */
int write_trace_plot(const char* out_path, const char* name, const gc_model* model, const gc_draw* draw,
                     const gc_analyze_options* base, uint64_t from, uint64_t count);
/* analyze --overdraw-map: the overdraw model's view of the mesh file (gc_overdraw_map_write). */
int write_overdraw_map(const char* out_path, const char* mesh_path, const gc_load_options* lo,
                       gc_heatmap_view view);

#endif
