/* gpucache memsys: replay a memory-system scenario (seed 003) and report the caches'
 * work, the bus traffic, the cost of invalidates and writebacks, and the hazards; or, with
 * --compare, replay it under every flush strategy and rank them. */
#define _POSIX_C_SOURCE 200809L
#include "charts.h"
#include "cli.h"
#include "commands.h"
#include "help.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const hazard_names[GC_HAZARD_KIND_COUNT] = {"cpu-reads-dirty-sc", "gpu-reads-stale-sc",
                                                               "gc-no-l1-invalidate", "cp-cannot-see-semaphore"};

static uint64_t sum(const uint64_t a[GC_MEM_TYPE_COUNT][2], int rw)
{
    uint64_t n = 0;
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        n += rw < 0 ? a[t][0] + a[t][1] : a[t][rw];
    return n;
}

static void print_row(const char* name, const gc_memsys_stats* st)
{
    char l1[32], l2[32], k[32];
    uint64_t a1 = sum(st->l1.accesses, -1), a2 = sum(st->l2.accesses, -1), ak = sum(st->kcache.accesses, -1);
    snprintf(l1, sizeof l1, a1 ? "%.1f%%" : "-", a1 ? 100.0 * (double)sum(st->l1.hits, -1) / (double)a1 : 0.0);
    snprintf(l2, sizeof l2, a2 ? "%.1f%%" : "-", a2 ? 100.0 * (double)sum(st->l2.hits, -1) / (double)a2 : 0.0);
    snprintf(k, sizeof k, ak ? "%.1f%%" : "-", ak ? 100.0 * (double)sum(st->kcache.hits, -1) / (double)ak : 0.0);
    printf("%-20s %9llu %7s %9llu %7s %7s %11llu %10llu %10llu %5llu/%-3llu %5llu/%-3llu %11.0f\n", name,
           (unsigned long long)a1, l1, (unsigned long long)a2, l2, k, (unsigned long long)st->garlic_bytes,
           (unsigned long long)st->onion_bytes, (unsigned long long)st->onion_plus_bytes,
           (unsigned long long)st->l2_invalidates, (unsigned long long)st->l2_invalidates_skipped,
           (unsigned long long)st->l2_writebacks, (unsigned long long)st->l2_writebacks_skipped, st->cycles);
}

static void json_cache(strbuf* j, const char* name, const gc_memsys_cache_stats* c)
{
    sb_printf(j, "\"%s\": {", name);
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        sb_printf(j,
                  "%s\"%s\": {\"read\": {\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu}, \"write\": "
                  "{\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu}}",
                  t ? ", " : "", gc_memtype_name((gc_memtype)t), (unsigned long long)c->accesses[t][0],
                  (unsigned long long)c->hits[t][0], (unsigned long long)c->misses[t][0],
                  (unsigned long long)c->accesses[t][1], (unsigned long long)c->hits[t][1],
                  (unsigned long long)c->misses[t][1]);
    sb_printf(j, "}");
}

static void json_stats(strbuf* j, const gc_memsys_stats* st)
{
    sb_printf(j, "{");
    json_cache(j, "l1", &st->l1);
    sb_printf(j, ", ");
    json_cache(j, "l2", &st->l2);
    sb_printf(j, ", ");
    json_cache(j, "kcache", &st->kcache);
    sb_printf(j,
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
              (unsigned long long)st->crosstalk_events, (unsigned long long)st->crosstalk_lines, JF(st->bus_cycles),
              JF(st->event_cycles), JF(st->cycles), JF(st->invalidate_cycles), JF(st->writeback_cycles));
}

static void json_hazards(strbuf* j, const gc_memsys_report* r)
{
    sb_printf(j, "[");
    for (size_t i = 0; i < r->hazard_count; ++i) {
        sb_printf(j, "%s{\"kind\": \"%s\", \"line\": %llu, \"message\": ", i ? ", " : "",
                  hazard_names[r->hazards[i].kind], (unsigned long long)r->hazards[i].line);
        sb_json_string(j, r->hazards[i].message);
        sb_printf(j, "}");
    }
    sb_printf(j, "]");
}

static void print_report(const char* path, const gc_memsys_report* r)
{
    printf("%-20s %9s %7s %9s %7s %7s %11s %10s %10s %9s %9s %11s\n", "dispatch", "L1 acc", "L1 hit", "L2 acc",
           "L2 hit", "K hit", "Garlic B", "Onion B", "Onion+ B", "L2 inv", "L2 wb", "cycles");
    for (size_t i = 0; i < r->dispatch_count; ++i)
        print_row(r->dispatch_names[i], &r->dispatches[i]);
    print_row("(between)", &r->between);
    print_row("total", &r->total);
    printf("(L2 inv and L2 wb: issued/skipped by dirty tracking)\n");
    const gc_memsys_stats* t = &r->total;
    printf("L1 invalidates %llu (%llu lines), L2 invalidated %llu lines, written back %llu lines (%llu dirty "
           "bytes), K-cache invalidates %llu; cross-talk: %llu events touching %llu lines of other dispatches\n",
           (unsigned long long)t->l1_invalidates, (unsigned long long)t->l1_invalidate_lines,
           (unsigned long long)t->l2_invalidate_lines, (unsigned long long)t->l2_writeback_lines,
           (unsigned long long)t->l2_writeback_dirty_bytes, (unsigned long long)t->kcache_invalidates,
           (unsigned long long)t->crosstalk_events, (unsigned long long)t->crosstalk_lines);
    if (r->hazard_count == 0)
        printf("hazards: none\n");
    for (size_t i = 0; i < r->hazard_count; ++i)
        printf("hazard: %s:%llu: %s: %s\n", path, (unsigned long long)r->hazards[i].line,
               hazard_names[r->hazards[i].kind], r->hazards[i].message);
}

typedef struct compare_progress {
    progress_line* line;
    uint64_t before, total;
} compare_progress;

static void compare_report(void* user, uint64_t done, uint64_t total)
{
    (void)total;
    compare_progress* c = user;
    progress_report(c->line, c->before + done, c->total);
}

int cmd_memsys(int argc, char** argv)
{
    enum { OPT_JSON = 256, OPT_COMPARE, OPT_STRATEGY, OPT_MAX_ACCESSES, OPT_PLOT };
    static const struct option long_options[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"compare", no_argument, NULL, OPT_COMPARE},
        {"strategy", required_argument, NULL, OPT_STRATEGY},
        {"max-accesses", required_argument, NULL, OPT_MAX_ACCESSES},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, compare = 0;
    const char* plot_path = NULL;
    uint64_t max_work = GC_MEMSYS_DEFAULT_MAX_WORK;
    gc_memsys_strategy strategy = GC_MEMSYS_AS_WRITTEN;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = 1; break;
        case OPT_COMPARE: compare = 1; break;
        case OPT_PLOT: plot_path = optarg; break;
        case OPT_STRATEGY:
            if (!strcmp(optarg, "as-written"))
                strategy = GC_MEMSYS_AS_WRITTEN;
            else if (!strcmp(optarg, "l1-bypass"))
                strategy = GC_MEMSYS_L1_BYPASS;
            else if (!strcmp(optarg, "l2-bypass"))
                strategy = GC_MEMSYS_L2_BYPASS;
            else if (!strcmp(optarg, "sc-as-uc"))
                strategy = GC_MEMSYS_SC_AS_UC;
            else
                return usage_error("unknown strategy '%s' (as-written, l1-bypass, l2-bypass, sc-as-uc)", optarg);
            break;
        case OPT_MAX_ACCESSES:
            if (parse_u64_arg(optarg, GC_PARSE_SUFFIX, 1, UINT64_MAX, &max_work) != 0)
                return usage_error("--max-accesses needs a positive count (K, M, G suffixes), not '%s'", optarg);
            break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind + 1 != argc)
        return usage_error("memsys takes one SCENARIO file (see docs/memsys.md)%s", "");
    const char* path = argv[optind];
    if (plot_path && !compare)
        return usage_error("--plot draws --compare's ranking: give --compare too%s", "");
    if (plot_path) {
        /* before the replays: the picture's folder, and not over the scenario */
        const char* inputs[1] = {strcmp(path, "-") ? path : NULL};
        int output_status = check_output(plot_path, inputs, 1);
        if (output_status)
            return output_status;
    }
    gc_error err = {0};
    gc_memsys* m;
    if (gc_memsys_load(path, &m, &err))
        return fail_with(&err);
    /* Bound the replay before it starts: a scenario of a few lines can ask for hours. */
    uint64_t work = gc_memsys_work(m), runs = compare ? GC_MEMSYS_STRATEGY_COUNT : 1;
    uint64_t total = work > UINT64_MAX / runs ? UINT64_MAX : work * runs;
    if (total > max_work) {
        fprintf(stderr,
                "gpucache: %s: the scenario asks for %llu simulated line accesses%s, more than the limit of %llu; "
                "raise it with --max-accesses N\n",
                path, (unsigned long long)total, compare ? " (four strategies)" : "", (unsigned long long)max_work);
        gc_memsys_free(m);
        return EXIT_DATA;
    }
    progress_line prog;
    progress_init(&prog, "memsys");
    static const char* const strategy_ids[GC_MEMSYS_STRATEGY_COUNT] = {"as-written", "l1-bypass", "l2-bypass",
                                                                       "sc-as-uc"};
    int status = 0;
    if (!compare) {
        gc_memsys_report r;
        gc_status rs = gc_memsys_run_limited(m, strategy, UINT64_MAX, progress_report, &prog, &r, &err);
        progress_end(&prog);
        if (rs) {
            gc_memsys_free(m);
            return fail_with(&err);
        }
        if (json) {
            strbuf j = {0};
            sb_json_open(&j);
            sb_printf(&j, "\"scenario\": ");
            sb_json_string(&j, path);
            sb_printf(&j, ", \"strategy\": \"%s\", \"dispatches\": [", strategy_ids[strategy]);
            for (size_t i = 0; i < r.dispatch_count; ++i) {
                sb_printf(&j, "%s{\"name\": ", i ? ", " : "");
                sb_json_string(&j, r.dispatch_names[i]);
                sb_printf(&j, ", \"stats\": ");
                json_stats(&j, &r.dispatches[i]);
                sb_printf(&j, "}");
            }
            sb_printf(&j, "], \"between\": ");
            json_stats(&j, &r.between);
            sb_printf(&j, ", \"total\": ");
            json_stats(&j, &r.total);
            sb_printf(&j, ", \"hazards\": ");
            json_hazards(&j, &r);
            sb_printf(&j, "}\n");
            status = print_json_document(&j);
        } else {
            printf("%s, strategy: %s\n", path, gc_memsys_strategy_name(strategy));
            print_report(path, &r);
        }
        gc_memsys_report_free(&r);
        gc_memsys_free(m);
        return status;
    }
    /* --compare: every strategy, ranked by total cycles, then Onion bytes. */
    gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT];
    int order[GC_MEMSYS_STRATEGY_COUNT];
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
        order[i] = i;
        /* one progress line over the four replays */
        compare_progress cp = {&prog, (uint64_t)i * work, total};
        gc_status rs = gc_memsys_run_limited(m, (gc_memsys_strategy)i, UINT64_MAX, compare_report, &cp, &reports[i],
                                             &err);
        if (i + 1 == GC_MEMSYS_STRATEGY_COUNT || rs)
            progress_end(&prog);
        if (rs) {
            for (int k = 0; k < i; ++k)
                gc_memsys_report_free(&reports[k]);
            gc_memsys_free(m);
            return fail_with(&err);
        }
    }
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
    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"scenario\": ");
        sb_json_string(&j, path);
        sb_printf(&j, ", \"ranking\": [");
        for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
            const gc_memsys_report* r = &reports[order[i]];
            sb_printf(&j, "%s{\"strategy\": \"%s\", \"cycles\": " JSON_FLOAT ", \"bus_cycles\": " JSON_FLOAT
                          ", \"invalidate_cycles\": " JSON_FLOAT ", \"writeback_cycles\": " JSON_FLOAT ", \"onion_bytes\": %llu, \"onion_plus_bytes\": %llu, "
                          "\"garlic_bytes\": %llu, \"hazards\": ",
                      i ? ", " : "", strategy_ids[order[i]], JF(r->total.cycles), JF(r->total.bus_cycles),
                      JF(r->total.invalidate_cycles), JF(r->total.writeback_cycles),
                      (unsigned long long)r->total.onion_bytes, (unsigned long long)r->total.onion_plus_bytes,
                      (unsigned long long)r->total.garlic_bytes);
            json_hazards(&j, r);
            sb_printf(&j, "}");
        }
        sb_printf(&j, "]}\n");
        status = print_json_document(&j);
    } else {
        printf("%s: flush strategies ranked by total cycles, then Onion traffic\n", path);
        printf("%-4s %-46s %12s %12s %12s %12s %8s\n", "rank", "strategy", "cycles", "Onion B", "Onion+ B", "Garlic B",
               "hazards");
        for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
            const gc_memsys_report* r = &reports[order[i]];
            printf("%-4d %-46s %12.0f %12llu %12llu %12llu %8zu\n", i + 1,
                   gc_memsys_strategy_name((gc_memsys_strategy)order[i]), r->total.cycles,
                   (unsigned long long)r->total.onion_bytes, (unsigned long long)r->total.onion_plus_bytes,
                   (unsigned long long)r->total.garlic_bytes, r->hazard_count);
        }
        for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i) {
            const gc_memsys_report* r = &reports[order[i]];
            for (size_t h = 0; h < r->hazard_count; ++h)
                printf("hazard under %s: %s:%llu: %s: %s\n", strategy_ids[order[i]], path,
                       (unsigned long long)r->hazards[h].line, hazard_names[r->hazards[h].kind],
                       r->hazards[h].message);
        }
    }
    if (plot_path && !status)
        status = write_memsys_plot(plot_path, path, reports, order, strategy_ids, GC_MEMSYS_STRATEGY_COUNT);
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i)
        gc_memsys_report_free(&reports[i]);
    gc_memsys_free(m);
    return status;
}
