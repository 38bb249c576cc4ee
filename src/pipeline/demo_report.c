// SPDX-License-Identifier: MIT
/* `gpucache demo`'s report (gpucache_private.h): a 100x100 quad grid in four orders,
 * analyzed under every preset, as analyze's model rows. */
#include "pipeline.h"
#include "../strbuf.h"
#include "../table.h"
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>

gc_status gc_demo_print(FILE* f, int json, gc_error* err)
{
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
    gc_strbuf j = {0};
    if (json) {
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"input\": \"grid:%ux%u\", \"cache\": %u, \"layouts\": [", w, h, cache);
    } else {
        fprintf(f, "gpucache demo: a %ux%u quad grid (%u vertices, %u triangles) in four orders;\n", w, h,
                (w + 1) * (h + 1), 2 * w * h);
        fprintf(f, "striped and optimal layouts are built for a %u-entry cache (seed 002).\n\n", cache);
    }
    gc_table t; /* printed once every row is in (its widths) */
    gc_model_table_init(&t, 1);
    gc_status s = GC_OK;
    for (size_t o = 0; !s && o < sizeof orders / sizeof orders[0]; ++o) {
        size_t n = gc_grid_index_count(w, h, orders[o].layout, cache), written = 0;
        uint32_t* idx = malloc(n * sizeof *idx);
        if (!idx)
            s = gc_fail(err, GC_ERR_NOMEM, "out of memory for the grid's %zu indices", n);
        else
            s = gc_grid_generate(w, h, orders[o].layout, cache, idx, &written, err);
        if (!s && orders[o].shuffle)
            gc_shuffle_triangles(idx, written, 1);
        gc_draw draw = {idx, written, GC_TRIANGLE_LIST, 0, 0};
        if (!s && json)
            gc_sb_printf(&j, "%s{\"layout\": \"%s\", \"indices\": %zu, \"models\": [", o ? ", " : "", orders[o].name,
                         written);
        for (size_t p = 0; !s && p < gc_preset_count(); ++p) {
            const char *name, *spec, *source;
            gc_preset_get(p, &name, &spec, &source);
            gc_model model;
            gc_stats stats;
            if ((s = gc_model_parse(name, &model, err)) != GC_OK || (s = gc_analyze(&model, &draw, NULL, &stats, err)))
                break;
            if (json)
                gc_sb_printf(&j, "%s", p ? ", " : "");
            if (json)
                gc_model_json(&j, &model, &stats, -1, NULL, NULL, NULL);
            else
                gc_model_table_add(&t, orders[o].name, &model, &stats, -1);
        }
        if (json)
            gc_sb_printf(&j, "]}");
        else
            gc_table_blank(&t);
        free(idx);
    }
    if (!s && !json && gc_table_print(f, &t) != 0)
        s = gc_fail(err, GC_ERR_NOMEM, "out of memory for a table");
    gc_table_free(&t);
    if (s || !json) {
        free(j.data);
        if (!s)
            fprintf(f, "ATVR 1.0 is the ideal: every vertex shaded once. Analyze your own buffers with\n"
                       "  gpucache analyze [-m MODEL]... FILE   (see 'gpucache help')\n");
        return s;
    }
    gc_sb_printf(&j, "]}\n");
    return gc_sb_write(&j, f, err);
}
