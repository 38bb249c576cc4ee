// SPDX-License-Identifier: MIT
/* What analyze collects for each model beside the library's report (model_report.h). */
#define _POSIX_C_SOURCE 200809L
#include "model_report.h"
#include "gpucache/gpucache_validate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-vertex CSV: index, then one column of invocation counts per model. */
int write_per_vertex_csv(const char* path, const model_result* results, int count)
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
