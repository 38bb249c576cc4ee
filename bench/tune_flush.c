// SPDX-License-Identifier: MIT
/* Tunes the flushed Forsyth order for nv-dx and nv-gl (gc_opt_forsyth_flush with
 * gc_flush_batch_rule_of's rule, src/optimize/forsyth_flush.c; their --effort 1): the table
 * (gc_flush_batch_scores) and the open batch's terms (gc_flush_batch_growth: held, distance and
 * distance_max). The objective is the mean change in invocations under the targets against
 * meshoptimizer's own order (its table in meshoptimizer's variant, gc_opt_score_table with
 * gc_meshopt_scores), half from the training meshes of the corpus, stored and shuffled
 * (gc_shuffle_triangles, seed 7), half from igea subdivided (bench_subdivide, as bench_speed
 * --subdivide) 1 to --subdivide times, stored and shuffled: a finely tessellated surface,
 * where the batch greedy gains three times what the flushed order did. Coordinate descent
 * over the 16 cache places, the 8 valence scores and the three terms, steps 0.1 and 0.05
 * (the terms' own steps: 0.1, 0.02, 1), each change kept only when the objective goes down.
 * Deterministic. --half even trains on the 1st, 3rd, ... of the sorted names, so that the
 * other half measures what carries over.
 * usage: tune_flush [--half even|odd|all] [--subdivide N] [--target SPEC]... [--start auto|batch|fine]
 *                   [--growth HELD,DISTANCE,DISTANCE_MAX] [--eval] [--fine-on NAME[,NAME]...]
 *                   [--from-level L] [--steps S[,S]...] [--table P0,...,P15,L1,...,L8] [CORPUS_DIR]
 * --growth starts from those terms; --eval only measures (each group, each subdivided level,
 * each subdivided mesh); --fine tunes for the subdivided rows alone (the table of a large,
 * finely tessellated mesh); --fine-on names the meshes whose subdivided copies are the
 * subdivided rows (igea.ply unless told), --from-level the first level kept as rows (the
 * earlier ones are only steps), --steps the descent's steps (0.1,0.05 unless told), --table
 * the start's 16 places and 8 valence scores (those of --start unless told).
 * Starts from gc_flush_batch_scores and the rule's terms (--start auto: auto's tuned table,
 * no terms). Progress goes to standard error; the table as forsyth_flush.c holds it, the
 * terms and the objective on both halves to standard output. docs/optimizers/auto.md has the
 * run that made the table. */
#define _POSIX_C_SOURCE 200809L
#include "tune_util.h"
#include "gpucache/gpucache.h"

enum { MAX_LEVELS = 3, MAX_TARGETS = 4 };
enum { ROWS = 2 * TUNE_MESHES * (1 + MAX_LEVELS) };

typedef struct row {
    uint32_t* indices;
    size_t triangles;
    uint32_t vertex_count;
    uint64_t reference[MAX_TARGETS]; /* meshoptimizer's order's invocations */
    int group;                       /* 0: held out, 1: training, 2: subdivided */
    int level;                       /* subdivided: how many times */
    int mesh;                        /* its index in tune_mesh_names */
} row;

static row rows[ROWS];
static int row_count;
static gc_model targets[MAX_TARGETS];
static int target_count;
static uint32_t* order;

static void die(const char* what, const char* message)
{
    tune_die("tune_flush", what, message);
}

/* The flushed order's change in invocations against meshoptimizer's order on row r, in
 * percent, summed over the targets. */
static double row_change(const gc_forsyth_scores* table, const gc_flush_growth* growth, const row* r)
{
    double sum = 0.0;
    for (int k = 0; k < target_count; ++k) {
        gc_error err;
        gc_flush_rule rule;
        uint64_t invocations = 0;
        gc_flush_batch_rule_of(&targets[k], 0, &rule);
        if (gc_opt_forsyth_flush_grown(r->indices, r->triangles, r->vertex_count, table, &rule, growth, order, &err) ||
            gc_kerbl_order_cost(r->indices, r->triangles, r->vertex_count, &targets[k], order, &invocations, &err))
            die("flushed order", err.message);
        sum += 100.0 * ((double)invocations - (double)r->reference[k]) / (double)r->reference[k];
    }
    return sum;
}

/* The mean change in invocations (percent) against meshoptimizer over the rows of `group`,
 * over the targets. */
static double group_mean(const gc_forsyth_scores* table, const gc_flush_growth* growth, int group)
{
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < row_count; ++i) {
        const row* r = &rows[i];
        if (group >= 10 ? r->group != 2 || r->level != group - 10 : r->group != group)
            continue;
        sum += row_change(table, growth, r);
        count += target_count;
    }
    return count ? sum / count : 0.0;
}

/* The mean over the subdivided rows of mesh `mesh` at level `level` (--eval). */
static double mesh_mean(const gc_forsyth_scores* table, const gc_flush_growth* growth, int mesh, int level)
{
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < row_count; ++i) {
        const row* r = &rows[i];
        if (r->group != 2 || r->mesh != mesh || r->level != level)
            continue;
        sum += row_change(table, growth, r);
        count += target_count;
    }
    return count ? sum / count : 0.0;
}

/* Whether `name` is one of the comma-separated names of `list`. */
static int listed(const char* list, const char* name)
{
    const size_t n = strlen(name);
    for (const char* p = list; *p;) {
        const char* end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

/* The objective: the training half's mean and the subdivided rows' mean, weighted alike. */
static int subdivided_only; /* --fine: the objective is the subdivided rows' mean alone */

static double objective(const gc_forsyth_scores* table, const gc_flush_growth* growth, int levels)
{
    if (subdivided_only && levels)
        return group_mean(table, growth, 2);
    const double train = group_mean(table, growth, 1);
    return levels ? 0.5 * (train + group_mean(table, growth, 2)) : train;
}

/* Entry j: the cache places, the valence scores, then the three terms. */
static float* entry(gc_forsyth_scores* s, gc_flush_growth* growth, uint32_t j)
{
    const uint32_t table = s->cache_size + s->live_count - 1;
    if (j < s->cache_size)
        return &s->position[j];
    if (j < table)
        return &s->live[j - s->cache_size + 1];
    return j == table ? &growth->held : j == table + 1 ? &growth->distance : &growth->distance_max;
}

static void add_rows(const uint32_t* indices, size_t index_count, uint32_t vertex_count, int group, int level,
                     int mesh)
{
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        row* r = &rows[row_count++];
        uint32_t* reference;
        r->indices = tune_row_copy("tune_flush", indices, index_count, vertex_count, shuffled, &reference);
        r->triangles = index_count / 3;
        r->vertex_count = vertex_count;
        r->group = group;
        r->level = level;
        r->mesh = mesh;
        gc_error err;
        for (int k = 0; k < target_count; ++k)
            if (gc_kerbl_order_cost(r->indices, r->triangles, vertex_count, &targets[k], reference,
                                    &r->reference[k], &err))
                die("meshoptimizer's order", err.message);
        free(reference);
    }
}

int main(int argc, char** argv)
{
    const char* corpus = "../shared/corpus";
    const char* half = "even";
    const char* start = "batch";
    int levels = 1, eval_only = 0, growth_given = 0, from_level = 1, step_count = 2;
    float steps[4] = {0.1f, 0.05f, 0.0f, 0.0f};
    const char* table_given = NULL; /* --table: the 16 places and the 8 valence scores */
    const char* fine_on = "igea.ply"; /* the meshes whose subdivided copies are rows */
    gc_flush_growth given = gc_flush_batch_growth;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--half") == 0 && i + 1 < argc)
            half = argv[++i];
        else if (strcmp(argv[i], "--eval") == 0)
            eval_only = 1;
        else if (strcmp(argv[i], "--fine") == 0)
            subdivided_only = 1;
        else if (strcmp(argv[i], "--fine-on") == 0 && i + 1 < argc)
            fine_on = argv[++i];
        else if (strcmp(argv[i], "--from-level") == 0 && i + 1 < argc)
            from_level = atoi(argv[++i]);
        else if (strcmp(argv[i], "--table") == 0 && i + 1 < argc)
            table_given = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            step_count = sscanf(argv[++i], "%f,%f,%f,%f", &steps[0], &steps[1], &steps[2], &steps[3]);
            for (int k = 0; k < step_count; ++k)
                if (!(steps[k] > 0.0f && steps[k] <= 1.0f))
                    step_count = 0;
            if (step_count < 1)
                die(argv[i], "--steps wants 1 to 4 steps, each in (0, 1]");
        }
        else if (strcmp(argv[i], "--growth") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%f,%f,%f", &given.held, &given.distance, &given.distance_max) != 3 ||
                !(given.held >= 0.0f) || !(given.distance >= 0.0f) || !(given.distance_max >= 0.0f))
                die(argv[i], "--growth wants HELD,DISTANCE,DISTANCE_MAX, none negative");
            growth_given = 1;
        }
        else if (strcmp(argv[i], "--subdivide") == 0 && i + 1 < argc)
            levels = atoi(argv[++i]);
        else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc)
            start = argv[++i];
        else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
            gc_error err;
            if (target_count == MAX_TARGETS)
                die(argv[i + 1], "too many targets");
            if (gc_model_parse(argv[++i], &targets[target_count], &err))
                die(argv[i], err.message);
            gc_flush_rule rule;
            if (!gc_flush_batch_rule_of(&targets[target_count++], 0, &rule))
                die(argv[i], "not an nv-dx or nv-gl target");
        } else if (argv[i][0] == '-')
            die(argv[i], "unknown option (--half even|odd|all, --subdivide N, --target SPEC, --start auto|batch|fine, "
                         "--growth H,D,M, --eval, --fine, --fine-on NAME[,NAME]..., --from-level L, --steps S[,S]..., --table P0,...,L8)");
        else
            corpus = argv[i];
    }
    if (strcmp(start, "auto") && strcmp(start, "batch") && strcmp(start, "fine"))
        die("--start", "must be auto, batch or fine");
    if (levels < 0 || levels > MAX_LEVELS)
        die("--subdivide", "must be 0 to 3");
    if (from_level < 1 || (levels > 0 && from_level > levels))
        die("--from-level", "must be 1 to --subdivide's levels");
    for (const char* p = fine_on; *p;) { /* every name --fine-on gives is a corpus mesh */
        const char* end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        int known = 0;
        for (int i = 0; i < TUNE_MESHES; ++i)
            known |= strlen(tune_mesh_names[i]) == len && strncmp(p, tune_mesh_names[i], len) == 0;
        if (!known)
            die(fine_on, "--fine-on names a mesh that is not one of the corpus's");
        p += len + (end != NULL);
    }
    if (target_count == 0) {
        gc_error err;
        gc_flush_rule rule;
        if (gc_model_parse("nv-dx", &targets[0], &err) || gc_model_parse("nv-gl", &targets[1], &err) ||
            !gc_flush_batch_rule_of(&targets[0], 0, &rule))
            die("nv-dx", "no rule");
        target_count = 2;
    }
    size_t largest = 0;
    for (int i = 0; i < TUNE_MESHES; ++i) {
        const int training = tune_training("tune_flush", half, i);
        uint32_t* indices;
        size_t index_count;
        uint32_t vertex_count;
        tune_load("tune_flush", corpus, i, &indices, &index_count, &vertex_count);
        largest = index_count > largest ? index_count : largest;
        add_rows(indices, index_count, vertex_count, training, 0, i);
        if (listed(fine_on, tune_mesh_names[i]))
            for (int l = 1; l <= levels; ++l) {
                if (!bench_subdivide(&indices, &index_count, &vertex_count))
                    die(tune_mesh_names[i], "out of memory subdividing it");
                largest = index_count > largest ? index_count : largest;
                if (l >= from_level)
                    add_rows(indices, index_count, vertex_count, 2, l, i);
            }
        free(indices);
    }
    order = malloc(largest / 3 * sizeof *order + 4);
    if (!order)
        die("order", "out of memory");

    gc_forsyth_scores s = strcmp(start, "auto") == 0   ? gc_auto_tuned_scores
                          : strcmp(start, "fine") == 0 ? gc_flush_fine_scores
                                                       : gc_flush_batch_scores;
    gc_flush_growth growth = strcmp(start, "fine") == 0 ? gc_flush_fine_growth : gc_flush_batch_growth;
    if (strcmp(start, "auto") == 0)
        growth.held = growth.distance = 0.0f;
    if (growth_given)
        growth = given;
    if (table_given) { /* P0,...,P15,L1,...,L8 */
        const char* p = table_given;
        const uint32_t n = s.cache_size + s.live_count - 1;
        for (uint32_t j = 0; j < n; ++j) {
            char* end;
            const float x = strtof(p, &end);
            if (end == p || !(x >= -4.0f && x <= 4.0f) || (j + 1 < n ? *end != ',' : *end != '\0'))
                die(table_given, "--table wants 24 numbers (16 places, 8 valence scores), commas between");
            *entry(&s, &growth, j) = x;
            p = end + (j + 1 < n);
        }
    }
    if (eval_only) { /* the three groups' means and each subdivided level's, no tuning */
        printf("held %.3f, distance %.3f, distance_max %.0f: training %.4f%%, held out %.4f%%", (double)growth.held,
               (double)growth.distance, (double)growth.distance_max, group_mean(&s, &growth, 1),
               group_mean(&s, &growth, 0));
        for (int l = from_level; l <= levels; ++l)
            printf(", subdivided %d %.4f%%", l, group_mean(&s, &growth, 10 + l));
        printf("\n");
        for (int i = 0; i < TUNE_MESHES; ++i)
            for (int l = from_level; l <= levels && listed(fine_on, tune_mesh_names[i]); ++l)
                printf("  %s subdivided %d: %.4f%%\n", tune_mesh_names[i], l, mesh_mean(&s, &growth, i, l));
        for (int i = 0; i < row_count; ++i)
            free(rows[i].indices);
        free(order);
        return 0;
    }
    double best = objective(&s, &growth, levels);
    fprintf(stderr, "start: %.4f%% (training %.4f%%, subdivided %.4f%%, held out %.4f%%)\n", best,
            group_mean(&s, &growth, 1), group_mean(&s, &growth, 2), group_mean(&s, &growth, 0));
    const uint32_t entries = s.cache_size + s.live_count - 1 + 3;
    for (int si = 0; si < step_count; ++si)
        for (int improved = 1; improved;) {
            improved = 0;
            for (uint32_t j = 0; j < entries; ++j)
                for (int dir = -1; dir <= 1; dir += 2) {
                    float* x = entry(&s, &growth, j);
                    const float old = *x;
                    /* the terms' steps: held as the table, distance a fifth, its cap whole steps */
                    const float step = j == entries - 2 ? steps[si] / 5.0f : j == entries - 1 ? 1.0f : steps[si];
                    *x = old + (float)dir * step;
                    if (*x < 0.0f && j >= entries - 2) {
                        *x = old;
                        continue;
                    }
                    const double v = objective(&s, &growth, levels);
                    if (v < best - 1e-9) {
                        best = v, improved = 1;
                        fprintf(stderr, "step %.2f, entry %u %+.3f: %.4f%%\n", (double)steps[si], j,
                                (double)dir * step, best);
                    } else {
                        *x = old;
                    }
                }
        }
    printf("/* tune_flush --half %s --subdivide %d: objective %.4f%% (training %.4f%%, subdivided %.4f%%), held out "
           "%.4f%% */\n",
           half, levels, best, group_mean(&s, &growth, 1), group_mean(&s, &growth, 2), group_mean(&s, &growth, 0));
    printf("{%u, %u,\n {", s.cache_size, s.live_count);
    for (uint32_t p = 0; p < s.cache_size; ++p)
        printf("%s%.3ff", p ? ", " : "", (double)s.position[p]);
    printf("},\n {0.0f");
    for (uint32_t n = 1; n < s.live_count; ++n)
        printf(", %.3ff", (double)s.live[n]);
    printf("}}\nheld %.3f, distance %.3f, distance_max %.0f\n", (double)growth.held, (double)growth.distance,
           (double)growth.distance_max);
    for (int i = 0; i < row_count; ++i)
        free(rows[i].indices);
    free(order);
    return 0;
}
