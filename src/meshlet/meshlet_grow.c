// SPDX-License-Identifier: MIT
/* The meshlet grower (issue 31 items 3 and 4; docs/optimizers/meshlets.md): a triangle
 * order whose scan with the batch-all rule (indices = 3T, vertices = V) gives meshlets
 * grown one by one as compact patches of the surface, each filled until no remaining
 * triangle fits it.
 *
 * A meshlet grows one vertex at a time. Triangles whose corners are all in the meshlet join
 * at once. Otherwise the outside vertex that closes the most triangles with the meshlet's
 * vertices joins (its gain); among equal gains the one with the fewest triangles left once
 * those are closed (a vertex finished here is not shaded again by a later meshlet), then the
 * one that reached its gain first (the meshlet grows ring by ring). Only where no outside
 * vertex closes a triangle, a triangle bringing two vertices joins (among those, the one
 * whose vertices have the fewest triangles left), and where none touches the meshlet, a
 * seed: a triangle of the earlier vertex with the fewest triangles left, else the first
 * remaining triangle.
 *
 * The meshlet is closed only when nothing fits: T triangles, or every remaining triangle
 * would pass V vertices. That is the scan's own rule, so scanning the order gives back
 * exactly these meshlets (the caller scans it anyway: the property holds by construction
 * even where the grower's view is partial, at a hub, below). One exception keeps that
 * rule (style.early): with one vertex slot left, a vertex that closes few triangles and
 * has more left (it will be shaded again by a later meshlet anyway) is not taken; the
 * meshlet closes there if the next one can start with a triangle bringing two vertices
 * or more, which the scan cannot fit into the closed one either.
 *
 * Time O(triangles): each vertex joining a meshlet looks at up to GROW_SCAN of its remaining
 * triangles, each step pops from bounded queues. Memory: the live triangle lists (8 bytes per
 * index and 8 per vertex), 16 bytes per vertex, 1 per triangle, and queues bounded by one
 * meshlet's candidates. */
#include "../internal.h"
#include "../optimize/optimize.h"
#include "meshlet_internal.h"

#include <stdlib.h>
#include <string.h>

#define GROW_SCAN 64 /* remaining triangles of a joining vertex looked at (a hub's are not all) */
#define GAIN_CAP 7   /* gains above share the top level */
#define REST_CAP 15  /* triangles left after closing: above share the lowest priority */
#define LEVELS ((GAIN_CAP + 1) * (REST_CAP + 1))

typedef struct queue {
    uint32_t* items;
    size_t head, tail, capacity;
} queue;

static bool push(queue* q, uint32_t item)
{
    if (q->tail == q->capacity) {
        if (q->head > 0 && q->head >= q->capacity / 2) { /* slide down rather than grow */
            memmove(q->items, q->items + q->head, (q->tail - q->head) * sizeof *q->items);
            q->tail -= q->head;
            q->head = 0;
        } else {
            size_t capacity = q->capacity ? 2 * q->capacity : 256;
            uint32_t* items = realloc(q->items, capacity * sizeof *items);
            if (!items)
                return false;
            q->items = items;
            q->capacity = capacity;
        }
    }
    q->items[q->tail++] = item;
    return true;
}

typedef struct grower {
    const uint32_t* indices;
    gc_live_triangles lists;
    unsigned char* emitted;
    uint32_t* mark;    /* vertex -> meshlet number (from 1) while it is in that meshlet */
    uint32_t* gain;    /* outside vertex -> triangles it would close, valid while gain_of == meshlet */
    uint32_t* gain_of;
    uint32_t meshlet;
    uint32_t fill, count; /* the open meshlet's vertices and triangles */
    queue closed;         /* triangles whose corners are all in the meshlet */
    queue pairs;          /* triangles with two corners outside */
    queue levels[LEVELS]; /* outside vertices by priority (gain, then triangles left) */
    unsigned top;         /* no level above holds an entry */
    queue members, previous; /* the open meshlet's vertices, and the last closed one's */
    bool members_dead, previous_dead; /* known to have no triangles left */
    uint32_t* order;
    size_t written;
    gc_meshlet_grow_style style;
    int64_t corner; /* the first seed, or -1 */
    bool failed;
} grower;

static unsigned outside(const grower* g, uint32_t t, uint32_t* which)
{
    return gc_corners_outside(g->indices + 3 * (size_t)t, g->mark, g->meshlet, which);
}

/* The priority level of outside vertex w: higher is better. By its gain first, then the
 * fewest triangles left once closed (up to style.rest_cap); or by twice the gain less those. */
static unsigned level_of(const grower* g, uint32_t w)
{
    uint32_t gain = g->gain[w] < GAIN_CAP ? g->gain[w] : GAIN_CAP;
    uint32_t rest = g->lists.live[w] > g->gain[w] ? g->lists.live[w] - g->gain[w] : 0;
    if (g->style.balance) {
        int score = 2 * (int)gain - (int)rest;
        return (unsigned)((score < -REST_CAP ? -REST_CAP : score) + REST_CAP);
    }
    rest = rest < g->style.rest_cap ? rest : g->style.rest_cap;
    return gain * (REST_CAP + 1) + (REST_CAP - rest);
}

static void requeue(grower* g, uint32_t w)
{
    unsigned l = level_of(g, w);
    g->failed |= !push(&g->levels[l], w);
    if (l > g->top)
        g->top = l;
}

static void join(grower* g, uint32_t x)
{
    g->mark[x] = g->meshlet;
    g->fill++;
    g->members_dead &= g->lists.live[x] == 0;
    g->failed |= !push(&g->members, x);
    const uint32_t* list = g->lists.adj.triangles + g->lists.adj.offsets[x];
    const uint32_t scan = g->lists.live[x] < GROW_SCAN ? g->lists.live[x] : GROW_SCAN;
    for (uint32_t i = 0; i < scan; ++i) {
        uint32_t which[3];
        unsigned n = outside(g, list[i], which);
        if (n == 0) {
            g->failed |= !push(&g->closed, list[i]);
        } else if (n == 1) {
            uint32_t w = which[0];
            if (g->gain_of[w] != g->meshlet)
                g->gain_of[w] = g->meshlet, g->gain[w] = 0;
            g->gain[w]++;
            requeue(g, w);
        } else {
            g->failed |= !push(&g->pairs, list[i]);
        }
    }
}

static void add_triangle(grower* g, uint32_t t)
{
    const uint32_t* v = g->indices + 3 * (size_t)t;
    g->emitted[t] = 1;
    g->order[g->written++] = t;
    g->count++;
    gc_live_triangles_remove(&g->lists, g->indices, t);
    for (int c = 0; c < 3; ++c)
        if (g->mark[v[c]] != g->meshlet)
            join(g, v[c]);
    /* the vertices outside whose triangle this was have one fewer left: better priority */
}

/* The best triangle bringing one vertex: one that the best outside vertex closes. */
static int64_t best_single(grower* g)
{
    uint32_t which[3];
    for (;;) {
        while (g->top > 0 && g->levels[g->top].head == g->levels[g->top].tail)
            g->top--;
        queue* q = &g->levels[g->top];
        if (q->head == q->tail)
            return -1;
        uint32_t w = q->items[q->head++];
        if (g->mark[w] == g->meshlet || g->gain_of[w] != g->meshlet || g->gain[w] == 0)
            continue;
        unsigned l = level_of(g, w);
        if (l != g->top) { /* stale entry: its vertex sits at another level now */
            if (l < g->top)
                g->failed |= !push(&g->levels[l], w);
            continue;
        }
        const uint32_t* list = g->lists.adj.triangles + g->lists.adj.offsets[w];
        const uint32_t scan = g->lists.live[w] < GROW_SCAN ? g->lists.live[w] : GROW_SCAN;
        for (uint32_t i = 0; i < scan; ++i)
            if (outside(g, list[i], which) == 1)
                return list[i];
        g->gain[w] = 0; /* its triangles were taken otherwise */
    }
}

/* The best triangle bringing two vertices (the fewest triangles left at them), or -1. */
static int64_t best_pair(grower* g)
{
    uint32_t which[3];
    int64_t best = -1;
    uint32_t best_rest = UINT32_MAX;
    size_t keep = g->pairs.head;
    for (size_t i = g->pairs.head; i < g->pairs.tail; ++i) {
        uint32_t t = g->pairs.items[i];
        if (g->emitted[t] || outside(g, t, which) != 2)
            continue;
        g->pairs.items[keep++] = t;
        uint32_t rest = g->lists.live[which[0]] + g->lists.live[which[1]];
        if (rest < best_rest)
            best = t, best_rest = rest;
    }
    g->pairs.tail = keep;
    return best;
}

/* A seed: a triangle of the open or last meshlet's vertex with the fewest triangles left,
 * else the first remaining triangle from *cursor on. */
static uint32_t seed(grower* g, size_t* cursor)
{
    uint32_t best = UINT32_MAX, best_live = UINT32_MAX;
    const queue* sets[2] = {&g->members, &g->previous};
    bool* dead[2] = {&g->members_dead, &g->previous_dead};
    for (int s = 0; s < 2 && best == UINT32_MAX; ++s) {
        if (*dead[s])
            continue;
        for (size_t i = 0; i < sets[s]->tail; ++i) {
            uint32_t v = sets[s]->items[i];
            uint32_t live = g->lists.live[v];
            if (live > 0 && live < best_live)
                best = v, best_live = live;
        }
        /* triangles left only go down: a set found without any stays so until a vertex with
           some joins it (a triangle soup seeds at every triangle: not a scan each time) */
        *dead[s] = best == UINT32_MAX;
    }
    if (best != UINT32_MAX)
        return g->lists.adj.triangles[g->lists.adj.offsets[best]];
    if (g->corner >= 0 && !g->emitted[g->corner])
        return (uint32_t)g->corner;
    while (g->emitted[*cursor])
        ++*cursor;
    return (uint32_t)*cursor;
}

/* A triangle to start the next meshlet when the open one closes with one vertex slot free:
 * it must bring two vertices or more, so that the scan closes the meshlet there too. Among
 * the open meshlet's vertices with triangles left, the one with the fewest; -1 if none. */
static int64_t early_seed(const grower* g)
{
    uint32_t which[3];
    int64_t best = -1;
    uint32_t best_live = UINT32_MAX;
    for (size_t i = 0; i < g->members.tail; ++i) {
        uint32_t v = g->members.items[i];
        uint32_t live = g->lists.live[v];
        if (live == 0 || live >= best_live)
            continue;
        const uint32_t* list = g->lists.adj.triangles + g->lists.adj.offsets[v];
        const uint32_t scan = live < GROW_SCAN ? live : GROW_SCAN;
        for (uint32_t k = 0; k < scan; ++k)
            if (outside(g, list[k], which) >= 2) {
                best = list[k], best_live = live;
                break;
            }
    }
    return best;
}

static void open_meshlet(grower* g)
{
    g->meshlet++;
    g->fill = g->count = 0;
    g->closed.head = g->closed.tail = g->pairs.head = g->pairs.tail = 0;
    for (unsigned l = 0; l < LEVELS; ++l)
        g->levels[l].head = g->levels[l].tail = 0;
    g->top = 0;
    queue swap = g->previous;
    g->previous = g->members;
    g->members = swap;
    g->members.head = g->members.tail = 0;
    g->previous_dead = g->members_dead;
    g->members_dead = false;
}

gc_status gc_meshlet_grow(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t v_max,
                          uint32_t t_max, const gc_meshlet_grow_style* style, uint32_t* order, gc_error* err)
{
    grower g;
    memset(&g, 0, sizeof g);
    g.style = *style;
    if (g.style.rest_cap > REST_CAP)
        g.style.rest_cap = REST_CAP;
    g.corner = -1;
    g.indices = indices;
    g.order = order;
    if (triangle_count == 0)
        return GC_OK;
    gc_status s = gc_live_triangles_init(&g.lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    const size_t vc = vertex_count ? vertex_count : 1;
    g.emitted = gc_alloc_array(triangle_count, 1, true);
    g.mark = gc_alloc_array(vc, sizeof(uint32_t), true);
    g.gain = gc_alloc_array(vc, sizeof(uint32_t), true);
    g.gain_of = gc_alloc_array(vc, sizeof(uint32_t), true);
    if (!g.emitted || !g.mark || !g.gain || !g.gain_of) {
        s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    if (style->corner) { /* the first seed: a triangle of a vertex with the fewest triangles */
        uint32_t best = UINT32_MAX;
        for (uint32_t v = 0; v < vertex_count; ++v)
            if (g.lists.live[v] > 0 && (best == UINT32_MAX || g.lists.live[v] < g.lists.live[best]))
                best = v;
        if (best != UINT32_MAX)
            g.corner = g.lists.adj.triangles[g.lists.adj.offsets[best]];
    }
    size_t cursor = 0;
    int64_t pending = -1; /* the next meshlet's first triangle, chosen when closing early */
    open_meshlet(&g);
    while (g.written < triangle_count && !g.failed) {
        if (g.count == t_max) {
            open_meshlet(&g);
            continue;
        }
        int64_t t = -1;
        if (g.count == 0 && pending >= 0 && !g.emitted[pending])
            t = pending;
        pending = -1;
        while (g.closed.head < g.closed.tail && t < 0) {
            uint32_t c = g.closed.items[g.closed.head++];
            if (!g.emitted[c])
                t = c;
        }
        if (t < 0 && g.fill + 1 <= v_max) {
            t = best_single(&g);
            if (t >= 0 && g.style.early && g.fill + 1 == v_max) {
                /* the last slot for a vertex closing few triangles and shaded again later
                   anyway: close the meshlet here if the next one can start so that the
                   scan closes it too */
                uint32_t which[3];
                outside(&g, (uint32_t)t, which);
                const uint32_t w = which[0];
                if (g.gain[w] <= g.style.early && g.lists.live[w] > g.gain[w] && (pending = early_seed(&g)) >= 0) {
                    open_meshlet(&g);
                    continue;
                }
            }
        }
        if (t < 0 && g.fill + 2 <= v_max)
            t = best_pair(&g);
        if (t < 0 && (g.fill + 3 <= v_max || g.count == 0))
            t = seed(&g, &cursor);
        if (t < 0) { /* nothing fits: the meshlet is full */
            open_meshlet(&g);
            continue;
        }
        add_triangle(&g, (uint32_t)t);
    }
    if (g.failed)
        s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for the candidates of a meshlet");
done:
    free(g.closed.items);
    free(g.pairs.items);
    for (unsigned l = 0; l < LEVELS; ++l)
        free(g.levels[l].items);
    free(g.members.items);
    free(g.previous.items);
    free(g.emitted);
    free(g.mark);
    free(g.gain);
    free(g.gain_of);
    gc_live_triangles_free(&g.lists);
    return s;
}
