// SPDX-License-Identifier: MIT
/* auto with one target, for every family and preset, against meshopt_optimizeVertexCache:
 * the time each takes over the corpus meshes and a shuffled copy of each (median of
 * `--runs` runs per mesh), the ratio, and the mean change in invocations under the target
 * (value-keyed targets scored with first-use numbering, as meshopt_optimizeVertexFetchRemap
 * gives and auto is told to expect), with the mean ATVRs and a lower bound (lower_bound).
 * The bound on time: auto within 10x of meshoptimizer.
 * usage: bench_auto_targets [--runs N] [--target SPEC] [CORPUS_DIR] */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include <meshoptimizer.h>

#include "bench_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const targets[] = {
    "intel",   "nvidia-kepler", "nvidia-pascal",      "nvidia-maxwell",  "amd-gcn", "generic", "fifo:16",
    "lru:16",  "direct-value:64", "direct-position:32", "nvidia",          "meshopt:32,32,32", "reuse:32,16,32",
    "batch",   "llvmpipe",  "nvidia-dx", "nvidia-gl", "ati-basic", "intel-lower-bound", "cure-block",
    "radeonsi-polaris",
};
#define TARGETS (sizeof targets / sizeof targets[0])

static const char* const names[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                    "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                    "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                    "teapot.obj",    "woody.obj"};
#define NAMES (sizeof names / sizeof names[0])

typedef struct mesh {
    uint32_t* idx;
    size_t n;
    uint32_t vertices;
} mesh;

/* The lattice bound of a piece of t triangles: a disk patch of a valence-6 triangulation
 * has at least 1 + (t + sqrt(6 t)) / 2 vertices (Euler: V = (t + b) / 2 + 1 with b boundary
 * edges; a hexagon has the shortest boundary, b = sqrt(6 t)). Not strict for irregular
 * meshes: a curved or closed region can have a shorter boundary. */
static double piece_vertices(double t)
{
    return t <= 0 ? 0.0 : 1.0 + (t + sqrt(6.0 * t)) / 2.0;
}

/* The most triangles such a patch holds with at most v vertices. */
static double piece_triangles(double v)
{
    double t = 0;
    while (piece_vertices(t + 1) <= v)
        t += 1;
    return t;
}

/* A lower bound on the invocations of any order under m: every vertex at least once, and
 * for the models that cut the work into pieces of at most P triangles and W vertices (whose
 * caches are cleared between them), pieces x the lattice bound of a piece. */
static double lower_bound(const gc_model* m, size_t triangles, uint32_t vertices)
{
    double per = 0;
    switch (m->family) {
    case GC_MODEL_LLVMPIPE: per = floor(m->p[0] / 3.0); break;
    case GC_MODEL_MESHOPT:
        if (m->p[1] && m->p[0] >= m->p[1])
            per = piece_triangles(m->p[1]);
        if (m->p[2] && (per == 0 || m->p[2] < per))
            per = m->p[2];
        break;
    case GC_MODEL_BATCH:
        per = piece_triangles(m->p[0]);
        if (m->p[1] && m->p[1] < per)
            per = m->p[1];
        break;
    case GC_MODEL_NV_DX: /* batches of at most p[1] invocations (so distinct vertices), p[0] / 3 triangles */
    case GC_MODEL_NV_GL:
    case GC_MODEL_BATCH_ALL:
        per = piece_triangles(m->p[1]);
        if (floor(m->p[0] / 3.0) < per)
            per = floor(m->p[0] / 3.0);
        break;
    default: break;
    }
    double bound = vertices;
    if (per > 0) {
        double full = floor((double)triangles / per), rest = (double)triangles - full * per;
        double pieces = full * piece_vertices(per) + piece_vertices(rest);
        bound = pieces > bound ? pieces : bound;
    }
    return bound;
}

static uint64_t invocations(const gc_model* m, uint32_t* idx, size_t n, uint32_t vertices, bool renumber)
{
    gc_error err;
    if (renumber) {
        uint32_t* remap = malloc(vertices * sizeof *remap);
        uint32_t used;
        gc_reorder_vertices(idx, n, vertices, remap, &used, &err);
        free(remap);
    }
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    if (gc_analyze(m, &d, NULL, &st, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return st.invocations;
}

int main(int argc, char** argv)
{
    const char* dir = "../shared/corpus";
    int runs = 3;
    const char* only = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--target") && i + 1 < argc)
            only = argv[++i];
        else
            dir = argv[i];
    }
    if (runs < 1 || runs > 64)
        runs = 3;
    mesh meshes[2 * NAMES];
    size_t count = 0, total_triangles = 0;
    for (size_t i = 0; i < NAMES; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint32_t* tri;
        size_t n;
        uint32_t v;
        if (bench_load_triangles(path, &tri, &n, &v))
            continue;
        meshes[count++] = (mesh){tri, n, v};
        uint32_t* copy = malloc(n * sizeof *copy + 4);
        memcpy(copy, tri, n * sizeof *copy);
        gc_shuffle_triangles(copy, n, 7);
        meshes[count++] = (mesh){copy, n, v};
        total_triangles += 2 * (n / 3);
    }
    if (count == 0) {
        fprintf(stderr, "no corpus meshes in %s\n", dir);
        return 77;
    }
    size_t max_n = 0;
    for (size_t i = 0; i < count; ++i)
        max_n = meshes[i].n > max_n ? meshes[i].n : max_n;
    uint32_t* out = malloc(max_n * sizeof *out);
    uint32_t* base = malloc(max_n * sizeof *base);
    double samples[64];

    /* meshoptimizer once: its time and order do not depend on the target */
    double meshopt_seconds = 0.0;
    for (size_t i = 0; i < count; ++i) {
        for (int r = 0; r < runs; ++r) {
            double t0 = now();
            meshopt_optimizeVertexCache(base, meshes[i].idx, meshes[i].n, meshes[i].vertices);
            samples[r] = now() - t0;
        }
        meshopt_seconds += median(samples, runs);
    }
    printf("auto with one target (default effort) against meshopt_optimizeVertexCache over %zu meshes (%zu "
           "corpus meshes and a shuffled copy of each, %zu triangles); median of %d runs per mesh\n\n",
           count, count / 2, total_triangles, runs);
    printf("meshopt_optimizeVertexCache: %.3f s, %.2f Mtri/s\n\n", meshopt_seconds,
           (double)total_triangles / meshopt_seconds / 1e6);
    printf("| target | auto s | Mtri/s | x meshopt's time | mean change in invocations | auto ATVR | meshopt ATVR | "
           "bound ATVR |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    int over = 0;
    for (size_t k = 0; k < TARGETS; ++k) {
        if (only && strcmp(only, targets[k]))
            continue;
        gc_model m;
        gc_error err;
        gc_model_parse(targets[k], &m, &err);
        bool value_keyed = m.family == GC_MODEL_LLVMPIPE || m.family == GC_MODEL_DIRECT_VALUE;
        double seconds = 0.0, change = 0.0, atvr_auto = 0.0, atvr_meshopt = 0.0, atvr_bound = 0.0;
        for (size_t i = 0; i < count; ++i) {
            gc_optimize_options o = {0};
            o.targets = &m;
            o.target_count = 1;
            const gc_optimize_placement place = {0, 0, value_keyed};
            for (int r = 0; r < runs; ++r) {
                double t0 = now();
                if (gc_optimize_placed(GC_OPT_AUTO, meshes[i].idx, meshes[i].n, meshes[i].vertices, &o, &place, out, &err)) {
                    fprintf(stderr, "%s\n", err.message);
                    return 1;
                }
                samples[r] = now() - t0;
            }
            seconds += median(samples, runs);
            meshopt_optimizeVertexCache(base, meshes[i].idx, meshes[i].n, meshes[i].vertices);
            uint64_t a = invocations(&m, out, meshes[i].n, meshes[i].vertices, value_keyed);
            uint64_t b = invocations(&m, base, meshes[i].n, meshes[i].vertices, value_keyed);
            change += (double)a / (double)b - 1.0;
            uint32_t used = 0; /* the vertices the triangles use */
            {
                unsigned char* seen = calloc(meshes[i].vertices, 1);
                for (size_t q = 0; q < meshes[i].n; ++q)
                    used += !seen[meshes[i].idx[q]], seen[meshes[i].idx[q]] = 1;
                free(seen);
            }
            atvr_auto += (double)a / used;
            atvr_meshopt += (double)b / used;
            atvr_bound += lower_bound(&m, meshes[i].n / 3, used) / used;
        }
        double ratio = seconds / meshopt_seconds;
        over += ratio > 10.0;
        printf("| %s | %.3f | %.2f | %.1f | %+.2f%% | %.4f | %.4f | %.4f |\n", targets[k], seconds,
               (double)total_triangles / seconds / 1e6, ratio, 100.0 * change / (double)count, atvr_auto / count,
               atvr_meshopt / count, atvr_bound / count);
    }
    printf("\ntargets over 10x meshoptimizer's time: %d of %zu\n", over, TARGETS);
    for (size_t i = 0; i < count; ++i)
        free(meshes[i].idx);
    free(out);
    free(base);
    return 0;
}
