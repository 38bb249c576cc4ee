// SPDX-License-Identifier: MIT
/* The table printer (table.h). */
#include "table.h"

#include <stdlib.h>
#include <string.h>

void gc_table_init(gc_table* t, const gc_table_column* columns, size_t column_count, const char* indent)
{
    memset(t, 0, sizeof *t);
    t->columns = columns;
    t->column_count = column_count;
    t->indent = indent ? indent : "";
}

static int grow(gc_table* t)
{
    if (t->rows < t->capacity)
        return 0;
    size_t cap = t->capacity ? 2 * t->capacity : 16;
    char** cells = realloc(t->cells, cap * t->column_count * sizeof *cells);
    if (!cells)
        return -1;
    t->cells = cells;
    char** tails = realloc(t->tails, cap * sizeof *tails);
    if (!tails)
        return -1;
    t->tails = tails;
    unsigned char* blank = realloc(t->blank, cap);
    if (!blank)
        return -1;
    t->blank = blank;
    t->capacity = cap;
    return 0;
}

void gc_table_row(gc_table* t, const char* const* cells, const char* tail)
{
    if (t->failed || grow(t)) {
        t->failed = 1;
        return;
    }
    size_t r = t->rows;
    char** row = t->cells + r * t->column_count;
    for (size_t c = 0; c < t->column_count; ++c)
        row[c] = strdup(cells[c] ? cells[c] : "");
    t->tails[r] = tail ? strdup(tail) : NULL;
    t->blank[r] = 0;
    t->rows++;
    for (size_t c = 0; c < t->column_count; ++c)
        if (!row[c])
            t->failed = 1;
    if (tail && !t->tails[r])
        t->failed = 1;
}

void gc_table_blank(gc_table* t)
{
    if (t->failed || grow(t)) {
        t->failed = 1;
        return;
    }
    size_t r = t->rows++;
    for (size_t c = 0; c < t->column_count; ++c)
        t->cells[r * t->column_count + c] = NULL;
    t->tails[r] = NULL;
    t->blank[r] = 1;
}

/* One line: each cell padded to its column's width, one space between columns; the last
 * column, when left-aligned, is not padded (no trailing spaces). */
static void print_line(FILE* f, const gc_table* t, const size_t* width, const char* const* cells, const char* tail)
{
    fputs(t->indent, f);
    for (size_t c = 0; c < t->column_count; ++c) {
        const char* s = cells[c] ? cells[c] : "";
        int last = c + 1 == t->column_count;
        if (c)
            fputc(' ', f);
        if (t->columns[c].right)
            fprintf(f, "%*s", (int)width[c], s);
        else if (last)
            fputs(s, f);
        else
            fprintf(f, "%-*s", (int)width[c], s);
    }
    if (tail)
        fputs(tail, f);
    fputc('\n', f);
}

int gc_table_print(FILE* f, const gc_table* t)
{
    size_t* width = t->failed ? NULL : calloc(t->column_count ? t->column_count : 1, sizeof *width);
    const char** heads = width ? calloc(t->column_count ? t->column_count : 1, sizeof *heads) : NULL;
    if (!heads) {
        free(width);
        return -1;
    }
    int with_header = 0;
    for (size_t c = 0; c < t->column_count; ++c) {
        width[c] = t->columns[c].width > 0 ? (size_t)t->columns[c].width : 0;
        heads[c] = t->columns[c].head;
        if (heads[c]) {
            with_header = 1;
            if (strlen(heads[c]) > width[c])
                width[c] = strlen(heads[c]);
        }
    }
    for (size_t r = 0; r < t->rows; ++r)
        for (size_t c = 0; !t->blank[r] && c < t->column_count; ++c) {
            size_t n = strlen(t->cells[r * t->column_count + c]);
            if (n > width[c])
                width[c] = n;
        }
    if (with_header)
        print_line(f, t, width, heads, NULL);
    for (size_t r = 0; r < t->rows; ++r) {
        if (t->blank[r])
            fputc('\n', f);
        else
            print_line(f, t, width, (const char* const*)t->cells + r * t->column_count, t->tails[r]);
    }
    free(heads);
    free(width);
    return 0;
}

void gc_table_free(gc_table* t)
{
    for (size_t r = 0; r < t->rows; ++r) {
        for (size_t c = 0; !t->blank[r] && c < t->column_count; ++c)
            free(t->cells[r * t->column_count + c]);
        free(t->tails[r]);
    }
    free(t->cells);
    free(t->tails);
    free(t->blank);
    memset(t, 0, sizeof *t);
}
