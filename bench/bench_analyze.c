// SPDX-License-Identifier: MIT
/* gpucache's analyzers against meshoptimizer's meshopt_analyzeVertexCache on the same
 * buffers, in one process: median seconds of several runs, throughput and ratio.
 * usage: bench_analyze [--runs N] [CORPUS_DIR]   (prints a Markdown table) */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include <meshoptimizer.h>

#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct buffer {
    char name[128];
    uint32_t* idx;
    size_t n;
    uint32_t vertices; /* max index + 1, what meshopt is given */
} buffer;

static int runs = 9;
static volatile uint64_t sink;

/* The calling thread's CPU time: other processes on the machine do not lengthen it, so
 * that the ratio of two single-threaded loops measured in turn stays steady. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* gpucache is given the vertex count, as meshoptimizer is. */
static double time_ours(const char* spec, const buffer* b, uint64_t* invocations)
{
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    gc_draw d = {b->idx, b->n, GC_TRIANGLE_LIST, 0, 0};
    gc_analyze_options o = {0};
    o.vertex_count = b->vertices;
    double t[64];
    for (int r = 0; r < runs; ++r) {
        gc_stats st;
        double t0 = cpu_now();
        if (gc_analyze(&m, &d, &o, &st, &err)) {
            fprintf(stderr, "%s\n", err.message);
            exit(1);
        }
        t[r] = cpu_now() - t0;
        *invocations = st.invocations;
        sink += st.invocations;
    }
    return median(t, runs);
}

static double time_meshopt(const buffer* b, unsigned c, unsigned w, unsigned p, uint64_t* invocations)
{
    double t[64];
    for (int r = 0; r < runs; ++r) {
        double t0 = cpu_now();
        struct meshopt_VertexCacheStatistics s = meshopt_analyzeVertexCache(b->idx, b->n, b->vertices, c, w, p);
        t[r] = cpu_now() - t0;
        *invocations = s.vertices_transformed;
        sink += s.vertices_transformed;
    }
    return median(t, runs);
}

static void finish(buffer* b)
{
    uint32_t m = 0;
    for (size_t i = 0; i < b->n; ++i)
        m = b->idx[i] > m ? b->idx[i] : m;
    b->vertices = m + 1;
}

static buffer shuffled(const buffer* src)
{
    buffer b = *src;
    snprintf(b.name, sizeof b.name, "%.100s, shuffled", src->name);
    b.idx = malloc(b.n * sizeof *b.idx);
    memcpy(b.idx, src->idx, b.n * sizeof *b.idx);
    gc_shuffle_triangles(b.idx, b.n, 12345);
    return b;
}

/* The two models the issue measures, each against meshoptimizer with the same parameters. */
static const struct {
    const char* ours;
    unsigned c, w, p;
} pairs[] = {{"fifo:16", 16, 0, 0}, {"meshopt:32,32,32", 32, 32, 32}};
#define PAIRS (sizeof pairs / sizeof pairs[0])

/* One table row per model; returns the ratios (meshoptimizer's time / ours). */
static void bench(const buffer* b, double* ratio)
{
    double mi = (double)b->n * 1e-6;
    for (size_t i = 0; i < PAIRS; ++i) {
        uint64_t a, r;
        double ours = time_ours(pairs[i].ours, b, &a);
        double theirs = time_meshopt(b, pairs[i].c, pairs[i].w, pairs[i].p, &r);
        ratio[i] = theirs / ours;
        printf("| %s | %s | %.3f | %.3f | %.0f | %.2fx | %s |\n", b->name, pairs[i].ours, ours * 1e3, theirs * 1e3,
               mi / ours, ratio[i], a == r ? "equal" : "DIFFERENT");
        fflush(stdout);
    }
}

typedef struct edge_slot {
    uint64_t e;
    size_t s;
} edge_slot;

static int cmp_pair(const void* x, const void* y)
{
    const edge_slot *a = x, *b = y;
    return (a->e > b->e) - (a->e < b->e);
}

/* One level of midpoint subdivision: each triangle becomes four, in place of their parent,
 * and each edge's midpoint gets one new vertex (edges found by sorting). */
static buffer subdivide(const buffer* src)
{
    size_t tris = src->n / 3;
    uint64_t* edges = malloc(3 * tris * sizeof *edges); /* (min << 32 | max), then the slot */
    size_t* slot = malloc(3 * tris * sizeof *slot);
    uint32_t* mid = malloc(3 * tris * sizeof *mid);
    if (!edges || !slot || !mid) {
        fprintf(stderr, "out of memory subdividing\n");
        exit(1);
    }
    for (size_t t = 0; t < tris; ++t)
        for (int j = 0; j < 3; ++j) {
            uint32_t a = src->idx[3 * t + j], b = src->idx[3 * t + (j + 1) % 3];
            edges[3 * t + j] = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
            slot[3 * t + j] = 3 * t + j;
        }
    /* sort slots by edge: a simple radix-free way, qsort on (edge, slot) pairs */
    edge_slot* ps = malloc(3 * tris * sizeof *ps);
    for (size_t i = 0; i < 3 * tris; ++i)
        ps[i] = (edge_slot){edges[i], slot[i]};
    qsort(ps, 3 * tris, sizeof *ps, cmp_pair);
    uint32_t next = src->vertices;
    for (size_t i = 0; i < 3 * tris; ++i) {
        if (i == 0 || ps[i].e != ps[i - 1].e)
            next++;
        mid[ps[i].s] = next - 1;
    }
    buffer out = *src;
    snprintf(out.name, sizeof out.name, "%.100s, subdivided", src->name);
    out.n = 4 * src->n;
    out.idx = malloc(out.n * sizeof *out.idx);
    for (size_t t = 0; t < tris; ++t) {
        uint32_t a = src->idx[3 * t], b = src->idx[3 * t + 1], c = src->idx[3 * t + 2];
        uint32_t ab = mid[3 * t], bc = mid[3 * t + 1], ca = mid[3 * t + 2];
        uint32_t* o = out.idx + 12 * t;
        uint32_t quad[12] = {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca};
        memcpy(o, quad, sizeof quad);
    }
    free(edges);
    free(slot);
    free(mid);
    free(ps);
    finish(&out);
    return out;
}

static double mean(const double* v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; ++i)
        s += v[i];
    return n ? s / (double)n : 0;
}

int main(int argc, char** argv)
{
    const char* corpus = "../shared/corpus";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > 64)
                runs = 9;
        } else {
            corpus = argv[i];
        }
    }
    printf("median of %d runs, each loop timed by the thread's CPU time; gpucache is given the vertex count, "
           "as meshoptimizer is\n\n", runs);
    printf("| buffer | model | gpucache ms | meshopt ms | gpucache M indices/s | speed-up | counts |\n");
    printf("|---|---|---:|---:|---:|---:|---|\n");

    double r[PAIRS];
    double grid_ratio[PAIRS], large_ratio[PAIRS];
    buffer grid = {{0}, NULL, 0, 0};
    snprintf(grid.name, sizeof grid.name, "grid 1000x1000");
    grid.n = gc_grid_index_count(1000, 1000, GC_GRID_ROWMAJOR, 0);
    grid.idx = malloc(grid.n * sizeof *grid.idx);
    gc_error err;
    size_t written;
    gc_grid_generate(1000, 1000, GC_GRID_ROWMAJOR, 0, grid.idx, &written, &err);
    finish(&grid);
    bench(&grid, grid_ratio);

    /* Every corpus mesh as the triangle list a renderer draws, and a shuffled copy. */
    static const char* const names[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                        "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                        "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                        "teapot.obj",    "woody.obj"};
    const size_t name_count = sizeof names / sizeof names[0];
    double* corpus_ratio[PAIRS];
    for (size_t i = 0; i < PAIRS; ++i)
        corpus_ratio[i] = calloc(2 * name_count, sizeof(double));
    size_t measured = 0;
    buffer largest = {{0}, NULL, 0, 0};
    for (size_t i = 0; i < name_count; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus, names[i]);
        buffer b = {{0}, NULL, 0, 0};
        if (bench_load_triangles(path, &b.idx, &b.n, &b.vertices))
            continue;
        snprintf(b.name, sizeof b.name, "%s (%zu tris)", names[i], b.n / 3);
        bench(&b, r);
        for (size_t k = 0; k < PAIRS; ++k)
            corpus_ratio[k][measured] = r[k];
        buffer bs = shuffled(&b);
        bench(&bs, r);
        for (size_t k = 0; k < PAIRS; ++k)
            corpus_ratio[k][name_count + measured] = r[k];
        free(bs.idx);
        measured++;
        if (b.n > largest.n) {
            free(largest.idx);
            largest = b;
        } else {
            free(b.idx);
        }
    }

    /* A mesh of at least 2M triangles: the largest corpus mesh subdivided until it has,
     * in a shuffled order (the case where every lookup goes to memory). */
    if (!largest.idx)
        largest = grid;
    buffer large = largest;
    while (large.n / 3 < 2000000) {
        buffer next = subdivide(&large);
        if (large.idx != largest.idx && large.idx != grid.idx)
            free(large.idx);
        large = next;
    }
    buffer large_shuffled = shuffled(&large);
    bench(&large_shuffled, large_ratio);

    printf("\n| summary | model | speed-up |\n|---|---|---:|\n");
    for (size_t k = 0; k < PAIRS; ++k) {
        printf("| grid 1000x1000 | %s | %.2fx |\n", pairs[k].ours, grid_ratio[k]);
        printf("| %s | %s | %.2fx |\n", large_shuffled.name, pairs[k].ours, large_ratio[k]);
        /* the corpus meshes, then their shuffled copies, side by side in one array */
        double both[64];
        size_t n = 0;
        for (size_t i = 0; i < measured; ++i) {
            both[n++] = corpus_ratio[k][i];
            both[n++] = corpus_ratio[k][name_count + i];
        }
        printf("| mean over %zu corpus meshes and their shuffled copies | %s | %.2fx |\n", measured, pairs[k].ours,
               mean(both, n));
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak resident memory of this process: %ld MiB\n", ru.ru_maxrss / 1024);
    return 0;
}
