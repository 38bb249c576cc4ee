// SPDX-License-Identifier: MIT
/* Each family's fast loop in gc_analyze against its state machine (gc_analyze_sim), on
 * random streams of every topology, with and without restart, with state changes: the
 * same invocations, counters and per-vertex counts. And the save point: a rollback gives
 * back the state exactly. */
#include "test_util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % n);
}

static const char* const specs[] = {
    "fifo:1",   "fifo:3",      "fifo:16",        "lru:1",          "lru:4",         "lru:32",
    "direct-value:1", "direct-value:7", "direct-value:32", "direct-position:1", "direct-position:5",
    "direct-position:32", "nvidia", "nvidia:size=4,idle=2,life=3", "nvidia:size=8,idle=0,life=0",
    "nvidia:size=6,idle=5,life=0", "meshopt:3,0,0", "meshopt:4,6,3", "meshopt:32,32,32", "meshopt:16,32,32",
    "meshopt:14,64,128", "meshopt:8,4,0", "reuse:4,2,3", "reuse:32,16,32", "reuse:6,0,0", "reuse:5,5,1",
    "batch", "batch:slots=4,prims=0", "batch:slots=5,prims=2", "batch:slots=9,prims=1", "llvmpipe",
    "llvmpipe:segment=8,map=4", "llvmpipe:segment=9,map=16", "llvmpipe:segment=12,map=3",
    "llvmpipe:segment=16,map=1", "llvmpipe:segment=31,map=256", "nv-dx", "nv-gl", "batch-all", "ati",
    "nv-dx:indices=12,vertices=4", "nv-gl:indices=9,vertices=5,window=3", "batch-all:indices=6,vertices=4", "batch-all:indices=9,vertices=5,reset=12",
    "ati:lru=3,vertices=4,reset=12", "ati:lru=30,vertices=64,reset=384", "ati:lru=1,vertices=3,reset=9",
    "ati:lru=2,vertices=5,reset=6", "ati:lru=4,vertices=3,reset=300",
};

#define SPEC_COUNT (sizeof specs / sizeof specs[0])

/* Spec i of SPEC_COUNT + gc_family_count(): the odd parameters above, then every family's
 * example from the family table, so that a family added there is tested here too. */
static const char* spec_at(size_t i)
{
    return i < SPEC_COUNT ? specs[i] : gc_family_get(i - SPEC_COUNT)->example;
}

/* Whether m's warp, batch or cache holds one primitive of `arity` (gc_analyze refuses it
 * otherwise: the family's capacity trait). */
static bool holds_a_primitive(const gc_model* m, unsigned arity)
{
    gc_family_traits t;
    gc_model_traits(m, &t);
    return t.capacity == 0 || t.capacity >= arity;
}

static void compare(const gc_model* m, const gc_draw* d, const uint64_t* changes, size_t change_count,
                    uint32_t vertex_count, const char* what)
{
    gc_analyze_options o = {0};
    gc_per_vertex fast_pv, sim_pv;
    o.per_vertex = &fast_pv;
    o.state_changes = changes;
    o.state_change_count = change_count;
    gc_stats fast, slow, plain;
    gc_error err;
    if (gc_analyze(m, d, &o, &fast, &err))
        fail_msg("%s %s: %s", m->name, what, err.message);
    /* the loop without per-vertex counts, which some families specialize */
    if (gc_analyze(m, d, change_count ? &(gc_analyze_options){.state_changes = changes, .state_change_count = change_count} : NULL,
                   &plain, &err))
        fail_msg("%s %s: %s", m->name, what, err.message);
    /* and given the vertex count, which lets the plain fifo and meshopt loops check the
     * indices themselves instead of the driver's pass */
    gc_stats hinted;
    gc_analyze_options ho = {0};
    ho.state_changes = changes;
    ho.state_change_count = change_count;
    ho.vertex_count = vertex_count;
    if (gc_analyze(m, d, &ho, &hinted, &err))
        fail_msg("%s %s (vertex count given): %s", m->name, what, err.message);
    gc_sim* sim;
    if (gc_sim_create(m, vertex_count, NULL, &sim, &err))
        fail_msg("%s: %s", m->name, err.message);
    o.per_vertex = &sim_pv;
    if (gc_analyze_sim(sim, d, &o, &slow, &err))
        fail_msg("%s %s: %s", m->name, what, err.message);
    gc_sim_destroy(sim);
    if (fast.invocations != slow.invocations || plain.invocations != slow.invocations)
        fail_msg("%s %s: invocations %llu (fast), %llu (fast, no per-vertex), %llu (state machine)", m->name, what,
                 (unsigned long long)fast.invocations, (unsigned long long)plain.invocations,
                 (unsigned long long)slow.invocations);
    if (hinted.invocations != slow.invocations || hinted.batches != slow.batches || hinted.resets != slow.resets ||
        hinted.vertices != slow.vertices)
        fail_msg("%s %s: vertex count given: invocations %llu, batches %llu, resets %llu, vertices %llu; state "
                 "machine %llu, %llu, %llu, %llu",
                 m->name, what, (unsigned long long)hinted.invocations, (unsigned long long)hinted.batches,
                 (unsigned long long)hinted.resets, (unsigned long long)hinted.vertices,
                 (unsigned long long)slow.invocations, (unsigned long long)slow.batches,
                 (unsigned long long)slow.resets, (unsigned long long)slow.vertices);
    assert_int_equal(fast.has_batches, slow.has_batches);
    if (fast.batches != slow.batches || plain.batches != slow.batches)
        fail_msg("%s %s: batches %llu / %llu / %llu", m->name, what, (unsigned long long)fast.batches,
                 (unsigned long long)plain.batches, (unsigned long long)slow.batches);
    if (fast.resets != slow.resets || plain.resets != slow.resets)
        fail_msg("%s %s: resets %llu / %llu / %llu", m->name, what, (unsigned long long)fast.resets,
                 (unsigned long long)plain.resets, (unsigned long long)slow.resets);
    assert_int_equal(fast.state_change_flushes, slow.state_change_flushes);
    assert_int_equal(fast.map_mode_batches, slow.map_mode_batches);
    assert_int_equal(fast.slots_filled, slow.slots_filled);
    assert_int_equal(fast.primitives, slow.primitives);
    assert_int_equal(fast_pv.count, sim_pv.count);
    for (size_t i = 0; i < fast_pv.count; ++i) {
        assert_int_equal(fast_pv.values[i], sim_pv.values[i]);
        if (fast_pv.counts[i] != sim_pv.counts[i])
            fail_msg("%s %s: vertex %u shaded %u times (fast), %u (state machine)", m->name, what,
                     fast_pv.values[i], fast_pv.counts[i], sim_pv.counts[i]);
    }
    gc_per_vertex_free(&fast_pv);
    gc_per_vertex_free(&sim_pv);
}

/* A random stream: `n` indices below `vertices`, mostly near the previous ones (so that
 * caches hit), with restarts sprinkled in when `restart`. */
static size_t random_stream(uint32_t* idx, size_t n, uint32_t vertices, bool restart, gc_topology t)
{
    unsigned arity = gc_topology_arity(t);
    size_t k = 0;
    uint32_t base = 0;
    while (k < n) {
        if (restart && k > 0 && rnd(16) == 0 && idx[k - 1] != UINT32_MAX) {
            idx[k++] = UINT32_MAX;
            continue;
        }
        /* lists must hold whole primitives between restarts: write one at a time */
        unsigned group = (t == GC_POINT_LIST || t == GC_LINE_LIST || t == GC_TRIANGLE_LIST || t == GC_QUAD_LIST)
                             ? arity
                             : 1;
        if (k + group > n)
            break;
        for (unsigned j = 0; j < group; ++j) {
            if (rnd(8) == 0)
                base = rnd(vertices);
            idx[k++] = rnd(4) == 0 ? rnd(vertices) : (base + rnd(6)) % vertices;
        }
    }
    return k;
}

static void every_family_every_topology(void** state)
{
    (void)state;
    enum { MAX = 5000 };
    uint32_t* idx = malloc(MAX * sizeof *idx);
    uint64_t changes[64];
    assert_non_null(idx);
    const size_t lengths[] = {0, 1, 2, 3, 7, 30, 257, 1023, 1024, 1025, 2049, 3100};
    for (size_t sp = 0; sp < SPEC_COUNT + gc_family_count(); ++sp) {
        gc_model m = model_of(spec_at(sp));
        for (int t = 0; t < GC_TOPOLOGY_COUNT; ++t) {
            unsigned arity = gc_topology_arity((gc_topology)t);
            if (!holds_a_primitive(&m, arity))
                continue;
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li) {
                for (int restart = 0; restart < 2; ++restart) {
                    uint32_t vertices = 2 + rnd(lengths[li] / 2 + 40);
                    size_t n = random_stream(idx, lengths[li], vertices, restart, (gc_topology)t);
                    gc_draw d = {idx, n, (gc_topology)t, restart, UINT32_MAX};
                    size_t change_count = 0;
                    if (m.family == GC_MODEL_BATCH && n > 0) {
                        /* ascending positions, some repeated, some past the end */
                        uint64_t at = 0;
                        change_count = rnd(20);
                        for (size_t c = 0; c < change_count; ++c) {
                            at += rnd(2) ? rnd((uint32_t)n / 8 + 2) : 0;
                            changes[c] = at;
                        }
                    }
                    char what[96];
                    snprintf(what, sizeof what, "%s, %zu indices, restart %d", gc_topology_name((gc_topology)t), n,
                             restart);
                    compare(&m, &d, change_count ? changes : NULL, change_count, vertices, what);
                }
            }
        }
    }
    free(idx);
}

/* Feeding a stretch after a save and restoring gives back the exact state: the rest of
 * the stream then costs what it costs without the detour. And gc_sim_peek prices each
 * triangle as the feed then does, whether the rule has its own peek or not. */
static void save_and_restore(void** state)
{
    (void)state;
    enum { N = 3 * 600, V = 300 };
    uint32_t idx[N];
    for (size_t i = 0; i < N; ++i)
        idx[i] = (uint32_t)((i / 3 + rnd(12)) % V);
    for (size_t sp = 0; sp < SPEC_COUNT + gc_family_count(); ++sp) {
        gc_model m = model_of(spec_at(sp));
        gc_sim *a, *b;
        gc_error err;
        assert_int_equal(gc_sim_create(&m, V, NULL, &a, &err), GC_OK);
        assert_int_equal(gc_sim_create(&m, V, NULL, &b, &err), GC_OK);
        gc_sim_begin_run(a, 0, N);
        gc_sim_begin_run(b, 0, N);
        for (size_t t = 0; t < N / 3; ++t) {
            gc_sim_primitive p = {{idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]}, {3 * t, 3 * t + 1, 3 * t + 2}, 3, t,
                                  NULL, 0};
            if (t % 50 == 10) {
                /* a detour: 20 other triangles, then back */
                gc_sim_save(a);
                for (size_t u = 0; u < 20; ++u) {
                    size_t o = (t * 7 + u * 13) % (N / 3);
                    gc_sim_primitive q = {{idx[3 * o], idx[3 * o + 2], idx[3 * o + 1]}, {3 * t, 3 * t + 1, 3 * t + 2},
                                          3, t, NULL, 0};
                    gc_sim_feed(a, &q, NULL);
                }
                assert_int_equal(gc_sim_restore(a, &err), GC_OK);
                gc_sim_release(a);
            }
            /* a peek prices the triangle as the feed will, and changes nothing */
            unsigned sp, sp2;
            uint32_t cp = gc_sim_peek(a, &p, &sp), cp2 = gc_sim_peek(a, &p, &sp2);
            unsigned sa, sb;
            uint32_t ca = gc_sim_feed(a, &p, &sa), cb = gc_sim_feed(b, &p, &sb);
            if (cp != ca || sp != sa || cp2 != ca || sp2 != sa)
                fail_msg("%s: triangle %zu priced %u (shaded %x), fed %u (shaded %x)", m.name, t, cp, sp, ca, sa);
            if (ca != cb || sa != sb)
                fail_msg("%s: triangle %zu costs %u after a rollback, %u without", m.name, t, ca, cb);
        }
        gc_stats x, y;
        gc_sim_finish(a, 0);
        gc_sim_finish(b, 0);
        gc_sim_stats(a, &x);
        gc_sim_stats(b, &y);
        assert_int_equal(x.invocations, y.invocations);
        assert_int_equal(x.batches, y.batches);
        assert_int_equal(x.resets, y.resets);
        gc_sim_destroy(a);
        gc_sim_destroy(b);
    }
}

/* Value-keyed rules hash the index value, not the id: with a values table, ids 0 and 1
 * standing for values 0 and 4 collide in a 4-entry direct-value cache. */
static void values_table(void** state)
{
    (void)state;
    gc_model m = model_of("direct-value:4");
    static const uint32_t values[] = {0, 4};
    gc_sim* s;
    gc_error err;
    assert_int_equal(gc_sim_create(&m, 2, values, &s, &err), GC_OK);
    static const uint32_t idx[] = {0, 1, 0, 1};
    gc_draw d = {idx, 4, GC_POINT_LIST, 0, 0};
    gc_stats st;
    assert_int_equal(gc_analyze_sim(s, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 4);
    gc_sim_destroy(s);
    assert_int_equal(gc_sim_create(&m, 2, NULL, &s, &err), GC_OK);
    assert_int_equal(gc_analyze_sim(s, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 2);
    gc_sim_destroy(s);
}

/* gc_introspect against the method done the long way: a gc_analyze of the buffer followed
 * by `arity` copies of each candidate, for every family and topology, with restart. */
static void introspect_equals_per_candidate_draws(void** state)
{
    (void)state;
    enum { N = 260 };
    uint32_t idx[N + 4];
    for (size_t sp = 0; sp < SPEC_COUNT + gc_family_count(); ++sp) {
        gc_model m = model_of(spec_at(sp));
        for (int t = 0; t < GC_TOPOLOGY_COUNT; ++t) {
            unsigned arity = gc_topology_arity((gc_topology)t);
            if (!holds_a_primitive(&m, arity))
                continue;
            for (int restart = 0; restart < 2; ++restart) {
                uint32_t vertices = 3 + rnd(60);
                size_t n = random_stream(idx, N - 10 + rnd(10), vertices, restart, (gc_topology)t);
                gc_draw d = {idx, n, (gc_topology)t, restart, UINT32_MAX};
                uint32_t candidates[80], cached[80], expected[80];
                size_t count = 0, cached_count = 0, expected_count = 0;
                for (uint32_t v = 0; v < vertices + 3; ++v) /* some never drawn */
                    candidates[count++] = v;
                gc_error err;
                gc_stats base, probe;
                if (gc_analyze(&m, &d, NULL, &base, &err))
                    fail_msg("%s: %s", m.name, err.message);
                for (size_t c = 0; c < count; ++c) {
                    for (unsigned k = 0; k < arity; ++k)
                        idx[n + k] = candidates[c];
                    gc_draw pd = {idx, n + arity, (gc_topology)t, restart, UINT32_MAX};
                    if (gc_analyze(&m, &pd, NULL, &probe, &err))
                        fail_msg("%s: %s", m.name, err.message);
                    if (probe.invocations == base.invocations)
                        expected[expected_count++] = candidates[c];
                }
                if (gc_introspect(&m, &d, candidates, count, cached, &cached_count, &err))
                    fail_msg("%s: %s", m.name, err.message);
                if (cached_count != expected_count || memcmp(cached, expected, cached_count * sizeof *cached))
                    fail_msg("%s, %s, restart %d, %zu indices: %zu cached by simulation, %zu by drawing", m.name,
                             gc_topology_name((gc_topology)t), restart, n, cached_count, expected_count);
            }
        }
    }
}

/* Long triangle lists, in order and scattered: the plain loops' prefetching variants
 * (taken only for draws of at least 2^16 vertices whose indices jump) and the warp-by-warp
 * meshopt loop, against the machines; with and without the vertex count. */
static void plain_loops_on_long_draws(void** state)
{
    (void)state;
    static const char* const specs[] = {"fifo:16", "fifo:128", "meshopt:32,32,32", "meshopt:16,16,32",
                                        "meshopt:64,32,0", "meshopt:14,64,128", "meshopt:32,3,1"};
    const uint32_t V = 150000;
    const size_t N = 3 * 200000;
    uint32_t* idx = malloc(N * sizeof *idx);
    assert_non_null(idx);
    for (int scattered = 0; scattered < 2; ++scattered) {
        for (size_t i = 0; i < N; ++i)
            idx[i] = scattered ? rnd(V) : (uint32_t)((i / 3 + rnd(40)) % V);
        idx[N - 1] = V - 1; /* the largest vertex is drawn, so that V is the draw's count */
        idx[7] = idx[8]; /* and a degenerate triangle */
        gc_draw d = {idx, N, GC_TRIANGLE_LIST, 0, 0};
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; ++s) {
            gc_model m = model_of(specs[s]);
            compare(&m, &d, NULL, 0, V, scattered ? "scattered" : "in order");
        }
    }
    free(idx);
}

/* A vertex count that an index reaches is bad input, wherever the index is and whichever
 * loop meets it (the plain loops' own check, below and above the power of two they size
 * their state to, or the driver's). */
static void vertex_count_is_checked(void** state)
{
    (void)state;
    static const char* const specs[] = {"fifo:16", "meshopt:32,32,32", "meshopt:14,64,128", "lru:16"};
    uint32_t idx[3000];
    for (size_t i = 0; i < 3000; ++i)
        idx[i] = (uint32_t)(i / 3 % 1000);
    static const uint32_t bad[] = {1000, 1023, 1024, 5000000, UINT32_MAX};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; ++s) {
        gc_model m = model_of(specs[s]);
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
            uint32_t copy[3000];
            memcpy(copy, idx, sizeof copy);
            copy[1234] = bad[b];
            gc_draw d = {copy, 3000, GC_TRIANGLE_LIST, 0, 0};
            gc_analyze_options o = {0};
            o.vertex_count = 1000;
            gc_stats st;
            gc_error err;
            assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_ERR_DATA);
            char want[96];
            snprintf(want, sizeof want, "index 1234 is %u, not below the vertex count 1000", bad[b]);
            if (!strstr(err.message, want))
                fail_msg("%s, index %u: '%s'", specs[s], bad[b], err.message);
        }
    }
}

/* gc_analyze_models gives each model what gc_analyze gives it, on any number of threads,
 * for in-order, sparse and restart draws; a failing model's error is the first in order. */
static void analyze_models_equals_analyze(void** state)
{
    (void)state;
    static const char* const specs[] = {"fifo:16", "lru:8", "nvidia", "meshopt:32,32,32", "meshopt:14,64,128",
                                        "reuse:32,16,32", "batch", "llvmpipe", "direct-value:64",
                                        "direct-position:32", "fifo:128", "nv-dx", "nv-gl", "batch-all", "ati",
                                        "ati:lru=30,vertices=64,reset=384"};
    const size_t M = sizeof specs / sizeof specs[0];
    gc_model models[sizeof specs / sizeof specs[0]];
    for (size_t i = 0; i < M; ++i)
        models[i] = model_of(specs[i]);
    const size_t N = 30000;
    uint32_t* idx = malloc(N * sizeof *idx);
    assert_non_null(idx);
    for (int kind = 0; kind < 3; ++kind) {
        size_t n = random_stream(idx, N, 5000, kind == 2, GC_TRIANGLE_LIST);
        if (kind == 1) /* sparse: values far above the index count */
            for (size_t i = 0; i < n; ++i)
                idx[i] = idx[i] * 100003u + 7;
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, kind == 2, UINT32_MAX};
        gc_stats one[sizeof specs / sizeof specs[0]], many[sizeof specs / sizeof specs[0]];
        gc_error err;
        for (size_t i = 0; i < M; ++i)
            if (gc_analyze(&models[i], &d, NULL, &one[i], &err))
                fail_msg("%s: %s", specs[i], err.message);
        for (unsigned threads = 0; threads <= 4; ++threads) {
            if (gc_analyze_models(models, M, &d, NULL, threads, many, &err))
                fail_msg("%u threads: %s", threads, err.message);
            for (size_t i = 0; i < M; ++i)
                if (memcmp(&one[i], &many[i], sizeof one[i]) != 0)
                    fail_msg("%s, draw %d, %u threads: invocations %llu alone, %llu among others", specs[i], kind,
                             threads, (unsigned long long)one[i].invocations,
                             (unsigned long long)many[i].invocations);
        }
    }
    /* a quad list that no warp of 3 can hold: the first model in order that fails names itself */
    gc_model bad[3] = {model_of("fifo:16"), model_of("meshopt:32,3,32"), model_of("reuse:3,3,32")};
    for (size_t i = 0; i < 8; ++i)
        idx[i] = (uint32_t)i;
    gc_draw quads = {idx, 8, GC_QUAD_LIST, 0, 0};
    gc_stats out[3];
    gc_error err;
    assert_int_equal(gc_analyze_models(bad, 3, &quads, NULL, 2, out, &err), GC_ERR_USAGE);
    if (!strstr(err.message, "meshopt:32,3,32"))
        fail_msg("error names the wrong model: %s", err.message);
    gc_per_vertex pv;
    gc_analyze_options with_pv = {0};
    with_pv.per_vertex = &pv;
    assert_int_equal(gc_analyze_models(models, M, &quads, &with_pv, 2, out, &err), GC_ERR_USAGE);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_family_every_topology),
        cmocka_unit_test(save_and_restore),
        cmocka_unit_test(values_table),
        cmocka_unit_test(introspect_equals_per_candidate_draws),
        cmocka_unit_test(plain_loops_on_long_draws),
        cmocka_unit_test(vertex_count_is_checked),
        cmocka_unit_test(analyze_models_equals_analyze),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
