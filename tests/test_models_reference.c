// SPDX-License-Identifier: MIT
/* fifo, lru, direct-value and direct-position against slow, obviously correct
 * simulations written here, on random streams of every topology, with and without
 * restart, with small and huge index values. */
#include "test_util.h"

/* Primitive vertices and stream positions, straight from the public assembler. */
typedef struct corner {
    uint32_t v;
    size_t pos;
} corner;

static size_t corners_of(const gc_draw* d, corner* out)
{
    gc_assembler a;
    gc_primitive p;
    size_t n = 0;
    gc_assembler_init(&a, d);
    while (gc_assembler_next(&a, &p))
        for (unsigned j = 0; j < p.count; ++j)
            out[n].v = p.vertices[j], out[n++].pos = p.positions[j];
    return n;
}

/* A cache as a plain list: entries[0] is the oldest (FIFO) or least recent (LRU). */
typedef struct ref_cache {
    uint32_t entries[256];
    size_t count;
} ref_cache;

static int find(const ref_cache* c, uint32_t v)
{
    for (size_t i = 0; i < c->count; ++i)
        if (c->entries[i] == v)
            return (int)i;
    return -1;
}

static void remove_at(ref_cache* c, size_t i)
{
    memmove(c->entries + i, c->entries + i + 1, (c->count - i - 1) * sizeof c->entries[0]);
    c->count--;
}

static uint64_t ref_fifo(const corner* cs, size_t n, size_t size)
{
    ref_cache c = {{0}, 0};
    uint64_t misses = 0;
    for (size_t i = 0; i < n; ++i) {
        if (find(&c, cs[i].v) >= 0)
            continue;
        if (c.count == size)
            remove_at(&c, 0);
        c.entries[c.count++] = cs[i].v;
        misses++;
    }
    return misses;
}

static uint64_t ref_lru(const corner* cs, size_t n, size_t size)
{
    ref_cache c = {{0}, 0};
    uint64_t misses = 0;
    for (size_t i = 0; i < n; ++i) {
        int at = find(&c, cs[i].v);
        if (at >= 0) {
            remove_at(&c, (size_t)at);
        } else {
            misses++;
            if (c.count == size)
                remove_at(&c, 0);
        }
        c.entries[c.count++] = cs[i].v;
    }
    return misses;
}

static uint64_t ref_direct_value(const corner* cs, size_t n, size_t size)
{
    int64_t slots[256];
    for (size_t i = 0; i < size; ++i)
        slots[i] = -1;
    uint64_t misses = 0;
    for (size_t i = 0; i < n; ++i) {
        size_t s = cs[i].v % size;
        if (slots[s] != (int64_t)cs[i].v) {
            slots[s] = cs[i].v;
            misses++;
        }
    }
    return misses;
}

static uint64_t ref_direct_position(const corner* cs, size_t n, size_t size)
{
    int64_t slots[256];
    for (size_t i = 0; i < size; ++i)
        slots[i] = -1;
    uint64_t misses = 0;
    for (size_t i = 0; i < n; ++i) {
        bool hit = false;
        for (size_t s = 0; s < size; ++s)
            hit |= slots[s] == (int64_t)cs[i].v;
        if (!hit) {
            slots[cs[i].pos % size] = cs[i].v;
            misses++;
        }
    }
    return misses;
}

static void random_streams(void** state)
{
    (void)state;
    static uint32_t idx[4000];
    static corner cs[4 * 4000];
    uint64_t seed = 42;
    const uint32_t restart = 0xFFFFFFFFu;
    for (int round = 0; round < 1500; ++round) {
        gc_topology t = (gc_topology)(round % GC_TOPOLOGY_COUNT);
        unsigned arity = t == GC_POINT_LIST ? 1 : t == GC_LINE_LIST ? 2 : t == GC_TRIANGLE_LIST ? 3 : t == GC_QUAD_LIST ? 4 : 0;
        bool use_restart = (round / GC_TOPOLOGY_COUNT) % 2 == 1;
        uint32_t spread = round % 7 == 0 ? 1000003u : 1u; /* huge values take the sparse path */
        uint32_t vertices = 2 + (uint32_t)(test_random(&seed) % (round % 3 == 0 ? 10 : 300));
        size_t n = 0, target = 1 + test_random(&seed) % 3000;
        while (n < target) {
            size_t seg = arity ? arity * (1 + test_random(&seed) % 20) : 1 + test_random(&seed) % 60;
            size_t start = n;
            for (size_t i = 0; i < seg && n < 3990; ++i)
                idx[n++] = (uint32_t)(test_random(&seed) % vertices) * spread;
            if (arity)
                n -= (n - start) % arity; /* lists: whole primitives per segment */
            if (use_restart && n < 3990)
                idx[n++] = restart;
            else if (!use_restart)
                break;
        }
        gc_draw d = {idx, n, t, use_restart, restart};
        uint64_t prims;
        gc_error err;
        if (gc_draw_validate(&d, "random", &prims, &err) != GC_OK)
            fail_msg("%s", err.message);
        size_t nc = corners_of(&d, cs);
        for (uint32_t size = 1; size <= 40; size += 3) {
            static const char* const families[] = {"fifo", "lru", "direct-value", "direct-position"};
            uint64_t expected[4] = {ref_fifo(cs, nc, size), ref_lru(cs, nc, size), ref_direct_value(cs, nc, size),
                                    ref_direct_position(cs, nc, size)};
            for (int f = 0; f < 4; ++f) {
                char spec[64];
                snprintf(spec, sizeof spec, "%s:%u", families[f], size);
                gc_model m = model_of(spec);
                gc_stats st;
                gc_per_vertex pv = {0};
                gc_analyze_options o = {0};
                o.per_vertex = &pv;
                assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_OK);
                if (st.invocations != expected[f])
                    fail_msg("%s on %s (restart %d): %llu, reference %llu", spec, gc_topology_name(t), use_restart,
                             (unsigned long long)st.invocations, (unsigned long long)expected[f]);
                assert_int_equal(st.primitives, prims);
                uint64_t sum = 0;
                for (size_t i = 0; i < pv.count; ++i) {
                    sum += pv.counts[i];
                    if (i)
                        assert_true(pv.values[i] > pv.values[i - 1]);
                }
                assert_int_equal(sum, st.invocations);
                gc_per_vertex_free(&pv);
            }
        }
    }
}

/* Per-vertex counts against the reference, one vertex at a time (seed 001's measure). */
static void per_vertex_counts_fifo(void** state)
{
    (void)state;
    uint32_t idx[] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 6, 7, 8, 0, 1, 2};
    /* fifo:6: 0..5 fill it; (0,1,2) hit; 6,7,8 evict 0,1,2; (0,1,2) miss again. */
    gc_model m = model_of("fifo:6");
    gc_draw d = {idx, 15, GC_TRIANGLE_LIST, 0, 0};
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_OK);
    static const uint32_t expected[] = {2, 2, 2, 1, 1, 1, 1, 1, 1};
    assert_int_equal(pv.count, 9);
    for (size_t i = 0; i < 9; ++i) {
        assert_int_equal(pv.values[i], i);
        assert_int_equal(pv.counts[i], expected[i]);
    }
    gc_per_vertex_free(&pv);
    assert_int_equal(st.invocations, 12);
}

/* An index of 4,000,000,000 in a 3-index buffer must not size anything by its value. */
static void huge_values_are_cheap(void** state)
{
    (void)state;
    uint32_t idx[] = {4000000000u, 7, 4000000000u};
    for (int f = 0; f < 5; ++f) {
        static const char* const specs[] = {"fifo:16", "lru:16", "nvidia", "meshopt:32,32,32", "direct-value:7"};
        assert_int_equal(invocations_of(specs[f], idx, 3, GC_TRIANGLE_LIST), 2);
    }
    gc_model m = model_of("fifo:4");
    gc_draw d = {idx, 3, GC_TRIANGLE_LIST, 0, 0};
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_OK);
    assert_int_equal(pv.count, 2);
    assert_int_equal(pv.values[0], 7);
    assert_int_equal(pv.values[1], 4000000000u);
    assert_int_equal(pv.counts[1], 1);
    gc_per_vertex_free(&pv);
}

/* The direct-value slot follows the application's index value even when the
 * analyzer renumbers sparse values internally. */
static void direct_value_uses_real_values(void** state)
{
    (void)state;
    /* 1000000 and 2000000 collide mod 1000: both land in slot 0. */
    uint32_t idx[] = {1000000, 2000000, 1000000, 3000001, 1000000, 2000000};
    assert_int_equal(invocations_of("direct-value:1000", idx, 6, GC_TRIANGLE_LIST), 5);
    assert_int_equal(invocations_of("direct-value:7", idx, 6, GC_TRIANGLE_LIST),
                     /* 1000000%7=1, 2000000%7=2, 3000001%7=5: no collisions */ 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_streams),
        cmocka_unit_test(per_vertex_counts_fifo),
        cmocka_unit_test(huge_values_are_cheap),
        cmocka_unit_test(direct_value_uses_real_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
