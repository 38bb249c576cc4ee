// SPDX-License-Identifier: MIT
/* Helpers shared by the unit tests. */
#ifndef GPUCACHE_TEST_UTIL_H
#define GPUCACHE_TEST_UTIL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpucache_private.h"

/* ../shared/corpus relative to the source tree, or $GPUCACHE_CORPUS. */
static inline const char* corpus_dir(void)
{
    const char* env = getenv("GPUCACHE_CORPUS");
    return env ? env : GPUCACHE_CORPUS_DIR;
}

/* The meshes of ../shared/corpus the tests go through. */
static const char* const corpus_meshes_list[] = {
    "alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",         "fandisk.obj", "homer.obj",
    "igea.ply",      "ogre.obj",       "rocker-arm.obj",  "spot.obj",        "stanford-bunny.obj",
    "suzanne.obj",   "teapot.obj",     "woody.obj",
};
#define CORPUS_MESH_COUNT (sizeof corpus_meshes_list / sizeof corpus_meshes_list[0])

/* Fills buf with the path of a corpus file; returns 0 if it is readable. */
static inline int corpus_path(char* buf, size_t size, const char* name)
{
    snprintf(buf, size, "%s/%s", corpus_dir(), name);
    FILE* f = fopen(buf, "rb");
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

/* The triangle list a renderer draws from corpus mesh `name` (strips expanded, restarts
 * honoured), malloc'ed, its index count in *n; NULL when the corpus lacks the file. A file
 * that does not load fails the test. */
static inline uint32_t* corpus_triangles(const char* name, size_t* n)
{
    char path[1024];
    if (corpus_path(path, sizeof path, name) != 0)
        return NULL;
    gc_mesh gm;
    gc_error err;
    if (gc_mesh_load(path, NULL, &gm, &err) != GC_OK)
        fail_msg("%s: %s", name, err.message);
    gc_draw d = {gm.indices, gm.index_count, gm.topology, gm.restart_enabled, gm.restart_value};
    uint64_t prims;
    if (gc_draw_validate(&d, name, &prims, &err) != GC_OK)
        fail_msg("%s: %s", name, err.message);
    size_t capacity = (size_t)prims * 6 + 3;
    uint32_t* out = malloc(capacity * sizeof *out);
    assert_non_null(out);
    if (gc_draw_triangles(&d, out, capacity, n, &err) != GC_OK)
        fail_msg("%s: %s", name, err.message);
    gc_mesh_free(&gm);
    return out;
}

/* A malloc'ed copy of the n indices of `order` with their vertices numbered in order of
 * first use (gc_reorder_vertices over `vertices` values). */
static inline uint32_t* first_use_copy(const uint32_t* order, size_t n, uint32_t vertices)
{
    uint32_t* out = malloc((n ? n : 1) * sizeof *out);
    uint32_t* remap = malloc((vertices ? vertices : 1) * sizeof *remap);
    assert_non_null(out);
    assert_non_null(remap);
    memcpy(out, order, n * sizeof *out);
    uint32_t used;
    gc_error err;
    if (gc_reorder_vertices(out, n, vertices, remap, &used, &err) != GC_OK)
        fail_msg("gc_reorder_vertices: %s", err.message);
    free(remap);
    return out;
}

static inline gc_model model_of(const char* spec)
{
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err) != GC_OK)
        fail_msg("model '%s': %s", spec, err.message);
    return m;
}

/* Invocations of a triangle list (or another topology) under a model spec. */
static inline uint64_t invocations_of(const char* spec, const uint32_t* idx, size_t n, gc_topology t)
{
    gc_model m = model_of(spec);
    gc_draw d = {idx, n, t, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(&m, &d, NULL, &st, &err) != GC_OK)
        fail_msg("analyze %s: %s", spec, err.message);
    return st.invocations;
}

/* malloc'ed room for `count` indices; a failed allocation fails the test. */
static inline uint32_t* test_indices(size_t count)
{
    uint32_t* p = malloc(count * sizeof *p);
    assert_non_null(p);
    return p;
}

/* A w x h quad grid in row-major order (gc_grid_generate), malloc'ed; its index count in *n. */
static inline uint32_t* rowmajor_grid(uint32_t w, uint32_t h, size_t* n)
{
    uint32_t* idx = test_indices(6 * (size_t)w * h + 3);
    gc_error err;
    assert_int_equal(gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 0, idx, n, &err), GC_OK);
    assert_int_equal(*n, 6 * (size_t)w * h);
    return idx;
}

/* One more than the largest index of idx, 0 for an empty list: the vertex count a list needs. */
static inline uint32_t index_bound(const uint32_t* idx, size_t n)
{
    uint32_t m = 0;
    for (size_t i = 0; i < n; ++i)
        m = idx[i] + 1 > m ? idx[i] + 1 : m;
    return m;
}

/* corpus_triangles for a test that needs the mesh: skips the test when the corpus lacks the
 * file. */
static inline uint32_t* corpus_triangles_or_skip(const char* name, size_t* n)
{
    uint32_t* idx = corpus_triangles(name, n);
    if (!idx)
        skip();
    return idx;
}

/* corpus_triangles_or_skip, and the vertex count the list needs (index_bound) in *vertices. */
static inline uint32_t* corpus_mesh_or_skip(const char* name, size_t* n, uint32_t* vertices)
{
    uint32_t* idx = corpus_triangles_or_skip(name, n);
    *vertices = index_bound(idx, *n);
    return idx;
}

/* Corpus mesh `name` (corpus_triangles_or_skip; its index count in *n) with n / (3 * every)
 * degenerate triangles appended: the j-th (j from 0) repeats the first corner of triangle
 * j * every mod n / 3 around its second corner (a repeated pair) when j % 4 != 0, else on
 * its own (a single vertex). malloc'ed; its triangles in *tc, index_bound in *vertices. */
static inline uint32_t* corpus_degenerates_or_skip(const char* name, size_t every, size_t* n, size_t* tc,
                                                   uint32_t* vertices)
{
    uint32_t* loaded = corpus_triangles_or_skip(name, n);
    *tc = *n / 3 + *n / (3 * every);
    uint32_t* idx = test_indices(3 * *tc);
    memcpy(idx, loaded, *n * sizeof *idx);
    for (size_t t = *n / 3, j = 0; t < *tc; ++t, ++j) {
        const uint32_t v = loaded[3 * (j * every % (*n / 3))];
        idx[3 * t] = v;
        idx[3 * t + 1] = j % 4 ? loaded[3 * (j * every % (*n / 3)) + 1] : v;
        idx[3 * t + 2] = v;
    }
    free(loaded);
    *vertices = index_bound(idx, 3 * *tc);
    return idx;
}

/* A malloc'ed copy of the tc triangles of idx shuffled by Fisher-Yates (from the last place
 * down: pick(&state, i), below i, chooses the triangle that goes to place i - 1), then
 * `degenerates` (0, 1 or 2) degenerate triangles appended: (s0, s0, s1), then (s4, s5, s5),
 * s being the shuffled list. The triangle count in *out_tc. */
static inline uint32_t* shuffled_plus_degenerates(const uint32_t* idx, size_t tc, int degenerates, uint64_t state,
                                                  size_t (*pick)(uint64_t* state, size_t i), size_t* out_tc)
{
    uint32_t* s = malloc((3 * tc + 6) * sizeof *s);
    assert_non_null(s);
    memcpy(s, idx, 3 * tc * sizeof *s);
    for (size_t i = tc; i > 1; --i) {
        const size_t j = pick(&state, i);
        for (int k = 0; k < 3; ++k) {
            const uint32_t x = s[3 * (i - 1) + k];
            s[3 * (i - 1) + k] = s[3 * j + k];
            s[3 * j + k] = x;
        }
    }
    if (degenerates >= 1)
        s[3 * tc] = s[0], s[3 * tc + 1] = s[0], s[3 * tc + 2] = s[1];
    if (degenerates >= 2)
        s[3 * tc + 3] = s[4], s[3 * tc + 4] = s[5], s[3 * tc + 5] = s[5];
    *out_tc = tc + (size_t)degenerates;
    return s;
}

/* The rows of a test that goes through corpus meshes: each of `count` meshes of `names`
 * (corpus_mesh_or_skip: the test skips when the corpus lacks one) as stored, then with its
 * triangles shuffled in place (gc_shuffle_triangles with `seed`):
 *     for (corpus_rows r = corpus_rows_of(names, count, seed); corpus_rows_next(&r);)
 *         ... r.idx: r.n indices, r.tc triangles, over r.vertices ...
 * corpus_rows_next frees the last mesh when it returns false. corpus_rows_degenerate(names,
 * count, seed, every) is the same with corpus_degenerates_or_skip's degenerate triangles
 * appended to each mesh before it is shuffled: then r.n is the mesh's own index count and
 * r.tc counts the degenerates too (r.idx holds 3 * r.tc indices). */
typedef struct corpus_rows {
    const char* const* names;
    size_t count, next;
    uint64_t seed;
    size_t every;     /* 0, or corpus_degenerates_or_skip's `every` */
    size_t mesh;      /* the row's mesh: names[mesh] */
    int shuffled;     /* 0: as stored, 1: shuffled */
    char what[96];    /* "NAME stored" or "NAME shuffled", for messages */
    uint32_t* idx;    /* its triangle list */
    size_t n, tc;     /* its indices and triangles */
    uint32_t vertices; /* index_bound(idx, 3 * tc) */
} corpus_rows;

static inline corpus_rows corpus_rows_of(const char* const* names, size_t count, uint64_t seed)
{
    corpus_rows r;
    memset(&r, 0, sizeof r);
    r.names = names;
    r.count = count;
    r.seed = seed;
    return r;
}

static inline corpus_rows corpus_rows_degenerate(const char* const* names, size_t count, uint64_t seed, size_t every)
{
    corpus_rows r = corpus_rows_of(names, count, seed);
    r.every = every;
    return r;
}

/* Steps to the next row; false after the last (the mesh freed). */
static inline bool corpus_rows_next(corpus_rows* r)
{
    if (r->idx && !r->shuffled) {
        gc_shuffle_triangles(r->idx, 3 * r->tc, r->seed);
        r->shuffled = 1;
    } else {
        free(r->idx);
        r->idx = NULL;
        if (r->next == r->count)
            return false;
        r->mesh = r->next++;
        r->shuffled = 0;
        if (r->every)
            r->idx = corpus_degenerates_or_skip(r->names[r->mesh], r->every, &r->n, &r->tc, &r->vertices);
        else {
            r->idx = corpus_mesh_or_skip(r->names[r->mesh], &r->n, &r->vertices);
            r->tc = r->n / 3;
        }
    }
    snprintf(r->what, sizeof r->what, "%s %s", r->names[r->mesh], r->shuffled ? "shuffled" : "stored");
    return true;
}

/* auto's default (gc_optimize, GC_OPT_AUTO) of the n indices of idx for the lone `target`
 * with 1 to max_threads threads: each a permutation of idx's triangles (gc_check_permutation)
 * and the same order as one thread's. A failure names `what` and the target. */
static inline void assert_auto_same_for_threads(const uint32_t* idx, size_t n, uint32_t vertices,
                                                const gc_model* target, unsigned max_threads, const char* what)
{
    uint32_t* one = test_indices(n + 1);
    uint32_t* many = test_indices(n + 1);
    for (unsigned threads = 1; threads <= max_threads; ++threads) {
        uint32_t* out = threads == 1 ? one : many;
        gc_optimize_options o = {0};
        o.targets = target;
        o.target_count = 1;
        o.threads = threads;
        gc_error err;
        if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err) != GC_OK ||
            gc_check_permutation(idx, out, n, vertices, &err) != GC_OK)
            fail_msg("%s, %s, %u threads: %s", what, target->name, threads, err.message);
        if (threads > 1 && memcmp(one, many, n * sizeof *one))
            fail_msg("%s, %s: %u threads give another order than one", what, target->name, threads);
    }
    free(one);
    free(many);
}

/* gc_mesh_optimize of draw d (n indices over `vertices`) in `run_count` runs of runs[k]
 * triangles each, by `algorithm` for the lone `target`, with 1, 2 and 4 threads: every run
 * count and index count kept, each run holding its own triangles (gc_check_permutation), and
 * the same output for every thread count. A failure names `what`. */
static inline void assert_runs_same_for_threads(const gc_draw* d, size_t n, uint32_t vertices, const size_t* runs,
                                                size_t run_count, gc_optimizer algorithm,
                                                const gc_model* target, const char* what)
{
    uint32_t* one = test_indices(n + 1);
    for (unsigned threads = 1; threads <= 4; threads *= 2) {
        gc_mesh_optimize_options o;
        memset(&o, 0, sizeof o);
        o.algorithm = algorithm;
        o.optimize.targets = target;
        o.optimize.target_count = 1;
        o.optimize.threads = threads;
        gc_mesh_optimized r;
        gc_error err;
        if (gc_mesh_optimize(NULL, d, runs, run_count, &o, &r, &err) != GC_OK)
            fail_msg("%s, %u threads: %s", what, threads, err.message);
        assert_int_equal(r.runs, run_count);
        assert_int_equal(r.index_count, n);
        if (threads == 1) {
            memcpy(one, r.indices, n * sizeof *one);
            /* each run holds its own triangles: reordered within it */
            size_t at = 0;
            for (size_t k = 0; k < run_count; ++k) {
                assert_int_equal(gc_check_permutation(d->indices + at, one + at, 3 * runs[k], vertices, &err), GC_OK);
                at += 3 * runs[k];
            }
        } else if (memcmp(one, r.indices, n * sizeof *one)) {
            fail_msg("%s over %zu runs: %u threads give another order than one", what, run_count, threads);
        }
        gc_mesh_optimized_free(&r);
    }
    free(one);
}

/* Invocations of a triangle list under a parsed model (gc_analyze). */
static inline uint64_t list_cost(const gc_model* m, const uint32_t* list, size_t n)
{
    gc_draw d = {list, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(m, &d, NULL, &st, &err) != GC_OK)
        fail_msg("analyze %s: %s", m->name, err.message);
    return st.invocations;
}

/* The triangle list of a triangle order (tc triangle numbers into idx), malloc'ed. */
static inline uint32_t* order_list(const uint32_t* idx, const uint32_t* order, size_t tc)
{
    uint32_t* list = test_indices(3 * tc + 1);
    for (size_t t = 0; t < tc; ++t)
        memcpy(list + 3 * t, idx + 3 * (size_t)order[t], 3 * sizeof *list);
    return list;
}

/* The invocations of a triangle order (triangle numbers into idx) under m. */
static inline uint64_t order_invocations(const gc_model* m, const uint32_t* idx, const uint32_t* order, size_t tc)
{
    uint32_t* list = order_list(idx, order, tc);
    uint64_t c = list_cost(m, list, 3 * tc);
    free(list);
    return c;
}

/* Asserts that the tc numbers of order are 0..tc-1, each once. */
static inline void assert_is_permutation(const uint32_t* order, size_t tc)
{
    unsigned char* seen = calloc(tc + 1, 1);
    assert_non_null(seen);
    for (size_t t = 0; t < tc; ++t) {
        assert_true(order[t] < tc);
        assert_false(seen[order[t]]);
        seen[order[t]] = 1;
    }
    free(seen);
}

/* Asserts that the tc triangles of the list `out` are those of `idx`, each once (a triangle
 * matched by its three corners in order). O(tc^2): for small lists. */
static inline void assert_same_triangles(const uint32_t* out, const uint32_t* idx, size_t tc)
{
    unsigned char* used = calloc(tc + 1, 1);
    assert_non_null(used);
    for (size_t t = 0; t < tc; ++t) {
        size_t found = tc;
        for (size_t u = 0; u < tc && found == tc; ++u)
            if (!used[u] && !memcmp(out + 3 * t, idx + 3 * u, 3 * sizeof *out))
                found = u;
        assert_true(found < tc);
        used[found] = 1;
    }
    free(used);
}

/* auto's order (gc_optimize_placed) for the lone target m at `effort`, the list placed at
 * index `position` of the draw, its vertices to be numbered in order of first use when
 * first_use is non-zero; a failure fails the test. */
static inline void auto_order(const gc_model* m, const uint32_t* idx, size_t n, uint32_t vertices, unsigned effort,
                              uint64_t position, int first_use, uint32_t* out)
{
    gc_optimize_options o = {0};
    o.targets = m;
    o.target_count = 1;
    o.effort = effort;
    const gc_optimize_placement place = {position, 0, first_use};
    gc_error err;
    if (gc_optimize_placed(GC_OPT_AUTO, idx, n, vertices, &o, &place, out, &err) != GC_OK)
        fail_msg("auto --effort %u -m %s: %s", effort, m->name, err.message);
}

/* xorshift64*: test streams that are the same on every run. */
static inline uint64_t test_random(uint64_t* s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

#endif
