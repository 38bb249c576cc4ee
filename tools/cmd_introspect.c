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
#include "help.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_introspect(int argc, char** argv)
{
    enum { OPT_RESTART = 256, OPT_JSON, OPT_DEVICE, OPT_OUTPUTS, OPT_MAX_LOOKUPS };
    static const struct option long_options[] = {
        {"topology", required_argument, NULL, 't'},  {"restart", optional_argument, NULL, OPT_RESTART},
        {"json", no_argument, NULL, OPT_JSON},       {"device", required_argument, NULL, OPT_DEVICE},
        {"model", required_argument, NULL, 'm'},     {"outputs", required_argument, NULL, OPT_OUTPUTS},
        {"max-lookups", required_argument, NULL, OPT_MAX_LOOKUPS},
        {"help", no_argument, NULL, 'h'},            {NULL, 0, NULL, 0},
    };
    const char* topology_name = NULL;
    const char* restart_text = NULL;
    const char* model_spec = NULL;
    int restart = 0, json = 0;
    long device = 0, outputs = 1;
    /* A draw per candidate costs candidates x indices lookups: 2^30 is about two minutes
     * on an emulator (a 100 x 100 grid is 0.6 G). */
    uint64_t max_work = (uint64_t)1 << 30;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":t:m:h", long_options, NULL)) != -1) {
        switch (c) {
        case 't': topology_name = optarg; break;
        case OPT_RESTART:
            restart = 1;
            restart_text = optarg;
            break;
        case OPT_JSON: json = 1; break;
        case OPT_DEVICE:
            if (parse_count(optarg, 0, 1000, &device) != 0)
                return usage_error("--device needs a device number (see probe --list), not '%s'", optarg);
            break;
        case OPT_OUTPUTS:
            if (parse_count(optarg, 1, GC_PROBE_MAX_OUTPUTS, &outputs) != 0)
                return usage_error("--outputs needs a count in [1, 32], not '%s'", optarg);
            break;
        case 'm': model_spec = optarg; break;
        case OPT_MAX_LOOKUPS:
            if (parse_u64_arg(optarg, GC_PARSE_SUFFIX, 1, UINT64_MAX, &max_work) != 0)
                return usage_error("--max-lookups needs a positive count (K, M, G suffixes), not '%s'", optarg);
            break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    const char* path;
    int input_status = one_input(argc, argv, "introspect", &path);
    if (input_status)
        return input_status;
    gc_error err = {0};
    gc_model model; /* -m @FILE: the fit result's best model, handed on as its spec */
    if (model_spec) {
        if (model_arg(model_spec, &model, &err))
            return fail_with(&err);
        model_spec = model.name;
    }
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    gc_load_options lo = {0};
    int status = load_draw(path, &lo, topology_name, restart, restart_text, &in, &draw, &primitives);
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
