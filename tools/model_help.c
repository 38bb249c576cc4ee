// SPDX-License-Identifier: MIT
/* The help's MODEL section (help.c), from the library's family table: every family's
 * syntax, with its defaults where the parameters are optional. */
#include "gpucache/gpucache.h"

#include "help.h"

#include <stdbool.h>
#include <stdio.h>

const char* model_help_text(void)
{
    /* each family as its syntax, with its defaults where the parameters are optional
     * ("nvidia[:size=32,idle=16,life=32]"), lines filled to 82 columns */
    static char text[4096];
    static const char* const tail = "or a preset (default: all presets), or @FILE: the best model of a fit result\n"
                                    "(gpucache fit --json MEASUREMENTS.json > FILE), wherever -m or --model is accepted.";
    size_t at = 0, line = 0;
    for (size_t i = 0; i < gc_family_count(); ++i) {
        const gc_family* f = gc_family_get(i);
        char item[256];
        size_t n = (size_t)snprintf(item, sizeof item, "%s", f->params_required || !f->param_count ? f->syntax : f->name);
        for (unsigned k = 0; !f->params_required && k < f->param_count && n < sizeof item; ++k)
            n += (size_t)snprintf(item + n, sizeof item - n, "%s%s=%u%s", k ? "," : "[:", f->params[k].name,
                                  f->params[k].fallback, k + 1 == f->param_count ? "]" : "");
        if (n >= sizeof item)
            n = sizeof item - 1;
        const bool last = i + 1 == gc_family_count();
        size_t width = n + (last ? 1 : 0); /* the last one's comma */
        if (line && line + 1 + width > 82) {
            at += (size_t)snprintf(text + at, sizeof text - at, "\n");
            line = 0;
        }
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%s%s", line ? " " : "", item, last ? ",\n" : "");
        line += (line ? 1 : 0) + n;
        if (at >= sizeof text)
            return tail;
    }
    snprintf(text + at, sizeof text - at, "%s", tail);
    return text;
}

