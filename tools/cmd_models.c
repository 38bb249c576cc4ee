/* gpucache models: the model families (the library's table, gc_family_get) and the
 * presets, as text or JSON. */
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A family's summary on one line (JSON). */
static void one_line(const char* summary, char* out, size_t size)
{
    snprintf(out, size, "%s", summary);
    for (char* p = out; *p; ++p)
        if (*p == '\n')
            *p = ' ';
}

static int print_json(void)
{
    strbuf j = {0};
    sb_json_open(&j);
    sb_printf(&j, "\"families\": [");
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* f = gc_family_get(i);
        sb_printf(&j, "%s{\"family\": ", i ? ", " : "");
        sb_json_string(&j, f->name);
        sb_printf(&j, ", \"syntax\": ");
        sb_json_string(&j, f->syntax);
        sb_printf(&j, ", \"description\": ");
        char text[256];
        one_line(f->summary, text, sizeof text);
        sb_json_string(&j, text);
        sb_printf(&j, "}");
    }
    sb_printf(&j, "], \"presets\": [");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        sb_printf(&j, "%s{\"name\": ", i ? ", " : "");
        sb_json_string(&j, name);
        sb_printf(&j, ", \"spec\": ");
        sb_json_string(&j, spec);
        sb_printf(&j, ", \"source\": ");
        sb_json_string(&j, source);
        sb_printf(&j, "}");
    }
    sb_printf(&j, "]}\n");
    return print_json_document(&j);
}

int cmd_models(int argc, char** argv)
{
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return print_command_help(stdout, "models"), 0;
        else
            return usage_error("models takes only --json, not '%s'", argv[i]);
    }
    if (json)
        return print_json();
    printf("families:\n");
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* f = gc_family_get(i);
        const char* text = f->summary;
        const char* nl = strchr(text, '\n');
        /* a syntax wider than its column goes on a line of its own */
        if (strlen(f->syntax) > 31)
            printf("  %s\n  %-31s %.*s\n", f->syntax, "", nl ? (int)(nl - text) : (int)strlen(text), text);
        else
            printf("  %-31s %.*s\n", f->syntax, nl ? (int)(nl - text) : (int)strlen(text), text);
        if (nl)
            printf("  %-31s %s\n", "", nl + 1);
    }
    printf("presets:\n");
    /* name = spec source, the columns as wide as their widest cell (table.h) */
    static const table_column columns[] = {{NULL, 15, 0}, {NULL, 1, 0}, {NULL, 17, 0}, {NULL, 0, 0}};
    table t;
    table_init(&t, columns, 4, "  ");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        const char* cells[] = {name, "=", spec, source};
        table_row(&t, cells, NULL);
    }
    int printed = table_print(stdout, &t);
    table_free(&t);
    return printed ? EXIT_DATA : 0;
}
