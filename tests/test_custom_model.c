// SPDX-License-Identifier: MIT
/* The custom-model example (examples/custom_model/set_assoc.c, compiled into this test):
 * a rule of the caller's own, plugged in through the public gc_sim interface.
 *  - small streams worked by hand, where a 2-way cache and a direct-mapped one differ;
 *  - its two degenerate shapes against the built-in models gc_analyze runs: one set of N
 *    ways is lru:N, N sets of one way are direct-value:N, on random streams and on the
 *    corpus meshes;
 *  - a save point rolls the machine back exactly;
 *  - gc_analyze_sim's per-vertex counts add up to its invocations. */
#include "test_util.h"

#include "set_assoc.h"

static gc_sim* make_sim(uint32_t sets, uint32_t ways, set_assoc_params* params, uint32_t vertex_count,
                        const uint32_t* values)
{
    /* the rule keeps a pointer to the params: the caller's storage outlives the machine */
    params->sets = sets;
    params->ways = ways;
    assert_true(set_assoc_valid(params));
    gc_sim* sim = NULL;
    gc_error err;
    if (gc_sim_create_custom(&set_assoc_rule, params, vertex_count, values, &sim, &err))
        fail_msg("gc_sim_create_custom: %s", err.message);
    return sim;
}

/* Feeds one primitive of `count` vertices by hand, as an optimizer would. */
static uint32_t feed(gc_sim* sim, const uint32_t* v, unsigned count, uint64_t number, unsigned* shaded)
{
    gc_sim_primitive p;
    memset(&p, 0, sizeof p);
    p.count = count;
    p.number = number;
    for (unsigned j = 0; j < count; ++j) {
        p.vertices[j] = v[j];
        p.positions[j] = number * count + j;
    }
    return gc_sim_feed(sim, &p, shaded);
}

/* A whole draw through a custom machine with gc_analyze_sim, per-vertex counts in *pv
 * (NULL: none). */
static gc_stats analyze_custom(uint32_t sets, uint32_t ways, const gc_draw* d, uint32_t vertex_count,
                               const uint32_t* values, gc_per_vertex* pv)
{
    set_assoc_params params;
    gc_sim* sim = make_sim(sets, ways, &params, vertex_count, values);
    gc_analyze_options o = {0};
    o.per_vertex = pv;
    gc_stats st;
    gc_error err;
    if (gc_analyze_sim(sim, d, &o, &st, &err))
        fail_msg("gc_analyze_sim %ux%u: %s", sets, ways, err.message);
    gc_sim_destroy(sim);
    return st;
}

/* ------------------------------------------------------------- by hand */

/* 2 sets x 2 ways (set = value % 2) against a direct-mapped cache of the same 4 entries
 * (slot = value % 4: direct-value:4, or the rule with 4 sets of one way).
 *
 *           2 sets x 2 ways, [most recent, least recent]     direct-mapped, slots 0..3
 *   (0,4,1) 0 miss  s0=[0]; 4 miss s0=[4,0]; 1 miss s1=[1]    0 miss; 4 miss (slot 0, evicts 0);
 *           cost 3                                             1 miss: cost 3
 *   (4,0,3) 4 hit   s0=[4,0]; 0 hit s0=[0,4]; 3 miss s1=[3,1]  4 hit; 0 miss (evicts 4); 3 miss
 *           cost 1                                             (slot 3): cost 2
 *   (0,4,5) 0 hit   s0=[0,4]; 4 hit s0=[4,0]; 5 miss, evicts   0 hit; 4 miss (evicts 0); 5 miss
 *           1 (least recent): s1=[5,3]; cost 1                 (slot 1, evicts 1): cost 2
 *   (3,9,5) 3 hit   s1=[3,5] (refreshed); 9 miss, evicts 5:    3 hit; 9 miss (slot 1, evicts 5);
 *           s1=[9,3]; 5 miss, evicts 3: s1=[5,9]; cost 2       5 miss (evicts 9): cost 2
 *
 * Totals: 7 for the 2-way cache, 9 direct-mapped: 0 and 4 share a slot of the direct-mapped
 * cache but live together in a 2-way set. The last triangle shows the refresh on a hit: had
 * the hit on 3 not made it the most recent, 9 would have evicted 3 (inserted before 5)
 * and 5 would have hit, for a cost of 1.
 * Per vertex (2-way): 0, 1, 3, 4, 9 shaded once each, 5 twice (T3 and T4): 7 in all. */
static const uint32_t hand_stream[] = {0, 4, 1, 4, 0, 3, 0, 4, 5, 3, 9, 5};

static void two_way_by_hand(void** state)
{
    (void)state;
    set_assoc_params params;
    gc_sim* sim = make_sim(2, 2, &params, 10, NULL);
    gc_sim_begin_run(sim, 0, 12);
    const uint32_t costs[4] = {3, 1, 1, 2};
    /* who was shaded: every corner of T1, the third of T2 and T3, the second and third of T4 */
    const unsigned masks[4] = {GC_SIM_SHADE(0) + GC_SIM_SHADE(1) + GC_SIM_SHADE(2), GC_SIM_SHADE(2),
                               GC_SIM_SHADE(2), GC_SIM_SHADE(1) + GC_SIM_SHADE(2)};
    for (unsigned t = 0; t < 4; ++t) {
        unsigned shaded = 0xDEAD; /* overwritten by gc_sim_feed */
        assert_int_equal(feed(sim, hand_stream + 3 * t, 3, t, &shaded), costs[t]);
        assert_int_equal(shaded, masks[t]);
    }
    gc_stats st;
    gc_sim_stats(sim, &st);
    assert_int_equal(st.invocations, 7);
    /* after T4: set 0 = [4, 0], set 1 = [5, 9]; age = way / ways */
    assert_true(gc_sim_age(sim, 4) == 0.0f);
    assert_true(gc_sim_age(sim, 0) == 0.5f);
    assert_true(gc_sim_age(sim, 5) == 0.0f);
    assert_true(gc_sim_age(sim, 9) == 0.5f);
    assert_true(gc_sim_age(sim, 3) == 0.0f); /* evicted */
    gc_sim_destroy(sim);

    /* the same stream as a draw, through gc_analyze_sim, with per-vertex counts */
    gc_draw d = {hand_stream, 12, GC_TRIANGLE_LIST, 0, 0};
    gc_per_vertex pv = {0};
    gc_stats two_way = analyze_custom(2, 2, &d, 10, NULL, &pv);
    assert_int_equal(two_way.invocations, 7);
    assert_int_equal(two_way.primitives, 4);
    assert_int_equal(two_way.vertices, 6);
    assert_true(two_way.acmr == 7.0 / 4.0);
    assert_true(two_way.atvr == 7.0 / 6.0);
    const uint32_t values[6] = {0, 1, 3, 4, 5, 9}, counts[6] = {1, 1, 1, 1, 2, 1};
    assert_int_equal(pv.count, 6);
    for (size_t i = 0; i < 6; ++i) {
        assert_int_equal(pv.values[i], values[i]);
        assert_int_equal(pv.counts[i], counts[i]);
    }
    gc_per_vertex_free(&pv);

    /* direct-mapped: the built-in model and the rule with one way per set */
    assert_int_equal(invocations_of("direct-value:4", hand_stream, 12, GC_TRIANGLE_LIST), 9);
    assert_int_equal(analyze_custom(4, 1, &d, 10, NULL, NULL).invocations, 9);
}

/* A vertex twice in one primitive is shaded once, at its first corner. 1 set x 2 ways:
 * (2,2,5): 2 miss, 2 hit, 5 miss: cost 2, corners 0 and 2. (2,2,2) on a fresh machine:
 * cost 1, corner 0. (7,5,7) after the first: 7 miss, evicting 2 (the set is [5,2]);
 * 5 hit; 7 hit: cost 1, corner 0. */
static void repeated_vertices(void** state)
{
    (void)state;
    set_assoc_params params;
    gc_sim* sim = make_sim(1, 2, &params, 8, NULL);
    unsigned shaded;
    assert_int_equal(feed(sim, (const uint32_t[]){2, 2, 5}, 3, 0, &shaded), 2);
    assert_int_equal(shaded, GC_SIM_SHADE(0) + GC_SIM_SHADE(2));
    assert_int_equal(feed(sim, (const uint32_t[]){7, 5, 7}, 3, 1, &shaded), 1);
    assert_int_equal(shaded, GC_SIM_SHADE(0));
    assert_int_equal(GC_SIM_SHADED(shaded, 0), 1);
    assert_int_equal(GC_SIM_SHADED(shaded, 2), 0);
    gc_sim_reset(sim, GC_TRIANGLE_LIST);
    assert_int_equal(feed(sim, (const uint32_t[]){2, 2, 2}, 3, 0, &shaded), 1);
    assert_int_equal(shaded, GC_SIM_SHADE(0));
    gc_sim_destroy(sim);
}

/* Sets are keyed by index value, through the machine's `values` when it has them.
 * 2 sets x 1 way, points 0, 1, 0, 1 by id. Ids as values: 0 in set 0, 1 in set 1, two
 * misses. Ids 0 and 1 standing for values 10 and 12, both in set 0: each point evicts the
 * other, four misses; the per-vertex rows carry the values, two shadings each. */
static void keyed_by_value(void** state)
{
    (void)state;
    const uint32_t points[4] = {0, 1, 0, 1};
    gc_draw d = {points, 4, GC_POINT_LIST, 0, 0};
    assert_int_equal(analyze_custom(2, 1, &d, 2, NULL, NULL).invocations, 2);
    const uint32_t values[2] = {10, 12};
    gc_per_vertex pv = {0};
    assert_int_equal(analyze_custom(2, 1, &d, 2, values, &pv).invocations, 4);
    assert_int_equal(pv.count, 2);
    assert_int_equal(pv.values[0], 10);
    assert_int_equal(pv.values[1], 12);
    assert_int_equal(pv.counts[0], 2);
    assert_int_equal(pv.counts[1], 2);
    gc_per_vertex_free(&pv);
}

/* The rule's limits, and gc_sim's: at least one set and one way, at most 65536 entries
 * (GC_MAX_CACHE_SIZE); a rule with more than 4 words per vertex, or none to feed with, is
 * refused. */
static void limits(void** state)
{
    (void)state;
    assert_false(set_assoc_valid(&(set_assoc_params){0, 2}));
    assert_false(set_assoc_valid(&(set_assoc_params){2, 0}));
    assert_true(set_assoc_valid(&(set_assoc_params){65536, 1}));
    assert_true(set_assoc_valid(&(set_assoc_params){256, 256}));
    assert_false(set_assoc_valid(&(set_assoc_params){257, 256}));
    assert_false(set_assoc_valid(&(set_assoc_params){65536, 65536})); /* 2^32: no wrap to 0 */
    assert_false(set_assoc_valid(NULL));
    set_assoc_params params = {2, 2};
    gc_sim_rule rule = set_assoc_rule;
    rule.words_per_vertex = 5;
    gc_sim* sim = NULL;
    gc_error err;
    assert_int_equal(gc_sim_create_custom(&rule, &params, 4, NULL, &sim, &err), GC_ERR_USAGE);
    assert_null(sim);
    rule = set_assoc_rule;
    rule.feed = NULL;
    assert_int_equal(gc_sim_create_custom(&rule, &params, 4, NULL, &sim, &err), GC_ERR_USAGE);
    /* index values at or above the machine's vertex count are data errors */
    const uint32_t tri[3] = {0, 1, 4};
    gc_draw d = {tri, 3, GC_TRIANGLE_LIST, 0, 0};
    sim = make_sim(2, 2, &params, 4, NULL);
    gc_stats st;
    assert_int_equal(gc_analyze_sim(sim, &d, NULL, &st, &err), GC_ERR_DATA);
    gc_sim_destroy(sim);
}

/* ------------------------------------------- against the built-in models */

static uint64_t rng = 0x243F6A8885A308D3ull;

/* `n` indices below `vertices` for topology `t`: mostly near a drifting base, so that a
 * cache hits, sometimes anywhere, so that it misses; restarts (UINT32_MAX) sprinkled in
 * when `restart`, between whole primitives of a list. Returns the count written. */
static size_t random_stream(uint32_t* idx, size_t n, uint32_t vertices, bool restart, gc_topology t)
{
    const unsigned group = (t == GC_POINT_LIST || t == GC_LINE_LIST || t == GC_TRIANGLE_LIST || t == GC_QUAD_LIST)
                               ? gc_topology_arity(t)
                               : 1;
    uint32_t base = 0;
    size_t k = 0;
    while (k + group <= n) {
        if (restart && k > 0 && idx[k - 1] != UINT32_MAX && test_random(&rng) % 12 == 0) {
            idx[k++] = UINT32_MAX;
            continue;
        }
        for (unsigned j = 0; j < group; ++j) {
            if (test_random(&rng) % 10 == 0)
                base = (uint32_t)(test_random(&rng) % vertices);
            uint64_t r = test_random(&rng);
            idx[k++] = r % 5 == 0 ? (uint32_t)((r >> 8) % vertices) : (uint32_t)((base + (r >> 8) % 9) % vertices);
        }
    }
    return k;
}

/* The custom machine (sets x ways) and the built-in `spec` through gc_analyze: the same
 * invocations and the same per-vertex counts. */
static void same_as_builtin(uint32_t sets, uint32_t ways, const char* spec, const gc_draw* d, uint32_t vertex_count,
                            const char* what)
{
    gc_per_vertex custom_pv = {0}, builtin_pv = {0};
    gc_stats custom = analyze_custom(sets, ways, d, vertex_count, NULL, &custom_pv);
    gc_model m = model_of(spec);
    gc_analyze_options o = {0};
    o.per_vertex = &builtin_pv;
    gc_stats builtin;
    gc_error err;
    if (gc_analyze(&m, d, &o, &builtin, &err))
        fail_msg("%s %s: %s", spec, what, err.message);
    if (custom.invocations != builtin.invocations)
        fail_msg("%s: set-assoc %ux%u %llu invocations, %s %llu", what, sets, ways,
                 (unsigned long long)custom.invocations, spec, (unsigned long long)builtin.invocations);
    assert_int_equal(custom.primitives, builtin.primitives);
    assert_int_equal(custom.vertices, builtin.vertices);
    assert_int_equal(custom_pv.count, builtin_pv.count);
    for (size_t i = 0; i < custom_pv.count; ++i) {
        assert_int_equal(custom_pv.values[i], builtin_pv.values[i]);
        if (custom_pv.counts[i] != builtin_pv.counts[i])
            fail_msg("%s: vertex %u shaded %u times by set-assoc %ux%u, %u by %s", what, custom_pv.values[i],
                     custom_pv.counts[i], sets, ways, builtin_pv.counts[i], spec);
    }
    gc_per_vertex_free(&custom_pv);
    gc_per_vertex_free(&builtin_pv);
}

static const uint32_t sizes[] = {1, 2, 3, 4, 7, 8, 16, 32};
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

/* One set of N ways is a fully associative LRU cache (lru:N); N sets of one way are a
 * direct-mapped cache keyed by value (direct-value:N). Triangle lists, and strips with
 * restarts (the rule sees only assembled primitives, whatever the topology). */
static void degenerate_shapes_random(void** state)
{
    (void)state;
    enum { MAX = 3000 };
    uint32_t* idx = malloc(MAX * sizeof *idx);
    assert_non_null(idx);
    const size_t lengths[] = {0, 3, 30, 300, 3000};
    for (size_t s = 0; s < SIZE_COUNT; ++s) {
        char lru[32], direct[32];
        snprintf(lru, sizeof lru, "lru:%u", sizes[s]);
        snprintf(direct, sizeof direct, "direct-value:%u", sizes[s]);
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li)
            for (int strip = 0; strip < 2; ++strip) {
                gc_topology t = strip ? GC_TRIANGLE_STRIP : GC_TRIANGLE_LIST;
                uint32_t vertices = 3 + (uint32_t)(test_random(&rng) % (lengths[li] / 3 + 60));
                size_t n = random_stream(idx, lengths[li], vertices, strip, t);
                gc_draw d = {idx, n, t, strip, UINT32_MAX};
                char what[96];
                snprintf(what, sizeof what, "%s of %zu indices", gc_topology_name(t), n);
                same_as_builtin(1, sizes[s], lru, &d, vertices, what);
                same_as_builtin(sizes[s], 1, direct, &d, vertices, what);
            }
    }
    free(idx);
}

/* The largest index value + 1: the machine's vertex count for a mesh whose values are dense. */
static uint32_t vertex_count_of(const gc_mesh* mesh)
{
    uint32_t count = 0;
    for (size_t i = 0; i < mesh->index_count; ++i)
        if (!(mesh->restart_enabled && mesh->indices[i] == mesh->restart_value) && mesh->indices[i] >= count)
            count = mesh->indices[i] + 1;
    return count;
}

/* The same on the corpus meshes, where present; and on each, per-vertex counts that add up
 * to the invocations with 2 ways per set (the shape that matches no built-in model). */
static void degenerate_shapes_corpus(void** state)
{
    (void)state;
    size_t found = 0;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        char path[1024];
        if (corpus_path(path, sizeof path, corpus_meshes_list[i]))
            continue;
        found++;
        gc_mesh mesh;
        gc_error err;
        if (gc_mesh_load(path, NULL, &mesh, &err))
            fail_msg("%s: %s", path, err.message);
        gc_draw d = {mesh.indices, mesh.index_count, mesh.topology, mesh.restart_enabled, mesh.restart_value};
        const uint32_t vertex_count = vertex_count_of(&mesh);
        same_as_builtin(1, 16, "lru:16", &d, vertex_count, corpus_meshes_list[i]);
        same_as_builtin(1, 32, "lru:32", &d, vertex_count, corpus_meshes_list[i]);
        same_as_builtin(16, 1, "direct-value:16", &d, vertex_count, corpus_meshes_list[i]);
        gc_per_vertex pv = {0};
        gc_stats st = analyze_custom(8, 2, &d, vertex_count, NULL, &pv);
        uint64_t sum = 0;
        for (size_t v = 0; v < pv.count; ++v)
            sum += pv.counts[v];
        assert_int_equal(sum, st.invocations);
        assert_int_equal(pv.count, st.vertices); /* a mesh draws every vertex it indexes */
        /* every vertex drawn is shaded at least once, and a real mesh has more triangles
           than a 16-entry cache can keep: some vertex is shaded again */
        assert_true(st.invocations > st.vertices);
        gc_per_vertex_free(&pv);
        gc_mesh_free(&mesh);
    }
    if (!found)
        skip();
}

/* ------------------------------------------------------------ save point */

/* Triangles of `count` random vertices below `vertices` into `out` (3 * count ids). */
static void random_triangles(uint32_t* out, size_t count, uint32_t first, uint32_t vertices)
{
    for (size_t i = 0; i < 3 * count; ++i)
        out[i] = first + (uint32_t)(test_random(&rng) % vertices);
}

/* Feeds `count` triangles from `tris`, numbered from `number`; writes each one's cost and
 * shaded corners into costs/masks when given; returns the total. */
static uint64_t feed_all(gc_sim* sim, const uint32_t* tris, size_t count, uint64_t number, uint32_t* costs,
                         unsigned* masks)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        unsigned shaded;
        uint32_t c = feed(sim, tris + 3 * i, 3, number + i, &shaded);
        if (costs)
            costs[i] = c;
        if (masks)
            masks[i] = shaded;
        total += c;
    }
    return total;
}

/* A machine fed a prefix, then a detour that it rolls back (twice: the save point stays
 * open after a restore), then a suffix, pays for the suffix exactly what a machine fed the
 * prefix and the suffix alone pays, triangle by triangle and corner by corner; and its
 * invocation count comes back too. The detour must matter, or this proves nothing: a third
 * machine that keeps the detours pays more for the suffix. Why it must: the second detour
 * sweeps 75 vertices the suffix never uses, at least 4 in each of the (at most 16) sets,
 * as many as a set has ways or more, so none of the suffix's vertices is left cached.
 * Without the detours, the suffix's first vertex, the prefix's last one, is the most
 * recent entry of its set and hits; and no access of the suffix can hit after the detours
 * and miss without them (within a set, LRU keeps the `ways` most recent vertices, and the
 * detours add only vertices the suffix never asks for). */
static void save_and_restore(void** state)
{
    (void)state;
    enum { PREFIX = 40, DETOUR = 25, SUFFIX = 40, V = 48 };
    const uint32_t shapes[][2] = {{2, 2}, {8, 2}, {1, 16}, {16, 1}, {4, 4}};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh)
        for (int round = 0; round < 20; ++round) {
            const uint32_t sets = shapes[sh][0], ways = shapes[sh][1];
            uint32_t prefix[3 * PREFIX], detour[3 * DETOUR], detour2[3 * DETOUR], suffix[3 * SUFFIX];
            random_triangles(prefix, PREFIX, 0, V);
            /* the suffix begins with the prefix's last triangle backwards, then its
               triangles before that, so that what the prefix left in the cache matters;
               then random ones. The detours use other vertices: a random one, a sweep. */
            for (unsigned j = 0; j < 3; ++j)
                suffix[j] = prefix[3 * PREFIX - 1 - j];
            memcpy(suffix + 3, prefix + 3 * (PREFIX - SUFFIX / 2), sizeof(uint32_t) * 3 * (SUFFIX / 2 - 1));
            random_triangles(suffix + 3 * (SUFFIX / 2), SUFFIX - SUFFIX / 2, 0, V);
            random_triangles(detour, DETOUR, V, 2 * V);
            for (uint32_t i = 0; i < 3 * DETOUR; ++i)
                detour2[i] = V + i;

            set_assoc_params pa, pb, pc;
            gc_sim* a = make_sim(sets, ways, &pa, 3 * V, NULL);
            gc_sim* b = make_sim(sets, ways, &pb, 3 * V, NULL);
            gc_sim* c = make_sim(sets, ways, &pc, 3 * V, NULL);
            gc_error err;
            uint32_t cost_a[SUFFIX], cost_b[SUFFIX];
            unsigned mask_a[SUFFIX], mask_b[SUFFIX];

            uint64_t before = feed_all(a, prefix, PREFIX, 0, NULL, NULL);
            gc_sim_save(a);
            assert_true(feed_all(a, detour, DETOUR, PREFIX, NULL, NULL) > 0);
            assert_int_equal(gc_sim_restore(a, &err), GC_OK);
            feed_all(a, detour2, DETOUR, PREFIX, NULL, NULL);
            assert_int_equal(gc_sim_restore(a, &err), GC_OK);
            gc_stats st;
            gc_sim_stats(a, &st);
            assert_int_equal(st.invocations, before);
            gc_sim_release(a);
            /* released: nothing to go back to */
            assert_int_equal(gc_sim_restore(a, &err), GC_ERR_USAGE);
            uint64_t after_a = feed_all(a, suffix, SUFFIX, PREFIX, cost_a, mask_a);

            assert_int_equal(feed_all(b, prefix, PREFIX, 0, NULL, NULL), before);
            uint64_t after_b = feed_all(b, suffix, SUFFIX, PREFIX, cost_b, mask_b);
            for (size_t i = 0; i < SUFFIX; ++i) {
                assert_int_equal(cost_a[i], cost_b[i]);
                assert_int_equal(mask_a[i], mask_b[i]);
            }
            assert_int_equal(after_a, after_b);
            gc_stats sa, sb;
            gc_sim_stats(a, &sa);
            gc_sim_stats(b, &sb);
            assert_int_equal(sa.invocations, sb.invocations);

            feed_all(c, prefix, PREFIX, 0, NULL, NULL);
            feed_all(c, detour, DETOUR, PREFIX, NULL, NULL);
            feed_all(c, detour2, DETOUR, PREFIX + DETOUR, NULL, NULL);
            uint64_t after_c = feed_all(c, suffix, SUFFIX, PREFIX + 2 * DETOUR, NULL, NULL);
            assert_true(after_c > after_b);

            gc_sim_destroy(a);
            gc_sim_destroy(b);
            gc_sim_destroy(c);
        }
}

/* ------------------------------------------------------ per-vertex counts */

/* gc_analyze_sim's per-vertex counts come from the rule's *shaded, its invocations from
 * the rule's return value: the two must agree, on every topology, with restarts. Rows:
 * one per distinct index value (restarts excluded). */
static void per_vertex_sums(void** state)
{
    (void)state;
    enum { MAX = 2000 };
    uint32_t* idx = malloc(MAX * sizeof *idx);
    unsigned char* seen = malloc(300);
    assert_non_null(idx);
    assert_non_null(seen);
    for (int t = 0; t < GC_TOPOLOGY_COUNT; ++t)
        for (int restart = 0; restart < 2; ++restart)
            for (int round = 0; round < 4; ++round) {
                const uint32_t vertices = 300;
                size_t n = random_stream(idx, MAX, vertices, restart, (gc_topology)t);
                gc_draw d = {idx, n, (gc_topology)t, restart, UINT32_MAX};
                size_t distinct = 0;
                memset(seen, 0, vertices);
                for (size_t i = 0; i < n; ++i)
                    if (idx[i] != UINT32_MAX && !seen[idx[i]]) {
                        seen[idx[i]] = 1;
                        distinct++;
                    }
                gc_per_vertex pv = {0};
                gc_stats st = analyze_custom(4, 2, &d, vertices, NULL, &pv);
                uint64_t sum = 0;
                for (size_t i = 0; i < pv.count; ++i)
                    sum += pv.counts[i];
                assert_int_equal(sum, st.invocations);
                assert_int_equal(pv.count, distinct);
                assert_true(st.invocations > 0);
                gc_per_vertex_free(&pv);
            }
    free(seen);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_way_by_hand),
        cmocka_unit_test(repeated_vertices),
        cmocka_unit_test(keyed_by_value),
        cmocka_unit_test(limits),
        cmocka_unit_test(degenerate_shapes_random),
        cmocka_unit_test(degenerate_shapes_corpus),
        cmocka_unit_test(save_and_restore),
        cmocka_unit_test(per_vertex_sums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
