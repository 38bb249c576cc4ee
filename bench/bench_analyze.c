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

static double time_ours(const char* spec, const buffer* b, uint64_t* invocations)
{
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    gc_draw d = {b->idx, b->n, GC_TRIANGLE_LIST, 0, 0};
    double t[64];
    for (int r = 0; r < runs; ++r) {
        gc_stats st;
        double t0 = now();
        if (gc_analyze(&m, &d, NULL, &st, &err)) {
            fprintf(stderr, "%s\n", err.message);
            exit(1);
        }
        t[r] = now() - t0;
        *invocations = st.invocations;
        sink += st.invocations;
    }
    return median(t, runs);
}

static double time_meshopt(const buffer* b, unsigned c, unsigned w, unsigned p, uint64_t* invocations)
{
    double t[64];
    for (int r = 0; r < runs; ++r) {
        double t0 = now();
        struct meshopt_VertexCacheStatistics s = meshopt_analyzeVertexCache(b->idx, b->n, b->vertices, c, w, p);
        t[r] = now() - t0;
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

static void bench(const buffer* b)
{
    static const struct {
        const char* ours;
        unsigned c, w, p;
    } pairs[] = {{"fifo:16", 16, 0, 0}, {"meshopt:32,32,32", 32, 32, 32}, {"meshopt:14,64,128", 14, 64, 128}};
    double mi = (double)b->n * 1e-6;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
        uint64_t a, r;
        double ours = time_ours(pairs[i].ours, b, &a);
        double theirs = time_meshopt(b, pairs[i].c, pairs[i].w, pairs[i].p, &r);
        printf("| %s | %s vs meshopt(%u,%u,%u) | %.0f | %.0f | %.2fx | %s |\n", b->name, pairs[i].ours, pairs[i].c,
               pairs[i].w, pairs[i].p, mi / ours, mi / theirs, theirs / ours, a == r ? "equal" : "DIFFERENT");
    }
    static const char* const alone[] = {"nvidia", "lru:16", "reuse:32,16,32", "batch"};
    for (size_t i = 0; i < sizeof alone / sizeof alone[0]; ++i) {
        uint64_t a;
        double ours = time_ours(alone[i], b, &a);
        printf("| %s | %s | %.0f | | | |\n", b->name, alone[i], mi / ours);
    }
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
    printf("runs per measurement: %d (median)\n\n", runs);
    printf("| buffer | model | gpucache M indices/s | meshopt M indices/s | speed-up | counts |\n");
    printf("|---|---|---:|---:|---:|---|\n");

    buffer grid = {{0}, NULL, 0, 0};
    snprintf(grid.name, sizeof grid.name, "grid 1000x1000");
    grid.n = gc_grid_index_count(1000, 1000, GC_GRID_ROWMAJOR, 0);
    grid.idx = malloc(grid.n * sizeof *grid.idx);
    gc_error err;
    size_t written;
    gc_grid_generate(1000, 1000, GC_GRID_ROWMAJOR, 0, grid.idx, &written, &err);
    finish(&grid);
    bench(&grid);
    buffer gs = shuffled(&grid);
    bench(&gs);

    /* The largest corpus mesh by triangle count, as the triangle list a renderer draws. */
    static const char* const names[] = {"ogre.obj", "igea.ply", "stanford-bunny.obj", "beetle-alt.obj"};
    buffer best = {{0}, NULL, 0, 0};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus, names[i]);
        gc_mesh mesh;
        if (gc_mesh_load(path, NULL, &mesh, &err) != GC_OK) {
            fprintf(stderr, "skipping %s: %s\n", names[i], err.message);
            continue;
        }
        gc_draw d = {mesh.indices, mesh.index_count, mesh.topology, mesh.restart_enabled, mesh.restart_value};
        uint64_t prims = 0;
        gc_draw_validate(&d, path, &prims, &err);
        if (3 * prims > best.n) {
            free(best.idx);
            best.n = 3 * prims;
            best.idx = malloc(best.n * sizeof *best.idx);
            gc_draw_triangles(&d, best.idx, best.n, &best.n, &err);
            snprintf(best.name, sizeof best.name, "%s (%zu tris)", names[i], (size_t)prims);
        }
        gc_mesh_free(&mesh);
    }
    if (best.idx) {
        finish(&best);
        bench(&best);
        buffer bs = shuffled(&best);
        bench(&bs);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak resident memory of this process: %ld MiB\n", ru.ru_maxrss / 1024);
    return 0;
}
