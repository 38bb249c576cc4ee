// SPDX-License-Identifier: MIT
/* The families' own Forsyth score tables for auto's --effort 1 (issue 33): 16 LRU position
 * scores, then those of 1..8 remaining triangles, as auto's tuned table (score_table.c),
 * each tuned by bench/tune_scores for one family's preset alone (`--only SPEC --half
 * even`), starting from auto's tuned table. The same algorithm runs them, so they take the
 * same time as that table. A family's traits (families.c) give a model the table tuned for
 * it; the commands and their results on both halves of the corpus are in
 * docs/optimizers/auto.md. */
#include "models.h"

/* lru:16: training mean ATVR 1.2954 -> 1.2754, held out 1.2696. */
const float gc_family_scores_lru16[GC_FAMILY_SCORES] = {
    0.679f, 0.761f, 0.789f, 0.931f,  0.843f, 0.626f, 0.847f, 0.882f, 0.867f, 0.799f, 0.792f, 0.833f,
    0.750f, 0.828f, 0.782f, -0.256f, 1.295f, 0.663f, 0.450f, 0.254f, 0.059f, 0.005f, -0.053f, 0.036f};
