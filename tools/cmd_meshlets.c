// SPDX-License-Identifier: MIT
/* gpucache meshlets: cut a mesh into meshlets (gc_meshlets_build: the meshlet grower's
 * order, then a scan), write it in INPUT's format with the triangles in meshlet order (as
 * optimize writes), and optionally the explicit arrays (--data) with bounds (--bounds).
 * docs/models/meshlets.md. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "cli_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --data's file and the output, committed together (signals held), then the report. */
static int write_outputs(const char* path, const char* out_path, const char* data_path, const gc_load_options* lo,
                         const gc_meshlets_cut* c, double start, int json)
{
    gc_error err = {0};
    gc_atomic_file data = {0};
    uint8_t* bytes = NULL;
    size_t size = 0;
    if (data_path &&
        (gc_meshlet_data_encode(&c->meshlets, &bytes, &size, &err) || gc_atomic_open(&data, data_path, &err))) {
        free(bytes);
        return fail_with(&err);
    }
    if (data_path)
        fwrite(bytes, 1, size, (FILE*)data.file);
    free(bytes);
    if (!c->doc && gc_mesh_write_reencodes(path))
        fprintf(stderr, "gpucache: warning: %s is written through assimp, which re-encodes the whole file\n",
                out_path);
    int status = 0;
    signals_hold();
    if (c->doc ? gc_gltf_write(c->doc, out_path, &err)
               : gc_mesh_write(path, lo, c->indices, c->index_count, 0, out_path, &err)) {
        if (data_path)
            gc_atomic_abort(&data);
        status = fail_with(&err);
    } else if (data_path && gc_atomic_commit(&data, &err)) {
        status = fail_with(&err);
    }
    signals_release();
    if (!status && gc_meshlets_report_print(stdout, path, out_path, c->doc ? &c->sum : &c->meshlets, c->runs,
                                            gc_now_seconds() - start, json, &err))
        status = fail_with(&err);
    return status;
}

int cmd_meshlets(int argc, char** argv)
{
    const char *out_path = NULL, *data_path = NULL, *target = NULL, *check_path = NULL;
    long v = 0, t = 0, effort = 0;
    uint64_t seed = 0;
    int bounds = 0, json = 0, scan_only = 0, no_local = 0, status = 0;
    gc_load_options lo = {0};
    const cli_option options[] = {
        OPT_TEXT("--check", &check_path),
        OPT_TEXT("--output", &out_path),
        OPT_COUNT("--max-vertices", &v, 3, GC_MESHLET_MAX_VERTICES,
            "--max-vertices %s: not a whole number from 3 to 256"),
        OPT_COUNT("--max-triangles", &t, 1, GC_MESHLET_MAX_TRIANGLES,
            "--max-triangles %s: not a whole number from 1 to 512"),
        OPT_TEXT("--target", &target),
        OPT_TEXT("--data", &data_path),
        OPT_FLAG("--bounds", &bounds),
        OPT_FLAG("--scan", &scan_only),
        OPT_FLAG("--no-local-order", &no_local),
        OPT_U64("--seed", &seed, 0, UINT64_MAX, GC_PARSE_HEX, "--seed %s: not a number"),
        OPT_COUNT("--effort", &effort, 1, 4, "--effort %s: not 1 to 4"),
        OPT_FLAG("--allow-external-uris", &lo.allow_external_uris),
        OPT_FLAG("--json", &json),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (check_path) {
        if (optind != argc || out_path || data_path || target || v || t)
            return usage_error("--check %s reads one data file and takes nothing else", check_path);
        gc_error err = {0};
        return gc_meshlet_file_print(stdout, check_path, NULL, &lo, json, &err) ? fail_with(&err) : 0;
    }
    if (target) {
        if (v || t)
            return usage_error("--target %s sets both limits: give it or --max-vertices/--max-triangles", target);
        const gc_meshlet_preset* p = NULL; /* the library's (docs/models/meshlets.md) */
        for (size_t k = 0; k < gc_meshlet_preset_count(); ++k)
            if (!strcmp(gc_meshlet_preset_at(k)->name, target))
                p = gc_meshlet_preset_at(k);
        if (!p)
            return usage_error("--target %s: unknown (presets: nvidia; AMD and Intel publish none, see "
                               "docs/models/meshlets.md)", target);
        v = p->max_vertices, t = p->max_triangles;
    }
    if (!v || !t)
        return usage_error("meshlets needs --max-vertices V and --max-triangles T, or --target PRESET%s", "");
    const char* path;
    if ((status = one_input(argc, argv, "meshlets", &path)) != 0)
        return status;
    if (!out_path)
        return usage_error("meshlets needs -o OUTPUT%s", "");
    if (bounds && !data_path)
        return usage_error("--bounds goes into the data file: give --data FILE too%s", "");
    if (gc_stdin_format(path) || is_stdio_path(out_path) || (data_path && is_stdio_path(data_path)))
        return usage_error("meshlets reads and writes files, not standard input or output ('%s')",
                           gc_stdin_format(path) ? path : "-");
    gc_error err = {0};
    if (gc_mesh_write_check(path, out_path, &err))
        return fail_with(&err);
    if (data_path) {
        const char* ins[2] = {path, out_path};
        if ((status = check_output(data_path, ins, 2)) != 0)
            return status;
    }
    gc_meshlet_options o = {0};
    o.max_vertices = (uint32_t)v, o.max_triangles = (uint32_t)t;
    o.keep_order = scan_only, o.local_order = !no_local, o.seed = seed, o.effort = (unsigned)effort;
    gc_meshlets_cut cut;
    double start = gc_now_seconds();
    if (!strcmp(gc_mesh_format(path), "gltf")) {
        gc_gltf_options go = {0};
        go.allow_external_uris = lo.allow_external_uris;
        go.note = print_note;
        if (gc_meshlets_cut_gltf(path, &go, &o, bounds, data_path != NULL, &cut, &err))
            return fail_with(&err);
    } else {
        input in;
        gc_draw draw;
        uint64_t primitives = 0;
        if ((status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives)) != 0)
            return status;
        start = gc_now_seconds();
        gc_status s = gc_meshlets_cut_mesh(path, &lo, &in.mesh, &draw, &o, bounds, &cut, &err);
        gc_mesh_free(&in.mesh);
        if (s)
            return fail_with(&err);
    }
    status = write_outputs(path, out_path, data_path, &lo, &cut, start, json);
    gc_meshlets_cut_free(&cut);
    return status;
}
