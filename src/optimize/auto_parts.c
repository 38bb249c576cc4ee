// SPDX-License-Identifier: MIT
/* auto's default for a large list, part by part (issue 33 item 3: the parts of a segmented
 * rule scored in parallel). For a lone llvmpipe target the default is one greedy (the table
 * greedy, gc_opt_llvmpipe_greedy_fed) and its polish: one sequential job, which a second
 * thread could not shorten. From GC_AUTO_PARTS_FROM triangles the list is cut into parts
 * (partition.c: spatially coherent, their number from the triangle count alone, the cuts at
 * llvmpipe's segments), and each part's greedy is a job of its own
 * (gc_parallel_run), and the parts' orders follow one another. The greedy's polish
 * (gc_llvmpipe_polish_fed, the whole list's second order) is left out: on ogre and igea, stored
 * and shuffled, the parts' polished orders were 3.3% to 3.7% above their greedies' (the whole
 * list's likewise), and they never won a part.
 *
 * llvmpipe clears its table at every segment (src/models/llvmpipe_rule.h), and each part but
 * the last holds a whole number of segments, so each part starts a segment of its own with
 * the table empty: the list's count is the parts' counts summed, each counted by its maker on
 * the part drawn alone. The table is keyed by the index value, so the parts keep the list's
 * vertex numbers. Nothing depends on the thread count: the output is the same for every N. */
#include "auto_parts.h"

#include "partition.h"

#include <stdlib.h>
#include <string.h>

size_t gc_auto_parts_count(size_t triangle_count)
{
    if (triangle_count < GC_AUTO_PARTS_FROM)
        return 1;
    const size_t k = 2 * (triangle_count / GC_AUTO_PARTS_EACH);
    return k < 2 ? 2 : k > GC_AUTO_PARTS_MAX ? GC_AUTO_PARTS_MAX : k;
}

bool gc_auto_parts_fit(const gc_table_pipe* pipe, const gc_model* targets, const uint32_t* limits,
                       size_t machine_at, size_t triangle_count)
{
    return pipe->count && targets[0].family == GC_MODEL_LLVMPIPE && limits && limits[3] && limits[0] &&
           limits[1] == limits[0] && machine_at == SIZE_MAX && triangle_count >= GC_AUTO_PARTS_FROM;
}

typedef struct llvmpipe_parts {
    const uint32_t* indices;
    uint32_t vertex_count;
    const gc_model* target;
    float beta;
    uint32_t recent;
    const gc_partition* parts;
    uint32_t* lists;  /* 3 per triangle (the caller's scratch): each part's triangles from 3 * start[p] */
    uint32_t* orders; /* the greedy's (in the output order), part p's from start[p] */
    uint64_t* costs;  /* each part's */
    uint32_t* verts;  /* each part's vertex count, its list's numbers (parts_lists) */
    gc_occlusion_ahead* occlusion;
    const float* positions;
    size_t position_stride;
} llvmpipe_parts;

/* Job p: part p's greedy, counted as fed; past the parts, the overdraw pass's occlusion pairs
 * (its status is the pass's to report). */
static gc_status llvmpipe_part_job(void* user, size_t p, unsigned worker, uint64_t* units, gc_error* err)
{
    llvmpipe_parts* J = user;
    (void)worker;
    *units = 1;
    const size_t T = J->parts->start[J->parts->count];
    if (p >= J->parts->count) {
        gc_occlusion_ahead_run(J->occlusion, J->indices, T, J->vertex_count, J->positions, J->position_stride);
        return GC_OK;
    }
    const size_t from = J->parts->start[p], n = J->parts->start[p + 1] - from;
    return gc_opt_llvmpipe_greedy_fed(J->lists + 3 * from, n, J->verts[p], J->target, 0, false, true, J->beta,
                                      J->recent, J->orders + from, &J->costs[p], NULL, err);
}

/* Each part's list, from 3 * start[p] in J->lists, its vertices numbered afresh where that
 * makes fewer numbers: vertex v gets v mod map + map * k, the k-th of its residue in the part
 * (the first corners first). The greedy reads a number only through the table's slot (the
 * number mod map, the same) and equality (a bijection keeps it), so its order is the same,
 * but its per-vertex arrays (16 bytes a vertex, the parts' side by side on the threads) span
 * the part's vertices, not the list's. `id`: vertex_count entries, all UINT32_MAX (left so). */
static void parts_lists(llvmpipe_parts* J, uint32_t map, uint32_t* id, uint32_t* rank)
{
    const gc_partition* P = J->parts;
    for (size_t p = 0; p < P->count; ++p) {
        const size_t from = P->start[p], n = P->start[p + 1] - from;
        uint32_t* list = J->lists + 3 * from;
        uint64_t most = 0; /* the largest residue's count */
        memset(rank, 0, map * sizeof *rank);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t* tv = J->indices + 3 * (size_t)P->walk[from + i];
            for (int c = 0; c < 3; ++c) {
                const uint32_t v = tv[c], r = v % map;
                if (id[v] == UINT32_MAX) {
                    most = ++rank[r] > most ? rank[r] : most;
                    id[v] = (uint32_t)((uint64_t)r + (uint64_t)map * (rank[r] - 1) < UINT32_MAX
                                           ? r + map * (rank[r] - 1)
                                           : v); /* (no fewer numbers: undone below) */
                }
                list[3 * i + c] = id[v];
            }
        }
        J->verts[p] = J->vertex_count;
        if ((uint64_t)map * most < J->vertex_count)
            J->verts[p] = (uint32_t)(map * most);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t* tv = J->indices + 3 * (size_t)P->walk[from + i];
            for (int c = 0; c < 3; ++c) {
                if (J->verts[p] == J->vertex_count) /* the list's own numbers */
                    list[3 * i + c] = tv[c];
                id[tv[c]] = UINT32_MAX;
            }
        }
    }
}

gc_status gc_auto_llvmpipe_parts(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, const float greedy[3], const uint32_t* limits,
                                 const gc_optimize_options* options, gc_occlusion_ahead* occlusion, uint32_t* scratch,
                                 uint32_t* order, uint64_t* cost, gc_error* err)
{
    gc_partition parts;
    gc_status s = gc_partition_make(indices, triangle_count, vertex_count, gc_auto_parts_count(triangle_count), 0,
                                    limits[0], &parts, err);
    if (s)
        return s;
    llvmpipe_parts J;
    memset(&J, 0, sizeof J);
    J.indices = indices, J.vertex_count = vertex_count, J.target = target;
    J.beta = greedy[0], J.recent = (uint32_t)greedy[2];
    J.parts = &parts;
    J.lists = scratch, J.orders = order; /* (each part's order mapped to triangles in place below) */
    J.costs = gc_alloc_array(parts.count, sizeof *J.costs, false);
    J.verts = gc_alloc_array(parts.count, sizeof *J.verts, false);
    J.occlusion = occlusion, J.positions = options->positions, J.position_stride = options->position_stride;
    const uint32_t map = target->p[1] ? target->p[1] : 1; /* (0: the greedy's error) */
    uint32_t* id = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *id, false);
    uint32_t* rank = gc_alloc_array(map, sizeof *rank, false);
    if (!J.costs || !J.verts || !id || !rank)
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the orders of %zu triangles", triangle_count);
    if (!s) {
        for (uint32_t v = 0; v < vertex_count; ++v)
            id[v] = UINT32_MAX;
        parts_lists(&J, map, id, rank);
    }
    free(id);
    free(rank);
    if (!s)
        s = gc_parallel_run(options->threads, parts.count + (occlusion != NULL), llvmpipe_part_job, &J, NULL, err);
    uint64_t total = 0;
    for (size_t p = 0; p < parts.count && !s; ++p) {
        const size_t from = parts.start[p];
        const uint32_t* o = J.orders + from;
        total += J.costs[p];
        for (size_t i = 0; i < parts.start[p + 1] - from; ++i)
            order[from + i] = parts.walk[from + o[i]];
    }
    if (!s && cost)
        *cost = total;
    free(J.costs);
    free(J.verts);
    gc_partition_free(&parts);
    return s;
}
