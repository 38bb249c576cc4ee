// SPDX-License-Identifier: MIT
/* Tunes the table of meshoptimizer's variant told of seed 004's batches
 * (gc_opt_score_table_batch, src/optimize/score_table.c) and the bonus of a vertex the open
 * batch holds, for a lone `batch` target (issue 33). The objective is the mean change in
 * invocations under the target against meshoptimizer's own order (its table in the variant,
 * gc_opt_score_table with gc_meshopt_scores: the order meshopt_optimizeVertexCache gives on
 * the corpus), over the training meshes stored and shuffled (gc_shuffle_triangles, seed 7, as
 * bench_speed shuffles them). The search is coordinate descent over the 16 cache places, the 8
 * valence scores and the bonus, steps 0.2, 0.1 and 0.05, each change kept only when the
 * objective goes down. Deterministic. The training meshes are half of the corpus (--half even:
 * the 1st, 3rd, ... of the sorted names), so that the other half measures what carries over.
 * usage: tune_batch_told [--half even|odd|all] [--spec SPEC] [CORPUS_DIR]
 * Starts from auto's tuned table (gc_auto_tuned_scores) and a bonus of 0.5. Progress goes to
 * standard error; the table, as the C initializer score_table.c holds, the bonus and the
 * objective on both halves to standard output. docs/optimizers/auto.md ("batch told") has
 * the run that made gc_batch_told_scores. */
#define _POSIX_C_SOURCE 200809L
#include "tune_util.h"
#include "gpucache/gpucache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 2 * TUNE_MESHES };

typedef struct row {
    uint32_t* indices;
    size_t triangles;
    uint32_t vertex_count;
    uint64_t reference; /* meshoptimizer's order's invocations */
    int training;
} row;

static row rows[ROWS];
static int row_count;
static gc_model target;
static uint32_t* order;

static void die(const char* what, const char* message)
{
    tune_die("tune_batch_told", what, message);
}

/* The mean change in invocations (percent) against meshoptimizer over the training (or the
 * held-out) rows. */
static double objective(const gc_forsyth_scores* table, float bonus, int training)
{
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < row_count; ++i) {
        const row* r = &rows[i];
        if (r->training != training)
            continue;
        gc_error err;
        uint64_t invocations = 0;
        if (gc_opt_score_table_batch(r->indices, r->triangles, r->vertex_count, table, &target, bonus, order,
                                     &invocations, &err))
            die("told order", err.message);
        sum += 100.0 * ((double)invocations - (double)r->reference) / (double)r->reference;
        count++;
    }
    return count ? sum / count : 0.0;
}

static float* entry(gc_forsyth_scores* s, uint32_t j)
{
    return j < s->cache_size ? &s->position[j] : &s->live[j - s->cache_size + 1];
}

int main(int argc, char** argv)
{
    const char* corpus = "../shared/corpus";
    const char* half = "even";
    const char* spec = "batch";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--half") == 0 && i + 1 < argc)
            half = argv[++i];
        else if (strcmp(argv[i], "--spec") == 0 && i + 1 < argc)
            spec = argv[++i];
        else if (argv[i][0] == '-')
            die(argv[i], "unknown option (--half even|odd|all, --spec SPEC)");
        else
            corpus = argv[i];
    }
    gc_error err;
    if (gc_model_parse(spec, &target, &err))
        die(spec, err.message);
    if (target.family != GC_MODEL_BATCH)
        die(spec, "not a batch target");
    size_t largest = 0;
    for (int i = 0; i < TUNE_MESHES; ++i) {
        const int training = tune_training("tune_batch_told", half, i);
        uint32_t* indices;
        size_t index_count;
        uint32_t vertex_count;
        tune_load("tune_batch_told", corpus, i, &indices, &index_count, &vertex_count);
        largest = index_count > largest ? index_count : largest;
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            row* r = &rows[row_count++];
            uint32_t* reference;
            r->indices = tune_row_copy("tune_batch_told", indices, index_count, vertex_count, shuffled, &reference);
            r->triangles = index_count / 3;
            r->vertex_count = vertex_count;
            r->training = training;
            if (gc_batch_order_cost(r->indices, r->triangles, r->vertex_count, target.p[0], target.p[1], reference,
                                    &r->reference, &err))
                die(tune_mesh_names[i], err.message);
            free(reference);
        }
        free(indices);
    }
    order = malloc(largest / 3 * sizeof *order + 4);
    if (!order)
        die("order", "out of memory");

    gc_forsyth_scores s = gc_auto_tuned_scores;
    float bonus = 0.5f;
    double best = objective(&s, bonus, 1);
    fprintf(stderr, "start: training %.4f%%\n", best);
    const uint32_t entries = s.cache_size + s.live_count - 1;
    static const float steps[] = {0.2f, 0.1f, 0.05f};
    for (size_t si = 0; si < sizeof steps / sizeof steps[0]; ++si)
        for (int improved = 1; improved;) {
            improved = 0;
            for (uint32_t j = 0; j <= entries; ++j) /* the table's entries, then the bonus */
                for (int dir = -1; dir <= 1; dir += 2) {
                    float* x = j < entries ? entry(&s, j) : &bonus;
                    const float old = *x;
                    *x = old + (float)dir * steps[si];
                    const double v = objective(&s, bonus, 1);
                    if (v < best - 1e-9) {
                        best = v, improved = 1;
                        fprintf(stderr, "step %.2f, entry %u %+.2f: training %.4f%%\n", (double)steps[si], j,
                                (double)dir * steps[si], best);
                    } else {
                        *x = old;
                    }
                }
        }
    const double held = objective(&s, bonus, 0);
    printf("/* tune_batch_told --half %s --spec %s: training %.4f%%, held out %.4f%%, bonus %.2f */\n", half, spec, best,
           held, (double)bonus);
    printf("{%u, %u,\n {", s.cache_size, s.live_count);
    for (uint32_t p = 0; p < s.cache_size; ++p)
        printf("%s%.3ff", p ? ", " : "", (double)s.position[p]);
    printf("},\n {0.0f");
    for (uint32_t n = 1; n < s.live_count; ++n)
        printf(", %.3ff", (double)s.live[n]);
    printf("}}\n");
    for (int i = 0; i < row_count; ++i)
        free(rows[i].indices);
    free(order);
    return 0;
}
