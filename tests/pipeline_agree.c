// SPDX-License-Identifier: MIT
/* The C API's side of tests/pipeline_agree_test.py (issue 28): what gc_mesh_analyze and
 * gc_mesh_optimize give for a file, printed as JSON for the test to compare with the
 * CLI's --json and the Python package.
 *
 *   pipeline_agree analyze FILE MODEL...           the sums and the draw count
 *   pipeline_agree optimize ALGORITHM MODEL FILE OUT  reordered for MODEL, written to OUT */
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const gc_error* err)
{
    fprintf(stderr, "pipeline_agree: %s\n", err->message);
    return 1;
}

static int analyze(const char* path, int count, char** specs)
{
    gc_error err = {0};
    gc_model models[64];
    if (count < 1 || count > 64)
        return 2;
    for (int i = 0; i < count; ++i)
        if (gc_model_parse(specs[i], &models[i], &err))
            return fail(&err);
    gc_mesh_analysis a;
    if (gc_mesh_analyze(path, NULL, models, (size_t)count, 1, &a, &err))
        return fail(&err);
    printf("{\"draws\": %zu, \"indices\": %llu, \"primitives\": %llu, \"vertices\": %llu, \"models\": [",
           a.draw_count, (unsigned long long)a.indices, (unsigned long long)a.primitives,
           (unsigned long long)a.vertices);
    for (int i = 0; i < count; ++i)
        printf("%s{\"model\": \"%s\", \"invocations\": %llu}", i ? ", " : "", models[i].name,
               (unsigned long long)a.sums[i].invocations);
    printf("]}\n");
    gc_mesh_analysis_free(&a);
    return 0;
}

static int optimize(const char* algorithm, const char* spec, const char* path, const char* out_path)
{
    gc_error err = {0};
    gc_model target;
    gc_mesh_optimize_options o = {0};
    if (gc_optimizer_parse(algorithm, &o.algorithm, &err) || gc_model_parse(spec, &target, &err))
        return fail(&err);
    if (o.algorithm == GC_OPT_AUTO) {
        o.optimize.targets = &target;
        o.optimize.target_count = 1;
    }
    o.positions = 1;
    gc_mesh_optimized r;
    if (gc_mesh_optimize(path, NULL, NULL, 0, &o, &r, &err))
        return fail(&err);
    gc_status s = r.gltf ? gc_gltf_write(r.gltf, out_path, &err)
                         : gc_mesh_write(path, NULL, r.indices, r.index_count, 0, out_path, &err);
    gc_mesh_optimized_free(&r);
    return s ? fail(&err) : 0;
}

int main(int argc, char** argv)
{
    if (argc >= 4 && !strcmp(argv[1], "analyze"))
        return analyze(argv[2], argc - 3, argv + 3);
    if (argc == 6 && !strcmp(argv[1], "optimize"))
        return optimize(argv[2], argv[3], argv[4], argv[5]);
    fprintf(stderr, "usage: pipeline_agree analyze FILE MODEL... | optimize ALGORITHM MODEL FILE OUT\n");
    return 2;
}
