// SPDX-License-Identifier: MIT
/* gpucache's optimizers against meshoptimizer's, side by side in one process: on every
 * corpus mesh, generated grids and a shuffled copy of each, the ATVR each order gets
 * under fifo:16, intel, nvidia-kepler, nvidia-pascal and amd-gcn, and the speed of each
 * optimizer in million triangles per second (median of several runs).
 * usage: bench_optimize [--runs N] [--quick] [--effort E] [--verbose] [CORPUS_DIR]
 * Prints Markdown tables: mean ATVR per optimizer and model, then speeds. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include <meshoptimizer.h>

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MODELS 5
static const char* const model_names[MODELS] = {"fifo:16", "intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};

typedef struct mesh {
    char name[160];
    uint32_t* idx;
    size_t n;
    uint32_t vertices;
} mesh;

enum { ORIGINAL, MESHOPT, MESHOPT_FIFO, TIPSIFY, FORSYTH, AUTO, AUTO_SINGLE, ALGOS = AUTO_SINGLE + MODELS };
static const char* algo_name(int a)
{
    static char buf[64];
    switch (a) {
    case ORIGINAL: return "original";
    case MESHOPT: return "meshopt_optimizeVertexCache";
    case MESHOPT_FIFO: return "meshopt_optimizeVertexCacheFifo(16)";
    case TIPSIFY: return "gpucache tipsify (k=16)";
    case FORSYTH: return "gpucache forsyth (32)";
    case AUTO: return "gpucache auto (4 presets)";
    default: snprintf(buf, sizeof buf, "gpucache auto -m %s", model_names[a - AUTO_SINGLE]); return buf;
    }
}

static int runs = 5;
static unsigned effort = 0;
static gc_model models[MODELS];

/* Runs algorithm a on m into out; returns the median seconds. */
static double optimize(int a, const mesh* m, uint32_t* out)
{
    double t[64];
    int r = (a >= AUTO) ? (runs < 3 ? runs : 3) : runs;
    for (int i = 0; i < r; ++i) {
        gc_error err;
        gc_optimize_options o = {0};
        o.effort = effort;
        double t0 = now();
        switch (a) {
        case ORIGINAL: memcpy(out, m->idx, m->n * sizeof *out); break;
        case MESHOPT: meshopt_optimizeVertexCache(out, m->idx, m->n, m->vertices); break;
        case MESHOPT_FIFO: meshopt_optimizeVertexCacheFifo(out, m->idx, m->n, m->vertices, 16); break;
        default: {
            gc_optimizer alg = a == TIPSIFY ? GC_OPT_TIPSIFY : a == FORSYTH ? GC_OPT_FORSYTH : GC_OPT_AUTO;
            if (a >= AUTO_SINGLE) {
                o.targets = &models[a - AUTO_SINGLE];
                o.target_count = 1;
            }
            if (gc_optimize(alg, m->idx, m->n, m->vertices, &o, out, &err)) {
                fprintf(stderr, "%s: %s: %s\n", m->name, algo_name(a), err.message);
                exit(1);
            }
        }
        }
        t[i] = now() - t0;
    }
    return median(t, r);
}

static double atvr(int model, const uint32_t* idx, size_t n)
{
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(&models[model], &d, NULL, &st, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return st.atvr;
}

static int add_mesh(mesh* list, int count, const char* name, uint32_t* idx, size_t n)
{
    uint32_t max = 0;
    for (size_t i = 0; i < n; ++i)
        max = idx[i] > max ? idx[i] : max;
    mesh* m = &list[count];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->idx = idx;
    m->n = n;
    m->vertices = max + 1;
    /* and a shuffled copy */
    mesh* s = &list[count + 1];
    snprintf(s->name, sizeof s->name, "%s (shuffled)", name);
    s->idx = malloc(n * sizeof *idx);
    memcpy(s->idx, idx, n * sizeof *idx);
    gc_shuffle_triangles(s->idx, n, 7);
    s->n = n;
    s->vertices = m->vertices;
    return count + 2;
}

int main(int argc, char** argv)
{
    const char* corpus = "../shared/corpus";
    int quick = 0, verbose = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--effort") == 0 && i + 1 < argc)
            effort = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else
            corpus = argv[i];
    }
    if (runs < 1 || runs > 63)
        runs = 5;
    for (int k = 0; k < MODELS; ++k) {
        gc_error err;
        if (gc_model_parse(model_names[k], &models[k], &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
    }
    static const char* const names[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                        "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                        "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                        "teapot.obj",    "woody.obj"};
    mesh list[40];
    int count = 0, corpus_count = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus, names[i]);
        gc_mesh gm;
        gc_error err;
        gc_load_options lo = {0};
        if (gc_mesh_load(path, &lo, &gm, &err)) {
            fprintf(stderr, "skipping %s: %s\n", names[i], err.message);
            continue;
        }
        gc_draw d = {gm.indices, gm.index_count, gm.topology, gm.restart_enabled, gm.restart_value};
        uint64_t prims = 0;
        gc_draw_validate(&d, path, &prims, &err);
        uint32_t* tri = malloc(prims * 6 * sizeof *tri);
        size_t written = 0;
        if (gc_draw_triangles(&d, tri, prims * 6, &written, &err)) {
            fprintf(stderr, "skipping %s: %s\n", names[i], err.message);
            free(tri);
            gc_mesh_free(&gm);
            continue;
        }
        gc_mesh_free(&gm);
        count = add_mesh(list, count, names[i], tri, written);
        corpus_count = count;
    }
    static const uint32_t grids[] = {100, 1000};
    for (int g = 0; g < (quick ? 1 : 2); ++g) {
        size_t n = gc_grid_index_count(grids[g], grids[g], GC_GRID_ROWMAJOR, 0), written;
        uint32_t* idx = malloc(n * sizeof *idx);
        gc_error err;
        gc_grid_generate(grids[g], grids[g], GC_GRID_ROWMAJOR, 0, idx, &written, &err);
        char name[64];
        snprintf(name, sizeof name, "grid %ux%u", grids[g], grids[g]);
        count = add_mesh(list, count, name, idx, written);
    }

    static double sum_atvr[ALGOS][MODELS];
    static double tris[ALGOS], seconds[ALGOS];
    size_t max_n = 0;
    for (int i = 0; i < count; ++i)
        max_n = list[i].n > max_n ? list[i].n : max_n;
    uint32_t* out = malloc(max_n * sizeof *out);
    for (int i = 0; i < count; ++i) {
        if (verbose)
            printf("%s (%zu triangles)\n", list[i].name, list[i].n / 3);
        for (int a = 0; a < ALGOS; ++a) {
            double t = optimize(a, &list[i], out);
            if (a != ORIGINAL) {
                tris[a] += (double)(list[i].n / 3);
                seconds[a] += t;
            }
            if (verbose)
                printf("  %-40s", algo_name(a));
            for (int k = 0; k < MODELS; ++k) {
                double v = atvr(k, out, list[i].n);
                if (i < corpus_count)
                    sum_atvr[a][k] += v;
                if (verbose)
                    printf(" %7.4f", v);
            }
            if (verbose)
                printf("  %.4f s\n", t);
        }
    }
    printf("Mean ATVR over the %d corpus meshes and their shuffled copies (lower is better; 1.0 is ideal)\n\n",
           corpus_count / 2);
    printf("| optimizer |");
    for (int k = 0; k < MODELS; ++k)
        printf(" %s |", model_names[k]);
    printf(" Mtri/s (all meshes) |\n|---|");
    for (int k = 0; k < MODELS; ++k)
        printf("---|");
    printf("---|\n");
    for (int a = 0; a < ALGOS; ++a) {
        printf("| %s |", algo_name(a));
        for (int k = 0; k < MODELS; ++k)
            printf(" %.4f |", corpus_count ? sum_atvr[a][k] / corpus_count : 0.0);
        if (a == ORIGINAL)
            printf(" - |\n");
        else
            printf(" %.2f |\n", tris[a] / seconds[a] / 1e6);
    }
    printf("\nauto against meshopt_optimizeVertexCache (negative: auto is better)\n\n");
    for (int k = 0; k < MODELS; ++k) {
        double base = sum_atvr[MESHOPT][k];
        printf("- %s: auto (4 presets) %+.2f%%, auto -m %s %+.2f%%\n", model_names[k],
               100.0 * (sum_atvr[AUTO][k] - base) / base, model_names[k],
               100.0 * (sum_atvr[AUTO_SINGLE + k][k] - base) / base);
    }
    /* A 100,000-triangle fan around one vertex: high valence must not make anything quadratic. */
    {
        const size_t t = 100000;
        mesh fan;
        snprintf(fan.name, sizeof fan.name, "fan");
        fan.n = 3 * t;
        fan.vertices = (uint32_t)t + 2;
        fan.idx = malloc(fan.n * sizeof *fan.idx);
        uint32_t* fan_out = malloc(fan.n * sizeof *fan_out);
        for (size_t i = 0; i < t; ++i) {
            fan.idx[3 * i] = 0;
            fan.idx[3 * i + 1] = (uint32_t)(i + 1);
            fan.idx[3 * i + 2] = (uint32_t)(i + 2);
        }
        printf("\nA 100,000-triangle fan around one vertex (median ms; meshoptimizer's run once)\n\n");
        printf("| optimizer | ms |\n|---|---|\n");
        static const int fan_algos[] = {MESHOPT, MESHOPT_FIFO, TIPSIFY, FORSYTH, AUTO};
        for (size_t k = 0; k < sizeof fan_algos / sizeof fan_algos[0]; ++k) {
            int saved = runs;
            if (fan_algos[k] == MESHOPT)
                runs = 1;
            double t_ms = 1e3 * optimize(fan_algos[k], &fan, fan_out);
            runs = saved;
            printf("| %s | %.1f |\n", algo_name(fan_algos[k]), t_ms);
        }
        free(fan.idx);
        free(fan_out);
    }
    free(out);
    for (int i = 0; i < count; ++i)
        free(list[i].idx);
    return 0;
}
