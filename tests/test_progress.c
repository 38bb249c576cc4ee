// SPDX-License-Identifier: MIT
/* gc_optimize's progress (auto): the fraction it reports rises monotonically to exactly
 * 1 at the end, and the work after the candidate orders (the local search of --effort 2
 * and more, which takes most of the time there) is reported too, instead of the fraction
 * reaching 1 with most of the time still ahead (issue 20). */
#include "test_util.h"

typedef struct calls {
    uint64_t last_done, total, count, at_total;
    int backwards, total_changed;
} calls;

static void record(void* user, uint64_t done, uint64_t total)
{
    calls* c = user;
    if (c->count && total != c->total)
        c->total_changed = 1;
    if (done < c->last_done)
        c->backwards = 1;
    c->at_total += done == total;
    c->last_done = done;
    c->total = total;
    c->count++;
}

static calls run(unsigned effort)
{
    enum { W = 40, H = 40 };
    size_t n = gc_grid_index_count(W, H, GC_GRID_ROWMAJOR, 0);
    uint32_t* idx = malloc(n * sizeof *idx);
    uint32_t* out = malloc(n * sizeof *out);
    assert_non_null(idx);
    assert_non_null(out);
    size_t written = 0;
    gc_error err;
    assert_int_equal(gc_grid_generate(W, H, GC_GRID_ROWMAJOR, 0, idx, &written, &err), GC_OK);
    calls c = {0};
    gc_optimize_options o = {0};
    o.effort = effort;
    o.progress = record;
    o.progress_user = &c;
    if (gc_optimize(GC_OPT_AUTO, idx, written, (W + 1) * (H + 1), &o, out, &err) != GC_OK)
        fail_msg("%s", err.message);
    free(idx);
    free(out);
    return c;
}

static void rises_to_the_end(void** state)
{
    (void)state;
    for (unsigned effort = 1; effort <= 3; ++effort) {
        calls c = run(effort);
        assert_true(c.count > 0);
        assert_false(c.backwards);
        assert_false(c.total_changed);
        /* exactly 1 once, at the last call */
        assert_int_equal(c.last_done, c.total);
        assert_int_equal(c.at_total, 1);
    }
}

static void the_local_search_is_counted(void** state)
{
    (void)state;
    /* effort 1 scores at most 16 candidate orders with no local search; effort 3 adds two
     * local-search passes, each reported along its positions (dozens of calls): without
     * them effort 3 would report only its 13-odd candidates */
    calls one = run(1), three = run(3);
    assert_true(one.count <= 16);
    assert_true(three.count >= one.count + 2 * 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rises_to_the_end),
        cmocka_unit_test(the_local_search_is_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
