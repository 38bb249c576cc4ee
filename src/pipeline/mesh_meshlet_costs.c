// SPDX-License-Identifier: MIT
/* analyze's meshlet rows (issue 31 item 2): a draw's meshlet costs under every preset
 * (gc_meshlet_costs_of on the draw's dense triangle list), as text or a JSON member. */
#include "pipeline.h"
#include "gpucache_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
    char* data;
    size_t size, capacity;
    bool failed;
} text;

static void put(text* t, const char* format, ...)
{
    va_list ap;
    va_start(ap, format);
    char line[512];
    int n = vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line || t->failed) {
        t->failed = true;
        return;
    }
    if (t->size + (size_t)n + 1 > t->capacity) {
        size_t capacity = 2 * (t->size + (size_t)n + 1);
        char* grown = realloc(t->data, capacity);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->data = grown;
        t->capacity = capacity;
    }
    memcpy(t->data + t->size, line, (size_t)n + 1);
    t->size += (size_t)n;
}

/* A JSON number as the CLI writes them: 9 decimals, no trailing zeros. */
static const char* number(char* buffer, double value)
{
    int n = snprintf(buffer, 64, "%.9f", value);
    while (n > 0 && buffer[n - 1] == '0')
        buffer[--n] = 0;
    if (n > 0 && buffer[n - 1] == '.')
        buffer[--n] = 0;
    return buffer;
}

gc_status gc_draw_meshlet_report(const gc_draw* draw, int json, char** out, gc_error* err)
{
    if (!draw || !out)
        return gc_fail(err, GC_ERR_USAGE, "meshlet report: no draw or output");
    *out = NULL;
    if (draw->topology == GC_POINT_LIST || draw->topology == GC_LINE_LIST || draw->topology == GC_LINE_STRIP ||
        draw->topology == GC_LINE_LOOP) { /* no triangles: no rows */
        *out = calloc(1, 1);
        return *out ? GC_OK : gc_fail(err, GC_ERR_NOMEM, "meshlet report: out of memory");
    }
    uint32_t* tri = NULL;
    uint32_t* values = NULL;
    size_t count = 0;
    uint32_t bound = 0;
    gc_status s = gc_mesh_dense_triangles(draw, "the draw", &tri, &count, &values, &bound, err);
    if (s)
        return s;
    free(values); /* costs depend on which corners are equal, not on the values */
    text t = {0};
    put(&t, json ? ", \"meshlets\": [" : "\nmeshlets (this order scanned; docs/models/meshlets.md):\n");
    for (size_t i = 0; i < gc_meshlet_preset_count() && !s; ++i) {
        const gc_meshlet_preset* p = gc_meshlet_preset_at(i);
        gc_meshlet_costs c;
        if ((s = gc_meshlet_costs_of(tri, count, bound, p->max_vertices, p->max_triangles, &c, err)) != GC_OK)
            break;
        if (json)
            put(&t,
                "%s{\"preset\": \"%s\", \"max_vertices\": %u, \"max_triangles\": %u, \"meshlets\": %llu, "
                "\"meshlet_vertices\": %llu, \"triangles\": %llu, \"vertices_per_triangle\": %s, "
                "\"vertex_fill\": %s, \"triangle_fill\": %s}",
                i ? ", " : "", p->name, c.max_vertices, c.max_triangles, (unsigned long long)c.meshlets,
                (unsigned long long)c.meshlet_vertices, (unsigned long long)c.triangles,
                number((char[64]){0}, c.vertices_per_triangle), number((char[64]){0}, c.vertex_fill),
                number((char[64]){0}, c.triangle_fill));
        else
            put(&t,
                "  %s (%u/%u): %llu meshlets, %llu meshlet vertices, %.3f vertices per triangle, fill %.1f%% of "
                "vertices and %.1f%% of triangles\n",
                p->name, c.max_vertices, c.max_triangles, (unsigned long long)c.meshlets,
                (unsigned long long)c.meshlet_vertices, c.vertices_per_triangle, 100 * c.vertex_fill,
                100 * c.triangle_fill);
    }
    if (json)
        put(&t, "]");
    free(tri);
    if (!s && t.failed)
        s = gc_fail(err, GC_ERR_NOMEM, "meshlet report: out of memory");
    if (s) {
        free(t.data);
        return s;
    }
    *out = t.data;
    return GC_OK;
}
