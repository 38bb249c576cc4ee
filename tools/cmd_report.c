// SPDX-License-Identifier: MIT
/* gpucache report: one self-contained HTML page about one mesh (docs/report.md): its
 * summary, every preset's invocations, ACMR, ATVR and batches (the numbers of
 * `analyze --json`), the heat maps before and after `optimize -a auto` for one model, the
 * sweep of the layouts over a range of cache sizes, and the commands that redo each part.
 *
 * The library writes the page (gc_report_html, src/pictures/report.c); this command reads
 * the input as every command does, gives the page its sweep figure (the library's
 * gc_report_sweep_figure: the sweep drawn by gnuplot, as sweep --plot draws it) and writes the page whole or not at
 * all. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "pictures.h"
#include "sweep.h"
#include "gpucache/gpucache_pictures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sweep figure's warnings: shown even with -q. */
static void print_warning(void* user, const char* line)
{
    (void)user;
    char printable[1024];
    copy_printable(printable, sizeof printable, line);
    fprintf(stderr, "gpucache: %s\n", printable);
}

static void hold_signals(int on)
{
    if (on)
        signals_hold();
    else
        signals_release();
}

static int one_model(const char* value, void* spec)
{
    if (*(const char**)spec)
        return usage_error("report takes one -m (the heat maps' model and optimize's target), got also '%s'", value);
    *(const char**)spec = value;
    return 0;
}

int cmd_report(int argc, char** argv)
{
    const char *model_spec = NULL, *out_path = NULL, *cache_text = NULL;
    gc_heatmap_view view = GC_VIEW_FRONT;
    long threads = gc_default_threads();
    gc_load_options lo = {0};
    const cli_option options[] = {
        OPT_TEXT("--output", &out_path),
        OPT_CALL("--model", &model_spec, one_model, NULL),
        OPT_TEXT("--cache", &cache_text),
        OPT_CALL("--view", &view, heatmap_view_parse, "--view needs front, side or top, not '%s'"),
        OPT_FLAG("--positions", &lo.positions_only),
        OPT_COUNT("--threads", &threads, 1, GC_MAX_THREADS, "--threads needs a count in [1, 64], not '%s'"),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    const char* path;
    int status = one_input(argc, argv, "report", &path);
    if (status)
        return status;
    if (!out_path)
        return usage_error("report needs -o OUT.html%s", "");
    if (!model_spec)
        model_spec = GC_REPORT_DEFAULT_MODEL;
    if (is_stdio_path(gc_model_arg_file(model_spec)) && gc_stdin_format(path))
        return usage_error("'-' (standard input) can be given to only one of INPUT and -m @FILE%s", "");
    uint64_t cache_lo = 0, cache_hi = 0;
    /* two sizes at least: a curve of one point is no plot (gnuplot refuses an empty x range) */
    if (cache_text && (gc_arg_range(cache_text, 3, 256, &cache_lo, &cache_hi) != 0 || cache_lo == cache_hi))
        return usage_error("--cache %s: expected A..B with 3 <= A < B <= 256", cache_text);
    {
        const char* inputs[2] = {strcmp(path, "-") ? path : NULL, gc_model_arg_file(model_spec)};
        if ((status = check_output(out_path, inputs, 2)) != 0)
            return status;
    }
    gc_error err = {0};
    gc_model target;
    if (gc_model_arg(model_spec, &target, &err))
        return fail_with(&err);

    /* a glTF is read by the library (each mesh primitive a draw of its own); another input
     * as every command reads it (standard input, grid:WxH) */
    const int gltf = strcmp(gc_mesh_format(path), "gltf") == 0;
    input in;
    memset(&in, 0, sizeof in);
    gc_draw draw = {0};
    uint64_t primitives = 0;
    if (!gltf && (status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives)) != 0)
        return status;
    sweep_clock clock; /* the sweep's progress line */
    sweep_clock_start(&clock);
    gc_report_sweep sweep = {model_spec, &target, (unsigned)threads, sweep_progress, &clock, print_warning, NULL,
                             hold_signals};
    progress_line prog;
    progress_init(&prog, "report: optimize");
    gc_report_options ro = {0};
    ro.load = &lo;
    ro.model_spec = model_spec;
    ro.model = &target;
    ro.view = view;
    ro.cache_lo = (uint32_t)cache_lo, ro.cache_hi = (uint32_t)cache_hi;
    ro.threads = (unsigned)threads;
    if (!gltf) {
        ro.draw = &draw;
        ro.runs = in.mesh.runs, ro.run_count = in.mesh.run_count;
        ro.name = in.name;
    }
    ro.sweep = gc_report_sweep_figure;
    ro.sweep_user = &sweep;
    ro.progress = progress_report;
    ro.progress_user = &prog;
    ro.note = print_note;
    /* the page, in memory until it is whole */
    gc_report_info info;
    char* page = NULL;
    size_t page_size = 0;
    double t0 = gc_now_seconds();
    gc_status s = gc_report_html(path, &ro, &info, &page, &page_size, &err);
    progress_end(&prog);
    gc_mesh_free(&in.mesh);
    verbose_note("report: loaded, analyzed and optimized in %.3f s (optimize %.3f s)", info.prepare_seconds,
                 info.optimize_seconds);
    if (s)
        return fail_with(&err);
    atomic_file af;
    if (atomic_open(&af, out_path) != 0) {
        free(page);
        return fail_with(&af.err);
    }
    fwrite(page, 1, page_size, af.f);
    free(page);
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s\n", af.err.message[0] ? af.err.message : out_path);
        return EXIT_DATA;
    }
    verbose_note("report: %zu bytes in %.3f s", page_size, gc_now_seconds() - t0);
    return 0;
}
