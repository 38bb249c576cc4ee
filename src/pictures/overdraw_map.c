// SPDX-License-Identifier: MIT
/* The overdraw map (gpucache_pictures.h, docs/pictures.md): one view of the overdraw model
 * (docs/models/overdraw.md) as a picture, each of its 256 x 256 pixels coloured by how many
 * fragments were shaded there on the side that faces the viewer. */
#include "gpucache/gpucache_pictures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 256
#define CELL 2
#define MARGIN 20
#define TOP 40
#define LEGEND 72

/* The view's axis and, for a displayed cell (column, row from the top), the count's index
 * in the side facing the viewer (side 0 of gc_overdraw_view: faces toward +axis). */
static int view_axis(gc_heatmap_view view)
{
    return view == GC_VIEW_SIDE ? 0 : view == GC_VIEW_TOP ? 1 : 2;
}

static size_t count_at(gc_heatmap_view view, int col, int row)
{
    int u, v; /* the view's picture coordinates (gc_overdraw_view: counts[v * 256 + u]) */
    switch (view) {
    case GC_VIEW_SIDE: u = GRID - 1 - col, v = GRID - 1 - row; break; /* (z, y) from +X: -z right, y up */
    case GC_VIEW_TOP: u = col, v = row; break;                        /* (x, z) from +Y: x right, +z down */
    default: u = GRID - 1 - row, v = col; break;                      /* (y, x) from +Z: x right, y up */
    }
    return (size_t)v * GRID + (size_t)u;
}

static uint32_t colour_of(uint32_t count, uint32_t largest)
{
    return gc_svg_ramp(largest > 1 ? (double)(count - 1) / (double)(largest - 1) : 0.0);
}

gc_status gc_overdraw_map_write(FILE* f, const uint32_t* indices, size_t index_count, const float* positions,
                                size_t vertex_count, const char* name, gc_heatmap_view view, gc_error* err)
{
    if (!f)
        return GC_ERR_USAGE;
    uint32_t* counts = malloc(2 * (size_t)GRID * GRID * sizeof *counts);
    if (!counts) {
        if (err) {
            err->code = GC_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "overdraw map: out of memory for the raster");
        }
        return GC_ERR_NOMEM;
    }
    gc_status s = gc_overdraw_view(indices, index_count, positions, vertex_count, 0, view_axis(view), counts, err);
    if (s) {
        free(counts);
        return s;
    }
    uint32_t largest = 0;
    uint64_t covered = 0, shaded = 0;
    for (size_t p = 0; p < (size_t)GRID * GRID; ++p) {
        largest = counts[p] > largest ? counts[p] : largest;
        covered += counts[p] > 0;
        shaded += counts[p];
    }
    static const char* const names[] = {"front (along -Z)", "side (along -X)", "top (along -Y)"};
    const int width = 2 * MARGIN + GRID * CELL, height = TOP + GRID * CELL + LEGEND;
    gc_svg_begin(f, width, height);
    gc_svg_title(f, "gpucache overdraw map: ", name ? name : "");
    char line[256];
    snprintf(line, sizeof line, "overdraw, %s: fragments shaded per pixel, faces toward the viewer",
             names[view >= 0 && view <= 2 ? view : 0]);
    gc_svg_text(f, MARGIN, 16, "start", 13, line);
    gc_svg_text(f, MARGIN, 32, "start", 11, name ? name : "");
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#bbbbbb\"/>\n", MARGIN, TOP,
            GRID * CELL, GRID * CELL);
    for (int row = 0; row < GRID; ++row) {
        int col = 0;
        while (col < GRID) {
            uint32_t c = counts[count_at(view, col, row)];
            int end = col + 1;
            while (end < GRID && counts[count_at(view, end, row)] == c)
                ++end;
            if (c)
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n",
                        MARGIN + col * CELL, TOP + row * CELL, (end - col) * CELL, CELL, (unsigned)colour_of(c, largest));
            col = end;
        }
    }
    /* the scale: 1 to the largest count, and the view's figures */
    int y = TOP + GRID * CELL + 12;
    for (int i = 0; i < 100; ++i)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"3\" height=\"12\" fill=\"#%06x\"/>\n", MARGIN + 3 * i, y,
                (unsigned)gc_svg_ramp(i / 99.0));
    snprintf(line, sizeof line, "1");
    gc_svg_text(f, MARGIN, y + 26, "start", 11, line);
    snprintf(line, sizeof line, "%u", largest ? largest : 1);
    gc_svg_text(f, MARGIN + 300, y + 26, "end", 11, line);
    snprintf(line, sizeof line, "%llu pixels covered, %llu shaded, %.4f", (unsigned long long)covered,
             (unsigned long long)shaded, covered ? (double)shaded / (double)covered : 0.0);
    gc_svg_text(f, MARGIN, y + 44, "start", 11, line);
    gc_svg_end(f);
    free(counts);
    return GC_OK;
}
