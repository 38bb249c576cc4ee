// SPDX-License-Identifier: MIT
/* Issue 31 item 4: gc_meshlets_build's time against meshoptimizer's meshopt_buildMeshlets
 * (cone weight 0) on igea subdivided twice (each triangle cut into 4 at its edge midpoints,
 * twice: 16 x the corpus igea's triangles, the "4.3M-triangle subdivided igea"),
 * at 64/124 and 128/256; the best of `repeat` runs each. Also the meshlets and meshlet
 * vertices, so that the speed is read with the quality. Built with the peer named by
 * -DGPUCACHE_PEER_MESHOPT only: a comparison point, the library never calls meshoptimizer.
 * usage: bench_meshlets_speed [MESH] [SUBDIVISIONS] [REPEAT]  (default ../shared/corpus/igea.ply 2 3) */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <meshoptimizer.h>
#include <string.h>

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : "../shared/corpus/igea.ply";
    int levels = argc > 2 ? atoi(argv[2]) : 2, repeat = argc > 3 ? atoi(argv[3]) : 3;
    uint32_t *idx, vc;
    size_t n;
    if (bench_load_triangles(path, &idx, &n, &vc))
        return 1;
    float* xyz = NULL;
    size_t xyz_count = 0;
    gc_error err;
    if (gc_mesh_load_positions(path, NULL, &xyz, &xyz_count, &err) || xyz_count < vc) {
        fprintf(stderr, "%s: no positions\n", path);
        return 1;
    }
    for (int l = 0; l < levels; ++l)
        if (!bench_subdivide_xyz(&idx, &n, &vc, &xyz)) {
            fprintf(stderr, "%s: out of memory subdividing\n", path);
            return 1;
        }
    printf("%s subdivided %d times: %zu triangles, %u vertices (meshoptimizer %d.%d)\n\n", path, levels, n / 3, vc,
           MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10);
    printf("| V/T | meshopt_buildMeshlets: meshlets / vertices / seconds | gpucache: meshlets / vertices / seconds | "
           "time ratio |\n|---|---|---|---|\n");
    static const unsigned limits[][2] = {{64, 124}, {128, 256}};
    for (int l = 0; l < 2; ++l) {
        unsigned v = limits[l][0], t = limits[l][1];
        double best_peer = 1e30, best_ours = 1e30;
        size_t pm = 0, pv = 0, gm = 0, gv = 0;
        for (int r = 0; r < repeat; ++r) {
            size_t cap = meshopt_buildMeshletsBound(n, v, t);
            struct meshopt_Meshlet* ml = malloc(cap * sizeof *ml);
            unsigned* mv = malloc(cap * v * sizeof *mv);
            unsigned char* mt = malloc(cap * t * 3);
            double start = now();
            pm = meshopt_buildMeshlets(ml, mv, mt, idx, n, xyz, vc, 12, v, t, 0.0f);
            double s = now() - start;
            best_peer = s < best_peer ? s : best_peer;
            pv = 0;
            for (size_t i = 0; i < pm; ++i)
                pv += ml[i].vertex_count;
            free(ml), free(mv), free(mt);

            gc_meshlet_options o = {0};
            o.max_vertices = v, o.max_triangles = t, o.local_order = 1;
            gc_meshlets m = {0};
            start = now();
            if (gc_meshlets_build(idx, n, vc, &o, &m, &err)) {
                fprintf(stderr, "gc_meshlets_build: %s\n", err.message);
                return 1;
            }
            s = now() - start;
            best_ours = s < best_ours ? s : best_ours;
            gm = m.meshlet_count, gv = m.vertex_count;
            gc_meshlets_free(&m);
        }
        printf("| %u/%u | %zu / %zu / %.3f | %zu / %zu / %.3f | %.2fx |\n", v, t, pm, pv, best_peer, gm, gv, best_ours,
               best_ours / best_peer);
        fflush(stdout);
    }
    free(idx), free(xyz);
    return 0;
}
