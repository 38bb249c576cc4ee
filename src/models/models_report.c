// SPDX-License-Identifier: MIT
/* `gpucache models` (gc_models_print, gpucache_private.h): the family table (gc_family_get)
 * and the presets, as text or JSON. */
#include "models.h"
#include "../strbuf.h"
#include "../table.h"
#include "gpucache_private.h"

#include <string.h>

/* A family's summary on one line (JSON). */
static void one_line(const char* summary, char* out, size_t size)
{
    snprintf(out, size, "%s", summary);
    for (char* p = out; *p; ++p)
        if (*p == '\n')
            *p = ' ';
}

static gc_status print_json(FILE* f, gc_error* err)
{
    gc_strbuf j = {0};
    gc_sb_json_open(&j);
    gc_sb_printf(&j, "\"families\": [");
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* fam = gc_family_get(i);
        gc_sb_printf(&j, "%s{\"family\": ", i ? ", " : "");
        gc_sb_json_string(&j, fam->name);
        gc_sb_printf(&j, ", \"syntax\": ");
        gc_sb_json_string(&j, fam->syntax);
        gc_sb_printf(&j, ", \"description\": ");
        char text[256];
        one_line(fam->summary, text, sizeof text);
        gc_sb_json_string(&j, text);
        gc_sb_printf(&j, "}");
    }
    gc_sb_printf(&j, "], \"presets\": [");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        gc_sb_printf(&j, "%s{\"name\": ", i ? ", " : "");
        gc_sb_json_string(&j, name);
        gc_sb_printf(&j, ", \"spec\": ");
        gc_sb_json_string(&j, spec);
        gc_sb_printf(&j, ", \"source\": ");
        gc_sb_json_string(&j, source);
        gc_sb_printf(&j, "}");
    }
    gc_sb_printf(&j, "]}\n");
    return gc_sb_write(&j, f, err);
}

gc_status gc_models_print(FILE* f, int json, gc_error* err)
{
    if (json)
        return print_json(f, err);
    fprintf(f, "families:\n");
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* fam = gc_family_get(i);
        const char* text = fam->summary;
        const char* nl = strchr(text, '\n');
        /* a syntax wider than its column goes on a line of its own */
        if (strlen(fam->syntax) > 31)
            fprintf(f, "  %s\n  %-31s %.*s\n", fam->syntax, "", nl ? (int)(nl - text) : (int)strlen(text), text);
        else
            fprintf(f, "  %-31s %.*s\n", fam->syntax, nl ? (int)(nl - text) : (int)strlen(text), text);
        if (nl)
            fprintf(f, "  %-31s %s\n", "", nl + 1);
    }
    fprintf(f, "presets:\n");
    /* name = spec source, the columns as wide as their widest cell (table.h) */
    static const gc_table_column columns[] = {{NULL, 15, 0}, {NULL, 1, 0}, {NULL, 17, 0}, {NULL, 0, 0}};
    gc_table t;
    gc_table_init(&t, columns, 4, "  ");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        const char* cells[] = {name, "=", spec, source};
        gc_table_row(&t, cells, NULL);
    }
    int printed = gc_table_print(f, &t);
    gc_table_free(&t);
    return printed ? gc_fail(err, GC_ERR_NOMEM, "out of memory for a table") : GC_OK;
}
