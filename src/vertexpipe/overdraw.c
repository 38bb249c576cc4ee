// SPDX-License-Identifier: MIT
/* Overdraw, as meshoptimizer's analyzer defines it (docs/models/overdraw.md).
 *
 * The mesh is scaled uniformly so that its bounding box's longest side spans a 256-pixel
 * grid, then drawn six times: looking along each axis, once for the triangles that face one
 * way and once for those facing the other (each side has its own depth and counter planes,
 * the back side with its depth reversed, so that every triangle is seen from the side it
 * faces). Pixels are sampled at their centres with the top-left fill rule; a fragment passes
 * when its depth is at least the nearest one kept so far (depth grows towards the viewer,
 * starting at 0), so later triangles at equal depth still shade. covered counts the
 * (pixel, side, view) samples touched at least once, shaded every passing fragment, and
 * overdraw is shaded / covered.
 *
 * The rasterizer is the classic half-space one: vertices snapped to 1/16 pixel, integer
 * edge functions stepped per pixel, depth a plane evaluated at the pixel centre. Edge values
 * stay within 2^31: coordinates are at most 256 * 16 = 4096 sixteenths, so a product of two
 * differences is at most 2^26. */
#include "../internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GRID 256
#define SUBPIXEL 16

typedef struct raster_target {
    float depth[2][GRID * GRID];
    uint32_t count[2][GRID * GRID];
} raster_target;

/* An edge's constant for the top-left rule: pixels exactly on a top or left edge are
 * inside, those on the other edges are not (so two triangles sharing an edge shade each
 * pixel once). */
static int32_t fill_bias(int32_t dx, int32_t dy)
{
    return (dy < 0 || (dy == 0 && dx > 0)) ? 0 : -1;
}

static void draw_triangle(raster_target* t, const float a[3], const float b[3], const float c[3])
{
    int32_t x1 = (int32_t)(SUBPIXEL * a[0] + 0.5f), y1 = (int32_t)(SUBPIXEL * a[1] + 0.5f);
    int32_t x2 = (int32_t)(SUBPIXEL * b[0] + 0.5f), y2 = (int32_t)(SUBPIXEL * b[1] + 0.5f);
    int32_t x3 = (int32_t)(SUBPIXEL * c[0] + 0.5f), y3 = (int32_t)(SUBPIXEL * c[1] + 0.5f);
    float z1 = a[2], z2 = b[2], z3 = c[2];

    /* The depth plane from the unsnapped corners, as the facing decides the side. */
    float det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    float inv = det == 0.0f ? 0.0f : 1.0f / det;
    float dzdx = ((z2 - z1) * (c[1] - a[1]) - (b[1] - a[1]) * (z3 - z1)) * inv;
    float dzdy = ((b[0] - a[0]) * (z3 - z1) - (z2 - z1) * (c[0] - a[0])) * inv;
    int side = det > 0.0f;
    if (side) {
        /* The other side: wind the corners the same way as the front side's, and measure
         * depth from the far end so that the nearest fragment to that side's viewer wins.
         * The plane's origin stays at corner a. */
        int32_t tx = x2, ty = y2;
        x2 = x3, y2 = y3, x3 = tx, y3 = ty;
        z1 = (float)GRID - z1;
        dzdx = -dzdx, dzdy = -dzdy;
    }

    int32_t lo_x = x1 < x2 ? (x1 < x3 ? x1 : x3) : (x2 < x3 ? x2 : x3);
    int32_t hi_x = x1 > x2 ? (x1 > x3 ? x1 : x3) : (x2 > x3 ? x2 : x3);
    int32_t lo_y = y1 < y2 ? (y1 < y3 ? y1 : y3) : (y2 < y3 ? y2 : y3);
    int32_t hi_y = y1 > y2 ? (y1 > y3 ? y1 : y3) : (y2 > y3 ? y2 : y3);
    /* Pixel p's centre is at p * 16 + 8: the first column whose centre is at or right of
     * lo_x, and the columns whose centre is left of hi_x (the right edge is never drawn). */
    int32_t min_x = (lo_x + 7) >> 4, max_x = (hi_x + 7) >> 4;
    int32_t min_y = (lo_y + 7) >> 4, max_y = (hi_y + 7) >> 4;
    min_x = min_x < 0 ? 0 : min_x;
    min_y = min_y < 0 ? 0 : min_y;
    max_x = max_x > GRID ? GRID : max_x;
    max_y = max_y > GRID ? GRID : max_y;
    if (min_x >= max_x || min_y >= max_y)
        return;

    int32_t dx12 = x1 - x2, dx23 = x2 - x3, dx31 = x3 - x1;
    int32_t dy12 = y1 - y2, dy23 = y2 - y3, dy31 = y3 - y1;
    int32_t cx0 = min_x * SUBPIXEL + SUBPIXEL / 2, cy0 = min_y * SUBPIXEL + SUBPIXEL / 2;
    /* e = (edge's dx) * (py - y_start) - (edge's dy) * (px - x_start), non-negative inside;
     * integer steps of one pixel move it by 16 * dx or 16 * dy. */
    int32_t row1 = dx12 * (cy0 - y1) - dy12 * (cx0 - x1) + fill_bias(dx12, dy12);
    int32_t row2 = dx23 * (cy0 - y2) - dy23 * (cx0 - x2) + fill_bias(dx23, dy23);
    int32_t row3 = dx31 * (cy0 - y3) - dy31 * (cx0 - x3) + fill_bias(dx31, dy31);
    float row_z = z1 + (dzdx * (float)(cx0 - x1) + dzdy * (float)(cy0 - y1)) * (1.0f / SUBPIXEL);

    float* depth = t->depth[side];
    uint32_t* count = t->count[side];
    for (int32_t y = min_y; y < max_y; ++y) {
        int32_t e1 = row1, e2 = row2, e3 = row3;
        float z = row_z;
        float* drow = depth + (size_t)y * GRID;
        uint32_t* crow = count + (size_t)y * GRID;
        for (int32_t x = min_x; x < max_x; ++x) {
            if ((e1 | e2 | e3) >= 0 && z >= drow[x]) {
                drow[x] = z;
                crow[x] += 1;
            }
            e1 -= dy12 * SUBPIXEL;
            e2 -= dy23 * SUBPIXEL;
            e3 -= dy31 * SUBPIXEL;
            z += dzdx;
        }
        row1 += dx12 * SUBPIXEL;
        row2 += dx23 * SUBPIXEL;
        row3 += dx31 * SUBPIXEL;
        row_z += dzdy;
    }
}

/* The checks and the scale shared by the analysis and the single view: GC_OK with *scale 0
 * when nothing can cover a pixel (no triangles, or every vertex at one point). */
static gc_status prepare(const uint32_t* indices, size_t index_count, const float* positions, size_t vertex_count,
                         size_t position_stride, size_t* step, float lo[3], float* scale, gc_error* err)
{
    *scale = 0.0f;
    if (index_count && (!indices || !positions))
        return gc_fail(err, GC_ERR_USAGE, "overdraw: indices and positions are required");
    if (index_count % 3)
        return gc_fail(err, GC_ERR_DATA, "overdraw: %zu indices is not a whole number of triangles", index_count);
    if (index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "overdraw: %zu indices is past the limit of %zu", index_count,
                       (size_t)GC_MAX_INDICES);
    size_t stride = position_stride ? position_stride : 3 * sizeof(float);
    if (stride < 3 * sizeof(float) || stride % sizeof(float))
        return gc_fail(err, GC_ERR_USAGE, "overdraw: a position stride of %zu bytes cannot hold x, y, z floats",
                       position_stride);
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "overdraw: index %zu is %u, past the %zu vertices", i, indices[i],
                           vertex_count);
    *step = stride / sizeof(float);
    if (index_count == 0 || vertex_count == 0)
        return GC_OK;
    /* The box of every vertex, drawn or not (meshoptimizer's analyzer scales so). */
    float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    lo[0] = lo[1] = lo[2] = INFINITY;
    for (size_t v = 0; v < vertex_count; ++v)
        for (int k = 0; k < 3; ++k) {
            float p = positions[v * *step + (size_t)k];
            if (!isfinite(p))
                return gc_fail(err, GC_ERR_DATA, "overdraw: vertex %zu has a coordinate that is not a finite number",
                               v);
            lo[k] = p < lo[k] ? p : lo[k];
            hi[k] = p > hi[k] ? p : hi[k];
        }
    float extent = hi[0] - lo[0];
    extent = hi[1] - lo[1] > extent ? hi[1] - lo[1] : extent;
    extent = hi[2] - lo[2] > extent ? hi[2] - lo[2] : extent;
    *scale = extent > 0.0f ? (float)GRID / extent : 0.0f;
    return GC_OK;
}

/* For the view along axis a, the grid's (x, y) and the depth are these coordinates. */
static const int view_axes[3][3] = {{2, 1, 0}, {0, 2, 1}, {1, 0, 2}};

/* Every triangle drawn into the view along `axis`, from cleared planes. */
static void draw_view(raster_target* target, int axis, const uint32_t* indices, size_t index_count,
                      const float* positions, size_t step, const float lo[3], float scale)
{
    memset(target, 0, sizeof *target);
    const int* axes = view_axes[axis];
    for (size_t i = 0; i < index_count; i += 3) {
        float corner[3][3];
        for (int j = 0; j < 3; ++j) {
            const float* p = positions + (size_t)indices[i + (size_t)j] * step;
            for (int k = 0; k < 3; ++k)
                corner[j][k] = (p[axes[k]] - lo[axes[k]]) * scale;
        }
        draw_triangle(target, corner[0], corner[1], corner[2]);
    }
}

gc_status gc_analyze_overdraw(const uint32_t* indices, size_t index_count, const float* positions,
                              size_t vertex_count, size_t position_stride, gc_overdraw_stats* out, gc_error* err)
{
    if (!out)
        return gc_fail(err, GC_ERR_USAGE, "overdraw: no result to fill");
    memset(out, 0, sizeof *out);
    size_t step = 3;
    float lo[3] = {0, 0, 0}, scale = 0.0f;
    gc_status s = prepare(indices, index_count, positions, vertex_count, position_stride, &step, lo, &scale, err);
    if (s || scale == 0.0f)
        return s;
    raster_target* target = malloc(sizeof *target);
    if (!target)
        return gc_fail(err, GC_ERR_NOMEM, "overdraw: out of memory for the %d x %d raster", GRID, GRID);
    for (int view = 0; view < 3; ++view) {
        draw_view(target, view, indices, index_count, positions, step, lo, scale);
        for (int side = 0; side < 2; ++side)
            for (size_t p = 0; p < (size_t)GRID * GRID; ++p) {
                out->covered += target->count[side][p] > 0;
                out->shaded += target->count[side][p];
            }
    }
    free(target);
    out->ratio = out->covered ? (double)out->shaded / (double)out->covered : 0.0;
    return GC_OK;
}

gc_status gc_overdraw_view(const uint32_t* indices, size_t index_count, const float* positions, size_t vertex_count,
                           size_t position_stride, int axis, uint32_t* counts, gc_error* err)
{
    if (axis < 0 || axis > 2 || !counts)
        return gc_fail(err, GC_ERR_USAGE, "overdraw view: the axis is 0 (x), 1 (y) or 2 (z), and counts are needed");
    memset(counts, 0, 2 * (size_t)GRID * GRID * sizeof *counts);
    size_t step = 3;
    float lo[3] = {0, 0, 0}, scale = 0.0f;
    gc_status s = prepare(indices, index_count, positions, vertex_count, position_stride, &step, lo, &scale, err);
    if (s || scale == 0.0f)
        return s;
    raster_target* target = malloc(sizeof *target);
    if (!target)
        return gc_fail(err, GC_ERR_NOMEM, "overdraw: out of memory for the %d x %d raster", GRID, GRID);
    draw_view(target, axis, indices, index_count, positions, step, lo, scale);
    memcpy(counts, target->count[0], (size_t)GRID * GRID * sizeof *counts);
    memcpy(counts + (size_t)GRID * GRID, target->count[1], (size_t)GRID * GRID * sizeof *counts);
    free(target);
    return GC_OK;
}
