// SPDX-License-Identifier: MIT
/* The reference figures for tests/test_vertexpipe.c: meshopt_analyzeOverdraw of meshoptimizer
 * 1.2 (built from its source with its own CMake; GPUCACHE_PEER_MESHOPT) on each corpus mesh in
 * its stored order and shuffled, as a TSV (data/peer/meshopt-1.2-overdraw.tsv). Debian's 0.18
 * cannot serve: its depth gradients apply 1/det to one term only (fixed before 1.2), so its
 * depth test differs from the definition (docs/models/overdraw.md).
 * usage: peer_overdraw CORPUS_DIR > data/peer/meshopt-1.2-overdraw.tsv */
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_io.h"

static const char* const meshes[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                     "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                     "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                     "teapot.obj",    "woody.obj"};

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peer_overdraw CORPUS_DIR\n");
        return 2;
    }
    printf("# meshopt_analyzeOverdraw, meshoptimizer %d.%d; seed 0: stored order, else gc_shuffle_triangles(seed)\n",
           MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10);
    printf("mesh\tseed\tcovered\tshaded\n");
    for (size_t c = 0; c < sizeof meshes / sizeof meshes[0]; ++c) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], meshes[c]);
        gc_error err;
        size_t n = 0, vertices = 0;
        uint32_t* idx = NULL;
        float* xyz = NULL;
        if (gc_mesh_load_triangles(path, NULL, &idx, &n, NULL, &err) != GC_OK ||
            gc_mesh_load_positions(path, NULL, &xyz, &vertices, &err) != GC_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        for (uint64_t seed = 0; seed <= 7 + c; seed += 7 + c) {
            if (seed)
                gc_shuffle_triangles(idx, n, seed);
            struct meshopt_OverdrawStatistics s = meshopt_analyzeOverdraw(idx, n, xyz, vertices, 12);
            printf("%s\t%llu\t%u\t%u\n", meshes[c], (unsigned long long)seed, s.pixels_covered, s.pixels_shaded);
        }
        free(idx), free(xyz);
    }
    return 0;
}
