// SPDX-License-Identifier: MIT
/* Prints the library's family table, one family a line: its name, a tab, its syntax. The
 * reference of tests/family_lists_test.sh, which requires every listing to name them all. */
#include "gpucache/gpucache.h"

#include <stdio.h>

int main(void)
{
    for (size_t i = 0; i < gc_family_count(); ++i)
        printf("%s\t%s\n", gc_family_get(i)->name, gc_family_get(i)->syntax);
    return gc_family_get(gc_family_count()) == NULL ? 0 : 1;
}
