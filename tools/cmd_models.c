// SPDX-License-Identifier: MIT
/* gpucache models: the model families (the library's table, gc_family_get) and the
 * presets, as text or JSON. */
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    gc_error err = {0};
    return gc_models_print(stdout, json, &err) ? fail_with(&err) : 0;
}
