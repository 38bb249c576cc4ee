// SPDX-License-Identifier: MIT
/* What auto's default effort leaves out for some targets (issue 33: the default within 3
 * times meshopt_optimizeVertexCache's time with today's quality). Each was measured on the
 * corpus, the 14 meshes stored and shuffled (bench_speed's 28 rows), with auto's candidates
 * traced: one left out never decided the output on any row (it never was the cheapest of
 * the candidates, or what beat it there beat the rest too), so the output on the corpus is
 * the same without it (docs/optimizers/auto.md, "The default's lean candidates"). */
#include "optimize.h"

gc_auto_lean gc_auto_default_lean(const gc_model* targets, const gc_family_traits* traits, size_t target_count)
{
    gc_auto_lean lean = {false, false, false, false, false, 0, 0};
    if (target_count >= 3) {
        /* the four presets together: Tipsify at intel's 128 entries never won (the tuned
         * Forsyth order on 23 rows, meshoptimizer's table on 5): about half meshoptimizer's
         * time saved */
        lean.no_tipsify = true;
    }
    if (target_count != 1)
        return lean;
    if (targets[0].family == GC_MODEL_DIRECT_VALUE) {
        /* the greedy won on all 28 rows, the machine greedy after it on 3: the Forsyth
         * orders (tuned and meshoptimizer's table) never came near */
        lean.no_forsyth = true;
        /* the machine greedy's 3 rows have 12,946 triangles or fewer (fandisk stored, woody);
         * from 38,656 triangles on (beetle-alt, stanford-bunny, ogre, igea, stored and
         * shuffled) it was 0.4% to 1.5% above the greedy, at 0.9 to 1.4 times meshoptimizer's
         * time. With first-use numbering it keys the machine by the numbers the vertices will
         * have, which the greedy cannot: it stays there (auto.c). */
        lean.machine_from = GC_LEAN_LARGE_TRIANGLES; /* (the surface's largest part, as below) */
    } else if (traits[0].segment_indices) {
        /* llvmpipe: the greedy (polished) won on 27 rows, the patches on one (woody stored)
         * where the machine greedy after them did better still; polishing the winner again
         * (with the swaps between segments) never made it better */
        lean.no_patch_jobs = true;
        lean.no_winner_polish = true;
    } else if (targets[0].family == GC_MODEL_BATCH_ALL && !traits[0].batch_greedy_cheap) {
        /* batches of more than 64 vertices (intel-lower-bound): the patches won on 21 rows,
         * the greedy on 5, meshoptimizer's table on 2, the tuned Forsyth order on none */
        lean.no_tuned = true;
        /* the greedy's rows have 20,088 triangles or fewer (rocker-arm, suzanne, teapot,
         * woody); from 38,656 triangles on the patches were 1.5% to 3.5% below it (cure-block
         * 1.2% to 2.7%), and the greedy took about 2 times meshoptimizer's time; counted in
         * the surface's largest part: on many copies of a small mesh the greedy still wins,
         * as on one (tests/test_auto_lean_large.c) */
        lean.greedy_from = GC_LEAN_LARGE_TRIANGLES;
    }
    return lean;
}
