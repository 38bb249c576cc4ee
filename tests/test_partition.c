// SPDX-License-Identifier: MIT
/* Issue 33 item 3: a list cut into parts (partition.c) and auto's llvmpipe default made part
 * by part (auto_parts.c).
 *  - the partition is a partition: every triangle once, each part a run of the walk in
 *    increasing triangle number, the cuts increasing and no later than the nominal ones
 *    (p * T / parts), aligned where asked (offset + cut a multiple of align, within one
 *    alignment of the nominal cut), on a grid stored and shuffled;
 *  - a part grown from one seed on a connected surface is connected (shares a vertex along a
 *    path), the first part of a grid at least;
 *  - a cut near the end of a connected component falls there: two grids side by side, the
 *    first part is exactly the first grid's triangles;
 *  - auto's default for llvmpipe on a 250 x 250 grid (125,000 triangles, over the threshold),
 *    stored and shuffled, without and with positions (the overdraw pass, whose occlusion
 *    pairs are a job beside the parts): byte-identical for 1, 2, 3 and 4 threads, a
 *    permutation of the triangles; gc_auto_llvmpipe_parts's count (the parts' counts summed)
 *    is gc_analyze's count of the whole order: the seams at llvmpipe's segments cost
 *    nothing; and the order is cut at segments (its parts as the partition's). */
#include "test_util.h"

#include <math.h>

#include "optimize/auto_parts.h"
#include "optimize/partition.h"

/* Whether the triangles list[0..n) are connected through shared vertices (a union-find over
 * their vertices, written apart from partition.c's). */
static bool connected(const uint32_t* idx, const uint32_t* list, size_t n, uint32_t vertices)
{
    uint32_t* up = test_indices(vertices);
    for (uint32_t v = 0; v < vertices; ++v)
        up[v] = v;
    for (size_t i = 0; i < n; ++i)
        for (int c = 1; c < 3; ++c) {
            uint32_t a = idx[3 * (size_t)list[i]], b = idx[3 * (size_t)list[i] + c];
            while (up[a] != a)
                a = up[a];
            while (up[b] != b)
                b = up[b];
            up[b] = a;
        }
    uint32_t root = UINT32_MAX;
    bool one = true;
    for (size_t i = 0; i < n && one; ++i) {
        uint32_t a = idx[3 * (size_t)list[i]];
        while (up[a] != a)
            a = up[a];
        one = root == UINT32_MAX || root == a;
        root = a;
    }
    free(up);
    return one;
}

static void check_partition(const uint32_t* idx, size_t tc, uint32_t vertices, size_t parts, uint64_t offset,
                            uint32_t align, const char* what)
{
    gc_partition p;
    gc_error err;
    assert_int_equal(gc_partition_make(idx, tc, vertices, parts, offset, align, &p, &err), GC_OK);
    if (p.count < 1 || p.count > parts)
        fail_msg("%s: %zu parts asked, %zu made", what, parts, p.count);
    assert_int_equal(p.start[0], 0);
    assert_int_equal(p.start[p.count], tc);
    unsigned char* seen = calloc(tc ? tc : 1, 1);
    assert_non_null(seen);
    for (size_t k = 0; k < p.count; ++k) {
        if (p.start[k + 1] <= p.start[k])
            fail_msg("%s: part %zu is empty", what, k);
        for (size_t i = p.start[k]; i < p.start[k + 1]; ++i) {
            assert_true(p.walk[i] < tc);
            if (seen[p.walk[i]]++)
                fail_msg("%s: triangle %u twice", what, p.walk[i]);
            if (i > p.start[k] && p.walk[i] <= p.walk[i - 1])
                fail_msg("%s: part %zu not in increasing order", what, k);
        }
    }
    if (align > 1)
        for (size_t k = 1; k < p.count; ++k)
            if ((offset + p.start[k]) % align)
                fail_msg("%s: cut %zu at %zu is not aligned to %u from %llu", what, k, p.start[k], align,
                         (unsigned long long)offset);
    /* one component: each cut the last aligned place at or before the nominal one */
    const size_t asked = parts < tc ? parts : tc; /* (more parts than triangles: one a part) */
    if (connected(idx, p.walk, tc, vertices))
        for (size_t k = 1; k < p.count; ++k) {
            const size_t nominal = (size_t)((uint64_t)k * tc / asked);
            if (p.start[k] > nominal || p.start[k] + (align > 1 ? align : 1) <= nominal)
                fail_msg("%s: cut %zu at %zu, nominal %zu", what, k, p.start[k], nominal);
        }
    free(seen);
    gc_partition_free(&p);
}

static void partition_is_a_partition(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(120, 90, &n);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        if (shuffled)
            gc_shuffle_triangles(idx, n, 7);
        for (size_t parts = 1; parts <= 9; ++parts) {
            char what[96];
            snprintf(what, sizeof what, "grid %s, %zu parts", shuffled ? "shuffled" : "stored", parts);
            check_partition(idx, tc, vertices, parts, 0, 1, what);
            check_partition(idx, tc, vertices, parts, 0, 341, what);
            check_partition(idx, tc, vertices, parts, 100, 341, what);
            check_partition(idx, tc, vertices, parts, 5, 96, what);
        }
        /* more parts than triangles, and a list of one triangle */
        check_partition(idx, 5, vertices, 9, 0, 1, "5 triangles, 9 parts");
        check_partition(idx, 1, vertices, 2, 0, 341, "1 triangle");
    }
    free(idx);
}

static void first_part_connected(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(100, 100, &n);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        if (shuffled)
            gc_shuffle_triangles(idx, n, 11);
        for (size_t parts = 2; parts <= 6; ++parts) {
            gc_partition p;
            gc_error err;
            assert_int_equal(gc_partition_make(idx, tc, vertices, parts, 0, 1, &p, &err), GC_OK);
            assert_int_equal(p.count, parts);
            if (!connected(idx, p.walk, p.start[1], vertices))
                fail_msg("grid %s, %zu parts: the first part is not connected", shuffled ? "shuffled" : "stored",
                         parts);
            gc_partition_free(&p);
        }
    }
    free(idx);
}

static void cut_at_a_component(void** state)
{
    (void)state;
    /* grid A (30 x 50 quads: 3,000 triangles) then grid B (50 x 50: 5,000), B's vertices after A's */
    size_t na, nb;
    uint32_t* a = rowmajor_grid(30, 50, &na);
    uint32_t* b = rowmajor_grid(50, 50, &nb);
    const uint32_t va = index_bound(a, na);
    uint32_t* idx = test_indices(na + nb);
    memcpy(idx, a, na * sizeof *idx);
    for (size_t i = 0; i < nb; ++i)
        idx[na + i] = b[i] + va;
    const size_t tc = (na + nb) / 3;
    const uint32_t vertices = index_bound(idx, na + nb);
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        if (shuffled) /* the components then meet in the list's order, A first still (triangle 0 is A's) */
            gc_shuffle_triangles(idx + 3, na + nb - 3, 3);
        for (int aligned = 0; aligned < 2; ++aligned) {
            gc_partition p;
            gc_error err;
            /* nominal cut 4,000, A's end 3,000: within a quarter of a part (1,000) */
            assert_int_equal(gc_partition_make(idx, tc, vertices, 2, 0, aligned ? 7 : 1, &p, &err), GC_OK);
            assert_int_equal(p.count, 2);
            assert_int_equal(p.start[1], aligned ? 3000 - 3000 % 7 : 3000);
            for (size_t i = 0; i < p.start[1]; ++i)
                if (idx[3 * (size_t)p.walk[i]] >= va)
                    fail_msg("%s, align %d: a triangle of grid B in the first part", shuffled ? "shuffled" : "stored",
                             aligned ? 7 : 1);
            gc_partition_free(&p);
        }
    }
    free(a);
    free(b);
    free(idx);
}

static int by_value(const void* a, const void* b)
{
    const uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static void llvmpipe_parts_same_for_every_thread_count(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(250, 250, &n);
    const size_t tc = n / 3;
    assert_true(tc >= GC_AUTO_PARTS_FROM);
    assert_true(gc_auto_parts_count(tc) >= 2);
    const uint32_t vertices = index_bound(idx, n);
    const gc_model m = model_of("llvmpipe");
    float* positions = malloc(3 * (size_t)vertices * sizeof *positions); /* a bumpy sheet */
    assert_non_null(positions);
    for (uint32_t v = 0; v < vertices; ++v) {
        const float x = (float)(v % 251), y = (float)(v / 251);
        positions[3 * v] = x, positions[3 * v + 1] = y;
        positions[3 * v + 2] = 3.0f * sinf(x / 7.0f) * cosf(y / 5.0f);
    }
    uint32_t* first = test_indices(n);
    uint32_t* out = test_indices(n);
    uint32_t* order = test_indices(tc);
    gc_error err;
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        if (shuffled)
            gc_shuffle_triangles(idx, n, 13);
        for (int placed = 0; placed < 2; ++placed) /* with positions: the overdraw pass, its pairs a job */
            for (unsigned threads = 1; threads <= 4; ++threads) {
                gc_optimize_options o = {0};
                o.targets = &m;
                o.target_count = 1;
                o.threads = threads;
                o.positions = placed ? positions : NULL;
                assert_int_equal(gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, threads == 1 ? first : out, &err),
                                 GC_OK);
                if (threads > 1 && memcmp(first, out, n * sizeof *out))
                    fail_msg("grid %s%s: %u threads differ from one", shuffled ? "shuffled" : "stored",
                             placed ? " with positions" : "", threads);
                assert_int_equal(gc_check_permutation(idx, first, n, vertices, &err), GC_OK);
            }
        /* the parts' counts summed are the whole order's count: no seam costs anything */
        const float greedy[3] = {1.0f, 0.2f, 8};
        const uint32_t limits[4] = {341, 341, 0, 256};
        for (unsigned threads = 1; threads <= 2; ++threads) {
            gc_optimize_options o = {0};
            o.threads = threads;
            uint64_t cost = 0;
            assert_int_equal(gc_auto_llvmpipe_parts(idx, tc, vertices, &m, greedy, limits, &o, NULL, out, order,
                                                    &cost, &err),
                             GC_OK);
            assert_int_equal(cost, order_invocations(&m, idx, order, tc));
            /* and the parts are the partition's, in its order */
            gc_partition p;
            assert_int_equal(gc_partition_make(idx, tc, vertices, gc_auto_parts_count(tc), 0, 341, &p, &err), GC_OK);
            assert_true(p.count >= 2);
            for (size_t k = 0; k < p.count; ++k) {
                assert_int_equal(p.start[k] % 341, 0);
                /* order[start[k] ..) holds part k's triangles: their numbers sorted are the walk's */
                uint32_t* part = test_indices(p.start[k + 1] - p.start[k]);
                memcpy(part, order + p.start[k], (p.start[k + 1] - p.start[k]) * sizeof *part);
                qsort(part, p.start[k + 1] - p.start[k], sizeof *part, by_value);
                assert_memory_equal(part, p.walk + p.start[k], (p.start[k + 1] - p.start[k]) * sizeof *part);
                free(part);
            }
            gc_partition_free(&p);
        }
    }
    free(positions);
    free(first);
    free(out);
    free(order);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(partition_is_a_partition),
        cmocka_unit_test(first_part_connected),
        cmocka_unit_test(cut_at_a_component),
        cmocka_unit_test(llvmpipe_parts_same_for_every_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
