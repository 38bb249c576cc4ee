// SPDX-License-Identifier: MIT
/* The help text of the tool, in one place (help.c): the overview, each command's help,
 * the man page and the version line are all printed from its tables. */
#ifndef GPUCACHE_HELP_H
#define GPUCACHE_HELP_H

#include <stddef.h>
#include <stdio.h>

/* The overview: every command's usage and the shared sections (`gpucache help`). */
void print_help(FILE* f);
/* One command's usage, options and example (`gpucache COMMAND --help`); -1 when there is
 * no such command. */
int print_command_help(FILE* f, const char* name);
/* The man page gpucache(1) in roff (`gpucache --man`, run by the build). */
void print_man(FILE* f);
/* The version and the build's features (`gpucache --version`). */
void print_version(FILE* f);
/* The command names, one a line (for shell completion: `gpucache --commands`). */
void print_command_names(FILE* f);

/* The MODEL section: every family's syntax with its defaults, from the family table
 * (gc_family_get; cmd_models.c). */
const char* model_help_text(void);

/* The tables of the help text, filled by help_load from tools/cli-help.txt (help.c) and
 * printed by help_print.c. */
typedef struct help_option {
    const char* flags; /* "-o, --output FILE" */
    const char* text;  /* what it does; may hold line breaks */
} help_option;

typedef struct help_command {
    const char* name;
    const char* summary;             /* one line */
    const char* const* usage;        /* lines after "gpucache ", NULL-terminated */
    const char* description;         /* a paragraph or two */
    const help_option* options;      /* {NULL, NULL}-terminated */
    const char* example;             /* one command line */
} help_command;

/* The sections every command shares, in the overview and the man page. */
typedef struct help_section {
    const char* title;
    const char* text;
} help_section;

/* Filled by help_load from tools/cli-help.txt (help.c). */
extern const help_command* help_commands;
extern size_t help_command_count;
extern const char* const* help_global_usage;
extern const help_option* help_global_options;
extern const help_section* help_sections;
extern size_t help_section_count;
/* Reads the tables once; every printer calls it first. */
void help_load(void);
/* The text of section i (the MODEL section's from the family table). */
const char* help_section_text(size_t i);

#endif
