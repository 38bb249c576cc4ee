// SPDX-License-Identifier: MIT
/* The commands of the gpucache tool, one file each (cmd_*.c), called by main (gpucache.c). */
#ifndef GPUCACHE_COMMANDS_H
#define GPUCACHE_COMMANDS_H

#include "gpucache/gpucache.h"

int cmd_analyze(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_models(int argc, char** argv);
int cmd_probe(int argc, char** argv);
int cmd_introspect(int argc, char** argv);
int cmd_fit(int argc, char** argv);
int cmd_optimize(int argc, char** argv);
int cmd_meshlets(int argc, char** argv);
int cmd_grid(int argc, char** argv);
int cmd_sweep(int argc, char** argv);
int cmd_validate(int argc, char** argv);
int cmd_memsys(int argc, char** argv);
int cmd_report(int argc, char** argv);

#endif
