/* gpucache models: the model families and the presets, as text or JSON. */
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The families: their spec syntax and what they are (the text and the JSON). */
static const struct {
    const char* syntax;
    const char* text;
} families[] = {
    {"fifo:N", "FIFO of N entries; a hit does not refresh (seeds 000-002)"},
    {"lru:N", "least recently used, N entries (seeds 000, 002)"},
    {"direct-value:N", "slot = index value mod N (seed 000)"},
    {"direct-position:N", "slot = stream position mod N (seed 000)"},
    {"nvidia[:size=,idle=,life=]", "seed 000's probed NVIDIA rules (32, 16, 32)"},
    {"meshopt:C,W,P", "meshoptimizer 0.18's analyzer (cache, warp, primitive group)"},
    {"reuse:W,F,T", "seed 002's warp reuse (warp, compare window, triangles)"},
    {"batch[:slots=,prims=]", "seed 004's data assembler batches (32 slots)"},
    {"llvmpipe[:segment=,map=]", "Mesa's draw module (llvmpipe, lavapipe): 1024-index segments,\n"
                                 "256-entry direct-mapped fetch table (measured on lavapipe)"},
    {"nv-dx[:indices=,vertices=]", "Kerbl et al. 2018's NVIDIA Direct3D batches (96 indices, 32\n"
                                   "invocations; reuse window by the slot of the last use)"},
    {"nv-gl[:indices=,vertices=,window=]", "the same under OpenGL: a fixed 42-index window"},
    {"batch-all[:indices=,vertices=,reset=]", "Kerbl et al.'s full reuse inside batches (Intel bound 1791, 128)"},
    {"ati[:lru=,vertices=,reset=]", "Kerbl et al.'s AMD rule: LRU 15, 64-invocation batches cut inside\n"
                                    "triangles, hard reset every 384 indices"},
};

static int print_json(void)
{
    strbuf j = {0};
    sb_json_open(&j);
    sb_printf(&j, "\"families\": [");
    for (size_t i = 0; i < sizeof families / sizeof families[0]; ++i) {
        /* the family's name is its syntax up to the first ':' or '[' */
        size_t n = strcspn(families[i].syntax, ":[");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)n, families[i].syntax);
        sb_printf(&j, "%s{\"family\": ", i ? ", " : "");
        sb_json_string(&j, name);
        sb_printf(&j, ", \"syntax\": ");
        sb_json_string(&j, families[i].syntax);
        sb_printf(&j, ", \"description\": ");
        /* one line in JSON */
        char text[256];
        snprintf(text, sizeof text, "%s", families[i].text);
        for (char* p = text; *p; ++p)
            if (*p == '\n')
                *p = ' ';
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
    for (size_t i = 0; i < sizeof families / sizeof families[0]; ++i) {
        const char* text = families[i].text;
        const char* nl = strchr(text, '\n');
        /* a syntax wider than its column goes on a line of its own */
        if (strlen(families[i].syntax) > 31)
            printf("  %s\n  %-31s %.*s\n", families[i].syntax, "", nl ? (int)(nl - text) : (int)strlen(text), text);
        else
            printf("  %-31s %.*s\n", families[i].syntax, nl ? (int)(nl - text) : (int)strlen(text), text);
        if (nl)
            printf("  %-31s %s\n", "", nl + 1);
    }
    printf("presets:\n");
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        printf("  %-15s = %-17s %s\n", name, spec, source);
    }
    return 0;
}
