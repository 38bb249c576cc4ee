// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), accessors
 * (checked against their views and buffers) and primitives (indices decoded to 32 bits,
 * attributes, the expansion cap). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "gltf_internal.h"

#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t component_bytes(int type)
{
    switch (type) {
    case 5120: case 5121: return 1; /* BYTE, UNSIGNED_BYTE */
    case 5122: case 5123: return 2; /* SHORT, UNSIGNED_SHORT */
    case 5125: case 5126: return 4; /* UNSIGNED_INT, FLOAT */
    default: return 0;
    }
}

/* Bytes of one element: matrices of 1- and 2-byte components pad each column to 4 bytes. */
static uint64_t element_bytes(int component, json_t* type)
{
    uint64_t c = component_bytes(component);
    const char* t = json_is_string(type) ? json_string_value(type) : "";
    if (!strcmp(t, "SCALAR"))
        return c;
    if (!strcmp(t, "VEC2"))
        return 2 * c;
    if (!strcmp(t, "VEC3"))
        return 3 * c;
    if (!strcmp(t, "VEC4"))
        return 4 * c;
    uint64_t n = !strcmp(t, "MAT2") ? 2 : !strcmp(t, "MAT3") ? 3 : !strcmp(t, "MAT4") ? 4 : 0;
    return n * ((n * c + 3) & ~(uint64_t)3);
}

/* ---------------------------------------------------------------- accessors */

gc_status gltf_load_accessors(gc_gltf* g, gc_error* err)
{
    json_t* views = json_object_get(g->doc, "bufferViews");
    json_t* accessors = json_object_get(g->doc, "accessors");
    size_t nv = gltf_array_size(g->doc, "bufferViews");
    /* every byte the file brings: an accessor without a view (zeros) may declare no more */
    uint64_t total = g->file_size;
    for (size_t i = 0; i < g->buffer_count; ++i)
        total += g->buffers[i].kind == BUF_FILE && g->buffers[i].same_as == SIZE_MAX ? g->buffers[i].size : 0;
    g->input_bytes = total;
    for (size_t i = 0; i < nv; ++i) {
        json_t* v = json_array_get(views, i);
        uint64_t offset, length, stride;
        size_t buffer;
        if (!json_is_object(v) || gltf_member_ref(v, "buffer", g->buffer_count, &buffer) != 1 ||
            !gltf_member_u64(v, "byteOffset", 0, &offset) || !gltf_member_u64(v, "byteLength", UINT64_MAX, &length) ||
            length == UINT64_MAX || !gltf_member_u64(v, "byteStride", 0, &stride))
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: no valid buffer, byteOffset and byteLength",
                           g->path, i);
        uint64_t have = g->buffers[buffer].length;
        if (offset > have || length > have - offset)
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: bytes %llu to %llu lie outside its buffer of %llu bytes",
                           g->path, i, (unsigned long long)offset, (unsigned long long)(offset + length),
                           (unsigned long long)have);
        if (stride > 252)
            return gc_fail(err, GC_ERR_DATA, "%s: bufferViews[%zu]: byteStride %llu is more than 252", g->path, i,
                           (unsigned long long)stride);
    }
    g->accessor_count = gltf_array_size(g->doc, "accessors");
    g->accessors = calloc(g->accessor_count ? g->accessor_count : 1, sizeof *g->accessors);
    if (!g->accessors)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    for (size_t i = 0; i < g->accessor_count; ++i) {
        json_t* a = json_array_get(accessors, i);
        gltf_accessor* x = &g->accessors[i];
        x->group = SIZE_MAX;
        x->first_index_user = SIZE_MAX;
        x->crossed_by = SIZE_MAX;
        uint64_t count, offset;
        if (!json_is_object(a) || !gltf_member_u64(a, "count", UINT64_MAX, &count) || count == UINT64_MAX ||
            !gltf_member_u64(a, "byteOffset", 0, &offset))
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: count and byteOffset must be non-negative integers",
                           g->path, i);
        json_t* ct = json_object_get(a, "componentType");
        x->component = json_is_integer(ct) ? (int)json_integer_value(ct) : 0;
        x->element = element_bytes(x->component, json_object_get(a, "type"));
        if (x->element == 0)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: unknown componentType or type", g->path, i);
        if (count > UINT64_MAX / 16 / x->element)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: count %llu is too large", g->path, i,
                           (unsigned long long)count);
        x->count = count;
        x->sparse = json_object_get(a, "sparse") != NULL;
        size_t view;
        int r = gltf_member_ref(a, "bufferView", nv, &view);
        if (r < 0)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: bufferView does not name a valid buffer view",
                           g->path, i);
        if (r == 0) {
            uint64_t bytes;
            if (!gc_mul_u64(count, x->element, &bytes) || bytes > total)
                return gc_fail(err, GC_ERR_DATA,
                               "%s: accessors[%zu]: %llu elements of %llu bytes without a buffer view: more than the "
                               "%llu bytes of the file and its buffers",
                               g->path, i, (unsigned long long)count, (unsigned long long)x->element,
                               (unsigned long long)total);
            x->valid = 1;
            continue;
        }
        json_t* v = json_array_get(views, view);
        uint64_t view_offset = 0, view_length = 0, stride = 0;
        size_t buffer = 0;
        gltf_member_ref(v, "buffer", g->buffer_count, &buffer);
        gltf_member_u64(v, "byteOffset", 0, &view_offset);
        gltf_member_u64(v, "byteLength", 0, &view_length);
        gltf_member_u64(v, "byteStride", 0, &stride);
        if (stride == 0)
            stride = x->element;
        if (stride < x->element)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: byteStride %llu is less than an element of %llu bytes",
                           g->path, i, (unsigned long long)stride, (unsigned long long)x->element);
        /* offset + (count - 1) * stride + element, each step checked (2^57 + 1 elements of
         * stride 128 must not wrap around to a few bytes) */
        uint64_t need = offset, span = 0;
        bool fits = !count || (gc_mul_u64(count - 1, stride, &span) && gc_add_u64(span, x->element, &span) &&
                               gc_add_u64(offset, span, &need));
        if (!fits)
            return gc_fail(err, GC_ERR_DATA,
                           "%s: accessors[%zu]: %llu elements need more than 2^64 bytes of a buffer view of %llu",
                           g->path, i, (unsigned long long)count, (unsigned long long)view_length);
        if (need > view_length)
            return gc_fail(err, GC_ERR_DATA, "%s: accessors[%zu]: %llu elements need %llu bytes of a buffer view of %llu",
                           g->path, i, (unsigned long long)count, (unsigned long long)need,
                           (unsigned long long)view_length);
        x->has_view = 1;
        x->view = view;
        x->buffer = buffer;
        x->bytes_of = g->buffers[buffer].same_as == SIZE_MAX ? buffer : g->buffers[buffer].same_as;
        x->offset = view_offset + offset;
        x->stride = stride;
        x->valid = 1;
    }
    return GC_OK;
}

/* Decodes index accessor `a` into 32-bit values, each below vertex_count (the attributes'
 * count; with none, or 0 elements, no index is valid). */
static gc_status read_indices(gc_gltf* g, const char* place, const gltf_accessor* a, uint64_t vertex_count,
                              uint32_t* out, gc_error* err)
{
    if (a->sparse)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: %s: sparse index accessors are not read", g->path, place);
    if (!a->has_view) {
        if (a->count && vertex_count == 0) /* zeros: index 0 names no vertex either */
            return gc_fail(err, GC_ERR_DATA, "%s: %s: index 0 is 0, the attributes hold 0 vertices", g->path, place);
        memset(out, 0, (size_t)a->count * sizeof *out);
        return GC_OK;
    }
    const unsigned char* p = g->buffers[a->buffer].data + a->offset;
    for (uint64_t i = 0; i < a->count; ++i, p += a->stride) {
        uint32_t v = a->component == 5121 ? p[0] : a->component == 5123 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : gltf_le32(p);
        if (v >= vertex_count) /* 0 vertices included: no index is valid then */
            return gc_fail(err, GC_ERR_DATA, "%s: %s: index %llu is %lu, the attributes hold %llu vertices", g->path,
                           place, (unsigned long long)i, (unsigned long)v, (unsigned long long)vertex_count);
        out[i] = v;
    }
    return GC_OK;
}

int gltf_compare_size(const void* a, const void* b)
{
    size_t x = *(const size_t*)a, y = *(const size_t*)b;
    return (x > y) - (x < y);
}

/* The attribute accessors of one attributes object (the primitive's or a target's), all of
 * one count; appended to p->attributes. */
static gc_status collect_attributes(gc_gltf* g, const char* place, json_t* attributes, gltf_prim* p,
                                    uint64_t* count, gc_error* err)
{
    if (!json_is_object(attributes))
        return gc_fail(err, GC_ERR_DATA, "%s: %s is not an object", g->path, place);
    const char* key;
    json_t* v;
    json_object_foreach(attributes, key, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= g->accessor_count)
            return gc_fail(err, GC_ERR_DATA, "%s: %s.%.60s does not name an accessor", g->path, place, key);
        size_t a = (size_t)json_integer_value(v);
        if (*count == UINT64_MAX)
            *count = g->accessors[a].count;
        else if (g->accessors[a].count != *count)
            return gc_fail(err, GC_ERR_DATA, "%s: %s.%.60s: %llu elements where the other attributes have %llu",
                           g->path, place, key, (unsigned long long)g->accessors[a].count,
                           (unsigned long long)*count);
        size_t* grown = realloc(p->attributes, (p->attribute_count + 1) * sizeof *grown);
        if (!grown)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
        p->attributes = grown;
        p->attributes[p->attribute_count++] = a;
        g->accessors[a].uses++;
    }
    return GC_OK;
}

static const gc_topology mode_topology[7] = {GC_POINT_LIST,     GC_LINE_LIST,      GC_LINE_LOOP,  GC_LINE_STRIP,
                                             GC_TRIANGLE_LIST, GC_TRIANGLE_STRIP, GC_TRIANGLE_FAN};

uint64_t gltf_expansion_cap(const gc_gltf* g)
{
    uint64_t cap;
    if (!gc_mul_u64(g->input_bytes, EXPANSION_PER_BYTE, &cap) || !gc_add_u64(cap, EXPANSION_FLOOR, &cap))
        return UINT64_MAX;
    return cap;
}

gc_status gltf_load_primitives(gc_gltf* g, size_t max_indices, gc_error* err)
{
    json_t* meshes = json_object_get(g->doc, "meshes");
    size_t total = 0, indices_total = 0;
    for (size_t m = 0; m < gltf_array_size(g->doc, "meshes"); ++m) {
        json_t* prims = json_object_get(json_array_get(meshes, m), "primitives");
        if (!json_is_array(prims))
            return gc_fail(err, GC_ERR_DATA, "%s: meshes[%zu].primitives is not an array", g->path, m);
        total += json_array_size(prims);
    }
    g->prims = calloc(total ? total : 1, sizeof *g->prims);
    if (!g->prims)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", g->path);
    for (size_t m = 0; m < gltf_array_size(g->doc, "meshes"); ++m) {
        json_t* mesh = json_array_get(meshes, m);
        json_t* prims = json_object_get(mesh, "primitives");
        json_t* name = json_object_get(mesh, "name");
        for (size_t k = 0; k < json_array_size(prims); ++k) {
            json_t* pj = json_array_get(prims, k);
            gltf_prim* p = &g->prims[g->prim_count++];
            p->index_accessor = SIZE_MAX;
            p->group = SIZE_MAX;
            p->pub.mesh = m;
            p->pub.mesh_name = json_is_string(name) ? json_string_value(name) : NULL;
            p->pub.primitive = k;
            p->pub.shares_indices_with = SIZE_MAX;
            place_t place;
            snprintf(place, sizeof place, "meshes[%zu].primitives[%zu]", m, k);
            if (!json_is_object(pj))
                return gc_fail(err, GC_ERR_DATA, "%s: %s is not an object", g->path, place);
            uint64_t mode;
            if (!gltf_member_u64(pj, "mode", 4, &mode) || mode > 6)
                return gc_fail(err, GC_ERR_DATA, "%s: %s.mode is not 0 to 6", g->path, place);
            p->pub.mode = (int)mode;
            p->pub.topology = mode_topology[mode];
            uint64_t count = UINT64_MAX;
            place_t where;
            snprintf(where, sizeof where, "%.160s.attributes", place);
            gc_status s = collect_attributes(g, where, json_object_get(pj, "attributes"), p, &count, err);
            if (s)
                return s;
            json_t* targets = json_object_get(pj, "targets");
            if (targets && !json_is_array(targets))
                return gc_fail(err, GC_ERR_DATA, "%s: %s.targets is not an array", g->path, place);
            for (size_t t = 0; t < json_array_size(targets); ++t) {
                snprintf(where, sizeof where, "%.160s.targets[%zu]", place, t);
                if ((s = collect_attributes(g, where, json_array_get(targets, t), p, &count, err)))
                    return s;
            }
            qsort(p->attributes, p->attribute_count, sizeof *p->attributes, gltf_compare_size);
            p->pub.vertex_count = count == UINT64_MAX ? 0 : count;
            size_t ia = 0;
            int r = gltf_member_ref(pj, "indices", g->accessor_count, &ia);
            snprintf(where, sizeof where, "%.160s.indices", place);
            if (r < 0)
                return gc_fail(err, GC_ERR_DATA, "%s: %s does not name an accessor", g->path, where);
            uint64_t n = r ? g->accessors[ia].count : p->pub.vertex_count;
            if (n > max_indices || indices_total > max_indices - n)
                return gc_fail(err, GC_ERR_LIMIT, "%s: %s: more than %zu indices in all", g->path, where, max_indices);
            if (n > gltf_expansion_cap(g) - indices_total)
                return gc_fail(err, GC_ERR_LIMIT,
                               "%s: %s: more indices than the reader expands from an input of %llu bytes (at most "
                               "%llu in all primitives: 8 a byte, plus 2^20)",
                               g->path, where, (unsigned long long)g->input_bytes,
                               (unsigned long long)gltf_expansion_cap(g));
            indices_total += (size_t)n;
            gltf_accessor* a = r ? &g->accessors[ia] : NULL;
            if (a && a->first_index_user != SIZE_MAX) {
                /* a later user of an index accessor: the first user's values, checked
                 * against its own vertex count */
                const gltf_prim* first = &g->prims[a->first_index_user];
                p->indices = first->indices;
                p->pub.indices = p->indices;
                p->pub.index_count = (size_t)n;
                p->pub.index_bits = first->pub.index_bits;
                p->pub.shares_indices_with = a->first_index_user;
                p->index_accessor = ia;
                a->other_uses++;
                a->index_uses++;
                if (p->pub.topology != GC_TRIANGLE_LIST) {
                    if (a->odd_count < sizeof a->odd_users / sizeof *a->odd_users)
                        a->odd_users[a->odd_count] = g->prim_count - 1;
                    a->odd_count++;
                }
                if (p->pub.vertex_count < a->user_vertices) {
                    for (size_t k = 0; k < p->pub.index_count; ++k)
                        if (p->indices[k] >= p->pub.vertex_count)
                            return gc_fail(err, GC_ERR_DATA, "%s: %s: index %zu is %lu, the attributes hold %llu vertices",
                                           g->path, where, k, (unsigned long)p->indices[k],
                                           (unsigned long long)p->pub.vertex_count);
                    a->user_vertices = p->pub.vertex_count;
                }
            } else {
                p->indices = gc_alloc_array((size_t)n ? (size_t)n : 1, sizeof(uint32_t), false);
                if (!p->indices)
                    return gc_fail(err, GC_ERR_NOMEM, "%s: %s: out of memory for %llu indices", g->path, where,
                                   (unsigned long long)n);
                p->pub.indices = p->indices;
                p->pub.index_count = (size_t)n;
            }
            if (a && a->first_index_user == SIZE_MAX) {
                p->index_accessor = ia;
                a->other_uses++;
                a->index_uses++;
                if (p->pub.topology != GC_TRIANGLE_LIST) {
                    if (a->odd_count < sizeof a->odd_users / sizeof *a->odd_users)
                        a->odd_users[a->odd_count] = g->prim_count - 1;
                    a->odd_count++;
                }
                p->pub.index_bits = a->component == 5121 ? 8 : a->component == 5123 ? 16 : a->component == 5125 ? 32 : 0;
                if (!p->pub.index_bits || a->element != component_bytes(a->component))
                    return gc_fail(err, GC_ERR_DATA,
                                   "%s: %s: an index accessor must be a SCALAR of unsigned byte, short or int", g->path,
                                   where);
                if ((s = read_indices(g, where, a, p->pub.vertex_count, p->indices, err)))
                    return s;
                a->first_index_user = g->prim_count - 1;
                a->user_vertices = p->pub.vertex_count;
            } else if (!a) {
                for (uint64_t v = 0; v < n; ++v)
                    p->indices[v] = (uint32_t)v;
            }
            /* whole primitives in every list (glTF requires them) */
            gc_draw d = {p->indices, p->pub.index_count, p->pub.topology, 0, 0};
            uint64_t prims_n;
            char what[sizeof place + 300];
            snprintf(what, sizeof what, "%s: %s", g->path, place);
            if ((s = gc_draw_validate(&d, what, &prims_n, err)))
                return s;
        }
    }
    return GC_OK;
}
