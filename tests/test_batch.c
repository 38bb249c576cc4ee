// SPDX-License-Identifier: MIT
/* seed 004's data assembler on the patent's own worked examples, as far as its text
 * gives them, plus state changes at the places the text describes. */
#include "test_util.h"

static gc_stats run(const char* spec, const uint32_t* idx, size_t n, gc_topology t, const uint64_t* changes,
                    size_t change_count)
{
    gc_model m = model_of(spec);
    gc_draw d = {idx, n, t, 0, 0};
    gc_analyze_options o = {0};
    o.state_changes = changes;
    o.state_change_count = change_count;
    gc_stats st;
    gc_error err;
    if (gc_analyze(&m, &d, &o, &st, &err) != GC_OK)
        fail_msg("%s", err.message);
    return st;
}

/* "assume a batch size of 8 vertex indices": a first triangle, then a second sharing one
 * index that adds two, "caching five vertex indices". */
static void eight_slots_five_cached(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 2, 3, 4};
    gc_stats st = run("batch:slots=8", idx, 6, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.invocations, 5);
    assert_int_equal(st.batches, 1);
    assert_int_equal(st.slots_filled, 5);
}

/* "a batch has previously had six vertex indices added ... only two new vertex indices may be
 * written ... the next primitive ... including none of the vertex indices in the six entries ...
 * the old batch is flushed and then a new batch is started". */
static void eight_slots_no_room(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    gc_stats st = run("batch:slots=8", idx, 9, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.invocations, 9);
    assert_int_equal(st.slots_filled, 9);
    /* Primitives never span batches: with room for 2, a triangle with one hit and two new fits. */
    static const uint32_t fits[] = {0, 1, 2, 3, 4, 5, 5, 6, 7};
    st = run("batch:slots=8", fits, 9, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.batches, 1);
    assert_int_equal(st.invocations, 8);
}

/* The 4-slot strip example: indices 1..5 of a strip; after the fourth the slots are full and
 * flushed; "a vertex state change occurs following the fourth vertex index"; the flush is "not
 * repeated"; map mode copies the indices the next triangle needs and the fifth takes the slot
 * of the one not needed: the second batch holds 3, 4 and 5. */
static void four_slot_strip_state_change(void** state)
{
    (void)state;
    static const uint32_t idx[] = {1, 2, 3, 4, 5};
    static const uint64_t change[] = {4};
    gc_stats st = run("batch:slots=4", idx, 5, GC_TRIANGLE_STRIP, change, 1);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.invocations, 4 + 3);
    assert_int_equal(st.state_change_flushes, 0); /* the slots were already flushed */
    assert_int_equal(st.map_mode_batches, 1);
    /* The same strip without a state change: the same batches, in normal mode. */
    st = run("batch:slots=4", idx, 5, GC_TRIANGLE_STRIP, NULL, 0);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.invocations, 7);
    assert_int_equal(st.map_mode_batches, 0);
}

/* A state change inside a primitive of a list flushes the pending batch and carries the
 * vertices already received into a map-mode batch. */
static void state_change_inside_a_triangle(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 3, 4, 5};
    static const uint64_t inside[] = {4};
    gc_stats st = run("batch", idx, 6, GC_TRIANGLE_LIST, inside, 1);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.invocations, 6);
    assert_int_equal(st.state_change_flushes, 1);
    assert_int_equal(st.map_mode_batches, 1);
    /* Between primitives: a plain flush, no map mode. */
    static const uint64_t between[] = {3};
    st = run("batch", idx, 6, GC_TRIANGLE_LIST, between, 1);
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.state_change_flushes, 1);
    assert_int_equal(st.map_mode_batches, 0);
    /* A shared vertex is shaded again in the new batch: per-vertex state costs invocations. */
    static const uint32_t shared[] = {0, 1, 2, 2, 1, 3};
    st = run("batch", shared, 6, GC_TRIANGLE_LIST, between, 1);
    assert_int_equal(st.invocations, 6);
    st = run("batch", shared, 6, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.invocations, 4);
    /* Two changes at the same place flush once: the second finds the slots empty. */
    static const uint64_t twice[] = {3, 3};
    st = run("batch", idx, 6, GC_TRIANGLE_LIST, twice, 2);
    assert_int_equal(st.state_change_flushes, 1);
}

/* In a strip, a change before index k carries the two anchors of the triangle it splits. */
static void strip_anchors(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 6};
    static const uint64_t change[] = {5};
    gc_stats st = run("batch", idx, 7, GC_TRIANGLE_STRIP, change, 1);
    /* Batch 1: 0..4 (triangles up to (2,3,4)); batch 2: anchors 3, 4, then 5 and 6. */
    assert_int_equal(st.batches, 2);
    assert_int_equal(st.invocations, 5 + 4);
    assert_int_equal(st.map_mode_batches, 1);
    /* In a fan, the anchor is the centre plus the last vertex. */
    st = run("batch", idx, 7, GC_TRIANGLE_FAN, change, 1);
    assert_int_equal(st.invocations, 5 + 4);
}

/* The primitive limit per batch. */
static void primitive_limit(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    gc_stats st = run("batch:slots=32,prims=2", idx, 15, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.batches, 3);
    assert_int_equal(st.invocations, 9);
    st = run("batch", idx, 15, GC_TRIANGLE_LIST, NULL, 0);
    assert_int_equal(st.batches, 1);
    assert_int_equal(st.invocations, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eight_slots_five_cached),
        cmocka_unit_test(eight_slots_no_room),
        cmocka_unit_test(four_slot_strip_state_change),
        cmocka_unit_test(state_change_inside_a_triangle),
        cmocka_unit_test(strip_anchors),
        cmocka_unit_test(primitive_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
