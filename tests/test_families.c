// SPDX-License-Identifier: MIT
/* Issue 28: the family table (gc_family_get) and a caller's family (gc_family_register).
 * The built-in rows against the parser and the enum; traits of a few models against their
 * parameters by hand; and a registered rule used as every model is: parsed, analyzed,
 * optimized for, fitted and listed. */
#include "test_util.h"

static gc_model parsed(const char* spec)
{
    gc_model m;
    gc_error err;
    if (gc_model_parse(spec, &m, &err))
        fail_msg("%s: %s", spec, err.message);
    return m;
}

static void builtin_rows(void** state)
{
    (void)state;
    assert_int_equal(gc_family_count(), GC_MODEL_FAMILY_COUNT);
    assert_null(gc_family_get(GC_MODEL_FAMILY_COUNT));
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* f = gc_family_get(i);
        assert_non_null(f->rule);
        assert_string_equal(f->name, gc_model_family_name((gc_model_family)i));
        size_t at = 99;
        assert_ptr_equal(gc_family_find(f->name, &at), f);
        assert_int_equal(at, i);
        /* the syntax starts with the name; the example is a spec of the family */
        assert_int_equal(strncmp(f->syntax, f->name, strlen(f->name)), 0);
        gc_model m = parsed(f->example);
        assert_int_equal(m.family, (gc_model_family)i);
        /* optional parameters: the bare name is the fallbacks */
        if (!f->params_required) {
            m = parsed(f->name);
            for (unsigned k = 0; k < f->param_count; ++k)
                assert_int_equal(m.p[k], f->params[k].fallback);
            assert_string_equal(m.name, f->name);
        }
    }
    assert_string_equal(gc_family_get(GC_MODEL_NV_GL)->name, "nv-gl");
    assert_null(gc_family_find("nope", NULL));
    assert_null(gc_family_find("fifo:16", NULL));
}

static void traits_by_hand(void** state)
{
    (void)state;
    gc_family_traits t;
    gc_model m = parsed("fifo:16");
    gc_model_traits(&m, &t);
    assert_int_equal(t.order_cache, 16);
    assert_true(t.fifo_like);
    assert_false(t.pieces || t.value_keyed || t.capacity);
    m = parsed("meshopt:32,16,24"); /* cache, warp, group */
    gc_model_traits(&m, &t);
    assert_int_equal(t.capacity, 16);
    assert_true(t.pieces && t.warp_sum);
    assert_int_equal(t.piece_vertices, 16);
    assert_int_equal(t.piece_triangles, 24);
    m = parsed("meshopt:8,16,24"); /* a warp larger than the cache evicts inside it */
    gc_model_traits(&m, &t);
    assert_false(t.warp_sum);
    m = parsed("llvmpipe:segment=300,map=64");
    gc_model_traits(&m, &t);
    assert_true(t.value_keyed);
    assert_int_equal(t.segment_indices, 300);
    assert_int_equal(t.segment_map, 64);
    assert_int_equal(t.piece_triangles, 100);
    m = parsed("ati:lru=12,vertices=48,reset=300");
    gc_model_traits(&m, &t);
    assert_true(t.kerbl_batches && t.batch_cut_inside);
    assert_int_equal(t.batch_held, 12);
    assert_int_equal(t.batch_indices, 300);
    assert_false(t.batch_greedy_cheap); /* an LRU under 16 */
    m = parsed("nv-dx:indices=12,vertices=5");
    gc_model_traits(&m, &t);
    assert_int_equal(t.capacity, 5);
    assert_int_equal(t.piece_triangles, 4);
}

/* A rule of the test's own: no cache at all, every corner shaded. Its parameter `extra`
 * adds that many invocations at the end of each primitive's first corner (so that its
 * specs differ), its fixed block counts nothing. */
static uint32_t none_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const gc_model* m = c->params;
    for (unsigned j = 0; j < p->count; ++j)
        *shaded += GC_SIM_SHADE(j);
    *shaded += m->p[0] * GC_SIM_SHADE(0);
    return p->count + m->p[0];
}

static const gc_sim_rule none_rule = {.name = "no-cache", .feed = none_feed};

static void none_search(unsigned stage, gc_family_add_fn add, void* user)
{
    if (stage == GC_FAMILY_SEARCH_STAGES - 1) {
        add(user, "no-cache:extra=2");
        add(user, "no-cache:extra=99999"); /* out of range: skipped */
    }
}

static const gc_family none_family = {
    .name = "no-cache",
    .syntax = "no-cache[:extra=]",
    .summary = "every corner shaded",
    .example = "no-cache",
    .param_count = 1,
    .params = {{"extra", 0, 9, 0, 0}},
    .rule = &none_rule,
    .search = none_search,
};

static void registered_family(void** state)
{
    (void)state;
    gc_error err;
    gc_model_family id = GC_MODEL_FIFO;
    assert_int_equal(gc_family_register(&none_family, &id, &err), GC_OK);
    assert_int_equal(id, GC_MODEL_FAMILY_COUNT);
    assert_int_equal(gc_family_count(), GC_MODEL_FAMILY_COUNT + 1);
    assert_ptr_equal(gc_family_get(GC_MODEL_FAMILY_COUNT), &none_family);
    assert_string_equal(gc_model_family_name(id), "no-cache");
    /* a second time, a built-in's name, a preset's: refused */
    assert_int_equal(gc_family_register(&none_family, NULL, &err), GC_ERR_USAGE);
    gc_family clash = none_family;
    clash.name = "intel";
    assert_int_equal(gc_family_register(&clash, NULL, &err), GC_ERR_USAGE);
    clash.name = "Bad Name";
    assert_int_equal(gc_family_register(&clash, NULL, &err), GC_ERR_USAGE);
    clash.name = "other";
    clash.example = "other:extra=10"; /* out of its own range */
    assert_int_equal(gc_family_register(&clash, NULL, &err), GC_ERR_USAGE);
    clash.example = "other";
    clash.rule = NULL;
    assert_int_equal(gc_family_register(&clash, NULL, &err), GC_ERR_USAGE);
    assert_int_equal(gc_family_count(), GC_MODEL_FAMILY_COUNT + 1);

    /* parsed: canonical names, ranges */
    gc_model m = parsed("no-cache");
    assert_int_equal(m.family, id);
    assert_string_equal(m.name, "no-cache");
    m = parsed("no-cache:3");
    assert_string_equal(m.name, "no-cache:extra=3");
    assert_int_equal(gc_model_parse("no-cache:extra=10", &m, &err), GC_ERR_USAGE);
    assert_int_equal(gc_model_parse("bogus", &m, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "no-cache[:extra=]"));

    /* analyzed: a 4x3 grid, 24 triangles, 72 corners each shaded; extra=1 adds 24 */
    uint32_t grid[72];
    size_t n = 0;
    for (uint32_t y = 0; y < 3; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            uint32_t a = y * 5 + x, b = a + 1, c = a + 5, d = c + 1;
            const uint32_t q[6] = {a, c, b, b, c, d};
            memcpy(grid + n, q, sizeof q);
            n += 6;
        }
    gc_draw draw = {grid, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    m = parsed("no-cache");
    assert_int_equal(gc_analyze(&m, &draw, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 72);
    m = parsed("no-cache:extra=1");
    assert_int_equal(gc_analyze(&m, &draw, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 96);
    gc_model both[2] = {parsed("fifo:64"), m};
    gc_stats two[2];
    assert_int_equal(gc_analyze_models(both, 2, &draw, NULL, 2, two, &err), GC_OK);
    assert_int_equal(two[0].invocations, 20); /* 5 x 4 vertices, all cached */
    assert_int_equal(two[1].invocations, 96);
    /* a machine from the spec */
    gc_sim* sim = NULL;
    assert_int_equal(gc_sim_create(&m, 20, NULL, &sim, &err), GC_OK);
    assert_int_equal(gc_analyze_sim(sim, &draw, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 96);
    gc_sim_destroy(sim);

    /* an auto target, alone and with a built-in one: a permutation of the triangles */
    uint32_t out[72];
    gc_optimize_options o = {0};
    o.targets = both;
    o.target_count = 2;
    assert_int_equal(gc_optimize(GC_OPT_AUTO, grid, n, 20, &o, out, &err), GC_OK);
    assert_int_equal(gc_check_permutation(grid, out, n, 20, &err), GC_OK);
    o.targets = &both[1];
    o.target_count = 1;
    o.effort = 2;
    assert_int_equal(gc_optimize(GC_OPT_AUTO, grid, n, 20, &o, out, &err), GC_OK);

    /* a fit candidate: measured 96 invocations, only extra=1 predicts it */
    gc_fit_case c = {0};
    c.draw = draw;
    c.invocations = 96;
    gc_model candidates[3] = {parsed("fifo:4"), parsed("no-cache"), parsed("no-cache:extra=1")};
    gc_fit_options fo = {0};
    fo.candidates = candidates;
    fo.candidate_count = 3;
    gc_fit_candidate best[3];
    size_t best_count = 0;
    assert_int_equal(gc_fit(&c, 1, &fo, 3, best, &best_count, &err), GC_OK);
    assert_int_equal(best_count, 3);
    assert_string_equal(best[0].model.name, "no-cache:extra=1");
    assert_int_equal(best[0].exact, 1);
    /* and in the standard search space, once (its out-of-range spec skipped), last */
    size_t total = gc_fit_search_space(NULL, 0);
    gc_model* space = calloc(total, sizeof *space);
    assert_non_null(space);
    const size_t got = gc_fit_search_space(space, total); /* without duplicates: fewer */
    assert_true(got >= 2 && got <= total);
    assert_string_equal(space[got - 1].name, "no-cache:extra=2");
    assert_string_not_equal(space[got - 2].name, "no-cache:extra=2");
    free(space);
}

static void register_limit(void** state)
{
    (void)state;
    static char names[GC_MAX_REGISTERED_FAMILIES + 1][16];
    static gc_family rows[GC_MAX_REGISTERED_FAMILIES + 1];
    gc_error err;
    size_t ok = 0;
    for (size_t i = 0; i <= GC_MAX_REGISTERED_FAMILIES; ++i) {
        snprintf(names[i], sizeof names[i], "many-%zu", i);
        rows[i] = none_family;
        rows[i].name = names[i];
        rows[i].example = names[i];
        gc_status s = gc_family_register(&rows[i], NULL, &err);
        if (s == GC_OK)
            ok++;
        else
            assert_int_equal(s, GC_ERR_LIMIT);
    }
    /* one was registered by the test before */
    assert_int_equal(ok, GC_MAX_REGISTERED_FAMILIES - 1);
    assert_int_equal(gc_family_count(), GC_MODEL_FAMILY_COUNT + GC_MAX_REGISTERED_FAMILIES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_rows),
        cmocka_unit_test(traits_by_hand),
        cmocka_unit_test(registered_family),
        cmocka_unit_test(register_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
