// SPDX-License-Identifier: MIT
/* memsys's reports (gpucache_private.h): every strategy replayed and ranked, and the table or
 * JSON of one replay or of the ranking, written to the caller's stream. */
#include "gpucache_private.h"

#include "../internal.h"
#include "../strbuf.h"

#include <stdlib.h>
#include <string.h>

static const char* const strategy_ids[GC_MEMSYS_STRATEGY_COUNT] = {"as-written", "l1-bypass", "l2-bypass",
                                                                   "sc-as-uc"};
static const char* const hazard_names[GC_HAZARD_KIND_COUNT] = {"cpu-reads-dirty-sc", "gpu-reads-stale-sc",
                                                               "gc-no-l1-invalidate", "cp-cannot-see-semaphore"};

const char* gc_memsys_strategy_id(gc_memsys_strategy s)
{
    return (int)s >= 0 && s < GC_MEMSYS_STRATEGY_COUNT ? strategy_ids[s] : NULL;
}

gc_status gc_memsys_strategy_parse(const char* id, gc_memsys_strategy* out, gc_error* err)
{
    for (int s = 0; id && s < GC_MEMSYS_STRATEGY_COUNT; ++s)
        if (strcmp(id, strategy_ids[s]) == 0) {
            *out = (gc_memsys_strategy)s;
            return GC_OK;
        }
    return gc_fail(err, GC_ERR_USAGE, "unknown strategy '%s' (as-written, l1-bypass, l2-bypass, sc-as-uc)",
                   id ? id : "");
}

/* One progress count over the four replays. */
typedef struct compare_progress {
    gc_progress_fn fn;
    void* user;
    uint64_t before, total;
} compare_progress;

static void compare_report(void* user, uint64_t done, uint64_t total)
{
    (void)total;
    compare_progress* c = user;
    c->fn(c->user, c->before + done, c->total);
}

gc_status gc_memsys_compare(const gc_memsys* m, gc_progress_fn progress, void* progress_user,
                            gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT], int order[GC_MEMSYS_STRATEGY_COUNT],
                            gc_error* err)
{
    uint64_t work = gc_memsys_work(m), runs = GC_MEMSYS_STRATEGY_COUNT;
    uint64_t total = work > UINT64_MAX / runs ? UINT64_MAX : work * runs;
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
        order[i] = i;
        compare_progress cp = {progress, progress_user, (uint64_t)i * work, total};
        gc_status rs = gc_memsys_run_limited(m, (gc_memsys_strategy)i, UINT64_MAX, progress ? compare_report : NULL,
                                             &cp, &reports[i], err);
        if (rs) {
            for (int k = 0; k < i; ++k)
                gc_memsys_report_free(&reports[k]);
            return rs;
        }
    }
    /* by total cycles, then Onion traffic; an insertion sort keeps ties in strategy order */
    for (int i = 1; i < GC_MEMSYS_STRATEGY_COUNT; ++i)
        for (int k = i; k > 0; --k) {
            const gc_memsys_stats *a = &reports[order[k]].total, *b = &reports[order[k - 1]].total;
            uint64_t oa = a->onion_bytes + a->onion_plus_bytes, ob = b->onion_bytes + b->onion_plus_bytes;
            if (a->cycles < b->cycles || (a->cycles == b->cycles && oa < ob)) {
                int t = order[k];
                order[k] = order[k - 1];
                order[k - 1] = t;
            }
        }
    return GC_OK;
}

static uint64_t sum(const uint64_t a[GC_MEM_TYPE_COUNT][2], int rw)
{
    uint64_t n = 0;
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        n += rw < 0 ? a[t][0] + a[t][1] : a[t][rw];
    return n;
}

static void print_row(FILE* f, const char* name, const gc_memsys_stats* st)
{
    char l1[32], l2[32], k[32];
    uint64_t a1 = sum(st->l1.accesses, -1), a2 = sum(st->l2.accesses, -1), ak = sum(st->kcache.accesses, -1);
    snprintf(l1, sizeof l1, a1 ? "%.1f%%" : "-", a1 ? 100.0 * (double)sum(st->l1.hits, -1) / (double)a1 : 0.0);
    snprintf(l2, sizeof l2, a2 ? "%.1f%%" : "-", a2 ? 100.0 * (double)sum(st->l2.hits, -1) / (double)a2 : 0.0);
    snprintf(k, sizeof k, ak ? "%.1f%%" : "-", ak ? 100.0 * (double)sum(st->kcache.hits, -1) / (double)ak : 0.0);
    fprintf(f, "%-20s %9llu %7s %9llu %7s %7s %11llu %10llu %10llu %5llu/%-3llu %5llu/%-3llu %11.0f\n", name,
            (unsigned long long)a1, l1, (unsigned long long)a2, l2, k, (unsigned long long)st->garlic_bytes,
            (unsigned long long)st->onion_bytes, (unsigned long long)st->onion_plus_bytes,
            (unsigned long long)st->l2_invalidates, (unsigned long long)st->l2_invalidates_skipped,
            (unsigned long long)st->l2_writebacks, (unsigned long long)st->l2_writebacks_skipped, st->cycles);
}

static void json_cache(gc_strbuf* j, const char* name, const gc_memsys_cache_stats* c)
{
    gc_sb_printf(j, "\"%s\": {", name);
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        gc_sb_printf(j,
                     "%s\"%s\": {\"read\": {\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu}, \"write\": "
                     "{\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu}}",
                     t ? ", " : "", gc_memtype_name((gc_memtype)t), (unsigned long long)c->accesses[t][0],
                     (unsigned long long)c->hits[t][0], (unsigned long long)c->misses[t][0],
                     (unsigned long long)c->accesses[t][1], (unsigned long long)c->hits[t][1],
                     (unsigned long long)c->misses[t][1]);
    gc_sb_printf(j, "}");
}

static void json_stats(gc_strbuf* j, const gc_memsys_stats* st)
{
    gc_sb_printf(j, "{");
    json_cache(j, "l1", &st->l1);
    gc_sb_printf(j, ", ");
    json_cache(j, "l2", &st->l2);
    gc_sb_printf(j, ", ");
    json_cache(j, "kcache", &st->kcache);
    gc_sb_printf(j,
                 ", \"garlic_bytes\": %llu, \"onion_bytes\": %llu, \"onion_plus_bytes\": %llu, \"l1_invalidates\": %llu, "
                 "\"l1_invalidate_lines\": %llu, \"l2_invalidates\": %llu, \"l2_invalidates_skipped\": %llu, "
                 "\"l2_invalidate_lines\": %llu, \"l2_writebacks\": %llu, \"l2_writebacks_skipped\": %llu, "
                 "\"l2_writeback_lines\": %llu, \"l2_writeback_dirty_bytes\": %llu, \"kcache_invalidates\": %llu, "
                 "\"kcache_invalidate_lines\": %llu, \"crosstalk_events\": %llu, \"crosstalk_lines\": %llu, "
                 "\"bus_cycles\": " JSON_FLOAT ", \"event_cycles\": " JSON_FLOAT ", \"cycles\": " JSON_FLOAT
                 ", \"invalidate_cycles\": " JSON_FLOAT ", \"writeback_cycles\": " JSON_FLOAT "}",
                 (unsigned long long)st->garlic_bytes, (unsigned long long)st->onion_bytes,
                 (unsigned long long)st->onion_plus_bytes, (unsigned long long)st->l1_invalidates,
                 (unsigned long long)st->l1_invalidate_lines, (unsigned long long)st->l2_invalidates,
                 (unsigned long long)st->l2_invalidates_skipped, (unsigned long long)st->l2_invalidate_lines,
                 (unsigned long long)st->l2_writebacks, (unsigned long long)st->l2_writebacks_skipped,
                 (unsigned long long)st->l2_writeback_lines, (unsigned long long)st->l2_writeback_dirty_bytes,
                 (unsigned long long)st->kcache_invalidates, (unsigned long long)st->kcache_invalidate_lines,
                 (unsigned long long)st->crosstalk_events, (unsigned long long)st->crosstalk_lines,
                 JF(st->bus_cycles), JF(st->event_cycles), JF(st->cycles), JF(st->invalidate_cycles),
                 JF(st->writeback_cycles));
}

static void json_hazards(gc_strbuf* j, const gc_memsys_report* r)
{
    gc_sb_printf(j, "[");
    for (size_t i = 0; i < r->hazard_count; ++i) {
        gc_sb_printf(j, "%s{\"kind\": \"%s\", \"line\": %llu, \"message\": ", i ? ", " : "",
                     hazard_names[r->hazards[i].kind], (unsigned long long)r->hazards[i].line);
        gc_sb_json_string(j, r->hazards[i].message);
        gc_sb_printf(j, "}");
    }
    gc_sb_printf(j, "]");
}

gc_status gc_memsys_report_print(FILE* f, const char* path, const gc_memsys_report* r, gc_memsys_strategy strategy,
                                 int json, gc_error* err)
{
    if (!gc_memsys_strategy_id(strategy))
        return gc_fail(err, GC_ERR_USAGE, "gc_memsys_report_print: no such strategy");
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"scenario\": ");
        gc_sb_json_string(&j, path);
        gc_sb_printf(&j, ", \"strategy\": \"%s\", \"dispatches\": [", strategy_ids[strategy]);
        for (size_t i = 0; i < r->dispatch_count; ++i) {
            gc_sb_printf(&j, "%s{\"name\": ", i ? ", " : "");
            gc_sb_json_string(&j, r->dispatch_names[i]);
            gc_sb_printf(&j, ", \"stats\": ");
            json_stats(&j, &r->dispatches[i]);
            gc_sb_printf(&j, "}");
        }
        gc_sb_printf(&j, "], \"between\": ");
        json_stats(&j, &r->between);
        gc_sb_printf(&j, ", \"total\": ");
        json_stats(&j, &r->total);
        gc_sb_printf(&j, ", \"hazards\": ");
        json_hazards(&j, r);
        gc_sb_printf(&j, "}\n");
        return gc_sb_write(&j, f, err);
    }
    fprintf(f, "%s, strategy: %s\n", path, gc_memsys_strategy_name(strategy));
    fprintf(f, "%-20s %9s %7s %9s %7s %7s %11s %10s %10s %9s %9s %11s\n", "dispatch", "L1 acc", "L1 hit", "L2 acc",
            "L2 hit", "K hit", "Garlic B", "Onion B", "Onion+ B", "L2 inv", "L2 wb", "cycles");
    for (size_t i = 0; i < r->dispatch_count; ++i)
        print_row(f, r->dispatch_names[i], &r->dispatches[i]);
    print_row(f, "(between)", &r->between);
    print_row(f, "total", &r->total);
    fprintf(f, "(L2 inv and L2 wb: issued/skipped by dirty tracking)\n");
    const gc_memsys_stats* t = &r->total;
    fprintf(f,
            "L1 invalidates %llu (%llu lines), L2 invalidated %llu lines, written back %llu lines (%llu dirty "
            "bytes), K-cache invalidates %llu; cross-talk: %llu events touching %llu lines of other dispatches\n",
            (unsigned long long)t->l1_invalidates, (unsigned long long)t->l1_invalidate_lines,
            (unsigned long long)t->l2_invalidate_lines, (unsigned long long)t->l2_writeback_lines,
            (unsigned long long)t->l2_writeback_dirty_bytes, (unsigned long long)t->kcache_invalidates,
            (unsigned long long)t->crosstalk_events, (unsigned long long)t->crosstalk_lines);
    if (r->hazard_count == 0)
        fprintf(f, "hazards: none\n");
    for (size_t i = 0; i < r->hazard_count; ++i)
        fprintf(f, "hazard: %s:%llu: %s: %s\n", path, (unsigned long long)r->hazards[i].line,
                hazard_names[r->hazards[i].kind], r->hazards[i].message);
    return GC_OK;
}

gc_status gc_memsys_ranking_print(FILE* f, const char* path, const gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT],
                                  const int order[GC_MEMSYS_STRATEGY_COUNT], int json, gc_error* err)
{
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"scenario\": ");
        gc_sb_json_string(&j, path);
        gc_sb_printf(&j, ", \"ranking\": [");
        for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
            const gc_memsys_report* r = &reports[order[i]];
            gc_sb_printf(&j,
                         "%s{\"strategy\": \"%s\", \"cycles\": " JSON_FLOAT ", \"bus_cycles\": " JSON_FLOAT
                         ", \"invalidate_cycles\": " JSON_FLOAT ", \"writeback_cycles\": " JSON_FLOAT
                         ", \"onion_bytes\": %llu, \"onion_plus_bytes\": %llu, \"garlic_bytes\": %llu, \"hazards\": ",
                         i ? ", " : "", strategy_ids[order[i]], JF(r->total.cycles), JF(r->total.bus_cycles),
                         JF(r->total.invalidate_cycles), JF(r->total.writeback_cycles),
                         (unsigned long long)r->total.onion_bytes, (unsigned long long)r->total.onion_plus_bytes,
                         (unsigned long long)r->total.garlic_bytes);
            json_hazards(&j, r);
            gc_sb_printf(&j, "}");
        }
        gc_sb_printf(&j, "]}\n");
        return gc_sb_write(&j, f, err);
    }
    fprintf(f, "%s: flush strategies ranked by total cycles, then Onion traffic\n", path);
    fprintf(f, "%-4s %-46s %12s %12s %12s %12s %8s\n", "rank", "strategy", "cycles", "Onion B", "Onion+ B", "Garlic B",
            "hazards");
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
        const gc_memsys_report* r = &reports[order[i]];
        fprintf(f, "%-4d %-46s %12.0f %12llu %12llu %12llu %8zu\n", i + 1,
                gc_memsys_strategy_name((gc_memsys_strategy)order[i]), r->total.cycles,
                (unsigned long long)r->total.onion_bytes, (unsigned long long)r->total.onion_plus_bytes,
                (unsigned long long)r->total.garlic_bytes, r->hazard_count);
    }
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
        const gc_memsys_report* r = &reports[order[i]];
        for (size_t h = 0; h < r->hazard_count; ++h)
            fprintf(f, "hazard under %s: %s:%llu: %s: %s\n", strategy_ids[order[i]], path,
                    (unsigned long long)r->hazards[h].line, hazard_names[r->hazards[h].kind],
                    r->hazards[h].message);
    }
    return GC_OK;
}
