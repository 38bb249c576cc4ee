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
    /* The probe primitive (I, I, I) only means "one more primitive" in a list. */
    if (draw.topology != GC_POINT_LIST && draw.topology != GC_LINE_LIST && draw.topology != GC_TRIANGLE_LIST) {
        fprintf(stderr, "gpucache: %s: introspect appends a degenerate primitive, which only a point, line or "
                        "triangle list can take (this draw is a %s)\n",
                path, gc_topology_name(draw.topology));
        gc_mesh_free(&in.mesh);
        return EXIT_USAGE;
    }
    unsigned arity = gc_topology_arity(draw.topology);
    uint32_t* candidates = NULL;
    size_t candidate_count = 0;
    uint32_t* probe_buf = malloc((draw.index_count + 4) * sizeof *probe_buf);
    uint32_t* cached = NULL;
    size_t cached_count = 0;
    gc_backend b;
    gc_measurement m = {0};
    if (!probe_buf || gc_draw_distinct_values(&draw, &candidates, &candidate_count, &err) ||
        gc_backend_open(&b, (uint32_t)device, model_spec, &err)) {
        status = err.message[0] ? fail_with(&err) : EXIT_DATA;
        free(probe_buf);
        free(candidates);
        gc_mesh_free(&in.mesh);
        return status;
    }
    cached = malloc((candidate_count ? candidate_count : 1) * sizeof *cached);
    if (!cached || gc_backend_measure(&b, &draw, (uint32_t)outputs, &m, &err)) {
        status = cached ? fail_with(&err) : EXIT_DATA;
        goto out;
    }
    const uint64_t baseline = m.invocations;
    gc_measurement_free(&m);
    memcpy(probe_buf, draw.indices, draw.index_count * sizeof *probe_buf);
    gc_draw probe_draw = draw;
    probe_draw.indices = probe_buf;
    probe_draw.index_count = draw.index_count + arity;
    if (!b.probe) {
        /* a model: by simulation, the draws' shared part once (linear for every model) */
        if (gc_introspect(&b.model, &draw, candidates, candidate_count, cached, &cached_count, &err)) {
            status = fail_with(&err);
            goto out;
        }
        goto report;
    }
    /* A device: a draw per candidate, each of the whole buffer. Bound that work before it
     * starts: a small file can ask for hours. */
    uint64_t lookups = (uint64_t)candidate_count * (uint64_t)probe_draw.index_count;
    if (lookups > max_work) {
        fprintf(stderr,
                "gpucache: %s: introspect would draw %zu candidates x %zu indices = %llu index lookups, more than the "
                "limit of %llu; raise it with --max-lookups N\n",
                path, candidate_count, probe_draw.index_count, (unsigned long long)lookups,
                (unsigned long long)max_work);
        status = EXIT_DATA;
        goto out;
    }
    progress_line prog;
    progress_init(&prog, "introspect");
    for (size_t i = 0; i < candidate_count; ++i) {
        for (unsigned k = 0; k < arity; ++k)
            probe_buf[draw.index_count + k] = candidates[i];
        if (gc_backend_measure(&b, &probe_draw, (uint32_t)outputs, &m, &err)) {
            status = fail_with(&err);
            goto out;
        }
        if (m.invocations == baseline)
            cached[cached_count++] = candidates[i];
        gc_measurement_free(&m);
        progress_report(&prog, i + 1, candidate_count);
    }
    progress_end(&prog);
report:
    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"input\": ");
        sb_json_string(&j, in.name);
        sb_printf(&j, ", \"device\": ");
        sb_json_string(&j, b.device);
        sb_printf(&j, ", \"topology\": \"%s\", \"primitives\": %llu, \"invocations\": %llu, \"candidates\": %zu, "
                      "\"cached\": [",
                  gc_topology_name(draw.topology), (unsigned long long)primitives, (unsigned long long)baseline,
                  candidate_count);
        for (size_t i = 0; i < cached_count; ++i)
            sb_printf(&j, i ? ", %u" : "%u", cached[i]);
        sb_printf(&j, "]}\n");
        status = print_json_document(&j);
    } else {
        printf("%s on %s: %llu primitives, %llu invocations; %zu of %zu indices still cached:\n", in.name, b.device,
               (unsigned long long)primitives, (unsigned long long)baseline, cached_count, candidate_count);
        printf("[");
        for (size_t i = 0; i < cached_count; ++i)
            printf(i ? ", %u" : "%u", cached[i]);
        printf("]\n");
    }
out:
    gc_measurement_free(&m);
    gc_backend_close(&b);
    free(cached);
    free(candidates);
    free(probe_buf);
    gc_mesh_free(&in.mesh);
    return status;
}
