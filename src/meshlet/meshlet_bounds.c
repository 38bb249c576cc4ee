// SPDX-License-Identifier: MIT
/* Meshlet culling bounds, as meshopt_computeMeshletBounds defines them (meshoptimizer's
 * documentation of meshopt_Bounds; docs/models/meshlets.md): computed here independently,
 * in double precision, from the definition:
 *  - only non-degenerate triangles count (a zero-area triangle is invisible);
 *  - the sphere holds their corners: Ritter's construction (the farthest pair among the
 *    extreme points of the three axes, then grown to take each point outside it);
 *  - the cone axis is the normalized center of the same construction over the unit
 *    normals; the cone's half-angle is that of the normal farthest from the axis
 *    (mindp = min dot(n, axis)); the cutoff is sin of it, sqrt(1 - mindp^2), which a
 *    culling test compares with the cosine of the view angle (the cone of back-facing
 *    views is the normal cone's complement, 90 degrees on);
 *  - a cone with mindp <= 0.1 (wider than about 84 degrees) is no use: cutoff 1, apex and
 *    axis 0; no non-degenerate triangle: every field 0 (the meshlet draws nothing);
 *  - the apex is the point center - t axis, t >= 0 the smallest that puts it behind every
 *    triangle's plane (dot(apex - p0, n) <= 0), so that the perspective test
 *    dot(normalize(apex - camera), axis) >= cutoff proves every triangle back-facing. */
#include "../internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Ritter's bounding sphere of `count` points (x, y, z doubles) into center[3] and *radius. */
static void ritter(const double (*pts)[3], size_t count, double center[3], double* radius)
{
    size_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 1; i < count; ++i)
        for (unsigned a = 0; a < 3; ++a) {
            if (pts[i][a] < pts[lo[a]][a])
                lo[a] = i;
            if (pts[i][a] > pts[hi[a]][a])
                hi[a] = i;
        }
    unsigned best = 0;
    double best_d2 = -1;
    for (unsigned a = 0; a < 3; ++a) {
        double d2 = 0;
        for (unsigned k = 0; k < 3; ++k) {
            double d = pts[hi[a]][k] - pts[lo[a]][k];
            d2 += d * d;
        }
        if (d2 > best_d2) {
            best_d2 = d2;
            best = a;
        }
    }
    for (unsigned k = 0; k < 3; ++k)
        center[k] = (pts[hi[best]][k] + pts[lo[best]][k]) / 2;
    double r = sqrt(best_d2) / 2;
    for (size_t i = 0; i < count; ++i) {
        double d2 = 0;
        for (unsigned k = 0; k < 3; ++k) {
            double d = pts[i][k] - center[k];
            d2 += d * d;
        }
        if (d2 > r * r) {
            double d = sqrt(d2);
            double grown = (r + d) / 2;
            double shift = (grown - r) / d;
            for (unsigned k = 0; k < 3; ++k)
                center[k] += (pts[i][k] - center[k]) * shift;
            r = grown;
        }
    }
    *radius = r;
}

static double dot3(const double* a, const double* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* One meshlet's bounds; `corners` and `normals` have room for its triangles. */
static void meshlet_bounds(const gc_meshlets* m, const gc_meshlet* ml, const float* positions, size_t stride,
                           double (*corners)[3], double (*normals)[3], gc_meshlet_bounds* out)
{
    memset(out, 0, sizeof *out);
    size_t good = 0;
    const uint8_t* t = m->triangles + ml->triangle_offset;
    const uint32_t* v = m->vertices + ml->vertex_offset;
    for (uint32_t k = 0; k < ml->triangle_count; ++k) {
        double p[3][3];
        for (unsigned j = 0; j < 3; ++j) {
            const float* f = (const float*)(const void*)((const char*)positions + (size_t)v[t[3 * k + j]] * stride);
            for (unsigned a = 0; a < 3; ++a)
                p[j][a] = f[a];
        }
        double e1[3], e2[3], n[3];
        for (unsigned a = 0; a < 3; ++a)
            e1[a] = p[1][a] - p[0][a], e2[a] = p[2][a] - p[0][a];
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double area = sqrt(dot3(n, n));
        if (!(area > 0))
            continue;
        for (unsigned a = 0; a < 3; ++a) {
            normals[good][a] = n[a] / area;
            corners[3 * good][a] = p[0][a];
            corners[3 * good + 1][a] = p[1][a];
            corners[3 * good + 2][a] = p[2][a];
        }
        good++;
    }
    if (!good)
        return;
    double center[3], radius;
    ritter((const double(*)[3])corners, 3 * good, center, &radius);
    for (unsigned a = 0; a < 3; ++a)
        out->center[a] = (float)center[a];
    out->radius = (float)radius;
    /* the float sphere must still hold every corner: widen by the rounding */
    double widest = 0;
    for (size_t i = 0; i < 3 * good; ++i) {
        double d2 = 0;
        for (unsigned a = 0; a < 3; ++a) {
            double d = corners[i][a] - (double)out->center[a];
            d2 += d * d;
        }
        widest = d2 > widest ? d2 : widest;
    }
    while ((double)out->radius < sqrt(widest))
        out->radius = nextafterf(out->radius, INFINITY);

    double axis[3], spread;
    ritter((const double(*)[3])normals, good, axis, &spread);
    double length = sqrt(dot3(axis, axis));
    for (unsigned a = 0; a < 3; ++a)
        axis[a] = length > 0 ? axis[a] / length : 0;
    double mindp = 1;
    for (size_t i = 0; i < good; ++i) {
        double d = dot3(normals[i], axis);
        mindp = d < mindp ? d : mindp;
    }
    if (mindp <= 0.1) {
        out->cone_cutoff = 1;
        return;
    }
    double maxt = 0;
    for (size_t i = 0; i < good; ++i) {
        double c[3];
        for (unsigned a = 0; a < 3; ++a)
            c[a] = center[a] - corners[3 * i][a];
        double tt = dot3(c, normals[i]) / dot3(axis, normals[i]);
        maxt = tt > maxt ? tt : maxt;
    }
    for (unsigned a = 0; a < 3; ++a) {
        out->cone_apex[a] = (float)(center[a] - axis[a] * maxt);
        out->cone_axis[a] = (float)axis[a];
    }
    out->cone_cutoff = (float)sqrt(1 - mindp * mindp);
}

gc_status gc_meshlets_compute_bounds(gc_meshlets* m, const float* positions, size_t vertex_count, size_t stride,
                                     gc_error* err)
{
    if (!stride)
        stride = 3 * sizeof(float);
    if (stride < 3 * sizeof(float) || stride % sizeof(float))
        return gc_fail(err, GC_ERR_USAGE, "meshlet bounds: a stride of %zu bytes (at least 12, a multiple of 4)",
                       stride);
    gc_status s = gc_meshlets_check(m, vertex_count, "meshlets", err);
    if (s)
        return s;
    if (!positions && m->meshlet_count)
        return gc_fail(err, GC_ERR_USAGE, "meshlet bounds: no positions");
    gc_meshlet_bounds* b = gc_alloc_array(m->meshlet_count ? m->meshlet_count : 1, sizeof *b, true);
    double(*corners)[3] = malloc(3 * GC_MESHLET_MAX_TRIANGLES * sizeof *corners);
    double(*normals)[3] = malloc(GC_MESHLET_MAX_TRIANGLES * sizeof *normals);
    if (!b || !corners || !normals) {
        free(b);
        free(corners);
        free(normals);
        return gc_fail(err, GC_ERR_NOMEM, "meshlet bounds: out of memory for %zu meshlets", m->meshlet_count);
    }
    for (size_t i = 0; i < m->meshlet_count; ++i)
        meshlet_bounds(m, &m->meshlets[i], positions, stride, corners, normals, &b[i]);
    free(corners);
    free(normals);
    free(m->bounds);
    m->bounds = b;
    return GC_OK;
}
