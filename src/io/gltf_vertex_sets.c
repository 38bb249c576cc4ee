// SPDX-License-Identifier: MIT
/* glTF 2.0 (docs/formats/gltf.md; the overview in gltf_internal.h), the
 * index rewrite (gc_gltf_set_indices), vertex sets (primitives that share attribute data),
 * the data that may and may not be rewritten, and gc_gltf_reorder_vertices. */
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

/* ---------------------------------------------------------------- rewriting */

/* Writes index values into index accessor `a`, in its component type. */
static void write_indices(gc_gltf* g, const gltf_accessor* a, const uint32_t* v)
{
    unsigned char* p = g->buffers[a->buffer].data + a->offset;
    for (uint64_t i = 0; i < a->count; ++i, p += a->stride) {
        if (a->component == 5121) {
            p[0] = (unsigned char)v[i];
        } else if (a->component == 5123) {
            p[0] = (unsigned char)v[i];
            p[1] = (unsigned char)(v[i] >> 8);
        } else {
            gltf_put32(p, v[i]);
        }
    }
    g->buffers[a->buffer].dirty = 1;
}

gc_status gc_gltf_set_indices(gc_gltf* g, size_t i, const uint32_t* indices, size_t count, gc_error* err)
{
    if (!g || i >= g->prim_count)
        return gc_fail(err, GC_ERR_USAGE, "gc_gltf_set_indices: no primitive %zu", i);
    gltf_prim* p = &g->prims[i];
    if (p->index_accessor == SIZE_MAX || p->pub.topology != GC_TRIANGLE_LIST)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: only indexed triangle lists are rewritten",
                       g->path, p->pub.mesh, p->pub.primitive);
    if (p->pub.indices_kept)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: its index data stays: %s", g->path,
                       p->pub.mesh, p->pub.primitive, p->pub.indices_kept);
    if (count != p->pub.index_count)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: %zu indices given for %zu", g->path,
                       p->pub.mesh, p->pub.primitive, count, p->pub.index_count);
    const gltf_accessor* a = &g->accessors[p->index_accessor];
    if (!a->has_view)
        return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu].indices has no buffer view to rewrite",
                       g->path, p->pub.mesh, p->pub.primitive);
    /* below the vertex count of every primitive that draws these index data */
    for (size_t k = 0; k < count; ++k)
        if (indices[k] >= a->user_vertices || (p->pub.index_bits < 32 && indices[k] >> p->pub.index_bits))
            return gc_fail(err, GC_ERR_USAGE, "%s: meshes[%zu].primitives[%zu]: index %zu (%lu) is out of range",
                           g->path, p->pub.mesh, p->pub.primitive, k, (unsigned long)indices[k]);
    /* primitives that share the accessor share this copy: they see the same values (O(count),
     * however many share it) */
    memmove(p->indices, indices, count * sizeof *indices);
    write_indices(g, a, indices);
    return GC_OK;
}

/* Whether the bytes of accessor x and accessor y may overlap: their extents cross and they
 * are not disjoint fields of one interleaved layout. */
static bool accessors_overlap(const gltf_accessor* x, const gltf_accessor* y)
{
    if (!x->has_view || !y->has_view || x->bytes_of != y->bytes_of || !x->count || !y->count)
        return false;
    uint64_t xs = x->offset, xe = x->offset + (x->count - 1) * x->stride + x->element;
    uint64_t ys = y->offset, ye = y->offset + (y->count - 1) * y->stride + y->element;
    if (xe <= ys || ye <= xs)
        return false;
    if (x->stride != y->stride)
        return true;
    /* one stride: fields at their offsets within the stride must not cross */
    uint64_t xo = x->offset % x->stride, yo = y->offset % y->stride;
    if (xo + x->element > x->stride || yo + y->element > y->stride)
        return true;
    return !(xo + x->element <= yo || yo + y->element <= xo);
}

/* Permutes the elements of accessor x: element v moves to slot to[v]. */
static bool permute_accessor(gc_gltf* g, const gltf_accessor* x, const uint32_t* to)
{
    if (!x->has_view || !x->count)
        return true; /* zeros: every order is the same */
    unsigned char* copy = gc_alloc_array((size_t)x->count, (size_t)x->element, false);
    if (!copy)
        return false;
    unsigned char* base = g->buffers[x->buffer].data + x->offset;
    for (uint64_t v = 0; v < x->count; ++v)
        memcpy(copy + v * x->element, base + v * x->stride, (size_t)x->element);
    for (uint64_t v = 0; v < x->count; ++v)
        memcpy(base + (uint64_t)to[v] * x->stride, copy + v * x->element, (size_t)x->element);
    free(copy);
    g->buffers[x->buffer].dirty = 1;
    return true;
}

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static bool same_set(const gltf_prim* a, const gltf_prim* b)
{
    if (a->attribute_count != b->attribute_count)
        return false;
    for (size_t k = 0; k < a->attribute_count; ++k)
        if (a->set_key[k] != b->set_key[k])
            return false;
    return true;
}

/* Orders primitives by their attribute sets (count, then the accessors' data), then file
 * order. */
static int compare_sets(const void* a, const void* b)
{
    const gltf_prim* x = *(const gltf_prim* const*)a;
    const gltf_prim* y = *(const gltf_prim* const*)b;
    if (x->attribute_count != y->attribute_count)
        return x->attribute_count < y->attribute_count ? -1 : 1;
    for (size_t k = 0; k < x->attribute_count; ++k)
        if (x->set_key[k] != y->set_key[k])
            return x->set_key[k] < y->set_key[k] ? -1 : 1;
    return (x > y) - (x < y);
}

/* Accessors that read the same elements: with a view, the same bytes (buffer, or the
 * buffer of the same file), offset, stride, element size, component type and count;
 * without one (zeros), the same element size, component type and count. Sparse accessors
 * are each their own. */
static int compare_data(const gltf_accessor* x, const gltf_accessor* y)
{
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    CMP(sparse); CMP(has_view); CMP(element); CMP(component); CMP(count);
    if (x->sparse)
        return (x > y) - (x < y);
    if (x->has_view) {
        CMP(bytes_of); CMP(offset); CMP(stride);
    }
#undef CMP
    return 0;
}

static int compare_data_refs(const void* a, const void* b)
{
    const gltf_accessor* x = *(const gltf_accessor* const*)a;
    const gltf_accessor* y = *(const gltf_accessor* const*)b;
    int c = compare_data(x, y);
    return c ? c : (x > y) - (x < y);
}

/* Sets every accessor's same_data and every primitive's set_key (in *keys, owned by the
 * caller): O(accessors log accessors + attributes log attributes). */
static bool data_keys(gc_gltf* g, size_t** keys)
{
    size_t na = g->accessor_count, total = 0;
    for (size_t i = 0; i < g->prim_count; ++i)
        total += g->prims[i].attribute_count;
    gltf_accessor** order = gc_alloc_array(na ? na : 1, sizeof *order, false);
    *keys = gc_alloc_array(total ? total : 1, sizeof **keys, false);
    if (!order || !*keys) {
        free(order), free(*keys);
        *keys = NULL;
        return false;
    }
    for (size_t a = 0; a < na; ++a)
        order[a] = &g->accessors[a];
    qsort(order, na, sizeof *order, compare_data_refs); /* equal data: in accessor order */
    for (size_t k = 0; k < na; ++k)
        order[k]->same_data = k && compare_data(order[k - 1], order[k]) == 0 ? order[k - 1]->same_data
                                                                             : (size_t)(order[k] - g->accessors);
    free(order);
    size_t at = 0;
    for (size_t i = 0; i < g->prim_count; ++i) {
        gltf_prim* p = &g->prims[i];
        for (size_t k = 0; k < p->attribute_count; ++k)
            (*keys)[at + k] = g->accessors[p->attributes[k]].same_data;
        qsort(*keys + at, p->attribute_count, sizeof **keys, gltf_compare_size);
        p->set_key = *keys + at;
        at += p->attribute_count;
    }
    return true;
}

void gltf_free_sets(vertex_sets* v)
{
    free(v->start);
    free(v->members);
    memset(v, 0, sizeof *v);
}

bool gltf_assign_sets(gc_gltf* g, vertex_sets* v)
{
    memset(v, 0, sizeof *v);
    size_t n = g->prim_count;
    gltf_prim** order = gc_alloc_array(n ? n : 1, sizeof *order, false);
    size_t* relabel = gc_alloc_array(n ? n : 1, sizeof *relabel, false);
    v->start = gc_alloc_array(n + 2, sizeof *v->start, true);
    v->members = gc_alloc_array(n ? n : 1, sizeof *v->members, false);
    size_t* keys = NULL;
    if (!order || !relabel || !v->start || !v->members || !data_keys(g, &keys)) {
        free(order), free(relabel), gltf_free_sets(v);
        return false;
    }
    for (size_t i = 0; i < n; ++i)
        order[i] = &g->prims[i];
    qsort(order, n, sizeof *order, compare_sets);
    size_t runs = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i && !same_set(order[i - 1], order[i]))
            runs++;
        order[i]->group = runs; /* provisional: by set */
    }
    for (size_t i = 0; i < n; ++i)
        g->prims[i].set_key = NULL;
    free(keys);
    for (size_t i = 0; i < n; ++i)
        relabel[i] = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) { /* number the sets by first appearance */
        size_t t = g->prims[i].group;
        if (relabel[t] == SIZE_MAX)
            relabel[t] = v->count++;
        g->prims[i].group = relabel[t];
        v->start[g->prims[i].group + 1]++;
    }
    for (size_t k = 0; k < v->count; ++k)
        v->start[k + 1] += v->start[k];
    memset(relabel, 0, (v->count ? v->count : 1) * sizeof *relabel); /* fill positions */
    for (size_t i = 0; i < n; ++i) {
        size_t k = g->prims[i].group;
        v->members[v->start[k] + relabel[k]++] = i;
    }
    free(order), free(relabel);
    for (size_t a = 0; a < g->accessor_count; ++a)
        g->accessors[a].group = g->accessors[a].index_group = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) {
        gltf_prim* p = &g->prims[i];
        for (size_t k = 0; k < p->attribute_count; ++k) {
            gltf_accessor* x = &g->accessors[p->attributes[k]];
            x->group = x->group == SIZE_MAX || x->group == p->group ? p->group : SIZE_MAX - 1;
        }
        if (p->index_accessor != SIZE_MAX) {
            gltf_accessor* x = &g->accessors[p->index_accessor];
            x->index_group = x->index_group == SIZE_MAX || x->index_group == p->group ? p->group : SIZE_MAX - 1;
        }
    }
    return true;
}

/* The expansion cap on the vertices of all vertex sets together (each set's vertices get
 * ids, and positions, of their own): accessors over the same data share a set, but a file
 * may still shift each accessor by one byte. */
gc_status gltf_check_vertex_sets(gc_gltf* g, gc_error* err)
{
    vertex_sets sets;
    if (!gltf_assign_sets(g, &sets))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    uint64_t total = 0, cap = gltf_expansion_cap(g);
    gc_status s = GC_OK;
    for (size_t k = 0; k < sets.count && !s; ++k) {
        const gltf_prim* p = &g->prims[sets.members[sets.start[k]]];
        if (p->pub.vertex_count > cap - total)
            s = gc_fail(err, GC_ERR_LIMIT,
                        "%s: meshes[%zu].primitives[%zu]: more vertices than the reader expands from an input of "
                        "%llu bytes (at most %llu in all vertex sets: 8 a byte, plus 2^20)",
                        g->path, p->pub.mesh, p->pub.primitive, (unsigned long long)g->input_bytes,
                        (unsigned long long)cap);
        else
            total += p->pub.vertex_count;
    }
    gltf_free_sets(&sets);
    return s;
}

/* The accessors of each buffer view (CSR), and whether a view's bytes overlap another
 * view's in the same buffer. */
typedef struct view_index {
    size_t* start;    /* views + 1 */
    size_t* members;  /* accessors with a view */
    bool* overlaps;   /* views */
} view_index;

static void free_views(view_index* v)
{
    free(v->start), free(v->members), free(v->overlaps);
    memset(v, 0, sizeof *v);
}

typedef struct view_span {
    size_t buffer;
    uint64_t start, end;
    size_t view;
} view_span;

static int compare_spans(const void* a, const void* b)
{
    const view_span* x = a;
    const view_span* y = b;
    if (x->buffer != y->buffer)
        return x->buffer < y->buffer ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

static bool index_views(gc_gltf* g, view_index* v)
{
    memset(v, 0, sizeof *v);
    json_t* views = json_object_get(g->doc, "bufferViews");
    size_t nv = gltf_array_size(g->doc, "bufferViews");
    v->start = gc_alloc_array(nv + 2, sizeof *v->start, true);
    v->members = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *v->members, false);
    v->overlaps = gc_alloc_array(nv ? nv : 1, sizeof *v->overlaps, true);
    view_span* spans = gc_alloc_array(nv ? nv : 1, sizeof *spans, false);
    size_t* fill = gc_alloc_array(nv ? nv : 1, sizeof *fill, true);
    if (!v->start || !v->members || !v->overlaps || !spans || !fill) {
        free(spans), free(fill), free_views(v);
        return false;
    }
    for (size_t a = 0; a < g->accessor_count; ++a)
        if (g->accessors[a].has_view)
            v->start[g->accessors[a].view + 1]++;
    for (size_t k = 0; k < nv; ++k)
        v->start[k + 1] += v->start[k];
    for (size_t a = 0; a < g->accessor_count; ++a)
        if (g->accessors[a].has_view) {
            size_t k = g->accessors[a].view;
            v->members[v->start[k] + fill[k]++] = a;
        }
    size_t n = 0;
    for (size_t k = 0; k < nv; ++k) {
        json_t* vj = json_array_get(views, k);
        uint64_t offset = 0, length = 0;
        size_t buffer = 0;
        gltf_member_ref(vj, "buffer", g->buffer_count, &buffer);
        gltf_member_u64(vj, "byteOffset", 0, &offset);
        gltf_member_u64(vj, "byteLength", 0, &length);
        if (g->buffers[buffer].same_as != SIZE_MAX) /* views of one file's bytes may overlap */
            buffer = g->buffers[buffer].same_as;
        if (length)
            spans[n++] = (view_span){buffer, offset, offset + length, k};
    }
    qsort(spans, n, sizeof *spans, compare_spans);
    /* sorted by start: a view overlaps an earlier one when it starts before the largest end
     * so far, and a later one when the next starts before its end */
    uint64_t max_end = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i && spans[i].buffer != spans[i - 1].buffer)
            max_end = 0;
        if (spans[i].start < max_end)
            v->overlaps[spans[i].view] = true;
        if (i + 1 < n && spans[i + 1].buffer == spans[i].buffer && spans[i + 1].start < spans[i].end)
            v->overlaps[spans[i].view] = true;
        max_end = spans[i].end > max_end ? spans[i].end : max_end;
    }
    free(spans), free(fill);
    return true;
}

/* An accessor's extent within its view, for sorting by where it starts. */
typedef struct accessor_span {
    uint64_t start;
    size_t accessor;
} accessor_span;

static int compare_accessor_spans(const void* a, const void* b)
{
    const accessor_span* x = a;
    const accessor_span* y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->accessor > y->accessor) - (x->accessor < y->accessor);
}

/* Sets every accessor's crossed_by: the accessors of each view sorted by their first byte,
 * each compared with the later ones that start before it ends (accessors_overlap, so the
 * fields of one interleaved layout do not cross). A view that overlaps another view marks
 * all its accessors; so does running out of the pair budget (a hostile file may put a
 * million accessors on the same bytes). */
static bool mark_crossings(gc_gltf* g, const view_index* views)
{
    size_t nv = gltf_array_size(g->doc, "bufferViews");
    accessor_span* spans = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *spans, false);
    if (!spans)
        return false;
    uint64_t budget = (uint64_t)1 << 27;
    for (size_t k = 0; k < nv; ++k) {
        size_t n = views->start[k + 1] - views->start[k];
        const size_t* members = views->members + views->start[k];
        if (views->overlaps[k]) {
            for (size_t i = 0; i < n; ++i)
                g->accessors[members[i]].crossed_by = CROSSED_VIEW;
            continue;
        }
        for (size_t i = 0; i < n; ++i)
            spans[i] = (accessor_span){g->accessors[members[i]].offset, members[i]};
        qsort(spans, n, sizeof *spans, compare_accessor_spans);
        for (size_t i = 0; i < n; ++i) {
            gltf_accessor* x = &g->accessors[spans[i].accessor];
            if (!x->count)
                continue;
            uint64_t end = x->offset + (x->count - 1) * x->stride + x->element;
            for (size_t j = i + 1; j < n && spans[j].start < end; ++j) {
                gltf_accessor* y = &g->accessors[spans[j].accessor];
                if (budget == 0) { /* the rest of this view, once (not again for each i) */
                    for (size_t r = i; r < n; ++r)
                        g->accessors[spans[r].accessor].crossed_by = CROSSED_VIEW;
                    i = n;
                    break;
                }
                --budget;
                if (accessors_overlap(x, y)) {
                    x->crossed_by = x->crossed_by == SIZE_MAX ? spans[j].accessor : x->crossed_by;
                    y->crossed_by = y->crossed_by == SIZE_MAX ? spans[i].accessor : y->crossed_by;
                }
            }
        }
    }
    free(spans);
    return true;
}

static const char* const mode_names[7] = {"points",    "lines",          "line loop",   "line strip",
                                          "triangles", "triangle strip", "triangle fan"};

/* Sets each indexed triangle list's indices_kept: its index data may be reordered only when
 * nothing else reads those bytes. A primitive of another mode drawing the same accessor
 * would see its strip's triangles or its points' order change; an accessor that also holds
 * vertex data or animation keys, or whose bytes another accessor reads, would change for
 * that other user too. O(accessors log accessors + primitives). */
gc_status gltf_classify_index_data(gc_gltf* g, gc_error* err)
{
    view_index views;
    if (!index_views(g, &views))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the buffer views", g->path);
    bool ok = mark_crossings(g, &views);
    free_views(&views);
    if (!ok)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the accessors", g->path);
    for (size_t i = 0; i < g->prim_count; ++i) {
        gltf_prim* p = &g->prims[i];
        if (p->index_accessor == SIZE_MAX || p->pub.topology != GC_TRIANGLE_LIST)
            continue;
        size_t ai = p->index_accessor;
        const gltf_accessor* a = &g->accessors[ai];
        char* t = p->kept;
        size_t size = sizeof p->kept;
        if (!a->has_view) {
            snprintf(t, size, "its index accessor accessors[%zu] has no buffer view to rewrite", ai);
        } else if (a->uses || a->other_uses > a->index_uses) {
            snprintf(t, size, "its index accessor accessors[%zu] is also used as vertex data or by a skin or an "
                              "animation", ai);
        } else if (a->crossed_by == CROSSED_VIEW) {
            snprintf(t, size, "the buffer view of its index accessor accessors[%zu] overlaps another buffer view", ai);
        } else if (a->crossed_by != SIZE_MAX) {
            snprintf(t, size, "its index accessor accessors[%zu] shares bytes with accessors[%zu]", ai, a->crossed_by);
        } else if (a->odd_count) {
            int n = snprintf(t, size, "its index accessor accessors[%zu] is also drawn by", ai);
            size_t listed = a->odd_count < sizeof a->odd_users / sizeof *a->odd_users
                                ? a->odd_count : sizeof a->odd_users / sizeof *a->odd_users;
            for (size_t k = 0; k < listed && n > 0 && (size_t)n < size; ++k) {
                const gltf_prim* q = &g->prims[a->odd_users[k]];
                n += snprintf(t + n, size - (size_t)n, "%s meshes[%zu].primitives[%zu] (%s)", k ? "," : "",
                              q->pub.mesh, q->pub.primitive, mode_names[q->pub.mode]);
            }
            if (n > 0 && (size_t)n < size && a->odd_count > listed)
                snprintf(t + n, size - (size_t)n, " and %zu more", a->odd_count - listed);
        } else {
            continue;
        }
        p->pub.indices_kept = p->kept;
    }
    return GC_OK;
}

/* Why the attributes of vertex set `gid` cannot be permuted, or NULL. `budget` bounds the
 * accessor pairs compared over the whole document (a hostile file may hold a million
 * accessors in one view). */
static const char* set_problem(gc_gltf* g, const vertex_sets* sets, const view_index* views, size_t gid,
                               uint64_t* budget)
{
    const size_t* members = sets->members + sets->start[gid];
    size_t users = sets->start[gid + 1] - sets->start[gid];
    const gltf_prim* p0 = &g->prims[members[0]];
    if (p0->attribute_count == 0 || p0->pub.vertex_count == 0)
        return "it has no vertex attributes";
    for (size_t m = 0; m < users; ++m)
        if (g->prims[members[m]].index_accessor == SIZE_MAX)
            return "a primitive with these attributes has no indices";
    for (size_t k = 0; k < p0->attribute_count; ++k) {
        const gltf_accessor* x = &g->accessors[p0->attributes[k]];
        if (x->sparse)
            return "an attribute accessor is sparse";
        if (x->other_uses)
            return "an attribute accessor is also used as indices or by a skin or an animation";
    }
    /* bytes: no other accessor may lie under an attribute's elements */
    for (size_t k = 0; k < p0->attribute_count; ++k) {
        const gltf_accessor* x = &g->accessors[p0->attributes[k]];
        if (!x->has_view)
            continue;
        if (views->overlaps[x->view])
            return "an attribute's buffer view overlaps another buffer view";
        for (size_t j = views->start[x->view]; j < views->start[x->view + 1]; ++j) {
            size_t a = views->members[j];
            if (a == p0->attributes[k])
                continue;
            if (*budget == 0)
                return "the file has too many accessors to check their bytes for overlap";
            --*budget;
            if (accessors_overlap(x, &g->accessors[a]))
                return "another accessor overlaps an attribute's bytes";
        }
    }
    return NULL;
}

/* Why the index data of primitive p cannot be renumbered, or NULL: its values are rewritten
 * in place, so nothing else may read those bytes. */
static const char* index_problem(const gc_gltf* g, const gltf_prim* p)
{
    const gltf_accessor* a = &g->accessors[p->index_accessor];
    if (!a->has_view)
        return "an index accessor has no buffer view to rewrite";
    if (a->uses || a->other_uses > a->index_uses)
        return "an index accessor is also used as vertex data or by a skin or an animation";
    if (a->crossed_by != SIZE_MAX)
        return "an index accessor shares its bytes with another accessor or buffer view";
    return NULL;
}

static size_t find_root(size_t* parent, size_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* Vertex sets joined into components: one index accessor drawn over two sets of
 * attributes, or one attribute accessor used by two sets, needs one permutation of both,
 * or neither. Component c's sets (in set order) are set_list[set_start[c] ..
 * set_start[c + 1]), its primitives (in file order) prim_list[prim_start[c] ..
 * prim_start[c + 1]). Union-find over the sets: O((primitives + attributes) log sets). */
typedef struct vertex_components {
    size_t count;
    size_t* set_start;  /* count + 1 */
    size_t* set_list;   /* sets->count */
    size_t* prim_start; /* count + 1 */
    size_t* prim_list;  /* prim_count */
} vertex_components;

static void free_components(vertex_components* c)
{
    free(c->set_start), free(c->set_list), free(c->prim_start), free(c->prim_list);
    memset(c, 0, sizeof *c);
}

static bool join_sets(gc_gltf* g, const vertex_sets* sets, vertex_components* c)
{
    memset(c, 0, sizeof *c);
    size_t ns = sets->count ? sets->count : 1, np = g->prim_count ? g->prim_count : 1;
    size_t* parent = gc_alloc_array(ns, sizeof *parent, false);
    size_t* label = gc_alloc_array(ns, sizeof *label, false);
    size_t* fill = gc_alloc_array(ns + 1, sizeof *fill, true);
    c->set_start = gc_alloc_array(ns + 2, sizeof *c->set_start, true);
    c->set_list = gc_alloc_array(ns, sizeof *c->set_list, false);
    c->prim_start = gc_alloc_array(ns + 2, sizeof *c->prim_start, true);
    c->prim_list = gc_alloc_array(np, sizeof *c->prim_list, false);
    size_t* owner = gc_alloc_array(g->accessor_count ? g->accessor_count : 1, sizeof *owner, false);
    bool ok = parent && label && fill && c->set_start && c->set_list && c->prim_start && c->prim_list && owner;
    if (ok) {
        for (size_t s = 0; s < sets->count; ++s)
            parent[s] = s, label[s] = SIZE_MAX;
        for (size_t a = 0; a < g->accessor_count; ++a)
            owner[a] = SIZE_MAX;
        for (size_t i = 0; i < g->prim_count; ++i) {
            const gltf_prim* p = &g->prims[i];
            /* the sets of one index accessor's users, and of one attribute accessor's */
            size_t with[2] = {SIZE_MAX, SIZE_MAX};
            if (p->index_accessor != SIZE_MAX)
                with[0] = g->prims[g->accessors[p->index_accessor].first_index_user].group;
            for (size_t k = 0; k <= p->attribute_count; ++k) {
                if (k < p->attribute_count) {
                    size_t a = p->attributes[k];
                    if (owner[a] == SIZE_MAX)
                        owner[a] = p->group;
                    with[1] = owner[a];
                }
                for (size_t w = 0; w < 2; ++w) {
                    if (with[w] == SIZE_MAX)
                        continue;
                    size_t x = find_root(parent, p->group), y = find_root(parent, with[w]);
                    if (x != y)
                        parent[x > y ? x : y] = x < y ? x : y;
                }
            }
        }
        /* components numbered by their first set (sets are numbered by first appearance) */
        for (size_t s = 0; s < sets->count; ++s) {
            size_t r = find_root(parent, s);
            if (label[r] == SIZE_MAX)
                label[r] = c->count++;
            label[s] = label[r];
            c->set_start[label[s] + 1]++;
        }
        for (size_t i = 0; i < g->prim_count; ++i)
            c->prim_start[label[g->prims[i].group] + 1]++;
        for (size_t k = 0; k < c->count; ++k) {
            c->set_start[k + 1] += c->set_start[k];
            c->prim_start[k + 1] += c->prim_start[k];
        }
        for (size_t s = 0; s < sets->count; ++s)
            c->set_list[c->set_start[label[s]] + fill[label[s]]++] = s;
        memset(fill, 0, (ns + 1) * sizeof *fill);
        for (size_t i = 0; i < g->prim_count; ++i) {
            size_t k = label[g->prims[i].group];
            c->prim_list[c->prim_start[k] + fill[k]++] = i;
        }
    }
    free(parent), free(label), free(fill), free(owner);
    if (!ok)
        free_components(c);
    return ok;
}

gc_status gc_gltf_reorder_vertices(gc_gltf* g, gc_error* err)
{
    return gc_gltf_reorder_vertices_for(g, NULL, err);
}

/* For the fetch numbering: the primitive's first-use numbers placed for `fetch`
 * (gc_reorder_vertices_fetch on a copy of its indices): rank[v] = the new number of vertex v
 * among the primitive's, 0 .. used - 1, for the vertices it uses. */
static gc_status fetch_ranks(const gltf_prim* p, size_t n, const gc_fetch_spec* fetch, uint32_t* rank,
                             gc_error* err)
{
    uint32_t* copy = gc_alloc_array(p->pub.index_count ? p->pub.index_count : 1, sizeof *copy, false);
    if (!copy)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for %zu indices", p->pub.index_count);
    memcpy(copy, p->indices, p->pub.index_count * sizeof *copy);
    uint32_t used = 0;
    gc_status s = gc_reorder_vertices_fetch(copy, p->pub.index_count, (uint32_t)n, fetch, NULL, rank, &used, err);
    free(copy);
    return s;
}

gc_status gc_gltf_reorder_vertices_for(gc_gltf* g, const gc_fetch_spec* fetch, gc_error* err)
{
    if (!g)
        return gc_fail(err, GC_ERR_USAGE, "gc_gltf_reorder_vertices: no document");
    vertex_sets sets;
    view_index views;
    vertex_components comps;
    if (!gltf_assign_sets(g, &sets))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    if (!index_views(g, &views)) {
        gltf_free_sets(&sets);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory indexing the buffer views", g->path);
    }
    if (!join_sets(g, &sets, &comps)) {
        gltf_free_sets(&sets), free_views(&views);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory grouping %zu primitives", g->path, g->prim_count);
    }
    json_t* accessors = json_object_get(g->doc, "accessors");
    uint64_t budget = (uint64_t)1 << 27;
    gc_status s = GC_OK;
    for (size_t c = 0; c < comps.count && !s; ++c) {
        const size_t* members = comps.prim_list + comps.prim_start[c];
        size_t member_count = comps.prim_start[c + 1] - comps.prim_start[c];
        const size_t* set_ids = comps.set_list + comps.set_start[c];
        size_t set_count = comps.set_start[c + 1] - comps.set_start[c];
        gltf_prim* p0 = &g->prims[members[0]];
        const char* problem = NULL;
        for (size_t k = 0; k < set_count && !problem; ++k) {
            problem = set_problem(g, &sets, &views, set_ids[k], &budget);
            if (!problem && g->prims[sets.members[sets.start[set_ids[k]]]].pub.vertex_count != p0->pub.vertex_count)
                problem = "an index accessor is shared with primitives whose attributes hold another number of "
                          "vertices";
        }
        for (size_t m = 0; m < member_count && !problem; ++m)
            problem = index_problem(g, &g->prims[members[m]]);
        size_t n = (size_t)p0->pub.vertex_count;
        uint32_t* to = problem ? NULL : gc_alloc_array(n, sizeof(uint32_t), false);    /* to[old] = new */
        uint32_t* order = problem ? NULL : gc_alloc_array(n, sizeof(uint32_t), false); /* first-use order */
        uint32_t* rank = problem || !fetch ? NULL : gc_alloc_array(n, sizeof(uint32_t), false); /* fetch's */
        if (!problem && (!to || !order || (fetch && !rank))) {
            free(to), free(order), free(rank);
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu vertices", g->path, n);
            break;
        }
        if (!problem) {
            memset(to, 0xff, n * sizeof *to);
            /* Primitive by primitive in file order: the vertices a primitive uses first (not
             * used by an earlier one), in order of first use, take the slots those same
             * vertices had, sorted; unused vertices stay. A primitive that shares no vertex
             * keeps its set of values (so its index accessor keeps its min and max); one
             * primitive alone gets its used slots filled in first-use order. */
            size_t used = 0;
            for (size_t m = 0; m < member_count && !s; ++m) {
                const gltf_prim* p = &g->prims[members[m]];
                if (p->pub.shares_indices_with != SIZE_MAX)
                    continue;
                size_t start = used;
                for (size_t k = 0; k < p->pub.index_count; ++k) {
                    uint32_t v = p->indices[k];
                    if (to[v] == UINT32_MAX) {
                        to[v] = 0;
                        order[used++] = v;
                    }
                }
                uint32_t* slots = gc_alloc_array(used - start ? used - start : 1, sizeof(uint32_t), false);
                if (!slots) {
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu vertices", g->path, n);
                    break;
                }
                memcpy(slots, order + start, (used - start) * sizeof *slots);
                qsort(slots, used - start, sizeof *slots, compare_u32);
                /* with a fetch model, the component's first primitive (every vertex it uses is
                 * new) takes its slots in the fetch numbering's order; later ones first use */
                if (rank && start == 0 && !(s = fetch_ranks(p, n, fetch, rank, err)))
                    for (size_t k = start; k < used; ++k)
                        to[order[k]] = slots[rank[order[k]]];
                else
                    for (size_t k = start; k < used; ++k)
                        to[order[k]] = slots[k - start];
                free(slots);
            }
            for (size_t v = 0; v < n && !s; ++v)
                if (to[v] == UINT32_MAX)
                    to[v] = (uint32_t)v;
            /* each index accessor that declares a min or max keeps them (the validator
             * checks them); where sharing would change them, the vertices stay */
            for (size_t m = 0; m < member_count && !problem && !s; ++m) {
                const gltf_prim* p = &g->prims[members[m]];
                json_t* declared = json_array_get(accessors, p->index_accessor);
                if (!p->pub.index_count || (!json_object_get(declared, "min") && !json_object_get(declared, "max")))
                    continue;
                uint32_t omin = UINT32_MAX, omax = 0, nmin = UINT32_MAX, nmax = 0;
                for (size_t k = 0; k < p->pub.index_count; ++k) {
                    uint32_t v = p->indices[k], w = to[v];
                    omin = v < omin ? v : omin, omax = v > omax ? v : omax;
                    nmin = w < nmin ? w : nmin, nmax = w > nmax ? w : nmax;
                }
                if (omin != nmin || omax != nmax)
                    problem = "an index accessor's min or max would change";
            }
        }
        /* every primitive whose vertices stay is named, not only the first of its set */
        for (size_t m = 0; m < member_count && problem && !s; ++m) {
            const gltf_prim* p = &g->prims[members[m]];
            if (p->pub.mesh_name)
                gltf_note(g, "%s: meshes[%zu].primitives[%zu] (mesh '%.100s'): vertices not reordered: %s", g->path,
                     p->pub.mesh, p->pub.primitive, p->pub.mesh_name, problem);
            else
                gltf_note(g, "%s: meshes[%zu].primitives[%zu]: vertices not reordered: %s", g->path, p->pub.mesh,
                     p->pub.primitive, problem);
        }
        /* one permutation for every set of the component: each attribute accessor once,
         * however many sets or attributes name it (its group marks it done) */
        for (size_t k = 0; k < set_count && !s && !problem; ++k) {
            const gltf_prim* q = &g->prims[sets.members[sets.start[set_ids[k]]]];
            for (size_t a = 0; a < q->attribute_count && !s; ++a) {
                gltf_accessor* x = &g->accessors[q->attributes[a]];
                if (x->group == PERMUTED)
                    continue;
                if (!permute_accessor(g, x, to))
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory permuting accessor %zu", g->path,
                                q->attributes[a]);
                x->group = PERMUTED;
            }
        }
        for (size_t m = 0; m < member_count && !s && !problem; ++m) {
            gltf_prim* p = &g->prims[members[m]];
            if (p->pub.shares_indices_with != SIZE_MAX)
                continue; /* the first user's copy, renumbered once (it is in this component) */
            for (size_t k = 0; k < p->pub.index_count; ++k)
                p->indices[k] = to[p->indices[k]];
            write_indices(g, &g->accessors[p->index_accessor], p->indices);
        }
        free(to), free(order), free(rank);
    }
    free_components(&comps);
    gltf_free_sets(&sets);
    free_views(&views);
    return s;
}
