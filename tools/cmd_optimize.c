// SPDX-License-Identifier: MIT
/* gpucache optimize: reorder a mesh's triangles with tipsify, forsyth or auto, write it
 * in the input's format, and show what the vendor presets say before and after. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "cli_options.h"
#include "optimize_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>


/* optimize on a .gltf/.glb: gc_mesh_optimize reorders the document in memory (each
 * indexed triangle list on its own), which is written back with everything it did not
 * rewrite unchanged; then the report of the presets and targets. */
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

static int optimize_gltf(const char* path, const char* out_path, const gc_mesh_optimize_options* mo, int json,
                         size_t preset_count, size_t target_count, const char* const* fit_files,
                         size_t fit_file_count)
{
    gc_error err = {0};
    gc_mesh_optimized r;
    double start = gc_now_seconds();
    if (gc_mesh_optimize(path, NULL, NULL, 0, mo, &r, &err))
        return fail_with(&err);
    double seconds = gc_now_seconds() - start;
    signals_hold();
    /* the set's members never replace a -m @FILE fit result (gc_gltf_write_inputs) */
    gc_status written = is_stdio_path(out_path) ? gltf_to_stdout(r.gltf, &err)
                                                : gc_gltf_write_inputs(r.gltf, out_path, fit_files, fit_file_count, &err);
    signals_release();
    int status = written ? fail_with(&err) : 0;
    if (!status) {
        char line[160];
        snprintf(line, sizeof line, "(%zu indexed triangle-list primitives reordered in place%s)", r.runs,
                 r.left ? "; strips, fans, non-indexed lists and shared index data left as they are" : "");
        gc_optimize_report rep = {path, out_path, mo->algorithm, r.triangles, r.runs, seconds, mo->reorder_vertices, line,
                      mo->report, r.before, r.after, preset_count, target_count, NULL};
        status = gc_optimize_report_print(stdout, &rep, json, &err) ? fail_with(&err) : 0;
    }
    gc_mesh_optimized_free(&r);
    return status;
}

/* --fetch: optimize reports fetch in meshopt:BYTES mode only */
static int parse_fetch(const char* value, void* dest)
{
    int status = parse_fetch_arg(value, dest);
    if (!status && !((fetch_arg*)dest)->spec.every_reference)
        return usage_error("--fetch %s: optimize reports fetch in meshopt:BYTES mode; analyze the output "
                           "with --fetch for a model's", value);
    return status;
}

int cmd_optimize(int argc, char** argv)
{
    const char *algorithm_name = NULL, *out_path = NULL, *topology_name = NULL, *restart_text = NULL;
    const char *remap_path = NULL, *restart = NULL, *od_option = NULL;
    const char* target_specs[MAX_TARGETS];
    size_t target_count = 0;
    long cache = 0, effort = 0, threads = 0;
    uint64_t seed = 0;
    int reorder = 0, json = 0;
    double od_threshold = 1.05, od_lambda = 0; /* the overdraw pass (docs/optimizers/tipsify.md) */
    gc_load_options lo = {0};
    /* the fetch optimize reports before and after: meshoptimizer's model, 32-byte vertices */
    fetch_arg fetch = {.text = "meshopt:32"};
    gc_error fetch_err = {0};
    gc_fetch_parse(fetch.text, &fetch.spec, &fetch_err);
    const cli_option options[] = {
        OPT_TEXT("--algorithm", &algorithm_name),
        OPT_LIST("--model", target_specs, &target_count, MAX_TARGETS, "at most %s targets"),
        OPT_TEXT("--output", &out_path),
        OPT_TEXT("--topology", &topology_name),
        OPT_TEXT("--restart", &restart_text, .given = &restart),
        OPT_COUNT("--cache", &cache, 3, 65536, "--cache needs a size in [3, 65536], not '%s'"),
        OPT_U64("--seed", &seed, 0, UINT64_MAX, GC_PARSE_HEX, "--seed needs an unsigned 64-bit number, not '%s'"),
        OPT_COUNT("--effort", &effort, 1, 4, "--effort needs a level in [1, 4], not '%s'"),
        OPT_COUNT("--threads", &threads, 1, 64, "--threads needs a count in [1, 64], not '%s'"),
        OPT_FLAG("--reorder-vertices", &reorder),
        OPT_TEXT("--remap", &remap_path),
        OPT_FLAG("--positions", &lo.positions_only),
        OPT_FLAG("--json", &json),
        OPT_FLAG("--allow-external-uris", &lo.allow_external_uris),
        OPT_REAL("--overdraw-threshold", &od_threshold, 1, 1000,
            "--overdraw-threshold needs a number in [1, 1000] (1: no overdraw pass), not '%s'", .given = &od_option),
        OPT_REAL("--overdraw-lambda", &od_lambda, 0, 3,
            "--overdraw-lambda needs misses per triangle in [0, 3], not '%s'", .given = &od_option),
        OPT_CALL("--fetch", &fetch, parse_fetch, NULL),
        OPT_END,
    };
    PARSE_OPTIONS(options);
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
    const int gltf = strcmp(gc_mesh_format(path), "gltf") == 0;
    if (gltf && (topology_name || restart))
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
        if (gc_model_arg_file(target_specs[i]))
            inputs[input_count++] = gc_model_arg_file(target_specs[i]);
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
        if (gc_model_arg(target_specs[i], &targets[i], &err))
            return fail_with(&err);

    gc_model presets[MAX_REPORT_PRESETS + MAX_TARGETS];
    size_t preset_count = report_rows(presets, targets, target_count);
    gc_mesh_optimize_options mo = {0};
    mo.algorithm = algorithm;
    mo.optimize.cache_size = (uint32_t)cache;
    mo.optimize.seed = seed;
    mo.optimize.effort = (unsigned)effort;
    mo.optimize.targets = target_count ? targets : NULL;
    mo.optimize.target_count = target_count;
    mo.optimize.threads = (unsigned)threads;
    mo.optimize.overdraw_threshold = (float)(effort == 1 && !od_option ? 1.0 : od_threshold); /* 1: fast */
    mo.optimize.overdraw_lambda = (float)od_lambda;
    mo.reorder_vertices = reorder;
    mo.fetch = &fetch.spec; /* the numbering is chosen for the fetch optimize reports */
    mo.vertex_map = remap_path != NULL;
    mo.positions = od_option ? 2 : 1; /* the overdraw pass where the input has positions */
    mo.load = &lo;
    mo.report = presets;
    mo.report_count = preset_count + target_count;
    mo.threads = 1;
    mo.note = print_note;
    if (gltf)
        return optimize_gltf(path, out_path, &mo, json, preset_count, target_count, inputs + 1, input_count - 1);
    if (gc_mesh_write_reencodes(path))
        fprintf(stderr, "gpucache: warning: %s is written through assimp, which re-encodes the whole file "
                        "(vertices merged, indices widened, what assimp does not model dropped)\n", out_path);
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    int status = load_draw(path, &lo, topology_name, restart != NULL, restart_text, &in, &draw, &primitives);
    if (status)
        return status;
    snprintf(in.name, sizeof in.name, "%s", display_path);
    progress_line prog;
    progress_init(&prog, "optimize");
    mo.optimize.progress = progress_report;
    mo.optimize.progress_user = &prog;
    gc_mesh_optimized r;
    gc_status s = gc_mesh_optimize(path, &draw, in.mesh.runs, in.mesh.run_count, &mo, &r, &err);
    double seconds = gc_now_seconds() - prog.start;
    progress_end(&prog);
    if (s) {
        gc_mesh_free(&in.mesh);
        if (s == GC_ERR_LIMIT && remap_path && strstr(err.message, "a vertex map with one entry per value")) {
            fprintf(stderr, "gpucache: %s (--remap)\n", err.message);
            return EXIT_DATA;
        }
        return fail_with(&err);
    }
    for (size_t k = 0; k < r.runs; ++k)
        verbose_note("optimize: run %zu of %zu: %zu triangles, done at %.3f s", k + 1, r.runs,
                     r.runs == in.mesh.run_count ? in.mesh.runs[k] : r.index_count / 3, seconds);
    size_t n = r.index_count;
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
            written = fail_message(&err, GC_ERR_IO, "-o -: cannot create a temporary folder", spool_dir);
        else
            snprintf(spool_path, sizeof spool_path, "%s/out.%s", spool_dir, spool_ext);
    }
    if (!written)
        written = gc_mesh_optimized_write(path, &lo, &r, write_path, remap_path ? &map : NULL, &map_count, &err);
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
    gc_optimize_costs costs;
    if (gc_optimize_costs_of(strcmp(path, "-") ? path : NULL, &lo, &r, reorder, fetch.text, &fetch.spec, &costs,
                             &err)) {
        status = fail_with(&err);
        goto out;
    }
    gc_optimize_report rep = {in.name, out_path, algorithm, n / 3, r.runs, seconds, reorder,
                  draw.topology != GC_TRIANGLE_LIST ? converted : NULL, presets, r.before, r.after, preset_count,
                  target_count, &costs};
    status = gc_optimize_report_print(stdout, &rep, json, &err) ? fail_with(&err) : 0;
out:
    gc_mesh_optimized_free(&r);
    gc_mesh_free(&in.mesh);
    return status;
}
