// SPDX-License-Identifier: MIT
/* One table printer for every table gpucache prints (table.c): the tool's commands and
 * the library's reports. Not installed: rows of text cells are
 * collected first, then printed with each column as wide as its widest cell (never narrower
 * than the width the command asks for), so that a long model name widens the name column
 * instead of shifting every column after it. */
#ifndef GPUCACHE_SRC_TABLE_H
#define GPUCACHE_SRC_TABLE_H

#include <stddef.h>
#include <stdio.h>

typedef struct gc_table_column {
    const char* head; /* the header cell; NULL in every column: no header line */
    int width;        /* the least width */
    int right;        /* right-aligned (numbers); else left-aligned */
} gc_table_column;

typedef struct gc_table {
    const gc_table_column* columns;
    size_t column_count;
    const char* indent; /* printed before each line ("" or NULL: none) */
    char** cells;       /* rows * column_count, owned */
    char** tails;       /* per row: text after the last column ("  0.000123 s"), owned, or NULL */
    unsigned char* blank; /* per row: an empty line instead of cells */
    size_t rows, capacity;
    int failed; /* out of memory: table_print fails */
} gc_table;

void gc_table_init(gc_table* t, const gc_table_column* columns, size_t column_count, const char* indent);
/* Adds a row: column_count cells as text (numbers formatted by the caller) and an optional
 * tail printed after the last column. Out of memory: the table fails when printed. */
void gc_table_row(gc_table* t, const char* const* cells, const char* tail);
/* Adds an empty line (a gap between groups of rows). */
void gc_table_blank(gc_table* t);
/* Prints the header line (when the columns have heads) and the rows. -1: out of memory
 * (nothing printed). */
int gc_table_print(FILE* f, const gc_table* t);
void gc_table_free(gc_table* t);

#endif
