/* gpucache: the command-line tool. The library computes; this file parses
 * arguments, prints tables and JSON, and turns errors into exit statuses:
 * 2 for usage, 1 for bad data or any other failure. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_MODELS 64

void print_help(FILE* f)
{
    fprintf(f,
            "gpucache %s: what a GPU's vertex caches do with an index buffer\n"
            "\n"
            "usage:\n"
            "  gpucache analyze [-m MODEL]... [-t TOPOLOGY] [--restart[=VALUE]] [--state-changes FILE]\n"
            "                   [--json] [--per-vertex FILE.csv] [--trace] [--repeat N] [--positions] INPUT\n"
            "  gpucache probe [-t TOPOLOGY] [--restart[=VALUE]] [--outputs N] [--device N | --model MODEL]\n"
            "                 [--json] [--per-vertex FILE.csv] INPUT\n"
            "                              draw INPUT on a Vulkan device and count vertex shader invocations\n"
            "  gpucache probe --list       list Vulkan devices\n"
            "  gpucache probe --suite -o FILE.json [--device N | --model MODEL]\n"
            "                              measure the standard diagnostic suite into a measurement file\n"
            "  gpucache introspect [-t TOPOLOGY] [--device N | -m MODEL] [--json] INPUT\n"
            "                              which indices are still cached after INPUT (seed 000's method)\n"
            "  gpucache fit [--top N] [--threads N] [-m MODEL]... [--json] FILE.json\n"
            "                              rank the models that predict a measurement file\n"
            "  gpucache optimize -a tipsify|forsyth|auto [-m TARGET]... [--cache N] [--seed S] [--effort E]\n"
            "                 [--reorder-vertices] [--json] INPUT -o OUTPUT\n"
            "                              reorder the triangles for the vertex cache; OUTPUT keeps INPUT's format\n"
            "  gpucache grid W H [--layout rowmajor|striped|optimal] [--cache N] -o FILE\n"
            "                              write a W x H quad grid in one of seed 002's layouts\n"
            "  gpucache sweep [--mesh grid:WxH | FILE]... [-a LAYOUTS] [--cache A..B] [-m MODEL]...\n"
            "                 [--csv OUT.csv] [--plot OUT.png|OUT.svg] [--json] [--threads N]\n"
            "                              seed 002's experiment: ATVR against the target cache size per layout\n"
            "                              (layouts: optimal striped tipsify forsyth auto original; -m device\n"
            "                              measures on the Vulkan device)\n"
            "  gpucache memsys [--strategy as-written|l1-bypass|l2-bypass|sc-as-uc] [--json]\n"
            "                  [--max-accesses N] SCENARIO\n"
            "  gpucache memsys --compare [--json] [--max-accesses N] SCENARIO\n"
            "                              seed 003's console memory system: price a scenario's caches, buses,\n"
            "                              invalidates and writebacks, find its hazards, rank flush strategies\n"
            "  gpucache demo [--json]      analyze a generated 100x100 grid in several orders under every preset\n"
            "  gpucache models             list model families and presets\n"
            "  gpucache help | --version\n"
            "\n"
            "INPUT: .txt/.idx (text indices, '#' comments), .u16/.u32 (raw little-endian), .obj, .ply,\n"
            "       other mesh formats through assimp (.gltf, .glb, .fbx, .dae, .stl, ...), '-' for text on\n"
            "       standard input, or grid:WxH for a generated row-major grid of W x H quads.\n"
            "MODEL: fifo:N lru:N direct-value:N direct-position:N nvidia[:size=32,idle=16,life=32]\n"
            "       meshopt:C,W,P reuse:W,F,T batch[:slots=32,prims=0] llvmpipe[:segment=1024,map=256],\n"
            "       or a preset (default: all presets).\n"
            "TOPOLOGY: point-list line-list line-strip line-loop triangle-list triangle-strip triangle-fan\n"
            "       quad-list polygon (default: triangle-list, or what the file says).\n"
            "LIMITS: grid:WxH and grid W H: W, H <= 20000 and W x H <= 16777216 quads; sweep's grids:\n"
            "       W, H <= 4000. memsys: at most 134217728 (2^27) simulated line accesses per command\n"
            "       (--compare: its four replays together; each line an invalidate or writeback goes\n"
            "       over counts as one, an access on caches of more than 32 ways together as\n"
            "       ceil(ways / 32)); --max-accesses N changes it (K, M, G suffixes). A scenario holds\n"
            "       at most 1048576 operations, 65536 buffers and 4194304 cache lines. Work longer than\n"
            "       a second shows a progress line when standard error is a terminal.\n",
            GPUCACHE_VERSION_STRING);
}

static int cmd_models(void)
{
    printf("families:\n");
    printf("  fifo:N                          FIFO of N entries; a hit does not refresh (seeds 000-002)\n");
    printf("  lru:N                           least recently used, N entries (seeds 000, 002)\n");
    printf("  direct-value:N                  slot = index value mod N (seed 000)\n");
    printf("  direct-position:N               slot = stream position mod N (seed 000)\n");
    printf("  nvidia[:size=,idle=,life=]      seed 000's probed NVIDIA rules (32, 16, 32)\n");
    printf("  meshopt:C,W,P                   meshoptimizer 0.18's analyzer (cache, warp, primitive group)\n");
    printf("  reuse:W,F,T                     seed 002's warp reuse (warp, compare window, triangles)\n");
    printf("  batch[:slots=,prims=]           seed 004's data assembler batches (32 slots)\n");
    printf("  llvmpipe[:segment=,map=]        Mesa's draw module (llvmpipe, lavapipe): 1024-index segments,\n"
           "                                  256-entry direct-mapped fetch table (measured on lavapipe)\n");
    printf("presets:\n");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        printf("  %-15s = %-17s %s\n", name, spec, source);
    }
    return 0;
}

/* ------------------------------------------------------------------ trace */

/* Collects trace lines: "N: [a, b, c]" lines for the table, or a JSON array of arrays. */
typedef struct trace_sink {
    strbuf* out;
    int json;
    int first;
} trace_sink;

static void trace_line(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    trace_sink* t = user;
    if (t->json) {
        sb_printf(t->out, t->first ? "[" : ", [");
        t->first = 0;
    } else {
        sb_printf(t->out, "%llu: [", (unsigned long long)primitive);
    }
    for (size_t i = 0; i < count; ++i)
        sb_printf(t->out, i ? ", %lld" : "%lld", (long long)entries[i]);
    sb_printf(t->out, t->json ? "]" : "]\n");
}

/* ---------------------------------------------------------------- analyze */

typedef struct model_result {
    gc_model model;
    gc_stats stats;
    double seconds; /* < 0: not measured */
    gc_per_vertex per_vertex;
    strbuf trace;
} model_result;

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Median seconds of `repeat` plain passes (no per-vertex counts, no trace). */
static gc_status time_model(const gc_model* m, const gc_draw* d, const gc_analyze_options* base, long repeat,
                            double* seconds, gc_error* err)
{
    double* samples = malloc((size_t)repeat * sizeof *samples);
    if (!samples) {
        snprintf(err->message, sizeof err->message, "out of memory for %ld timing samples", repeat);
        err->code = GC_ERR_NOMEM;
        return GC_ERR_NOMEM;
    }
    gc_analyze_options o = {0};
    o.state_changes = base->state_changes;
    o.state_change_count = base->state_change_count;
    for (long i = 0; i < repeat; ++i) {
        gc_stats st;
        double t0 = now_seconds();
        gc_status s = gc_analyze(m, d, &o, &st, err);
        samples[i] = now_seconds() - t0;
        if (s) {
            free(samples);
            return s;
        }
    }
    qsort(samples, (size_t)repeat, sizeof *samples, compare_double);
    *seconds = repeat % 2 ? samples[repeat / 2] : 0.5 * (samples[repeat / 2 - 1] + samples[repeat / 2]);
    free(samples);
    return GC_OK;
}

static void print_table_header(FILE* f, int with_layout)
{
    if (with_layout)
        fprintf(f, "%-10s ", "layout");
    fprintf(f, "%-32s %12s %9s %9s %9s\n", "model", "invocations", "ACMR", "ATVR", "batches");
}

static void print_table_row(FILE* f, const char* layout, const model_result* r)
{
    if (layout)
        fprintf(f, "%-10s ", layout);
    char name[96];
    snprintf(name, sizeof name, "%s", r->model.name);
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        /* A preset: show what it stands for. */
        const char *pname, *spec, *source;
        gc_preset_get(i, &pname, &spec, &source);
        if (strcmp(pname, r->model.name) == 0)
            snprintf(name, sizeof name, "%s (%s)", pname, spec);
    }
    fprintf(f, "%-32s %12llu %9.4f %9.4f ", name, (unsigned long long)r->stats.invocations, r->stats.acmr,
            r->stats.atvr);
    if (r->stats.has_batches)
        fprintf(f, "%9llu", (unsigned long long)r->stats.batches);
    else
        fprintf(f, "%9s", "-");
    if (r->seconds >= 0)
        fprintf(f, "  %.6f s", r->seconds);
    fprintf(f, "\n");
}

static void json_model(strbuf* j, const model_result* r)
{
    const gc_stats* s = &r->stats;
    sb_printf(j, "{\"model\": ");
    sb_json_string(j, r->model.name);
    sb_printf(j, ", \"family\": \"%s\", \"invocations\": %llu, \"acmr\": %.9g, \"atvr\": %.9g, \"batches\": ",
              gc_model_family_name(r->model.family), (unsigned long long)s->invocations, s->acmr, s->atvr);
    if (s->has_batches)
        sb_printf(j, "%llu", (unsigned long long)s->batches);
    else
        sb_printf(j, "null");
    if (r->seconds >= 0)
        sb_printf(j, ", \"seconds\": %.9g", r->seconds);
    else
        sb_printf(j, ", \"seconds\": null");
    if (r->model.family == GC_MODEL_NVIDIA)
        sb_printf(j, ", \"resets\": %llu", (unsigned long long)s->resets);
    if (r->model.family == GC_MODEL_MESHOPT || r->model.family == GC_MODEL_REUSE)
        sb_printf(j, ", \"flushes\": %llu", (unsigned long long)s->resets);
    if (r->model.family == GC_MODEL_BATCH) {
        double fill = s->batches ? (double)s->slots_filled / ((double)s->batches * r->model.p[0]) : 0.0;
        sb_printf(j, ", \"state_change_flushes\": %llu, \"map_mode_batches\": %llu, \"mean_fill\": %.9g",
                  (unsigned long long)s->state_change_flushes, (unsigned long long)s->map_mode_batches, fill);
    }
    if (r->trace.data)
        sb_printf(j, ", \"trace\": [%s]", r->trace.data);
    sb_printf(j, "}");
}

/* Per-vertex CSV: index, then one column of invocation counts per model. */
static int write_per_vertex_csv(const char* path, const model_result* results, int count)
{
    atomic_file af;
    if (atomic_open(&af, path) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", path, strerror(errno));
        return EXIT_DATA;
    }
    fprintf(af.f, "index");
    for (int i = 0; i < count; ++i)
        fprintf(af.f, ",%s", results[i].model.name);
    fprintf(af.f, "\n");
    size_t rows = count ? results[0].per_vertex.count : 0;
    for (size_t v = 0; v < rows; ++v) {
        fprintf(af.f, "%u", results[0].per_vertex.values[v]);
        for (int i = 0; i < count; ++i)
            fprintf(af.f, ",%u", results[i].per_vertex.counts[v]);
        fprintf(af.f, "\n");
    }
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", path, strerror(errno));
        return EXIT_DATA;
    }
    return 0;
}

static int cmd_analyze(int argc, char** argv)
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
        case 'h': print_help(stdout); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    const char* path;
    int input_status = one_input(argc, argv, "analyze", &path);
    if (input_status)
        return input_status;
    if (per_vertex_path) {
        /* before any work: the CSV's folder, and not over the mesh or the state file */
        const char* inputs[] = {strcmp(path, "-") ? path : NULL, state_path};
        if ((input_status = check_output(per_vertex_path, inputs, 2)) != 0)
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
        if (gc_model_parse(model_specs[i], &results[i].model, &err)) {
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
        sb_printf(&j, "{\"input\": ");
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

/* ------------------------------------------------------------------- demo */

/* The main job on an embedded default: a 100x100 quad grid in four orders,
 * analyzed under every preset. Needs no file. */
static int cmd_demo(int argc, char** argv)
{
    int json = argc > 1 && strcmp(argv[1], "--json") == 0;
    if (argc > 1 && !json)
        return usage_error("demo takes only --json, not '%s'", argv[1]);
    const uint32_t w = 100, h = 100, cache = 16;
    static const struct {
        const char* name;
        gc_grid_layout layout;
        int shuffle;
    } orders[] = {
        {"rowmajor", GC_GRID_ROWMAJOR, 0},
        {"striped", GC_GRID_STRIPED, 0},
        {"optimal", GC_GRID_OPTIMAL, 0},
        {"shuffled", GC_GRID_ROWMAJOR, 1},
    };
    gc_error err = {0};
    strbuf j = {0};
    if (json)
        sb_printf(&j, "{\"input\": \"grid:%ux%u\", \"cache\": %u, \"layouts\": [", w, h, cache);
    else {
        printf("gpucache demo: a %ux%u quad grid (%u vertices, %u triangles) in four orders;\n", w, h,
               (w + 1) * (h + 1), 2 * w * h);
        printf("striped and optimal layouts are built for a %u-entry cache (seed 002).\n\n", cache);
        print_table_header(stdout, 1);
    }
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; ++o) {
        size_t n = gc_grid_index_count(w, h, orders[o].layout, cache);
        uint32_t* idx = malloc(n * sizeof *idx);
        if (!idx)
            return EXIT_DATA;
        size_t written;
        if (gc_grid_generate(w, h, orders[o].layout, cache, idx, &written, &err)) {
            free(idx);
            return fail_with(&err);
        }
        if (orders[o].shuffle)
            gc_shuffle_triangles(idx, written, 1);
        gc_draw draw = {idx, written, GC_TRIANGLE_LIST, 0, 0};
        if (json)
            sb_printf(&j, "%s{\"layout\": \"%s\", \"indices\": %zu, \"models\": [", o ? ", " : "", orders[o].name,
                      written);
        for (size_t p = 0; p < gc_preset_count(); ++p) {
            const char *name, *spec, *source;
            gc_preset_get(p, &name, &spec, &source);
            model_result r = {0};
            r.seconds = -1;
            if (gc_model_parse(name, &r.model, &err) || gc_analyze(&r.model, &draw, NULL, &r.stats, &err)) {
                free(idx);
                free(j.data);
                return fail_with(&err);
            }
            if (json) {
                if (p)
                    sb_printf(&j, ", ");
                json_model(&j, &r);
            } else {
                print_table_row(stdout, orders[o].name, &r);
            }
        }
        if (json)
            sb_printf(&j, "]}");
        else
            printf("\n");
        free(idx);
    }
    if (json) {
        sb_printf(&j, "]}\n");
        fputs(j.data ? j.data : "", stdout);
        free(j.data);
    } else {
        printf("ATVR 1.0 is the ideal: every vertex shaded once. Analyze your own buffers with\n"
               "  gpucache analyze [-m MODEL]... FILE   (see 'gpucache help')\n");
    }
    return 0;
}

static int run_command(int argc, char** argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    const char* cmd = argv[1];
    if (strcmp(cmd, "analyze") == 0)
        return cmd_analyze(argc - 1, argv + 1);
    if (strcmp(cmd, "demo") == 0)
        return cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "probe") == 0)
        return cmd_probe(argc - 1, argv + 1);
    if (strcmp(cmd, "introspect") == 0)
        return cmd_introspect(argc - 1, argv + 1);
    if (strcmp(cmd, "fit") == 0)
        return cmd_fit(argc - 1, argv + 1);
    if (strcmp(cmd, "optimize") == 0)
        return cmd_optimize(argc - 1, argv + 1);
    if (strcmp(cmd, "grid") == 0)
        return cmd_grid(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "memsys") == 0)
        return cmd_memsys(argc - 1, argv + 1);
    if (strcmp(cmd, "models") == 0)
        return cmd_models();
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("gpucache %s\n", GPUCACHE_VERSION_STRING);
        return 0;
    }
    return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char** argv)
{
    /* A file over the size limit (ulimit -f) must fail its write (EFBIG), reported and
     * cleaned up like any other write error, instead of killing the tool mid-file. */
    signal(SIGXFSZ, SIG_IGN);
    /* every command's standard output is checked once here, at the end */
    return finish_stdout(run_command(argc, argv));
}
