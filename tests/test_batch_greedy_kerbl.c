// SPDX-License-Identifier: MIT
/* The batch greedy for nv-dx and nv-gl with their machine in the loop
 * (src/optimize/batch_greedy_kerbl.c, issue 33):
 *  - its orders are those of a plain implementation of gbatch's steps written here (every
 *    remaining triangle scanned for the best each step, a distance row per triangle, the
 *    public gc_sim machine asked by feeding and restoring), on small corpus meshes stored,
 *    shuffled and with degenerate triangles, under several nv-dx and nv-gl batch sizes;
 *  - its orders are gc_opt_batch_greedy_sim's (the machine-driven form) on the corpus meshes
 *    stored and shuffled, under nvidia-dx and nvidia-gl;
 *  - the invocations it reports, and gc_kerbl_order_cost's, are gc_analyze's. */
#include "test_util.h"

#include "optimize/optimize.h"

/* ------------------------------------------------------- the plain steps */

typedef struct plain {
    size_t T;
    uint32_t cap;
    int32_t* score;
    uint8_t* remaining;
    uint8_t* batch_count;
    uint8_t* has_row;
    uint32_t* accumulated;
    uint16_t* row;    /* per triangle, cap distances by slot (0: none) */
    uint16_t* direct; /* per triangle, the slots it met directly */
    uint32_t* direct_count;
} plain;

static void plain_new_row(plain* p, uint32_t t)
{
    memset(p->row + (size_t)t * p->cap, 0, p->cap * sizeof *p->row);
    p->direct_count[t] = 0;
    p->accumulated[t] = 0;
    p->has_row[t] = 1;
}

/* Whether the machine takes triangle f now without ending its batch (any triangle when
 * `first`); fed if so. */
static bool plain_fits(gc_sim* sim, const uint32_t* f, uint64_t number, bool first)
{
    gc_stats before, after;
    gc_sim_stats(sim, &before);
    gc_sim_save(sim);
    const gc_sim_primitive prim = {{f[0], f[1], f[2]}, {3 * number, 3 * number + 1, 3 * number + 2}, 3, number, NULL, 0};
    gc_sim_feed(sim, &prim, NULL);
    gc_sim_stats(sim, &after);
    const bool ok = first || after.batches == before.batches;
    if (!ok) {
        gc_error err;
        assert_int_equal(gc_sim_restore(sim, &err), GC_OK);
    }
    gc_sim_release(sim);
    return ok;
}

/* gbatch (Kerbl et al. 2018) as batch_greedy.c documents it: scores of `cache` per vertex of
 * the batch, `valence` per remaining triangle of a vertex, `distance` per unit of accumulated
 * distance through the batch's triangles; the best (the lowest number among equals) placed
 * when the machine takes it, else the batch is taken as ended; after a step, the vertices no
 * longer held are checked from the oldest reference until 4 held ones in a row. */
static void plain_greedy(const uint32_t* idx, size_t T, uint32_t V, const gc_model* m, uint32_t* order)
{
    gc_family_traits traits;
    gc_model_traits(m, &traits);
    const int32_t wc = 1024, wv = traits.batch_reuse_weight, wd = -1;
    plain p = {T, traits.batch_indices / 3 + 2, 0, 0, 0, 0, 0, 0, 0, 0};
    p.score = calloc(T, sizeof *p.score);
    p.remaining = malloc(T);
    p.batch_count = calloc(T, 1);
    p.has_row = calloc(T, 1);
    p.accumulated = calloc(T, sizeof *p.accumulated);
    p.row = calloc(T * p.cap, sizeof *p.row);
    p.direct = calloc(T * p.cap, sizeof *p.direct);
    p.direct_count = calloc(T, sizeof *p.direct_count);
    uint32_t* valence = calloc(V, sizeof *valence);
    uint8_t* cached = calloc(V, 1);
    uint32_t* cached_list = malloc(V * sizeof *cached_list);
    uint32_t* removed = malloc(V * sizeof *removed);
    assert_true(p.score && p.remaining && p.batch_count && p.has_row && p.accumulated && p.row && p.direct &&
                p.direct_count && valence && cached && cached_list && removed);
    memset(p.remaining, 1, T);
    for (size_t i = 0; i < 3 * T; ++i)
        valence[idx[i]]++;
    for (size_t t = 0; t < T; ++t)
        p.score[t] = wv * (int32_t)(valence[idx[3 * t]] + valence[idx[3 * t + 1]] + valence[idx[3 * t + 2]]);
    gc_sim* sim;
    gc_error err;
    assert_int_equal(gc_sim_create(m, V, NULL, &sim, &err), GC_OK);
    uint32_t cached_count = 0, batch_indices = 0, slots = 0;
    size_t placed = 0;
    bool ended = false;
    while (placed < T) {
        uint32_t best = UINT32_MAX;
        for (uint32_t t = 0; t < T; ++t)
            if (p.remaining[t] && (best == UINT32_MAX || p.score[t] > p.score[best]))
                best = t;
        const uint32_t* f = idx + 3 * (size_t)best;
        uint32_t removed_count = 0;
        const bool ok = plain_fits(sim, f, placed, placed == 0 || ended);
        if (ok) {
            ended = false;
            order[placed++] = best;
            bool incache[3];
            for (int i = 0; i < 3; ++i) {
                incache[i] = cached[f[i]];
                uint32_t k = 0; /* f[i] moves to the newest end */
                for (uint32_t j = 0; j < cached_count; ++j)
                    if (cached_list[j] != f[i])
                        cached_list[k++] = cached_list[j];
                cached_list[k++] = f[i];
                cached_count = k;
                cached[f[i]] = 1;
            }
            p.remaining[best] = 0;
            p.batch_count[best] = 0;
            const bool mine = p.has_row[best];
            const uint32_t sb = slots++;
            assert_true(sb < p.cap);
            /* each corner's vertex: its other remaining triangles */
            for (int c = 0; c < 3; ++c) {
                const uint32_t v = f[c];
                valence[v]--;
                for (uint32_t t = 0; t < T; ++t) {
                    if (!p.remaining[t] || (idx[3 * t] != v && idx[3 * t + 1] != v && idx[3 * t + 2] != v))
                        continue;
                    /* once per corner of t at v */
                    const int times = (idx[3 * t] == v) + (idx[3 * t + 1] == v) + (idx[3 * t + 2] == v);
                    for (int x = 0; x < times; ++x) {
                        int32_t delta = -wv;
                        if (!incache[c]) {
                            delta += wc;
                            p.batch_count[t]++;
                        }
                        uint16_t* row = p.row + (size_t)t * p.cap;
                        if (p.has_row[t]) {
                            if (!row[sb]) {
                                p.direct[(size_t)t * p.cap + p.direct_count[t]++] = (uint16_t)sb;
                                row[sb] = 1;
                                p.accumulated[t] += 1;
                                delta += wd;
                            }
                        } else {
                            plain_new_row(&p, t);
                            if (mine) {
                                p.accumulated[t] = p.accumulated[best] + batch_indices / 3;
                                const uint16_t* from = p.row + (size_t)best * p.cap;
                                for (uint32_t k = 0; k < sb; ++k)
                                    row[k] = from[k] ? (uint16_t)(from[k] + 1) : 0;
                            } else {
                                p.accumulated[t] = 1;
                            }
                            p.direct[(size_t)t * p.cap + p.direct_count[t]++] = (uint16_t)sb;
                            row[sb] = 1;
                            delta += wd * (int32_t)p.accumulated[t];
                        }
                        p.score[t] += delta;
                    }
                }
            }
            /* every other triangle with a row: its distance to best through best's direct slots */
            if (mine) {
                for (uint32_t t = 0; t < T; ++t) {
                    uint16_t* row = p.row + (size_t)t * p.cap;
                    if (!p.has_row[t] || t == best || row[sb])
                        continue;
                    uint32_t mindist = UINT32_MAX;
                    for (uint32_t k = 0; k < p.direct_count[best]; ++k) {
                        const uint32_t dn = row[p.direct[(size_t)best * p.cap + k]];
                        if (dn && dn + 1 < mindist)
                            mindist = dn + 1;
                    }
                    if (mindist != UINT32_MAX) {
                        p.score[t] += wd * (int32_t)mindist;
                        row[sb] = (uint16_t)mindist;
                        p.accumulated[t] += mindist;
                    }
                }
                p.has_row[best] = 0;
            }
            batch_indices += 3;
            /* the vertices no longer held, from the oldest */
            uint32_t keep = 0, in_row = 0, i = 0;
            for (; i < cached_count && in_row < 4; ++i) {
                const uint32_t v = cached_list[i];
                const uint64_t next = placed;
                const gc_sim_primitive q = {{v, v, v}, {3 * next, 3 * next + 1, 3 * next + 2}, 3, next, NULL, 0};
                if (gc_sim_peek(sim, &q, NULL) == 0) {
                    cached_list[keep++] = v;
                    in_row++;
                } else {
                    cached[v] = 0;
                    removed[removed_count++] = v;
                    in_row = 0;
                }
            }
            memmove(cached_list + keep, cached_list + i, (cached_count - i) * sizeof *cached_list);
            cached_count = keep + (cached_count - i);
        } else {
            ended = true;
            for (uint32_t i = 0; i < cached_count; ++i) {
                cached[cached_list[i]] = 0;
                removed[removed_count++] = cached_list[i];
            }
            cached_count = 0;
        }
        /* a vertex out of the batch: its triangles lose its cache score */
        for (uint32_t r = 0; r < removed_count; ++r) {
            const uint32_t v = removed[r];
            for (uint32_t t = 0; t < T; ++t) {
                if (!p.remaining[t])
                    continue;
                const int times = (idx[3 * t] == v) + (idx[3 * t + 1] == v) + (idx[3 * t + 2] == v);
                for (int x = 0; x < times; ++x) {
                    if (p.batch_count[t] == 0)
                        continue;
                    int32_t delta = -wc;
                    if (--p.batch_count[t] == 0 && p.has_row[t]) {
                        delta -= wd * (int32_t)p.accumulated[t];
                        p.has_row[t] = 0;
                    }
                    p.score[t] += delta;
                }
            }
        }
        if (!ok) {
            memset(p.has_row, 0, T);
            batch_indices = 0;
            slots = 0;
        }
    }
    gc_sim_destroy(sim);
    free(p.score);
    free(p.remaining);
    free(p.batch_count);
    free(p.has_row);
    free(p.accumulated);
    free(p.row);
    free(p.direct);
    free(p.direct_count);
    free(valence);
    free(cached);
    free(cached_list);
    free(removed);
}

/* test_random's pick below i. */
static size_t random_pick(uint64_t* seed, size_t i)
{
    return (size_t)(test_random(seed) % i);
}

/* The triangles shuffled (fixed seed), with two degenerate triangles appended. */
static uint32_t* shuffled_degenerate(const uint32_t* idx, size_t tc, size_t* out_tc)
{
    return shuffled_plus_degenerates(idx, tc, 2, 12345, random_pick, out_tc);
}

static void check_orders(const char* what, const char* spec, const uint32_t* idx, size_t tc, bool against_plain)
{
    const gc_model m = model_of(spec);
    gc_family_traits traits;
    gc_model_traits(&m, &traits);
    const gc_batch_greedy_weights w = {1024, traits.batch_reuse_weight, -1};
    const uint32_t V = index_bound(idx, 3 * tc);
    uint32_t* fast = malloc(tc * sizeof *fast);
    uint32_t* other = malloc(tc * sizeof *other);
    assert_true(fast && other);
    gc_error err;
    uint64_t reported = 0;
    if (gc_opt_batch_greedy_kerbl(idx, tc, V, &m, &w, fast, &reported, &err) != GC_OK)
        fail_msg("%s under %s: %s", what, spec, err.message);
    assert_is_permutation(fast, tc);
    if (against_plain)
        plain_greedy(idx, tc, V, &m, other);
    else if (gc_opt_batch_greedy_sim(idx, tc, V, &m, &w, 0, 0, other, &err) != GC_OK)
        fail_msg("%s under %s: %s", what, spec, err.message);
    for (size_t k = 0; k < tc; ++k)
        if (fast[k] != other[k])
            fail_msg("%s under %s: place %zu holds triangle %u, the %s greedy's %u", what, spec, k, fast[k],
                     against_plain ? "plain" : "machine-driven", other[k]);
    /* the invocations it reports and gc_kerbl_order_cost's are gc_analyze's */
    const uint64_t analyzed = order_invocations(&m, idx, fast, tc);
    assert_int_equal(reported, analyzed);
    uint64_t counted = 0;
    assert_int_equal(gc_kerbl_order_cost(idx, tc, V, &m, fast, &counted, &err), GC_OK);
    assert_int_equal(counted, analyzed);
    assert_int_equal(gc_kerbl_order_cost(idx, tc, V, &m, NULL, &counted, &err), GC_OK);
    assert_int_equal(counted, list_cost(&m, idx, 3 * tc));
    free(fast);
    free(other);
}

static void against_plain_steps(void** state)
{
    (void)state;
    const char* const meshes[] = {"suzanne.obj", "woody.obj"};
    const char* const specs[] = {"nvidia-dx", "nvidia-gl", "nv-dx:indices=48,vertices=16", "nv-dx:indices=192,vertices=64",
                                 "nv-gl:indices=96,vertices=32,window=8", "nv-gl:indices=48,vertices=16,window=1"};
    for (size_t mi = 0; mi < sizeof meshes / sizeof *meshes; ++mi) {
        size_t n, tc;
        uint32_t* idx = corpus_triangles_or_skip(meshes[mi], &n);
        uint32_t* sh = shuffled_degenerate(idx, n / 3, &tc);
        for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
            check_orders(meshes[mi], specs[s], idx, n / 3, true);
            check_orders(meshes[mi], specs[s], sh, tc, true);
        }
        free(sh);
        free(idx);
    }
}

static void against_machine_driven(void** state)
{
    (void)state;
    const char* const meshes[] = {"alligator.obj", "cow.obj", "fandisk.obj", "homer.obj", "rocker-arm.obj",
                                  "spot.obj", "stanford-bunny.obj", "teapot.obj"};
    for (size_t mi = 0; mi < sizeof meshes / sizeof *meshes; ++mi) {
        size_t n, tc;
        uint32_t* idx = corpus_triangles_or_skip(meshes[mi], &n);
        uint32_t* sh = shuffled_degenerate(idx, n / 3, &tc);
        check_orders(meshes[mi], "nvidia-dx", idx, n / 3, false);
        check_orders(meshes[mi], "nvidia-dx", sh, tc, false);
        check_orders(meshes[mi], "nvidia-gl", sh, tc, false);
        free(sh);
        free(idx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_plain_steps),
        cmocka_unit_test(against_machine_driven),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
