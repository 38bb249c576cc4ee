// SPDX-License-Identifier: MIT
/* Topologies and primitive assembly: how an index stream becomes primitives. */
#include "internal.h"

#include <string.h>

static const struct {
    gc_topology topology;
    const char* name;
    const char* aliases[3];
} topology_names[] = {
    {GC_POINT_LIST, "point-list", {"points", "point_list", NULL}},
    {GC_LINE_LIST, "line-list", {"lines", "line_list", NULL}},
    {GC_LINE_STRIP, "line-strip", {"line_strip", NULL, NULL}},
    {GC_LINE_LOOP, "line-loop", {"line_loop", NULL, NULL}},
    {GC_TRIANGLE_LIST, "triangle-list", {"triangles", "tris", "triangle_list"}},
    {GC_TRIANGLE_STRIP, "triangle-strip", {"strip", "tristrip", "triangle_strip"}},
    {GC_TRIANGLE_FAN, "triangle-fan", {"fan", "trifan", "triangle_fan"}},
    {GC_QUAD_LIST, "quad-list", {"quads", "quad_list", NULL}},
    {GC_POLYGON, "polygon", {"polygons", NULL, NULL}},
};

const char* gc_topology_name(gc_topology topology)
{
    for (size_t i = 0; i < sizeof topology_names / sizeof topology_names[0]; ++i)
        if (topology_names[i].topology == topology)
            return topology_names[i].name;
    return NULL;
}

gc_status gc_topology_parse(const char* name, gc_topology* out, gc_error* err)
{
    for (size_t i = 0; i < sizeof topology_names / sizeof topology_names[0]; ++i) {
        if (strcmp(name, topology_names[i].name) == 0) {
            *out = topology_names[i].topology;
            return GC_OK;
        }
        for (size_t j = 0; j < 3 && topology_names[i].aliases[j]; ++j)
            if (strcmp(name, topology_names[i].aliases[j]) == 0) {
                *out = topology_names[i].topology;
                return GC_OK;
            }
    }
    return gc_fail(err, GC_ERR_USAGE,
                   "unknown topology '%s' (expected point-list, line-list, line-strip, line-loop, "
                   "triangle-list, triangle-strip, triangle-fan, quad-list or polygon)",
                   name);
}

unsigned gc_topology_arity(gc_topology topology)
{
    switch (topology) {
    case GC_POINT_LIST: return 1;
    case GC_LINE_LIST:
    case GC_LINE_STRIP:
    case GC_LINE_LOOP: return 2;
    case GC_QUAD_LIST: return 4;
    default: return 3;
    }
}

static bool is_list(gc_topology t)
{
    return t == GC_POINT_LIST || t == GC_LINE_LIST || t == GC_TRIANGLE_LIST || t == GC_QUAD_LIST;
}

/* Primitives a restart-free segment of `length` indices assembles into. */
static uint64_t segment_primitives(gc_topology t, uint64_t length)
{
    switch (t) {
    case GC_POINT_LIST: return length;
    case GC_LINE_LIST: return length / 2;
    case GC_TRIANGLE_LIST: return length / 3;
    case GC_QUAD_LIST: return length / 4;
    case GC_LINE_STRIP: return length >= 2 ? length - 1 : 0;
    case GC_LINE_LOOP: return length >= 2 ? length : 0;
    default: return length >= 3 ? length - 2 : 0;
    }
}

static gc_status check_segment(const gc_draw* d, const char* what, size_t start, size_t length, gc_error* err)
{
    unsigned k = gc_topology_arity(d->topology);
    if (!is_list(d->topology) || length % k == 0)
        return GC_OK;
    if (!d->restart_enabled)
        return gc_fail(err, GC_ERR_DATA, "%s: %zu indices do not make whole primitives of a %s (%zu left over)",
                       what, length, gc_topology_name(d->topology), length % k);
    return gc_fail(err, GC_ERR_DATA,
                   "%s: index %zu: the %s segment starting at index %zu holds %zu indices, not a multiple of %u",
                   what, start + length, gc_topology_name(d->topology), start, length, k);
}

gc_status gc_draw_validate(const gc_draw* d, const char* what, uint64_t* primitive_count, gc_error* err)
{
    if ((unsigned)d->topology >= GC_TOPOLOGY_COUNT)
        return gc_fail(err, GC_ERR_USAGE, "%s: bad topology value %d", what, (int)d->topology);
    if (d->index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "%s: %zu indices exceed the limit of %zu", what, d->index_count,
                       (size_t)GC_MAX_INDICES);
    if (d->index_count > 0 && !d->indices)
        return gc_fail(err, GC_ERR_USAGE, "%s: no index data", what);
    uint64_t prims = 0;
    size_t start = 0;
    if (d->restart_enabled) {
        for (size_t i = 0; i < d->index_count; ++i) {
            if (d->indices[i] != d->restart_value)
                continue;
            gc_status s = check_segment(d, what, start, i - start, err);
            if (s)
                return s;
            prims += segment_primitives(d->topology, i - start);
            start = i + 1;
        }
    }
    gc_status s = check_segment(d, what, start, d->index_count - start, err);
    if (s)
        return s;
    prims += segment_primitives(d->topology, d->index_count - start);
    if (primitive_count)
        *primitive_count = prims;
    return GC_OK;
}

/* --------------------------------------------------------------- assembler */

void gc_assembler_init(gc_assembler* a, const gc_draw* draw)
{
    memset(a, 0, sizeof *a);
    a->draw = *draw;
}

static void emit(gc_assembler* a, gc_primitive* out, unsigned count, size_t p0, size_t p1, size_t p2, size_t p3)
{
    const uint32_t* idx = a->draw.indices;
    size_t p[4] = {p0, p1, p2, p3};
    for (unsigned i = 0; i < count; ++i) {
        out->positions[i] = p[i];
        out->vertices[i] = idx[p[i]];
    }
    out->count = count;
}

int gc_assembler_next(gc_assembler* a, gc_primitive* out)
{
    const gc_draw* d = &a->draw;
    for (;;) {
        bool at_end = a->position >= d->index_count;
        bool at_restart = !at_end && d->restart_enabled && d->indices[a->position] == d->restart_value;
        if (at_end || at_restart) {
            /* A line loop closes its segment before the segment ends. */
            if (d->topology == GC_LINE_LOOP && a->in_segment >= 2 && !a->loop_pending) {
                a->loop_pending = 1;
                emit(a, out, 2, a->segment_start + a->in_segment - 1, a->segment_start, 0, 0);
                return 1;
            }
            if (at_end)
                return 0;
            a->position++;
            a->segment_start = a->position;
            a->in_segment = 0;
            a->loop_pending = 0;
            continue;
        }
        size_t s = a->segment_start;
        switch (d->topology) {
        case GC_POINT_LIST:
        case GC_LINE_LIST:
        case GC_TRIANGLE_LIST:
        case GC_QUAD_LIST: {
            unsigned k = gc_topology_arity(d->topology);
            size_t p = a->position;
            a->position += k;
            a->in_segment += k;
            emit(a, out, k, p, p + 1, p + 2, p + 3);
            return 1;
        }
        default: break;
        }
        a->position++;
        size_t n = ++a->in_segment;
        switch (d->topology) {
        case GC_LINE_STRIP:
        case GC_LINE_LOOP:
            if (n >= 2) {
                emit(a, out, 2, s + n - 2, s + n - 1, 0, 0);
                return 1;
            }
            break;
        case GC_TRIANGLE_STRIP:
            if (n >= 3) {
                size_t i = n - 3;
                emit(a, out, 3, s + i, s + i + 1 + i % 2, s + i + 2 - i % 2, 0);
                return 1;
            }
            break;
        case GC_TRIANGLE_FAN:
            if (n >= 3) {
                emit(a, out, 3, s + n - 2, s + n - 1, s, 0);
                return 1;
            }
            break;
        case GC_POLYGON:
            if (n >= 3) {
                emit(a, out, 3, s, s + n - 2, s + n - 1, 0);
                return 1;
            }
            break;
        default: break;
        }
    }
}

gc_status gc_draw_triangles(const gc_draw* draw, uint32_t* out, size_t capacity, size_t* written, gc_error* err)
{
    unsigned k = gc_topology_arity(draw->topology);
    if (k < 3)
        return gc_fail(err, GC_ERR_USAGE, "a %s has no triangles", gc_topology_name(draw->topology));
    gc_status s = gc_draw_validate(draw, "draw", NULL, err);
    if (s)
        return s;
    gc_assembler a;
    gc_primitive p;
    gc_assembler_init(&a, draw);
    size_t n = 0;
    while (gc_assembler_next(&a, &p)) {
        if (n + 3 * (k - 2) > capacity)
            return gc_fail(err, GC_ERR_USAGE, "gc_draw_triangles: output holds %zu indices, more are needed", capacity);
        for (unsigned t = 0; t + 2 < p.count; ++t) {
            out[n++] = p.vertices[0];
            out[n++] = p.vertices[t + 1];
            out[n++] = p.vertices[t + 2];
        }
    }
    *written = n;
    return GC_OK;
}

/* ----------------------------------------------------------------- chunker */

void gc_chunker_init(gc_chunker* c, const gc_draw* draw, bool want_positions)
{
    gc_assembler_init(&c->assembler, draw);
    c->contiguous = is_list(draw->topology) && !draw->restart_enabled;
    c->want_positions = want_positions;
    c->done = false;
    c->next_primitive = 0;
}

bool gc_chunker_next(gc_chunker* c, gc_chunk* out)
{
    if (c->done)
        return false;
    const gc_draw* d = &c->assembler.draw;
    unsigned k = gc_topology_arity(d->topology);
    out->arity = k;
    out->first_primitive = c->next_primitive;
    if (c->contiguous) {
        size_t total = d->index_count / k;
        size_t first = (size_t)c->next_primitive;
        size_t count = total - first;
        if (c->want_positions && count > GC_CHUNK_PRIMITIVES)
            count = GC_CHUNK_PRIMITIVES;
        if (count == 0) {
            c->done = true;
            return false;
        }
        out->vertices = d->indices + first * k;
        out->positions = NULL;
        if (c->want_positions) {
            for (size_t i = 0; i < count * k; ++i)
                c->positions[i] = first * k + i;
            out->positions = c->positions;
        }
        out->count = count;
        c->next_primitive += count;
        if (first + count == total)
            c->done = true;
        return true;
    }
    size_t count = 0;
    gc_primitive prim;
    while (count < GC_CHUNK_PRIMITIVES && gc_assembler_next(&c->assembler, &prim)) {
        for (unsigned j = 0; j < k; ++j) {
            c->vertices[count * k + j] = prim.vertices[j];
            c->positions[count * k + j] = prim.positions[j];
        }
        count++;
    }
    if (count < GC_CHUNK_PRIMITIVES)
        c->done = true;
    if (count == 0)
        return false;
    out->vertices = c->vertices;
    out->positions = c->want_positions ? c->positions : NULL;
    out->count = count;
    c->next_primitive += count;
    return true;
}
