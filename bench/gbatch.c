// SPDX-License-Identifier: MIT
/* gbatch (bench only): Kerbl et al.'s batch-aware greedy (HPG 2018), written from
 * GPUPeople/vertex_batch_optimization's GBatchOptimizer.cpp ("GB" below) and
 * BatchSimulator.h ("BS"), commit 46332cd. The optimizer:
 *  - scores every triangle: cache weight x its vertices in the batch's cache + valence
 *    weight x the remaining valences of its vertices + distance weight x its accumulated
 *    distance (in triangles, through the batch's placed triangles) + neighbour and fin-point
 *    terms (GB:55-58, 95-129);
 *  - repeatedly takes the best triangle (the loop at GB:244 looks at one: `++t < 2`), asks
 *    the batch simulation whether it fits in its best rotation (canAddTriangle: -3 + new
 *    vertices, 1 = an ATI cut inside it, 2 = the batch must end; GB:253-280, BS:281-304);
 *    if it fits it is placed (GB:293-433), else the batch is ended (GB:436) and the
 *    triangles lose the cache scores of the batch's vertices (GB:443-498);
 *  - vertices that leave the simulated cache take their cache score from their triangles
 *    (GB:446-498).
 * Weights (SceneProcessor.cpp): "gbatch" NV_DX 1024, -4, -1, 0, 0 (line 123); "gbatch.intel"
 * 1024, -4, -1, 0, 0 (line 128); "gbatch.amd" ATI 1024, -16, -1, 0, 0 (line 137).
 * Left out: their vertex remapping for 16-bit index ranges (GB:565-647), which changes
 * index values, not the order. Their priority queue is a boost Fibonacci heap; among equal
 * scores we take the lowest triangle number (their tie order is the heap's). The batch
 * simulation the optimizer plans with is theirs (BS:242-405), transliterated here: the
 * orders are scored afterwards by gpucache's own models. */
#include "gbatch.h"
#include "optimize/optimize.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ the batch simulation */

typedef struct bstate {
    gbatch_params p;
    uint32_t cbatch, cuniques, progress, last_hard_reset, hard_reset;
    /* NV / ALL: a FIFOCacheSim as per-vertex words (the batch that holds it, last use) */
    uint32_t* batch_of;
    uint32_t* last;
    uint32_t current;
    /* ATI: LRUCacheSim, least recent first */
    uint32_t lru[64];
    uint32_t count;
} bstate;

static bool entry_cached(const bstate* s, uint32_t current, uint32_t last)
{
    uint32_t d = current - last;
    switch (s->p.rule) {
    case GBATCH_NV_DX:
        if (last % 3 == 0)
            return d < 45;
        if (last % 3 == 1)
            return d <= 40 || d == 42;
        return d <= 39 || d == 41 || d == 42;
    case GBATCH_NV_GL: return d <= s->p.window;
    default: return true;
    }
}

/* Vertex v at position `at` after the corners tri[0..i) were inserted at progress + k. */
static bool nv_cached(const bstate* s, const uint32_t* tri, unsigned i, bool fresh)
{
    for (unsigned k = i; k-- > 0;)
        if (tri[k] == tri[i])
            return entry_cached(s, s->progress + i, s->progress + k);
    return !fresh && s->batch_of[tri[i]] == s->current && entry_cached(s, s->progress + i, s->last[tri[i]]);
}

static bool lru_has(const uint32_t* list, uint32_t count, uint32_t v)
{
    for (uint32_t i = 0; i < count; ++i)
        if (list[i] == v)
            return true;
    return false;
}

static void lru_put(uint32_t* list, uint32_t* count, uint32_t size, uint32_t v)
{
    uint32_t loc = *count;
    for (uint32_t i = 0; i < *count; ++i)
        if (list[i] == v) {
            loc = i;
            break;
        }
    if (loc == *count) {
        if (*count == size)
            loc = 0;
        else
            ++*count;
    }
    for (uint32_t i = loc + 1; i < *count; ++i)
        list[i - 1] = list[i];
    list[*count - 1] = v;
}

static bool in_cache(const bstate* s, uint32_t v)
{
    if (s->p.rule == GBATCH_ATI)
        return lru_has(s->lru, s->count, v);
    return s->batch_of[v] == s->current && entry_cached(s, s->progress, s->last[v]);
}

static void end_batch(bstate* s, bool hard)
{
    s->current++;
    if (hard)
        s->count = 0;
    s->cbatch = s->cuniques = 0;
    s->last_hard_reset = s->progress;
}

/* BS:281-304 */
static int32_t can_add(const bstate* s, const uint32_t* tri)
{
    if (s->progress % s->hard_reset == 0 && s->last_hard_reset != s->progress)
        return 2;
    if (s->cbatch + 3 > s->p.max_indices)
        return 2;
    uint32_t adds = 0;
    if (s->p.rule == GBATCH_ATI) {
        uint32_t copy[64], count = s->count;
        memcpy(copy, s->lru, sizeof copy);
        for (unsigned i = 0; i < 3; ++i) {
            adds += !lru_has(copy, count, tri[i]);
            lru_put(copy, &count, s->p.lru, tri[i]);
        }
    } else {
        for (unsigned i = 0; i < 3; ++i)
            adds += !nv_cached(s, tri, i, false);
    }
    if (s->cuniques + adds > s->p.max_vertices)
        return s->hard_reset != 0xFFFFFFFFu ? 1 : 2;
    return -3 + (int32_t)adds;
}

/* BS:310-382 */
static void add_triangle(bstate* s, const uint32_t* tri)
{
    if (s->progress % s->hard_reset == 0 && s->last_hard_reset != s->progress)
        end_batch(s, true);
    uint32_t adds = 0;
    if (s->p.rule == GBATCH_ATI) {
        uint32_t move = 3;
        for (unsigned i = 0; i < 3; ++i) {
            adds += !lru_has(s->lru, s->count, tri[i]);
            if (s->cuniques + adds > s->p.max_vertices || s->cbatch + i + 1 > s->p.max_indices) {
                s->cbatch += i;
                s->progress += i;
                end_batch(s, false);
                adds = 1;
                move -= i;
            }
            lru_put(s->lru, &s->count, s->p.lru, tri[i]);
        }
        s->cuniques += adds;
        s->cbatch += move;
        s->progress += move;
        return;
    }
    bool fresh = false;
    for (unsigned i = 0; i < 3; ++i) {
        adds += !nv_cached(s, tri, i, fresh);
        if (!fresh && (s->cuniques + adds > s->p.max_vertices || s->cbatch + i + 1 > s->p.max_indices)) {
            end_batch(s, false);
            fresh = true;
            adds = 0;
            for (unsigned j = 0; j <= i; ++j)
                adds += !nv_cached(s, tri, j, true);
        }
    }
    for (unsigned i = 0; i < 3; ++i) {
        s->batch_of[tri[i]] = s->current;
        s->last[tri[i]] = s->progress + i;
    }
    s->cuniques += adds;
    s->cbatch += 3;
    s->progress += 3;
}

/* ------------------------------------------------------------- the optimizer */

/* A map of placed triangle -> distance, open addressing (keys + 1; 0 = empty). */
typedef struct dmap {
    uint32_t* keys;
    uint32_t* values;
    uint32_t capacity, size;
} dmap;

static uint32_t* dmap_find(const dmap* m, uint32_t key)
{
    if (!m->capacity)
        return NULL;
    for (uint32_t h = (key * 2654435761u) & (m->capacity - 1);; h = (h + 1) & (m->capacity - 1)) {
        if (m->keys[h] == 0)
            return NULL;
        if (m->keys[h] == key + 1)
            return &m->values[h];
    }
}

static bool dmap_put(dmap* m, uint32_t key, uint32_t value);

static bool dmap_grow(dmap* m)
{
    dmap bigger = {0};
    bigger.capacity = m->capacity ? 2 * m->capacity : 8;
    bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
    bigger.values = malloc(bigger.capacity * sizeof *bigger.values);
    if (!bigger.keys || !bigger.values) {
        free(bigger.keys);
        free(bigger.values);
        return false;
    }
    for (uint32_t i = 0; i < m->capacity; ++i)
        if (m->keys[i])
            dmap_put(&bigger, m->keys[i] - 1, m->values[i]);
    free(m->keys);
    free(m->values);
    *m = bigger;
    return true;
}

/* Inserts key if absent (emplace: an existing entry stays). */
static bool dmap_put(dmap* m, uint32_t key, uint32_t value)
{
    if (2 * (m->size + 1) > m->capacity && !dmap_grow(m))
        return false;
    for (uint32_t h = (key * 2654435761u) & (m->capacity - 1);; h = (h + 1) & (m->capacity - 1)) {
        if (m->keys[h] == key + 1)
            return true;
        if (m->keys[h] == 0) {
            m->keys[h] = key + 1;
            m->values[h] = value;
            m->size++;
            return true;
        }
    }
}

static void dmap_free(dmap* m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* DistanceInformation (GB:155-160) */
typedef struct dist_info {
    dmap from;
    uint32_t* direct;
    uint32_t direct_count, direct_capacity;
    uint32_t accumulated;
    uint32_t active_at; /* place in the active list */
} dist_info;

typedef struct opt {
    const gbatch_params* w;
    size_t triangles;
    gc_triangle_heap queue; /* triangles by (score, -number); where UINT32_MAX once placed */
    dist_info** dist; /* per triangle, NULL = none */
    uint32_t* active; /* triangles with a dist entry */
    uint32_t active_count;
    uint32_t* batch_count; /* activeBatchEntries */
} opt;

static dist_info* dist_new(opt* o, uint32_t t)
{
    dist_info* d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->active_at = o->active_count;
    o->active[o->active_count++] = t;
    o->dist[t] = d;
    return d;
}

static void dist_remove(opt* o, uint32_t t)
{
    dist_info* d = o->dist[t];
    uint32_t last = o->active[--o->active_count];
    o->active[d->active_at] = last;
    if (o->dist[last])
        o->dist[last]->active_at = d->active_at;
    dmap_free(&d->from);
    free(d->direct);
    free(d);
    o->dist[t] = NULL;
}

static bool direct_add(dist_info* d, uint32_t t)
{
    if (d->direct_count == d->direct_capacity) {
        uint32_t cap = d->direct_capacity ? 2 * d->direct_capacity : 4;
        uint32_t* grown = realloc(d->direct, cap * sizeof *grown);
        if (!grown)
            return false;
        d->direct = grown;
        d->direct_capacity = cap;
    }
    d->direct[d->direct_count++] = t;
    return true;
}

int gbatch_params_for(const char* family, const uint32_t* p, gbatch_params* out)
{
    memset(out, 0, sizeof *out);
    out->cache_w = 1024, out->valence_w = -4, out->distance_w = -1;
    if (!strcmp(family, "nv-dx") || !strcmp(family, "nv-gl")) {
        out->rule = family[3] == 'd' ? GBATCH_NV_DX : GBATCH_NV_GL;
        out->max_indices = p[0], out->max_vertices = p[1], out->window = p[2];
    } else if (!strcmp(family, "batch-all")) {
        out->rule = GBATCH_ALL;
        out->max_indices = p[0], out->max_vertices = p[1];
    } else if (!strcmp(family, "ati")) {
        out->rule = GBATCH_ATI;
        out->lru = p[0] > 64 ? 64 : p[0], out->max_vertices = p[1], out->max_indices = p[2];
        out->valence_w = -16; /* "gbatch.amd" */
    } else {
        return 0;
    }
    return 1;
}

int gbatch_order(const uint32_t* idx, size_t n, uint32_t vertices, const gbatch_params* w, uint32_t* out)
{
    const size_t T = n / 3;
    int rc = -1;
    opt o = {0};
    o.w = w;
    o.triangles = T;
    bstate s = {0};
    s.p = *w;
    s.hard_reset = w->rule == GBATCH_ATI ? w->max_indices : 0xFFFFFFFFu;
    s.current = 1;
    uint32_t* valence = calloc(vertices + 1, sizeof *valence);
    uint32_t* adj_start = calloc(vertices + 2, sizeof *adj_start);
    uint32_t* adj = malloc((n + 1) * sizeof *adj);
    bool* cached = calloc(vertices + 1, sizeof *cached);
    uint32_t* cached_list = malloc((vertices + 1) * sizeof *cached_list);
    uint32_t* removed = malloc((vertices + 1) * sizeof *removed);
    s.batch_of = calloc(vertices + 1, sizeof *s.batch_of);
    s.last = calloc(vertices + 1, sizeof *s.last);
    o.queue.score = calloc(T + 1, sizeof *o.queue.score);
    o.queue.heap = malloc((T + 1) * sizeof *o.queue.heap);
    o.queue.where = malloc((T + 1) * sizeof *o.queue.where);
    o.dist = calloc(T + 1, sizeof *o.dist);
    o.active = malloc((T + 1) * sizeof *o.active);
    o.batch_count = calloc(T + 1, sizeof *o.batch_count);
    if (!valence || !adj_start || !adj || !cached || !cached_list || !removed || !s.batch_of || !s.last ||
        !o.queue.score || !o.queue.heap || !o.queue.where || !o.dist || !o.active || !o.batch_count)
        goto done;
    /* GB:183-216: valences, the faces of each vertex, the initial scores */
    for (size_t i = 0; i < n; ++i)
        valence[idx[i]]++;
    for (uint32_t v = 0; v < vertices; ++v)
        adj_start[v + 1] = adj_start[v] + valence[v];
    {
        uint32_t* fill = calloc(vertices + 1, sizeof *fill);
        if (!fill)
            goto done;
        for (size_t i = 0; i < n; ++i)
            adj[adj_start[idx[i]] + fill[idx[i]]++] = (uint32_t)(i / 3);
        free(fill);
    }
    for (size_t t = 0; t < T; ++t) {
        o.queue.score[t] =
            w->valence_w * (int32_t)(valence[idx[3 * t]] + valence[idx[3 * t + 1]] + valence[idx[3 * t + 2]]);
        gc_triangle_heap_push(&o.queue, (uint32_t)t);
    }
    const uint32_t NONE = UINT32_MAX;
    uint32_t cached_count = 0, written = 0, batch_indices = 0;
    while (o.queue.size) {
        const uint32_t best = o.queue.heap[0];
        const uint32_t* f = idx + 3 * (size_t)best;
        const uint32_t ids[5] = {f[0], f[1], f[2], f[0], f[1]};
        /* GB:253-269: the rotation that adds the fewest vertices */
        uint32_t rot = 0;
        int32_t state = can_add(&s, ids);
        if (state != -3) {
            rot = 1;
            int32_t s1 = can_add(&s, ids + 1), s2 = can_add(&s, ids + 2);
            if (s2 < s1) {
                s1 = s2;
                rot = 2;
            }
            if (s1 < state)
                state = s1;
            else
                rot = 0;
        }
        const bool end_of_batch = state > 1;
        uint32_t removed_count = 0;
        if (!end_of_batch) {
            add_triangle(&s, ids + rot);
            bool incache[3];
            for (unsigned i = 0; i < 3; ++i) {
                incache[i] = cached[f[i]];
                if (!incache[i]) {
                    cached[f[i]] = true;
                    cached_list[cached_count++] = f[i];
                }
            }
            o.batch_count[best] = 0;
            gc_triangle_heap_remove(&o.queue, best);
            dist_info* mine = o.dist[best];
            const uint32_t my_distance = mine ? mine->accumulated : 0;
            /* GB:321-397 */
            for (unsigned t = 0; t < 3; ++t) {
                const uint32_t vid = f[t];
                out[written++] = ids[rot + t];
                valence[vid]--;
                for (uint32_t j = adj_start[vid]; j < adj_start[vid + 1]; ++j) {
                    const uint32_t face = adj[j];
                    if (face == NONE)
                        continue;
                    if (face == best) {
                        adj[j] = NONE;
                        continue;
                    }
                    int32_t delta = -w->valence_w;
                    if (!incache[t]) {
                        delta += w->cache_w;
                        o.batch_count[face]++;
                    }
                    if (w->distance_w != 0) {
                        dist_info* d = o.dist[face];
                        if (d) {
                            if (!dmap_find(&d->from, best)) {
                                if (!direct_add(d, best) || !dmap_put(&d->from, best, 1))
                                    goto done;
                                d->accumulated += 1;
                                delta += w->distance_w;
                            }
                        } else {
                            d = dist_new(&o, face);
                            if (!d)
                                goto done;
                            if (mine) {
                                d->accumulated = my_distance + batch_indices / 3;
                                for (uint32_t h = 0; h < mine->from.capacity; ++h)
                                    if (mine->from.keys[h] && !dmap_put(&d->from, mine->from.keys[h] - 1,
                                                                        mine->from.values[h] + 1))
                                        goto done;
                            } else {
                                d->accumulated = 1;
                            }
                            if (!direct_add(d, best) || !dmap_put(&d->from, best, 1))
                                goto done;
                            delta += w->distance_w * (int32_t)d->accumulated;
                        }
                    }
                    gc_triangle_heap_rescore(&o.queue, face, delta);
                }
            }
            /* GB:399-430: distances through the placed triangle to the other entries */
            if (mine) {
                for (uint32_t a = 0; a < o.active_count; ++a) {
                    const uint32_t other = o.active[a];
                    dist_info* d = o.dist[other];
                    if (other == best || dmap_find(&d->from, best))
                        continue;
                    uint32_t mindist = NONE;
                    for (uint32_t k = 0; k < mine->direct_count; ++k) {
                        const uint32_t* dn = dmap_find(&d->from, mine->direct[k]);
                        if (dn && *dn + 1 < mindist)
                            mindist = *dn + 1;
                    }
                    if (mindist != NONE) {
                        gc_triangle_heap_rescore(&o.queue, other, w->distance_w * (int32_t)mindist);
                        if (!dmap_put(&d->from, best, mindist))
                            goto done;
                        d->accumulated += mindist;
                    }
                }
                dist_remove(&o, best);
            }
            batch_indices += 3;
            /* GB:444-451: the vertices the simulation no longer holds */
            uint32_t keep = 0;
            for (uint32_t i = 0; i < cached_count; ++i) {
                const uint32_t v = cached_list[i];
                if (in_cache(&s, v)) {
                    cached_list[keep++] = v;
                } else {
                    cached[v] = false;
                    removed[removed_count++] = v;
                }
            }
            cached_count = keep;
        } else {
            end_batch(&s, true); /* GB:436 */
            for (uint32_t i = 0; i < cached_count; ++i) {
                cached[cached_list[i]] = false;
                removed[removed_count++] = cached_list[i];
            }
            cached_count = 0;
        }
        /* GB:460-498 */
        for (uint32_t r = 0; r < removed_count; ++r) {
            const uint32_t vid = removed[r];
            for (uint32_t j = adj_start[vid]; j < adj_start[vid + 1]; ++j) {
                const uint32_t face = adj[j];
                if (face == NONE)
                    continue;
                int32_t delta = w->neighbor_w;
                if (o.batch_count[face] > 0) {
                    delta -= w->cache_w;
                    if (--o.batch_count[face] == 0 && o.dist[face]) {
                        delta -= w->distance_w * (int32_t)o.dist[face]->accumulated;
                        dist_remove(&o, face);
                    }
                }
                gc_triangle_heap_rescore(&o.queue, face, delta);
            }
        }
        if (end_of_batch) {
            /* GB:501-528 (their asserts say no entry is left; drop any) */
            while (o.active_count)
                dist_remove(&o, o.active[0]);
            batch_indices = 0;
            if (w->finpoint_w != 0)
                for (unsigned i = 0; i < 3; ++i)
                    if (valence[f[i]] != 0)
                        for (uint32_t j = adj_start[f[i]]; j < adj_start[f[i] + 1]; ++j)
                            if (adj[j] != NONE)
                                gc_triangle_heap_rescore(&o.queue, adj[j], w->finpoint_w);
        }
    }
    rc = 0;
done:
    if (o.dist)
        for (size_t t = 0; t < T; ++t)
            if (o.dist[t]) {
                dmap_free(&o.dist[t]->from);
                free(o.dist[t]->direct);
                free(o.dist[t]);
            }
    free(valence);
    free(adj_start);
    free(adj);
    free(cached);
    free(cached_list);
    free(removed);
    free(s.batch_of);
    free(s.last);
    free(o.queue.score);
    free(o.queue.heap);
    free(o.queue.where);
    free(o.dist);
    free(o.active);
    free(o.batch_count);
    return rc;
}
