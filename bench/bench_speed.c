// SPDX-License-Identifier: MIT
/* auto against meshopt_optimizeVertexCache (meshoptimizer 1.2, one thread) in time and in
 * invocations (issue 33, docs/PERFORMANCE.md). For every mesh, as stored and shuffled
 * (gc_shuffle_triangles, seed 7), and every target (the four default presets together,
 * then each family's preset alone): meshoptimizer's time, then for each effort auto's time
 * over it and the change in invocations under the target (summed over the targets for the
 * presets) against meshoptimizer's order, and with --threads N the default effort again
 * in wall time with one thread and with N threads (its output must be byte-identical to
 * one thread's: a mismatch is printed). Times: the median of --reps runs, every ratio taken in the same run; one
 * thread's in the thread's CPU time, several threads' in wall time. A summary
 * per target and effort follows: total time over total meshoptimizer time, mean change.
 *
 * --subdivide N cuts every triangle into four at its edge midpoints N times before the
 * bench (a midpoint shared by two triangles is one new vertex; the four take their parent's
 * place), so --subdivide 2 on the corpus igea.ply (268,686 triangles) benches the issue's
 * 4.3M-triangle igea (4,298,976 triangles).
 *
 * Links the meshoptimizer named by -DGPUCACHE_PEER_MESHOPT (its install prefix).
 *
 *   bench_speed [--reps N] [--threads N] [--efforts 1,0] [--subdivide N] [--target SPEC]... MESH... */
#define _POSIX_C_SOURCE 200809L
#include <gpucache/gpucache.h>
#include <meshoptimizer.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

enum { MAX_TARGETS = 32, MAX_EFFORTS = 6 };

/* Runs are timed in the thread's CPU time (the machine is shared: wall time there counts
 * the other jobs too), the threads column in wall time. */
static double clock_of(bool wall)
{
    struct timespec ts;
    clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char* const default_targets[] = {"presets",     "generic",       "intel",         "lru:16",
                                              "direct-value:64", "direct-position:32", "nvidia-kepler", "nvidia-pascal",
                                              "nvidia-maxwell", "amd-gcn",    "reuse:32,16,32", "batch",
                                              "llvmpipe",    "nvidia-dx",     "nvidia-gl",     "ati-basic",
                                              "intel-lower-bound"};
static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};

typedef struct target_set {
    const char* name;
    gc_model models[4];
    size_t count;
} target_set;

static uint64_t invocations(const target_set* t, const uint32_t* idx, size_t n)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < t->count; ++k) {
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        gc_stats st;
        gc_error err;
        if (gc_analyze(&t->models[k], &d, NULL, &st, &err)) {
            fprintf(stderr, "analyze: %s\n", err.message);
            exit(1);
        }
        sum += st.invocations;
    }
    return sum;
}

static double time_auto(const target_set* t, const uint32_t* idx, size_t n, uint32_t vertices, unsigned effort,
                        unsigned threads, bool wall, int reps, uint32_t* out)
{
    double samples[64];
    for (int r = 0; r < reps; ++r) {
        gc_optimize_options o = {0};
        o.targets = t->models;
        o.target_count = t->count;
        o.effort = effort;
        o.threads = threads;
        gc_error err;
        double t0 = clock_of(wall);
        if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err)) {
            fprintf(stderr, "auto: %s\n", err.message);
            exit(1);
        }
        samples[r] = clock_of(wall) - t0;
    }
    return median(samples, reps);
}


typedef struct sums {
    double auto_s, meshopt_s, change, wall_one; /* wall_one: the threads column's one-thread time */
    int rows;
} sums;

int main(int argc, char** argv)
{
    int reps = 3;
    unsigned threads = 0;
    int levels = 0;
    unsigned efforts[MAX_EFFORTS] = {1, 0};
    size_t effort_count = 2;
    const char* names[MAX_TARGETS];
    size_t name_count = 0;
    int a = 1;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; ++a) {
        if (!strcmp(argv[a], "--help") || a + 1 >= argc) { /* an option without its value: the usage below */
            a = argc;
            break;
        }
        if (!strcmp(argv[a], "--reps"))
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--threads"))
            threads = (unsigned)atoi(argv[++a]);
        else if (!strcmp(argv[a], "--subdivide"))
            levels = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--target") && name_count < MAX_TARGETS)
            names[name_count++] = argv[++a];
        else if (!strcmp(argv[a], "--efforts")) {
            effort_count = 0;
            for (char* s = strtok(argv[++a], ","); s && effort_count < MAX_EFFORTS; s = strtok(NULL, ","))
                efforts[effort_count++] = (unsigned)atoi(s);
        } else {
            fprintf(stderr, "unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (reps < 1 || reps > 64 || levels < 0 || levels > 8 || threads > 64 || effort_count == 0 || a >= argc) {
        fprintf(stderr, "usage: bench_speed [--reps N] [--threads N] [--efforts 1,0] [--subdivide N] [--target SPEC]... "
                        "MESH...\n");
        return 2;
    }
    if (name_count == 0)
        for (size_t i = 0; i < sizeof default_targets / sizeof *default_targets; ++i)
            names[name_count++] = default_targets[i];
    target_set sets[MAX_TARGETS];
    for (size_t i = 0; i < name_count; ++i) {
        gc_error err;
        sets[i].name = names[i];
        sets[i].count = 0;
        bool all = !strcmp(names[i], "presets");
        for (size_t k = 0; k < (all ? 4u : 1u); ++k)
            if (gc_model_parse(all ? presets[k] : names[i], &sets[i].models[sets[i].count++], &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 2;
            }
    }
    static sums total[MAX_TARGETS][MAX_EFFORTS + 1];
    printf("| mesh | order | triangles | target | meshopt ms |");
    for (size_t e = 0; e < effort_count; ++e)
        printf(" effort %s: time x | invocations |", efforts[e] ? (char[]){(char)('0' + efforts[e]), 0} : "default");
    if (threads)
        printf(" default, wall: 1 / %u threads, time x |", threads);
    printf("\n|---|---|---:|---|---:|");
    for (size_t e = 0; e < effort_count + (threads != 0); ++e)
        printf("---:|%s", e < effort_count ? "---:|" : "");
    printf("\n");
    for (; a < argc; ++a) {
        uint32_t *idx, vertices;
        size_t n;
        if (bench_load_triangles(argv[a], &idx, &n, &vertices))
            continue;
        const char* base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        bool cut = true;
        for (int l = 0; l < levels && cut; ++l)
            cut = bench_subdivide(&idx, &n, &vertices);
        if (!cut) {
            fprintf(stderr, "skipping %s: out of memory subdividing\n", argv[a]);
            free(idx);
            continue;
        }
        char label[300];
        snprintf(label, sizeof label, levels ? "%.200s, subdivided %dx" : "%.200s", base, levels);
        base = label;
        uint32_t* out = malloc(n * sizeof *out + 4);
        uint32_t* ref = malloc(n * sizeof *ref + 4);
        uint32_t* peer = malloc(n * sizeof *peer + 4);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, n, 7);
            double samples[64];
            for (int r = 0; r < reps; ++r) {
                double t0 = clock_of(false);
                meshopt_optimizeVertexCache(peer, idx, n, vertices);
                samples[r] = clock_of(false) - t0;
            }
            double meshopt_s = median(samples, reps);
            for (size_t k = 0; k < name_count; ++k) {
                uint64_t peer_inv = invocations(&sets[k], peer, n);
                printf("| %s | %s | %zu | %s | %.2f |", base, shuffled ? "shuffled" : "stored", n / 3, sets[k].name,
                       meshopt_s * 1e3);
                for (size_t e = 0; e < effort_count; ++e) {
                    double s = time_auto(&sets[k], idx, n, vertices, efforts[e], 1, false, reps, out);
                    uint64_t inv = invocations(&sets[k], out, n);
                    double change = 100.0 * ((double)inv - (double)peer_inv) / (double)peer_inv;
                    printf(" %.2f | %+.2f%% |", s / meshopt_s, change);
                    sums* t = &total[k][e];
                    t->auto_s += s, t->meshopt_s += meshopt_s, t->change += change, t->rows++;
                }
                if (threads) {
                    /* wall time, one thread then N, the same order */
                    double one = time_auto(&sets[k], idx, n, vertices, 0, 1, true, reps, out);
                    memcpy(ref, out, n * sizeof *out);
                    double s = time_auto(&sets[k], idx, n, vertices, 0, threads, true, reps, out);
                    printf(" %.2f / %.2f%s |", one / meshopt_s, s / meshopt_s,
                           memcmp(ref, out, n * sizeof *out) ? " DIFFERS" : "");
                    sums* t = &total[k][effort_count];
                    t->auto_s += s, t->meshopt_s += meshopt_s, t->wall_one += one, t->rows++;
                }
                printf("\n");
                fflush(stdout);
            }
        }
        free(idx);
        free(out);
        free(ref);
        free(peer);
    }
    printf("\nSummary: auto's total time over meshopt_optimizeVertexCache's, and the mean change in invocations\n\n");
    printf("| target |");
    for (size_t e = 0; e < effort_count; ++e)
        printf(" effort %u (0 = default): time x | invocations |", efforts[e]);
    if (threads)
        printf(" default, wall: 1 / %u threads, time x |", threads);
    printf("\n|---|");
    for (size_t e = 0; e < effort_count + (threads != 0); ++e)
        printf("---:|%s", e < effort_count ? "---:|" : "");
    printf("\n");
    for (size_t k = 0; k < name_count; ++k) {
        printf("| %s |", sets[k].name);
        for (size_t e = 0; e < effort_count; ++e) {
            const sums* t = &total[k][e];
            printf(" %.2f | %+.2f%% |", t->auto_s / t->meshopt_s, t->rows ? t->change / t->rows : 0.0);
        }
        if (threads) {
            const sums* t = &total[k][effort_count];
            printf(" %.2f / %.2f |", t->wall_one / t->meshopt_s, t->auto_s / t->meshopt_s);
        }
        printf("\n");
    }
    return 0;
}
