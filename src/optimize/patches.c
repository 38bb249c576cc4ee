/* Patches: the triangle list cut into consecutive pieces, each grown as a compact patch of
 * the surface, for the rules that cut the work into pieces whose cost is the distinct
 * vertices of each piece (llvmpipe's segments of 1023 indices with their fresh fetch table,
 * batches of slots, warps). A patch of T triangles with b boundary edges has T/2 + b/2 + 1
 * vertices (Euler, for a disk), so the cost of a piece is least when its boundary is.
 *
 * Each patch starts from a seed triangle and grows by the candidate (a remaining triangle
 * with a vertex in the patch) that adds the fewest new vertices, oldest first among equals:
 * triangles closed by the patch's vertices join at once, then the patch grows ring by
 * ring, as round as the mesh allows. The seed is a triangle of the previous patch's vertex
 * with the fewest triangles left (a corner of what remains, so that no island is cut off),
 * or the first remaining one in input order. A patch ends at its triangle or vertex limit;
 * one whose region runs out goes on from a new seed. Triangles within a patch keep the
 * order they joined in: the vertices shared with earlier patches come first.
 *
 * Time O(triangles + the valences of the vertices that join each patch); memory: the live
 * triangle lists (adjacency.c) plus 4 bytes per vertex, 1 per triangle, and queues bounded
 * by one patch's candidates. */
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

typedef struct patcher {
    const uint32_t* indices;
    gc_live_triangles lists;
    unsigned char* emitted;
    uint32_t* mark;    /* vertex -> patch number + 1 while it is in that patch */
    uint32_t patch;    /* current patch number + 1 */
    queue bucket[3];   /* candidates by the new vertices they need */
    queue members;     /* vertices of the current patch, in joining order */
    queue previous;    /* ... and of the previous one */
    uint32_t* order;
    size_t written;
    uint32_t vertices; /* in the current patch */
    bool failed;
} patcher;

static unsigned new_vertices(const patcher* p, uint32_t t)
{
    const uint32_t* v = p->indices + 3 * (size_t)t;
    unsigned n = p->mark[v[0]] != p->patch;
    n += v[1] != v[0] && p->mark[v[1]] != p->patch;
    n += v[2] != v[0] && v[2] != v[1] && p->mark[v[2]] != p->patch;
    return n;
}

static void add_triangle(patcher* p, uint32_t t)
{
    const uint32_t* v = p->indices + 3 * (size_t)t;
    p->emitted[t] = 1;
    p->order[p->written++] = t;
    gc_live_triangles_remove(&p->lists, p->indices, t);
    for (int c = 0; c < 3; ++c) {
        uint32_t x = v[c];
        if (p->mark[x] == p->patch)
            continue;
        p->mark[x] = p->patch;
        p->vertices++;
        p->failed |= !queue_push(&p->members, x);
        /* x's remaining triangles became candidates, or need fewer new vertices now */
        const uint32_t* list = p->lists.adj.triangles + p->lists.adj.offsets[x];
        for (uint32_t i = 0; i < p->lists.live[x]; ++i) {
            unsigned k = new_vertices(p, list[i]);
            if (k < 3)
                p->failed |= !queue_push(&p->bucket[k], list[i]);
        }
    }
}

/* The next candidate that still needs `key` new vertices, or -1. */
static int64_t pop(patcher* p, unsigned key)
{
    queue* q = &p->bucket[key];
    while (q->head < q->tail) {
        uint32_t t = q->items[q->head++];
        if (!p->emitted[t] && new_vertices(p, t) == key)
            return t;
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
    p.emitted = gc_alloc_array(triangle_count ? triangle_count : 1, 1, true);
    p.mark = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    if (!p.emitted || !p.mark) {
        s = gc_fail(err, GC_ERR_NOMEM, "patches: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    if (patch_triangles == 0)
        patch_triangles = UINT32_MAX;
    size_t cursor = 0;
    uint32_t limit = first_patch && first_patch < patch_triangles ? first_patch : patch_triangles;
    while (p.written < triangle_count && !p.failed) {
        p.patch++;
        p.vertices = 0;
        for (int k = 0; k < 3; ++k)
            p.bucket[k].head = p.bucket[k].tail = 0;
        uint32_t count = 0;
        while (count < limit && p.written < triangle_count && !p.failed) {
            int64_t t = -1;
            unsigned key = 0;
            for (; key < 3 && t < 0; ++key)
                t = pop(&p, key);
            if (t >= 0 && patch_vertices && p.vertices + key - 1 > patch_vertices)
                break; /* the best candidate does not fit: the patch is full */
            if (t < 0) {
                /* the region ran out: go on from a new seed, if it fits */
                uint32_t sd = seed(&p, &cursor);
                if (patch_vertices && count > 0 && p.vertices + new_vertices(&p, sd) > patch_vertices)
                    break;
                t = sd;
            }
            add_triangle(&p, (uint32_t)t);
            count++;
        }
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
    for (int k = 0; k < 3; ++k)
        free(p.bucket[k].items);
    free(p.members.items);
    free(p.previous.items);
    free(p.emitted);
    free(p.mark);
    gc_live_triangles_free(&p.lists);
    return s;
}
