// SPDX-License-Identifier: MIT
/* Batch greedy: Kerbl et al.'s gbatch (HPG 2018; GPUPeople/vertex_batch_optimization,
 * sceneprocessor/source/layers/GBatchOptimizer.cpp, "GB"), driven by the target's own state
 * machine (gc_sim) instead of a batch simulation of its own. One of auto's candidates for
 * the batch families (nv-dx, nv-gl, batch-all, ati).
 *
 * Every remaining triangle has a score: `cache` per vertex of it that the current batch
 * holds, `valence` per remaining triangle of its vertices, `distance` per triangle of its
 * accumulated distance through the batch's placed triangles (GB:55-58, 360-430). The best
 * is placed when the machine says it fits the batch (it shades no more than the batch holds
 * and does not end it, or for rules that cut inside a primitive, ends it only there:
 * canAddTriangle's -3..1, GB:253-289); otherwise the batch is taken as ended: every vertex
 * loses its cache score (GB:436-498) and the next best is tried. Vertices the machine no
 * longer holds (asked with a primitive of that vertex alone, priced with gc_sim_peek) lose
 * their score after each step (GB:443-451). Weights: SceneProcessor.cpp's "gbatch" (1024,
 * -4, -1: lines 123, 128) and "gbatch.amd" (valence -16: line 137).
 *
 * Differences from GB, all because the machine decides: the machine, not the optimizer,
 * ends batches (a triangle that would not fit is not placed; if the next best fits the old
 * batch, the machine keeps it there); triangles keep their corner order (a triangle order;
 * their rotation choice changed the corpus totals by 0.05%). Among equal scores the lowest
 * triangle number goes first.
 *
 * Cost: each step walks the placed triangle's vertices' triangles, the triangles with a
 * distance entry (those around the batch's vertices) and the batch's vertices (a peek each);
 * a new distance entry copies the placed triangle's (at most the batch's triangles). So it is
 * bounded only when vertices have few triangles and batches are small: it refuses (GC_ERR_LIMIT)
 * a vertex of more than BATCH_GREEDY_MAX_VALENCE triangles, or a target whose batch holds more
 * than BATCH_GREEDY_MAX_HELD vertices or BATCH_GREEDY_MAX_INDICES indices; auto then skips it.
 * Memory: a few words per triangle and vertex, plus the distance maps. */
#include "optimize.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_GREEDY_MAX_VALENCE 64
#define BATCH_GREEDY_MAX_HELD 256     /* vertices a batch (or ATI's LRU) holds */
#define BATCH_GREEDY_MAX_INDICES 2048 /* indices in a batch (ATI: between hard resets) */
#define STILL_HELD 4                  /* held vertices in a row that end a step's check */

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

/* Inserts key with value unless present (C++'s emplace); false when out of memory. */
static bool dmap_put(dmap* m, uint32_t key, uint32_t value)
{
    if (2 * (m->size + 1) > m->capacity) {
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
    }
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

/* GB:155-160's DistanceInformation. */
typedef struct dist_info {
    dmap from;
    uint32_t* direct;
    uint32_t direct_count, direct_capacity;
    uint32_t accumulated;
    uint32_t owner; /* its triangle */
} dist_info;

typedef struct greedy {
    gc_triangle_heap queue; /* triangles by (score, -number); where UINT32_MAX once placed */
    uint32_t* slot;    /* triangle -> 1 + its entry in pool, 0 = none */
    dist_info** pool;  /* the distance entries, densely */
    uint32_t active_count, pool_capacity;
    uint8_t* batch_count; /* cached vertices of each triangle (GB's activeBatchEntries), at most 3 */
} greedy;

static dist_info* dist_of(const greedy* g, uint32_t t)
{
    return g->slot[t] ? g->pool[g->slot[t] - 1] : NULL;
}

static dist_info* dist_new(greedy* g, uint32_t t)
{
    if (g->active_count == g->pool_capacity) {
        uint32_t cap = g->pool_capacity ? 2 * g->pool_capacity : 64;
        dist_info** grown = realloc(g->pool, cap * sizeof *grown);
        if (!grown)
            return NULL;
        g->pool = grown;
        g->pool_capacity = cap;
    }
    dist_info* d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->owner = t;
    g->pool[g->active_count++] = d;
    g->slot[t] = g->active_count;
    return d;
}

static void dist_free(dist_info* d)
{
    free(d->from.keys);
    free(d->from.values);
    free(d->direct);
    free(d);
}

static void dist_remove(greedy* g, uint32_t t)
{
    const uint32_t k = g->slot[t] - 1;
    dist_info* d = g->pool[k];
    dist_info* last = g->pool[--g->active_count];
    g->pool[k] = last;
    g->slot[last->owner] = k + 1;
    g->slot[t] = 0;
    dist_free(d);
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

/* Whether the machine takes triangle p into its current batch (GB's canAddTriangle < 2):
 * fed and rolled back, it must not end a batch, except by a cut inside the primitive
 * (cut_inside: the rule's batches are not bounded by primitives), and not reset. */
static gc_status fits(gc_sim* sim, const gc_sim_primitive* p, bool first, bool cut_inside, bool* out, gc_error* err)
{
    gc_stats before, after;
    gc_sim_stats(sim, &before);
    gc_sim_save(sim);
    gc_sim_feed(sim, p, NULL);
    gc_sim_stats(sim, &after);
    gc_status s = gc_sim_restore(sim, err);
    gc_sim_release(sim);
    *out = first || (after.resets == before.resets && (cut_inside || after.batches == before.batches));
    return s;
}

gc_status gc_opt_batch_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, const gc_batch_greedy_weights* w, uint64_t first_number,
                              uint64_t stream_length, uint32_t* order, gc_error* err)
{
    const size_t T = triangle_count, n = 3 * T;
    gc_family_traits traits;
    gc_model_traits(target, &traits);
    const bool cut_inside = traits.batch_cut_inside;
    const uint32_t held = traits.batch_held;
    const uint32_t batch = traits.batch_indices;
    if (!traits.kerbl_batches)
        return gc_fail(err, GC_ERR_USAGE, "batch greedy: '%s' is not a batch family", target->name);
    if (held > BATCH_GREEDY_MAX_HELD || batch > BATCH_GREEDY_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "batch greedy: batches of '%s' are too large", target->name);
    gc_status s = GC_OK;
    greedy g = {0};
    gc_sim* sim = NULL;
    uint32_t* valence = gc_alloc_array(vertex_count + 1, sizeof *valence, true);
    uint32_t* adj_start = gc_alloc_array(vertex_count + 2, sizeof *adj_start, true);
    uint32_t* adj = gc_alloc_array(n + 1, sizeof *adj, false);
    uint32_t* fill = gc_alloc_array(vertex_count + 1, sizeof *fill, true);
    bool* cached = gc_alloc_array(vertex_count + 1, sizeof *cached, true);
    uint32_t* cached_list = gc_alloc_array(vertex_count + 1, sizeof *cached_list, false);
    uint32_t* removed = gc_alloc_array(vertex_count + 1, sizeof *removed, false);
    g.queue.score = gc_alloc_array(T + 1, sizeof *g.queue.score, true);
    g.queue.heap = gc_alloc_array(T + 1, sizeof *g.queue.heap, false);
    g.queue.where = gc_alloc_array(T + 1, sizeof *g.queue.where, false);
    g.slot = gc_alloc_array(T + 1, sizeof *g.slot, true);
    g.batch_count = gc_alloc_array(T + 1, sizeof *g.batch_count, true);
    if (!valence || !adj_start || !adj || !fill || !cached || !cached_list || !removed || !g.queue.score ||
        !g.queue.heap || !g.queue.where || !g.slot || !g.batch_count) {
        s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for %zu triangles", T);
        goto done;
    }
    if ((s = gc_sim_create(target, vertex_count, NULL, &sim, err)))
        goto done;
    gc_sim_begin_run(sim, 3 * first_number, stream_length ? stream_length : n);
    /* GB:183-216 */
    for (size_t i = 0; i < n; ++i)
        valence[indices[i]]++;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        if (valence[v] > BATCH_GREEDY_MAX_VALENCE) {
            s = gc_fail(err, GC_ERR_LIMIT, "batch greedy: vertex %u has more than %d triangles", v,
                        BATCH_GREEDY_MAX_VALENCE);
            goto done;
        }
        adj_start[v + 1] = adj_start[v] + valence[v];
    }
    for (size_t i = 0; i < n; ++i)
        adj[adj_start[indices[i]] + fill[indices[i]]++] = (uint32_t)(i / 3);
    free(fill);
    fill = NULL;
    for (size_t t = 0; t < T; ++t) {
        const uint32_t* f = indices + 3 * t;
        g.queue.score[t] = w->valence * (int32_t)(valence[f[0]] + valence[f[1]] + valence[f[2]]);
        gc_triangle_heap_push(&g.queue, (uint32_t)t);
    }
    const uint32_t NONE = UINT32_MAX;
    uint32_t cached_count = 0, batch_indices = 0;
    size_t placed = 0;
    bool ended = false; /* the last step ended the batch: the next triangle goes in whatever the machine says */
    while (g.queue.size) {
        const uint32_t best = g.queue.heap[0];
        const uint32_t* f = indices + 3 * (size_t)best;
        const uint64_t number = first_number + placed;
        const gc_sim_primitive p = {{f[0], f[1], f[2]}, {3 * number, 3 * number + 1, 3 * number + 2}, 3, number, NULL, 0};
        bool ok;
        if ((s = fits(sim, &p, placed == 0 || ended, cut_inside, &ok, err)))
            goto done;
        uint32_t removed_count = 0;
        if (ok) {
            ended = false;
            gc_sim_feed(sim, &p, NULL);
            order[placed++] = best;
            /* cached_list stays in order of last reference, oldest first */
            bool incache[3];
            for (unsigned i = 0; i < 3; ++i) {
                incache[i] = cached[f[i]];
                if (incache[i]) {
                    uint32_t at = 0;
                    while (cached_list[at] != f[i])
                        ++at;
                    memmove(cached_list + at, cached_list + at + 1, (cached_count - at - 1) * sizeof *cached_list);
                    cached_list[cached_count - 1] = f[i];
                } else {
                    cached[f[i]] = true;
                    cached_list[cached_count++] = f[i];
                }
            }
            g.batch_count[best] = 0;
            gc_triangle_heap_remove(&g.queue, best);
            dist_info* mine = dist_of(&g, best);
            const uint32_t my_distance = mine ? mine->accumulated : 0;
            /* GB:321-397 */
            for (unsigned t = 0; t < 3; ++t) {
                const uint32_t vid = f[t];
                valence[vid]--;
                for (uint32_t j = adj_start[vid]; j < adj_start[vid + 1]; ++j) {
                    const uint32_t face = adj[j];
                    if (face == NONE)
                        continue;
                    if (face == best) {
                        adj[j] = NONE;
                        continue;
                    }
                    int32_t delta = -w->valence;
                    if (!incache[t]) {
                        delta += w->cache;
                        g.batch_count[face]++;
                    }
                    if (w->distance != 0) {
                        dist_info* d = dist_of(&g, face);
                        if (d) {
                            if (!dmap_find(&d->from, best)) {
                                if (!direct_add(d, best) || !dmap_put(&d->from, best, 1))
                                    goto nomem;
                                d->accumulated += 1;
                                delta += w->distance;
                            }
                        } else {
                            if (!(d = dist_new(&g, face)))
                                goto nomem;
                            if (mine) {
                                d->accumulated = my_distance + batch_indices / 3;
                                for (uint32_t h = 0; h < mine->from.capacity; ++h)
                                    if (mine->from.keys[h] &&
                                        !dmap_put(&d->from, mine->from.keys[h] - 1, mine->from.values[h] + 1))
                                        goto nomem;
                            } else {
                                d->accumulated = 1;
                            }
                            if (!direct_add(d, best) || !dmap_put(&d->from, best, 1))
                                goto nomem;
                            delta += w->distance * (int32_t)d->accumulated;
                        }
                    }
                    gc_triangle_heap_rescore(&g.queue, face, delta);
                }
            }
            /* GB:399-430 */
            if (mine) {
                for (uint32_t a = 0; a < g.active_count; ++a) {
                    dist_info* d = g.pool[a];
                    const uint32_t other = d->owner;
                    if (other == best || dmap_find(&d->from, best))
                        continue;
                    uint32_t mindist = NONE;
                    for (uint32_t k = 0; k < mine->direct_count; ++k) {
                        const uint32_t* dn = dmap_find(&d->from, mine->direct[k]);
                        if (dn && *dn + 1 < mindist)
                            mindist = *dn + 1;
                    }
                    if (mindist != NONE) {
                        gc_triangle_heap_rescore(&g.queue, other, w->distance * (int32_t)mindist);
                        if (!dmap_put(&d->from, best, mindist))
                            goto nomem;
                        d->accumulated += mindist;
                    }
                }
                dist_remove(&g, best);
            }
            batch_indices += 3;
            /* GB:444-451: the vertices the machine no longer holds (a lone-vertex primitive
               that costs an invocation). The rules drop old references first (an LRU, a
               batch, windows of 39 to 44 indices), so the check goes from the oldest and
               stops after STILL_HELD held ones in a row: a few peeks a step, not one per
               vertex held (GB asks about every vertex). */
            uint32_t keep = 0, held_in_row = 0, i = 0;
            const uint64_t next = first_number + placed;
            for (; i < cached_count && held_in_row < STILL_HELD; ++i) {
                const uint32_t v = cached_list[i];
                const gc_sim_primitive q = {{v, v, v}, {3 * next, 3 * next + 1, 3 * next + 2}, 3, next, NULL, 0};
                if (gc_sim_peek(sim, &q, NULL) == 0) {
                    cached_list[keep++] = v;
                    held_in_row++;
                } else {
                    cached[v] = false;
                    removed[removed_count++] = v;
                    held_in_row = 0;
                }
            }
            memmove(cached_list + keep, cached_list + i, (cached_count - i) * sizeof *cached_list);
            cached_count = keep + (cached_count - i);
        } else {
            ended = true; /* GB:436 */
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
                if (face == NONE || g.batch_count[face] == 0)
                    continue;
                int32_t delta = -w->cache;
                if (--g.batch_count[face] == 0 && g.slot[face]) {
                    delta -= w->distance * (int32_t)dist_of(&g, face)->accumulated;
                    dist_remove(&g, face);
                }
                gc_triangle_heap_rescore(&g.queue, face, delta);
            }
        }
        if (!ok) {
            while (g.active_count)
                dist_remove(&g, g.pool[0]->owner);
            batch_indices = 0;
        }
    }
    goto done;
nomem:
    s = gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for distances");
done:
    for (uint32_t a = 0; a < g.active_count; ++a)
        dist_free(g.pool[a]);
    gc_sim_destroy(sim);
    free(valence);
    free(adj_start);
    free(adj);
    free(fill);
    free(cached);
    free(cached_list);
    free(removed);
    free(g.queue.score);
    free(g.queue.heap);
    free(g.queue.where);
    free(g.slot);
    free(g.pool);
    free(g.batch_count);
    return s;
}
