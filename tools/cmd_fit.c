// SPDX-License-Identifier: MIT
/* gpucache fit MEASUREMENTS.json: which model predicts a measured device. Reads the
 * file probe --suite writes, searches every family (or the -m models given) and prints
 * the best candidates with the cases each gets wrong. */
#define _POSIX_C_SOURCE 200809L
#include "pictures.h"
#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "gpucache/gpucache_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FIT_MODELS 256

typedef struct progress_state {
    double start;
    double last;
} progress_state;

static void fit_progress(void* user, uint64_t done, uint64_t total)
{
    progress_state* p = user;
    double now = gc_now_seconds();
    if (done != total && now - p->last < 0.25)
        return;
    p->last = now;
    double elapsed = now - p->start;
    double left = done ? elapsed * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "\rgpucache: fit: %3.0f%% of %llu candidates, %.0f s left   ", 100.0 * (double)done / (double)total,
            (unsigned long long)total, left);
    if (done == total)
        fprintf(stderr, "\n");
}

int cmd_fit(int argc, char** argv)
{
    int json = 0;
    const char* plot_path = NULL;
    long top = 5, threads = 0;
    const char* model_specs[MAX_FIT_MODELS];
    size_t model_count = 0;
    const cli_option options[] = {
        OPT_COUNT("--top", &top, 1, 1000, "--top needs a count in [1, 1000], not '%s'"),
        OPT_COUNT("--threads", &threads, 1, 256, "--threads needs a count in [1, 256], not '%s'"),
        OPT_LIST("--model", model_specs, &model_count, MAX_FIT_MODELS, "at most %s models with -m"),
        OPT_FLAG("--json", &json),
        OPT_TEXT("--plot", &plot_path),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (optind >= argc)
        return usage_error("fit needs a MEASUREMENTS.json (write one with 'gpucache probe --suite -o FILE')%s", "");
    if (optind + 1 < argc)
        return usage_error("fit takes one file, got also '%s'", argv[optind + 1]);
    const char* path = argv[optind];
    if (plot_path) {
        /* before the search: the picture's folder, and not over the measurements or a
         * fit result given with -m @FILE */
        const char* inputs[1 + MAX_FIT_MODELS] = {strcmp(path, "-") ? path : NULL};
        size_t input_count = 1;
        for (size_t i = 0; i < model_count; ++i)
            if (gc_model_arg_file(model_specs[i]))
                inputs[input_count++] = gc_model_arg_file(model_specs[i]);
        int output_status = check_output(plot_path, inputs, input_count);
        if (output_status)
            return output_status;
    }
    gc_error err = {0};
    gc_model models[MAX_FIT_MODELS];
    for (size_t i = 0; i < model_count; ++i)
        if (gc_model_arg(model_specs[i], &models[i], &err))
            return fail_with(&err);
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (cpus > 256 ? 256 : cpus) : 1;
    }

    gc_measurements in;
    gc_error load_err = {0};
    int status = gc_measurements_load(path, &in, &load_err) ? fail_with(&load_err) : 0;
    if (status) {
        gc_measurements_free(&in);
        return status;
    }
    gc_fit_candidate* best = calloc((size_t)top, sizeof *best);
    if (!best) {
        gc_measurements_free(&in);
        return EXIT_DATA;
    }
    progress_state ps = {gc_now_seconds(), 0.0};
    gc_fit_options fo = {0};
    fo.threads = (unsigned)threads;
    if (model_count) {
        fo.candidates = models;
        fo.candidate_count = model_count;
    }
    if (progress_wanted()) {
        fo.progress = fit_progress;
        fo.progress_user = &ps;
    }
    size_t searched = model_count ? model_count : gc_fit_search_space(NULL, 0);
    size_t found = 0;
    verbose_note("fit: %zu cases, %zu candidates, %ld threads", in.count, searched, threads);
    if (gc_fit(in.cases, in.count, &fo, (size_t)top, best, &found, &err)) {
        status = fail_with(&err);
        goto out;
    }
    double seconds = gc_now_seconds() - ps.start;

    if (gc_fit_report_print(stdout, path, &in, best, found, searched, (unsigned)threads, seconds, json, &err))
        status = fail_with(&err);
    /* the picture of the ranking just printed (its first FIT_PLOT_MAX_MODELS) */
    picture_file pf;
    if (plot_path && !status && (status = picture_open(&pf, plot_path)) == 0)
        status = picture_end(&pf, gc_fit_chart_write(pf.f, path, &in, best, found, &err), &err);
out:
    free(best);
    gc_measurements_free(&in);
    return status;
}
