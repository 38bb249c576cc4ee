// SPDX-License-Identifier: MIT
/* gpucache demo: a generated grid in several orders under every preset (gc_demo_print).
 * Needs no file. */
#include "cli.h"
#include "commands.h"
#include "help.h"

#include <string.h>

int cmd_demo(int argc, char** argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
        return print_command_help(stdout, "demo"), 0;
    int json = argc > 1 && strcmp(argv[1], "--json") == 0;
    if (argc > 1 && !json)
        return usage_error("demo takes only --json, not '%s'", argv[1]);
    gc_error err = {0};
    return gc_demo_print(stdout, json, &err) ? fail_with(&err) : 0;
}
