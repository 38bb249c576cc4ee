// SPDX-License-Identifier: MIT
/* The tables the commands print: the library's table printer (src/table.h) under the
 * tool's names; table_print says "out of memory" itself. */
#ifndef GPUCACHE_TABLE_H
#define GPUCACHE_TABLE_H

#include "../src/table.h"

typedef gc_table table;
typedef gc_table_column table_column;
#define table_init gc_table_init
#define table_row gc_table_row
#define table_blank gc_table_blank
#define table_free gc_table_free
/* gc_table_print, or "gpucache: out of memory for a table" and -1. */
int table_print(FILE* f, const table* t);

#endif
