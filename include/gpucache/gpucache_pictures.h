// SPDX-License-Identifier: MIT
/* gpucache_pictures.h: the pictures of gpucache (docs/pictures.md), drawn by the library
 * so that C and Python callers get the same files as the command-line tool: a small SVG
 * writer, the heat map of per-vertex invocations, the cache timeline, and the charts of
 * fit and memsys. Part of libgpucache (the core); the heat map of a mesh file and the
 * report, which read files, are libgpucache_io's (gpucache_io.h).
 *
 * Every function writes to a stream the caller opened (a temporary file renamed into
 * place, a pipe, an open_memstream buffer) and never prints, exits or opens files by
 * name; the *_svg variants return the text in memory instead (free it with gc_svg_free).
 * Every text that came from a user or a file is XML-escaped. A function that fails
 * returns a gc_status with a one-line message in *err; what it already wrote to the
 * stream is then incomplete, so a caller writing a file drops the temporary. Checking
 * the stream's write errors (ferror, fclose) is the caller's part. */
#ifndef GPUCACHE_PUBLIC_PICTURES_H
#define GPUCACHE_PUBLIC_PICTURES_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_memsys.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ SVG writer */

/* Writes the XML declaration and the <svg> element of a `width` x `height` picture (user
 * units are pixels) with a white background. Cost: O(1). */
GC_API void gc_svg_begin(FILE* f, int width, int height);
/* The same <svg> element without the XML declaration: a picture inlined into another
 * document (an HTML report). Cost: O(1). */
GC_API void gc_svg_open(FILE* f, int width, int height);
/* Closes the <svg> element. Cost: O(1). */
GC_API void gc_svg_end(FILE* f);
/* Writes `s` (NUL-terminated) as XML character data or attribute text: & < > " '
 * escaped, control characters and bytes that are not well-formed UTF-8 written as '?',
 * so that a hostile name can neither end the element nor make the file unparseable. At
 * most `max` bytes of `s` (longer text ends in "..."); 0: all. Cost: O(strlen(s)). */
GC_API void gc_svg_escape(FILE* f, const char* s, size_t max);
/* The picture's <title>: `what` (trusted, written as is), then `name` escaped (at most
 * 200 bytes of it). Cost: O(strlen(name)). */
GC_API void gc_svg_title(FILE* f, const char* what, const char* name);
/* The length of the well-formed UTF-8 sequence at `s` (1 to 4 bytes), 0 when it is not
 * one (overlong forms, surrogates and values past U+10FFFF included). `s` is
 * NUL-terminated. Cost: O(1). */
GC_API size_t gc_svg_utf8_length(const unsigned char* s);
/* Replaces, in place, every control character (but tab, newline and carriage return when
 * `keep_lines`) and every byte that is not part of valid UTF-8 with '?'. Cost: O(strlen). */
GC_API void gc_svg_clean(char* s, int keep_lines);
/* Writes a <text> element at (x, y) with the anchor ("start", "middle", "end": trusted),
 * the size in pixels and the text `s`, escaped here. Cost: O(strlen(s)). */
GC_API void gc_svg_text(FILE* f, double x, double y, const char* anchor, int size, const char* s);
/* The colour of t in [0, 1] on the count ramp (dark blue, teal, green, yellow, red), as
 * 0xRRGGBB; t outside [0, 1] is clamped. Cost: O(1). */
GC_API uint32_t gc_svg_ramp(double t);
/* A colour for an index value: a hash spread over hues at fixed lightness, so that
 * neighbouring values differ, as 0xRRGGBB. Cost: O(1). */
GC_API uint32_t gc_svg_hash_colour(uint32_t value);
/* Frees a text returned by a *_svg function (NULL is allowed). */
GC_API void gc_svg_free(char* text);

/* ------------------------------------------------------------------ heat map */

/* The views of the heat map: orthographic, looking along -Z (front), -X (side) or -Y (top). */
typedef enum gc_heatmap_view { GC_VIEW_FRONT = 0, GC_VIEW_SIDE = 1, GC_VIEW_TOP = 2 } gc_heatmap_view;

/* The view named `name` ("front", "side", "top") into *out; GC_ERR_USAGE for another name. */
GC_API gc_status gc_heatmap_view_parse(const char* name, gc_heatmap_view* out, gc_error* err);

/* The overdraw map: the view of the overdraw model (docs/models/overdraw.md) along the
 * axis of `view` (front: Z, side: X, top: Y), each of its 256 x 256 pixels coloured by the
 * fragments shaded there on the side facing the viewer (gc_overdraw_view's side toward
 * +axis), on the count ramp from 1 to the largest count; uncovered pixels are left white.
 * `indices` (a triangle list over `positions`, packed x, y, z) as gc_analyze_overdraw takes
 * them; `name` (may be NULL) is escaped. Writes a whole SVG document to `f`, about 60 bytes
 * per run of equal pixels in a row. Errors: gc_analyze_overdraw's, before anything is
 * written. Time: one view of the model. */
GC_API gc_status gc_overdraw_map_write(FILE* f, const uint32_t* indices, size_t index_count, const float* positions,
                                       size_t vertex_count, const char* name, gc_heatmap_view view, gc_error* err);

/* The most triangles the heat map draws by default: past it the drawing (not the data) is
 * decimated and the caption says so. */
#define GC_HEATMAP_MAX_TRIANGLES 100000

typedef struct gc_heatmap_options {
    gc_heatmap_view view;
    uint32_t scale_max;                   /* the top of the colour scale; 0: the largest count */
    size_t max_triangles;                 /* 0: GC_HEATMAP_MAX_TRIANGLES */
    int inline_svg;                       /* non-zero: no XML declaration (for HTML) */
    const size_t* runs;                   /* optional: a triangle list cut into runs of runs[i] */
    size_t run_count;                     /* triangles, each analyzed as its own draw (a glTF's
                                           * primitives), the counts and totals added up */
    const gc_analyze_options* base;       /* optional: its state changes are used */
} gc_heatmap_options;

/* Draws `draw` into `f` as an SVG picture, each triangle (quads split in two; points and
 * lines skipped) filled by the mean invocation count of its vertices under `model`, on a
 * scale from 1 to the options' scale_max. `xyz` holds vertex_count x, y, z triples indexed
 * by the draw's index values; `name` is the input's name for the title and caption.
 * Fails with GC_ERR_DATA when the draw has no triangles or an index has no position,
 * GC_ERR_NOMEM, or gc_analyze's error; nothing is written to `f` on failure. Cost: one
 * gc_analyze per run, and O(triangles x cell sizes tried) with 2 x 480,000 cells of
 * memory for the decimation; the file is about 30 bytes per drawn triangle. */
GC_API gc_status gc_heatmap_write(FILE* f, const float* xyz, size_t vertex_count, const char* name,
                                  const gc_model* model, const gc_draw* draw, const gc_heatmap_options* options,
                                  gc_error* err);

/* The largest per-vertex count of `draw` under `model` (at least 1): a common top of the
 * scale (scale_max) for two heat maps of one mesh, such as before and after a reordering.
 * With `runs` (a triangle list cut into runs of runs[i] triangles), each run is analyzed
 * as its own draw and a vertex's counts over the runs add up, as gc_heatmap_write counts
 * them; `vertex_count` bounds the index values then (memory: 4 bytes a vertex). Cost:
 * one gc_analyze per run. */
GC_API gc_status gc_heatmap_largest_count(const gc_model* model, const gc_draw* draw, const size_t* runs,
                                          size_t run_count, size_t vertex_count, uint32_t* out, gc_error* err);

/* ------------------------------------------------------------------ timeline */

/* The timeline's default window and its largest: primitives drawn. */
#define GC_TIMELINE_DEFAULT_COUNT 200
#define GC_TIMELINE_MAX_COUNT 5000
/* The most cells (slots x primitives) one timeline draws, about 11 MB of SVG. */
#define GC_TIMELINE_MAX_CELLS 131072

/* What gc_timeline_write found, also on failure (for the caller's message). */
typedef struct gc_timeline_info {
    uint64_t primitives; /* the draw's primitives */
    uint64_t count;      /* the window's primitives after clamping to the draw */
    size_t slots;        /* the most entries the model listed after one primitive */
} gc_timeline_info;

/* Draws the cache contents after primitives [from, from + count) of `draw` under `model`
 * into `f`: one column per primitive, one row per slot, each cell coloured by the index
 * value it holds, a dot where a value entered the cache, a vertical line where the cache
 * lost entries. `base` (optional) gives the state changes; `info` (optional) gets what was
 * found. Fails with GC_ERR_USAGE when `from` is past the draw's last primitive,
 * GC_ERR_LIMIT when slots x count passes GC_TIMELINE_MAX_CELLS (nothing written), or
 * gc_analyze's error. Cost: one gc_analyze with a trace; memory slots x count x 8 bytes. */
GC_API gc_status gc_timeline_write(FILE* f, const char* name, const gc_model* model, const gc_draw* draw,
                                   const gc_analyze_options* base, uint64_t from, uint64_t count,
                                   gc_timeline_info* info, gc_error* err);

/* ------------------------------------------------------------------ charts */

/* The most models the fit chart draws (the first of the ranking). */
#define GC_FIT_CHART_MAX_MODELS 5

/* Draws into `f`, for each of the first min(found, GC_FIT_CHART_MAX_MODELS) candidates of
 * `best`, one panel of predicted / measured invocations over the cases of `in`. `name` is
 * the measurement file's name for the title. Cost: one gc_fit_evaluate per case and model. */
GC_API gc_status gc_fit_chart_write(FILE* f, const char* name, const gc_measurements* in,
                                    const gc_fit_candidate* best, size_t found, gc_error* err);

/* Draws into `f` the total cycles of each of `count` strategies' reports as stacked bars
 * (bus traffic, invalidates, writebacks), in the order `order` (best first, marked),
 * labelled with `ids` (indexed like `reports`). Cost: O(count). */
GC_API gc_status gc_memsys_chart_write(FILE* f, const char* name, const gc_memsys_report* reports, const int* order,
                                       const char* const* ids, int count, gc_error* err);

#ifdef __cplusplus
}
#endif

#endif
