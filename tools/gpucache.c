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

static int run_command(int argc, char** argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    const char* cmd = argv[1];
    if (strcmp(cmd, "analyze") == 0)
        return cmd_analyze(argc - 1, argv + 1);
    if (strcmp(cmd, "demo") == 0)
        return cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "probe") == 0)
        return cmd_probe(argc - 1, argv + 1);
    if (strcmp(cmd, "introspect") == 0)
        return cmd_introspect(argc - 1, argv + 1);
    if (strcmp(cmd, "fit") == 0)
        return cmd_fit(argc - 1, argv + 1);
    if (strcmp(cmd, "optimize") == 0)
        return cmd_optimize(argc - 1, argv + 1);
    if (strcmp(cmd, "grid") == 0)
        return cmd_grid(argc - 1, argv + 1);
    if (strcmp(cmd, "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "memsys") == 0)
        return cmd_memsys(argc - 1, argv + 1);
    if (strcmp(cmd, "models") == 0)
        return cmd_models();
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("gpucache %s\n", GPUCACHE_VERSION_STRING);
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
