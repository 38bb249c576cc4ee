/* gpucache analyze: what each model's vertex cache does with one draw. The library
 * computes; this file parses arguments and prints tables and JSON (model_report.c). */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"
#include "model_report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODELS 64

int cmd_analyze(int argc, char** argv)
{
    enum { OPT_RESTART = 256, OPT_STATE, OPT_JSON, OPT_PER_VERTEX, OPT_TRACE, OPT_REPEAT, OPT_POSITIONS };
    static const struct option long_options[] = {
        {"model", required_argument, NULL, 'm'},
        {"topology", required_argument, NULL, 't'},
        {"restart", optional_argument, NULL, OPT_RESTART},
        {"state-changes", required_argument, NULL, OPT_STATE},
        {"json", no_argument, NULL, OPT_JSON},
        {"per-vertex", required_argument, NULL, OPT_PER_VERTEX},
        {"trace", no_argument, NULL, OPT_TRACE},
        {"repeat", required_argument, NULL, OPT_REPEAT},
        {"positions", no_argument, NULL, OPT_POSITIONS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char* model_specs[MAX_MODELS];
    int model_count = 0;
    const char* topology_name = NULL;
    int restart = 0;
    const char* restart_text = NULL;
    const char* state_path = NULL;
    const char* per_vertex_path = NULL;
    int json = 0, trace = 0;
    long repeat = 0;
    gc_load_options lo = {0};

    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":m:t:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (model_count == MAX_MODELS)
                return usage_error("at most %s models in one run", "64");
            model_specs[model_count++] = optarg;
            break;
        case 't': topology_name = optarg; break;
        case OPT_RESTART:
            restart = 1;
            restart_text = optarg;
            break;
        case OPT_STATE: state_path = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_PER_VERTEX: per_vertex_path = optarg; break;
        case OPT_TRACE: trace = 1; break;
        case OPT_REPEAT:
            if (parse_count(optarg, 1, 1000000, &repeat) != 0)
                return usage_error("--repeat needs a count in [1, 1000000], not '%s'", optarg);
            break;
        case OPT_POSITIONS: lo.positions_only = 1; break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    const char* path;
    int input_status = one_input(argc, argv, "analyze", &path);
    if (input_status)
        return input_status;
    /* standard input can be read once: by the INPUT, the state changes or one fit result */
    int stdin_readers = (gc_stdin_format(path) != NULL) + (state_path && is_stdio_path(state_path));
    for (int i = 0; i < model_count; ++i)
        stdin_readers += is_stdio_path(model_arg_file(model_specs[i]));
    if (stdin_readers > 1)
        return usage_error("'-' (standard input) can be given to only one of INPUT, --state-changes and -m @FILE%s",
                           "");
    if (per_vertex_path) {
        /* before any work: the CSV's folder, and not over the mesh, the state file or a
         * fit result given with -m @FILE */
        const char* inputs[2 + MAX_MODELS] = {strcmp(path, "-") ? path : NULL, state_path};
        size_t input_count = 2;
        for (int i = 0; i < model_count; ++i)
            if (model_arg_file(model_specs[i]))
                inputs[input_count++] = model_arg_file(model_specs[i]);
        if ((input_status = check_output(per_vertex_path, inputs, input_count)) != 0)
            return input_status;
    }

    gc_error err = {0};
    model_result* results = calloc(MAX_MODELS, sizeof *results);
    if (!results)
        return EXIT_DATA;
    int result_count = 0;
    if (model_count == 0) {
        for (size_t i = 0; i < gc_preset_count(); ++i) {
            const char *name, *spec, *source;
            gc_preset_get(i, &name, &spec, &source);
            model_specs[model_count++] = name;
        }
    }
    int status = 0;
    for (int i = 0; i < model_count; ++i) {
        if (model_arg(model_specs[i], &results[i].model, &err)) {
            status = fail_with(&err);
            goto out_results;
        }
        results[i].seconds = -1;
    }
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    if ((status = load_draw(path, &lo, topology_name, restart, restart_text, &in, &draw,
                            &primitives)) != 0)
        goto out_results;

    gc_analyze_options options = {0};
    uint64_t* changes = NULL;
    size_t change_count = 0;
    if (state_path) {
        if (gc_state_changes_load(state_path, draw.index_count, &changes, &change_count, &err)) {
            status = fail_with(&err);
            goto out_mesh;
        }
        options.state_changes = changes;
        options.state_change_count = change_count;
    }

    uint64_t vertices = 0;
    for (int i = 0; i < model_count; ++i) {
        model_result* r = &results[i];
        gc_analyze_options o = options;
        trace_sink sink = {&r->trace, json, 1};
        if (trace) {
            sb_printf(&r->trace, "%s", "");
            o.trace = trace_line;
            o.trace_user = &sink;
        }
        if (per_vertex_path)
            o.per_vertex = &r->per_vertex;
        if (gc_analyze(&r->model, &draw, &o, &r->stats, &err)) {
            status = fail_with(&err);
            goto out_changes;
        }
        if (r->trace.failed) {
            fprintf(stderr, "gpucache: out of memory collecting the trace\n");
            status = EXIT_DATA;
            goto out_changes;
        }
        if (repeat > 0 && time_model(&r->model, &draw, &options, repeat, &r->seconds, &err)) {
            status = fail_with(&err);
            goto out_changes;
        }
        vertices = r->stats.vertices;
        result_count = i + 1;
    }

    if (per_vertex_path && (status = write_per_vertex_csv(per_vertex_path, results, model_count)) != 0)
        goto out_changes;

    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"input\": ");
        sb_json_string(&j, in.name);
        sb_printf(&j, ", \"topology\": \"%s\", \"restart\": ", gc_topology_name(draw.topology));
        if (draw.restart_enabled)
            sb_printf(&j, "%u", draw.restart_value);
        else
            sb_printf(&j, "null");
        sb_printf(&j, ", \"indices\": %zu, \"primitives\": %llu, \"vertices\": %llu, \"models\": [", draw.index_count,
                  (unsigned long long)primitives, (unsigned long long)vertices);
        for (int i = 0; i < model_count; ++i) {
            if (i)
                sb_printf(&j, ", ");
            json_model(&j, &results[i]);
        }
        sb_printf(&j, "]}\n");
        if (j.failed) {
            fprintf(stderr, "gpucache: out of memory writing JSON\n");
            status = EXIT_DATA;
        } else {
            fputs(j.data, stdout);
        }
        free(j.data);
    } else {
        printf("%s: %s, %zu indices, %llu primitives, %llu vertices%s\n", in.name, gc_topology_name(draw.topology),
               draw.index_count, (unsigned long long)primitives, (unsigned long long)vertices,
               draw.restart_enabled ? ", with restart" : "");
        print_table_header(stdout, 0);
        for (int i = 0; i < model_count; ++i)
            print_table_row(stdout, NULL, &results[i]);
        /* Traces last, so that the output ends with the final cache state. */
        for (int i = 0; trace && i < model_count; ++i)
            printf("# trace %s: cache after each primitive\n%s", results[i].model.name,
                   results[i].trace.data ? results[i].trace.data : "");
    }

out_changes:
    free(changes);
out_mesh:
    gc_mesh_free(&in.mesh);
out_results:
    for (int i = 0; i < MAX_MODELS; ++i) {
        gc_per_vertex_free(&results[i].per_vertex);
        free(results[i].trace.data);
    }
    (void)result_count;
    free(results);
    return status;
}
