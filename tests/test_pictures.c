// SPDX-License-Identifier: MIT
/* The pictures' library API (gpucache_pictures.h, issue 28 item 3): escaping, the heat
 * map and the timeline of a quad worked out by hand, and the documented failures, which
 * write nothing. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "gpucache/gpucache_pictures.h"

/* A memory stream and its text. */
typedef struct memout {
    FILE* f;
    char* text;
    size_t size;
} memout;

static void mem_open(memout* m)
{
    m->text = NULL, m->size = 0;
    m->f = open_memstream(&m->text, &m->size);
    assert_non_null(m->f);
}

static void mem_close(memout* m)
{
    assert_int_equal(fclose(m->f), 0);
}

static size_t occurrences(const char* text, const char* what)
{
    size_t n = 0;
    for (const char* p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* one quad: triangles (0 1 2) and (2 1 3) in the z = 0 plane */
static const uint32_t quad[6] = {0, 1, 2, 2, 1, 3};
static const float quad_xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};

static void escape_hostile_text(void** state)
{
    (void)state;
    memout m;
    mem_open(&m);
    /* markup, both quotes, a control character, a lone continuation byte, and é (UTF-8) */
    gc_svg_escape(m.f, "<a&\"'>\x01\x80\xc3\xa9", 0);
    mem_close(&m);
    assert_string_equal(m.text, "&lt;a&amp;&quot;&apos;&gt;??\xc3\xa9");
    free(m.text);
    mem_open(&m);
    gc_svg_escape(m.f, "abcdef", 3);
    mem_close(&m);
    assert_string_equal(m.text, "abc...");
    free(m.text);
}

static void view_names(void** state)
{
    (void)state;
    gc_heatmap_view v;
    gc_error err;
    assert_int_equal(gc_heatmap_view_parse("side", &v, &err), GC_OK);
    assert_int_equal(v, GC_VIEW_SIDE);
    assert_int_equal(gc_heatmap_view_parse("below", &v, &err), GC_ERR_USAGE);
}

static void heatmap_of_a_quad(void** state)
{
    (void)state;
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse("fifo:3", &m, &err), GC_OK);
    gc_draw d = {quad, 6, GC_TRIANGLE_LIST, 0, 0};
    memout out;
    mem_open(&out);
    assert_int_equal(gc_heatmap_write(out.f, quad_xyz, 4, "quad.obj", &m, &d, NULL, &err), GC_OK);
    mem_close(&out);
    /* FIFO of 3: 0 1 2 miss, then 2 1 hit and 3 misses: 4 invocations over 2 triangles;
     * every vertex shaded once, so the scale is 1 to 1: one swatch */
    assert_non_null(strstr(out.text, ": 4 invocations, ATVR 1.000, ACMR 2.000; 2 triangles, 4 vertices;"));
    assert_int_equal(occurrences(out.text, "class=\"bar\""), 1);
    assert_int_equal(strncmp(out.text, "<?xml", 5), 0);
    free(out.text);

    /* inline (for HTML): no XML declaration */
    gc_heatmap_options o = {0};
    o.inline_svg = 1;
    mem_open(&out);
    assert_int_equal(gc_heatmap_write(out.f, quad_xyz, 4, "quad.obj", &m, &d, &o, &err), GC_OK);
    mem_close(&out);
    assert_int_equal(strncmp(out.text, "<svg", 4), 0);
    free(out.text);

    /* the common scale of two pictures: each vertex once */
    uint32_t top = 0;
    assert_int_equal(gc_heatmap_largest_count(&m, &d, NULL, 0, 4, &top, &err), GC_OK);
    assert_int_equal(top, 1);
    /* as two runs of one triangle each, vertices 1 and 2 are shaded by both draws */
    size_t runs[2] = {1, 1};
    assert_int_equal(gc_heatmap_largest_count(&m, &d, runs, 2, 4, &top, &err), GC_OK);
    assert_int_equal(top, 2);
}

static void heatmap_failures_write_nothing(void** state)
{
    (void)state;
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse("fifo:3", &m, &err), GC_OK);
    memout out;
    /* points have no area: no triangles */
    gc_draw points = {quad, 6, GC_POINT_LIST, 0, 0};
    mem_open(&out);
    assert_int_equal(gc_heatmap_write(out.f, quad_xyz, 4, "p", &m, &points, NULL, &err), GC_ERR_DATA);
    mem_close(&out);
    assert_int_equal(out.size, 0);
    assert_non_null(strstr(err.message, "draws no triangles"));
    free(out.text);
    /* index 3 without a position (3 positions given) */
    gc_draw d = {quad, 6, GC_TRIANGLE_LIST, 0, 0};
    mem_open(&out);
    assert_int_equal(gc_heatmap_write(out.f, quad_xyz, 3, "q", &m, &d, NULL, &err), GC_ERR_DATA);
    mem_close(&out);
    assert_int_equal(out.size, 0);
    assert_non_null(strstr(err.message, "index 3 has no position"));
    free(out.text);
}

static void timeline_of_a_quad(void** state)
{
    (void)state;
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse("fifo:3", &m, &err), GC_OK);
    gc_draw d = {quad, 6, GC_TRIANGLE_LIST, 0, 0};
    gc_timeline_info info;
    memout out;
    mem_open(&out);
    assert_int_equal(gc_timeline_write(out.f, "quad", &m, &d, NULL, 0, 10, &info, &err), GC_OK);
    mem_close(&out);
    /* 2 primitives (the window clamped to them) x 3 slots; 0 1 2 then 3 entered */
    assert_int_equal(info.primitives, 2);
    assert_int_equal(info.count, 2);
    assert_int_equal(info.slots, 3);
    assert_int_equal(occurrences(out.text, "class=\"cell\""), 6);
    assert_int_equal(occurrences(out.text, "class=\"miss\""), 4);
    assert_non_null(strstr(out.text, "4 values entered the cache"));
    free(out.text);

    /* a window past the draw: a usage error, nothing written */
    mem_open(&out);
    assert_int_equal(gc_timeline_write(out.f, "quad", &m, &d, NULL, 2, 10, &info, &err), GC_ERR_USAGE);
    mem_close(&out);
    assert_int_equal(out.size, 0);
    assert_int_equal(info.primitives, 2);
    free(out.text);
}

static void timeline_limit_writes_nothing(void** state)
{
    (void)state;
    /* an LRU of 200 entries over 1000 distinct-vertex triangles lists 200 entries once
     * full: 200 x 1000 cells, past GC_TIMELINE_MAX_CELLS (131072) */
    size_t n = 3 * 1000;
    uint32_t* idx = malloc(n * sizeof *idx);
    assert_non_null(idx);
    for (size_t i = 0; i < n; ++i)
        idx[i] = (uint32_t)i;
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse("lru:200", &m, &err), GC_OK);
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_timeline_info info;
    memout out;
    mem_open(&out);
    assert_int_equal(gc_timeline_write(out.f, "big", &m, &d, NULL, 0, 1000, &info, &err), GC_ERR_LIMIT);
    mem_close(&out);
    assert_int_equal(out.size, 0);
    assert_int_equal(info.slots, 200);
    free(out.text);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_hostile_text),
        cmocka_unit_test(view_names),
        cmocka_unit_test(heatmap_of_a_quad),
        cmocka_unit_test(heatmap_failures_write_nothing),
        cmocka_unit_test(timeline_of_a_quad),
        cmocka_unit_test(timeline_limit_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
