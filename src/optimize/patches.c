/* Patches: the triangle list cut into consecutive pieces, each grown as a compact patch of
 * the surface, for the rules that cut the work into pieces whose cost is the distinct
 * vertices of each piece (llvmpipe's segments of 1023 indices with their fresh fetch table,
 * batches of slots, warps). A patch of T triangles with b boundary edges has T/2 + b/2 + 1
 * vertices (Euler, for a disk), so the cost of a piece is least when its boundary is.
 *
 * Each patch starts from a seed triangle and grows one vertex at a time: triangles whose
 * corners are all in the patch join at once; otherwise the vertex outside that closes the
 * most triangles with the patch's vertices joins (the oldest such among equals), which
 * keeps the boundary short: the patch grows ring by ring, as round as the mesh allows;
 * only when no vertex closes any, a triangle that brings two. The seed is a triangle of the previous patch's vertex
 * with the fewest triangles left (a corner of what remains, so that no island is cut off),
 * or the first remaining one in input order. A patch ends at its triangle or vertex limit;
 * one whose region runs out goes on from a new seed. Within a patch, the triangles that use
 * vertices of earlier patches come first, then the others, each in the order they joined:
 * numbered in order of first use, the earlier vertices are then done with before most of
 * the patch's new ones are numbered, which keeps value-keyed tables (llvmpipe's index %
 * 256) from mapping an old and a new vertex to one slot while both are in use.
 *
 * Time O(triangles + the valences of the vertices that join each patch); memory: the live
 * triangle lists (adjacency.c) plus 13 bytes per vertex, 1 per triangle, and queues
 * bounded by one patch's candidates. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

typedef struct queue {
    uint32_t* items;
    size_t head, tail, capacity;
} queue;

static bool queue_push(queue* q, uint32_t item)
{
    if (q->tail == q->capacity) {
        size_t capacity = q->capacity ? 2 * q->capacity : 1024;
        uint32_t* items = realloc(q->items, capacity * sizeof *items);
        if (!items)
            return false;
        q->items = items;
        q->capacity = capacity;
    }
    q->items[q->tail++] = item;
    return true;
}

#define GAIN_LEVELS 8 /* vertices that close 7 triangles or more share the top level */

typedef struct patcher {
    const uint32_t* indices;
    gc_live_triangles lists;
    unsigned char* emitted;
    unsigned char* used_before; /* vertex -> in an earlier patch */
    uint32_t* mark;             /* vertex -> patch number while it is in that patch */
    uint32_t* gain;             /* vertex outside -> triangles it would close, while gain_patch is the patch */
    uint32_t* gain_patch;
    uint32_t patch;             /* current patch number, from 1 */
    queue closed;               /* triangles whose corners are all in the patch */
    queue pairs;                /* triangles with one corner in the patch */
    queue by_gain[GAIN_LEVELS]; /* vertices by the triangles they would close */
    queue members;              /* vertices of the current patch, in joining order */
    queue previous;             /* ... and of the previous one */
    uint32_t* order;
    size_t written;
    uint32_t vertices; /* in the current patch */
    bool failed;
} patcher;

static unsigned outside(const patcher* p, uint32_t t, uint32_t* which)
{
    const uint32_t* v = p->indices + 3 * (size_t)t;
    unsigned n = 0;
    for (int c = 0; c < 3; ++c) {
        bool repeated = (c > 0 && v[c] == v[0]) || (c > 1 && v[c] == v[1]);
        if (!repeated && p->mark[v[c]] != p->patch)
            which[n++] = v[c];
    }
    return n;
}

static unsigned level(uint32_t gain)
{
    return gain < GAIN_LEVELS ? gain : GAIN_LEVELS - 1;
}

static void join(patcher* p, uint32_t x)
{
    p->mark[x] = p->patch;
    p->vertices++;
    p->failed |= !queue_push(&p->members, x);
    const uint32_t* list = p->lists.adj.triangles + p->lists.adj.offsets[x];
    for (uint32_t i = 0; i < p->lists.live[x]; ++i) {
        uint32_t which[3];
        unsigned n = outside(p, list[i], which);
        if (n == 0) {
            p->failed |= !queue_push(&p->closed, list[i]);
        } else if (n == 1) {
            uint32_t w = which[0];
            if (p->gain_patch[w] != p->patch)
                p->gain_patch[w] = p->patch, p->gain[w] = 0;
            p->gain[w]++;
            p->failed |= !queue_push(&p->by_gain[level(p->gain[w])], w);
        } else {
            p->failed |= !queue_push(&p->pairs, list[i]);
        }
    }
}

static void add_triangle(patcher* p, uint32_t t)
{
    const uint32_t* v = p->indices + 3 * (size_t)t;
    p->emitted[t] = 1;
    p->order[p->written++] = t;
    gc_live_triangles_remove(&p->lists, p->indices, t);
    for (int c = 0; c < 3; ++c)
        if (p->mark[v[c]] != p->patch)
            join(p, v[c]);
}

/* The next triangle to add and the new vertices it brings, or -1. */
static int64_t next_triangle(patcher* p, unsigned* brings)
{
    uint32_t which[3];
    while (p->closed.head < p->closed.tail) {
        uint32_t t = p->closed.items[p->closed.head++];
        if (!p->emitted[t]) {
            *brings = 0;
            return t;
        }
    }
    for (int g = GAIN_LEVELS - 1; g >= 1; --g) {
        queue* q = &p->by_gain[g];
        while (q->head < q->tail) {
            uint32_t w = q->items[q->head++];
            if (p->mark[w] == p->patch || p->gain_patch[w] != p->patch || level(p->gain[w]) != (unsigned)g)
                continue;
            /* one of the triangles w closes; the others follow as closed ones */
            const uint32_t* list = p->lists.adj.triangles + p->lists.adj.offsets[w];
            for (uint32_t i = 0; i < p->lists.live[w]; ++i)
                if (outside(p, list[i], which) == 1) {
                    *brings = 1;
                    return list[i];
                }
        }
    }
    while (p->pairs.head < p->pairs.tail) {
        uint32_t t = p->pairs.items[p->pairs.head++];
        if (!p->emitted[t] && outside(p, t, which) == 2) {
            *brings = 2;
            return t;
        }
    }
    return -1;
}

/* A seed: a triangle of the previous patch's vertex with the fewest triangles left, else
 * the first remaining triangle from *cursor on. */
static uint32_t seed(patcher* p, size_t* cursor)
{
    uint32_t best = UINT32_MAX, best_live = UINT32_MAX;
    for (size_t i = p->previous.tail; i-- > 0;) {
        uint32_t v = p->previous.items[i];
        uint32_t live = p->lists.live[v];
        if (live > 0 && live < best_live)
            best = v, best_live = live;
    }
    if (best != UINT32_MAX)
        return p->lists.adj.triangles[p->lists.adj.offsets[best]];
    while (p->emitted[*cursor])
        ++*cursor;
    return (uint32_t)*cursor;
}

/* Within the patch order[start .. written): the triangles that use an earlier patch's
 * vertices first, both parts in joining order. `scratch` holds a patch. */
static void earlier_first(patcher* p, size_t start, uint32_t* scratch)
{
    size_t n = 0;
    for (size_t i = start; i < p->written; ++i) {
        const uint32_t* v = p->indices + 3 * (size_t)p->order[i];
        if (p->used_before[v[0]] || p->used_before[v[1]] || p->used_before[v[2]])
            p->order[start + n++] = p->order[i];
        else
            scratch[i - start - n] = p->order[i];
    }
    memcpy(p->order + start + n, scratch, (p->written - start - n) * sizeof *scratch);
    for (size_t i = 0; i < p->members.tail; ++i)
        p->used_before[p->members.items[i]] = 1;
}

gc_status gc_opt_patches(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                         uint32_t patch_triangles, uint32_t first_patch, uint32_t patch_vertices, uint32_t* order,
                         gc_error* err)
{
    patcher p;
    memset(&p, 0, sizeof p);
    p.indices = indices;
    p.order = order;
    gc_status s = gc_live_triangles_init(&p.lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    const size_t vc = vertex_count ? vertex_count : 1;
    p.emitted = gc_alloc_array(triangle_count ? triangle_count : 1, 1, true);
    p.used_before = gc_alloc_array(vc, 1, true);
    p.mark = gc_alloc_array(vc, sizeof(uint32_t), true);
    p.gain = gc_alloc_array(vc, sizeof(uint32_t), true);
    p.gain_patch = gc_alloc_array(vc, sizeof(uint32_t), true);
    if (patch_triangles == 0 || patch_triangles > triangle_count)
        patch_triangles = triangle_count ? (uint32_t)triangle_count : 1;
    uint32_t* scratch = gc_alloc_array(patch_triangles, sizeof(uint32_t), false);
    if (!p.emitted || !p.used_before || !p.mark || !p.gain || !p.gain_patch || !scratch) {
        s = gc_fail(err, GC_ERR_NOMEM, "patches: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    size_t cursor = 0;
    uint32_t limit = first_patch && first_patch < patch_triangles ? first_patch : patch_triangles;
    while (p.written < triangle_count && !p.failed) {
        p.patch++;
        p.vertices = 0;
        p.closed.head = p.closed.tail = p.pairs.head = p.pairs.tail = 0;
        for (int g = 0; g < GAIN_LEVELS; ++g)
            p.by_gain[g].head = p.by_gain[g].tail = 0;
        const size_t start = p.written;
        uint32_t count = 0;
        while (count < limit && p.written < triangle_count && !p.failed) {
            unsigned brings = 0;
            int64_t t = next_triangle(&p, &brings);
            if (t < 0) {
                /* the region ran out: go on from a new seed */
                uint32_t which[3];
                t = seed(&p, &cursor);
                brings = outside(&p, (uint32_t)t, which);
            }
            if (patch_vertices && count > 0 && p.vertices + brings > patch_vertices)
                break; /* the best candidate does not fit: the patch is full */
            add_triangle(&p, (uint32_t)t);
            count++;
        }
        earlier_first(&p, start, scratch);
        /* the members of this patch seed the next */
        queue swap = p.previous;
        p.previous = p.members;
        p.members = swap;
        p.members.head = p.members.tail = 0;
        limit = patch_triangles;
    }
    if (p.failed)
        s = gc_fail(err, GC_ERR_NOMEM, "patches: out of memory for the candidates of a patch");
done:
    free(p.closed.items);
    free(p.pairs.items);
    for (int g = 0; g < GAIN_LEVELS; ++g)
        free(p.by_gain[g].items);
    free(p.members.items);
    free(p.previous.items);
    free(p.emitted);
    free(p.used_before);
    free(p.mark);
    free(p.gain);
    free(p.gain_patch);
    free(scratch);
    gc_live_triangles_free(&p.lists);
    return s;
}
