// SPDX-License-Identifier: MIT
/* Overdraw by measured occlusion: which clusters of an order hide which others, and an order
 * of the clusters that draws the hiding ones first while moving as few as it can; auto's
 * overdraw pass (gc_opt_overdraw_budget_occlusion, docs/optimizers/auto.md).
 *
 * Tipsify's overdraw half (overdraw_sort.c) sorts every cluster by a view-independent
 * potential: each cluster moves, and each move costs the targets the vertices it shared, warm,
 * with the clusters around it (a 128-entry FIFO pays most). But overdraw only comes from
 * pixels where surfaces facing the viewer overlap; most pairs of clusters never overlap in any
 * view, and their relative order does not matter.
 *
 * 1. Occlusion pairs. The views are overdraw's own (docs/models/overdraw.md): along each
 *    axis, each triangle seen from the side it faces, on a grid of `resolution` pixels over
 *    the bounding box's longest side, sampled at pixel centres. The fragments are gathered
 *    by pixel (a counting sort, stable); at each pixel the nearest
 *    fragment's triangle hides each one behind it: the pair (nearest, that one), counted in
 *    pixels. Drawn in that order the fragment is not shaded; drawn the other way, it is.
 * 2. The cluster graph. Pairs between two clusters add up; the two directions of a pair of
 *    clusters cancel, and what is left (at least `min_weight` pixels) says which to draw first.
 * 3. The order. Clusters are drawn in their order unless one of the clusters that hide them is
 *    still to come (Kahn's topological order, the earliest ready cluster first): a cluster
 *    waits for its occluders and follows them at once, the others keep their neighbours. A
 *    cycle is broken at the waiting cluster with the least weight still in front of it.
 *    Reversed: the order is built from the end, so that occluders come forward instead.
 *
 * Time: one rasterization of the mesh (linear in triangles and covered pixels; each row of a
 * triangle walks only its span), a counting sort of the fragments by pixel (the pixels with
 * one fragment left out: they hide nothing), then linear in pairs and clusters per cut, but
 * for the cycles (a scan of the clusters each); memory 24 bytes a fragment at most (while
 * the pairs are made), 4 a pixel of the six views and 12 a pair at most. */
#include "optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VIEWS 6 /* three axes, two sides */

typedef struct raw_fragment {
    uint32_t pixel, triangle;
    float depth;
} raw_fragment;

typedef struct raster_state {
    uint32_t resolution;
    raw_fragment* fragments; /* in the input's order */
    uint32_t* per_pixel;     /* the fragments at each pixel (the sort's counts) */
    size_t count, capacity, limit;
    bool failed, over;
} raster_state;

/* Room for n more fragments without passing the limit: false (nothing changed) where they
 * would pass it or memory runs out, the caller then pushes one at a time. */
static bool fragment_reserve(raster_state* r, size_t n)
{
    if (r->failed || n > r->limit - r->count)
        return false;
    if (r->count + n > r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 65536;
        while (cap < r->count + n)
            cap *= 2;
        raw_fragment* f = realloc(r->fragments, cap * sizeof *f);
        if (!f)
            return false;
        r->fragments = f, r->capacity = cap;
    }
    return true;
}

static void fragment_push(raster_state* r, size_t pixel, uint32_t t, float d)
{
    if (r->count >= r->limit) {
        r->over = true;
        return;
    }
    if (r->count == r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 65536;
        raw_fragment* f = r->failed ? NULL : realloc(r->fragments, cap * sizeof *f);
        if (!f) {
            r->failed = true;
            return;
        }
        r->fragments = f, r->capacity = cap;
    }
    raw_fragment x = {(uint32_t)pixel, t, d};
    r->fragments[r->count++] = x;
    r->per_pixel[pixel]++;
}

static gc_status pairs_push(gc_occlusion* o, uint32_t front, uint32_t back)
{
    if (o->count > 0 && o->front[o->count - 1] == front && o->back[o->count - 1] == back) {
        o->weight[o->count - 1]++;
        return GC_OK;
    }
    if (o->count == o->capacity) {
        size_t cap = o->capacity ? 2 * o->capacity : 4096;
        uint32_t* f = realloc(o->front, cap * sizeof *f);
        if (f)
            o->front = f;
        uint32_t* b = realloc(o->back, cap * sizeof *b);
        if (b)
            o->back = b;
        uint32_t* w = realloc(o->weight, cap * sizeof *w);
        if (w)
            o->weight = w;
        if (!f || !b || !w)
            return GC_ERR_NOMEM;
        o->capacity = cap;
    }
    o->front[o->count] = front;
    o->back[o->count] = back;
    o->weight[o->count] = 1;
    o->count++;
    return GC_OK;
}

static inline float min3(float a, float b, float c)
{
    float m = a < b ? a : b;
    return m < c ? m : c;
}

static inline float max3(float a, float b, float c)
{
    float m = a > b ? a : b;
    return m > c ? m : c;
}

/* The pixel centres a triangle's box covers along one grid coordinate: [first, last], clamped
 * to the grid (first > last: none). */
typedef struct pixel_span {
    int first, last;
} pixel_span;

static inline pixel_span box_span(float a, float b, float c, int R)
{
    int lo = (int)ceilf(min3(a, b, c) - 0.5f), hi = (int)floorf(max3(a, b, c) - 0.5f);
    pixel_span x = {lo < 0 ? 0 : lo, hi > R - 1 ? R - 1 : hi};
    return x;
}

/* One triangle in one view: corners (u, v, depth) in pixels; the side is its facing. The box's
 * pixel centres (box_span of u and of v) are not empty: most triangles of a large mesh cover
 * none, and the caller skips them. */
static void raster_triangle(raster_state* r, int axis, uint32_t t, const float* a, const float* b, const float* c,
                            pixel_span xs, pixel_span ys)
{
    const int R = (int)r->resolution;
    const int x0 = xs.first, x1 = xs.last, y0 = ys.first, y1 = ys.last;
    float det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (!(det != 0.0f))
        return;
    const int side = det > 0.0f ? 0 : 1;
    const float sign = side == 0 ? 1.0f : -1.0f;
    if (det < 0.0f) { /* wind it positively */
        const float* x = b;
        b = c, c = x;
        det = -det;
    }
    const size_t plane = (size_t)(2 * axis + side) * (size_t)R * (size_t)R;
    const float inv = 1.0f / det;
    const float da = sign * a[2] * inv, db = sign * b[2] * inv, dc = sign * c[2] * inv;
    /* the edge functions (twice the sub-triangles' areas) step by constants along a row */
    const float sa = b[1] - c[1], sb = c[1] - a[1], sc = a[1] - b[1];
    for (int y = y0; y <= y1; ++y) {
        const float py = (float)y + 0.5f, px = (float)x0 + 0.5f;
        float wa = (b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px);
        float wb = (c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px);
        float wc = (a[0] - px) * (b[1] - py) - (a[1] - py) * (b[0] - px);
        /* the row's span: where each edge function, linear along the row, is not negative
         * (one pixel of margin each way, the test below decides) */
        int from = x0, to = x1;
        const float w0[3] = {wa, wb, wc}, step[3] = {sa, sb, sc};
        /* a one-pixel row needs no span: the span only leaves out pixels where an edge
         * function is negative at x0 (w0 itself), which the test below leaves out as well */
        for (int e = 0; e < 3 && from <= to && x0 < x1; ++e) {
            if (step[e] > 0.0f && w0[e] < 0.0f) {
                float k = ceilf(-w0[e] / step[e]) - 1.0f;
                if (k > (float)(x1 - x0))
                    from = x1 + 1;
                else if (x0 + (int)k > from)
                    from = x0 + (int)k;
            } else if (step[e] < 0.0f) {
                float k = floorf(w0[e] / -step[e]) + 1.0f;
                if (k < 0.0f)
                    to = x0 - 1;
                else if (k < (float)(x1 - x0) && x0 + (int)k < to)
                    to = x0 + (int)k;
            } else if (step[e] == 0.0f && w0[e] < 0.0f) {
                to = x0 - 1;
            }
        }
        if (from > to)
            continue;
        const float skip = (float)(from - x0);
        wa += skip * sa, wb += skip * sb, wc += skip * sc;
        const size_t row = plane + (size_t)y * (size_t)R;
        if (fragment_reserve(r, (size_t)(to - from + 1))) { /* the row's room at once */
            raw_fragment* out = r->fragments + r->count;
            uint32_t* per_pixel = r->per_pixel;
            for (int x = from; x <= to; ++x, wa += sa, wb += sb, wc += sc) {
                if (wa < 0.0f || wb < 0.0f || wc < 0.0f)
                    continue;
                out->pixel = (uint32_t)(row + (size_t)x), out->triangle = t;
                out->depth = wa * da + wb * db + wc * dc;
                out++;
                per_pixel[row + (size_t)x]++;
            }
            r->count = (size_t)(out - r->fragments);
            continue;
        }
        for (int x = from; x <= to; ++x, wa += sa, wb += sb, wc += sc) {
            if (wa < 0.0f || wb < 0.0f || wc < 0.0f)
                continue;
            fragment_push(r, row + (size_t)x, t, wa * da + wb * db + wc * dc);
        }
    }
}

gc_status gc_occlusion_pairs(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const float* positions, size_t position_stride, uint32_t resolution, gc_occlusion* out,
                             gc_error* err)
{
    memset(out, 0, sizeof *out);
    const size_t stride = position_stride ? position_stride : 3 * sizeof(float);
    const uint32_t R = resolution ? resolution : 256;
    if (vertex_count == 0 || triangle_count == 0)
        return GC_OK;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < vertex_count; ++v) {
        const float* p = (const float*)((const char*)positions + (size_t)v * stride);
        for (int i = 0; i < 3; ++i)
            if (p[i] == p[i] && fabsf(p[i]) <= 1e30f)
                /* fminf and fmaxf only where the comparison cannot decide (equal, signed zeros) */
                lo[i] = p[i] < lo[i] ? p[i] : p[i] > lo[i] ? lo[i] : fminf(lo[i], p[i]),
                hi[i] = p[i] > hi[i] ? p[i] : p[i] < hi[i] ? hi[i] : fmaxf(hi[i], p[i]);
    }
    float extent = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    if (!(extent > 0.0f))
        return GC_OK;
    const float scale = (float)R / extent;
    float* grid = gc_alloc_array(vertex_count, 3 * sizeof(float), false);
    if (!grid)
        return gc_fail(err, GC_ERR_NOMEM, "occlusion: out of memory for %u vertices", vertex_count);
    for (uint32_t v = 0; v < vertex_count; ++v) {
        const float* p = (const float*)((const char*)positions + (size_t)v * stride);
        for (int i = 0; i < 3; ++i) {
            float g = (p[i] - lo[i]) * scale;
            /* NaN and infinities (outside the box): clamped to just off the grid */
            grid[3 * (size_t)v + i] = g >= -1.0f ? (g <= (float)R + 1.0f ? g : (float)R + 1.0f) : -1.0f;
        }
    }
    /* the fragments, in the input's order; at most 2^24 and 64 a triangle: beyond,
     * GC_ERR_LIMIT (auto then leaves its order as it is) rather than gigabytes for a stack of
     * large triangles */
    const uint64_t limit = ((uint64_t)1 << 24) + 64 * (uint64_t)triangle_count;
    const size_t pixels = (size_t)VIEWS * R * R;
    uint32_t* per_pixel = gc_alloc_array(pixels, sizeof *per_pixel, true);
    raster_state r = {R,     NULL,  per_pixel, 0, 0, limit < UINT32_MAX - 1 ? (size_t)limit : UINT32_MAX - 1,
                      false, false};
    if (!per_pixel)
        r.failed = true;
    for (size_t t = 0; t < triangle_count && !r.failed && !r.over; ++t) {
        const uint32_t* tv = indices + 3 * t;
        const float *g0 = grid + 3 * (size_t)tv[0], *g1 = grid + 3 * (size_t)tv[1], *g2 = grid + 3 * (size_t)tv[2];
        /* each coordinate's pixel span once: a view's box is two of them */
        const pixel_span span[3] = {box_span(g0[0], g1[0], g2[0], (int)R), box_span(g0[1], g1[1], g2[1], (int)R),
                                    box_span(g0[2], g1[2], g2[2], (int)R)};
        for (int axis = 0; axis < 3; ++axis) {
            const int u = (axis + 1) % 3, w = (axis + 2) % 3;
            if (span[u].first > span[u].last || span[w].first > span[w].last)
                continue;
            float c[3][3];
            for (int k = 0; k < 3; ++k) {
                const float* g = grid + 3 * (size_t)tv[k];
                c[k][0] = g[u], c[k][1] = g[w], c[k][2] = g[axis];
            }
            raster_triangle(&r, axis, (uint32_t)t, c[0], c[1], c[2], span[u], span[w]);
        }
    }
    free(grid);
    /* by pixel, stable: a counting sort (per_pixel counted them while they were made). Only
     * the pixels with two fragments or more make pairs: the lone ones are marked (UINT32_MAX,
     * beyond any cursor: fewer than UINT32_MAX - 1 fragments) and left out. */
    size_t many = 0;
    if (!r.failed && !r.over)
        for (size_t p = 0; p < pixels; ++p) {
            const uint32_t n = per_pixel[p];
            per_pixel[p] = n == 1 ? UINT32_MAX : (uint32_t)many;
            many += n > 1 ? n : 0;
        }
    raw_fragment* sorted = r.failed || r.over ? NULL : gc_alloc_array(many ? many : 1, sizeof *sorted, false);
    if (!sorted) {
        free(r.fragments), free(per_pixel);
        if (r.over)
            return gc_fail(err, GC_ERR_LIMIT, "occlusion: more than %zu fragments for %zu triangles", r.limit,
                           triangle_count);
        return gc_fail(err, GC_ERR_NOMEM, "occlusion: out of memory for the fragments of %zu triangles",
                       triangle_count);
    }
    for (size_t k = 0; k < r.count; ++k) {
        const uint32_t p = r.fragments[k].pixel, at = per_pixel[p];
        if (at != UINT32_MAX)
            sorted[at] = r.fragments[k], per_pixel[p] = at + 1;
    }
    free(r.fragments);
    /* the pairs: at each pixel, the nearest fragment (the first of equals) and each one behind;
     * a pixel's fragments end at its cursor, where the next pixel's begin */
    gc_status s = GC_OK;
    const raw_fragment* f = sorted;
    for (size_t p = 0, b = 0; p < pixels && !s; ++p) {
        const size_t e = per_pixel[p];
        if (e == UINT32_MAX || e == b)
            continue; /* lone or empty */
        size_t near = b;
        for (size_t k = b + 1; k < e; ++k)
            near = f[k].depth > f[near].depth ? k : near;
        for (size_t k = b; k < e && !s; ++k)
            if (f[k].depth < f[near].depth - 1e-3f && f[k].triangle != f[near].triangle &&
                pairs_push(out, f[near].triangle, f[k].triangle))
                s = gc_fail(err, GC_ERR_NOMEM, "occlusion: out of memory for the pairs of %zu triangles",
                            triangle_count);
        b = e;
    }
    free(sorted), free(per_pixel);
    if (s)
        gc_occlusion_free(out);
    return s;
}

void gc_occlusion_free(gc_occlusion* o)
{
    free(o->front), free(o->back), free(o->weight);
    memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------------ order */

static void heap_push(uint32_t* heap, size_t* size, uint32_t x)
{
    size_t i = (*size)++;
    while (i > 0 && heap[(i - 1) / 2] > x) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = x;
}

static uint32_t heap_pop(uint32_t* heap, size_t* size)
{
    uint32_t top = heap[0], x = heap[--*size];
    size_t i = 0, n = *size;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && heap[c + 1] < heap[c])
            ++c;
        if (heap[c] >= x)
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (n > 0)
        heap[i] = x;
    return top;
}

gc_status gc_opt_occlusion_order(size_t triangle_count, const gc_occlusion* pairs, const uint32_t* ends,
                                 size_t cluster_count, uint32_t min_weight, bool reverse, uint32_t* order,
                                 gc_error* err)
{
    if (cluster_count < 2 || pairs->count == 0)
        return GC_OK;
    const size_t N = cluster_count;
    uint32_t* cluster_of = gc_alloc_array(triangle_count, sizeof(uint32_t), false); /* by triangle id */
    uint32_t* start = gc_alloc_array(N + 1, sizeof(uint32_t), true);
    uint32_t* hi = gc_alloc_array(pairs->count, sizeof(uint32_t), false);
    int64_t* w = gc_alloc_array(pairs->count, sizeof(int64_t), false);
    uint32_t* mark = gc_alloc_array(N, sizeof(uint32_t), false);
    uint32_t* slot = gc_alloc_array(N, sizeof(uint32_t), false);
    uint32_t* run_end = gc_alloc_array(N, sizeof(uint32_t), false);
    uint32_t* out_start = gc_alloc_array(N + 1, sizeof(uint32_t), true);
    uint32_t* out_to = gc_alloc_array(pairs->count, sizeof(uint32_t), false);
    int64_t* out_w = gc_alloc_array(pairs->count, sizeof(int64_t), false);
    int64_t* in_w = gc_alloc_array(N, sizeof(int64_t), true);
    uint32_t* heap = gc_alloc_array(N, sizeof(uint32_t), false);
    unsigned char* done = gc_alloc_array(N, 1, true);
    uint32_t* sorted = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    gc_status s = GC_OK;
    if (!cluster_of || !start || !hi || !w || !mark || !slot || !run_end || !out_start || !out_to || !out_w ||
        !in_w || !heap || !done || !sorted) {
        s = gc_fail(err, GC_ERR_NOMEM, "occlusion order: out of memory for %zu clusters", N);
        goto done;
    }
    const bool rev = reverse; /* ordered from the end: occluders brought forward */
    for (size_t c = 0, i = 0; c < N; ++c)
        for (; i < ends[c]; ++i)
            cluster_of[order[i]] = rev ? (uint32_t)(N - 1 - c) : (uint32_t)c;
    /* pairs by their lower cluster, the weight signed: + when the lower one hides the other */
    for (size_t p = 0; p < pairs->count; ++p) {
        uint32_t a = cluster_of[pairs->front[p]], b = cluster_of[pairs->back[p]];
        if (a != b)
            start[(a < b ? a : b) + 1]++;
    }
    for (size_t c = 0; c < N; ++c)
        start[c + 1] += start[c];
    {
        uint32_t* fill = out_start; /* borrowed as cursors */
        memcpy(fill, start, N * sizeof *fill);
        for (size_t p = 0; p < pairs->count; ++p) {
            uint32_t a = cluster_of[pairs->front[p]], b = cluster_of[pairs->back[p]];
            if (a == b)
                continue;
            uint32_t l = a < b ? a : b;
            hi[fill[l]] = a < b ? b : a;
            w[fill[l]++] = a < b ? (int64_t)pairs->weight[p] : -(int64_t)pairs->weight[p];
        }
    }
    /* merged per pair of clusters, in place; then the net directions as edges */
    memset(mark, 0xff, N * sizeof *mark);
    memset(out_start, 0, (N + 1) * sizeof *out_start);
    for (size_t l = 0; l < N; ++l) {
        uint32_t kept = start[l];
        for (uint32_t e = start[l]; e < start[l + 1]; ++e) {
            if (mark[hi[e]] == (uint32_t)l) {
                w[slot[hi[e]]] += w[e];
            } else {
                mark[hi[e]] = (uint32_t)l;
                slot[hi[e]] = kept;
                hi[kept] = hi[e], w[kept] = w[e];
                kept++;
            }
        }
        for (uint32_t e = start[l]; e < kept; ++e) {
            int64_t x = w[e] < 0 ? -w[e] : w[e];
            if (x >= (int64_t)(min_weight ? min_weight : 1)) {
                out_start[((w[e] > 0) != rev ? l : hi[e]) + 1]++;
            }
        }
        run_end[l] = kept;
    }
    for (size_t c = 0; c < N; ++c)
        out_start[c + 1] += out_start[c];
    {
        uint32_t* cursor = mark; /* borrowed */
        memcpy(cursor, out_start, N * sizeof *cursor);
        for (size_t l = 0; l < N; ++l)
            for (uint32_t e = start[l]; e < run_end[l]; ++e) {
                int64_t x = w[e] < 0 ? -w[e] : w[e];
                if (x < (int64_t)(min_weight ? min_weight : 1))
                    continue;
                uint32_t from = (w[e] > 0) != rev ? (uint32_t)l : hi[e], to = (w[e] > 0) != rev ? hi[e] : (uint32_t)l;
                out_to[cursor[from]] = to;
                out_w[cursor[from]++] = x;
                in_w[to] += x;
            }
    }
    /* Kahn's order, the earliest ready cluster first */
    size_t heap_size = 0, drawn = 0, written = 0, scan_from = 0;
    for (size_t c = 0; c < N; ++c)
        if (in_w[c] == 0)
            heap_push(heap, &heap_size, (uint32_t)c);
    while (drawn < N) {
        uint32_t c;
        if (heap_size > 0) {
            c = heap_pop(heap, &heap_size);
        } else { /* a cycle: the waiting cluster with the least weight in front of it */
            while (done[scan_from])
                ++scan_from;
            c = (uint32_t)scan_from;
            for (size_t k = scan_from; k < N; ++k)
                if (!done[k] && in_w[k] < in_w[c])
                    c = (uint32_t)k;
        }
        if (done[c])
            continue;
        done[c] = 1;
        drawn++;
        {
            uint32_t oc = rev ? (uint32_t)(N - 1 - c) : c;
            uint32_t b = oc ? ends[oc - 1] : 0, len = ends[oc] - b;
            if (rev) {
                written += len;
                memcpy(sorted + triangle_count - written, order + b, len * sizeof *order);
            } else {
                memcpy(sorted + written, order + b, len * sizeof *order);
                written += len;
            }
        }
        for (uint32_t e = out_start[c]; e < out_start[c + 1]; ++e) {
            uint32_t d = out_to[e];
            if (done[d])
                continue;
            in_w[d] -= out_w[e];
            if (in_w[d] == 0)
                heap_push(heap, &heap_size, d);
        }
    }
    memcpy(order, sorted, triangle_count * sizeof *order);
done:
    free(cluster_of), free(start), free(hi), free(w), free(mark), free(slot), free(run_end), free(out_start);
    free(out_to), free(out_w), free(in_w), free(heap), free(done), free(sorted);
    return s;
}

/* ---------------------------------------------------------------- budget */

/* Bytes meshoptimizer's analyzeVertexFetch counts for `order` once its vertices are numbered
 * in order of first use (what --reorder-vertices gives): 32-byte vertices, every index read
 * through a direct-mapped cache of 128 KiB in 64-byte lines. numbering: a vertex each, and
 * lines: 2048, scratch. */
static uint64_t first_use_fetch(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const uint32_t* order, uint32_t* numbering, uint32_t* lines)
{
    enum { LINES = 2048, PER_LINE = 2 };
    memset(numbering, 0xff, (size_t)vertex_count * sizeof *numbering);
    memset(lines, 0xff, LINES * sizeof *lines);
    uint32_t next = 0;
    uint64_t misses = 0;
    for (size_t i = 0; i < triangle_count; ++i)
        for (int c = 0; c < 3; ++c) {
            uint32_t v = indices[3 * (size_t)order[i] + c];
            if (numbering[v] == UINT32_MAX)
                numbering[v] = next++;
            uint32_t line = numbering[v] / PER_LINE;
            if (lines[line % LINES] != line)
                lines[line % LINES] = line, misses++;
        }
    return misses * 64;
}

/* The pixels drawn before the nearest triangle there: the pairs `order` breaks, overdraw's
 * extra fragments as the occlusion pairs see them. position: a triangle each, scratch. */
static uint64_t broken_pairs(const gc_occlusion* pairs, size_t triangle_count, const uint32_t* order,
                             uint32_t* position)
{
    for (size_t i = 0; i < triangle_count; ++i)
        position[order[i]] = (uint32_t)i;
    uint64_t broken = 0;
    for (size_t p = 0; p < pairs->count; ++p)
        broken += position[pairs->back[p]] < position[pairs->front[p]] ? pairs->weight[p] : 0;
    return broken;
}

/* What every rung is cut from: auto's order, and its triangles' corners in that order (read
 * in sequence by the cuts, where the order jumps around the index buffer). */
typedef struct rung_input {
    size_t triangle_count;
    uint32_t vertex_count, cache_size;
    const uint32_t* order;    /* auto's order: triangle ids */
    const uint32_t* ordered;  /* the corners of order[i] at 3i: the cuts' input */
    const uint32_t* identity; /* 0 .. triangle_count - 1: the cuts' order over `ordered` */
    const float* flush;       /* the flush-bounded clusters' ACMR at each position */
    const gc_occlusion* pairs;
} rung_input;

/* `order`'s clusters at a rung (cut where the ACMR comes down to `relative` times the
 * flush-bounded cluster's, 0: the flushes alone): their ends, *count of them. The same for
 * both directions: each rung is cut once. */
static gc_status cut_rung(const rung_input* in, double relative, uint32_t* ends, size_t* count, gc_error* err)
{
    *count = 0;
    return gc_opt_overdraw_clusters(in->ordered, in->triangle_count, in->vertex_count, in->cache_size, relative,
                                    in->flush, in->identity, ends, count, err);
}

/* A rung's clusters (cut_rung) into `candidate`, ordered by occlusion. */
static gc_status order_rung(const rung_input* in, const uint32_t* ends, size_t count, bool reverse,
                            uint32_t* candidate, gc_error* err)
{
    const size_t triangle_count = in->triangle_count;
    memcpy(candidate, in->order, triangle_count * sizeof *candidate);
    return gc_opt_occlusion_order(triangle_count, in->pairs, ends, count, 1, reverse, candidate, err);
}

/* Whether every target's invocations for `candidate` are within its budget. */
static gc_status within_budget(gc_order_costs_fn costs, void* user, size_t target_count, const uint64_t* budget,
                               const uint32_t* candidate, bool* fits, gc_error* err)
{
    uint64_t got[64];
    gc_status s = costs(user, candidate, got, err);
    *fits = true;
    for (size_t k = 0; k < target_count && !s; ++k)
        *fits &= got[k] <= budget[k];
    return s;
}

/* What scoring one more rung needs: the pass's input, its scratch and the targets' budget. */
typedef struct rung_pass {
    const rung_input* in;
    const uint32_t* indices;
    uint32_t *ends, *candidate, *position, *scratch;
    gc_order_costs_fn costs;
    void* user;
    size_t target_count;
    const uint64_t* budget;
} rung_pass;

/* The rung cut into p->ends (count clusters) in one direction, kept (into `kept`) when it breaks fewer pairs than
 * broken_limit (the order kept's count, or a little more where bytes are traded for pairs),
 * fetches fewer bytes than the order kept (meshoptimizer's fetch model), and fits the budget. */
static gc_status keep_if_better(const rung_pass* p, size_t count, bool reverse, uint64_t broken_limit,
                                uint32_t* kept, uint64_t* kept_broken, uint64_t* kept_fetch, gc_error* err)
{
    gc_status s = order_rung(p->in, p->ends, count, reverse, p->candidate, err);
    if (s)
        return s;
    const size_t triangle_count = p->in->triangle_count;
    uint64_t broken = broken_pairs(p->in->pairs, triangle_count, p->candidate, p->position);
    if (broken >= broken_limit)
        return GC_OK;
    uint64_t fetch = first_use_fetch(p->indices, triangle_count, p->in->vertex_count, p->candidate, p->scratch,
                                     p->scratch + p->in->vertex_count);
    if (fetch >= *kept_fetch)
        return GC_OK;
    bool fits = false;
    s = within_budget(p->costs, p->user, p->target_count, p->budget, p->candidate, &fits, err);
    if (!s && fits) {
        memcpy(kept, p->candidate, triangle_count * sizeof *kept);
        *kept_broken = broken, *kept_fetch = fetch;
    }
    return s;
}

/* A rung's relative ACMR: 1 + s (T - 1); s < 0, the flushes alone (0). */
static double rung(double step, double threshold)
{
    return step < 0 ? 0 : 1 + step * (threshold - 1);
}

gc_status gc_opt_overdraw_budget_occlusion(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                           const float* positions, size_t position_stride, uint32_t cache_size,
                                           double threshold, size_t target_count, gc_order_costs_fn costs, void* user,
                                           bool first_use, const gc_occlusion_ahead* ahead, uint32_t* order,
                                           uint32_t* candidate, gc_error* err)
{
    /* The rungs: relative = 1 + s (T - 1), finest first, then the flushes alone (-1). */
    enum { RUNGS = 6, MAX = 64 };
    static const double steps[RUNGS] = {1, 0.5, 0.25, 0.1, 0.03, -1};
    if (triangle_count < 2 || target_count == 0 || target_count > MAX || !(threshold > 1))
        return GC_OK;
    uint64_t best[MAX], budget[MAX];
    gc_status s = costs(user, order, best, err);
    if (s)
        return s;
    for (size_t k = 0; k < target_count; ++k)
        budget[k] = (uint64_t)floor(threshold * (double)best[k]);
    gc_occlusion pairs;
    if (ahead) { /* computed before (gc_occlusion_ahead_run), kept by the caller */
        if (ahead->status && err)
            *err = ahead->err;
        if ((s = ahead->status))
            return s == GC_ERR_LIMIT ? GC_OK : s; /* too many fragments: the order as it is */
        pairs = ahead->pairs;
    } else if ((s = gc_occlusion_pairs(indices, triangle_count, vertex_count, positions, position_stride, 256, &pairs,
                                       err))) {
        return s == GC_ERR_LIMIT ? GC_OK : s;
    }
    uint32_t* kept = gc_alloc_array(triangle_count, sizeof *kept, false);
    uint32_t* ends = gc_alloc_array(triangle_count, sizeof *ends, false);
    uint32_t* position = gc_alloc_array(triangle_count, sizeof *position, false);
    float* flush = gc_alloc_array(triangle_count, sizeof *flush, false); /* the same for every rung */
    uint32_t* ordered = gc_alloc_array(triangle_count, 3 * sizeof *ordered, false);
    uint32_t* identity = gc_alloc_array(triangle_count, sizeof *identity, false);
    uint32_t* found_ends = gc_alloc_array(triangle_count, sizeof *found_ends, false); /* the rung kept's */
    if (!kept || !ends || !position || !flush || !ordered || !identity || !found_ends) {
        free(kept), free(ends), free(position), free(flush), free(ordered), free(identity), free(found_ends);
        if (!ahead)
            gc_occlusion_free(&pairs);
        return gc_fail(err, GC_ERR_NOMEM, "overdraw budget: out of memory for %zu triangles", triangle_count);
    }
    for (size_t i = 0; i < triangle_count; ++i) {
        identity[i] = (uint32_t)i;
        memcpy(ordered + 3 * i, indices + 3 * (size_t)order[i], 3 * sizeof *ordered);
    }
    const rung_input in = {triangle_count, vertex_count, cache_size, order, ordered, identity, flush, &pairs};
    s = gc_opt_overdraw_flush_acmr(ordered, triangle_count, vertex_count, cache_size, identity, flush, err);
    /* [lo, hi): the rungs still open; the finest that fits so far in `kept` */
    size_t lo = 0, hi = RUNGS, found = RUNGS, count = 0, found_count = 0;
    while (lo < hi && !s) {
        size_t mid = lo + (hi - lo) / 2;
        bool fits = false;
        s = cut_rung(&in, rung(steps[mid], threshold), ends, &count, err);
        if (!s)
            s = order_rung(&in, ends, count, false, candidate, err);
        if (!s)
            s = within_budget(costs, user, target_count, budget, candidate, &fits, err);
        if (!s && fits) {
            memcpy(kept, candidate, triangle_count * sizeof *kept);
            uint32_t* x = found_ends; /* its cuts kept for the other direction */
            found_ends = ends, ends = x;
            found_count = count;
            found = mid;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    /* At the rung kept, the other direction (occluders brought forward): kept if it fits and
     * breaks fewer pairs. */
    if (!s && found < RUNGS) {
        bool fits = false;
        s = order_rung(&in, found_ends, found_count, true, candidate, err);
        if (!s && broken_pairs(&pairs, triangle_count, candidate, position) <
                      broken_pairs(&pairs, triangle_count, kept, position))
            s = within_budget(costs, user, target_count, budget, candidate, &fits, err);
        if (!s && fits)
            memcpy(kept, candidate, triangle_count * sizeof *kept);
        /* The next coarser rung, each direction: kept if it fits and is better on both counts,
         * fewer broken pairs and fewer bytes fetched (meshoptimizer's fetch model). */
        uint32_t* scratch = !s ? gc_alloc_array((size_t)vertex_count + 2048, sizeof *scratch, false) : NULL;
        if (!s && !scratch)
            s = gc_fail(err, GC_ERR_NOMEM, "overdraw budget: out of memory for %u vertices", vertex_count);
        if (scratch) {
            const rung_pass pass = {&in, indices, ends, candidate, position, scratch, costs, user, target_count,
                                    budget};
            uint64_t kept_broken = broken_pairs(&pairs, triangle_count, kept, position);
            uint64_t kept_fetch = first_use_fetch(indices, triangle_count, vertex_count, kept, scratch,
                                                  scratch + vertex_count);
            if (!s && found + 1 < RUNGS)
                s = cut_rung(&in, rung(steps[found + 1], threshold), ends, &count, err);
            for (int reverse = 0; reverse < 2 && !s && found + 1 < RUNGS; ++reverse)
                s = keep_if_better(&pass, count, reverse, kept_broken, kept, &kept_broken, &kept_fetch, err);
            /* Half way between the rung found and the finer one that did not fit, each
             * direction: kept on the same terms. */
            if (!s && found > 0 && steps[found] > 0)
                s = cut_rung(&in, rung(0.5 * (steps[found - 1] + steps[found]), threshold), ends, &count, err);
            for (int reverse = 0; reverse < 2 && !s && found > 0 && steps[found] > 0; ++reverse)
                s = keep_if_better(&pass, count, reverse, kept_broken, kept, &kept_broken, &kept_fetch, err);
            /* First use (the numbering the output will have): half way toward the coarser
             * rung, each direction, kept if it fits and fetches fewer bytes while breaking at
             * most 1/20 more pairs than the order kept before it. */
            const uint64_t limit = kept_broken + kept_broken / 20 + 1;
            if (!s && first_use && found + 1 < RUNGS)
                s = cut_rung(&in, rung(0.5 * (steps[found] + fmax(steps[found + 1], 0)), threshold), ends, &count,
                             err);
            for (int reverse = 0; reverse < 2 && !s && first_use && found + 1 < RUNGS; ++reverse)
                s = keep_if_better(&pass, count, reverse, limit, kept, &kept_broken, &kept_fetch, err);
            free(scratch);
        }
        if (!s)
            memcpy(order, kept, triangle_count * sizeof *order);
    }
    free(kept), free(ends), free(position), free(flush), free(ordered), free(identity), free(found_ends);
    if (!ahead)
        gc_occlusion_free(&pairs);
    return s;
}

void gc_occlusion_ahead_run(gc_occlusion_ahead* a, const uint32_t* indices, size_t triangle_count,
                            uint32_t vertex_count, const float* positions, size_t position_stride)
{
    memset(&a->err, 0, sizeof a->err);
    a->status = gc_occlusion_pairs(indices, triangle_count, vertex_count, positions, position_stride, 256, &a->pairs,
                                   &a->err);
}
