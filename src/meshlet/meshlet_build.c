// SPDX-License-Identifier: MIT
/* Meshlets (issue 31, docs/models/meshlets.md): a triangle list ordered by auto for the
 * batch-all rule with indices = 3T, vertices = V, then cut by scanning it — a meshlet is
 * closed when the next triangle would bring a (V+1)th vertex or a (T+1)th triangle — and
 * optionally reordered inside each meshlet for locality. */
#include "../internal.h"
#include "meshlet_internal.h"

#include <stdlib.h>
#include <string.h>

static void optimize_range(gc_meshlets* m, size_t from, size_t to);

static gc_status check_limits(uint32_t v, uint32_t t, gc_error* err)
{
    if (v < 3 || v > GC_MESHLET_MAX_VERTICES)
        return gc_fail(err, GC_ERR_USAGE, "meshlets: max vertices %u is out of range [3, %u]", v,
                       GC_MESHLET_MAX_VERTICES);
    if (t < 1 || t > GC_MESHLET_MAX_TRIANGLES)
        return gc_fail(err, GC_ERR_USAGE, "meshlets: max triangles %u is out of range [1, %u]", t,
                       GC_MESHLET_MAX_TRIANGLES);
    return GC_OK;
}

/* Grows *p to hold `need` elements of `size` bytes (capacity doubled). */
static bool grow(void** p, size_t* capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return true;
    size_t c = *capacity ? *capacity : 64;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / size)
        return false;
    void* q = realloc(*p, c * size);
    if (!q)
        return false;
    *p = q;
    *capacity = c;
    return true;
}

/* Cuts `order` (already validated) by scanning and appends the meshlets to *out. `slot`
 * (vertex_count entries, zeroed by the caller): the meshlet number + 1 that last took the
 * vertex; `local`: its local index there. */
static gc_status scan(const uint32_t* order, size_t index_count, uint32_t v_max, uint32_t t_max, uint32_t* slot,
                      uint8_t* local, gc_meshlets* out, gc_error* err)
{
    size_t cap_m = out->meshlet_count, cap_v = out->vertex_count, cap_t = out->triangle_count;
    /* room for the worst case is not known; grow as we go (the arrays were sized exactly) */
    gc_meshlet* ml = out->meshlets;
    uint32_t* verts = out->vertices;
    uint8_t* tris = out->triangles;
    size_t mc = out->meshlet_count, vc = out->vertex_count, tc = out->triangle_count;
    const size_t triangles = index_count / 3;
    uint32_t stamp = 0; /* the open meshlet's number + 1, 0: none open */
    uint32_t fill = 0, count = 0;
    gc_status s = GC_OK;
    for (size_t t = 0; t < triangles; ++t) {
        const uint32_t* c = order + 3 * t;
        unsigned misses = 0;
        if (stamp) {
            for (unsigned j = 0; j < 3; ++j) {
                bool seen = slot[c[j]] == stamp;
                for (unsigned k = 0; k < j; ++k)
                    seen |= c[k] == c[j];
                misses += !seen;
            }
        }
        if (!stamp || count == t_max || fill + misses > v_max) {
            if (mc >= UINT32_MAX - 1 || vc > UINT32_MAX - GC_MESHLET_MAX_VERTICES ||
                tc > (UINT32_MAX - 3 * GC_MESHLET_MAX_TRIANGLES) / 3) {
                s = gc_fail(err, GC_ERR_LIMIT, "meshlets: more than 2^32 meshlet vertices or triangle bytes");
                break;
            }
            if (!grow((void**)&ml, &cap_m, mc + 1, sizeof *ml)) {
                s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %zu meshlets", mc + 1);
                break;
            }
            ml[mc].vertex_offset = (uint32_t)vc;
            ml[mc].triangle_offset = (uint32_t)(3 * tc);
            ml[mc].vertex_count = ml[mc].triangle_count = 0;
            ++mc;
            /* numbers wrap only after 2^32 - 1 meshlets, refused above */
            stamp = (uint32_t)mc;
            fill = count = 0;
        }
        if (!grow((void**)&verts, &cap_v, vc + 3, sizeof *verts) || !grow((void**)&tris, &cap_t, 3 * (tc + 1), 1)) {
            s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %zu triangles", tc + 1);
            break;
        }
        for (unsigned j = 0; j < 3; ++j) {
            uint32_t v = c[j];
            if (slot[v] != stamp) {
                slot[v] = stamp;
                local[v] = (uint8_t)fill; /* fill < 256: local indices fit a byte */
                verts[vc++] = v;
                fill++;
            }
            tris[3 * tc + j] = local[v];
        }
        tc++;
        count++;
        ml[mc - 1].vertex_count = fill;
        ml[mc - 1].triangle_count = count;
    }
    /* keep what was grown (the caller frees it on failure through *out's old pointers) */
    out->meshlets = ml;
    out->vertices = verts;
    out->triangles = tris;
    if (s == GC_OK) {
        out->meshlet_count = mc;
        out->vertex_count = vc;
        out->triangle_count = tc;
    }
    (void)cap_t;
    return s;
}

/* The meshlet vertices and meshlets of scanning the triangles `tri` (ids into indices, or
 * NULL: indices in their order) into cost[0] and cost[1]; `slot` (a vertex each) is scratch. */
static void scan_cost(const uint32_t* indices, const uint32_t* tri, size_t triangles, uint32_t vertex_count,
                      uint32_t v_max, uint32_t t_max, uint32_t* slot, uint64_t* cost)
{
    memset(slot, 0, (vertex_count ? vertex_count : 1) * sizeof *slot);
    uint32_t stamp = 0, fill = 0, count = 0;
    uint64_t meshlets = 0, vertices = 0;
    for (size_t t = 0; t < triangles; ++t) {
        const uint32_t* c = indices + 3 * (size_t)(tri ? tri[t] : t);
        unsigned misses = 0;
        for (unsigned j = 0; j < 3; ++j)
            misses += slot[c[j]] != stamp && (j < 1 || c[j] != c[0]) && (j < 2 || c[j] != c[1]);
        if (!stamp || count == t_max || fill + misses > v_max) {
            stamp++, meshlets++;
            fill = count = 0;
            misses = 1 + (c[1] != c[0]) + (c[2] != c[0] && c[2] != c[1]);
        }
        for (unsigned j = 0; j < 3; ++j)
            slot[c[j]] = stamp;
        fill += misses, vertices += misses, count++;
    }
    cost[0] = vertices, cost[1] = meshlets;
}

static bool cheaper(const uint64_t* a, const uint64_t* b)
{
    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* The grower's styles (rest_cap, balance, corner, early: meshlet_internal.h), each kept
 * where its scan is the cheapest. Chosen on the corpus (28 rows a limit pair,
 * docs/optimizers/meshlets.md) among 25 styles: the best single one was 1.9% and 2.1% below
 * meshopt_buildMeshlets 1.2, these six together 2.3% and 2.4%, and no worse on any row. */
static const gc_meshlet_grow_style styles[] = {{0, 1, 1, 1}, {0, 1, 0, 1}, {6, 0, 1, 1},
                                               {3, 0, 0, 0}, {7, 0, 0, 2}, {10, 0, 0, 1}};

/* The order to scan (a new triangle list in *out): the grower's (meshlet_grow.c) in each
 * style; with effort 2 or more also auto's for the batch-all rule; the one whose scan has
 * the fewest meshlet vertices (then meshlets) is kept. */
static gc_status grown_order(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                             const gc_meshlet_options* options, uint32_t** out, gc_error* err)
{
    const size_t triangles = index_count / 3;
    const uint32_t v_max = options->max_vertices, t_max = options->max_triangles;
    uint32_t* list = gc_alloc_array(index_count, sizeof *list, false);
    uint32_t* tri = gc_alloc_array(triangles, sizeof *tri, false);
    uint32_t* best = gc_alloc_array(triangles, sizeof *best, false);
    uint32_t* slot = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *slot, false);
    gc_status s = GC_OK;
    if (!list || !tri || !best || !slot) {
        s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %zu indices", index_count);
        goto done;
    }
    uint64_t best_cost[2] = {UINT64_MAX, UINT64_MAX}, cost[2];
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; ++k) {
        if ((s = gc_meshlet_grow(indices, triangles, vertex_count, v_max, t_max, &styles[k], tri, err)) != GC_OK)
            goto done;
        scan_cost(indices, tri, triangles, vertex_count, v_max, t_max, slot, cost);
        if (cheaper(cost, best_cost)) {
            uint32_t* swap = best;
            best = tri;
            tri = swap;
            memcpy(best_cost, cost, sizeof cost);
        }
    }
    for (size_t t = 0; t < triangles; ++t)
        memcpy(list + 3 * t, indices + 3 * (size_t)best[t], 3 * sizeof *list);
    if (options->effort >= 2) {
        /* auto's order, in `tri` and `best` (now free) as a triangle list */
        free(tri);
        free(best);
        best = NULL;
        tri = gc_alloc_array(index_count, sizeof *tri, false);
        if (!tri) {
            s = gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %zu indices", index_count);
            goto done;
        }
        gc_model target = {0};
        char spec[96];
        snprintf(spec, sizeof spec, "batch-all:indices=%u,vertices=%u", 3 * t_max, v_max);
        if ((s = gc_model_parse(spec, &target, err)) != GC_OK)
            goto done;
        gc_optimize_options o = {0};
        o.targets = &target;
        o.target_count = 1;
        o.seed = options->seed;
        o.effort = options->effort - 1;
        o.progress = options->progress;
        o.progress_user = options->progress_user;
        if ((s = gc_optimize(GC_OPT_AUTO, indices, index_count, vertex_count, &o, tri, err)) != GC_OK)
            goto done;
        scan_cost(tri, NULL, triangles, vertex_count, v_max, t_max, slot, cost);
        if (cheaper(cost, best_cost)) {
            uint32_t* swap = list;
            list = tri;
            tri = swap;
        }
    }
done:
    free(tri);
    free(best);
    free(slot);
    if (s) {
        free(list);
        list = NULL;
    }
    *out = list;
    return s;
}

gc_status gc_meshlets_build(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                            const gc_meshlet_options* options, gc_meshlets* out, gc_error* err)
{
    if (!options || !out || (!indices && index_count))
        return gc_fail(err, GC_ERR_USAGE, "meshlets: no options, output or indices");
    gc_status s = check_limits(options->max_vertices, options->max_triangles, err);
    if (s)
        return s;
    if (out->meshlet_count &&
        (out->max_vertices != options->max_vertices || out->max_triangles != options->max_triangles))
        return gc_fail(err, GC_ERR_USAGE, "meshlets: appending %u/%u meshlets to a set built with %u/%u",
                       options->max_vertices, options->max_triangles, out->max_vertices, out->max_triangles);
    if (index_count % 3)
        return gc_fail(err, GC_ERR_USAGE, "meshlets: %zu indices is not whole triangles", index_count);
    if (index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "meshlets: %zu indices is more than %zu", index_count, GC_MAX_INDICES);
    if ((uint64_t)vertex_count > 2 * (uint64_t)index_count + 65536)
        return gc_fail(err, GC_ERR_LIMIT,
                       "meshlets: %u vertices for %zu indices (at most 2 x indices + 65536: renumber sparse values)",
                       vertex_count, index_count);
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "meshlets: index %zu is %u, not below the vertex count %u", i,
                           indices[i], vertex_count);
    const uint32_t* order = indices;
    uint32_t* reordered = NULL;
    if (!options->keep_order && index_count) {
        if ((s = grown_order(indices, index_count, vertex_count, options, &reordered, err)) != GC_OK)
            return s;
        order = reordered;
    }
    uint32_t* slot = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *slot, true);
    uint8_t* local = gc_alloc_array(vertex_count ? vertex_count : 1, 1, false);
    if (!slot || !local) {
        free(slot);
        free(local);
        free(reordered);
        return gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for %u vertices", vertex_count);
    }
    const size_t first = out->meshlet_count;
    gc_meshlets work = *out;
    s = scan(order, index_count, options->max_vertices, options->max_triangles, slot, local, &work, err);
    free(slot);
    free(local);
    free(reordered);
    /* the arrays may have moved even on failure; the counts change only on success */
    out->meshlets = work.meshlets;
    out->vertices = work.vertices;
    out->triangles = work.triangles;
    if (s)
        return s;
    if (out->bounds) { /* bounds no longer cover every meshlet */
        free(out->bounds);
        out->bounds = NULL;
    }
    out->meshlet_count = work.meshlet_count;
    out->vertex_count = work.vertex_count;
    out->triangle_count = work.triangle_count;
    out->max_vertices = options->max_vertices;
    out->max_triangles = options->max_triangles;
    if (options->local_order)
        optimize_range(out, first, out->meshlet_count);
    return GC_OK;
}

gc_status gc_meshlets_expand(const gc_meshlets* m, uint32_t* out, size_t capacity, size_t* written, gc_error* err)
{
    size_t n = 0;
    for (size_t i = 0; i < m->meshlet_count; ++i) {
        const gc_meshlet* ml = &m->meshlets[i];
        if (capacity - n < 3 * (size_t)ml->triangle_count || n > capacity)
            return gc_fail(err, GC_ERR_LIMIT, "meshlets: %zu indices do not hold meshlet %zu's triangles", capacity, i);
        const uint8_t* t = m->triangles + ml->triangle_offset;
        const uint32_t* v = m->vertices + ml->vertex_offset;
        for (size_t k = 0; k < 3 * (size_t)ml->triangle_count; ++k)
            out[n++] = v[t[k]];
    }
    *written = n;
    return GC_OK;
}

/* ------------------------------------------------------------- local order */

/* One meshlet: triangles chained greedily (the next one shares the most vertices with the
 * triangles just emitted, measured by how recently each of its vertices was last used),
 * then vertices renumbered by first use. `tris` are the meshlet's local triangles. */
static void optimize_one(uint8_t* tris, uint32_t* verts, uint32_t vcount, uint32_t tcount)
{
    uint8_t original[3 * GC_MESHLET_MAX_TRIANGLES];
    uint8_t done[GC_MESHLET_MAX_TRIANGLES];
    uint32_t last_use[GC_MESHLET_MAX_VERTICES]; /* step + 1 of the vertex's last use, 0: never */
    uint16_t order[GC_MESHLET_MAX_TRIANGLES];
    memcpy(original, tris, 3 * (size_t)tcount);
    memset(done, 0, tcount);
    memset(last_use, 0, sizeof last_use);
    /* vertex -> its triangles, in a compact adjacency (at most 3 T entries) */
    uint16_t first[GC_MESHLET_MAX_VERTICES + 1];
    uint16_t adjacency[3 * GC_MESHLET_MAX_TRIANGLES];
    uint16_t fillc[GC_MESHLET_MAX_VERTICES];
    memset(first, 0, sizeof first);
    for (uint32_t t = 0; t < tcount; ++t)
        for (unsigned j = 0; j < 3; ++j)
            first[original[3 * t + j] + 1]++;
    for (uint32_t v = 0; v < vcount; ++v)
        first[v + 1] = (uint16_t)(first[v + 1] + first[v]);
    memcpy(fillc, first, sizeof fillc);
    for (uint32_t t = 0; t < tcount; ++t)
        for (unsigned j = 0; j < 3; ++j)
            adjacency[fillc[original[3 * t + j]]++] = (uint16_t)t;
    uint32_t next_seed = 0;
    int32_t current = 0;
    for (uint32_t step = 0; step < tcount; ++step) {
        if (step > 0) {
            /* candidates: the unemitted triangles around the last triangle's vertices */
            const uint8_t* prev = original + 3 * (size_t)order[step - 1];
            int32_t best = -1;
            uint32_t best_score = 0;
            for (unsigned j = 0; j < 3; ++j)
                for (uint32_t a = first[prev[j]]; a < first[prev[j] + 1]; ++a) {
                    uint32_t t = adjacency[a];
                    if (done[t])
                        continue;
                    uint32_t score = 0;
                    for (unsigned k = 0; k < 3; ++k) /* recently used vertices weigh most */
                        score += last_use[original[3 * t + k]] ? 2 * GC_MESHLET_MAX_TRIANGLES -
                                                                     (step - last_use[original[3 * t + k]])
                                                               : 0;
                    if (best < 0 || score > best_score || (score == best_score && t < (uint32_t)best)) {
                        best = (int32_t)t;
                        best_score = score;
                    }
                }
            if (best < 0) { /* nothing adjacent left: the first triangle not yet emitted */
                while (done[next_seed])
                    next_seed++;
                best = (int32_t)next_seed;
            }
            current = best;
        }
        done[current] = 1;
        order[step] = (uint16_t)current;
        for (unsigned k = 0; k < 3; ++k)
            last_use[original[3 * current + k]] = step + 1;
    }
    /* vertices renumbered by first use in the new triangle order */
    uint32_t remap[GC_MESHLET_MAX_VERTICES], old_verts[GC_MESHLET_MAX_VERTICES];
    for (uint32_t v = 0; v < vcount; ++v)
        remap[v] = UINT32_MAX;
    memcpy(old_verts, verts, vcount * sizeof *verts);
    uint32_t next = 0;
    for (uint32_t step = 0; step < tcount; ++step)
        for (unsigned j = 0; j < 3; ++j) {
            uint8_t v = original[3 * (size_t)order[step] + j];
            if (remap[v] == UINT32_MAX) {
                remap[v] = next;
                verts[next++] = old_verts[v];
            }
            tris[3 * step + j] = (uint8_t)remap[v];
        }
    /* vertices no triangle uses (none in meshlets built here) keep their place after */
    for (uint32_t v = 0; v < vcount; ++v)
        if (remap[v] == UINT32_MAX)
            verts[next++] = old_verts[v];
}

static void optimize_range(gc_meshlets* m, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i) {
        const gc_meshlet* ml = &m->meshlets[i];
        optimize_one(m->triangles + ml->triangle_offset, m->vertices + ml->vertex_offset, ml->vertex_count,
                     ml->triangle_count);
    }
}

gc_status gc_meshlets_optimize_local(gc_meshlets* m, gc_error* err)
{
    gc_status s = gc_meshlets_check(m, 0, "meshlets", err);
    if (s)
        return s;
    optimize_range(m, 0, m->meshlet_count);
    return GC_OK;
}
