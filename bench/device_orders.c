// SPDX-License-Identifier: MIT
/* The index buffers of a device measurement (scripts/measure-device.sh, docs/measuring.md):
 * for every mesh given, as raw little-endian .u32 triangle lists in OUTDIR,
 *   NAME.stored.u32     the mesh's own order (every face as triangles),
 *   NAME.shuffled.u32   its triangles shuffled (gc_shuffle_triangles, seed 7, as bench_speed),
 *   NAME.meshopt.u32    meshopt_optimizeVertexCache of the stored order (the linked release),
 *   NAME.auto-T.u32     gpucache's auto at the default effort of the stored order, for each
 *                       target T below ("presets": the four default presets together),
 * or with --set h100 (the follow-up of docs/models/nvidia-h100.md) the stored order and
 *   NAME.meshopt.u32               meshoptimizer's order (when --subdivide is given),
 *   NAME.meshopt-first-use.u32     meshoptimizer's order, vertices renumbered in first use,
 *   NAME.auto-nvidia-h100.u32      auto -m nvidia-h100, the numbering kept,
 *   NAME.auto-nvidia-h100-first-use.u32  auto -m nvidia-h100 told of first-use numbering,
 *                                  then renumbered so (what --reorder-vertices writes),
 * and OUTDIR/orders.tsv: file, mesh, order, triangles, vertices (one row per file). The
 * vertices keep their numbering, so every order of one mesh draws the same vertex set.
 *
 * usage: device_orders [--threads N] [--set h100] [--subdivide N] OUTDIR MESH...
 * --subdivide N cuts every triangle into four N times first (bench_subdivide, as bench_speed
 * does): NAME becomes NAME-sN.
 * Exit status 0 when every file was written, 1 otherwise. Deterministic: the same build
 * writes the same files (auto's output does not depend on --threads). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime in bench_util.h */
#include <gpucache/gpucache.h>
#include <meshoptimizer.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

static const char* const targets[] = {"presets",       "nvidia",     "nvidia-kepler", "nvidia-maxwell",
                                      "nvidia-pascal", "nvidia-dx",  "nvidia-gl"};
static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};

static int write_order(FILE* tsv, const char* dir, const char* mesh, const char* order, const uint32_t* idx,
                       size_t n, uint32_t vertices)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s.%s.u32", dir, mesh, order) >= sizeof path) {
        fprintf(stderr, "device_orders: path too long for %s\n", mesh);
        return 1;
    }
    FILE* f = fopen(path, "wb");
    if (!f || fwrite(idx, sizeof *idx, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "device_orders: cannot write %s\n", path);
        return 1;
    }
    fprintf(tsv, "%s.%s.u32\t%s\t%s\t%zu\t%u\n", mesh, order, mesh, order, n / 3, vertices);
    return 0;
}

/* The file name of a mesh path without its folder and extension, in letters, digits, '-'
 * and '_' only (other bytes become '_'), so that it is safe in a file name and a TSV. */
static void mesh_name(const char* path, char* out, size_t size)
{
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t k = 0;
    for (; base[k] && base[k] != '.' && k + 1 < size; ++k) {
        char c = base[k];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        out[k] = ok ? c : '_';
    }
    out[k] = 0;
}

/* The orders of the H100 follow-up (see the top), into out (n indices). */
static int h100_orders(FILE* tsv, const char* dir, const char* name, const uint32_t* idx, size_t n, uint32_t vertices,
                       unsigned threads, bool with_meshopt, uint32_t* out)
{
    uint32_t* remap = malloc((vertices ? vertices : 1) * sizeof *remap);
    if (!remap)
        return 1;
    int failed = 0;
    uint32_t used;
    gc_error err;
    meshopt_optimizeVertexCache(out, idx, n, vertices);
    if (with_meshopt)
        failed |= write_order(tsv, dir, name, "meshopt", out, n, vertices);
    if (gc_reorder_vertices(out, n, vertices, remap, &used, &err) != GC_OK) {
        fprintf(stderr, "device_orders: %s: %s\n", name, err.message);
        failed = 1;
    } else {
        failed |= write_order(tsv, dir, name, "meshopt-first-use", out, n, used);
    }
    gc_model target;
    if (gc_model_parse("nvidia-h100", &target, &err) != GC_OK) {
        fprintf(stderr, "device_orders: %s\n", err.message);
        free(remap);
        return 1;
    }
    gc_optimize_options o = {0};
    o.targets = &target;
    o.target_count = 1;
    o.threads = threads;
    for (int first_use = 0; first_use < 2; ++first_use) {
        const gc_optimize_placement place = {0, 0, first_use};
        if (gc_optimize_placed(GC_OPT_AUTO, idx, n, vertices, &o, &place, out, &err) != GC_OK) {
            fprintf(stderr, "device_orders: %s: auto -m nvidia-h100: %s\n", name, err.message);
            failed = 1;
            continue;
        }
        uint32_t count = vertices;
        if (first_use && gc_reorder_vertices(out, n, vertices, remap, &count, &err) != GC_OK) {
            fprintf(stderr, "device_orders: %s: %s\n", name, err.message);
            failed = 1;
            continue;
        }
        failed |= write_order(tsv, dir, name, first_use ? "auto-nvidia-h100-first-use" : "auto-nvidia-h100", out, n,
                              count);
    }
    free(remap);
    return failed;
}

int main(int argc, char** argv)
{
    unsigned threads = 1;
    bool h100 = false;
    int levels = 0, a = 1;
    for (;;) {
        if (a + 1 < argc && !strcmp(argv[a], "--threads")) {
            threads = (unsigned)strtoul(argv[a + 1], NULL, 10);
            a += 2;
        } else if (a + 1 < argc && !strcmp(argv[a], "--subdivide")) {
            levels = atoi(argv[a + 1]);
            a += 2;
        } else if (a + 1 < argc && !strcmp(argv[a], "--set") && !strcmp(argv[a + 1], "h100")) {
            h100 = true;
            a += 2;
        } else {
            break;
        }
    }
    if (argc - a < 2) {
        fprintf(stderr, "usage: device_orders [--threads N] [--set h100] [--subdivide N] OUTDIR MESH...\n");
        return 1;
    }
    const char* dir = argv[a++];
    char tsv_path[4096];
    snprintf(tsv_path, sizeof tsv_path, "%s/orders.tsv", dir);
    FILE* tsv = fopen(tsv_path, "w");
    if (!tsv) {
        fprintf(stderr, "device_orders: cannot write %s\n", tsv_path);
        return 1;
    }
    fprintf(tsv, "file\tmesh\torder\ttriangles\tvertices\n");
    int failed = 0;
    for (; a < argc; ++a) {
        uint32_t *idx, vertices;
        size_t n;
        if (bench_load_triangles(argv[a], &idx, &n, &vertices)) {
            failed = 1;
            continue;
        }
        char name[256];
        mesh_name(argv[a], name, sizeof name);
        for (int l = 0; l < levels; ++l)
            if (!bench_subdivide(&idx, &n, &vertices)) {
                fprintf(stderr, "device_orders: cannot subdivide %s\n", argv[a]);
                return 1;
            }
        if (levels > 0)
            snprintf(name + strlen(name), sizeof name - strlen(name), "-s%d", levels);
        uint32_t* out = malloc(n * sizeof *out + 4);
        if (!out) {
            fprintf(stderr, "device_orders: out of memory for %s\n", argv[a]);
            return 1;
        }
        failed |= write_order(tsv, dir, name, "stored", idx, n, vertices);
        if (h100) {
            failed |= h100_orders(tsv, dir, name, idx, n, vertices, threads, levels > 0, out);
            fprintf(stderr, "device_orders: %s: %zu triangles\n", name, n / 3);
            free(out);
            free(idx);
            continue;
        }
        memcpy(out, idx, n * sizeof *out);
        gc_shuffle_triangles(out, n, 7);
        failed |= write_order(tsv, dir, name, "shuffled", out, n, vertices);
        meshopt_optimizeVertexCache(out, idx, n, vertices);
        failed |= write_order(tsv, dir, name, "meshopt", out, n, vertices);
        for (size_t t = 0; t < sizeof targets / sizeof *targets; ++t) {
            bool all = !strcmp(targets[t], "presets");
            gc_model models[4];
            size_t count = all ? 4 : 1;
            gc_error err;
            for (size_t k = 0; k < count; ++k)
                if (gc_model_parse(all ? presets[k] : targets[t], &models[k], &err)) {
                    fprintf(stderr, "device_orders: %s\n", err.message);
                    return 1;
                }
            gc_optimize_options o = {0};
            o.targets = models;
            o.target_count = count;
            o.threads = threads;
            if (gc_optimize(GC_OPT_AUTO, idx, n, vertices, &o, out, &err)) {
                fprintf(stderr, "device_orders: %s: auto -m %s: %s\n", argv[a], targets[t], err.message);
                failed = 1;
                continue;
            }
            char order[64];
            snprintf(order, sizeof order, "auto-%s", targets[t]);
            failed |= write_order(tsv, dir, name, order, out, n, vertices);
        }
        fprintf(stderr, "device_orders: %s: %zu triangles\n", name, n / 3);
        free(out);
        free(idx);
    }
    if (fclose(tsv) != 0)
        failed = 1;
    return failed;
}
