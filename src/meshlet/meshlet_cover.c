// SPDX-License-Identifier: MIT
/* gc_meshlets_cover (gpucache.h): whether a set of meshlets draws exactly a mesh's
 * triangles, each once, with its winding: a triangle is compared by its three vertex ids
 * rotated to start at the smallest (a rotation keeps the winding; a mirror does not). */
#include "../internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    uint32_t v[3];
    uint32_t where; /* the meshlet (meshlet side) or the triangle's number (mesh side) */
} keyed;

static void canonical(const uint32_t* t, keyed* k)
{
    int s = t[1] < t[0] ? (t[2] < t[1] ? 2 : 1) : (t[2] < t[0] ? 2 : 0);
    for (int c = 0; c < 3; ++c)
        k->v[c] = t[(s + c) % 3];
}

static int by_triangle(const void* a, const void* b)
{
    const keyed* x = a;
    const keyed* y = b;
    for (int c = 0; c < 3; ++c)
        if (x->v[c] != y->v[c])
            return x->v[c] < y->v[c] ? -1 : 1;
    return (x->where > y->where) - (x->where < y->where);
}

gc_status gc_meshlets_cover(const gc_meshlets* m, const uint32_t* indices, size_t index_count, const char* what,
                            gc_error* err)
{
    if (!m || (index_count && !indices) || index_count % 3)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshlets and a triangle list are needed", what ? what : "meshlets");
    what = what ? what : "meshlets";
    size_t n = index_count / 3;
    if (m->triangle_count != n)
        return gc_fail(err, GC_ERR_DATA, "%s: the meshlets hold %zu triangles, the mesh %zu", what, m->triangle_count,
                       n);
    keyed* mine = gc_alloc_array(n ? n : 1, sizeof *mine, false);
    keyed* theirs = gc_alloc_array(n ? n : 1, sizeof *theirs, false);
    if (!mine || !theirs) {
        free(mine), free(theirs);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu triangles", what, n);
    }
    size_t t = 0;
    for (size_t k = 0; k < m->meshlet_count; ++k) {
        const gc_meshlet* ml = &m->meshlets[k];
        for (uint32_t i = 0; i < ml->triangle_count && t < n; ++i, ++t) {
            const uint8_t* local = m->triangles + ml->triangle_offset + 3 * (size_t)i; /* offsets in bytes */
            uint32_t tri[3];
            for (int c = 0; c < 3; ++c)
                tri[c] = m->vertices[ml->vertex_offset + local[c]];
            canonical(tri, &mine[t]);
            mine[t].where = (uint32_t)k;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        canonical(indices + 3 * i, &theirs[i]);
        theirs[i].where = (uint32_t)i;
    }
    qsort(mine, n, sizeof *mine, by_triangle);
    qsort(theirs, n, sizeof *theirs, by_triangle);
    gc_status s = GC_OK;
    for (size_t i = 0; i < n && !s; ++i) {
        int c = memcmp(mine[i].v, theirs[i].v, sizeof mine[i].v) == 0 ? 0 : by_triangle(&mine[i], &theirs[i]);
        if (c == 0)
            continue;
        if (c < 0) /* the meshlets draw a triangle the mesh has not, or one more time than it has */
            s = gc_fail(err, GC_ERR_DATA,
                        "%s: meshlet %u draws the triangle (%u, %u, %u), which the mesh %s", what, mine[i].where,
                        mine[i].v[0], mine[i].v[1], mine[i].v[2],
                        i > 0 && !memcmp(mine[i].v, mine[i - 1].v, sizeof mine[i].v) ? "draws fewer times"
                                                                                      : "does not draw");
        else
            s = gc_fail(err, GC_ERR_DATA, "%s: the mesh's triangle %u (%u, %u, %u) is in no meshlet", what,
                        theirs[i].where, theirs[i].v[0], theirs[i].v[1], theirs[i].v[2]);
    }
    free(mine), free(theirs);
    return s;
}
