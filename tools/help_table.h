// SPDX-License-Identifier: MIT
/* The tables of the help text (help.c, from tools/cli-help.txt), shared with the man page and the version
 * (help_print.c). */
#ifndef GPUCACHE_HELP_TABLE_H
#define GPUCACHE_HELP_TABLE_H

#include <stddef.h>

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
