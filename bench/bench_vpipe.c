// SPDX-License-Identifier: MIT
/* The whole vertex pipeline against meshoptimizer's (issue 30, docs/PERFORMANCE.md): for
 * each mesh, stored and shuffled, meshoptimizer's usual three steps
 * (meshopt_optimizeVertexCache, meshopt_optimizeOverdraw with threshold 1.05,
 * meshopt_optimizeVertexFetch on 32-byte vertices) against gpucache's default
 * `optimize -a auto --reorder-vertices` (gc_optimize with the positions, overdraw threshold
 * 1.05, then gc_reorder_vertices_fetch, the numbering chosen for meshoptimizer's fetch model;
 * --first-use: gc_reorder_vertices, as an OBJ output is read back), and auto with threshold 1
 * (no overdraw pass). The judge is
 * meshoptimizer's own: meshopt_analyzeOverdraw, meshopt_analyzeVertexFetch (32-byte vertices),
 * and the invocations of auto's four default presets (gc_analyze). A row "dominates" when
 * gpucache's overdraw and bytes fetched are at most the pipeline's and its invocations below
 * under every preset. Times: the median of --reps runs of each side (the library calls, no
 * file I/O).
 *
 * Links the meshoptimizer named by -DGPUCACHE_PEER_MESHOPT (an install prefix: build
 * meshoptimizer 1.2 with its own CMake and point this at its install prefix).
 *
 *   bench_vpipe [--reps N] [--threshold T] [--first-use] [--cpu] MESH...
 * --cpu: the times are the thread's processor time (CLOCK_THREAD_CPUTIME_ID), which other
 * jobs on a loaded machine do not count into; by default wall time.
 */
#define _POSIX_C_SOURCE 200809L
#include <gpucache/gpucache.h>
#include <meshoptimizer.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};
enum { PRESETS = 4 };

typedef struct result {
    double overdraw, seconds;
    size_t fetched;
    uint64_t invocations[PRESETS];
} result;

static void judge(const uint32_t* idx, size_t n, const float* xyz, uint32_t vertices, result* r)
{
    struct meshopt_OverdrawStatistics od = meshopt_analyzeOverdraw(idx, n, xyz, vertices, 12);
    struct meshopt_VertexFetchStatistics vf = meshopt_analyzeVertexFetch(idx, n, vertices, 32);
    r->overdraw = od.overdraw;
    r->fetched = vf.bytes_fetched;
    for (int p = 0; p < PRESETS; ++p) {
        gc_model m;
        gc_error err;
        gc_stats st;
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        gc_model_parse(presets[p], &m, &err);
        r->invocations[p] = gc_analyze(&m, &d, NULL, &st, &err) ? 0 : st.invocations;
    }
}

/* meshoptimizer's three steps; the output and its positions renumbered as the fetch step did. */
static void peer_pipeline(const uint32_t* idx, size_t n, const float* xyz, uint32_t vertices, uint32_t* out,
                          float* out_xyz, float* v32, float* v32_out)
{
    uint32_t* tmp = malloc(n * sizeof *tmp);
    meshopt_optimizeVertexCache(tmp, idx, n, vertices);
    meshopt_optimizeOverdraw(out, tmp, n, xyz, vertices, 12, 1.05f);
    meshopt_optimizeVertexFetch(v32_out, out, n, v32, vertices, 32);
    for (uint32_t v = 0; v < vertices; ++v)
        memcpy(out_xyz + 3 * (size_t)v, v32_out + 8 * (size_t)v, 12);
    free(tmp);
}

static int first_use_numbering; /* --first-use: gc_reorder_vertices, as an OBJ output is numbered */
static int cpu_time;            /* --cpu: processor time of the thread, not wall time */

static double clock_now(void)
{
    struct timespec ts;
    if (!cpu_time)
        return now();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int ours(const uint32_t* idx, size_t n, const float* xyz, uint32_t vertices, float threshold, uint32_t* out,
                float* out_xyz, uint32_t* remap)
{
    gc_optimize_options o = {0};
    o.positions = xyz;
    o.overdraw_threshold = threshold;
    const gc_optimize_placement first_use = {0, 0, 1};
    gc_error err;
    uint32_t used = 0;
    if (gc_optimize_placed(GC_OPT_AUTO, idx, n, vertices, &o, &first_use, out, &err) ||
        (first_use_numbering ? gc_reorder_vertices(out, n, vertices, remap, &used, &err)
                             : gc_reorder_vertices_fetch(out, n, vertices, NULL, NULL, remap, &used, &err))) {
        fprintf(stderr, "gpucache: %s\n", err.message);
        return -1;
    }
    for (uint32_t v = 0; v < vertices; ++v)
        if (remap[v] != UINT32_MAX)
            memcpy(out_xyz + 3 * (size_t)remap[v], xyz + 3 * (size_t)v, 12);
    return 0;
}

/* Triangles in a random order, each rotated at random, and the vertices renumbered at random. */
static void shuffle(uint32_t* idx, size_t n, float* xyz, uint32_t vertices)
{
    uint64_t state = 0x9E3779B97F4A7C15ull;
#define NEXT() (state = state * 6364136223846793005ull + 1442695040888963407ull, (uint32_t)(state >> 33))
    size_t t = n / 3;
    for (size_t i = t; i > 1; --i) {
        size_t j = NEXT() % i;
        for (int c = 0; c < 3; ++c) {
            uint32_t x = idx[3 * (i - 1) + c];
            idx[3 * (i - 1) + c] = idx[3 * j + c];
            idx[3 * j + c] = x;
        }
    }
    for (size_t i = 0; i < t; ++i)
        for (uint32_t r = NEXT() % 3; r > 0; --r) {
            uint32_t a = idx[3 * i];
            idx[3 * i] = idx[3 * i + 1], idx[3 * i + 1] = idx[3 * i + 2], idx[3 * i + 2] = a;
        }
    uint32_t* perm = malloc((size_t)vertices * sizeof *perm);
    float* moved = malloc((size_t)vertices * 12);
    for (uint32_t v = 0; v < vertices; ++v)
        perm[v] = v;
    for (uint32_t i = vertices; i > 1; --i) {
        uint32_t j = NEXT() % i, x = perm[i - 1];
        perm[i - 1] = perm[j], perm[j] = x;
    }
    for (uint32_t v = 0; v < vertices; ++v)
        memcpy(moved + 3 * (size_t)perm[v], xyz + 3 * (size_t)v, 12);
    memcpy(xyz, moved, (size_t)vertices * 12);
    for (size_t i = 0; i < n; ++i)
        idx[i] = perm[idx[i]];
    free(perm), free(moved);
#undef NEXT
}

static const char* base_name(const char* path)
{
    const char* s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int main(int argc, char** argv)
{
    int reps = 3, first = 1;
    float threshold = 1.05f;
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--reps") && first + 1 < argc)
            reps = atoi(argv[first + 1]), first += 2;
        else if (!strcmp(argv[first], "--cpu"))
            cpu_time = 1, first += 1;
        else if (!strcmp(argv[first], "--first-use"))
            first_use_numbering = 1, first += 1;
        else if (!strcmp(argv[first], "--threshold") && first + 1 < argc)
            threshold = (float)atof(argv[first + 1]), first += 2;
        else
            break;
    }
    if (first >= argc || reps < 1 || reps > 99) {
        fprintf(stderr, "usage: bench_vpipe [--reps N] [--threshold T] [--first-use] [--cpu] MESH...\n");
        return 2;
    }
    printf("| mesh | order | triangles | overdraw: pipeline / auto T=1 / auto | bytes fetched: pipeline / auto | "
           "invocations intel, kepler, pascal, gcn: pipeline / auto | dominates | time: pipeline / auto (ms) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    int rows = 0, dominated = 0;
    double peer_total = 0, ours_total = 0;
    for (int a = first; a < argc; ++a) {
        uint32_t* idx;
        size_t n;
        uint32_t vertices;
        if (bench_load_triangles(argv[a], &idx, &n, &vertices))
            continue;
        float* loaded;
        size_t count;
        gc_error err;
        if (gc_mesh_load_positions(argv[a], NULL, &loaded, &count, &err) || count < vertices) {
            fprintf(stderr, "skipping %s: positions: %s\n", argv[a], count < vertices ? "too few" : err.message);
            free(idx);
            continue;
        }
        float* xyz = malloc((size_t)vertices * 12);
        memcpy(xyz, loaded, (size_t)vertices * 12);
        free(loaded);
        float* v32 = calloc((size_t)vertices, 32);
        float* v32_out = calloc((size_t)vertices, 32);
        float* out_xyz = calloc((size_t)vertices, 12);
        uint32_t* out = malloc(n * sizeof *out);
        uint32_t* remap = malloc((size_t)vertices * sizeof *remap);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                shuffle(idx, n, xyz, vertices);
            for (uint32_t v = 0; v < vertices; ++v)
                memcpy(v32 + 8 * (size_t)v, xyz + 3 * (size_t)v, 12);
            result peer, mine, plain;
            double tp[99], to[99];
            for (int r = 0; r < reps; ++r) {
                double t0 = clock_now();
                peer_pipeline(idx, n, xyz, vertices, out, out_xyz, v32, v32_out);
                tp[r] = clock_now() - t0;
            }
            judge(out, n, out_xyz, vertices, &peer);
            if (ours(idx, n, xyz, vertices, 1.0f, out, out_xyz, remap))
                return 1;
            judge(out, n, out_xyz, vertices, &plain);
            for (int r = 0; r < reps; ++r) {
                double t0 = clock_now();
                if (ours(idx, n, xyz, vertices, threshold, out, out_xyz, remap))
                    return 1;
                to[r] = clock_now() - t0;
            }
            judge(out, n, out_xyz, vertices, &mine);
            peer.seconds = median(tp, reps), mine.seconds = median(to, reps);
            int wins = mine.overdraw <= peer.overdraw && mine.fetched <= peer.fetched;
            for (int p = 0; p < PRESETS; ++p)
                wins &= mine.invocations[p] < peer.invocations[p];
            char inv[256];
            int at = 0;
            for (int p = 0; p < PRESETS; ++p)
                at += snprintf(inv + at, sizeof inv - (size_t)at, "%s%llu / %llu", p ? ", " : "",
                               (unsigned long long)peer.invocations[p], (unsigned long long)mine.invocations[p]);
            printf("| %s | %s | %zu | %.4f / %.4f / %.4f | %zu / %zu | %s | %s | %.1f / %.1f (%.1fx) |\n",
                   base_name(argv[a]), shuffled ? "shuffled" : "stored", n / 3, peer.overdraw, plain.overdraw,
                   mine.overdraw, peer.fetched, mine.fetched, inv, wins ? "yes" : "**no**", 1e3 * peer.seconds,
                   1e3 * mine.seconds, mine.seconds / peer.seconds);
            fflush(stdout);
            rows++, dominated += wins;
            peer_total += peer.seconds, ours_total += mine.seconds;
        }
        free(idx), free(xyz), free(v32), free(v32_out), free(out_xyz), free(out), free(remap);
    }
    printf("\n%d of %d rows dominate; time, all rows: pipeline %.1f ms, auto %.1f ms (%.1fx)\n", dominated, rows,
           1e3 * peer_total, 1e3 * ours_total, peer_total > 0 ? ours_total / peer_total : 0);
    return 0;
}
