// SPDX-License-Identifier: MIT
/* The help text of the tool, in one place (help.c): the overview, each command's help,
 * the man page and the version line are all printed from its tables. */
#ifndef GPUCACHE_HELP_H
#define GPUCACHE_HELP_H

#include <stdio.h>

/* The overview: every command's usage and the shared sections (`gpucache help`). */
void print_help(FILE* f);
/* One command's usage, options and example (`gpucache COMMAND --help`); -1 when there is
 * no such command. */
int print_command_help(FILE* f, const char* name);
/* Whether `name` is a command. */
int help_has_command(const char* name);
/* The man page gpucache(1) in roff (`gpucache --man`, run by the build). */
void print_man(FILE* f);
/* The version and the build's features (`gpucache --version`). */
void print_version(FILE* f);
/* The command names, one a line (for shell completion: `gpucache --commands`). */
void print_command_names(FILE* f);

/* The MODEL section: every family's syntax with its defaults, from the family table
 * (gc_family_get; cmd_models.c). */
const char* model_help_text(void);

#endif
