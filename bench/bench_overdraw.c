// SPDX-License-Identifier: MIT
/* Overdraw and vertex fetch analysis speed against meshoptimizer's analyzers (issue 30,
 * docs/PERFORMANCE.md): gc_analyze_overdraw against meshopt_analyzeOverdraw and
 * gc_analyze_fetch ("meshopt:32") against meshopt_analyzeVertexFetch, on each mesh as
 * stored and subdivided (each triangle into four at its edge midpoints, new vertices per
 * triangle) until it has at least 1M triangles. The median of --reps runs of each, one
 * thread; the counts are printed beside the times so that a run shows both sides agree.
 * Links the meshoptimizer named by -DGPUCACHE_PEER_MESHOPT (meshoptimizer 1.2 from source).
 *
 *   bench_overdraw [--reps N] MESH...
 */
#define _POSIX_C_SOURCE 200809L
#include <gpucache/gpucache.h>
#include <meshoptimizer.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct mesh {
    uint32_t* idx;
    size_t n;
    float* xyz;
    size_t vertices;
} mesh;

static int load(const char* path, mesh* m)
{
    gc_error err;
    if (gc_mesh_load_triangles(path, NULL, &m->idx, &m->n, NULL, &err) != GC_OK ||
        gc_mesh_load_positions(path, NULL, &m->xyz, &m->vertices, &err) != GC_OK) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return 0;
}

static mesh subdivide(const mesh* s)
{
    mesh out = {0};
    out.n = 4 * s->n;
    out.vertices = s->vertices + s->n; /* three midpoints per triangle */
    out.idx = malloc(out.n * sizeof *out.idx);
    out.xyz = malloc(out.vertices * 3 * sizeof *out.xyz);
    if (!out.idx || !out.xyz) {
        fprintf(stderr, "out of memory subdividing\n");
        exit(1);
    }
    memcpy(out.xyz, s->xyz, s->vertices * 3 * sizeof *out.xyz);
    size_t next = s->vertices;
    for (size_t t = 0; t < s->n; t += 3) {
        uint32_t a = s->idx[t], b = s->idx[t + 1], c = s->idx[t + 2];
        uint32_t mid[3];
        const uint32_t ends[3][2] = {{a, b}, {b, c}, {c, a}};
        for (int e = 0; e < 3; ++e) {
            for (int k = 0; k < 3; ++k)
                out.xyz[3 * next + k] = 0.5f * (s->xyz[3 * ends[e][0] + k] + s->xyz[3 * ends[e][1] + k]);
            mid[e] = (uint32_t)next++;
        }
        uint32_t* o = out.idx + 4 * t;
        const uint32_t tris[12] = {a, mid[0], mid[2], mid[0], b, mid[1], mid[2], mid[1], c, mid[0], mid[1], mid[2]};
        memcpy(o, tris, sizeof tris);
    }
    return out;
}

static void run(const char* name, const mesh* m, int reps)
{
    double ours[64], peer[64], ours_f[64], peer_f[64];
    gc_overdraw_stats od = {0};
    struct meshopt_OverdrawStatistics ref = {0};
    gc_fetch_stats fs = {0};
    struct meshopt_VertexFetchStatistics rf = {0};
    gc_fetch_spec spec;
    gc_error err;
    gc_fetch_parse("meshopt:32", &spec, &err);
    for (int r = 0; r < reps; ++r) {
        double t0 = now();
        if (gc_analyze_overdraw(m->idx, m->n, m->xyz, m->vertices, 0, &od, &err) != GC_OK) {
            fprintf(stderr, "%s: %s\n", name, err.message);
            exit(1);
        }
        double t1 = now();
        ref = meshopt_analyzeOverdraw(m->idx, m->n, m->xyz, m->vertices, 12);
        double t2 = now();
        gc_analyze_fetch(&spec, NULL, m->idx, m->n, (uint32_t)m->vertices, NULL, 0, &fs, &err);
        double t3 = now();
        rf = meshopt_analyzeVertexFetch(m->idx, m->n, m->vertices, 32);
        double t4 = now();
        ours[r] = t1 - t0, peer[r] = t2 - t1, ours_f[r] = t3 - t2, peer_f[r] = t4 - t3;
    }
    double a = median(ours, reps), b = median(peer, reps), c = median(ours_f, reps), d = median(peer_f, reps);
    printf("| %s | %zu | %.2f | %.2f | %.2fx | %.4f / %.4f | %.2f | %.2f | %.2fx | %s |\n", name, m->n / 3,
           1e3 * a, 1e3 * b, a / b, od.ratio, ref.overdraw, 1e3 * c, 1e3 * d, c / d,
           fs.bytes == rf.bytes_fetched ? "equal" : "DIFFER");
}

int main(int argc, char** argv)
{
    int reps = 5, first = 1;
    if (argc > 2 && !strcmp(argv[1], "--reps")) {
        reps = atoi(argv[2]);
        reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
        first = 3;
    }
    printf("| mesh | triangles | gpucache overdraw ms | meshopt %d.%d ms | ratio | overdraw (both) | gpucache fetch ms | "
           "meshopt ms | ratio | bytes |\n|---|---|---|---|---|---|---|---|---|---|\n",
           MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10);
    for (int i = first; i < argc; ++i) {
        mesh m;
        if (load(argv[i], &m))
            return 1;
        const char* base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        run(base, &m, reps);
        if (m.n / 3 < 1000000) {
            char name[256];
            int level = 0;
            while (m.n / 3 < 1000000) {
                mesh s = subdivide(&m);
                free(m.idx), free(m.xyz);
                m = s;
                ++level;
            }
            snprintf(name, sizeof name, "%s, subdivided %dx", base, level);
            run(name, &m, reps);
        }
        free(m.idx), free(m.xyz);
    }
    return 0;
}
