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

static int load_mesh(const char* spec, sweep_mesh* m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", spec);
    gc_error err = {0};
    if (strncmp(spec, "grid:", 5) == 0) {
        uint32_t w = 0, h = 0;
        if (parse_grid_size(spec + 5, 4000, (uint64_t)4000 * 4000, &w, &h) != 0)
            return usage_error("--mesh %s: expected grid:WxH with W and H in [1, 4000]", spec);
        m->is_grid = 1;
        m->width = w;
        m->height = h;
        size_t n = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 0);
        m->indices = malloc(n * sizeof *m->indices);
        if (!m->indices) {
            fprintf(stderr, "gpucache: %s: out of memory for the grid's %zu indices\n", spec, n);
            return EXIT_DATA;
        }
        if (gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 0, m->indices, &m->count, &err))
            return fail_with(&err);
        m->vertices = (w + 1) * (h + 1);
        return 0;
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
    /* the triangle list on dense ids: sparse values renumbered in value order (the
     * optimizers need dense ids; models keyed by value see ranks instead of values then) */
    uint32_t* values = NULL;
    gc_status st = gc_mesh_dense_triangles(&d, spec, &m->indices, &m->count, &values, &m->vertices, &err);
    gc_mesh_free(&in.mesh);
    free(values);
    return st ? fail_with(&err) : 0;
}

int cmd_sweep(int argc, char** argv)
{
    static sweep s;
    memset(&s, 0, sizeof s);
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
        OPT_LIST("--model", model_specs, &s.model_count, MAX_SWEEP_MODELS, "at most %s models"),
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
    if (s.model_count == 0)
        model_specs[s.model_count++] = "intel";
    if (plot_path && !has_ext(plot_path, "png") && !has_ext(plot_path, "svg"))
        return usage_error("--plot %s: the plot is a .png or an .svg", plot_path);
    /* Before any work: every output's folder, and none of them over a mesh file or a fit
     * result given with -m @FILE. */
    {
        char gp[4200];
        const char* inputs[MAX_MESHES + MAX_SWEEP_MODELS];
        size_t input_count = 0;
        for (size_t i = 0; i < mesh_spec_count; ++i)
            inputs[input_count++] = mesh_specs[i];
        for (size_t k = 0; k < s.model_count; ++k)
            if (model_arg_file(model_specs[k]))
                inputs[input_count++] = model_arg_file(model_specs[k]);
        int checked = csv_path ? check_output(csv_path, inputs, input_count) : 0;
        if (!checked && plot_path)
            checked = check_output(plot_path, inputs, input_count);
        if (!checked && plot_path) {
            script_path(plot_path, gp, sizeof gp);
            checked = check_output(gp, inputs, input_count);
        }
        if (checked)
            return checked;
    }
    /* --cache A..B */
    uint64_t lo = 0, hi = 0;
    if (parse_range_arg(cache_text, 3, 4096, &lo, &hi) != 0)
        return usage_error("--cache %s: expected A..B (or one size) with 3 <= A <= B <= 4096", cache_text);
    s.cache_lo = (unsigned)lo;
    s.cache_hi = (unsigned)hi;
    /* -a layouts */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", layouts_text);
    char* save = NULL;
    for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int l = 0; l < GC_LAYOUT_COUNT; ++l)
            if (!strcmp(tok, gc_sweep_layout_name((layout)l)))
                found = l;
        if (found < 0)
            return usage_error("unknown layout '%s' (optimal, striped, tipsify, forsyth, auto, original)", tok);
        for (size_t i = 0; i < s.layout_count; ++i)
            if (s.layouts[i] == (layout)found)
                found = -2;
        if (found >= 0)
            s.layouts[s.layout_count++] = (layout)found;
    }
    if (s.layout_count == 0)
        return usage_error("-a needs at least one layout%s", "");
    gc_error err = {0};
    for (size_t k = 0; k < s.model_count; ++k) {
        sweep_model* m = &s.models[k];
        const char* spec = model_specs[k];
        if (!strcmp(spec, "device") || !strncmp(spec, "device:", 7)) {
            long idx = 0;
            if (spec[6] == ':' && parse_count(spec + 7, 0, 1000, &idx) != 0)
                return usage_error("-m %s: expected device or device:N", spec);
            m->device = 1;
            m->device_index = (uint32_t)idx;
            if (!s.have_device) {
                if (gc_backend_open(&s.device, (uint32_t)idx, NULL, &err))
                    return fail_with(&err);
                s.have_device = 1;
            }
            char label[sizeof m->label];
            snprintf(label, sizeof label, "%s (measured)", s.device.device);
            memcpy(m->label, label, sizeof label);
        } else {
            if (model_arg(spec, &m->model, &err))
                return fail_with(&err);
            /* built aside: label and model name live in the same struct */
            char label[sizeof m->label];
            snprintf(label, sizeof label, "%s", m->model.name);
            for (size_t i = 0; i < gc_preset_count(); ++i) {
                const char *name, *pspec, *source;
                gc_preset_get(i, &name, &pspec, &source);
                if (!strcmp(name, m->model.name))
                    snprintf(label, sizeof label, "%s (%s)", name, pspec);
            }
            memcpy(m->label, label, sizeof label);
        }
    }
    int status = 0;
    for (size_t i = 0; i < mesh_spec_count; ++i) {
        if ((status = load_mesh(mesh_specs[i], &s.meshes[i])) != 0)
            goto out;
        s.mesh_count = i + 1;
    }
    s.job_count = s.mesh_count * s.layout_count * cache_count(&s);
    s.rows = calloc(s.job_count * s.model_count, sizeof *s.rows);
    if (!s.rows) {
        fprintf(stderr, "gpucache: sweep: out of memory for %zu result rows\n", s.job_count * s.model_count);
        status = EXIT_DATA;
        goto out;
    }
    verbose_note("sweep: %zu jobs (meshes x layouts x cache sizes), %zu models each", s.job_count, s.model_count);
    if (sweep_run(&s, threads)) {
        status = fail_with(&s.err);
        goto out;
    }

    /* the library's view of the sweep, for its CSV and report */
    gc_sweep_mesh view_meshes[MAX_MESHES];
    gc_model view_models[MAX_SWEEP_MODELS];
    int on_device[MAX_SWEEP_MODELS];
    const char* labels[MAX_SWEEP_MODELS];
    gc_sweep g;
    sweep_view(&s, &g, view_meshes, view_models, on_device);
    for (size_t k = 0; k < s.model_count; ++k)
        labels[k] = s.models[k].label;
    if (csv_path) {
        atomic_file af;
        if (atomic_open(&af, csv_path) != 0) {
            fprintf(stderr, "gpucache: %s: cannot create: %s\n", csv_path, strerror(errno));
            status = EXIT_DATA;
            goto out;
        }
        gc_sweep_csv(af.f, &g, s.rows);
        if (atomic_commit(&af) != 0) {
            fprintf(stderr, "gpucache: %s: write failed: %s\n", csv_path, strerror(errno));
            status = EXIT_DATA;
            goto out;
        }
    }
    gc_error perr = {0};
    if (gc_sweep_print(stdout, &g, labels, s.rows, json, &perr))
        status = fail_with(&perr);
    if (plot_path && !status)
        status = draw_plot(&s, plot_path);
out:
    for (size_t i = 0; i < MAX_MESHES; ++i)
        free(s.meshes[i].indices);
    free(s.rows);
    if (s.have_device)
        gc_backend_close(&s.device);
    return status;
}
