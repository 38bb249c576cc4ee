// SPDX-License-Identifier: MIT
/* Meshlets (issue 31): gpucache's (auto for the batch-all rule, then a scan) against
 * meshoptimizer 0.18's meshopt_buildMeshlets (cone weight 0) and its buildMeshletsScan of
 * meshopt_optimizeVertexCache's order, on every corpus mesh and a shuffled copy, at 64/124
 * and 128/256. Prints the markdown table of docs/optimizers/meshlets.md. A comparison point
 * only: the library never calls meshoptimizer.
 * bench_meshlets_peer is the same program linked with the meshoptimizer named by
 * -DGPUCACHE_PEER_MESHOPT (1.2, built from its source).
 * usage: bench_meshlets [CORPUS_DIR] */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <meshoptimizer.h>
#include <string.h>

static const char* const meshes[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                     "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                     "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                     "teapot.obj",    "woody.obj"};

typedef struct result {
    size_t meshlets, vertices;
    double seconds;
} result;

static result peer(const uint32_t* idx, size_t n, const float* pos, uint32_t vc, unsigned v, unsigned t, int scan)
{
    size_t cap = meshopt_buildMeshletsBound(n, v, t);
    struct meshopt_Meshlet* ml = malloc(cap * sizeof *ml);
    unsigned* mv = malloc(cap * v * sizeof *mv);
    unsigned char* mt = malloc(cap * t * 3);
    unsigned* opt = scan ? malloc(n * sizeof *opt) : NULL;
    double start = now();
    size_t count;
    if (scan) {
        meshopt_optimizeVertexCache(opt, idx, n, vc);
        count = meshopt_buildMeshletsScan(ml, mv, mt, opt, n, vc, v, t);
    } else {
        count = meshopt_buildMeshlets(ml, mv, mt, idx, n, pos, vc, 12, v, t, 0.0f);
    }
    result r = {count, 0, now() - start};
    for (size_t i = 0; i < count; ++i)
        r.vertices += ml[i].vertex_count;
    free(ml), free(mv), free(mt), free(opt);
    return r;
}

static result ours(const uint32_t* idx, size_t n, uint32_t vc, unsigned v, unsigned t)
{
    gc_meshlet_options o = {0};
    o.max_vertices = v, o.max_triangles = t, o.local_order = 1;
    gc_meshlets m = {0};
    gc_error err;
    double start = now();
    if (gc_meshlets_build(idx, n, vc, &o, &m, &err)) {
        fprintf(stderr, "gc_meshlets_build: %s\n", err.message);
        exit(1);
    }
    result r = {m.meshlet_count, m.vertex_count, now() - start};
    gc_meshlets_free(&m);
    return r;
}

int main(int argc, char** argv)
{
    const char* dir = argc > 1 ? argv[1] : "../shared/corpus";
    static const unsigned limits[][2] = {{64, 124}, {128, 256}};
    printf("| mesh | V/T | meshopt_buildMeshlets %d.%d: meshlets / vertices | buildMeshletsScan of optimizeVertexCache "
           "| gpucache: meshlets / vertices | vertices vs buildMeshlets | time vs buildMeshlets |\n",
           MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10);
    printf("|---|---|---|---|---|---|---|\n");
    double sum_ratio[2] = {0, 0};
    int rows[2] = {0, 0}, fewer_or_equal[2] = {0, 0};
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, meshes[i]);
        uint32_t* idx;
        size_t n;
        uint32_t vc;
        if (bench_load_triangles(path, &idx, &n, &vc))
            continue;
        float* xyz = NULL;
        size_t xyz_count = 0;
        gc_error err;
        if (gc_mesh_load_positions(path, NULL, &xyz, &xyz_count, &err) || xyz_count < vc) {
            fprintf(stderr, "skipping %s: no positions\n", path);
            free(idx);
            continue;
        }
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, n, 31);
            for (unsigned l = 0; l < 2; ++l) {
                unsigned v = limits[l][0], t = limits[l][1];
                result a = peer(idx, n, xyz, vc, v, t, 0);
                result s = peer(idx, n, xyz, vc, v, t, 1);
                result g = ours(idx, n, vc, v, t);
                double ratio = (double)g.vertices / (double)a.vertices;
                sum_ratio[l] += ratio;
                rows[l]++;
                fewer_or_equal[l] += g.meshlets <= a.meshlets && g.vertices <= a.vertices;
                printf("| %s%s | %u/%u | %zu / %zu | %zu / %zu | %zu / %zu | %+.2f%% | %.1fx |\n", meshes[i],
                       shuffled ? " (shuffled)" : "", v, t, a.meshlets, a.vertices, s.meshlets, s.vertices,
                       g.meshlets, g.vertices, 100.0 * (ratio - 1), g.seconds / a.seconds);
                fflush(stdout);
            }
        }
        free(xyz);
        free(idx);
    }
    for (unsigned l = 0; l < 2; ++l)
        if (rows[l])
            printf("\n%u/%u: mean meshlet vertices %+.2f%% against meshopt_buildMeshlets; no more meshlets and no "
                   "more vertices on %d of %d rows\n",
                   limits[l][0], limits[l][1], 100.0 * (sum_ratio[l] / rows[l] - 1), fewer_or_equal[l], rows[l]);
    return 0;
}
