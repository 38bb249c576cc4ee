// SPDX-License-Identifier: MIT
/* Tunes the score tables of auto's Forsyth-style candidate order (gc_opt_forsyth_scored):
 * a modelled LRU cache of N positions, each with a score, plus a score per number of
 * remaining triangles (1..8, the last for 8 and more). The objective is the sum, over
 * fifo:16, intel, nvidia-kepler, nvidia-pascal and amd-gcn, of the mean ATVR over the
 * training meshes; the search is coordinate descent (steps 0.2 down to 0.02) and then
 * random perturbations of three entries at a time, each kept only when the objective goes
 * down. Deterministic. The training meshes are half of the corpus (--half even: the 1st,
 * 3rd, ... of the sorted names), so that the other half measures what carries over.
 * usage: tune_scores [--cache N] [--half even|odd|all] [--perturb K] [--init FILE] [--only MODEL]
 *                    [CORPUS_DIR]
 * --only: the objective is that one model alone: one of the five, or any other spec
 * (lru:16, ati-basic, ...; then only it is measured).
 * Progress goes to standard error; the table, as the C initializer src/optimize/auto.c holds, and
 * the objective on both halves go to standard output. docs/optimizers/auto.md has the run
 * that made auto's table. */
#define _POSIX_C_SOURCE 200809L
#include "tune_util.h"
#include "gpucache/gpucache.h"
#include "optimize/optimize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODELS 5
#define LIVE 9 /* live[1..8] */
static const char* const model_names[MODELS] = {"fifo:16", "intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};
typedef struct mesh {
    uint32_t* indices;
    size_t index_count;
    uint32_t vertex_count;
    int training;
} mesh;

static gc_model models[MODELS + 1]; /* the five, and --only's spec when it is none of them */
static const char* model_label[MODELS + 1];
static int model_count = MODELS;
static int only = -1; /* the one model of the objective, or -1 for all five */
static mesh meshes[TUNE_MESHES];
static int mesh_count;
static uint32_t *order, *expanded;

static void die(const char* what, const char* message)
{
    tune_die("tune_scores", what, message);
}

/* Mean ATVR per model over the training (or the held-out) meshes; returns their sum. */
static double objective(const gc_forsyth_scores* scores, int training, double per_model[MODELS + 1])
{
    double sum[MODELS + 1] = {0};
    int count = 0;
    for (int i = 0; i < mesh_count; ++i) {
        const mesh* m = &meshes[i];
        if (m->training != training)
            continue;
        gc_error err;
        size_t triangles = m->index_count / 3;
        if (gc_opt_forsyth_scored(m->indices, triangles, m->vertex_count, scores, order, NULL, &err))
            die("forsyth", err.message);
        for (size_t t = 0; t < triangles; ++t)
            memcpy(expanded + 3 * t, m->indices + 3 * (size_t)order[t], 3 * sizeof *expanded);
        gc_draw d = {expanded, m->index_count, GC_TRIANGLE_LIST, 0, 0};
        for (int k = 0; k < model_count; ++k) {
            if (only >= 0 && only != k)
                continue;
            gc_stats st;
            if (gc_analyze(&models[k], &d, NULL, &st, &err))
                die("analyze", err.message);
            sum[k] += st.atvr;
        }
        count++;
    }
    double total = 0.0;
    for (int k = 0; k < model_count; ++k) {
        double mean = count ? sum[k] / count : 0.0;
        if (per_model)
            per_model[k] = mean;
        if (only < 0 || only == k)
            total += mean;
    }
    return total;
}

static float* entry(gc_forsyth_scores* s, uint32_t j)
{
    return j < s->cache_size ? &s->position[j] : &s->live[j - s->cache_size + 1];
}

static void report(const char* label, const gc_forsyth_scores* s, double value)
{
    double per[MODELS + 1];
    objective(s, 1, per);
    fprintf(stderr, "%s: %.4f (", label, value);
    for (int k = 0, first = 1; k < model_count; ++k)
        if (only < 0 || only == k) {
            fprintf(stderr, "%s%s %.4f", first ? "" : ", ", model_label[k], per[k]);
            first = 0;
        }
    fprintf(stderr, ")\n");
}

int main(int argc, char** argv)
{
    const char* corpus = "../shared/corpus";
    const char* init = NULL;
    const char* half = "even";
    uint32_t cache = 16;
    long perturbations = 400;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
            cache = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--half") == 0 && i + 1 < argc)
            half = argv[++i];
        else if (strcmp(argv[i], "--perturb") == 0 && i + 1 < argc)
            perturbations = atol(argv[++i]);
        else if (strcmp(argv[i], "--init") == 0 && i + 1 < argc)
            init = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            ++i;
            for (int k = 0; k < MODELS; ++k)
                if (strcmp(argv[i], model_names[k]) == 0)
                    only = k;
            if (only < 0) { /* any other spec: the objective is that model alone */
                model_label[MODELS] = argv[i];
                model_count = MODELS + 1;
                only = MODELS;
            }
        }
        else if (argv[i][0] == '-')
            die(argv[i], "unknown option (--cache N, --half even|odd|all, --perturb K, --init FILE, --only MODEL)");
        else
            corpus = argv[i];
    }
    if (cache < 4 || cache > 64)
        die("--cache", "must be in [4, 64]");
    for (int k = 0; k < MODELS; ++k)
        model_label[k] = model_names[k];
    for (int k = 0; k < model_count; ++k) {
        gc_error err;
        if (gc_model_parse(model_label[k], &models[k], &err))
            die(model_label[k], err.message);
    }
    size_t largest = 0;
    for (int i = 0; i < TUNE_MESHES; ++i) {
        mesh* m = &meshes[mesh_count++];
        m->training = tune_training("tune_scores", half, i);
        tune_load("tune_scores", corpus, i, &m->indices, &m->index_count, &m->vertex_count);
        largest = m->index_count > largest ? m->index_count : largest;
    }
    order = malloc(largest / 3 * sizeof *order);
    expanded = malloc(largest * sizeof *expanded);
    if (!order || !expanded)
        die("tables", "out of memory");

    /* Start: Forsyth's curves at this cache size. */
    gc_forsyth_scores s;
    memset(&s, 0, sizeof s);
    s.cache_size = cache;
    s.live_count = LIVE;
    for (uint32_t p = 0; p < cache; ++p)
        s.position[p] = p < 3 ? 0.75f : powf(1.0f - (float)(p - 3) / (float)(cache - 3), 1.5f);
    for (int n = 1; n < LIVE; ++n)
        s.live[n] = 2.0f * powf((float)n, -0.5f);
    if (init) {
        FILE* f = fopen(init, "r");
        if (!f)
            die(init, "cannot open");
        for (uint32_t j = 0; j < cache + LIVE - 1; ++j)
            if (fscanf(f, "%f", entry(&s, j)) != 1)
                die(init, "expected cache + 8 numbers");
        fclose(f);
    }
    const uint32_t entries = cache + LIVE - 1;
    double best = objective(&s, 1, NULL);
    report("start", &s, best);

    static const float steps[] = {0.2f, 0.1f, 0.05f, 0.02f};
    for (size_t si = 0; si < sizeof steps / sizeof steps[0]; ++si) {
        for (int round = 0, improved = 1; improved && round < 4; ++round) {
            improved = 0;
            for (uint32_t j = 0; j < entries; ++j)
                for (int dir = -1; dir <= 1; dir += 2) {
                    float* x = entry(&s, j);
                    float old = *x;
                    *x = old + (float)dir * steps[si];
                    double v = objective(&s, 1, NULL);
                    if (v < best - 1e-9)
                        best = v, improved = 1;
                    else
                        *x = old;
                }
            char label[64];
            snprintf(label, sizeof label, "step %.2f, round %d", steps[si], round + 1);
            report(label, &s, best);
        }
    }
    uint64_t rng = 0x853c49e6748fea9bULL;
    for (long it = 0; it < perturbations; ++it) {
        gc_forsyth_scores t = s;
        for (int r = 0; r < 3; ++r) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t j = (uint32_t)((rng >> 33) % entries);
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            *entry(&t, j) += ((float)((rng >> 40) & 0xFFFF) / 65535.0f - 0.5f) * 0.3f;
        }
        double v = objective(&t, 1, NULL);
        if (v < best - 1e-9) {
            best = v;
            s = t;
            char label[64];
            snprintf(label, sizeof label, "perturbation %ld", it + 1);
            report(label, &s, best);
        }
    }

    double train[MODELS + 1], held[MODELS + 1];
    double train_sum = objective(&s, 1, train), held_sum = objective(&s, 0, held);
    printf("/* tune_scores --cache %u --half %s --perturb %ld: training %.4f, held out %.4f */\n", cache, half,
           perturbations, train_sum, held_sum);
    printf("{%u, %d,\n {", cache, LIVE);
    for (uint32_t p = 0; p < cache; ++p)
        printf("%s%.3ff", p ? ", " : "", (double)s.position[p]);
    printf("},\n {0.0f");
    for (int n = 1; n < LIVE; ++n)
        printf(", %.3ff", (double)s.live[n]);
    printf("}}\n");
    for (int k = 0; k < model_count; ++k)
        if (only < 0 || only == k)
            printf("%-14s training %.4f  held out %.4f\n", model_label[k], train[k], held[k]);
    for (int i = 0; i < mesh_count; ++i)
        free(meshes[i].indices);
    free(order);
    free(expanded);
    return 0;
}
