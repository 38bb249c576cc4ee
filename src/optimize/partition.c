// SPDX-License-Identifier: MIT
/* A triangle list cut into parts, each grown breadth-first over the triangles that share a
 * vertex (partition.h). Why so: one walk over the whole list, cut into runs, gives rings
 * round its first triangle, thin where the surface is wide (on ogre, 7 parts, nv-dx's batch
 * greedy made part by part cost 5.6% more invocations on such rings); a ball grown from one
 * seed to the part's size keeps the seam short, and a cut at the end of a connected component
 * leaves none (ogre has 44 components). */
#include "partition.h"

#include <stdlib.h>
#include <string.h>

void gc_partition_free(gc_partition* p)
{
    free(p->walk);
    free(p->start);
    memset(p, 0, sizeof *p);
}

/* The cut at or before `nominal`, after `previous`, where offset + the triangles before it is
 * a multiple of align (SIZE_MAX: none). */
static size_t aligned_cut(size_t nominal, size_t previous, uint64_t offset, uint32_t align)
{
    if (align <= 1)
        return nominal > previous ? nominal : SIZE_MAX;
    const size_t b = nominal - (size_t)((offset + nominal) % align);
    return b > previous && b <= nominal ? b : SIZE_MAX;
}

static uint32_t root_of(uint32_t* parent, uint32_t v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

/* Joins the sets of roots a and b, the smaller under the larger (size[r]: r's set less one). */
static uint32_t join(uint32_t* parent, uint32_t* size, uint32_t a, uint32_t b)
{
    if (a == b)
        return a;
    if (size[a] < size[b]) {
        const uint32_t x = a;
        a = b, b = x;
    }
    parent[b] = a, size[a] += size[b] + 1;
    return a;
}

/* The cut for nominal cut c: the end of a component within a quarter of a part of it (the
 * nearest; the first by position among equals), else c, then aligned (SIZE_MAX: none). */
static size_t choose_cut(size_t c, size_t previous, const uint32_t* comp_start, size_t comps, size_t part,
                         uint64_t offset, uint32_t align)
{
    size_t lo = 1, hi = comps; /* the first component end at or after c, among comp_start[1 .. comps - 1] */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (comp_start[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t best = c, best_d = part / 4 + 1;
    for (size_t j = lo > 1 ? lo - 1 : 1; j <= lo && j < comps; ++j) {
        const size_t b = comp_start[j], d = b > c ? b - c : c - b;
        if (d < best_d)
            best = b, best_d = d;
    }
    return aligned_cut(best, previous, offset, align);
}

gc_status gc_partition_make(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, size_t parts,
                            uint64_t offset, uint32_t align, gc_partition* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    const size_t T = triangle_count;
    if (parts < 1)
        parts = 1;
    if (parts > T)
        parts = T ? T : 1;
    if (parts > GC_PARTITION_MAX)
        parts = GC_PARTITION_MAX;
    gc_adjacency adj = {NULL, NULL}; /* built for the first walk (none where whole components fit) */
    out->walk = gc_alloc_array(T ? T : 1, sizeof *out->walk, false);
    out->start = gc_alloc_array(parts + 1, sizeof *out->start, false);
    /* per triangle: its component, then the queue (the component dead once by_comp is
       made), the triangles by component; per vertex (freed before the adjacency): the
       union-find parent, a root's component + 1; per component: start, next seed to try;
       and in bytes (the walk's random reads), per triangle its state and part, per vertex
       the part that expanded it */
    const size_t V = (size_t)vertex_count + 1;
    uint32_t* comp_of = gc_alloc_array(2 * (T ? T : 1), sizeof *comp_of, false);
    uint32_t* parent = gc_alloc_array(2 * V, sizeof *parent, true);
    uint8_t* state = gc_alloc_array(2 * T + V, 1, true);
    uint32_t* comp_start = NULL;
    if (!out->walk || !out->start || !comp_of || !parent || !state) {
        free(comp_of);
        free(parent);
        free(state);
        gc_partition_free(out);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the parts of %zu triangles", T);
    }
    uint32_t* queue = comp_of;
    uint32_t* by_comp = comp_of + T;
    uint32_t* root_comp = parent + V;
    uint8_t* part_of = state + T;
    uint8_t* expanded = part_of + T;
    /* The connected components (triangles sharing a vertex), numbered by their first triangle. */
    for (uint32_t v = 0; v < vertex_count; ++v)
        parent[v] = v;
    for (size_t t = 0; t < T; ++t) {
        const uint32_t* tv = indices + 3 * t;
        const uint32_t a = join(parent, root_comp, root_of(parent, tv[0]), root_of(parent, tv[1]));
        join(parent, root_comp, a, root_of(parent, tv[2]));
    }
    memset(root_comp, 0, V * sizeof *root_comp); /* (the sizes, done with) */
    size_t comps = 0;
    for (size_t t = 0; t < T; ++t) {
        const uint32_t r = root_of(parent, indices[3 * t]);
        if (!root_comp[r])
            root_comp[r] = (uint32_t)++comps;
        comp_of[t] = root_comp[r] - 1;
    }
    free(parent);
    comp_start = gc_alloc_array(2 * (comps + 1), sizeof *comp_start, true);
    if (!comp_start) {
        free(comp_of);
        free(state);
        gc_partition_free(out);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the parts of %zu triangles", T);
    }
    uint32_t* comp_next = comp_start + comps + 1;
    for (size_t t = 0; t < T; ++t)
        comp_start[comp_of[t] + 1]++;
    for (size_t c = 0; c < comps; ++c)
        comp_start[c + 1] += comp_start[c];
    memcpy(comp_next, comp_start, comps * sizeof *comp_next);
    for (size_t t = 0; t < T; ++t)
        by_comp[comp_next[comp_of[t]]++] = (uint32_t)t;
    memcpy(comp_next, comp_start, comps * sizeof *comp_next);
    /* the cuts (from the sizes and the components alone), each part then grown to its size */
    size_t count = 0;
    out->start[0] = 0;
    for (size_t p = 1; p < parts; ++p) {
        const size_t b = choose_cut((size_t)((uint64_t)p * T / parts), out->start[count], comp_start, comps,
                                    T / parts, offset, align);
        if (b != SIZE_MAX && b < T)
            out->start[++count] = b;
    }
    out->start[++count] = T;
    out->count = count;
    /* Part p: the components in order, each taken whole where what is left of it fits the
     * part (no walk), else a breadth-first walk over its triangles in no part yet, each taken
     * as it leaves the queue, until the part has its size. The walk's seed: the oldest
     * triangle left in the previous part's queue, else the lowest-numbered triangle of the
     * component not taken. A cut at a component's end leaves no seam. state[t]: TAKEN, else
     * the part that queued it + 1 (0: none); expanded[v] likewise (a vertex's triangles are
     * queued once a part); part_of[t]: t's part, once taken. `left`: the triangles of
     * component `comp` not taken. */
    const uint8_t TAKEN = UINT8_MAX;
    size_t comp = 0, carry = SIZE_MAX, left = comps ? comp_start[1] : 0;
    for (size_t p = 0; p + 1 < count; ++p) { /* (the last part: what is left, not walked) */
        const uint8_t mark = (uint8_t)(p + 1);
        size_t need = out->start[p + 1] - out->start[p], head = 0, tail = 0;
        while (need) {
            if (head == tail) { /* a seed, or a whole component */
                size_t seed = carry;
                carry = SIZE_MAX;
                if (seed == SIZE_MAX || state[seed] == TAKEN) {
                    while (!left)
                        ++comp, left = comp_start[comp + 1] - comp_start[comp];
                    if (left <= need) {
                        for (size_t i = comp_next[comp]; i < comp_start[comp + 1]; ++i)
                            if (state[by_comp[i]] != TAKEN)
                                state[by_comp[i]] = TAKEN, part_of[by_comp[i]] = (uint8_t)p;
                        comp_next[comp] = comp_start[comp + 1];
                        need -= left, left = 0;
                        continue;
                    }
                    while (state[by_comp[comp_next[comp]]] == TAKEN)
                        ++comp_next[comp];
                    seed = by_comp[comp_next[comp]];
                }
                if (!adj.offsets && gc_adjacency_build(indices, T, vertex_count, &adj, err)) {
                    free(comp_start);
                    free(comp_of);
                    free(state);
                    gc_partition_free(out);
                    return GC_ERR_NOMEM;
                }
                state[seed] = mark, queue[tail++] = (uint32_t)seed;
            }
            const uint32_t t = queue[head++];
            if (state[t] == TAKEN)
                continue;
            state[t] = TAKEN, part_of[t] = (uint8_t)p, --need, --left;
            for (int c = 0; c < 3; ++c) {
                const uint32_t v = indices[3 * (size_t)t + c];
                if (expanded[v] == mark)
                    continue;
                expanded[v] = mark;
                for (uint32_t k = adj.offsets[v]; k < adj.offsets[v + 1]; ++k) {
                    const uint32_t u = adj.triangles[k];
                    if (state[u] != TAKEN && state[u] != mark)
                        state[u] = mark, queue[tail++] = u;
                }
            }
        }
        while (head < tail && state[queue[head]] == TAKEN)
            ++head;
        carry = head < tail ? queue[head] : SIZE_MAX;
    }
    gc_adjacency_free(&adj);
    /* each part's triangles in increasing number (the greedies meet them as the list has them) */
    size_t* fill = gc_alloc_array(count, sizeof *fill, false);
    free(comp_start);
    if (!fill) {
        free(comp_of);
        free(state);
        gc_partition_free(out);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the parts of %zu triangles", T);
    }
    memcpy(fill, out->start, count * sizeof *fill);
    for (size_t t = 0; t < T; ++t)
        out->walk[fill[state[t] == TAKEN ? part_of[t] : count - 1]++] = (uint32_t)t;
    free(fill);
    free(comp_of);
    free(state);
    return GC_OK;
}
