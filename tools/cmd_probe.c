// SPDX-License-Identifier: MIT
/* gpucache probe: measure one draw on a Vulkan device (or an emulator), list the
 * devices, or run the diagnostic suite (gc_suite_run, src/probe/suite.c). */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_probe.h"
#include "cli.h"
#include "commands.h"
#include "cli_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void suite_progress(void* user, size_t measured)
{
    (void)user;
    fprintf(stderr, "\rgpucache: suite: %zu cases measured", measured);
}

/* probe --suite: measures the standard cases (gc_suite_run) into out_path. */
static int run_suite(uint32_t device, const char* model_spec, const char* out_path)
{
    gc_backend b;
    gc_error err = {0};
    if (gc_backend_open(&b, device, model_spec, &err))
        return fail_with(&err);
    atomic_file af;
    if (atomic_open(&af, out_path) != 0) {
        gc_backend_close(&b);
        fprintf(stderr, "gpucache: %s: cannot create\n", out_path);
        return EXIT_DATA;
    }
    int progress = progress_wanted();
    gc_suite_summary sum = {0};
    char* json = NULL;
    size_t json_size = 0;
    gc_status st = gc_suite_run(&b, progress ? suite_progress : NULL, NULL, &json, &json_size, &sum, &err);
    if (st == GC_OK && fwrite(json, 1, json_size, af.f) != json_size)
        st = GC_ERR_IO;
    free(json);
    if (progress)
        fprintf(stderr, "\n");
    int status = 0;
    if (st) {
        atomic_abort(&af);
        if (st == GC_ERR_IO)
            fprintf(stderr, "gpucache: %s: write failed\n", out_path);
        status = st == GC_ERR_IO ? EXIT_DATA : fail_with(&err);
    } else if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed\n", out_path);
        status = EXIT_DATA;
    } else {
        note("%zu cases from %s written to %s (longest kept cycle %u, cut after %u triangles)",
                sum.measured, b.device, out_path, sum.cycle_kept, sum.cut_triangles);
        if (sum.disagree) {
            fprintf(stderr,
                    "gpucache: WARNING: in %zu of %zu cases the pipeline statistics differ from the sum of the "
                    "per-vertex counters (see \"statistics_agree\" in %s): this device's counts cannot be trusted\n",
                    sum.disagree, sum.measured, out_path);
            status = EXIT_DATA;
        }
    }
    gc_backend_close(&b);
    return status;
}

static int list_devices(int json)
{
    gc_probe_device devices[16];
    uint32_t n = 0;
    gc_error err = {0};
    if (gc_probe_list(devices, 16, &n, &err))
        return fail_with(&err);
    return gc_probe_devices_print(stdout, devices, n < 16 ? n : 16, json, &err) ? fail_with(&err) : 0;
}

int cmd_probe(int argc, char** argv)
{
    const char *topology_name = NULL, *restart = NULL, *restart_text = NULL, *per_vertex_path = NULL;
    const char *model_spec = NULL, *out_path = NULL;
    int json = 0, list = 0, suite = 0, overdraw = 0;
    long outputs = 1, device = 0;
    gc_load_options lo = {0};
    const cli_option options[] = {
        OPT_TEXT("--topology", &topology_name),
        OPT_TEXT("--restart", &restart_text, .given = &restart),
        OPT_COUNT("--outputs", &outputs, 1, GC_PROBE_MAX_OUTPUTS, "--outputs needs a count in [1, 32], not '%s'"),
        OPT_COUNT("--device", &device, 0, 1000, "--device needs a device number (see probe --list), not '%s'"),
        OPT_TEXT("--model", &model_spec),
        OPT_FLAG("--json", &json),
        OPT_TEXT("--per-vertex", &per_vertex_path),
        OPT_FLAG("--list", &list),
        OPT_FLAG("--suite", &suite),
        OPT_FLAG("--overdraw", &overdraw),
        OPT_TEXT("--output", &out_path),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (list)
        return list_devices(json);
    /* --model @FILE: the fit result's best model, handed on as its spec once the outputs
     * are checked (against the file too) */
    const char* model_file = gc_model_arg_file(model_spec);
    gc_model model;
    gc_error merr = {0};
    if (suite) {
        if (optind < argc)
            return usage_error("probe --suite takes no INPUT, got '%s'", argv[optind]);
        if (!out_path)
            return usage_error("probe --suite needs -o FILE.json%s", "");
        int checked = check_output(out_path, &model_file, model_file ? 1 : 0); /* before any work */
        if (checked)
            return checked;
        if (model_spec && gc_model_arg(model_spec, &model, &merr))
            return fail_with(&merr);
        return run_suite((uint32_t)device, model_spec ? model.name : NULL, out_path);
    }
    const char* path;
    int input_status = one_input(argc, argv, "probe", &path);
    if (input_status)
        return input_status;
    if (overdraw) {
        if (model_spec || per_vertex_path || suite)
            return usage_error("probe --overdraw renders on a Vulkan device: no --model, --per-vertex or --suite%s",
                               "");
        gc_error err = {0};
        return gc_probe_overdraw_print(stdout, path, &lo, (uint32_t)device, json, &err) ? fail_with(&err) : 0;
    }
    if (per_vertex_path) {
        const char* inputs[] = {strcmp(path, "-") ? path : NULL, model_file};
        if ((input_status = check_output(per_vertex_path, inputs, 2)) != 0) /* before any work */
            return input_status;
    }
    if (model_spec) {
        if (gc_model_arg(model_spec, &model, &merr))
            return fail_with(&merr);
        model_spec = model.name;
    }

    gc_error err = {0};
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    int status = load_draw(path, &lo, topology_name, restart != NULL, restart_text, &in, &draw, &primitives);
    if (status)
        return status;
    gc_backend b;
    gc_measurement m = {0};
    if (gc_backend_open(&b, (uint32_t)device, model_spec, &err) ||
        gc_backend_measure(&b, &draw, (uint32_t)outputs, &m, &err)) {
        status = fail_with(&err);
        goto out;
    }
    const uint64_t expected = primitives; /* what the topology gives (gc_draw_validate counted them) */
    int agree = m.invocations == m.per_vertex_sum;
    atomic_file csv;
    if (per_vertex_path && (status = output_open(&csv, per_vertex_path)) != 0)
        goto out;
    if (per_vertex_path)
        gc_measurement_csv(csv.f, &m);
    if (per_vertex_path && (status = output_commit(&csv, per_vertex_path)) != 0)
        goto out;
    if (gc_measurement_print(stdout, &b, in.name, &draw, expected, (uint32_t)outputs, &m, json, &err))
        status = fail_with(&err);
    if (!agree) {
        fprintf(stderr,
                "gpucache: WARNING: the pipeline statistics count %llu vertex shader invocations but the per-vertex "
                "counters add up to %llu; this device's measurements cannot be trusted\n",
                (unsigned long long)m.invocations, (unsigned long long)m.per_vertex_sum);
        status = EXIT_DATA;
    }
    if (m.ia_primitives != expected)
        note("note: input assembly counted %llu primitives where the topology gives %llu",
                (unsigned long long)m.ia_primitives, (unsigned long long)expected);
out:
    gc_measurement_free(&m);
    gc_backend_close(&b);
    gc_mesh_free(&in.mesh);
    return status;
}
