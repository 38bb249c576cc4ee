/* gpucache models: the model families and the presets. */
#include "gpucache/gpucache.h"

#include "commands.h"

#include <stdio.h>

int cmd_models(void)
{
    printf("families:\n");
    printf("  fifo:N                          FIFO of N entries; a hit does not refresh (seeds 000-002)\n");
    printf("  lru:N                           least recently used, N entries (seeds 000, 002)\n");
    printf("  direct-value:N                  slot = index value mod N (seed 000)\n");
    printf("  direct-position:N               slot = stream position mod N (seed 000)\n");
    printf("  nvidia[:size=,idle=,life=]      seed 000's probed NVIDIA rules (32, 16, 32)\n");
    printf("  meshopt:C,W,P                   meshoptimizer 0.18's analyzer (cache, warp, primitive group)\n");
    printf("  reuse:W,F,T                     seed 002's warp reuse (warp, compare window, triangles)\n");
    printf("  batch[:slots=,prims=]           seed 004's data assembler batches (32 slots)\n");
    printf("  llvmpipe[:segment=,map=]        Mesa's draw module (llvmpipe, lavapipe): 1024-index segments,\n"
           "                                  256-entry direct-mapped fetch table (measured on lavapipe)\n");
    printf("  nv-dx[:indices=,vertices=]      Kerbl et al. 2018's NVIDIA Direct3D batches (96 indices, 32\n"
           "                                  invocations; reuse window by the slot of the last use)\n");
    printf("  nv-gl[:indices=,vertices=,window=]\n"
           "                                  the same under OpenGL: a fixed 42-index window\n");
    printf("  batch-all[:indices=,vertices=,reset=]\n"
           "                                  Kerbl et al.'s full reuse inside batches (Intel bound 1791, 128)\n");
    printf("  ati[:lru=,vertices=,reset=]     Kerbl et al.'s AMD rule: LRU 15, 64-invocation batches cut inside\n"
           "                                  triangles, hard reset every 384 indices\n");
    printf("presets:\n");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        printf("  %-15s = %-17s %s\n", name, spec, source);
    }
    return 0;
}
