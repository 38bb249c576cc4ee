// SPDX-License-Identifier: MIT
/* gpucache analyze: what each model's vertex cache does with one draw. The library
 * computes and prints (gc_analyze_report_print); this file parses arguments. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "pictures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_MODELS 64

static int is_gltf(const char* path)
{
    return strcmp(gc_mesh_format(path), "gltf") == 0;
}

/* What analyze collects for each model beside the library's report. */
typedef struct model_result {
    gc_model model;
    gc_stats stats;
    double seconds; /* < 0: not measured */
    gc_per_vertex per_vertex;
    gc_strbuf trace;
} model_result;

/* --per-vertex: index, then one column of invocation counts per model. */
static int write_per_vertex_csv(const char* path, const model_result* results, size_t count)
{
    atomic_file af;
    if (output_open(&af, path) != 0)
        return EXIT_DATA;
    fprintf(af.f, "index");
    for (size_t i = 0; i < count; ++i)
        fprintf(af.f, ",%s", results[i].model.name);
    fprintf(af.f, "\n");
    for (size_t v = 0; count && v < results[0].per_vertex.count; ++v) {
        fprintf(af.f, "%u", results[0].per_vertex.values[v]);
        for (size_t i = 0; i < count; ++i)
            fprintf(af.f, ",%u", results[i].per_vertex.counts[v]);
        fprintf(af.f, "\n");
    }
    return output_commit(&af, path);
}

int cmd_analyze(int argc, char** argv)
{
    const char* model_specs[MAX_MODELS];
    size_t model_count = 0;
    const char *topology_name = NULL, *restart = NULL, *restart_text = NULL, *state_path = NULL;
    const char *per_vertex_path = NULL, *heatmap_path = NULL, *view_name = NULL, *trace_plot_path = NULL;
    const char *window_option = NULL, *meshlets_path = NULL, *overdraw_map_path = NULL;
    int json = 0, trace = 0, overdraw = 0;
    long repeat = 0, heatmap_max = 0, plot_count = GC_TIMELINE_DEFAULT_COUNT;
    long threads = gc_default_threads();
    gc_load_options lo = {0};
    gc_heatmap_view view = GC_VIEW_FRONT;
    uint64_t plot_from = 0;
    fetch_arg fetch = {0}; /* --fetch SPEC, and as given */
    const cli_option rows[] = {
        OPT_LIST("--model", model_specs, &model_count, MAX_MODELS, "at most %s models in one run"),
        OPT_TEXT("--topology", &topology_name),
        OPT_TEXT("--restart", &restart_text, .given = &restart),
        OPT_TEXT("--state-changes", &state_path),
        OPT_FLAG("--json", &json),
        OPT_TEXT("--per-vertex", &per_vertex_path),
        OPT_FLAG("--trace", &trace),
        OPT_COUNT("--repeat", &repeat, 1, 1000000, "--repeat needs a count in [1, 1000000], not '%s'"),
        OPT_FLAG("--positions", &lo.positions_only),
        OPT_FLAG("--allow-external-uris", &lo.allow_external_uris),
        OPT_COUNT("--threads", &threads, 1, GC_MAX_THREADS, "--threads needs a count in [1, 64], not '%s'"),
        OPT_TEXT("--heatmap", &heatmap_path),
        OPT_CALL("--view", &view, heatmap_view_parse, "--view needs front, side or top, not '%s'",
                 .given = &view_name),
        OPT_COUNT("--heatmap-max", &heatmap_max, 1, 1000000, "--heatmap-max needs a count in [1, 1000000], not '%s'"),
        OPT_TEXT("--trace-plot", &trace_plot_path),
        OPT_U64("--from", &plot_from, 0, UINT64_MAX - 1, 0,
            "--from needs a primitive number, not '%s'", .given = &window_option),
        OPT_COUNT("--count", &plot_count, 1, GC_TIMELINE_MAX_COUNT,
            "--count needs a count of primitives in [1, 5000], not '%s'", .given = &window_option),
        OPT_FLAG("--overdraw", &overdraw),
        OPT_CALL("--fetch", &fetch, parse_fetch_arg, NULL),
        OPT_TEXT("--meshlets", &meshlets_path),
        OPT_TEXT("--overdraw-map", &overdraw_map_path),
        OPT_END,
    };
    PARSE_OPTIONS(rows);
    if ((overdraw || fetch.text) && (topology_name || restart || state_path))
        return usage_error("--overdraw and --fetch count the file's own triangles: no -t, --restart or "
                           "--state-changes with them%s", "");
    if ((view_name && !heatmap_path && !overdraw_map_path) || (heatmap_max && !heatmap_path))
        return usage_error("%s applies to --heatmap only", view_name ? "--view" : "--heatmap-max");
    if (window_option && !trace_plot_path)
        return usage_error("%s applies to --trace-plot only", window_option);
    const char* path;
    int input_status = one_input(argc, argv, "analyze", &path);
    if (input_status)
        return input_status;
    if (meshlets_path) {
        if (model_count || topology_name || restart || state_path || per_vertex_path || trace || repeat ||
            heatmap_path || trace_plot_path || overdraw_map_path || overdraw || fetch.text)
            return usage_error("--meshlets FILE checks a meshlet data file against INPUT: it takes only --json "
                               "and --positions%s", "");
        gc_error err = {0};
        return gc_meshlet_file_print(stdout, meshlets_path, path, &lo, json, &err) ? fail_with(&err) : 0;
    }
    if (is_gltf(path)) {
        /* each primitive's mode is its topology; no restart in glTF */
        const char* clash = topology_name ? "-t" : restart ? "--restart" : state_path ? "--state-changes"
                            : per_vertex_path ? "--per-vertex" : trace ? "--trace" : repeat ? "--repeat"
                            : trace_plot_path ? "--trace-plot" : NULL;
        if (clash)
            return usage_error("%s does not apply to a glTF input (each primitive is analyzed as its own draw)", clash);
    }
    /* standard input can be read once: by the INPUT, the state changes or one fit result */
    int stdin_readers = (gc_stdin_format(path) != NULL) + (state_path && is_stdio_path(state_path));
    for (size_t i = 0; i < model_count; ++i)
        stdin_readers += is_stdio_path(gc_model_arg_file(model_specs[i]));
    if (stdin_readers > 1)
        return usage_error("'-' (standard input) can be given to only one of INPUT, --state-changes and -m @FILE%s",
                           "");
    /* before any work: each output's folder, and none over the mesh, the state file, a fit
     * result given with -m @FILE or an output before it; two outputs never one file (a name
     * not yet there has no inode to compare) */
    const char* outputs[4] = {per_vertex_path, heatmap_path, trace_plot_path, overdraw_map_path};
    const char* inputs[6 + MAX_MODELS] = {strcmp(path, "-") ? path : NULL, state_path};
    size_t input_count = 2;
    for (size_t i = 0; i < model_count; ++i)
        if (gc_model_arg_file(model_specs[i]))
            inputs[input_count++] = gc_model_arg_file(model_specs[i]);
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; k == 1 && i < 4; ++i)
            for (int q = i + 1; q < 4; ++q)
                if (outputs[i] && outputs[q] && strcmp(outputs[i], "-") != 0 && strcmp(outputs[i], outputs[q]) == 0)
                    return usage_error("'%s' is given for two outputs", outputs[i]);
        if (outputs[k] && (input_status = check_output(outputs[k], inputs, input_count)) != 0)
            return input_status;
        inputs[input_count++] = outputs[k];
    }

    gc_error err = {0};
    model_result* results = calloc(MAX_MODELS, sizeof *results);
    if (!results)
        return EXIT_DATA;
    if (model_count == 0) {
        for (size_t i = 0; i < gc_preset_count(); ++i) {
            const char *name, *spec, *source;
            gc_preset_get(i, &name, &spec, &source);
            model_specs[model_count++] = name;
        }
    }
    int status = 0;
    gc_mesh_vertex_costs costs = {0};
    gc_model models[MAX_MODELS];
    double seconds[MAX_MODELS];
    for (size_t i = 0; i < model_count; ++i) {
        if (gc_model_arg(model_specs[i], &results[i].model, &err)) {
            status = fail_with(&err);
            goto out_results;
        }
        models[i] = results[i].model;
        seconds[i] = results[i].seconds = -1;
    }
    gc_analyze_report report = {path, NULL, is_gltf(path), models, model_count, seconds, NULL,
                                (overdraw || fetch.text) ? &costs : NULL, fetch.text, fetch.text ? &fetch.spec : NULL};
    if (report.costs && gc_mesh_vertex_costs_of(path, &lo, overdraw, report.fetch, models, model_count,
                                                &costs, &err)) {
        status = fail_with(&err);
        goto out_results;
    }
    if (overdraw_map_path && (status = write_overdraw_map(overdraw_map_path, path, &lo, view)) != 0)
        goto out_results;
    gc_mesh_analysis a;
    if (report.per_draw) {
        /* each mesh primitive its own draw (gc_mesh_analyze) */
        if (gc_mesh_analyze(path, &lo, models, model_count, (unsigned)threads, &a, &err)) {
            status = fail_with(&err);
            goto out_results;
        }
        report.analysis = &a;
        if (gc_analyze_report_print(stdout, &report, json, &err))
            status = fail_with(&err);
        gc_mesh_analysis_free(&a);
        if (!status && heatmap_path) {
            /* the triangle primitives as gc_mesh_load gives them: one run each, each run
             * analyzed as its own draw as above */
            gc_mesh mesh;
            if (gc_mesh_load(path, &lo, &mesh, &err)) {
                status = fail_with(&err);
                goto out_results;
            }
            gc_draw whole = {mesh.indices, mesh.index_count, GC_TRIANGLE_LIST, 0, 0};
            size_t one_run = mesh.index_count / 3;
            status = write_heatmap(heatmap_path, path, &lo, &results[0].model, &whole,
                                   mesh.runs ? mesh.runs : &one_run, mesh.runs ? mesh.run_count : 1, NULL, view,
                                   (uint32_t)heatmap_max);
            gc_mesh_free(&mesh);
        }
        goto out_results;
    }
    /* one draw: the library loads it as -t and --restart say, counts every model (one at a
     * time for a trace or per-vertex counts) and keeps the draw for the pictures */
    gc_topology parsed = GC_TRIANGLE_LIST;
    gc_mesh_analyze_options mo = {0};
    mo.load = &lo;
    mo.threads = (unsigned)threads;
    mo.state_changes = state_path;
    mo.draw.restart = restart != NULL;
    if (topology_name) {
        if (gc_topology_parse(topology_name, &parsed, &err)) {
            status = fail_with(&err);
            goto out_results;
        }
        mo.draw.topology = &parsed;
    }
    if (restart && restart_text) {
        uint64_t v;
        if (gc_arg_u64(restart_text, GC_PARSE_HEX, 0, UINT32_MAX, &v) != 0) {
            status = usage_error("--restart value '%s' is not a 32-bit unsigned number", restart_text);
            goto out_results;
        }
        mo.draw.restart_given = 1;
        mo.draw.restart_value = (uint32_t)v;
    }
    gc_trace_sink sinks[MAX_MODELS];
    void* users[MAX_MODELS];
    const char* traces[MAX_MODELS];
    gc_per_vertex per_vertex[MAX_MODELS];
    memset(per_vertex, 0, sizeof per_vertex);
    for (size_t i = 0; i < model_count; ++i) {
        sinks[i] = (gc_trace_sink){&results[i].trace, json, 1};
        users[i] = &sinks[i];
        if (trace)
            gc_sb_printf(&results[i].trace, "%s", "");
    }
    mo.trace = trace ? gc_trace_collect : NULL;
    mo.trace_users = users;
    mo.per_vertex = per_vertex_path ? per_vertex : NULL;
    double started = gc_now_seconds();
    if (gc_mesh_analyze_with(path, &mo, models, model_count, &a, &err)) {
        for (size_t i = 0; i < model_count; ++i)
            gc_per_vertex_free(&per_vertex[i]);
        status = fail_with(&err);
        goto out_results;
    }
    const gc_mesh_draw* d = &a.draws[0];
    verbose_note("%s: %zu indices of %d bits read and counted in %.3f s", path, d->index_count, d->index_bits,
                 gc_now_seconds() - started);
    gc_draw draw = {d->indices, d->index_count, d->topology, d->restart_enabled, d->restart_value};
    gc_analyze_options options = {0};
    options.state_changes = d->state_changes;
    options.state_change_count = d->state_change_count;
    for (size_t i = 0; i < model_count; ++i) {
        results[i].stats = d->stats[i];
        results[i].per_vertex = per_vertex[i];
    }
    for (size_t i = 0; i < model_count; ++i) {
        model_result* r = &results[i];
        if (r->trace.failed) {
            fprintf(stderr, "gpucache: out of memory collecting the trace\n");
            status = EXIT_DATA;
            goto out_changes;
        }
        if (repeat > 0 && gc_analyze_median_seconds(&r->model, &draw, &options, repeat, &seconds[i], &err)) {
            status = fail_with(&err);
            goto out_changes;
        }
        traces[i] = r->trace.data;
    }
    if (per_vertex_path && (status = write_per_vertex_csv(per_vertex_path, results, model_count)) != 0)
        goto out_changes;
    /* the pictures show the first model (the first -m, else the first preset) */
    if (heatmap_path &&
        (status = write_heatmap(heatmap_path, path, &lo, &results[0].model, &draw, NULL, 0, &options, view,
                                (uint32_t)heatmap_max)) != 0)
        goto out_changes;
    if (trace_plot_path && (status = write_trace_plot(trace_plot_path, path, &results[0].model, &draw, &options,
                                                      plot_from, (uint64_t)plot_count)) != 0)
        goto out_changes;
    report.analysis = &a;
    report.traces = trace ? traces : NULL;
    if (gc_analyze_report_print(stdout, &report, json, &err))
        status = fail_with(&err);
out_changes:
    gc_mesh_analysis_free(&a);
out_results:
    for (int i = 0; i < MAX_MODELS; ++i) {
        gc_per_vertex_free(&results[i].per_vertex);
        free(results[i].trace.data);
    }
    free(results);
    gc_mesh_vertex_costs_free(&costs);
    return status;
}
