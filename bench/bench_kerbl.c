// SPDX-License-Identifier: MIT
/* The batch presets from Kerbl et al. (HPG 2018) and Mesa's radeonsi (docs/models/kerbl.md):
 * for each, the invocations of four orders on the corpus and on shuffled copies, scored by
 * gpucache's model of that preset:
 *  - meshopt: meshopt_optimizeVertexCache (no target);
 *  - tipsify: gc_optimize(GC_OPT_TIPSIFY) at the preset's size (batch invocations for the
 *    NVIDIA/Intel/CURE batches, LRU entries for ATI/radeonsi);
 *  - gbatch: Kerbl et al.'s own batch-aware greedy with their weights (bench/gbatch.c);
 *  - auto: gc_optimize(GC_OPT_AUTO) with the preset as its one target, default effort.
 * Prints one table per set (original, shuffled): totals over the meshes, auto's gain
 * against each, and every mesh where auto loses to gbatch.
 * usage: bench_kerbl [CORPUS_DIR] [--preset NAME] */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include <meshoptimizer.h>

#include "bench_util.h"
#include "gbatch.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const presets[] = {"nvidia-dx",  "nvidia-gl",        "ati-basic",
                                      "intel-lower-bound", "cure-warp", "cure-block",
                                      "radeonsi-polaris", "radeonsi-polaris-tess-odd"};
#define PRESETS (sizeof presets / sizeof presets[0])

static const char* const names[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                    "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                    "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                    "teapot.obj",    "woody.obj"};
#define NAMES (sizeof names / sizeof names[0])

typedef struct mesh {
    const char* name;
    bool shuffled;
    uint32_t* idx;
    size_t n;
    uint32_t v;
} mesh;

enum { MESHOPT, TIPSIFY, GBATCH, AUTO, ORDERS };
static const char* const order_names[ORDERS] = {"meshopt", "tipsify", "gbatch", "auto"};

static uint64_t invocations(const gc_model* m, const uint32_t* idx, size_t n)
{
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(m, &d, NULL, &st, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return st.invocations;
}

static uint32_t tipsify_size(const gc_model* m)
{
    const char* f = gc_model_family_name(m->family);
    uint32_t k = !strcmp(f, "ati") ? m->p[0] : m->p[1];
    return k > 256 ? 256 : k;
}

int main(int argc, char** argv)
{
    const char* dir = "../shared/corpus";
    const char* only = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            only = argv[++i];
        else
            dir = argv[i];
    }
    mesh meshes[2 * NAMES];
    size_t count = 0;
    for (size_t i = 0; i < NAMES; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint32_t* tri;
        size_t n;
        uint32_t v;
        if (bench_load_triangles(path, &tri, &n, &v))
            continue;
        meshes[count++] = (mesh){names[i], false, tri, n, v};
        uint32_t* copy = malloc(n * sizeof *copy + 4);
        memcpy(copy, tri, n * sizeof *copy);
        gc_shuffle_triangles(copy, n, 7);
        meshes[count++] = (mesh){names[i], true, copy, n, v};
    }
    if (count == 0) {
        fprintf(stderr, "no corpus meshes in %s\n", dir);
        return 77;
    }
    size_t max_n = 0;
    for (size_t i = 0; i < count; ++i)
        max_n = meshes[i].n > max_n ? meshes[i].n : max_n;
    uint32_t* out = malloc(max_n * sizeof *out + 4);
    uint32_t* scratch = malloc(max_n * sizeof *scratch + 4);
    /* meshoptimizer's order does not depend on the preset */
    uint32_t** meshopt_orders = malloc(count * sizeof *meshopt_orders);
    for (size_t i = 0; i < count; ++i) {
        meshopt_orders[i] = malloc(meshes[i].n * sizeof **meshopt_orders + 4);
        meshopt_optimizeVertexCache(meshopt_orders[i], meshes[i].idx, meshes[i].n, meshes[i].v);
    }
    printf("invocations of four orders under each batch preset, %zu corpus meshes and their shuffled copies\n",
           count / 2);
    for (size_t p = 0; p < PRESETS; ++p) {
        if (only && strcmp(only, presets[p]) != 0)
            continue;
        gc_model m;
        gc_error err;
        if (gc_model_parse(presets[p], &m, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        gbatch_params gp;
        gbatch_params_for(gc_model_family_name(m.family), m.p, &gp);
        uint64_t total[2][ORDERS] = {{0}};
        double gbatch_s = 0.0, auto_s = 0.0;
        char losses[2048] = "";
        for (size_t i = 0; i < count; ++i) {
            const mesh* me = &meshes[i];
            uint64_t inv[ORDERS];
            inv[MESHOPT] = invocations(&m, meshopt_orders[i], me->n);
            gc_optimize_options o = {0};
            o.cache_size = tipsify_size(&m);
            if (gc_optimize(GC_OPT_TIPSIFY, me->idx, me->n, me->v, &o, out, &err)) {
                fprintf(stderr, "tipsify: %s\n", err.message);
                return 1;
            }
            inv[TIPSIFY] = invocations(&m, out, me->n);
            double t0 = now();
            if (gbatch_order(me->idx, me->n, me->v, &gp, scratch)) {
                fprintf(stderr, "gbatch: out of memory\n");
                return 1;
            }
            gbatch_s += now() - t0;
            inv[GBATCH] = invocations(&m, scratch, me->n);
            memset(&o, 0, sizeof o);
            o.targets = &m;
            o.target_count = 1;
            t0 = now();
            if (gc_optimize(GC_OPT_AUTO, me->idx, me->n, me->v, &o, out, &err)) {
                fprintf(stderr, "auto: %s\n", err.message);
                return 1;
            }
            auto_s += now() - t0;
            inv[AUTO] = invocations(&m, out, me->n);
            for (int k = 0; k < ORDERS; ++k)
                total[me->shuffled][k] += inv[k];
            if (inv[AUTO] > inv[GBATCH]) {
                size_t len = strlen(losses);
                snprintf(losses + len, sizeof losses - len, " %s%s +%.2f%%;", me->name, me->shuffled ? " (shuffled)" : "",
                         100.0 * ((double)inv[AUTO] / (double)inv[GBATCH] - 1.0));
            }
        }
        printf("\n%s = %s\n", presets[p], m.name);
        printf("  %-9s %12s %12s %12s %12s   %9s %9s %9s\n", "set", order_names[0], order_names[1], order_names[2],
               order_names[3], "vs meshopt", "vs tipsify", "vs gbatch");
        for (int set = 0; set < 2; ++set) {
            const uint64_t* t = total[set];
            printf("  %-9s %12llu %12llu %12llu %12llu   %+8.2f%% %+8.2f%% %+8.2f%%\n", set ? "shuffled" : "original",
                   (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
                   (unsigned long long)t[3], 100.0 * ((double)t[AUTO] / (double)t[MESHOPT] - 1.0),
                   100.0 * ((double)t[AUTO] / (double)t[TIPSIFY] - 1.0),
                   100.0 * ((double)t[AUTO] / (double)t[GBATCH] - 1.0));
        }
        printf("  seconds: gbatch %.2f, auto %.2f\n", gbatch_s, auto_s);
        printf("  auto behind gbatch on:%s\n", losses[0] ? losses : " none");
        fflush(stdout);
    }
    for (size_t i = 0; i < count; ++i) {
        free(meshes[i].idx);
        free(meshopt_orders[i]);
    }
    free(meshopt_orders);
    free(out);
    free(scratch);
    return 0;
}
