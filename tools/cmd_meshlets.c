// SPDX-License-Identifier: MIT
/* gpucache meshlets: cut a mesh into meshlets (gc_meshlets_build: the meshlet grower's
 * order, then a scan), write it in INPUT's format with the triangles in meshlet order (as
 * optimize writes), and optionally the explicit arrays (--data) with bounds (--bounds).
 * docs/models/meshlets.md. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "help.h"
#include "meshlets_cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Presets: only vendors that publish a recommendation (sources in docs/models/meshlets.md). */
/* The triangle list renumbered in place to dense ids when its values are sparse
 * (gc_mesh_dense_triangles); *values then maps ids back (NULL when nothing changed). */
static int dense_in_place(const char* what, uint32_t* tri, size_t n, uint32_t** values, uint32_t* bound)
{
    gc_draw d = {tri, n, GC_TRIANGLE_LIST, 0, 0};
    uint32_t* dense = NULL;
    size_t count = 0;
    gc_error err = {0};
    if (gc_mesh_dense_triangles(&d, what, &dense, &count, values, bound, &err))
        return fail_with(&err);
    memcpy(tri, dense, n * sizeof *tri);
    free(dense);
    return 0;
}

static const struct {
    const char* name;
    uint32_t v, t;
} presets[] = {
    {"nvidia", 64, 126}, /* Kubisch, "Introduction to Turing Mesh Shaders", NVIDIA blog, 2018 */
};

/* Builds the meshlets of every run of `tri` (n indices, ids below vertex_count) into *m. */
static int build_runs(const char* path, const uint32_t* tri, size_t n, uint32_t vertex_count, const size_t* runs,
                      size_t run_count, const gc_meshlet_options* o, gc_meshlets* m)
{
    gc_error err = {0};
    size_t at = 0;
    for (size_t r = 0; r < run_count; ++r) {
        size_t len = runs[r] * 3;
        if (len > n - at) {
            fprintf(stderr, "gpucache: %s: runs longer than the triangle list\n", path);
            return EXIT_DATA;
        }
        if (gc_meshlets_build(tri + at, len, vertex_count, o, m, &err))
            return fail_with(&err);
        at += len;
    }
    return 0;
}

/* glTF: every indexed triangle list rewritten in place, each its own draw (its own set of
 * meshlets, summed in the report). --data needs exactly one such primitive. */
static int meshlets_gltf(const char* path, const char* out_path, const gc_meshlet_options* o, int allow_external,
                         const char* data_path, int bounds, int json)
{
    gc_error err = {0};
    gc_gltf_options go = {0};
    go.allow_external_uris = allow_external;
    go.note = print_note;
    gc_gltf* doc = NULL;
    if (gc_gltf_load(path, &go, &doc, &err))
        return fail_with(&err);
    gc_meshlets sum = {0}, one = {0};
    uint32_t* original = NULL; /* --bounds: the draw's index values as in the file */
    size_t original_count = 0;
    sum.max_vertices = o->max_vertices, sum.max_triangles = o->max_triangles;
    int status = 0;
    size_t runs = 0;
    double start = now_seconds();
    for (size_t i = 0; i < gc_gltf_primitive_count(doc) && !status; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        if (p->topology != GC_TRIANGLE_LIST || !p->index_bits || p->index_count == 0 || p->indices_kept ||
            p->shares_indices_with != SIZE_MAX) {
            if (p->topology == GC_TRIANGLE_STRIP || p->topology == GC_TRIANGLE_FAN || p->indices_kept)
                note("%s: meshes[%zu].primitives[%zu] left as it is (only indexed triangle lists are cut)", path,
                     p->mesh, p->primitive);
            continue;
        }
        size_t n = p->index_count;
        uint32_t* tri = malloc(n * sizeof *tri);
        uint32_t* out = malloc(n * sizeof *out);
        uint32_t* values = NULL;
        uint32_t vc = 0;
        size_t written = 0;
        gc_meshlets_free(&one);
        if (!tri || !out) {
            fprintf(stderr, "gpucache: %s: out of memory for %zu indices\n", path, n);
            status = EXIT_DATA;
        } else {
            memcpy(tri, p->indices, n * sizeof *tri);
            size_t whole = n / 3;
            if (!(status = dense_in_place(path, tri, n, &values, &vc)) &&
                !(status = build_runs(path, tri, n, vc, &whole, 1, o, &one))) {
                if (gc_meshlets_expand(&one, out, n, &written, &err))
                    status = fail_with(&err);
            }
        }
        if (!status && bounds && !original) {
            original = malloc(n * sizeof *original);
            if (original)
                memcpy(original, p->indices, n * sizeof *original), original_count = n;
        }
        if (!status && values) {
            for (size_t k = 0; k < n; ++k)
                out[k] = values[out[k]];
            for (size_t k = 0; k < one.vertex_count; ++k)
                one.vertices[k] = values[one.vertices[k]];
        }
        if (!status && gc_gltf_set_indices(doc, i, out, n, &err))
            status = fail_with(&err);
        free(values);
        free(tri);
        free(out);
        if (status)
            break;
        runs++;
        sum.meshlet_count += one.meshlet_count;
        sum.vertex_count += one.vertex_count;
        sum.triangle_count += one.triangle_count;
    }
    if (!status && data_path && runs != 1) {
        fprintf(stderr, "gpucache: %s: --data writes one draw's meshlets; this file has %zu indexed triangle lists "
                        "(split it, or leave out --data)\n", path, runs);
        status = EXIT_USAGE;
    }
    if (!status && bounds) {
        float* xyz = NULL;
        size_t first = 0, count = 0;
        if (!original)
            fprintf(stderr, "gpucache: %s: out of memory for the draw's indices\n", path), status = EXIT_DATA;
        else if (!(status = gltf_draw_positions(path, allow_external, original, original_count, &xyz, &first, &count)) &&
                 gc_meshlets_compute_bounds(&one, xyz + 3 * first, count - first, 0, &err))
            status = fail_with(&err);
        free(xyz);
    }
    free(original);
    gc_atomic_file data = {0};
    uint8_t* bytes = NULL;
    size_t size = 0;
    if (!status && data_path) {
        if (gc_meshlet_data_encode(&one, &bytes, &size, &err) || gc_atomic_open(&data, data_path, &err))
            status = fail_with(&err);
        else
            fwrite(bytes, 1, size, (FILE*)data.file);
    }
    if (!status) {
        signals_hold();
        if (gc_gltf_write(doc, out_path, &err))
            status = fail_with(&err);
        else if (data_path && gc_atomic_commit(&data, &err))
            status = fail_with(&err);
        signals_release();
    }
    if (status && data.file)
        gc_atomic_abort(&data);
    free(bytes);
    if (!status)
        status = meshlets_report(path, out_path, &sum, runs, now_seconds() - start, json);
    gc_meshlets_free(&one);
    gc_gltf_free(doc);
    return status;
}

int cmd_meshlets(int argc, char** argv)
{
    enum { OPT_V = 256, OPT_T, OPT_TARGET, OPT_DATA, OPT_BOUNDS, OPT_JSON, OPT_SEED, OPT_EFFORT, OPT_SCAN,
           OPT_NO_LOCAL, OPT_EXTERNAL, OPT_CHECK };
    static const struct option long_options[] = {
        {"output", required_argument, NULL, 'o'},
        {"max-vertices", required_argument, NULL, OPT_V},
        {"max-triangles", required_argument, NULL, OPT_T},
        {"target", required_argument, NULL, OPT_TARGET},
        {"data", required_argument, NULL, OPT_DATA},
        {"bounds", no_argument, NULL, OPT_BOUNDS},
        {"json", no_argument, NULL, OPT_JSON},
        {"seed", required_argument, NULL, OPT_SEED},
        {"effort", required_argument, NULL, OPT_EFFORT},
        {"scan", no_argument, NULL, OPT_SCAN},
        {"no-local-order", no_argument, NULL, OPT_NO_LOCAL},
        {"allow-external-uris", no_argument, NULL, OPT_EXTERNAL},
        {"check", required_argument, NULL, OPT_CHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char* out_path = NULL;
    const char* data_path = NULL;
    const char* target = NULL;
    const char* check_path = NULL;
    long v = 0, t = 0, effort = 0;
    uint64_t seed = 0;
    int bounds = 0, json = 0, scan_only = 0, local = 1;
    gc_load_options lo = {0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case OPT_V:
            if (parse_count(optarg, 0, 1000000, &v) || v < 3 || v > GC_MESHLET_MAX_VERTICES)
                return usage_error("--max-vertices %s: not a whole number from 3 to 256", optarg);
            break;
        case OPT_T:
            if (parse_count(optarg, 0, 1000000, &t) || t < 1 || t > GC_MESHLET_MAX_TRIANGLES)
                return usage_error("--max-triangles %s: not a whole number from 1 to 512", optarg);
            break;
        case OPT_TARGET: target = optarg; break;
        case OPT_DATA: data_path = optarg; break;
        case OPT_BOUNDS: bounds = 1; break;
        case OPT_JSON: json = 1; break;
        case OPT_SEED:
            if (parse_u64_arg(optarg, GC_PARSE_HEX, 0, UINT64_MAX, &seed))
                return usage_error("--seed %s: not a number", optarg);
            break;
        case OPT_EFFORT:
            if (parse_count(optarg, 1, 4, &effort))
                return usage_error("--effort %s: not 1 to 4", optarg);
            break;
        case OPT_SCAN: scan_only = 1; break;
        case OPT_NO_LOCAL: local = 0; break;
        case OPT_EXTERNAL: lo.allow_external_uris = 1; break;
        case OPT_CHECK: check_path = optarg; break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (check_path) {
        if (optind != argc || out_path || data_path || target || v || t)
            return usage_error("--check %s reads one data file and takes nothing else", check_path);
        return meshlets_check_file(check_path, json);
    }
    if (target) {
        if (v || t)
            return usage_error("--target %s sets both limits: give it or --max-vertices/--max-triangles", target);
        size_t k = 0;
        while (k < sizeof presets / sizeof presets[0] && strcmp(presets[k].name, target) != 0)
            ++k;
        if (k == sizeof presets / sizeof presets[0])
            return usage_error("--target %s: unknown (presets: nvidia; AMD and Intel publish none, see "
                               "docs/models/meshlets.md)", target);
        v = presets[k].v, t = presets[k].t;
    }
    if (!v || !t)
        return usage_error("meshlets needs --max-vertices V and --max-triangles T, or --target PRESET%s", "");
    const char* path;
    int status = one_input(argc, argv, "meshlets", &path);
    if (status)
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
    o.keep_order = scan_only, o.local_order = local, o.seed = seed, o.effort = (unsigned)effort;
    if (!strcmp(gc_mesh_format(path), "gltf")) {
        return meshlets_gltf(path, out_path, &o, lo.allow_external_uris, data_path, bounds, json);
    }
    input in;
    gc_draw draw;
    uint64_t primitives = 0;
    if ((status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives)) != 0)
        return status;
    if (draw.topology != GC_TRIANGLE_LIST || draw.restart_enabled) {
        fprintf(stderr, "gpucache: %s: a %s: meshlets are cut from a triangle list; convert it first (gpucache "
                        "optimize -a auto %s -o LIST writes its triangles as a list)\n",
                path, gc_topology_name(draw.topology), path);
        gc_mesh_free(&in.mesh);
        return EXIT_USAGE;
    }
    size_t n = in.mesh.index_count;
    uint32_t* tri = in.mesh.indices;
    uint32_t* out = malloc((n ? n : 1) * sizeof *out);
    uint32_t* values = NULL;
    uint32_t vc = 0;
    float* xyz = NULL;
    size_t xyz_count = 0;
    gc_meshlets m = {0};
    m.max_vertices = o.max_vertices, m.max_triangles = o.max_triangles;
    double start = now_seconds();
    size_t single = n / 3;
    const size_t* runs = in.mesh.runs ? in.mesh.runs : &single;
    size_t run_count = in.mesh.runs ? in.mesh.run_count : 1;
    if (!out) {
        fprintf(stderr, "gpucache: %s: out of memory for %zu indices\n", path, n);
        status = EXIT_DATA;
        goto done;
    }
    if (bounds && gc_mesh_load_positions(path, &lo, &xyz, &xyz_count, &err)) {
        status = fail_with(&err);
        goto done;
    }
    if ((status = dense_in_place(path, tri, n, &values, &vc)) != 0 ||
        (status = build_runs(path, tri, n, vc, runs, run_count, &o, &m)) != 0)
        goto done;
    size_t written = 0;
    if (gc_meshlets_expand(&m, out, n, &written, &err)) {
        status = fail_with(&err);
        goto done;
    }
    if (values) { /* back to the input's own index values */
        for (size_t k = 0; k < n; ++k)
            out[k] = values[out[k]];
        for (size_t k = 0; k < m.vertex_count; ++k)
            m.vertices[k] = values[m.vertices[k]];
    }
    if (bounds && gc_meshlets_compute_bounds(&m, xyz, xyz_count, 0, &err)) {
        status = fail_with(&err);
        goto done;
    }
    const char* dot = strrchr(path, '.');
    if (dot && strcasecmp(dot, ".obj") == 0 && m.vertex_count) {
        /* an OBJ reader numbers the output's vertices by first use: the data file says so too */
        uint32_t* renum = malloc(n * sizeof *renum);
        uint32_t* remap = malloc(((size_t)vc ? vc : 1) * sizeof *remap);
        uint32_t used = 0;
        if (!renum || !remap) {
            free(renum), free(remap);
            fprintf(stderr, "gpucache: %s: out of memory renumbering the output\n", path);
            status = EXIT_DATA;
            goto done;
        }
        memcpy(renum, out, n * sizeof *renum);
        if (values || gc_reorder_vertices(renum, n, vc, remap, &used, &err)) {
            free(renum), free(remap);
            fprintf(stderr, "gpucache: %s: cannot renumber the output's vertices\n", path);
            status = EXIT_DATA;
            goto done;
        }
        for (size_t k = 0; k < m.vertex_count; ++k)
            m.vertices[k] = remap[m.vertices[k]];
        free(renum), free(remap);
    }
    uint8_t* bytes = NULL;
    size_t size = 0;
    gc_atomic_file data = {0};
    if (data_path && (gc_meshlet_data_encode(&m, &bytes, &size, &err) || gc_atomic_open(&data, data_path, &err))) {
        free(bytes);
        status = fail_with(&err);
        goto done;
    }
    if (data_path)
        fwrite(bytes, 1, size, (FILE*)data.file);
    free(bytes);
    if (gc_mesh_write_reencodes(path))
        fprintf(stderr, "gpucache: warning: %s is written through assimp, which re-encodes the whole file\n",
                out_path);
    signals_hold();
    if (gc_mesh_write(path, &lo, out, n, 0, out_path, &err)) {
        if (data_path)
            gc_atomic_abort(&data);
        status = fail_with(&err);
    } else if (data_path && gc_atomic_commit(&data, &err)) {
        status = fail_with(&err);
    }
    signals_release();
    if (!status)
        status = meshlets_report(path, out_path, &m, run_count, now_seconds() - start, json);
done:
    free(values);
    free(out);
    free(xyz);
    gc_meshlets_free(&m);
    gc_mesh_free(&in.mesh);
    return status;
}
