/* The help text every command prints for --help (help.c). */
#ifndef GPUCACHE_HELP_H
#define GPUCACHE_HELP_H

#include <stdio.h>

void print_help(FILE* f);

#endif
