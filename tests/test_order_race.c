// SPDX-License-Identifier: MIT
/* Issue 33: nv-dx and nv-gl's default races its two orders on a list of GC_RACE_MIN_TRIANGLES
 * triangles or more (src/optimize/order_race.c): the flushed order posts its invocations at
 * 50%, 55%, ..., 95% of the triangles, and Kerbl's batch greedy gives up where it trails by
 * more than 0.2% there.
 *
 *  - The rule, by hand: the marks; a count 0.2% above the leader's is not trailing, one more
 *    is; a leader that ends without its mark never makes the chaser trail; a chaser waits for
 *    a mark that a leader on another thread posts later.
 *  - The flushed order posts its own prefix counts: at every mark, the model's count
 *    (gc_kerbl_order_cost) of the order's first triangles.
 *  - The batch greedy: against a leader that posts 0 it stops at the first mark; against one
 *    far behind it runs to the end with gc_opt_batch_greedy_kerbl's order and count.
 *  - ogre (the corpus; skipped where absent), stored and shuffled, nv-dx and nv-gl: raced
 *    with the flushed order's counts the batch greedy stops (it leads for the first half,
 *    then trails, ending 0.9% to 1.7% above), and auto's default with 1 and 2 threads is the
 *    cheaper of the two orders made apart, as it was without the race. igea: it runs to the
 *    end, and the default is the batch greedy's order, the cheaper there.
 *  - From GC_FLUSH_FINE_TRIANGLES the roles turn (a shuffled grid of 1,002,528 triangles):
 *    the batch greedy posts its own prefix counts; the flushed order with the batch greedy's
 *    tail (gc_opt_flush_batch_tail_race) gives up at the first mark against a leader that
 *    posts 0, and against one far behind gives gc_opt_flush_batch_tail's order with the
 *    model's count of it; auto's default with 1 and 2 threads is the cheaper of the batch
 *    greedy's order and that one, made apart. On ribbons one quad wide (batches end on the
 *    vertex limit, never full to the index limit, so the flushed head runs past its marks at
 *    90% and 95%) a leader ahead from 90% on does not make it give up there: the whole
 *    flushed order, with the model's count (a review found it taken as given up at the wrong
 *    place, its count 2 off). */
#include "test_util.h"

#include "optimize/optimize.h"
#include "optimize/order_race.h"

#include <pthread.h>
#include <time.h>

static void marks_and_margin(void** state)
{
    (void)state;
    gc_order_race r;
    gc_error err;
    assert_int_equal(gc_order_race_init(&r, 40000, &err), GC_OK);
    for (unsigned k = 0; k < GC_RACE_MARKS; ++k)
        assert_int_equal(r.at[k], 40000 / 20 * (10 + k)); /* 20,000, 22,000, ..., 38,000 */
    gc_order_race_post(&r, 0, 1000);
    assert_false(gc_order_race_trails(&r, 0, 1000));
    assert_false(gc_order_race_trails(&r, 0, 1002)); /* 0.2% above: not more than the margin */
    assert_true(gc_order_race_trails(&r, 0, 1003));
    assert_false(gc_order_race_trails(&r, 0, 900));
    gc_order_race_finish(&r); /* the leader ended without mark 1: the chaser never trails there */
    assert_false(gc_order_race_trails(&r, 1, 1000000));
    gc_order_race_free(&r);
    assert_int_equal(gc_order_race_init(&r, 32771, &err), GC_OK);
    assert_int_equal(r.at[0], 16385); /* 32,771 x 10 / 20, rounded down */
    assert_int_equal(r.at[9], 31132); /* 32,771 x 19 / 20 = 31,132.45 */
    gc_order_race_free(&r);
}

static void* late_leader(void* arg)
{
    const struct timespec wait = {0, 20 * 1000 * 1000};
    nanosleep(&wait, NULL);
    gc_order_race_post(arg, 3, 5000);
    gc_order_race_finish(arg);
    return NULL;
}

static void chaser_waits_for_the_mark(void** state)
{
    (void)state;
    gc_order_race r;
    gc_error err;
    assert_int_equal(gc_order_race_init(&r, 100000, &err), GC_OK);
    pthread_t leader;
    assert_int_equal(pthread_create(&leader, NULL, late_leader, &r), 0);
    assert_true(gc_order_race_trails(&r, 3, 5011)); /* waited for 5,000: 0.22% above */
    assert_int_equal(pthread_join(leader, NULL), 0);
    gc_order_race_free(&r);
}

/* The flushed order of idx under m, raced: its posts are its own prefix counts. Returns the
 * order (malloc'ed) and its count in *cost, with the race posted and finished in *r. */
static uint32_t* leader_order(const gc_model* m, const uint32_t* idx, size_t tc, uint32_t vertices, gc_order_race* r,
                              uint64_t* cost)
{
    gc_flush_rule rule;
    gc_error err;
    assert_true(gc_flush_batch_rule_of(m, 0, &rule));
    uint32_t* order = test_indices(tc);
    assert_int_equal(gc_order_race_init(r, tc, &err), GC_OK);
    assert_int_equal(gc_opt_forsyth_flush_kerbl_race(idx, tc, vertices, &gc_flush_batch_scores, &rule, m, r, order,
                                                     cost, &err),
                     GC_OK);
    gc_order_race_finish(r);
    return order;
}

static void flushed_order_posts_its_prefix_counts(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(150, 150, &n); /* 44,402 triangles */
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    const char* const specs[] = {"nvidia-dx", "nvidia-gl"};
    for (size_t s = 0; s < 2; ++s) {
        const gc_model m = model_of(specs[s]);
        gc_order_race r;
        uint64_t cost = 0, whole = 0;
        gc_error err;
        uint32_t* order = leader_order(&m, idx, tc, vertices, &r, &cost);
        assert_int_equal(gc_kerbl_order_cost(idx, tc, vertices, &m, order, &whole, &err), GC_OK);
        assert_int_equal(cost, whole);
        for (unsigned k = 0; k < GC_RACE_MARKS; ++k) {
            uint64_t prefix = 0;
            assert_true(r.posted[k]);
            assert_int_equal(gc_kerbl_order_cost(idx, r.at[k], vertices, &m, order, &prefix, &err), GC_OK);
            assert_int_equal(r.leader[k], prefix);
        }
        gc_order_race_free(&r);
        free(order);
    }
    free(idx);
}

static void batch_greedy_stops_or_runs_on(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(150, 150, &n);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    const gc_model m = model_of("nvidia-dx");
    const gc_batch_greedy_weights bw = {1024, -4, -1};
    uint32_t* plain = test_indices(tc);
    uint32_t* raced = test_indices(tc);
    uint64_t plain_cost = 0, raced_cost = 0;
    size_t placed = 0;
    gc_error err;
    assert_int_equal(gc_opt_batch_greedy_kerbl(idx, tc, vertices, &m, &bw, plain, &plain_cost, &err), GC_OK);
    gc_order_race r;
    assert_int_equal(gc_order_race_init(&r, tc, &err), GC_OK);
    for (unsigned k = 0; k < GC_RACE_MARKS; ++k) /* a leader far behind */
        gc_order_race_post(&r, k, 3 * (uint64_t)tc);
    assert_int_equal(
        gc_opt_batch_greedy_kerbl_race(idx, tc, vertices, &m, &bw, &r, raced, &raced_cost, &placed, &err),
        GC_OK);
    assert_int_equal(placed, tc);
    assert_int_equal(raced_cost, plain_cost);
    assert_memory_equal(raced, plain, tc * sizeof *raced);
    gc_order_race_free(&r);
    assert_int_equal(gc_order_race_init(&r, tc, &err), GC_OK);
    gc_order_race_post(&r, 0, 0); /* a leader that read nothing: any count trails */
    assert_int_equal(
        gc_opt_batch_greedy_kerbl_race(idx, tc, vertices, &m, &bw, &r, raced, &raced_cost, &placed, &err),
        GC_OK);
    assert_int_equal(placed, r.at[0]); /* at the first mark */
    gc_order_race_free(&r);
    free(raced);
    free(plain);
    free(idx);
}

/* auto's default of idx for the lone m, with 1 and 2 threads, is the list `want`; a failure names `what`. */
static void assert_default_is(const gc_model* m, const uint32_t* idx, size_t n, uint32_t vertices,
                              const uint32_t* want, const char* what)
{
    uint32_t* out = test_indices(n);
    for (unsigned threads = 1; threads <= 2; ++threads) {
        gc_optimize_options o = {0};
        o.targets = m;
        o.target_count = 1;
        o.threads = threads;
        gc_error err;
        assert_int_equal(gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err), GC_OK);
        if (memcmp(out, want, n * sizeof *out))
            fail_msg("%s, %s, %u threads: not the cheaper order", what, m->name, threads);
    }
    free(out);
}

/* Corpus mesh `name`, both orders: whether the raced batch greedy stops is `stops`, and auto's
 * default (1 and 2 threads) is the cheaper of the two made apart (the batch greedy on ties). */
static void check_mesh(const char* name, bool stops)
{
    size_t n;
    uint32_t vertices;
    uint32_t* stored = corpus_mesh_or_skip(name, &n, &vertices);
    const size_t tc = n / 3;
    uint32_t* idx = test_indices(n);
    const char* const specs[] = {"nvidia-dx", "nvidia-gl"};
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
        memcpy(idx, stored, n * sizeof *idx);
        if (shuffled)
            gc_shuffle_triangles(idx, n, 7);
        for (size_t s = 0; s < 2; ++s) {
            const gc_model m = model_of(specs[s]);
            gc_order_race r;
            uint64_t flushed_cost = 0, greedy_cost = 0;
            uint32_t* flushed = leader_order(&m, idx, tc, vertices, &r, &flushed_cost);
            uint32_t* greedy = test_indices(tc);
            const gc_batch_greedy_weights bw = {1024, -4, -1};
            size_t placed = 0;
            gc_error err;
            assert_int_equal(
                gc_opt_batch_greedy_kerbl_race(idx, tc, vertices, &m, &bw, &r, greedy, &greedy_cost, &placed,
                                               &err),
                GC_OK);
            const bool stopped = placed < tc;
            if (stopped != stops)
                fail_msg("%s %s, %s: the batch greedy %s", name, shuffled ? "shuffled" : "stored", m.name,
                         stopped ? "stopped" : "ran to the end");
            gc_order_race_free(&r);
            assert_int_equal(gc_opt_batch_greedy_kerbl(idx, tc, vertices, &m, &bw, greedy, &greedy_cost, &err), GC_OK);
            uint32_t* want = order_list(idx, greedy_cost <= flushed_cost ? greedy : flushed, tc);
            assert_true(stops == (greedy_cost > flushed_cost)); /* a stop never drops the cheaper */
            char what[64];
            snprintf(what, sizeof what, "%s %s", name, shuffled ? "shuffled" : "stored");
            assert_default_is(&m, idx, n, vertices, want, what);
            free(want);
            free(greedy);
            free(flushed);
        }
    }
    free(idx);
    free(stored);
}

static void ogre_stops_the_batch_greedy(void** state)
{
    (void)state;
    check_mesh("ogre.obj", true);
}

static void igea_runs_it_to_the_end(void** state)
{
    (void)state;
    check_mesh("igea.ply", false);
}

static void batch_greedy_leads_from_a_million(void** state)
{
    (void)state;
    size_t n;
    uint32_t* idx = rowmajor_grid(708, 708, &n); /* 1,002,528 triangles */
    gc_shuffle_triangles(idx, n, 9);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    const gc_model m = model_of("nvidia-dx");
    const gc_batch_greedy_weights bw = {1024, -4, -1};
    gc_flush_rule rule;
    gc_error err;
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    gc_order_race r;
    assert_int_equal(gc_order_race_init(&r, tc, &err), GC_OK);
    assert_true(r.batch_leads);
    uint32_t* greedy = test_indices(tc);
    uint64_t greedy_cost = 0;
    size_t placed = 0;
    assert_int_equal(gc_opt_batch_greedy_kerbl_race(idx, tc, vertices, &m, &bw, &r, greedy, &greedy_cost, &placed, &err),
                     GC_OK);
    assert_int_equal(placed, tc);
    for (unsigned k = 0; k < GC_RACE_MARKS; ++k) { /* its posts: its own prefix counts */
        uint64_t prefix = 0;
        assert_true(r.posted[k]);
        assert_int_equal(gc_kerbl_order_cost(idx, r.at[k], vertices, &m, greedy, &prefix, &err), GC_OK);
        assert_int_equal(r.leader[k], prefix);
    }
    gc_order_race_free(&r);
    /* the tail order chasing: a leader at 0, then one far behind */
    uint32_t* tail = test_indices(tc);
    uint32_t* plain = test_indices(tc);
    uint64_t tail_cost = 0, model = 0;
    bool gave_up = false;
    assert_int_equal(gc_order_race_init(&r, tc, &err), GC_OK);
    gc_order_race_post(&r, 0, 0);
    assert_int_equal(
        gc_opt_flush_batch_tail_race(idx, tc, vertices, &rule, &m, &r, tail, &tail_cost, &gave_up, &err), GC_OK);
    assert_true(gave_up);
    gc_order_race_free(&r);
    assert_int_equal(gc_order_race_init(&r, tc, &err), GC_OK);
    for (unsigned k = 0; k < GC_RACE_MARKS; ++k)
        gc_order_race_post(&r, k, 3 * (uint64_t)tc);
    assert_int_equal(
        gc_opt_flush_batch_tail_race(idx, tc, vertices, &rule, &m, &r, tail, &tail_cost, &gave_up, &err), GC_OK);
    assert_false(gave_up);
    gc_order_race_free(&r);
    assert_int_equal(gc_opt_flush_batch_tail(idx, tc, vertices, &rule, &m, plain, &err), GC_OK);
    assert_memory_equal(tail, plain, tc * sizeof *tail);
    assert_int_equal(gc_kerbl_order_cost(idx, tc, vertices, &m, tail, &model, &err), GC_OK);
    assert_int_equal(tail_cost, model);
    /* auto's default: the cheaper (the batch greedy on ties) */
    uint32_t* want = order_list(idx, greedy_cost <= tail_cost ? greedy : tail, tc);
    assert_default_is(&m, idx, n, vertices, want, "the grid");
    free(want);
    free(plain);
    free(tail);
    free(greedy);
    free(idx);
}

static void no_give_up_past_the_head(void** state)
{
    (void)state;
    const size_t R = 97, L = 211; /* 40,934 triangles in 97 ribbons */
    const size_t T = R * L * 2;
    uint32_t* idx = test_indices(3 * T);
    size_t t = 0;
    for (size_t r = 0; r < R; ++r)
        for (uint32_t q = 0; q < L; ++q) {
            const uint32_t a0 = (uint32_t)(r * 2 * (L + 1)) + 2 * q, a1 = a0 + 1, c0 = a0 + 2, c1 = a0 + 3;
            const uint32_t quad[6] = {a0, a1, c0, a1, c1, c0};
            memcpy(idx + 3 * t, quad, sizeof quad);
            t += 2;
        }
    const uint32_t vertices = (uint32_t)(R * 2 * (L + 1));
    const char* const specs[] = {"nvidia-dx", "nvidia-gl"};
    for (size_t s = 0; s < 2; ++s) {
        const gc_model m = model_of(specs[s]);
        gc_flush_rule rule;
        gc_error err;
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        uint32_t* order = test_indices(T);
        uint32_t* plain = test_indices(T);
        uint64_t cost = 0, model = 0, plain_cost = 0;
        assert_int_equal(
            gc_opt_forsyth_flush_kerbl(idx, T, vertices, &gc_flush_batch_scores, &rule, &m, plain, &plain_cost, &err),
            GC_OK);
        gc_order_race r;
        assert_int_equal(gc_order_race_init(&r, T, &err), GC_OK);
        r.batch_leads = true, r.margin_permille = GC_RACE_TAIL_MARGIN_PERMILLE; /* as from 1M triangles */
        for (unsigned k = 0; k < GC_RACE_MARKS; ++k)
            gc_order_race_post(&r, k, k < 8 ? 3 * (uint64_t)T : 0); /* ahead from 90% on */
        assert_true(r.at[8] > T - T / GC_FLUSH_TAIL_PARTS);
        bool gave_up = true;
        assert_int_equal(gc_opt_flush_batch_tail_race(idx, T, vertices, &rule, &m, &r, order, &cost, &gave_up, &err),
                         GC_OK);
        gc_order_race_free(&r);
        assert_false(gave_up);
        assert_memory_equal(order, plain, T * sizeof *order); /* no full batch past the head: the whole order */
        assert_int_equal(gc_kerbl_order_cost(idx, T, vertices, &m, order, &model, &err), GC_OK);
        assert_int_equal(cost, model);
        assert_int_equal(cost, plain_cost);
        free(plain);
        free(order);
    }
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(marks_and_margin),
        cmocka_unit_test(chaser_waits_for_the_mark),
        cmocka_unit_test(flushed_order_posts_its_prefix_counts),
        cmocka_unit_test(batch_greedy_stops_or_runs_on),
        cmocka_unit_test(ogre_stops_the_batch_greedy),
        cmocka_unit_test(igea_runs_it_to_the_end),
        cmocka_unit_test(batch_greedy_leads_from_a_million),
        cmocka_unit_test(no_give_up_past_the_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
