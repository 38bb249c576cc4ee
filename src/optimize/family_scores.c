// SPDX-License-Identifier: MIT
/* The families' own Forsyth score tables for auto's --effort 1 (issue 33): 16 LRU positions
 * and 1..8 remaining triangles, as gc_auto_tuned_scores (score_table.c), each tuned by
 * bench/tune_scores for one family's preset alone (`--only SPEC --half even`), starting
 * from gc_auto_tuned_scores. The same algorithm, so the same time as that table. The
 * commands and their results on both halves of the corpus are in docs/optimizers/auto.md;
 * a family's row in src/models/families.c points at its table. */
#include "optimize.h"
#include "../models/models.h"

/* lru:16 (order_cache: the entries, 16). */
const gc_family_scores gc_family_scores_lru = {
    16,
    {16, 9,
     {0.679f, 0.761f, 0.789f, 0.931f, 0.843f, 0.626f, 0.847f, 0.882f, 0.867f, 0.799f, 0.792f, 0.833f, 0.750f, 0.828f,
      0.782f, -0.256f},
     {0.0f, 1.295f, 0.663f, 0.450f, 0.254f, 0.059f, 0.005f, -0.053f, 0.036f}}};

