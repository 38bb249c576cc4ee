// SPDX-License-Identifier: MIT
/* gpucache memsys: replay a memory-system scenario (seed 003) and report the caches'
 * work, the bus traffic, the cost of invalidates and writebacks, and the hazards; or, with
 * --compare, replay it under every flush strategy and rank them. */
#define _POSIX_C_SOURCE 200809L
#include "pictures.h"
#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_strategy(const char* value, void* strategy)
{
    gc_error err = {0};
    return gc_memsys_strategy_parse(value, strategy, &err) ? usage_error("%s", err.message) : 0;
}

int cmd_memsys(int argc, char** argv)
{
    int json = 0, compare = 0;
    const char* plot_path = NULL;
    uint64_t max_work = GC_MEMSYS_DEFAULT_MAX_WORK;
    gc_memsys_strategy strategy = GC_MEMSYS_AS_WRITTEN;
    const cli_option options[] = {
        OPT_FLAG("--json", &json),
        OPT_FLAG("--compare", &compare),
        OPT_CALL("--strategy", &strategy, parse_strategy, NULL),
        OPT_U64("--max-accesses", &max_work, 1, UINT64_MAX, GC_PARSE_SUFFIX,
            "--max-accesses needs a positive count (K, M, G suffixes), not '%s'"),
        OPT_TEXT("--plot", &plot_path),
        OPT_END,
    };
    PARSE_OPTIONS(options);
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
    int status = 0;
    if (!compare) {
        gc_memsys_report r;
        gc_status rs = gc_memsys_run_limited(m, strategy, UINT64_MAX, progress_report, &prog, &r, &err);
        progress_end(&prog);
        if (!rs) {
            rs = gc_memsys_report_print(stdout, path, &r, strategy, json, &err);
            gc_memsys_report_free(&r);
        }
        gc_memsys_free(m);
        return rs ? fail_with(&err) : 0;
    }
    /* --compare: every strategy, ranked by total cycles, then Onion bytes. */
    gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT];
    int order[GC_MEMSYS_STRATEGY_COUNT];
    gc_status rs = gc_memsys_compare(m, progress_report, &prog, reports, order, &err);
    progress_end(&prog);
    if (rs) {
        gc_memsys_free(m);
        return fail_with(&err);
    }
    if (gc_memsys_ranking_print(stdout, path, reports, order, json, &err))
        status = fail_with(&err);
    const char* ids[GC_MEMSYS_STRATEGY_COUNT];
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i)
        ids[i] = gc_memsys_strategy_id((gc_memsys_strategy)i);
    picture_file pf;
    if (plot_path && !status && (status = picture_open(&pf, plot_path)) == 0)
        status = picture_end(&pf, gc_memsys_chart_write(pf.f, path, reports, order, ids, GC_MEMSYS_STRATEGY_COUNT, &err),
                             &err);
    for (int i = 0; i < GC_MEMSYS_STRATEGY_COUNT; ++i)
        gc_memsys_report_free(&reports[i]);
    gc_memsys_free(m);
    return status;
}
