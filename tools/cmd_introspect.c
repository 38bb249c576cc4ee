// SPDX-License-Identifier: MIT
/* gpucache introspect: seed 000's way of reading a vertex cache from outside. Draw
 * the buffer and count the invocations; then, for every candidate index I, draw it
 * again followed by the degenerate primitive (I, I, I): if the count did not grow,
 * I was still cached after the buffer. Works on a device through the probe (a draw per
 * candidate) or on any model (gc_introspect: the same draws through the model's state
 * machine, in linear time), so the method itself can be checked against seed 000's
 * listings. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_probe.h"
#include "cli.h"
#include "commands.h"
#include "cli_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_introspect(int argc, char** argv)
{
    const char *topology_name = NULL, *restart_text = NULL, *model_spec = NULL, *restart = NULL;
    int json = 0;
    long device = 0, outputs = 1;
    /* A draw per candidate costs candidates x indices lookups: 2^30 is about two minutes
     * on an emulator (a 100 x 100 grid is 0.6 G). */
    uint64_t max_work = (uint64_t)1 << 30;
    const cli_option options[] = {
        OPT_TEXT("--topology", &topology_name),
        OPT_TEXT("--restart", &restart_text, .given = &restart),
        OPT_FLAG("--json", &json),
        OPT_COUNT("--device", &device, 0, 1000, "--device needs a device number (see probe --list), not '%s'"),
        OPT_TEXT("--model", &model_spec),
        OPT_COUNT("--outputs", &outputs, 1, GC_PROBE_MAX_OUTPUTS, "--outputs needs a count in [1, 32], not '%s'"),
        OPT_U64("--max-lookups", &max_work, 1, UINT64_MAX, GC_PARSE_SUFFIX,
            "--max-lookups needs a positive count (K, M, G suffixes), not '%s'"),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    const char* path;
    int input_status = one_input(argc, argv, "introspect", &path);
    if (input_status)
        return input_status;
    gc_error err = {0};
    gc_model model; /* -m @FILE: the fit result's best model, handed on as its spec */
    if (model_spec) {
        if (gc_model_arg(model_spec, &model, &err))
            return fail_with(&err);
        model_spec = model.name;
    }
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    gc_load_options lo = {0};
    int status = load_draw(path, &lo, topology_name, restart != NULL, restart_text, &in, &draw, &primitives);
    if (status)
        return status;
    gc_backend b;
    if (gc_backend_open(&b, (uint32_t)device, model_spec, &err)) {
        gc_mesh_free(&in.mesh);
        return fail_with(&err);
    }
    progress_line prog;
    progress_init(&prog, "introspect");
    gc_introspection r;
    gc_status s = gc_backend_introspect(&b, &draw, (uint32_t)outputs, max_work, path, progress_report, &prog, &r,
                                        &err);
    progress_end(&prog);
    if (!s) {
        s = gc_introspection_print(stdout, in.name, b.device, &draw, primitives, &r, json, &err);
        gc_introspection_free(&r);
    }
    gc_backend_close(&b);
    gc_mesh_free(&in.mesh);
    return s ? fail_with(&err) : 0;
}
