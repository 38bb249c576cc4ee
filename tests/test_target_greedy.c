// SPDX-License-Identifier: MIT
/* Issue 33: auto's target-aware greedy (gc_opt_target_greedy, target_sims.c) prices only the
 * candidates that could win, each once a step. Its orders must be the ones of the
 * straightforward greedy that prices every candidate of every recent vertex on every machine
 * (reference_greedy below, the implementation before issue 33), for every family, several
 * targets together, the weights auto uses, a list placed inside a draw, meshes with and
 * without repeated corners and with hubs, and corpus meshes stored and shuffled. And the fact
 * the bound rests on is checked on its own: a vertex no primitive fed so far had is shaded at
 * least once by every family's machine. */
#include "test_util.h"

#include <math.h>

#include "optimize/optimize.h"

#define REF_RECENT_MAX 16
#define REF_SCAN 8

/* The greedy as auto.c's step 1 states it, every candidate priced (see the file's comment). */
static void reference_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_model* targets, size_t target_count, const gc_stream_place* place, float beta,
                             float gamma, uint32_t recent_limit, uint32_t* order)
{
    gc_error err;
    gc_live_triangles lists;
    assert_int_equal(gc_live_triangles_init(&lists, indices, triangle_count, vertex_count, &err), GC_OK);
    gc_target_sims t;
    assert_int_equal(
        gc_target_sims_init(&t, targets, target_count, vertex_count, triangle_count, place, NULL, &err), GC_OK);
    uint32_t* dead_end = test_indices(triangle_count * 3);
    unsigned char* emitted = calloc(triangle_count, 1);
    assert_non_null(emitted);
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;
    float boost[64];
    boost[0] = 0.0f;
    for (int n = 1; n < 64; ++n)
        boost[n] = 1.0f / sqrtf((float)n);
    uint32_t recent[REF_RECENT_MAX];
    uint32_t recent_count = 0;
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        for (uint32_t r = 0; r < recent_count; ++r) {
            uint32_t v = recent[r];
            uint32_t scan = live[v] < REF_SCAN ? live[v] : REF_SCAN;
            for (uint32_t a = first[v]; a < first[v] + scan; ++a) {
                uint32_t tri = lists.adj.triangles[a];
                const uint32_t* tv = indices + 3 * (size_t)tri;
                float valence = 0.0f, age = 0.0f;
                for (int c = 0; c < 3; ++c) {
                    uint32_t l = live[tv[c]];
                    valence += l < 64 ? boost[l] : 0.0f;
                }
                gc_sim_primitive p = gc_target_sims_triangle(&t, tv, step);
                uint32_t misses = 0;
                for (size_t k = 0; k < t.count; ++k) {
                    float ages[3] = {0.0f, 0.0f, 0.0f};
                    if (gamma != 0.0f && gc_sim_keeps_age(t.sim[k]))
                        for (int c = 0; c < 3; ++c)
                            ages[c] = live[tv[c]] > 1 ? gc_sim_age(t.sim[k], tv[c]) : 0.0f;
                    unsigned shaded;
                    misses += gc_sim_peek(t.sim[k], &p, &shaded);
                    for (int c = 0; c < 3; ++c)
                        age += GC_SIM_SHADED(shaded, c) ? 0.0f : ages[c];
                }
                float score = (float)misses - beta * valence - gamma * age;
                if (best < 0 || score < best_score || (score == best_score && tri < (uint32_t)best)) {
                    best = tri;
                    best_score = score;
                }
            }
        }
        if (best < 0)
            best = gc_greedy_restart(&lists, dead_end, &dead_top, emitted, &input_cursor);
        uint32_t tri = (uint32_t)best;
        const uint32_t* tv = indices + 3 * (size_t)tri;
        emitted[tri] = 1;
        gc_sim_primitive p = gc_target_sims_triangle(&t, tv, step);
        gc_target_sims_feed(&t, &p);
        order[step] = tri;
        gc_live_triangles_remove(&lists, indices, tri);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        gc_recent_after(recent, &recent_count, recent_limit, tv, live);
    }
    gc_target_sims_free(&t);
    free(dead_end);
    free(emitted);
    gc_live_triangles_free(&lists);
}

/* Every family (with the vendor presets of each), and targets together as auto gets them. */
static const char* const target_sets[] = {
    "generic",        "intel",      "lru:16",        "direct-value:64", "direct-position:32", "nvidia-kepler",
    "nvidia-pascal",  "amd-gcn",    "reuse:32,16,32", "batch",          "llvmpipe",           "nvidia-dx",
    "nvidia-gl",      "ati-basic",  "intel-lower-bound", "cure-warp",
    "intel;nvidia-kepler;nvidia-pascal;amd-gcn", "llvmpipe;nvidia-dx",
};
#define TARGET_SET_COUNT (sizeof target_sets / sizeof target_sets[0])

static size_t parse_set(const char* spec, gc_model* models)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    size_t n = 0;
    char* save = NULL;
    for (char* s = strtok_r(buf, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
        gc_error err;
        if (gc_model_parse(s, &models[n], &err) != GC_OK)
            fail_msg("%s: %s", s, err.message);
        n++;
    }
    return n;
}

/* The weights auto's variants use (beta, gamma, recent vertices), one placed inside a draw. */
static const float weights[][3] = {{0.75f, 0.1f, 7}, {1.0f, 0.2f, 8}, {0.75f, 0.3f, 10}, {1.5f, 0.0f, 3}};

static uint64_t rng_next(uint64_t* s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A random mesh of `tris` triangles over `verts` vertices, later corners often repeating
 * recent ones (so that there are fans to follow); `clean`: no triangle repeats a vertex. */
static uint32_t* random_mesh(uint64_t seed, size_t tris, uint32_t verts, bool clean)
{
    uint32_t* idx = test_indices(tris * 3);
    for (size_t i = 0; i < tris; ++i) {
        uint32_t* t = idx + 3 * i;
        do {
            for (int c = 0; c < 3; ++c) {
                size_t at = 3 * i + (size_t)c;
                size_t back = at < 24 ? at : 24;
                t[c] = (at > 0 && rng_next(&seed) % 2 == 0) ? idx[at - 1 - rng_next(&seed) % back]
                                                              : (uint32_t)(rng_next(&seed) % verts);
            }
        } while (clean && (t[0] == t[1] || t[0] == t[2] || t[1] == t[2]));
    }
    return idx;
}

static void check_mesh(const uint32_t* idx, size_t tris, uint32_t verts, const char* what, size_t weight_count)
{
    uint32_t* a = test_indices(tris ? tris : 1);
    uint32_t* b = test_indices(tris ? tris : 1);
    unsigned char* seen = malloc(tris ? tris : 1);
    assert_non_null(seen);
    for (size_t s = 0; s < TARGET_SET_COUNT; ++s) {
        gc_model models[8];
        size_t count = parse_set(target_sets[s], models);
        for (size_t w = 0; w < weight_count; ++w) {
            /* the last weights: the list as the second of a draw (its own place in the stream) */
            const bool inside = w + 1 == weight_count;
            gc_stream_place place = {inside ? 3 * 17 : 0, inside ? 3 * (uint64_t)tris + 3 * 40 : 0, NULL};
            gc_error err;
            reference_greedy(idx, tris, verts, models, count, &place, weights[w][0], weights[w][1],
                             (uint32_t)weights[w][2], a);
            assert_int_equal(gc_opt_target_greedy(idx, tris, verts, models, count, &place, weights[w][0],
                                                  weights[w][1], (uint32_t)weights[w][2], b, &err),
                             GC_OK);
            memset(seen, 0, tris);
            for (size_t i = 0; i < tris; ++i) {
                assert_true(b[i] < tris && !seen[b[i]]);
                seen[b[i]] = 1;
            }
            if (memcmp(a, b, tris * sizeof *a) != 0)
                fail_msg("%s, %s, weights %zu: the order differs from the reference greedy's", what, target_sets[s],
                         w);
        }
    }
    free(a);
    free(b);
    free(seen);
}

static void same_orders_random(void** state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        /* seeds 1-2: repeated corners (degenerate triangles); 3-4: none; 5-6: none, and hubs
         * (few vertices: more than 64 triangles each) */
        const bool clean = seed > 2;
        const uint32_t verts = seed > 4 ? 12 : 150 + 40 * (uint32_t)seed;
        const size_t tris = 300 + 50 * (size_t)seed;
        uint32_t* idx = random_mesh(seed, tris, verts, clean);
        char what[64];
        snprintf(what, sizeof what, "random mesh %u", (unsigned)seed);
        check_mesh(idx, tris, verts, what, 4);
        free(idx);
    }
}

static void same_orders_corpus(void** state)
{
    (void)state;
#ifdef GPUCACHE_TEST_SANITIZED
    static const char* const meshes[] = {"suzanne.obj"};
#else
    static const char* const meshes[] = {"suzanne.obj", "cow.obj", "fandisk.obj"};
#endif
    for (corpus_rows r = corpus_rows_of(meshes, sizeof meshes / sizeof meshes[0], 7); corpus_rows_next(&r);)
        check_mesh(r.idx, r.tc, r.vertices, r.what, 2);
}

/* The bound's fact: for every family, a triangle whose corners include k distinct vertices
 * that no triangle fed before had costs each machine at least k invocations (priced and
 * fed), whatever came before; here along random triangle streams. */
static void new_vertices_are_shaded(void** state)
{
    (void)state;
    for (size_t s = 0; s < TARGET_SET_COUNT; ++s) {
        gc_model models[8];
        size_t count = parse_set(target_sets[s], models);
        for (size_t k = 0; k < count; ++k) {
            const uint32_t verts = 400;
            gc_sim* sim = NULL;
            gc_error err;
            assert_int_equal(gc_sim_create(&models[k], verts, NULL, &sim, &err), GC_OK);
            gc_sim_begin_run(sim, 0, 3 * 2000);
            unsigned char* drawn = calloc(verts, 1);
            assert_non_null(drawn);
            uint64_t seed = 100 + s;
            for (uint64_t i = 0; i < 2000; ++i) {
                gc_sim_primitive p = {{0, 0, 0, 0}, {3 * i, 3 * i + 1, 3 * i + 2, 0}, 3, i, NULL, 0};
                /* mostly vertices near the previous ones, some repeated, some new */
                for (int c = 0; c < 3; ++c)
                    p.vertices[c] = (uint32_t)((i / 6 + rng_next(&seed) % 12) % verts);
                if (rng_next(&seed) % 8 == 0)
                    p.vertices[2] = p.vertices[0];
                uint32_t fresh = 0;
                for (int c = 0; c < 3; ++c)
                    fresh += !drawn[p.vertices[c]] && !(c > 0 && p.vertices[c] == p.vertices[0]) &&
                             !(c > 1 && p.vertices[c] == p.vertices[1]);
                uint32_t peeked = gc_sim_peek(sim, &p, NULL);
                uint32_t fed = gc_sim_feed(sim, &p, NULL);
                assert_int_equal(peeked, fed);
                if (fed < fresh)
                    fail_msg("%s: triangle %u with %u new vertices cost %u", target_sets[s], (unsigned)i, fresh, fed);
                for (int c = 0; c < 3; ++c)
                    drawn[p.vertices[c]] = 1;
            }
            free(drawn);
            gc_sim_destroy(sim);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_vertices_are_shaded),
        cmocka_unit_test(same_orders_random),
        cmocka_unit_test(same_orders_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
