// SPDX-License-Identifier: MIT
/* gpucache validate: every preset (or each -m model) against the published measurements
 * of real GPUs (data/published/, read and predicted by the library: gpucache_validate.h).
 * Prints each value predicted against published, with the error; --markdown writes the
 * tables of docs/models/validation.md, --json the same as data, --plot the grid curves
 * with the published points (the sweep's figure, tools/sweep_plot.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "sweep.h"
#include "gpucache/gpucache_validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_VALIDATE_MODELS 64

#ifndef GPUCACHE_PUBLISHED_DIR
#define GPUCACHE_PUBLISHED_DIR "data/published"
#endif
#ifndef GPUCACHE_PUBLISHED_INSTALL_DIR
#define GPUCACHE_PUBLISHED_INSTALL_DIR GPUCACHE_PUBLISHED_DIR
#endif

/* The data folder: the source tree's, else the installed one. */
static const char* default_data(void)
{
    struct stat st;
    return stat(GPUCACHE_PUBLISHED_DIR, &st) == 0 ? GPUCACHE_PUBLISHED_DIR : GPUCACHE_PUBLISHED_INSTALL_DIR;
}

/* The picture: seed 002's grid, its three layouts, the models' curves and the published
 * points the sweep figure draws beside vendor models. */
static int draw_validation_plot(const char* path, const gc_model* models, size_t count)
{
    sweep* s = calloc(1, sizeof *s);
    if (!s)
        return EXIT_DATA;
    sweep_init(s);
    int status = sweep_add_grid(s, "grid:100x100", 100, 100);
    s->layouts[0] = GC_LAYOUT_OPTIMAL;
    s->layouts[1] = GC_LAYOUT_STRIPED;
    s->layouts[2] = GC_LAYOUT_TIPSIFY;
    s->g.layout_count = 3;
    s->g.cache_lo = 3;
    s->g.cache_hi = 64;
    if (count > MAX_SWEEP_MODELS) {
        note("validate: the picture shows the first %d models", MAX_SWEEP_MODELS);
        count = MAX_SWEEP_MODELS;
    }
    for (size_t k = 0; k < count; ++k) {
        s->models[k] = models[k];
        gc_model_label(&models[k], s->label_text[k], sizeof s->label_text[k]);
    }
    s->g.model_count = count;
    if (!status && !(status = sweep_run(s, 0)))
        status = draw_plot(s, path);
    sweep_free(s);
    free(s);
    return status;
}

static int parse_vendor(const char* value, void* vendor)
{
    if (strcmp(value, "all") && strcmp(value, "amd") && strcmp(value, "nvidia") && strcmp(value, "intel"))
        return -1;
    *(const char**)vendor = value;
    return 0;
}

int cmd_validate(int argc, char** argv)
{
    int json = 0, markdown = 0;
    const char *data = NULL, *vendor_arg = NULL, *plot_path = NULL;
    long tolerance_pct = 2;
    const char* specs[MAX_VALIDATE_MODELS];
    size_t spec_count = 0;
    const cli_option options[] = {
        OPT_LIST("--model", specs, &spec_count, MAX_VALIDATE_MODELS, "at most %s models with -m"),
        OPT_TEXT("--data", &data),
        OPT_CALL("--vendor", &vendor_arg, parse_vendor, "--vendor needs amd, nvidia, intel or all, not '%s'"),
        OPT_COUNT("--tolerance", &tolerance_pct, 0, 100, "--tolerance needs a whole percentage in [0, 100], not '%s'"),
        OPT_FLAG("--json", &json),
        OPT_FLAG("--markdown", &markdown),
        OPT_TEXT("--plot", &plot_path),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (optind < argc)
        return usage_error("validate takes no INPUT (the measurements come from --data), got '%s'", argv[optind]);
    if (json + markdown > 1)
        return usage_error("%s", "--json and --markdown are one output each: give one");
    if (!data)
        data = default_data();
    if (plot_path) {
        const char* inputs[1] = {data};
        int st = check_output(plot_path, inputs, 1);
        if (st)
            return st;
    }
    gc_error err = {0};
    gc_model models[MAX_VALIDATE_MODELS];
    size_t model_count = spec_count ? spec_count : gc_preset_count();
    if (model_count > MAX_VALIDATE_MODELS)
        model_count = MAX_VALIDATE_MODELS;
    for (size_t i = 0; i < model_count; ++i) {
        const char *name = NULL, *spec, *source;
        if (!spec_count)
            gc_preset_get(i, &name, &spec, &source);
        if ((spec_count ? gc_model_arg(specs[i], &models[i], &err) : gc_model_parse(name, &models[i], &err)) != GC_OK)
            return fail_with(&err);
    }
    gc_published_set set;
    if (gc_published_load(data, &set, &err)) {
        gc_published_free(&set);
        return fail_with(&err);
    }
    int format = json ? GC_VALIDATE_JSON : markdown ? GC_VALIDATE_MARKDOWN : GC_VALIDATE_TEXT;
    int status = 0;
    if (gc_validate_print(stdout, &set, data, models, model_count, vendor_arg, tolerance_pct, format, &err))
        status = fail_with(&err);
    gc_published_free(&set);
    if (!status && plot_path)
        status = draw_validation_plot(plot_path, models, model_count);
    return status;
}
