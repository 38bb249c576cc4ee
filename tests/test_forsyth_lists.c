// SPDX-License-Identifier: MIT
/* Issue 33: Forsyth's lists (src/optimize/forsyth_lists.h), where an emitted triangle leaves
 * its corners' lists at once and a step's candidates are scored in one loop, give the orders
 * of the algorithm as first written: each vertex's triangles listed in triangle order, corner
 * by corner, an emitted triangle dropped from a list only when a scan meets it (the list's
 * last entry taking its place), at most 32 remaining triangles of a vertex scored a step, the
 * first of equal scores kept, dead ends back to the most recent vertex with triangles left,
 * then to input order. That algorithm is written out here on its own (reference_order) and
 * compared triangle for triangle with gc_opt_forsyth_scored and, with ati's hard resets
 * (the modelled cache emptied after every reset-th index, the place scores left out for that
 * step), with gc_opt_forsyth_flush:
 *  - corpus meshes as stored and shuffled;
 *  - the same with degenerate triangles (a vertex repeated, or one vertex three times) and
 *    a hub of 80 triangles (its list longer than the 32 a step scores);
 *  - tables of 2 places (below 3 every list drops its entries when met), 3, 16 (auto's
 *    tuned table) and 32 (Forsyth's curves), with 4 to 63 valence scores. */
#include "test_util.h"

#include "optimize/optimize.h"

#include <math.h>

static const char* const meshes[] = {"cow.obj", "suzanne.obj", "teapot.obj", "spot.obj"};
#define MESH_COUNT (sizeof meshes / sizeof meshes[0])

/* The algorithm as first written (reset: ati's hard resets every `reset` indices, 0 none). */
static void reference_order(const uint32_t* idx, size_t tc, uint32_t vc, const gc_forsyth_scores* sc, uint32_t reset,
                            uint32_t* order)
{
    uint32_t* start = calloc((size_t)vc + 1, sizeof *start);
    uint32_t* list = malloc((3 * tc + 1) * sizeof *list);
    uint32_t* fill = calloc((size_t)vc + 1, sizeof *fill);
    uint32_t* live = calloc((size_t)vc + 1, sizeof *live);
    uint32_t* listed = calloc((size_t)vc + 1, sizeof *listed);
    float* vscore = malloc(((size_t)vc + 1) * sizeof *vscore);
    unsigned char* emitted = calloc(tc + 1, 1);
    uint32_t* dead = malloc((3 * tc + 1) * sizeof *dead);
    assert_true(start && list && fill && live && listed && vscore && emitted && dead);
    for (size_t i = 0; i < 3 * tc; ++i)
        start[idx[i] + 1]++;
    for (uint32_t v = 0; v < vc; ++v)
        start[v + 1] += start[v];
    for (size_t i = 0; i < 3 * tc; ++i)
        list[start[idx[i]] + fill[idx[i]]++] = (uint32_t)(i / 3);
    const uint32_t last_live = sc->live_count - 1;
    for (uint32_t v = 0; v < vc; ++v) {
        live[v] = listed[v] = start[v + 1] - start[v];
        vscore[v] = live[v] ? sc->live[live[v] < last_live ? live[v] : last_live] : -1.0f;
    }
    uint32_t cache[GC_FORSYTH_MAX_CACHE + 3], next[GC_FORSYTH_MAX_CACHE + 3], cached = 0;
    size_t written = 0, dead_top = 0, cursor = 0;
    int64_t best = -1;
    float best_score = -1.0f;
    for (size_t t = 0; t < tc; ++t) {
        const float s = vscore[idx[3 * t]] + vscore[idx[3 * t + 1]] + vscore[idx[3 * t + 2]];
        if (s > best_score)
            best_score = s, best = (int64_t)t;
    }
    while (best >= 0) {
        const uint32_t t = (uint32_t)best;
        const uint32_t* tv = idx + 3 * (size_t)t;
        emitted[t] = 1;
        order[written++] = t;
        for (int c = 0; c < 3; ++c) {
            live[tv[c]]--;
            dead[dead_top++] = tv[c];
        }
        const bool flush = reset && 3 * written % reset == 0;
        uint32_t n = 0;
        for (int c = 0; c < 3; ++c) {
            bool seen = false;
            for (uint32_t k = 0; k < n; ++k)
                seen = seen || next[k] == tv[c];
            if (!seen)
                next[n++] = tv[c];
        }
        for (uint32_t k = 0; k < cached; ++k)
            if (cache[k] != tv[0] && cache[k] != tv[1] && cache[k] != tv[2])
                next[n++] = cache[k];
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t v = next[k];
            const float place = k < sc->cache_size && !flush ? sc->position[k] : 0.0f;
            vscore[v] = live[v] ? place + sc->live[live[v] < last_live ? live[v] : last_live] : -1.0f;
        }
        best = -1;
        best_score = -1.0f;
        for (uint32_t k = 0; k < n && k < sc->cache_size; ++k) {
            const uint32_t v = next[k];
            if (!live[v])
                continue;
            uint32_t* entries = list + start[v];
            for (uint32_t a = 0, scanned = 0; a < listed[v] && scanned < 32;) {
                const uint32_t u = entries[a];
                if (emitted[u]) {
                    entries[a] = entries[--listed[v]];
                    continue;
                }
                const float s = vscore[idx[3 * u]] + vscore[idx[3 * u + 1]] + vscore[idx[3 * u + 2]];
                if (s > best_score)
                    best_score = s, best = u;
                ++a, ++scanned;
            }
        }
        cached = flush ? 0 : n < sc->cache_size ? n : sc->cache_size;
        memcpy(cache, next, cached * sizeof *cache);
        while (best < 0 && dead_top > 0) {
            const uint32_t d = dead[--dead_top];
            for (uint32_t a = 0; live[d] && a < listed[d] && best < 0;) {
                if (emitted[list[start[d] + a]])
                    list[start[d] + a] = list[start[d] + --listed[d]];
                else
                    best = list[start[d] + a];
            }
        }
        while (best < 0 && cursor < tc) {
            if (!emitted[cursor])
                best = (int64_t)cursor;
            ++cursor;
        }
    }
    assert_int_equal(written, tc);
    free(start), free(list), free(fill), free(live), free(listed), free(vscore), free(emitted), free(dead);
}

/* Tables of 2, 3, 16 and 32 places. */
static void tables(gc_forsyth_scores t[4])
{
    memset(t, 0, 4 * sizeof *t);
    t[0].cache_size = 2, t[0].live_count = 4;
    t[0].position[0] = 0.75f, t[0].position[1] = 0.5f;
    t[0].live[1] = 1.0f, t[0].live[2] = 0.7f, t[0].live[3] = 0.5f;
    t[1].cache_size = 3, t[1].live_count = 9;
    for (uint32_t p = 0; p < 3; ++p)
        t[1].position[p] = 0.9f - 0.2f * (float)p;
    for (uint32_t n = 1; n < 9; ++n)
        t[1].live[n] = 1.5f / (float)n;
    t[2] = gc_auto_tuned_scores;
    t[3].cache_size = 32, t[3].live_count = GC_FORSYTH_MAX_LIVE;
    for (uint32_t p = 0; p < 32; ++p)
        t[3].position[p] = p < 3 ? 0.75f : powf(1.0f - (float)(p - 3) / 29.0f, 1.5f);
    for (uint32_t n = 1; n < GC_FORSYTH_MAX_LIVE; ++n)
        t[3].live[n] = 2.0f * powf((float)n, -0.5f);
}

/* The mesh with every 13th triangle's third corner made its first (a repeated vertex), every
 * 101st made one vertex three times, and a fan of 80 triangles around its first vertex. */
static uint32_t* with_degenerates_and_hub(const uint32_t* idx, size_t tc, uint32_t vertices, size_t* out_tc)
{
    const size_t fan = 80;
    uint32_t* d = test_indices(3 * (tc + fan));
    memcpy(d, idx, 3 * tc * sizeof *d);
    for (size_t t = 0; t < tc; t += 13)
        d[3 * t + 2] = d[3 * t];
    for (size_t t = 5; t < tc; t += 101)
        d[3 * t + 1] = d[3 * t + 2] = d[3 * t];
    for (size_t k = 0; k < fan; ++k) {
        d[3 * (tc + k)] = idx[0];
        d[3 * (tc + k) + 1] = (uint32_t)(k % vertices);
        d[3 * (tc + k) + 2] = (uint32_t)((k * 7 + 3) % vertices);
    }
    *out_tc = tc + fan;
    return d;
}

static void compare(const char* what, const uint32_t* idx, size_t tc, uint32_t vertices)
{
    gc_forsyth_scores t[4];
    tables(t);
    uint32_t* want = test_indices(tc);
    uint32_t* got = test_indices(tc);
    for (int k = 0; k < 4; ++k) {
        gc_error err;
        reference_order(idx, tc, vertices, &t[k], 0, want);
        assert_int_equal(gc_opt_forsyth_scored(idx, tc, vertices, &t[k], got, NULL, &err), GC_OK);
        if (memcmp(got, want, tc * sizeof *got))
            fail_msg("%s, a table of %u places: not the order as first written", what, t[k].cache_size);
        /* ati's hard resets, every 384 indices (ati-basic's) and every 6 */
        const uint32_t resets[2] = {384, 6};
        for (int r = 0; r < 2; ++r) {
            const gc_flush_rule rule = {0, resets[r], 0, 0, 0, 0};
            reference_order(idx, tc, vertices, &t[k], resets[r], want);
            assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &t[k], &rule, got, &err), GC_OK);
            if (memcmp(got, want, tc * sizeof *got))
                fail_msg("%s, a table of %u places, resets every %u indices: not the order as first written", what,
                         t[k].cache_size, resets[r]);
        }
    }
    free(want);
    free(got);
}

static void as_first_written(void** state)
{
    (void)state;
    for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 5); corpus_rows_next(&r);) {
        compare(r.what, r.idx, r.tc, r.vertices);
        size_t tc = 0;
        uint32_t* d = with_degenerates_and_hub(r.idx, r.tc, r.vertices, &tc);
        char what[sizeof r.what + 40];
        snprintf(what, sizeof what, "%s with degenerate triangles and a hub", r.what);
        compare(what, d, tc, r.vertices);
        free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(as_first_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
