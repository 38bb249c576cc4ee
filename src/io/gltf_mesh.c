// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), the mesh-level
 * entry points: gc_load_gltf, gc_gltf_positions and gc_rewrite_gltf. */
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

/* ---------------------------------------------------------------- as one gc_mesh */

/* The id offset of each vertex set in the concatenated mesh (primitives that share a
 * vertex buffer share their ids): bases[set], in order of first appearance; *total the sum
 * of the sets' vertex counts. NULL when out of memory. */
static uint64_t* set_bases(gc_gltf* g, vertex_sets* sets, uint64_t* total)
{
    *total = 0;
    if (!gltf_assign_sets(g, sets))
        return NULL;
    uint64_t* bases = gc_alloc_array(sets->count ? sets->count : 1, sizeof *bases, false);
    if (!bases) {
        gltf_free_sets(sets);
        return NULL;
    }
    for (size_t k = 0; k < sets->count; ++k) {
        bases[k] = *total;
        *total += g->prims[sets->members[sets->start[k]]].pub.vertex_count;
    }
    return bases;
}

static bool is_triangles(gc_topology t)
{
    return t == GC_TRIANGLE_LIST || t == GC_TRIANGLE_STRIP || t == GC_TRIANGLE_FAN;
}

/* Indices of the triangle list a triangle primitive draws (strips and fans expanded). */
static size_t triangle_list_length(const gc_gltf_primitive* p)
{
    gc_draw d = {p->indices, p->index_count, p->topology, 0, 0};
    uint64_t prims = 0;
    gc_error ignored;
    return gc_draw_validate(&d, "", &prims, &ignored) ? 0 : (size_t)prims * 3;
}

/* gc_gltf_load with the mesh loader's options (gc_mesh_load, gc_mesh_write and
 * gc_mesh_load_positions on a glTF file all read it this way). */
static gc_status load_with_mesh_options(const char* path, const gc_load_options* o, gc_gltf** g, gc_error* err)
{
    gc_gltf_options go = {0};
    go.allow_external_uris = o ? o->allow_external_uris : 0;
    go.max_indices = o ? o->max_indices : 0;
    *g = NULL;
    return gc_gltf_load(path, &go, g, err);
}

/* gc_mesh_load_positions for a glTF: each vertex set's POSITION accessor (float VEC3, read
 * with its stride; a sparse one is refused), at the ids gc_load_gltf gives that set. The
 * node hierarchy is not applied: positions are in each mesh's own space. */
gc_status gc_gltf_positions(const char* path, const gc_load_options* o, float** xyz, size_t* count, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(path, o, &g, err);
    if (s)
        return s;
    uint64_t total = 0;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &total);
    float* out = NULL;
    bool* filled = NULL; /* per vertex set: its positions are read (once, however many draw it) */
    if (!bases || !(filled = gc_alloc_array(sets.count ? sets.count : 1, sizeof *filled, true)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    else if (total > UINT32_MAX || !(out = gc_alloc_array(total ? (size_t)total : 1, 3 * sizeof(float), true)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu vertex positions", path, (unsigned long long)total);
    json_t* meshes = json_object_get(g->doc, "meshes");
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        if (!is_triangles(p->pub.topology) || p->group == SIZE_MAX || filled[p->group])
            continue;
        filled[p->group] = true;
        json_t* pj = json_array_get(json_object_get(json_array_get(meshes, p->pub.mesh), "primitives"), p->pub.primitive);
        json_t* ref = json_object_get(json_object_get(pj, "attributes"), "POSITION");
        json_int_t a_index = json_is_integer(ref) ? json_integer_value(ref) : -1;
        if (a_index < 0 || (uint64_t)a_index >= g->accessor_count) {
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: meshes[%zu].primitives[%zu]: no POSITION attribute", path,
                        p->pub.mesh, p->pub.primitive);
            break;
        }
        const gltf_accessor* a = &g->accessors[a_index];
        const gltf_buffer* b = a->has_view ? &g->buffers[a->buffer] : NULL;
        uint64_t n = p->pub.vertex_count < a->count ? p->pub.vertex_count : a->count;
        if (!a->valid || a->sparse || a->component != 5126 || a->element != 12 || !b || !b->data ||
            a->offset > b->size) {
            s = gc_fail(err, GC_ERR_UNSUPPORTED, "%s: accessors[%lld] (POSITION): not float VEC3 data gpucache can read",
                        path, (long long)a_index);
            break;
        }
        uint64_t base = bases[p->group];
        for (uint64_t v = 0; v < n; ++v) {
            /* valid accessors lie inside their buffer; checked again against the bytes held */
            uint64_t from = a->offset + v * (a->stride ? a->stride : 12);
            if (from > b->size || b->size - from < 12)
                break;
            const unsigned char* at = b->data + from;
            for (int k = 0; k < 3; ++k) {
                uint32_t bits = gltf_le32(at + 4 * k);
                float f;
                memcpy(&f, &bits, sizeof f);
                out[3 * (base + v) + (uint64_t)k] = isfinite(f) ? f : 0.0f;
            }
        }
    }
    gc_gltf_free(g);
    free(filled);
    if (bases) {
        free(bases);
        gltf_free_sets(&sets);
    }
    if (s) {
        free(out);
        return s;
    }
    *xyz = out;
    *count = (size_t)total;
    return GC_OK;
}

gc_status gc_load_gltf(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(path, o, &g, err);
    if (s)
        return s;
    size_t total = 0, runs = 0;
    for (size_t i = 0; i < g->prim_count; ++i) {
        const gc_gltf_primitive* p = &g->prims[i].pub;
        if (!is_triangles(p->topology))
            continue;
        total += triangle_list_length(p);
        runs++;
    }
    size_t max = o && o->max_indices ? o->max_indices : GC_MAX_INDICES;
    uint32_t* idx = total <= max ? gc_alloc_array(total ? total : 1, sizeof(uint32_t), false) : NULL;
    size_t* run = gc_alloc_array(runs ? runs : 1, sizeof(size_t), false);
    if (!idx || !run) {
        free(idx), free(run);
        gc_gltf_free(g);
        return total > max ? gc_fail(err, GC_ERR_LIMIT, "%s: more than %zu indices", path, max)
                           : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, total);
    }
    size_t at = 0, r = 0;
    uint64_t next = 0;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &next);
    if (!bases)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        uint64_t base = bases[p->group];
        if (!is_triangles(p->pub.topology))
            continue;
        gc_draw d = {p->indices, p->pub.index_count, p->pub.topology, 0, 0};
        size_t written = 0;
        if ((s = gc_draw_triangles(&d, idx + at, total - at, &written, err)))
            break;
        for (size_t k = at; k < at + written; ++k) {
            if (base + idx[k] > UINT32_MAX - 1) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: more than 2^32 - 1 vertices in all", path);
                break;
            }
            idx[k] += (uint32_t)base;
        }
        at += written;
        run[r++] = written / 3;
    }
    gc_gltf_free(g);
    if (bases) {
        free(bases);
        gltf_free_sets(&sets);
    }
    if (!s && at == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no triangles", path);
    if (s) {
        free(idx), free(run);
        return s;
    }
    gc_mesh_set(out, idx, at, true, next);
    if (r > 1) {
        out->runs = run;
        out->run_count = r;
    } else {
        free(run);
    }
    return GC_OK;
}

gc_status gc_rewrite_gltf(const char* in_path, const gc_load_options* o, const uint32_t* indices, size_t count,
                          int reorder_vertices, const gc_fetch_spec* fetch, const char* out_path, gc_error* err)
{
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(in_path, o, &g, err);
    if (s)
        return s;
    size_t at = 0;
    uint64_t next = 0;
    uint32_t* local = NULL;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &next);
    if (!bases)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        gltf_prim* p = &g->prims[i];
        uint64_t base = bases[p->group];
        if (!is_triangles(p->pub.topology))
            continue;
        size_t n = triangle_list_length(&p->pub);
        if (at + n > count) {
            s = gc_fail(err, GC_ERR_USAGE, "%s: fewer indices given than the file has", in_path);
            break;
        }
        /* strips, fans, primitives without indices and shared index data keep theirs */
        if (p->pub.topology == GC_TRIANGLE_LIST && p->index_accessor != SIZE_MAX && !p->pub.indices_kept &&
            p->pub.shares_indices_with == SIZE_MAX) {
            free(local);
            local = gc_alloc_array(n ? n : 1, sizeof(uint32_t), false);
            if (!local) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
                break;
            }
            for (size_t k = 0; k < n && !s; ++k) {
                uint32_t v = indices[at + k];
                if (v < base || v - base >= p->pub.vertex_count)
                    s = gc_fail(err, GC_ERR_DATA, "%s: meshes[%zu].primitives[%zu]: a reordered triangle left its "
                                                  "primitive", in_path, p->pub.mesh, p->pub.primitive);
                local[k] = (uint32_t)(v - base);
            }
            if (!s)
                s = gc_gltf_set_indices(g, i, local, n, err);
        }
        at += n;
    }
    free(local);
    if (bases) {
        free(bases);
        gltf_free_sets(&sets);
    }
    if (!s && at != count)
        s = gc_fail(err, GC_ERR_USAGE, "%s: more indices given than the file has", in_path);
    if (!s && reorder_vertices)
        s = gc_gltf_reorder_vertices_for(g, fetch, err);
    if (!s)
        s = gc_gltf_write(g, out_path, err);
    gc_gltf_free(g);
    return s;
}

/* ---------------------------------------------------------------- vertex streams */

void gc_gltf_draw_streams_free(gc_gltf_draw* draws, size_t count)
{
    for (size_t i = 0; draws && i < count; ++i)
        free(draws[i].streams);
    free(draws);
}

/* Each buffer's bytes get their own range of one address space, aligned to 4 KiB as a
 * driver's allocations are (a 64-byte line never spans two buffers); buffers that share a
 * file share its range. */
static uint64_t* buffer_addresses(const gc_gltf* g)
{
    uint64_t* at = gc_alloc_array(g->buffer_count ? g->buffer_count : 1, sizeof *at, true);
    if (!at)
        return NULL;
    uint64_t next = 0;
    for (size_t b = 0; b < g->buffer_count; ++b) {
        if (g->buffers[b].same_as != SIZE_MAX && g->buffers[b].same_as < b) {
            at[b] = at[g->buffers[b].same_as];
            continue;
        }
        at[b] = next;
        uint64_t size = g->buffers[b].size > g->buffers[b].length ? g->buffers[b].size : g->buffers[b].length;
        next += (size + 4095) / 4096 * 4096 + 4096;
    }
    return at;
}

gc_status gc_gltf_draw_streams(const char* path, const gc_load_options* o, gc_gltf_draw** out,
                               size_t* count, gc_error* err)
{
    *out = NULL;
    *count = 0;
    gc_gltf* g = NULL;
    gc_status s = load_with_mesh_options(path, o, &g, err);
    if (s)
        return s;
    uint64_t total = 0;
    vertex_sets sets;
    uint64_t* bases = set_bases(g, &sets, &total);
    uint64_t* address = bases ? buffer_addresses(g) : NULL;
    size_t draws = 0;
    for (size_t i = 0; i < g->prim_count; ++i)
        draws += is_triangles(g->prims[i].pub.topology);
    gc_gltf_draw* d = address ? gc_alloc_array(draws ? draws : 1, sizeof *d, true) : NULL;
    if (!d)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    json_t* meshes = json_object_get(g->doc, "meshes");
    size_t r = 0;
    for (size_t i = 0; i < g->prim_count && !s; ++i) {
        const gltf_prim* p = &g->prims[i];
        if (!is_triangles(p->pub.topology))
            continue;
        gc_gltf_draw* draw = &d[r++];
        draw->first_vertex = p->group == SIZE_MAX ? 0 : bases[p->group];
        draw->vertex_count = p->pub.vertex_count;
        /* the primitive's own attributes (not its morph targets, which a draw without
         * morphing does not read), each once, in the JSON's order */
        json_t* pj = json_array_get(json_object_get(json_array_get(meshes, p->pub.mesh), "primitives"), p->pub.primitive);
        json_t* attributes = json_object_get(pj, "attributes");
        size_t most = json_object_size(attributes);
        draw->streams = gc_alloc_array(most ? most : 1, sizeof *draw->streams, true);
        if (!draw->streams) {
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
            break;
        }
        const char* key;
        json_t* v;
        json_object_foreach(attributes, key, v) {
            json_int_t ai = json_is_integer(v) ? json_integer_value(v) : -1;
            if (ai < 0 || (uint64_t)ai >= g->accessor_count)
                continue; /* the reader refused such files already */
            const gltf_accessor* a = &g->accessors[ai];
            /* an accessor without a buffer view is zeros: no vertex buffer to read */
            if (!a->valid || !a->has_view || a->element == 0 || a->element > UINT32_MAX)
                continue;
            uint64_t stride = a->stride ? a->stride : a->element;
            if (stride > UINT32_MAX)
                continue;
            gc_fetch_stream* st = &draw->streams[draw->stream_count++];
            st->offset = address[a->bytes_of] + a->offset;
            st->stride = (uint32_t)stride;
            st->size = (uint32_t)a->element;
        }
    }
    gc_gltf_free(g);
    free(address);
    if (bases) {
        free(bases);
        gltf_free_sets(&sets);
    }
    if (s) {
        gc_gltf_draw_streams_free(d, r);
        return s;
    }
    *out = d;
    *count = r;
    return GC_OK;
}
