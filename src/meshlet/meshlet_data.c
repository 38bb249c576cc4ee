// SPDX-License-Identifier: MIT
/* The meshlet data file (docs/formats/meshlets.md) and the check every set of meshlets
 * passes before it is written or after it is read. Little-endian throughout:
 *   0  magic "GCMSHLT\0" (8 bytes)
 *   8  u32 version (1)
 *  12  u32 flags (bit 0: bounds follow; other bits must be 0)
 *  16  u32 max_vertices, u32 max_triangles
 *  24  u64 meshlet count M, u64 meshlet vertex count N, u64 triangle count K
 *  48  M x {u32 vertex_offset, triangle_offset, vertex_count, triangle_count}
 *      N x u32 vertex ids
 *      K x 3 bytes, local indices
 *      zero bytes up to a multiple of 4
 *      with bounds, M x 12 f32 (center xyz, radius, apex xyz, axis xyz, cutoff, 0 reserved)
 * and nothing after. */
#include "../internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 48u
#define BOUNDS_FLOATS 12u
#define FLAG_BOUNDS 1u
static const unsigned char magic[8] = {'G', 'C', 'M', 'S', 'H', 'L', 'T', 0};

/* Here rather than in meshlet_build.c, which calls this file (no loop of calls between files). */
void gc_meshlets_free(gc_meshlets* m)
{
    if (!m)
        return;
    free(m->meshlets);
    free(m->vertices);
    free(m->triangles);
    free(m->bounds);
    memset(m, 0, sizeof *m);
}

gc_status gc_meshlets_check(const gc_meshlets* m, uint64_t vertex_count, const char* what, gc_error* err)
{
    const char* w = what ? what : "meshlets";
    if (m->max_vertices < 3 || m->max_vertices > GC_MESHLET_MAX_VERTICES)
        return gc_fail(err, GC_ERR_DATA, "%s: max vertices %u is out of range [3, %u]", w, m->max_vertices,
                       GC_MESHLET_MAX_VERTICES);
    if (m->max_triangles < 1 || m->max_triangles > GC_MESHLET_MAX_TRIANGLES)
        return gc_fail(err, GC_ERR_DATA, "%s: max triangles %u is out of range [1, %u]", w, m->max_triangles,
                       GC_MESHLET_MAX_TRIANGLES);
    if ((m->meshlet_count && !m->meshlets) || (m->vertex_count && !m->vertices) ||
        (m->triangle_count && !m->triangles))
        return gc_fail(err, GC_ERR_USAGE, "%s: counts without arrays", w);
    uint64_t v_end = 0, t_end = 0; /* where the previous meshlet ended: vertices, triangle bytes */
    for (size_t i = 0; i < m->meshlet_count; ++i) {
        const gc_meshlet* ml = &m->meshlets[i];
        if (ml->vertex_count < 1 || ml->vertex_count > m->max_vertices)
            return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu has %u vertices, not 1 to the limit %u", w, i,
                           ml->vertex_count, m->max_vertices);
        if (ml->triangle_count < 1 || ml->triangle_count > m->max_triangles)
            return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu has %u triangles, not 1 to the limit %u", w, i,
                           ml->triangle_count, m->max_triangles);
        if (ml->vertex_offset != v_end || ml->triangle_offset != t_end)
            return gc_fail(err, GC_ERR_DATA,
                           "%s: meshlet %zu starts at vertex %u and triangle byte %u, not where meshlet %zu ends "
                           "(%llu, %llu)",
                           w, i, ml->vertex_offset, ml->triangle_offset, i ? i - 1 : 0, (unsigned long long)v_end,
                           (unsigned long long)t_end);
        v_end += ml->vertex_count;
        t_end += 3 * (uint64_t)ml->triangle_count;
        if (v_end > m->vertex_count || t_end > 3 * (uint64_t)m->triangle_count)
            return gc_fail(err, GC_ERR_DATA,
                           "%s: meshlet %zu's vertices or triangles run past the arrays (%zu vertices, %zu "
                           "triangles)",
                           w, i, m->vertex_count, m->triangle_count);
        const uint32_t* v = m->vertices + ml->vertex_offset;
        const uint8_t* t = m->triangles + ml->triangle_offset;
        uint32_t used[GC_MESHLET_MAX_VERTICES / 32] = {0};
        for (size_t k = 0; k < 3 * (size_t)ml->triangle_count; ++k) {
            if (t[k] >= ml->vertex_count)
                return gc_fail(err, GC_ERR_DATA,
                               "%s: meshlet %zu: triangle %zu refers to local vertex %u of %u", w, i, k / 3,
                               (unsigned)t[k], ml->vertex_count);
            used[t[k] / 32] |= 1u << (t[k] % 32);
        }
        for (uint32_t a = 0; a < ml->vertex_count; ++a) {
            if (vertex_count && v[a] >= vertex_count)
                return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu: vertex %u is %u, not below the vertex count %llu",
                               w, i, a, v[a], (unsigned long long)vertex_count);
            if (!(used[a / 32] & (1u << (a % 32))))
                return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu: vertex %u (id %u) is used by no triangle", w, i,
                               a, v[a]);
            for (uint32_t b = 0; b < a; ++b) /* at most 256 x 255 / 2 compares a meshlet */
                if (v[b] == v[a])
                    return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu: vertex id %u is listed twice (%u and %u)",
                                   w, i, v[a], b, a);
        }
        if (m->bounds) {
            const gc_meshlet_bounds* b = &m->bounds[i];
            const float all[11] = {b->center[0],    b->center[1],    b->center[2], b->radius,
                                              b->cone_apex[0], b->cone_apex[1], b->cone_apex[2],
                                              b->cone_axis[0], b->cone_axis[1], b->cone_axis[2], b->cone_cutoff};
            for (unsigned k = 0; k < 11; ++k)
                if (!isfinite(all[k]))
                    return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu: a bound is not a finite number", w, i);
            if (b->radius < 0 || b->cone_cutoff < -1 || b->cone_cutoff > 1)
                return gc_fail(err, GC_ERR_DATA, "%s: meshlet %zu: negative radius or cutoff outside [-1, 1]", w, i);
        }
    }
    if (v_end != m->vertex_count || t_end != 3 * (uint64_t)m->triangle_count)
        return gc_fail(err, GC_ERR_DATA, "%s: the meshlets use %llu of %zu vertices and %llu of %zu triangles", w,
                       (unsigned long long)v_end, m->vertex_count, (unsigned long long)(t_end / 3),
                       m->triangle_count);
    return GC_OK;
}

/* ------------------------------------------------------------------ writing */

static void put32(uint8_t* p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t* p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t* p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The file's size for these counts, or 0 when it would not fit in 64 bits. */
static uint64_t file_size(uint64_t meshlets, uint64_t vertices, uint64_t triangles, bool bounds)
{
    const uint64_t limit = (uint64_t)1 << 60; /* far past any real file; keeps the sums exact */
    if (meshlets > limit / 64 || vertices > limit / 8 || triangles > limit / 8)
        return 0;
    uint64_t size = HEADER_BYTES + 16 * meshlets + 4 * vertices + 3 * triangles;
    size = (size + 3) & ~(uint64_t)3;
    if (bounds)
        size += 4 * BOUNDS_FLOATS * meshlets;
    return size;
}

gc_status gc_meshlet_data_encode(const gc_meshlets* m, uint8_t** data, size_t* size, gc_error* err)
{
    *data = NULL;
    *size = 0;
    gc_status s = gc_meshlets_check(m, 0, "meshlets", err);
    if (s)
        return s;
    uint64_t bytes = file_size(m->meshlet_count, m->vertex_count, m->triangle_count, m->bounds != NULL);
    if (!bytes || bytes > SIZE_MAX)
        return gc_fail(err, GC_ERR_LIMIT, "meshlets: too many to write");
    uint8_t* p = calloc(1, (size_t)bytes);
    if (!p)
        return gc_fail(err, GC_ERR_NOMEM, "meshlets: out of memory for a %llu-byte file", (unsigned long long)bytes);
    memcpy(p, magic, 8);
    put32(p + 8, 1);
    put32(p + 12, m->bounds ? FLAG_BOUNDS : 0);
    put32(p + 16, m->max_vertices);
    put32(p + 20, m->max_triangles);
    put64(p + 24, m->meshlet_count);
    put64(p + 32, m->vertex_count);
    put64(p + 40, m->triangle_count);
    uint8_t* q = p + HEADER_BYTES;
    for (size_t i = 0; i < m->meshlet_count; ++i, q += 16) {
        put32(q, m->meshlets[i].vertex_offset);
        put32(q + 4, m->meshlets[i].triangle_offset);
        put32(q + 8, m->meshlets[i].vertex_count);
        put32(q + 12, m->meshlets[i].triangle_count);
    }
    for (size_t i = 0; i < m->vertex_count; ++i, q += 4)
        put32(q, m->vertices[i]);
    if (m->triangle_count)
        memcpy(q, m->triangles, 3 * m->triangle_count);
    q += 3 * m->triangle_count;
    while ((size_t)(q - p) % 4)
        *q++ = 0;
    if (m->bounds)
        for (size_t i = 0; i < m->meshlet_count; ++i) {
            const gc_meshlet_bounds* b = &m->bounds[i];
            const float f[BOUNDS_FLOATS] = {b->center[0],    b->center[1],    b->center[2],    b->radius,
                                            b->cone_apex[0], b->cone_apex[1], b->cone_apex[2], b->cone_axis[0],
                                            b->cone_axis[1], b->cone_axis[2], b->cone_cutoff,  0};
            /* 11 floats carry the bounds; the last is reserved, written as 0 */
            for (unsigned k = 0; k < BOUNDS_FLOATS; ++k, q += 4)
                put32(q, float_bits(f[k]));
        }
    *data = p;
    *size = (size_t)bytes;
    return GC_OK;
}

/* ------------------------------------------------------------------ reading */

gc_status gc_meshlet_data_decode(const void* data, size_t size, const char* what, gc_meshlets* out, gc_error* err)
{
    const char* w = what ? what : "meshlet data";
    memset(out, 0, sizeof *out);
    const uint8_t* p = data;
    if (size < HEADER_BYTES)
        return gc_fail(err, GC_ERR_DATA, "%s: %zu bytes is shorter than the %u-byte header (truncated?)", w, size,
                       HEADER_BYTES);
    if (memcmp(p, magic, 8) != 0)
        return gc_fail(err, GC_ERR_DATA, "%s: not a gpucache meshlet file (no GCMSHLT magic)", w);
    uint32_t version = get32(p + 8), flags = get32(p + 12);
    if (version != 1)
        return gc_fail(err, GC_ERR_DATA, "%s: version %u; this gpucache reads version 1", w, version);
    if (flags & ~FLAG_BOUNDS)
        return gc_fail(err, GC_ERR_DATA, "%s: unknown flags 0x%x at byte 12", w, flags);
    gc_meshlets m = {0};
    m.max_vertices = get32(p + 16);
    m.max_triangles = get32(p + 20);
    uint64_t mc = get64(p + 24), vc = get64(p + 32), tc = get64(p + 40);
    uint64_t want = file_size(mc, vc, tc, flags & FLAG_BOUNDS);
    if (!want || want != size)
        return gc_fail(err, GC_ERR_DATA,
                       "%s: %llu meshlets, %llu meshlet vertices and %llu triangles%s need %llu bytes; the file has "
                       "%zu (%s)",
                       w, (unsigned long long)mc, (unsigned long long)vc, (unsigned long long)tc,
                       flags & FLAG_BOUNDS ? " with bounds" : "", (unsigned long long)want, size,
                       !want || want > size ? "truncated, or counts past the arrays" : "bytes after the arrays");
    if (mc > UINT32_MAX || vc > UINT32_MAX || tc > UINT32_MAX / 3)
        return gc_fail(err, GC_ERR_DATA, "%s: counts beyond 32-bit offsets", w);
    m.meshlet_count = (size_t)mc;
    m.vertex_count = (size_t)vc;
    m.triangle_count = (size_t)tc;
    m.meshlets = gc_alloc_array(mc ? (size_t)mc : 1, sizeof *m.meshlets, false);
    m.vertices = gc_alloc_array(vc ? (size_t)vc : 1, sizeof *m.vertices, false);
    m.triangles = gc_alloc_array(tc ? 3 * (size_t)tc : 1, 1, false);
    if ((flags & FLAG_BOUNDS))
        m.bounds = gc_alloc_array(mc ? (size_t)mc : 1, sizeof *m.bounds, true);
    if (!m.meshlets || !m.vertices || !m.triangles || ((flags & FLAG_BOUNDS) && !m.bounds)) {
        gc_meshlets_free(&m);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu meshlets", w, (unsigned long long)mc);
    }
    const uint8_t* q = p + HEADER_BYTES;
    for (size_t i = 0; i < m.meshlet_count; ++i, q += 16) {
        m.meshlets[i].vertex_offset = get32(q);
        m.meshlets[i].triangle_offset = get32(q + 4);
        m.meshlets[i].vertex_count = get32(q + 8);
        m.meshlets[i].triangle_count = get32(q + 12);
    }
    for (size_t i = 0; i < m.vertex_count; ++i, q += 4)
        m.vertices[i] = get32(q);
    if (tc)
        memcpy(m.triangles, q, 3 * (size_t)tc);
    q += 3 * (size_t)tc;
    while ((size_t)(q - p) % 4) {
        if (*q != 0) {
            gc_meshlets_free(&m);
            return gc_fail(err, GC_ERR_DATA, "%s: padding byte %zu is not 0", w, (size_t)(q - p));
        }
        ++q;
    }
    if (m.bounds)
        for (size_t i = 0; i < m.meshlet_count; ++i) {
            float f[BOUNDS_FLOATS];
            for (unsigned k = 0; k < BOUNDS_FLOATS; ++k, q += 4)
                f[k] = bits_float(get32(q));
            gc_meshlet_bounds* b = &m.bounds[i];
            b->center[0] = f[0], b->center[1] = f[1], b->center[2] = f[2], b->radius = f[3];
            b->cone_apex[0] = f[4], b->cone_apex[1] = f[5], b->cone_apex[2] = f[6];
            b->cone_axis[0] = f[7], b->cone_axis[1] = f[8], b->cone_axis[2] = f[9];
            b->cone_cutoff = f[10];
        }
    gc_status s = gc_meshlets_check(&m, 0, w, err);
    if (s) {
        gc_meshlets_free(&m);
        return s;
    }
    *out = m;
    return GC_OK;
}

