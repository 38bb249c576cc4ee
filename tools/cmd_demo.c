// SPDX-License-Identifier: MIT
/* gpucache demo: analyze a generated grid in several orders under every preset. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The main job on an embedded default: a 100x100 quad grid in four orders,
 * analyzed under every preset. Needs no file. */
int cmd_demo(int argc, char** argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
        return print_command_help(stdout, "demo"), 0;
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
    if (json) {
        sb_json_open(&j);
        sb_printf(&j, "\"input\": \"grid:%ux%u\", \"cache\": %u, \"layouts\": [", w, h, cache);
    } else {
        printf("gpucache demo: a %ux%u quad grid (%u vertices, %u triangles) in four orders;\n", w, h,
               (w + 1) * (h + 1), 2 * w * h);
        printf("striped and optimal layouts are built for a %u-entry cache (seed 002).\n\n", cache);
    }
    table t; /* the text table, printed once every row is in (table.h: widths) */
    gc_model_table_init(&t, 1);
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; ++o) {
        size_t n = gc_grid_index_count(w, h, orders[o].layout, cache);
        uint32_t* idx = malloc(n * sizeof *idx);
        if (!idx) {
            table_free(&t);
            return EXIT_DATA;
        }
        size_t written;
        if (gc_grid_generate(w, h, orders[o].layout, cache, idx, &written, &err)) {
            free(idx);
            table_free(&t);
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
            gc_model model;
            gc_stats stats;
            if (gc_model_parse(name, &model, &err) || gc_analyze(&model, &draw, NULL, &stats, &err)) {
                free(idx);
                free(j.data);
                table_free(&t);
                return fail_with(&err);
            }
            if (json) {
                if (p)
                    sb_printf(&j, ", ");
                gc_model_json(&j, &model, &stats, -1, NULL, NULL, NULL);
            } else {
                gc_model_table_add(&t, orders[o].name, &model, &stats, -1);
            }
        }
        if (json)
            sb_printf(&j, "]}");
        else
            table_blank(&t);
        free(idx);
    }
    int printed = json ? 0 : table_print(stdout, &t);
    table_free(&t);
    if (printed) {
        free(j.data);
        return EXIT_DATA;
    }
    if (json) {
        sb_printf(&j, "]}\n");
        return print_json_document(&j);
    }
    printf("ATVR 1.0 is the ideal: every vertex shaded once. Analyze your own buffers with\n"
           "  gpucache analyze [-m MODEL]... FILE   (see 'gpucache help')\n");
    return 0;
}
