// SPDX-License-Identifier: MIT
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
 * Time O(triangles), at most PATCH_SCAN triangles looked at per vertex joining a patch; memory: the live
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
#define PATCH_SCAN 64  /* remaining triangles of a vertex looked at: a hub's are not all
                          scanned each time it joins a patch, which keeps a fan linear */

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
    unsigned style;    /* GC_PATCH_* */
    bool failed;
} patcher;

static unsigned outside(const patcher* p, uint32_t t, uint32_t* which)
{
    return gc_corners_outside(p->indices + 3 * (size_t)t, p->mark, p->patch, which);
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
    const uint32_t scan = p->lists.live[x] < PATCH_SCAN ? p->lists.live[x] : PATCH_SCAN;
    for (uint32_t i = 0; i < scan; ++i) {
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
            uint32_t w = (p->style & GC_PATCH_NEWEST) ? q->items[--q->tail] : q->items[q->head++];
            if (p->mark[w] == p->patch || p->gain_patch[w] != p->patch || level(p->gain[w]) != (unsigned)g)
                continue;
            /* one of the triangles w closes; the others follow as closed ones */
            const uint32_t* list = p->lists.adj.triangles + p->lists.adj.offsets[w];
            const uint32_t scan = p->lists.live[w] < PATCH_SCAN ? p->lists.live[w] : PATCH_SCAN;
            for (uint32_t i = 0; i < scan; ++i)
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
        if (live > 0 && (p->style & GC_PATCH_SEED_LAST))
            break;
    }
    if (best != UINT32_MAX)
        return p->lists.adj.triangles[p->lists.adj.offsets[best]];
    while (p->emitted[*cursor])
        ++*cursor;
    return (uint32_t)*cursor;
}

/* Within a piece of `count` triangles: those that use a vertex of an earlier piece
 * (used_before) first, both parts in their order. `scratch` holds a piece. */
void gc_earlier_first_piece(const uint32_t* indices, uint32_t* piece, size_t count, const unsigned char* used_before,
                            uint32_t* scratch)
{
    size_t n = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint32_t* v = indices + 3 * (size_t)piece[i];
        if (used_before[v[0]] || used_before[v[1]] || used_before[v[2]])
            piece[n++] = piece[i];
        else
            scratch[i - n] = piece[i];
    }
    memcpy(piece + n, scratch, (count - n) * sizeof *scratch);
}

gc_status gc_opt_patches(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                         uint32_t patch_triangles, uint32_t first_patch, uint32_t patch_vertices, unsigned style,
                         uint32_t* order, gc_error* err)
{
    patcher p;
    memset(&p, 0, sizeof p);
    p.style = style;
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
        gc_earlier_first_piece(indices, order + start, p.written - start, p.used_before, scratch);
        for (size_t i = 0; i < p.members.tail; ++i)
            p.used_before[p.members.items[i]] = 1;
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

gc_status gc_opt_earlier_first(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               uint32_t piece_triangles, uint32_t first_piece, uint32_t* order, gc_error* err)
{
    if (piece_triangles == 0 || triangle_count == 0)
        return GC_OK;
    unsigned char* used_before = gc_alloc_array(vertex_count ? vertex_count : 1, 1, true);
    uint32_t* scratch = gc_alloc_array(piece_triangles, sizeof(uint32_t), false);
    gc_status s = GC_OK;
    if (!used_before || !scratch) {
        s = gc_fail(err, GC_ERR_NOMEM, "patches: out of memory for %u vertices", vertex_count);
    } else {
        size_t start = 0;
        uint32_t size = first_piece && first_piece < piece_triangles ? first_piece : piece_triangles;
        while (start < triangle_count) {
            size_t end = start + size < triangle_count ? start + size : triangle_count;
            gc_earlier_first_piece(indices, order + start, end - start, used_before, scratch);
            /* the piece's vertices are earlier for the next ones */
            for (size_t i = start; i < end; ++i)
                for (int c = 0; c < 3; ++c)
                    used_before[indices[3 * (size_t)order[i] + c]] = 1;
            start = end;
            size = piece_triangles;
        }
    }
    free(used_before);
    free(scratch);
    return s;
}

/* ---------------------------------------------------------------- llvmpipe */

/* The misses of one piece under a fresh direct-mapped table of `map` entries keyed by the
 * vertices' first-use numbers, the piece's new vertices numbered from `next` in the order
 * given; `number` holds the numbers of earlier pieces' vertices (UINT32_MAX: none yet) and
 * is left as it was. `table` holds `map` entries. */
static uint32_t piece_misses(const uint32_t* indices, const uint32_t* piece, size_t count, uint32_t* number,
                             uint32_t next, uint32_t map, uint32_t* table, uint32_t* fresh)
{
    for (uint32_t i = 0; i < map; ++i)
        table[i] = UINT32_MAX;
    uint32_t misses = 0, added = 0;
    for (size_t t = 0; t < count; ++t)
        for (int c = 0; c < 3; ++c) {
            uint32_t v = indices[3 * (size_t)piece[t] + c];
            if (number[v] == UINT32_MAX) {
                number[v] = next + added;
                fresh[added++] = v;
            }
            uint32_t slot = number[v] % map;
            if (table[slot] != v)
                table[slot] = v, misses++;
        }
    for (uint32_t i = 0; i < added; ++i)
        number[fresh[i]] = UINT32_MAX;
    return misses;
}

typedef struct keyed {
    uint32_t key, triangle;
} keyed;

static int compare_keyed(const void* a, const void* b)
{
    const keyed *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

gc_status gc_opt_value_keyed_pieces(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    uint32_t piece_triangles, uint32_t first_piece, uint32_t map, uint32_t* order,
                                    gc_error* err)
{
    if (piece_triangles == 0 || triangle_count == 0 || map == 0)
        return GC_OK;
    uint32_t* number = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false);
    uint32_t* table = gc_alloc_array(map, sizeof(uint32_t), false);
    uint32_t* fresh = gc_alloc_array(3 * (size_t)piece_triangles, sizeof(uint32_t), false);
    uint32_t* variant = gc_alloc_array(piece_triangles, sizeof(uint32_t), false);
    uint32_t* best = gc_alloc_array(piece_triangles, sizeof(uint32_t), false);
    keyed* keys = gc_alloc_array(piece_triangles, sizeof(keyed), false);
    gc_status s = GC_OK;
    if (!number || !table || !fresh || !variant || !best || !keys) {
        s = gc_fail(err, GC_ERR_NOMEM, "pieces: out of memory for %u vertices", vertex_count);
        goto done;
    }
    for (uint32_t v = 0; v < vertex_count; ++v)
        number[v] = UINT32_MAX;
    uint32_t next = 0;
    size_t start = 0;
    uint32_t size = first_piece && first_piece < piece_triangles ? first_piece : piece_triangles;
    while (start < triangle_count) {
        const size_t count = start + size < triangle_count ? size : triangle_count - start;
        uint32_t* piece = order + start;
        /* Variants: as it is; each triangle keyed by the earliest slot an earlier vertex of
         * it would clash with (the new vertex numbered there, (number - next) mod map):
         * the triangles with the nearest clash first, those with no earlier vertex last. */
        memcpy(best, piece, count * sizeof *best);
        uint32_t best_misses = piece_misses(indices, best, count, number, next, map, table, fresh);
        for (int kind = 0; kind < 2; ++kind) {
            for (size_t t = 0; t < count; ++t) {
                const uint32_t* tv = indices + 3 * (size_t)piece[t];
                uint32_t key = UINT32_MAX;
                for (int c = 0; c < 3; ++c) {
                    if (number[tv[c]] == UINT32_MAX)
                        continue;
                    uint32_t clash = (number[tv[c]] - next) % map;
                    uint32_t k = kind == 0 ? clash : 0;
                    key = k < key ? k : key;
                }
                keys[t].key = key;
                keys[t].triangle = piece[t];
            }
            /* qsort is not stable: the position breaks ties */
            for (size_t t = 0; t < count; ++t)
                keys[t].key = keys[t].key == UINT32_MAX ? UINT32_MAX : keys[t].key * (uint32_t)piece_triangles + (uint32_t)t;
            for (size_t t = 0; t < count; ++t)
                if (keys[t].key == UINT32_MAX)
                    keys[t].key = UINT32_MAX - (uint32_t)(count - t);
            qsort(keys, count, sizeof *keys, compare_keyed);
            for (size_t t = 0; t < count; ++t)
                variant[t] = keys[t].triangle;
            uint32_t misses = piece_misses(indices, variant, count, number, next, map, table, fresh);
            if (misses < best_misses) {
                best_misses = misses;
                memcpy(best, variant, count * sizeof *best);
            }
        }
        memcpy(piece, best, count * sizeof *best);
        for (size_t t = 0; t < count; ++t)
            for (int c = 0; c < 3; ++c) {
                uint32_t v = indices[3 * (size_t)piece[t] + c];
                if (number[v] == UINT32_MAX)
                    number[v] = next++;
            }
        start += count;
        size = piece_triangles;
    }
done:
    free(number);
    free(table);
    free(fresh);
    free(variant);
    free(best);
    free(keys);
    return s;
}
