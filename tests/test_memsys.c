// SPDX-License-Identifier: MIT
/* The memory-system simulator against seed 003: its cycle figures, its dirty-state
 * tracking, the routing of every memory type and bypass bit, each hazard (and its fixed
 * twin), and the parser's errors. */
#include "test_util.h"

static gc_memsys* parse_ok(const char* text)
{
    gc_memsys* m = NULL;
    gc_error err;
    if (gc_memsys_parse(text, strlen(text), "test.scn", &m, &err) != GC_OK)
        fail_msg("parse: %s", err.message);
    return m;
}

static gc_memsys_report run_ok(const char* text, gc_memsys_strategy strategy)
{
    gc_memsys* m = parse_ok(text);
    gc_memsys_report r;
    gc_error err;
    if (gc_memsys_run(m, strategy, &r, &err) != GC_OK)
        fail_msg("run: %s", err.message);
    gc_memsys_free(m);
    return r;
}

static double machine(const char* key)
{
    double v = 0;
    assert_true(gc_memsys_machine_value(NULL, key, &v));
    return v;
}

/* The cycles of the events after the dispatches of a scenario. */
static double event_cycles_of(const char* text)
{
    gc_memsys_report r = run_ok(text, GC_MEMSYS_AS_WRITTEN);
    double cycles = r.between.event_cycles;
    gc_memsys_report_free(&r);
    return cycles;
}

static void expect_between(const char* what, double cycles, double lo, double hi, const char* seed)
{
    if (cycles < lo || cycles > hi)
        fail_msg("%s: %.0f cycles, seed 003: %s", what, cycles, seed);
}

/* Seed 003: "Worst case L2 writeback cost is basically the Onion or Garlic cost of writing
 * 512 KB (about 40,000 cycles and 3,000 cycles respectively)"; "The L2 invalidate
 * typically takes 300-350 cycles"; "4K bytes worth of dirty Onion SC lines will take
 * perhaps 500 cycles ... 20K bytes worth of dirty Garlic SC lines will take about the same
 * time". */
static void seed_cycle_figures(void** state)
{
    (void)state;
    gc_memsys_report r = run_ok("buffer b size=512K type=SC\ndispatch w\n write b\nend\nl2_wb sc\n",
                                GC_MEMSYS_AS_WRITTEN);
    assert_int_equal(r.between.l2_writeback_dirty_bytes, 512 * 1024);
    expect_between("512 KB over Onion", r.between.event_cycles, 36000, 44000, "about 40,000");
    /* a writeback and nothing else: all of the event cycles are writeback cycles */
    assert_true(r.between.writeback_cycles == r.between.event_cycles && r.between.invalidate_cycles == 0);
    gc_memsys_report_free(&r);
    /* an L2 invalidate and nothing else: its locate and settle costs, all invalidate cycles */
    r = run_ok("buffer b size=4K type=SC\ndispatch w\n write b\n read b\nend\nl2_inv sc\n", GC_MEMSYS_AS_WRITTEN);
    assert_true(r.between.invalidate_cycles == machine("l2_inv_locate") + machine("l2_inv_settle"));
    assert_true(r.between.writeback_cycles == 0 && r.between.invalidate_cycles == r.between.event_cycles);
    assert_true(r.total.invalidate_cycles + r.total.writeback_cycles == r.total.event_cycles);
    gc_memsys_report_free(&r);
    expect_between("512 KB over Garlic",
                   event_cycles_of("buffer b size=512K type=GC\ndispatch w\n write b\nend\nl2_wb all\n"), 2700, 3300,
                   "about 3,000");
    expect_between("L2 invalidate",
                   event_cycles_of("buffer b size=4K type=SC\ndispatch w\n write b\n read b\nend\nl2_inv sc\n"), 300,
                   350, "300-350");
    double small_onion = event_cycles_of("buffer b size=4K type=SC\ndispatch w\n write b\nend\nl2_wb sc\n");
    expect_between("4 KB over Onion", small_onion, 450, 550, "perhaps 500");
    /* "about the same time": the same order as the 4 KB Onion writeback (within 2x) */
    expect_between("20 KB over Garlic",
                   event_cycles_of("buffer b size=20K type=GC\ndispatch w\n write b\nend\nl2_wb all\n"),
                   small_onion / 2, small_onion * 2, "about the same time as 4 KB over Onion");
    /* the fixed costs behind them, as docs/memsys.md lists them */
    assert_true(machine("l2_inv_locate") == 75);
    assert_true(machine("onion_bytes_per_cycle") == 12.5);
    assert_true(machine("garlic_bytes_per_cycle") == 200);
}

/* Seed 003: "If the L2 has performed no reads from SC memory since the last invalidate, it
 * will ignore any requests to invalidate. If the L2 has performed no writes to SC memory
 * since the last writeback, it will ignore any requests to perform a writeback." */
static void dirty_tracking(void** state)
{
    (void)state;
    gc_memsys_report r = run_ok("buffer sc size=4K type=SC\nbuffer gc size=4K type=GC\n"
                                "l2_inv sc\n"                            /* nothing read yet: skipped */
                                "l2_wb sc\n"                             /* nothing written yet: skipped */
                                "dispatch a\n read sc\nend\n"
                                "l2_inv sc\n"                            /* an SC read since: done */
                                "l2_inv sc\n"                            /* none since that one: skipped */
                                "dispatch b\n write gc\n read gc\nend\n" /* GC traffic is not SC */
                                "l2_inv sc\n"                            /* skipped */
                                "l2_wb sc\n"                             /* skipped */
                                "dispatch c\n write sc\nend\n"
                                "l2_wb sc\n"                             /* an SC write since: done */
                                "l2_wb sc\n",                            /* skipped */
                                GC_MEMSYS_AS_WRITTEN);
    assert_int_equal(r.total.l2_invalidates, 1);
    assert_int_equal(r.total.l2_invalidates_skipped, 3);
    assert_int_equal(r.total.l2_writebacks, 1);
    assert_int_equal(r.total.l2_writebacks_skipped, 3);
    /* a skipped event costs nothing */
    assert_true(r.total.event_cycles ==
                machine("l2_inv_locate") + machine("l2_inv_settle") + machine("l2_wb_locate") +
                    machine("l2_wb_latency") + 4096 / machine("onion_bytes_per_cycle"));
    gc_memsys_report_free(&r);
}

/* Where one line of each memory type goes, for each bypass bit and direction. */
static void routing_table(void** state)
{
    (void)state;
    static const struct {
        const char* type;
        int l1_bypass, l2_bypass, write;
        int l1, l2;             /* accesses expected */
        uint64_t garlic, onion, onion_plus;
    } rows[] = {
        /* reads */
        {"RO", 0, 0, 0, 1, 1, 64, 0, 0},
        {"RO", 1, 1, 0, 1, 1, 64, 0, 0}, /* the bypass bits concern GC and SC only */
        {"PV", 0, 0, 0, 1, 1, 64, 0, 0},
        {"GC", 0, 0, 0, 1, 1, 64, 0, 0},
        {"GC", 1, 0, 0, 0, 1, 64, 0, 0}, /* L1 bypass: straight to L2 */
        {"GC", 0, 1, 0, 1, 1, 64, 0, 0}, /* L2 bypass is for SC only */
        {"SC", 0, 0, 0, 1, 1, 0, 64, 0}, /* SC misses over Onion */
        {"SC", 1, 0, 0, 0, 1, 0, 64, 0},
        {"SC", 0, 1, 0, 1, 0, 0, 0, 64}, /* L2 bypass: Onion+ */
        {"SC", 1, 1, 0, 0, 0, 0, 0, 64},
        {"UC", 0, 0, 0, 0, 0, 0, 0, 64}, /* no cache at all */
        /* writes: L1 write-through, L2 write-back with allocation (no traffic until written back) */
        {"GC", 0, 0, 1, 1, 1, 0, 0, 0},
        {"GC", 1, 0, 1, 0, 1, 0, 0, 0},
        {"SC", 0, 0, 1, 1, 1, 0, 0, 0},
        {"SC", 0, 1, 1, 1, 0, 0, 0, 64},
        {"UC", 1, 1, 1, 0, 0, 0, 0, 64},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        char text[256];
        snprintf(text, sizeof text, "buffer b size=64 type=%s\ndispatch d cus=1 l1_bypass=%d l2_bypass=%d\n %s b\nend\n",
                 rows[i].type, rows[i].l1_bypass, rows[i].l2_bypass, rows[i].write ? "write" : "read");
        gc_memsys_report r = run_ok(text, GC_MEMSYS_AS_WRITTEN);
        const gc_memsys_stats* st = &r.dispatches[0];
        uint64_t l1 = 0, l2 = 0;
        for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
            for (int w = 0; w < 2; ++w)
                l1 += st->l1.accesses[t][w], l2 += st->l2.accesses[t][w];
        if (l1 != (uint64_t)rows[i].l1 || l2 != (uint64_t)rows[i].l2 || st->garlic_bytes != rows[i].garlic ||
            st->onion_bytes != rows[i].onion || st->onion_plus_bytes != rows[i].onion_plus)
            fail_msg("row %zu (%s l1_bypass=%d l2_bypass=%d %s): L1 %llu L2 %llu Garlic %llu Onion %llu Onion+ %llu", i,
                     rows[i].type, rows[i].l1_bypass, rows[i].l2_bypass, rows[i].write ? "write" : "read",
                     (unsigned long long)l1, (unsigned long long)l2, (unsigned long long)st->garlic_bytes,
                     (unsigned long long)st->onion_bytes, (unsigned long long)st->onion_plus_bytes);
        gc_memsys_report_free(&r);
    }
    /* scalar loads go through the K-cache, then the L2 */
    gc_memsys_report r = run_ok("buffer t size=128 type=RO\ndispatch d cus=3\n sread t\n sread t\nend\n",
                                GC_MEMSYS_AS_WRITTEN);
    assert_int_equal(r.dispatches[0].kcache.accesses[GC_MEM_RO][0], 4);
    assert_int_equal(r.dispatches[0].kcache.hits[GC_MEM_RO][0], 2);
    assert_int_equal(r.dispatches[0].l2.accesses[GC_MEM_RO][0], 2);
    gc_memsys_report_free(&r);
    /* the strategies: SC as UC sends SC straight over Onion+ */
    r = run_ok("buffer b size=64 type=SC\ndispatch d\n read b\nend\n", GC_MEMSYS_SC_AS_UC);
    assert_int_equal(r.total.onion_plus_bytes, 64);
    assert_int_equal(r.total.onion_bytes, 0);
    gc_memsys_report_free(&r);
}

static size_t hazards_of(const char* text, gc_memsys_hazard_kind kind)
{
    gc_memsys_report r = run_ok(text, GC_MEMSYS_AS_WRITTEN);
    size_t n = 0;
    for (size_t i = 0; i < r.hazard_count; ++i)
        n += r.hazards[i].kind == kind;
    gc_memsys_report_free(&r);
    return n;
}

/* Each hazard in a scenario made to have it, and not in its fixed twin. */
static void hazards(void** state)
{
    (void)state;
    /* a CPU read of SC data still dirty in L2 */
    assert_int_equal(hazards_of("buffer out size=1K type=SC\ndispatch d\n write out\nend\ncpu_read out\n",
                                GC_HAZARD_CPU_READS_DIRTY),
                     1);
    assert_int_equal(hazards_of("buffer out size=1K type=SC\ndispatch d\n write out\nend\nl2_wb sc\ncpu_read out\n",
                                GC_HAZARD_CPU_READS_DIRTY),
                     0);
    /* a GPU read of CPU-written SC data with no invalidate */
    const char* stale = "buffer in size=1K type=SC\ndispatch a cus=1\n read in\nend\ncpu_write in\n"
                        "dispatch b cus=1\n read in\nend\n";
    assert_int_equal(hazards_of(stale, GC_HAZARD_GPU_READS_STALE), 1);
    assert_int_equal(hazards_of("buffer in size=1K type=SC\ndispatch a cus=1\n read in\nend\ncpu_write in\n"
                                "l2_inv sc\nl1_inv\ndispatch b cus=1\n read in\nend\n",
                                GC_HAZARD_GPU_READS_STALE),
                     0);
    /* a GC consumer with no L1 invalidate: the lines CU 1 cached before the producer (on CU 0,
     * whose own copies its write-through keeps current) wrote them */
    const char* gc = "buffer g size=1K type=GC\ndispatch first cus=2\n read g\nend\n"
                     "dispatch producer cus=1\n write g\nend\ndispatch consumer cus=2\n read g\nend\n";
    assert_int_equal(hazards_of(gc, GC_HAZARD_GC_NO_L1_INVALIDATE), 1);
    assert_int_equal(hazards_of("buffer g size=1K type=GC\ndispatch first cus=2\n read g\nend\n"
                                "dispatch producer cus=1\n write g\nend\nl1_inv scope=once_per_cu\n"
                                "dispatch consumer cus=2\n read g\nend\n",
                                GC_HAZARD_GC_NO_L1_INVALIDATE),
                     0);
    /* cp_wait on a semaphore the command processor cannot see */
    assert_int_equal(hazards_of("buffer sem size=64 type=SC\ndispatch d\n signal sem\nend\ncp_wait sem\n",
                                GC_HAZARD_CP_CANNOT_SEE),
                     1);
    assert_int_equal(hazards_of("buffer sem size=64 type=SC\ndispatch d\n signal sem\nend\nl2_wb sc\ncp_wait sem\n",
                                GC_HAZARD_CP_CANNOT_SEE),
                     0);
    assert_int_equal(hazards_of("buffer sem size=64 type=UC\ndispatch d\n signal sem\nend\ncp_wait sem\n",
                                GC_HAZARD_CP_CANNOT_SEE),
                     0);
    assert_int_equal(hazards_of("buffer sem size=64 type=GC\ndispatch d\n signal sem\nend\ncp_wait sem\n",
                                GC_HAZARD_CP_CANNOT_SEE),
                     1);
}

/* Cross-talk: one dispatch's event writing back another's SC lines. */
static void crosstalk(void** state)
{
    (void)state;
    gc_memsys_report r = run_ok("buffer a size=1K type=SC\nbuffer b size=1K type=SC\n"
                                "dispatch one\n write a\nend\ndispatch two\n write b\n l2_wb sc\nend\n",
                                GC_MEMSYS_AS_WRITTEN);
    assert_int_equal(r.dispatches[1].crosstalk_events, 1);
    assert_int_equal(r.dispatches[1].crosstalk_lines, 16); /* a's 16 lines */
    gc_memsys_report_free(&r);
}

static void parse_fails(const char* text, const char* expect)
{
    gc_memsys* m = NULL;
    gc_error err;
    if (gc_memsys_parse(text, strlen(text), "bad.scn", &m, &err) != GC_ERR_DATA)
        fail_msg("accepted: %s", text);
    if (!strstr(err.message, expect))
        fail_msg("message '%s' lacks '%s'", err.message, expect);
    assert_null(m);
}

static void malformed(void** state)
{
    (void)state;
    parse_fails("buffer a size=1K type=XX\n", "bad.scn:1: unknown memory type 'XX'");
    parse_fails("buffer a size=1K type=RO\n\ndispatch d\n read nope\nend\n", "bad.scn:4: unknown buffer 'nope'");
    parse_fails("buffer a size=1K type=RO\ndispatch d\n read a\n", "bad.scn:3: dispatch 'd' has no 'end'");
    parse_fails("read a\n", "bad.scn:1: 'read' outside a dispatch block");
    parse_fails("machine l2_kb=banana\n", "bad.scn:1: machine parameter 'l2_kb'");
    parse_fails("machine warp=3\n", "bad.scn:1: unknown machine parameter 'warp'");
    parse_fails("buffer a size=0 type=RO\n", "bad.scn:1: bad buffer size '0'");
    parse_fails("buffer a size=1K type=RO\nbuffer a size=1K type=RO\n", "bad.scn:2: buffer 'a' declared twice");
    parse_fails("frobnicate\n", "bad.scn:1: unknown statement 'frobnicate'");
    parse_fails("l2_inv everything\n", "bad.scn:1: l2_inv takes");
    parse_fails("buffer a size=1K type=RO\ndispatch d cus=99\nend\n", "bad.scn:2: cus=99");
    parse_fails("buffer a size=1K type=RO\ndispatch d\n read a ws=2K\nend\n", "bad.scn:3: ws=2K");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_cycle_figures), cmocka_unit_test(dirty_tracking), cmocka_unit_test(routing_table),
        cmocka_unit_test(hazards),            cmocka_unit_test(crosstalk),      cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
