// SPDX-License-Identifier: MIT
/* The overdraw half of Tipsify — Sander, Nehab and Barczak, "Fast Triangle Reordering for
 * Vertex Locality and Reduced Overdraw", SIGGRAPH 2007, section 4 (docs/optimizers/tipsify.md).
 *
 * A vertex-cache order is cut into clusters, which keep their triangles' order, and the
 * clusters are drawn in decreasing order of their view-independent occlusion potential:
 *
 * 1. Clusters. A cluster begins where the cache is flushed: a triangle none of whose
 *    vertices is in a FIFO of k entries (Tipsify's dead ends). A cluster is cut further
 *    once its ACMR (misses per triangle) drops below lambda: a larger lambda gives smaller
 *    clusters, more freedom to sort them, and more misses. The misses are counted from a
 *    cold cache at the cluster's first triangle, which is what the cluster will cost once it
 *    is moved away from the triangles drawn before it.
 * 2. Occlusion potential. For a cluster C with area-weighted centroid c and area-weighted
 *    normal n (the sum of its triangles' cross products, normalized), and the mesh's
 *    area-weighted centroid m: (c - m) . n. A cluster far out along its own normal occludes
 *    much of the mesh from the directions it faces, and is drawn first.
 *
 * Time O(triangles + vertices + clusters log clusters); memory 4 bytes per vertex and
 * 16 per triangle at most. */
#include "optimize.h"

#include "../models/fifo_rule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cluster_key {
    double potential;
    uint32_t begin, end; /* positions in the input order */
    float weight;        /* twice its area */
} cluster_key;

static int by_potential(const void* a, const void* b)
{
    const cluster_key* x = a;
    const cluster_key* y = b;
    if (x->potential != y->potential)
        return x->potential > y->potential ? -1 : 1;
    return (x->begin > y->begin) - (x->begin < y->begin); /* stable: the first cluster first */
}

static const float* vertex_at(const float* positions, size_t stride, uint32_t v)
{
    return (const float*)((const char*)positions + (size_t)v * stride);
}

/* Twice the triangle's area vector (its cross product) and its centroid times 3. */
static void triangle_geometry(const float* positions, size_t stride, const uint32_t* tv, double normal[3],
                              double centroid3[3])
{
    const float* a = vertex_at(positions, stride, tv[0]);
    const float* b = vertex_at(positions, stride, tv[1]);
    const float* c = vertex_at(positions, stride, tv[2]);
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
    normal[0] = e1[1] * e2[2] - e1[2] * e2[1];
    normal[1] = e1[2] * e2[0] - e1[0] * e2[2];
    normal[2] = e1[0] * e2[1] - e1[1] * e2[0];
    for (int i = 0; i < 3; ++i)
        centroid3[i] = (double)a[i] + b[i] + c[i];
}

/* Mesh centroid, area-weighted (a mesh of degenerate triangles: the corners' mean). */
static void mesh_centroid(const uint32_t* indices, size_t triangle_count, const float* positions, size_t stride,
                          double mesh[3])
{
    double corners[3] = {0, 0, 0}, area = 0;
    mesh[0] = mesh[1] = mesh[2] = 0;
    for (size_t t = 0; t < triangle_count; ++t) {
        double n[3], c3[3];
        triangle_geometry(positions, stride, indices + 3 * t, n, c3);
        double w = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; ++i)
            mesh[i] += w * c3[i], corners[i] += c3[i];
        area += w;
    }
    for (int i = 0; i < 3; ++i)
        mesh[i] = area > 0 ? mesh[i] / (3 * area) : corners[i] / (3 * (double)triangle_count);
}

/* A cluster's cache: fifo_rule.h's FIFO of k entries (a miss takes the next stamp, `time`,
 * which starts at GC_FIFO_FIRST(k) over zeroed stamps) that is empty at the cluster's first
 * triangle: a vertex stamped before `cluster_time` (the clock there) misses too. (Not
 * gc_fifo_flush at each cut: it moves the clock k + 1 on, which on a list of 2^31 indices
 * cut into single triangles would wrap it.) 1 on a miss. */
static inline uint32_t cluster_missed(uint32_t time, uint32_t stamp, uint32_t k, uint32_t cluster_time)
{
    return gc_fifo_missed(time, stamp, k) | (uint32_t)(stamp < cluster_time);
}

/* The clusters of `order` with their occlusion potentials into clusters[] (their count
 * returned): cut at flushes, and where the cluster's ACMR from a cold cache drops below
 * lambda, or (relative > 0) to at most relative times the ACMR of the flush-bounded
 * cluster it lies in (hard[i] for the triangle at position i). clusters NULL: their ends
 * alone into ends_out (no geometry, no key array to fill). */
static size_t cut_clusters(const uint32_t* indices, size_t triangle_count, const float* positions, size_t stride,
                           uint32_t k, double lambda, double relative, const float* hard, const double mesh[3],
                           const uint32_t* order, uint32_t* stamp, float* acmr_out, cluster_key* clusters,
                           uint32_t* ends_out)
{
    /* the cluster's misses from a cold cache (cluster_missed) */
    uint32_t time = GC_FIFO_FIRST(k), cluster_time = time;
    size_t cluster_count = 0, cluster_triangles = 0, cluster_misses = 0;
    double normal[3] = {0, 0, 0}, centroid[3] = {0, 0, 0}, weight = 0, plain[3] = {0, 0, 0};
    for (size_t i = 0; i <= triangle_count; ++i) {
        const uint32_t* tv = i < triangle_count ? indices + 3 * (size_t)order[i] : NULL;
        bool flush = true;
        if (tv) /* a cache flush: none of the triangle's vertices in the FIFO */
            for (int c = 0; c < 3; ++c)
                flush &= cluster_missed(time, stamp[tv[c]], k, cluster_time) != 0;
        bool cut = i == triangle_count || (i > 0 && (flush || (double)cluster_misses < lambda * cluster_triangles ||
                                         (relative > 0 && (double)cluster_misses <= relative * hard[i - 1] * cluster_triangles)));
        if (cut) {
            if (acmr_out)
                for (size_t j = i - cluster_triangles; j < i; ++j)
                    acmr_out[j] = (float)cluster_misses / (float)cluster_triangles;
            if (!clusters) {
                ends_out[cluster_count++] = (uint32_t)i;
            } else {
                cluster_key* key = &clusters[cluster_count++];
                key->begin = (uint32_t)(i - cluster_triangles);
                key->end = (uint32_t)i;
                key->weight = 0, key->potential = 0;
                double len =
                    positions ? sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]) : 0;
                double p = 0;
                for (int c = 0; c < 3; ++c) {
                    double at = weight > 0 ? centroid[c] / (3 * weight) : plain[c] / (3 * (double)cluster_triangles);
                    p += len > 0 ? (at - mesh[c]) * normal[c] / len : 0;
                }
                key->weight = (float)weight;
                key->potential = p == p ? p : 0; /* NaN positions: no potential, a consistent sort */
            }
            cluster_triangles = cluster_misses = 0;
            weight = 0;
            for (int c = 0; c < 3; ++c)
                normal[c] = centroid[c] = plain[c] = 0;
            cluster_time = time;
        }
        if (!tv)
            break;
        for (int c = 0; c < 3; ++c)
            if (cluster_missed(time, stamp[tv[c]], k, cluster_time)) {
                stamp[tv[c]] = time++;
                cluster_misses++;
            }
        cluster_triangles++;
        if (!positions)
            continue; /* the cuts alone */
        double n[3], c3[3];
        triangle_geometry(positions, stride, tv, n, c3);
        double w = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int c = 0; c < 3; ++c)
            normal[c] += n[c], centroid[c] += w * c3[c], plain[c] += c3[c];
        weight += w;
    }
    return cluster_count;
}

/* cut_clusters' cuts alone (no geometry, lambda 0, no ACMR out) into ends (their count
 * returned): the rungs of the overdraw pass run this once each; the same cuts, a tighter loop. */
static size_t cut_ends(const uint32_t* indices, size_t triangle_count, uint32_t k, double relative, const float* hard,
                       const uint32_t* order, uint32_t* stamp, uint32_t* ends)
{
    uint32_t time = GC_FIFO_FIRST(k), cluster_time = time;
    size_t count = 0, cluster_triangles = 0, cluster_misses = 0;
    for (size_t i = 0; i < triangle_count; ++i) {
        const uint32_t* tv = indices + 3 * (size_t)order[i];
        const bool flush = cluster_missed(time, stamp[tv[0]], k, cluster_time) &
                           cluster_missed(time, stamp[tv[1]], k, cluster_time) &
                           cluster_missed(time, stamp[tv[2]], k, cluster_time);
        if (i > 0 && (flush || (relative > 0 && (double)cluster_misses <= relative * hard[i - 1] * cluster_triangles))) {
            ends[count++] = (uint32_t)i;
            cluster_triangles = cluster_misses = 0;
            cluster_time = time;
        }
        for (int c = 0; c < 3; ++c) /* stamp read again: a corner may repeat one before it */
            if (cluster_missed(time, stamp[tv[c]], k, cluster_time)) {
                stamp[tv[c]] = time++;
                cluster_misses++;
            }
        cluster_triangles++;
    }
    if (triangle_count > 0)
        ends[count++] = (uint32_t)triangle_count;
    return count;
}

gc_status gc_opt_overdraw_sort(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const float* positions, size_t position_stride, uint32_t cache_size, double lambda,
                               double relative, double merge, uint32_t* order, gc_error* err)
{
    if (triangle_count < 2)
        return GC_OK;
    const size_t stride = position_stride ? position_stride : 3 * sizeof(float);
    const uint32_t k = cache_size ? cache_size : 16;
    uint32_t* stamp = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *stamp, true);
    cluster_key* clusters = gc_alloc_array(triangle_count, sizeof *clusters, false);
    uint32_t* sorted = gc_alloc_array(triangle_count, sizeof *sorted, false);
    float* hard = relative > 0 ? gc_alloc_array(triangle_count, sizeof *hard, false) : NULL;
    if (!stamp || !clusters || !sorted || (relative > 0 && !hard)) {
        free(stamp), free(clusters), free(sorted), free(hard);
        return gc_fail(err, GC_ERR_NOMEM, "overdraw sort: out of memory for %zu triangles", triangle_count);
    }
    double mesh[3];
    mesh_centroid(indices, triangle_count, positions, stride, mesh);

    if (relative > 0) /* the flush-bounded clusters' ACMRs first */
        cut_clusters(indices, triangle_count, positions, stride, k, 0, 0, NULL, mesh, order, stamp, hard, clusters, NULL);
    memset(stamp, 0, (size_t)vertex_count * sizeof *stamp);
    size_t cluster_count = cut_clusters(indices, triangle_count, positions, stride, k, lambda, relative, hard, mesh,
                                        order, stamp, NULL, clusters, NULL);
    free(hard);
    /* Neighbours whose potentials are within `merge` of the largest are drawn as one: the sort
     * would put them close together anyway, and together they keep their shared vertices. */
    if (merge > 0 && cluster_count > 1) {
        double top = 0;
        for (size_t c = 0; c < cluster_count; ++c)
            top = fabs(clusters[c].potential) > top ? fabs(clusters[c].potential) : top;
        size_t kept = 0;
        for (size_t c = 1; c < cluster_count; ++c) {
            cluster_key* a = &clusters[kept];
            const cluster_key* b = &clusters[c];
            double wa = a->weight, wb = b->weight;
            if (fabs(a->potential - b->potential) <= merge * top && wa + wb > 0) {
                a->potential = (wa * a->potential + wb * b->potential) / (wa + wb);
                a->weight = (float)(wa + wb);
                a->end = b->end;
            } else {
                clusters[++kept] = *b;
            }
        }
        cluster_count = kept + 1;
    }
    qsort(clusters, cluster_count, sizeof *clusters, by_potential);
    size_t written = 0;
    for (size_t c = 0; c < cluster_count; ++c)
        for (uint32_t i = clusters[c].begin; i < clusters[c].end; ++i)
            sorted[written++] = order[i];
    memcpy(order, sorted, triangle_count * sizeof *order);
    free(stamp), free(clusters), free(sorted);
    return GC_OK;
}

/* The ACMR of the flush-bounded cluster each position of `order` lies in (what the rungs of
 * gc_opt_overdraw_clusters are relative to) into acmr[0 .. triangle_count). */
gc_status gc_opt_overdraw_flush_acmr(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     uint32_t cache_size, const uint32_t* order, float* acmr, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    const uint32_t k = cache_size ? cache_size : 16;
    uint32_t* stamp = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *stamp, true);
    uint32_t* ends = gc_alloc_array(triangle_count, sizeof *ends, false); /* scratch */
    if (!stamp || !ends) {
        free(stamp), free(ends);
        return gc_fail(err, GC_ERR_NOMEM, "overdraw clusters: out of memory for %zu triangles", triangle_count);
    }
    const double mesh[3] = {0, 0, 0};
    cut_clusters(indices, triangle_count, NULL, 3 * sizeof(float), k, 0, 0, NULL, mesh, order, stamp, acmr, NULL, ends);
    free(stamp), free(ends);
    return GC_OK;
}

/* The clusters gc_opt_overdraw_sort would cut (`relative` as there, no merge), not sorted:
 * cluster c is order[ends[c - 1] .. ends[c]) (ends[-1] = 0). No geometry: the cuts alone. */
gc_status gc_opt_overdraw_clusters(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                   uint32_t cache_size, double relative, const float* flush_acmr,
                                   const uint32_t* order, uint32_t* ends, size_t* count, gc_error* err)
{
    *count = 0;
    if (triangle_count == 0)
        return GC_OK;
    const size_t stride = 3 * sizeof(float);
    const uint32_t k = cache_size ? cache_size : 16;
    uint32_t* stamp = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *stamp, true);
    float* hard = relative > 0 && !flush_acmr ? gc_alloc_array(triangle_count, sizeof *hard, false) : NULL;
    if (!stamp || (relative > 0 && !flush_acmr && !hard)) {
        free(stamp), free(hard);
        return gc_fail(err, GC_ERR_NOMEM, "overdraw clusters: out of memory for %zu triangles", triangle_count);
    }
    const double mesh[3] = {0, 0, 0};
    if (hard) { /* ends: scratch here, written again below */
        cut_clusters(indices, triangle_count, NULL, stride, k, 0, 0, NULL, mesh, order, stamp, hard, NULL, ends);
        memset(stamp, 0, (size_t)vertex_count * sizeof *stamp);
        flush_acmr = hard;
    }
    *count = cut_ends(indices, triangle_count, k, relative, flush_acmr, order, stamp, ends);
    free(stamp), free(hard);
    return GC_OK;
}
