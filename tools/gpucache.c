// SPDX-License-Identifier: MIT
/* gpucache: the command-line tool. This file dispatches to the commands, one file each
 * (cmd_*.c), which parse arguments, call the library and print; errors become exit
 * statuses: 2 for usage, 1 for bad data or any other failure. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static int is_flag(const char* arg, const char* s, const char* l)
{
    return strcmp(arg, s) == 0 || strcmp(arg, l) == 0;
}

/* -q/--quiet and -v/--verbose are the tool's, not a command's: taken out of the arguments
 * wherever they stand before a "--", so that every command accepts them. */
static int take_verbosity(int argc, char** argv)
{
    int kept = 1;
    int ended = 0;
    for (int i = 1; i < argc; ++i) {
        if (!ended && is_flag(argv[i], "-q", "--quiet")) {
            cli_verbosity = -1;
            continue;
        }
        if (!ended && is_flag(argv[i], "-v", "--verbose")) {
            cli_verbosity = 1;
            continue;
        }
        ended |= strcmp(argv[i], "--") == 0;
        argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    return kept;
}

static const struct {
    const char* name;
    int (*run)(int argc, char** argv);
} commands[] = {
    {"analyze", cmd_analyze}, {"demo", cmd_demo}, {"probe", cmd_probe}, {"introspect", cmd_introspect},
    {"fit", cmd_fit}, {"optimize", cmd_optimize}, {"meshlets", cmd_meshlets}, {"grid", cmd_grid},
    {"sweep", cmd_sweep}, {"validate", cmd_validate}, {"report", cmd_report}, {"memsys", cmd_memsys},
    {"models", cmd_models},
};

static int run_command(int argc, char** argv)
{
    argc = take_verbosity(argc, argv);
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    const char* cmd = argv[1];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (strcmp(cmd, "help") == 0 || is_flag(cmd, "-h", "--help")) {
        if (argc > 3)
            return usage_error("help takes one COMMAND, got also '%s'", argv[3]);
        /* help COMMAND, --help COMMAND: that command's help */
        if (argc == 3) {
            if (is_flag(argv[2], "-h", "--help"))
                return print_command_help(stdout, "help"), 0;
            if (print_command_help(stdout, argv[2]) != 0)
                return usage_error("unknown command '%s'", argv[2]);
            return 0;
        }
        print_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        print_version(stdout);
        return 0;
    }
    /* for the build (the man page) and the shell completion; not in the help */
    if (strcmp(cmd, "--man") == 0) {
        print_man(stdout);
        return 0;
    }
    if (strcmp(cmd, "--commands") == 0) {
        print_command_names(stdout);
        return 0;
    }
    return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char** argv)
{
    /* A file over the size limit (ulimit -f) must fail its write (EFBIG), reported and
     * cleaned up like any other write error, instead of killing the tool mid-file. */
    signal(SIGXFSZ, SIG_IGN);
    /* every command's standard output is checked once here, at the end */
    return finish_stdout(run_command(argc, argv));
}
