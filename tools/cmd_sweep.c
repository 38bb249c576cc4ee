// SPDX-License-Identifier: MIT
/* gpucache sweep: seed 002's experiment on any model. For each mesh, layout and target
 * cache size, build the index buffer (grids are generated in the layout; meshes are
 * optimized with that cache size) and analyze it under every model; write CSV, JSON and a
 * gnuplot figure (one panel per mesh and model, one curve per layout).
 *
 * Jobs (mesh, layout, cache size) run on every core; each job writes its own rows, which
 * are printed in job order, so the output is the same for any thread count. A model
 * named "device" or "device:N" is measured on a Vulkan device through the probe (one
 * draw at a time). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A mesh file as the sweep's next mesh: its triangle list on dense ids (sparse values
 * renumbered in value order: the optimizers need dense ids; models keyed by value see ranks
 * instead of values then). */
static int add_mesh(sweep* s, const char* spec)
{
    gc_error err = {0};
    uint32_t w = 0, h = 0;
    if (strncmp(spec, "grid:", 5) == 0) {
        if (gc_arg_grid_size(spec + 5, 4000, (uint64_t)4000 * 4000, &w, &h) != 0)
            return usage_error("--mesh %s: expected grid:WxH with W and H in [1, 4000]", spec);
        return sweep_add_grid(s, spec, w, h);
    }
    input in;
    gc_draw d;
    uint64_t prims;
    gc_load_options lo = {0};
    int status = load_draw(spec, &lo, NULL, 0, NULL, &in, &d, &prims);
    if (status)
        return status;
    if (d.topology == GC_POINT_LIST || d.topology == GC_LINE_LIST || d.topology == GC_LINE_STRIP ||
        d.topology == GC_LINE_LOOP) {
        gc_mesh_free(&in.mesh);
        fprintf(stderr, "gpucache: %s: a %s has no triangles to lay out\n", spec, gc_topology_name(d.topology));
        return EXIT_USAGE;
    }
    size_t i = s->g.mesh_count;
    gc_sweep_mesh* m = &s->meshes[i];
    *m = (gc_sweep_mesh){spec, 0, 0, 0, NULL, 0, 0};
    uint32_t* values = NULL;
    gc_status st = gc_mesh_dense_triangles(&d, spec, &s->owned[i], &m->count, &values, &m->vertices, &err);
    m->indices = s->owned[i];
    s->g.mesh_count = i + (st == GC_OK);
    gc_mesh_free(&in.mesh);
    free(values);
    return st ? fail_with(&err) : 0;
}

/* -m SPEC: a model, or "device"/"device:N" measured on a Vulkan device through the probe */
static int add_model(sweep* s, size_t k, const char* spec)
{
    gc_error err = {0};
    if (strcmp(spec, "device") && strncmp(spec, "device:", 7)) {
        if (gc_model_arg(spec, &s->models[k], &err))
            return fail_with(&err);
        gc_model_label(&s->models[k], s->label_text[k], sizeof s->label_text[k]);
        return 0;
    }
    long idx = 0;
    if (spec[6] == ':' && gc_arg_count(spec + 7, 0, 1000, &idx) != 0)
        return usage_error("-m %s: expected device or device:N", spec);
    s->on_device[k] = 1;
    if (!s->g.device) {
        if (gc_backend_open(&s->device, (uint32_t)idx, NULL, &err))
            return fail_with(&err);
        s->g.device = &s->device;
    }
    snprintf(s->label_text[k], sizeof s->label_text[k], "%s (measured)", s->device.device);
    return 0;
}

int cmd_sweep(int argc, char** argv)
{
    static sweep s;
    memset(&s, 0, sizeof s);
    sweep_init(&s);
    const char* mesh_specs[MAX_MESHES];
    size_t mesh_spec_count = 0;
    const char* model_specs[MAX_SWEEP_MODELS];
    const char* layouts_text = "optimal,striped,tipsify,forsyth";
    const char* cache_text = "3..64";
    const char *csv_path = NULL, *plot_path = NULL;
    int json = 0;
    long threads = 0;
    const cli_option options[] = {
        OPT_LIST("--mesh", mesh_specs, &mesh_spec_count, MAX_MESHES, "at most %s meshes"),
        OPT_TEXT("--algorithms", &layouts_text),
        OPT_TEXT("--cache", &cache_text),
        OPT_LIST("--model", model_specs, &s.g.model_count, MAX_SWEEP_MODELS, "at most %s models"),
        OPT_TEXT("--csv", &csv_path),
        OPT_TEXT("--plot", &plot_path),
        OPT_FLAG("--json", &json),
        OPT_COUNT("--threads", &threads, 1, 256, "--threads needs a count in [1, 256], not '%s'"),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (optind < argc)
        return usage_error("sweep takes its meshes with --mesh, not '%s'", argv[optind]);
    if (mesh_spec_count == 0)
        mesh_specs[mesh_spec_count++] = "grid:100x100";
    if (s.g.model_count == 0)
        model_specs[s.g.model_count++] = "intel";
    if (plot_path && !has_ext(plot_path, "png") && !has_ext(plot_path, "svg"))
        return usage_error("--plot %s: the plot is a .png or an .svg", plot_path);
    /* Before any work: every output's folder, and none of them over a mesh file or a fit
     * result given with -m @FILE. */
    char gp[4200] = "";
    const char* inputs[MAX_MESHES + MAX_SWEEP_MODELS];
    size_t input_count = 0;
    for (size_t i = 0; i < mesh_spec_count; ++i)
        inputs[input_count++] = mesh_specs[i];
    for (size_t k = 0; k < s.g.model_count; ++k)
        if (gc_model_arg_file(model_specs[k]))
            inputs[input_count++] = gc_model_arg_file(model_specs[k]);
    if (plot_path)
        script_path(plot_path, gp, sizeof gp);
    const char* outputs[3] = {csv_path, plot_path, plot_path ? gp : NULL};
    for (size_t i = 0; i < 3; ++i) {
        int checked = outputs[i] ? check_output(outputs[i], inputs, input_count) : 0;
        if (checked)
            return checked;
    }
    /* --cache A..B */
    uint64_t lo = 0, hi = 0;
    if (gc_arg_range(cache_text, 3, 4096, &lo, &hi) != 0)
        return usage_error("--cache %s: expected A..B (or one size) with 3 <= A <= B <= 4096", cache_text);
    s.g.cache_lo = (unsigned)lo;
    s.g.cache_hi = (unsigned)hi;
    /* -a layouts */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", layouts_text);
    char* save = NULL;
    for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int l = 0; l < GC_LAYOUT_COUNT; ++l)
            if (!strcmp(tok, gc_sweep_layout_name((gc_sweep_layout)l)))
                found = l;
        if (found < 0)
            return usage_error("unknown layout '%s' (optimal, striped, tipsify, forsyth, auto, original)", tok);
        for (size_t i = 0; i < s.g.layout_count; ++i)
            if (s.layouts[i] == (gc_sweep_layout)found)
                found = -2;
        if (found >= 0)
            s.layouts[s.g.layout_count++] = (gc_sweep_layout)found;
    }
    if (s.g.layout_count == 0)
        return usage_error("-a needs at least one layout%s", "");
    int status = 0;
    for (size_t k = 0; k < s.g.model_count && !status; ++k)
        status = add_model(&s, k, model_specs[k]);
    for (size_t i = 0; i < mesh_spec_count && !status; ++i)
        status = add_mesh(&s, mesh_specs[i]);
    if (!status)
        verbose_note("sweep: %zu jobs (meshes x layouts x cache sizes), %zu models each",
                     s.g.mesh_count * s.g.layout_count * (size_t)(hi - lo + 1), s.g.model_count);
    if (!status)
        status = sweep_run(&s, threads);
    atomic_file af;
    if (!status && csv_path && (status = output_open(&af, csv_path)) == 0) {
        gc_sweep_csv(af.f, &s.g, s.rows);
        status = output_commit(&af, csv_path);
    }
    gc_error perr = {0};
    if (!status && gc_sweep_print(stdout, &s.g, s.labels, s.rows, json, &perr))
        status = fail_with(&perr);
    if (plot_path && !status)
        status = draw_plot(&s, plot_path);
    sweep_free(&s);
    return status;
}
