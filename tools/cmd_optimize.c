/* gpucache optimize: reorder a mesh's triangles with tipsify, forsyth or auto, write it
 * in the input's format, and show what the vendor presets say before and after. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "help.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TARGETS 16
/* the presets optimize reports before and after (gc_preset_count() must not exceed it) */
#define MAX_REPORT_PRESETS 32

typedef struct progress {
    double start;
    double last;
    int shown;
    size_t done, length, total; /* indices: of the runs before this one, of this run, of all */
} progress;

/* Prints "optimize: N%" on a terminal once the work has taken more than a second. */
static void show_progress(void* user, uint64_t done, uint64_t total)
{
    progress* p = user;
    double now = now_seconds();
    if (now - p->start < 1.0 || now - p->last < 0.2 || !progress_wanted())
        return;
    p->last = now;
    p->shown = 1;
    double part = total ? (double)done / (double)total : 1.0;
    /* each run's share of the work is its share of the indices (runs may differ a lot in size) */
    double whole = p->total ? ((double)p->done + part * (double)p->length) / (double)p->total : part;
    double elapsed = now - p->start;
    fprintf(stderr, "\rgpucache: optimize: %3.0f%%, %.0f s left   ", 100.0 * whole,
            whole > 0 ? elapsed * (1.0 - whole) / whole : 0.0);
}

static int analyze_all(const uint32_t* idx, size_t n, gc_stats* stats, gc_model* models, size_t count)
{
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    for (size_t i = 0; i < count; ++i) {
        gc_error err;
        if (gc_analyze(&models[i], &d, NULL, &stats[i], &err))
            return fail_with(&err);
    }
    return 0;
}

/* Whether two output paths name one file, existing or not: the same file by device and
 * inode, or the same name in the same folder (compared by device and inode). */
static int same_output(const char* a, const char* b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char* na = strrchr(a, '/');
    const char* nb = strrchr(b, '/');
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
        return 0;
    char da[4096], db[4096];
    snprintf(da, sizeof da, "%.*s", na ? (int)(na - a) + 1 : 1, na ? a : ".");
    snprintf(db, sizeof db, "%.*s", nb ? (int)(nb - b) + 1 : 1, nb ? b : ".");
    return stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* What optimize prints: the before/after table (or JSON) under every preset and target. */
typedef struct report {
    const char* input;
    const char* output;
    gc_optimizer algorithm;
    size_t triangles, runs;
    double seconds;
    int reorder;
    const char* note;        /* a line after the headline, or NULL */
    const gc_model* presets; /* the presets, then the targets */
    const gc_stats* before;
    const gc_stats* after;
    size_t preset_count, target_count;
} report;

/* Returns 0, or EXIT_DATA when the JSON could not be built (print_json_document). */
static int print_report(const report* r, int json)
{
    const size_t preset_count = r->preset_count, target_count = r->target_count;
    const size_t row_count = preset_count + target_count;
    const gc_model* presets = r->presets;
    const gc_stats* before = r->before;
    const gc_stats* after = r->after;
    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"input\": ");
        sb_json_string(&j, r->input);
        sb_printf(&j, ", \"output\": ");
        sb_json_string(&j, r->output);
        sb_printf(&j, ", \"algorithm\": \"%s\", \"triangles\": %zu, \"runs\": %zu, \"seconds\": " JSON_FLOAT ", \"models\": [",
                  gc_optimizer_name(r->algorithm), r->triangles, r->runs, JF(r->seconds));
        for (size_t i = 0; i < row_count; ++i) {
            if (i == preset_count)
                sb_printf(&j, "], \"targets\": [");
            sb_printf(&j,
                      "%s{\"model\": \"%s\", \"before\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}, "
                      "\"after\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}}",
                      i && i != preset_count ? ", " : "", presets[i].name, (unsigned long long)before[i].invocations,
                      JF(before[i].atvr), JF(before[i].acmr), (unsigned long long)after[i].invocations,
                      JF(after[i].atvr), JF(after[i].acmr));
        }
        if (target_count == 0)
            sb_printf(&j, "], \"targets\": [");
        sb_printf(&j, "]}\n");
        return print_json_document(&j);
    } else {
        printf("%s -> %s: %s, %zu triangles%s%s in %.3f s\n", r->input, r->output, gc_optimizer_name(r->algorithm),
               r->triangles, r->runs > 1 ? " in separate runs" : "", r->reorder ? ", vertices reordered" : "",
               r->seconds);
        if (r->note)
            printf("%s\n", r->note);
        printf("%-34s %12s %8s %12s %8s %8s\n", "model", "before", "ATVR", "after", "ATVR", "change");
        for (size_t i = 0; i < row_count; ++i) {
            char label[96];
            if (i < preset_count) {
                const char *pname, *spec, *source;
                gc_preset_get(i, &pname, &spec, &source);
                snprintf(label, sizeof label, "%s (%s)", pname, spec);
            } else {
                snprintf(label, sizeof label, "target %s", presets[i].name);
            }
            double change = before[i].invocations
                                ? 100.0 * ((double)after[i].invocations - (double)before[i].invocations) /
                                      (double)before[i].invocations
                                : 0.0;
            printf("%-34s %12llu %8.4f %12llu %8.4f %+7.1f%%\n", label, (unsigned long long)before[i].invocations,
                   before[i].atvr, (unsigned long long)after[i].invocations, after[i].atvr, change);
        }
    }
    return 0;
}

int optimize_gltf_primitives(gc_gltf* doc, const char* path, gc_optimizer algorithm, const gc_optimize_options* base,
                             int reorder, int say, size_t* triangles, size_t* runs, size_t* left)
{
    gc_error err = {0};
    int status = 0;
    uint32_t* tri = NULL;
    uint32_t* out = NULL;
    *triangles = *runs = *left = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc) && !status; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        if (p->topology == GC_TRIANGLE_STRIP || p->topology == GC_TRIANGLE_FAN || (p->topology == GC_TRIANGLE_LIST && !p->index_bits)) {
            if (say)
                fprintf(stderr, "gpucache: %s: meshes[%zu].primitives[%zu]: %s%s left as it is (only indexed triangle "
                                "lists are reordered in place)\n",
                        path, p->mesh, p->primitive, gltf_mode_name(p->mode), p->index_bits ? "" : " without indices");
            ++*left;
            continue;
        }
        if (p->topology != GC_TRIANGLE_LIST || p->index_count == 0)
            continue; /* points and lines have no triangles */
        if (p->indices_kept) {
            if (say)
                fprintf(stderr, "gpucache: %s: meshes[%zu].primitives[%zu]: triangle list left as it is: %s\n", path,
                        p->mesh, p->primitive, p->indices_kept);
            ++*left;
            continue;
        }
        if (p->shares_indices_with != SIZE_MAX)
            continue; /* shared index data is reordered once, for its first user */
        size_t n = p->index_count;
        uint32_t* grown_tri = realloc(tri, n * sizeof *tri);
        uint32_t* grown_out = grown_tri ? realloc(out, n * sizeof *out) : NULL;
        if (grown_tri)
            tri = grown_tri;
        if (grown_out)
            out = grown_out;
        if (!grown_tri || !grown_out) {
            fprintf(stderr, "gpucache: %s: out of memory for %zu indices\n", path, n);
            status = EXIT_DATA;
            break;
        }
        memcpy(tri, p->indices, n * sizeof *tri);
        uint32_t* values = NULL;
        uint32_t vertex_count = 0;
        if ((status = compact_indices(tri, n, &values, &vertex_count)) != 0)
            break;
        gc_optimize_options o = *base;
        o.first_use_numbering = reorder;
        if (gc_optimize(algorithm, tri, n, vertex_count, &o, out, &err)) {
            free(values);
            status = fail_with(&err);
            break;
        }
        if (values)
            for (size_t k = 0; k < n; ++k)
                out[k] = values[out[k]];
        free(values);
        if (gc_gltf_set_indices(doc, i, out, n, &err)) {
            status = fail_with(&err);
            break;
        }
        *triangles += n / 3;
        ++*runs;
    }
    free(tri);
    free(out);
    if (!status && reorder && gc_gltf_reorder_vertices(doc, &err))
        status = fail_with(&err);
    return status;
}

/* -o - on a glTF: a self-contained document (a GLB) written to standard output. */
static gc_status gltf_to_stdout(gc_gltf* doc, gc_error* err)
{
    atomic_file af;
    if (atomic_open(&af, "-") != 0) {
        *err = af.err;
        return GC_ERR_IO;
    }
    gc_status s = gc_gltf_write_stream(doc, af.f, "standard output", err);
    if (!s && atomic_commit(&af) != 0) {
        *err = af.err;
        s = GC_ERR_IO;
    }
    return s;
}

/* optimize on a .gltf/.glb: optimize_gltf_primitives, then the document written back with
 * everything it did not rewrite unchanged, and the report of the presets and targets. */
static int optimize_gltf(const char* path, const char* out_path, gc_optimizer algorithm,
                         const gc_optimize_options* base, int reorder, int json, int allow_external,
                         gc_model* presets, size_t preset_count, size_t target_count,
                         const char* const* fit_files, size_t fit_file_count)
{
    gc_error err = {0};
    gc_gltf_options go = {0};
    go.allow_external_uris = allow_external;
    go.note = print_note;
    gc_gltf* doc = NULL;
    if (gc_gltf_load(path, &go, &doc, &err))
        return fail_with(&err);
    const size_t row_count = preset_count + target_count;
    gc_stats before[MAX_REPORT_PRESETS + MAX_TARGETS], after[MAX_REPORT_PRESETS + MAX_TARGETS];
    int status = gltf_sum_stats(doc, path, presets, row_count, 1, before, NULL);
    double start = now_seconds();
    size_t triangles = 0, runs = 0, left = 0;
    if (!status)
        status = optimize_gltf_primitives(doc, path, algorithm, base, reorder, 1, &triangles, &runs, &left);
    double seconds = now_seconds() - start;
    if (!status)
        status = gltf_sum_stats(doc, path, presets, row_count, 1, after, NULL);
    if (!status) {
        signals_hold();
        gc_status written = is_stdio_path(out_path) ? gltf_to_stdout(doc, &err)
                                                    : gc_gltf_write_inputs(doc, out_path, fit_files, fit_file_count, &err);
        signals_release();
        if (written)
            status = fail_with(&err);
    }
    if (!status) {
        char line[160];
        snprintf(line, sizeof line, "(%zu indexed triangle-list primitives reordered in place%s)", runs,
                 left ? "; strips, fans, non-indexed lists and shared index data left as they are" : "");
        report rep = {path, out_path, algorithm, triangles, runs, seconds, reorder, line, presets, before, after,
                      preset_count, target_count};
        status = print_report(&rep, json);
    }
    gc_gltf_free(doc);
    return status;
}

/* Sets err to "WHAT: MESSAGE: strerror(errno)" and returns code. */
static gc_status gc_fail_message(gc_error* err, gc_status code, const char* message, const char* what)
{
    snprintf(err->message, sizeof err->message, "%s: %s: %s", what, message, strerror(errno));
    err->code = code;
    return code;
}

/* -o -: the finished output file, copied to standard output (atomic_open's "-"). */
static gc_status copy_to_stdout(const char* path, gc_error* err)
{
    FILE* in = fopen(path, "rb");
    if (!in)
        return gc_fail_message(err, GC_ERR_IO, "cannot read the output back", path);
    atomic_file af;
    if (atomic_open(&af, "-") != 0) {
        fclose(in);
        *err = af.err;
        return GC_ERR_IO;
    }
    char buffer[65536];
    size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, in)) > 0)
        fwrite(buffer, 1, got, af.f);
    int bad = ferror(in);
    fclose(in);
    if (bad)
        return gc_fail_message(err, GC_ERR_IO, "cannot read the output back", path);
    if (atomic_commit(&af) != 0) {
        *err = af.err;
        return GC_ERR_IO;
    }
    return GC_OK;
}

/* The rows optimize reports before and after: every preset (at most MAX_REPORT_PRESETS), then
 * each target (-m). Returns the preset count. */
static size_t report_rows(gc_model* rows, const gc_model* targets, size_t target_count)
{
    size_t preset_count = gc_preset_count();
    gc_error err;
    for (size_t i = 0; i < preset_count && i < MAX_REPORT_PRESETS; ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        gc_model_parse(name, &rows[i], &err);
    }
    for (size_t i = 0; i < target_count; ++i)
        rows[(preset_count < MAX_REPORT_PRESETS ? preset_count : MAX_REPORT_PRESETS) + i] = targets[i];
    return preset_count < MAX_REPORT_PRESETS ? preset_count : MAX_REPORT_PRESETS;
}

int cmd_optimize(int argc, char** argv)
{
    enum { OPT_CACHE = 256, OPT_SEED, OPT_EFFORT, OPT_REORDER, OPT_JSON, OPT_RESTART, OPT_POSITIONS, OPT_REMAP, OPT_EXTERNAL,
           OPT_OD_THRESHOLD, OPT_OD_LAMBDA };
    static const struct option long_options[] = {
        {"algorithm", required_argument, NULL, 'a'},
        {"model", required_argument, NULL, 'm'},
        {"output", required_argument, NULL, 'o'},
        {"topology", required_argument, NULL, 't'},
        {"restart", optional_argument, NULL, OPT_RESTART},
        {"cache", required_argument, NULL, OPT_CACHE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"effort", required_argument, NULL, OPT_EFFORT},
        {"reorder-vertices", no_argument, NULL, OPT_REORDER},
        {"remap", required_argument, NULL, OPT_REMAP},
        {"positions", no_argument, NULL, OPT_POSITIONS},
        {"json", no_argument, NULL, OPT_JSON},
        {"allow-external-uris", no_argument, NULL, OPT_EXTERNAL},
        {"overdraw-threshold", required_argument, NULL, OPT_OD_THRESHOLD},
        {"overdraw-lambda", required_argument, NULL, OPT_OD_LAMBDA},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char* algorithm_name = NULL;
    const char* out_path = NULL;
    const char* topology_name = NULL;
    const char* restart_text = NULL;
    const char* remap_path = NULL;
    const char* target_specs[MAX_TARGETS];
    size_t target_count = 0;
    long cache = 0, effort = 0;
    uint64_t seed = 0;
    int restart = 0, reorder = 0, json = 0;
    double od_threshold = 1.05, od_lambda = 0; /* the overdraw pass (docs/optimizers/tipsify.md) */
    const char* od_option = NULL;
    char* end = NULL;
    gc_load_options lo = {0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":a:m:o:t:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'a': algorithm_name = optarg; break;
        case 'm':
            if (target_count == MAX_TARGETS)
                return usage_error("at most %s targets", "16");
            target_specs[target_count++] = optarg;
            break;
        case 'o': out_path = optarg; break;
        case 't': topology_name = optarg; break;
        case OPT_RESTART:
            restart = 1;
            restart_text = optarg;
            break;
        case OPT_CACHE:
            if (parse_count(optarg, 3, 65536, &cache) != 0)
                return usage_error("--cache needs a size in [3, 65536], not '%s'", optarg);
            break;
        case OPT_SEED:
            if (parse_u64_arg(optarg, GC_PARSE_HEX, 0, UINT64_MAX, &seed) != 0)
                return usage_error("--seed needs an unsigned 64-bit number, not '%s'", optarg);
            break;
        case OPT_EFFORT:
            if (parse_count(optarg, 1, 4, &effort) != 0)
                return usage_error("--effort needs a level in [1, 4], not '%s'", optarg);
            break;
        case OPT_REORDER: reorder = 1; break;
        case OPT_REMAP: remap_path = optarg; break;
        case OPT_POSITIONS: lo.positions_only = 1; break;
        case OPT_JSON: json = 1; break;
        case OPT_EXTERNAL: lo.allow_external_uris = 1; break;
        case OPT_OD_THRESHOLD:
            od_threshold = strtod(optarg, &end), od_option = "--overdraw-threshold";
            if (end == optarg || *end || !(od_threshold >= 1 && od_threshold <= 1000))
                return usage_error("--overdraw-threshold needs a number in [1, 1000] (1: no overdraw pass), not '%s'",
                                   optarg);
            break;
        case OPT_OD_LAMBDA:
            od_lambda = strtod(optarg, &end), od_option = "--overdraw-lambda";
            if (end == optarg || *end || !(od_lambda >= 0 && od_lambda <= 3))
                return usage_error("--overdraw-lambda needs misses per triangle in [0, 3], not '%s'", optarg);
            break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!algorithm_name)
        return usage_error("optimize needs -a tipsify|forsyth|auto%s", "");
    const char* path;
    int input_status = one_input(argc, argv, "optimize", &path);
    if (input_status)
        return input_status;
    if (!out_path)
        return usage_error("optimize needs -o OUTPUT%s", "");
    if (remap_path && !reorder)
        return usage_error("--remap writes the map of renumbered vertices: it needs --reorder-vertices%s", "");
    if (is_gltf_path(path) && (topology_name || restart))
        return usage_error("%s does not apply to a glTF input (each primitive's mode is its topology)",
                           topology_name ? "-t" : "--restart");
    /* The OBJ and PLY writers copy the input around the new faces: they read it a second
     * time, which standard input cannot give; "-" is read as text indices here. */
    const char* stdin_format = gc_stdin_format(path);
    if (stdin_format && (!strcmp(stdin_format, "obj") || !strcmp(stdin_format, "ply")))
        return usage_error("%s: optimize reads an OBJ or a PLY twice (to copy it around the new faces): give the "
                           "file, not standard input",
                           path);
    const char* display_path = path;
    if (stdin_format && !*stdin_format)
        path = "txt:-";
    gc_error err = {0};
    /* -o -: the output is written to a file in a fresh temporary folder (the writers need
     * a file with the input's extension, and the OBJ and PLY writers the input beside
     * them), then copied to standard output and removed. */
    const char* write_path = out_path;
    char spool_dir[4096] = "", spool_path[4200] = "", spool_ext[20] = "";
    const int spool = is_stdio_path(out_path);
    if (spool) {
        const char* tmp = getenv("TMPDIR");
        const char* slash = strrchr(path, '/');
        const char* dot = strrchr(slash ? slash + 1 : path, '.');
        const char* stdin_format = gc_stdin_format(path);
        const char* ext = stdin_format ? (*stdin_format ? stdin_format : "txt") : !dot ? "txt" : dot + 1;
        if (strcasecmp(ext, "gltf") == 0)
            return usage_error("-o -: a .gltf output is two files (the .gltf and its .bin); give a file name%s", "");
        if (strlen(ext) > 16)
            return usage_error("%s: an extension this long is no mesh format", path);
        snprintf(spool_ext, sizeof spool_ext, "%s", ext);
        if (strlen(tmp && *tmp ? tmp : "/tmp") > 4000)
            return usage_error("TMPDIR %s: too long a path", tmp);
        snprintf(spool_dir, sizeof spool_dir, "%s/gpucache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        /* checked before the work in the temporary files' folder itself: the format */
        snprintf(spool_path, sizeof spool_path, "%s/out.%s", tmp && *tmp ? tmp : "/tmp", spool_ext);
        write_path = spool_path;
    }
    /* Before any work: the output's format and folder, and no file of the output (a .gltf's
     * .bin too) replacing a file of the input; nor one replacing a fit result given with
     * -m @FILE; the same for the vertex map, which is not the output either. */
    if (gc_mesh_write_check(path, write_path, &err))
        return fail_with(&err);
    if (spool && (input_status = check_output(out_path, NULL, 0)) != 0)
        return input_status;
    const char* inputs[1 + MAX_TARGETS] = {strcmp(path, "-") ? path : NULL};
    size_t input_count = 1;
    for (size_t i = 0; i < target_count; ++i)
        if (model_arg_file(target_specs[i]))
            inputs[input_count++] = model_arg_file(target_specs[i]);
    if (!spool && input_count > 1 && (input_status = check_output(out_path, inputs + 1, input_count - 1)) != 0)
        return input_status;
    if (remap_path) {
        if (gc_mesh_remap_check(path, reorder, &err))
            return fail_with(&err);
        if ((input_status = check_output(remap_path, inputs, input_count)) != 0)
            return input_status;
        if (!spool && same_output(remap_path, out_path))
            return usage_error("--remap %s: is the output (-o) too; the vertex map needs a file of its own",
                               remap_path);
    }
    gc_optimizer algorithm;
    if (gc_optimizer_parse(algorithm_name, &algorithm, &err))
        return fail_with(&err);
    if (od_option && algorithm != (strcmp(od_option, "--overdraw-lambda") ? GC_OPT_AUTO : GC_OPT_TIPSIFY))
        return usage_error(strcmp(od_option, "--overdraw-lambda") ? "%s is for -a auto" : "%s is for -a tipsify",
                           od_option);
    if (target_count && algorithm != GC_OPT_AUTO)
        return usage_error("-m targets are for -a auto; %s has its own cache model (--cache)", algorithm_name);
    gc_model targets[MAX_TARGETS];
    for (size_t i = 0; i < target_count; ++i)
        if (model_arg(target_specs[i], &targets[i], &err))
            return fail_with(&err);

    if (is_gltf_path(path)) {
        gc_model presets[MAX_REPORT_PRESETS + MAX_TARGETS];
        size_t preset_count = report_rows(presets, targets, target_count);
        gc_optimize_options options = {0};
        options.cache_size = (uint32_t)cache;
        options.seed = seed;
        options.effort = (unsigned)effort;
        options.targets = target_count ? targets : NULL;
        options.target_count = target_count;
        return optimize_gltf(path, out_path, algorithm, &options, reorder, json, lo.allow_external_uris, presets,
                             preset_count, target_count, inputs + 1, input_count - 1);
    }
    if (gc_mesh_write_reencodes(path))
        fprintf(stderr, "gpucache: warning: %s is written through assimp, which re-encodes the whole file "
                        "(vertices merged, indices widened, what assimp does not model dropped)\n", out_path);
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    int status = load_draw(path, &lo, topology_name, restart, restart_text, &in, &draw, &primitives);
    if (status)
        return status;
    snprintf(in.name, sizeof in.name, "%s", display_path);
    uint32_t* tri = NULL;
    uint32_t* out = NULL;
    size_t n = 0;
    if (draw.topology == GC_POINT_LIST || draw.topology == GC_LINE_LIST || draw.topology == GC_LINE_STRIP ||
        draw.topology == GC_LINE_LOOP) {
        fprintf(stderr, "gpucache: %s: a %s has no triangles to reorder\n", path, gc_topology_name(draw.topology));
        status = EXIT_USAGE;
        goto out;
    }
    /* Strips, fans, polygons and quads become the triangle list they draw. */
    size_t capacity = (size_t)primitives * 6 + 1;
    tri = malloc(capacity * sizeof *tri);
    if (!tri) {
        fprintf(stderr, "gpucache: %s: out of memory for a triangle list of %zu indices\n", path, capacity);
        status = EXIT_DATA;
        goto out;
    }
    if (gc_draw_triangles(&draw, tri, capacity, &n, &err)) {
        status = fail_with(&err);
        goto out;
    }
    /* The loaded buffer is no longer needed (only its runs are): freeing it and the
     * unused tail of the list keeps the input in memory once, not twice. */
    free(in.mesh.indices);
    in.mesh.indices = NULL;
    draw.indices = NULL;
    uint32_t* fitted = realloc(tri, (n ? n : 1) * sizeof *tri);
    if (fitted)
        tri = fitted;
    /* Before and after under every preset, then under each target (-m). The output is
     * analyzed as it will be numbered: in order of first use where the vertices are
     * renumbered (--reorder-vertices) or an OBJ reader numbers them so, which value-keyed
     * models (direct-value, llvmpipe) see. The input first, with its own index values. */
    gc_model presets[MAX_REPORT_PRESETS + MAX_TARGETS];
    gc_stats before[MAX_REPORT_PRESETS + MAX_TARGETS], after[MAX_REPORT_PRESETS + MAX_TARGETS];
    size_t preset_count = report_rows(presets, targets, target_count);
    const size_t row_count = preset_count + target_count;
    if ((status = analyze_all(tri, n, before, presets, row_count)))
        goto out;

    /* Sparse index values are renumbered for the optimizer and restored after it. */
    uint32_t* values = NULL;
    uint32_t dense_count = 0;
    if ((status = compact_indices(tri, n, &values, &dense_count)) != 0)
        goto out;
    uint64_t vertex_count = dense_count; /* the largest index + 1, or the compacted count */
    if (remap_path && values) { /* gc_mesh_write_remap would refuse it: say so before the work */
        fprintf(stderr, "gpucache: %s: index values up to %u in %zu indices: a vertex map with one entry per value "
                        "would be longer than 2 x indices + 65536 (--remap)\n",
                path, values[dense_count - 1], n);
        free(values);
        status = EXIT_DATA;
        goto out;
    }
    out = malloc((n ? n : 1) * sizeof *out);
    if (!out) {
        fprintf(stderr, "gpucache: %s: out of memory for the %zu reordered indices\n", path, n);
        status = EXIT_DATA;
        goto out;
    }
    const char* dot = strrchr(path, '.');
    const int is_obj = dot && strcasecmp(dot, ".obj") == 0;
    /* Each run of faces that shares render state is reordered on its own. */
    size_t single = n / 3;
    const size_t* runs = (in.mesh.runs && draw.topology == GC_TRIANGLE_LIST) ? in.mesh.runs : &single;
    size_t run_count = (in.mesh.runs && draw.topology == GC_TRIANGLE_LIST) ? in.mesh.run_count : 1;
    gc_optimize_options options = {0};
    options.cache_size = (uint32_t)cache;
    options.seed = seed;
    options.effort = (unsigned)effort;
    options.targets = target_count ? targets : NULL;
    options.target_count = target_count;
    /* the overdraw pass where the input has positions (an explicit option needs them) */
    float* positions = NULL;
    if ((algorithm == GC_OPT_AUTO && od_threshold > 1) || (algorithm == GC_OPT_TIPSIFY && od_lambda > 0)) {
        if ((status = optimize_positions(path, &lo, values, (uint32_t)vertex_count, od_option != NULL, &positions))) {
            free(values);
            goto out;
        }
    }
    options.positions = positions;
    options.overdraw_threshold = (float)od_threshold;
    options.overdraw_lambda = (float)od_lambda;
    progress prog = {now_seconds(), 0.0, 0, 0, 0, n};
    options.progress = show_progress;
    options.progress_user = &prog;
    size_t at = 0;
    for (size_t r = 0; r < run_count; ++r) {
        size_t len = runs[r] * 3;
        prog.done = at;
        prog.length = len;
        /* an OBJ reader numbers vertices in order of first use, as --reorder-vertices does */
        options.first_use_numbering = reorder || is_obj;
        options.stream_position = at;
        options.stream_length = n;
        if (gc_optimize(algorithm, tri + at, len, (uint32_t)vertex_count, &options, out + at, &err)) {
            if (prog.shown)
                fprintf(stderr, "\n");
            free(values);
            free(positions);
            status = fail_with(&err);
            goto out;
        }
        at += len;
        show_progress(&prog, 1, 1);
        verbose_note("optimize: run %zu of %zu: %zu triangles, done at %.3f s", r + 1, run_count, len / 3,
                     now_seconds() - prog.start);
    }
    free(positions);
    /* The output as it will be read, in `tri` (free now): renumbered in first-use order
     * (on the dense ids, so that sparse values cost nothing), or with its own values. */
    if (reorder || is_obj) {
        uint32_t* remap = malloc(((size_t)vertex_count ? (size_t)vertex_count : 1) * sizeof *remap);
        uint32_t used = 0;
        memcpy(tri, out, n * sizeof *tri);
        if (!remap || gc_reorder_vertices(tri, n, (uint32_t)vertex_count, remap, &used, &err)) {
            free(remap);
            free(values);
            fprintf(stderr, "gpucache: %s: out of memory renumbering the output for its report\n", path);
            status = EXIT_DATA;
            goto out;
        }
        free(remap);
    }
    if (values) {
        for (size_t i = 0; i < n; ++i)
            out[i] = values[out[i]];
        free(values);
        values = NULL;
    }
    if (!(reorder || is_obj))
        memcpy(tri, out, n * sizeof *tri);
    if ((status = analyze_all(tri, n, after, presets, row_count)))
        goto out;
    double seconds = now_seconds() - prog.start;
    if (prog.shown)
        fprintf(stderr, "\rgpucache: optimize: done in %.1f s            \n", seconds);

    /* an interruption while the temporaries exist takes effect once they are renamed or gone;
     * the vertex map's temporary exists before the output is written, so that a folder that
     * cannot take it fails before the output appears */
    atomic_file map_file;
    if (remap_path && atomic_open(&map_file, remap_path) != 0) {
        status = fail_with(&map_file.err);
        goto out;
    }
    uint32_t* map = NULL;
    size_t map_count = 0;
    signals_hold();
    gc_status written = GC_OK;
    if (spool) {
        if (!mkdtemp(spool_dir))
            written = gc_fail_message(&err, GC_ERR_IO, "-o -: cannot create a temporary folder", spool_dir);
        else
            snprintf(spool_path, sizeof spool_path, "%s/out.%s", spool_dir, spool_ext);
    }
    if (!written)
        written = remap_path ? gc_mesh_write_remap(path, &lo, out, n, reorder, write_path, &map, &map_count, &err)
                             : gc_mesh_write(path, &lo, out, n, reorder, write_path, &err);
    if (spool && !written)
        written = copy_to_stdout(spool_path, &err);
    if (spool && spool_dir[strlen(spool_dir) - 1] != 'X') {
        unlink(spool_path);
        rmdir(spool_dir);
    }
    signals_release();
    if (written) {
        if (remap_path)
            atomic_abort(&map_file);
        status = fail_with(&err);
        goto out;
    }
    if (remap_path) {
        /* one little-endian uint32 per input vertex: its new number, 0xFFFFFFFF if unused */
        for (size_t v = 0; v < map_count; ++v) {
            unsigned char b[4] = {(unsigned char)map[v], (unsigned char)(map[v] >> 8), (unsigned char)(map[v] >> 16),
                                  (unsigned char)(map[v] >> 24)};
            fwrite(b, 1, 4, map_file.f);
        }
        free(map);
        if (atomic_commit(&map_file) != 0) {
            status = fail_with(&map_file.err);
            goto out;
        }
    }
    char converted[128];
    snprintf(converted, sizeof converted, "(the %s input was converted to a triangle list)",
             gc_topology_name(draw.topology));
    report rep = {in.name, out_path, algorithm, n / 3, run_count, seconds, reorder,
                  draw.topology != GC_TRIANGLE_LIST ? converted : NULL, presets, before, after, preset_count,
                  target_count};
    status = print_report(&rep, json);
out:
    free(tri);
    free(out);
    gc_mesh_free(&in.mesh);
    return status;
}
