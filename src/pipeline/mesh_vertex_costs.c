// SPDX-License-Identifier: MIT
/* gc_mesh_vertex_costs (gpucache.h): a mesh file's overdraw and vertex fetch beside its
 * cache counts, as `gpucache analyze --overdraw --fetch SPEC` and the Python package's
 * analyze(overdraw=, fetch=) show them. The models are stated in src/vertexpipe/; this
 * file only decides what a mesh file's draws are (the same as gc_mesh_analyze's) and which
 * positions and vertex counts go with them. */
#include "pipeline.h"
#include "../io/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gc_mesh_vertex_costs_free(gc_mesh_vertex_costs* c)
{
    if (!c)
        return;
    free(c->draw_overdraw);
    free(c->fetch);
    free(c->draw_fetch);
    memset(c, 0, sizeof *c);
}

gc_status gc_mesh_load_triangles(const char* path, const gc_load_options* options, uint32_t** out, size_t* count,
                                 gc_mesh* mesh, gc_error* err)
{
    *out = NULL;
    *count = 0;
    gc_mesh local;
    gc_mesh* m = mesh ? mesh : &local;
    gc_status s = gc_mesh_load(path, options, m, err);
    if (s)
        return s;
    gc_draw d = {m->indices, m->index_count, m->topology, m->restart_enabled, m->restart_value};
    uint64_t primitives = 0;
    s = gc_draw_validate(&d, path, &primitives, err);
    if (!s && d.topology != GC_TRIANGLE_LIST && d.topology != GC_TRIANGLE_STRIP && d.topology != GC_TRIANGLE_FAN)
        s = gc_fail(err, GC_ERR_USAGE, "%s: a %s has no triangles", path, gc_topology_name(d.topology));
    uint32_t* tri = NULL;
    if (!s && !(tri = gc_alloc_array(primitives ? 3 * (size_t)primitives : 1, sizeof *tri, false)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %llu triangles", path, (unsigned long long)primitives);
    if (!s)
        s = gc_draw_triangles(&d, tri, 3 * (size_t)primitives, count, err);
    if (s || !mesh)
        gc_mesh_free(m);
    if (s) {
        free(tri);
        *count = 0;
        return s;
    }
    *out = tri;
    return GC_OK;
}

/* One triangle draw's overdraw over the positions it references: its ids rebased to the
 * smallest it uses, so that the box is the draw's own (a glTF primitive's vertex set). */
static gc_status draw_overdraw(const uint32_t* tri, size_t n, const float* xyz, size_t vertex_count,
                               uint32_t* scratch, gc_overdraw_stats* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return GC_OK;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < n; ++i) {
        lo = tri[i] < lo ? tri[i] : lo;
        hi = tri[i] > hi ? tri[i] : hi;
    }
    if (hi >= vertex_count)
        return gc_fail(err, GC_ERR_DATA, "overdraw: index %u is past the %zu vertices with positions", hi,
                       vertex_count);
    for (size_t i = 0; i < n; ++i)
        scratch[i] = tri[i] - lo;
    return gc_analyze_overdraw(scratch, n, xyz + 3 * (size_t)lo, (size_t)(hi - lo) + 1, 0, out, err);
}

/* A glTF's fetch for a spec that follows a model: each triangle primitive is a draw of its
 * own (the model starts empty, as it does for every draw on a GPU) over the attribute
 * accessors it really has (gc_gltf_draw_streams); the file's figures add the draws'. */
static gc_status gltf_fetch(const char* path, const gc_load_options* options, const gc_fetch_spec* fetch,
                            const gc_model* models, size_t model_count, const uint32_t* tri, size_t n,
                            const gc_mesh* mesh, gc_mesh_vertex_costs* out, gc_error* err)
{
    gc_gltf_draw* draws = NULL;
    size_t draw_count = 0;
    gc_status s = gc_gltf_draw_streams(path, options, &draws, &draw_count, err);
    if (s)
        return s;
    size_t one = n / 3;
    const size_t* runs = mesh->runs ? mesh->runs : &one;
    size_t run_count = mesh->runs ? mesh->run_count : 1;
    uint32_t* local = NULL;
    if (run_count != draw_count)
        s = gc_fail(err, GC_ERR_DATA, "%s: %zu triangle draws, %zu vertex stream lists", path, run_count, draw_count);
    else if (!(out->draw_fetch = gc_alloc_array((draw_count * model_count) > 0 ? draw_count * model_count : 1,
                                                 sizeof *out->draw_fetch, true)) ||
             !(local = gc_alloc_array(n ? n : 1, sizeof *local, false)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu draws", path, draw_count);
    size_t at = 0;
    for (size_t r = 0; !s && r < draw_count; ++r) {
        const gc_gltf_draw* d = &draws[r];
        if (runs[r] > (n - at) / 3) {
            s = gc_fail(err, GC_ERR_DATA, "%s: the draws hold more triangles than the file", path);
            break;
        }
        size_t len = 3 * runs[r];
        for (size_t i = 0; i < len; ++i) {
            uint64_t v = (uint64_t)tri[at + i] - d->first_vertex;
            if (tri[at + i] < d->first_vertex || v >= d->vertex_count) {
                s = gc_fail(err, GC_ERR_DATA, "%s: draw %zu: vertex %u outside its attributes", path, r, tri[at + i]);
                break;
            }
            local[i] = (uint32_t)v;
        }
        for (size_t m = 0; !s && m < model_count; ++m) {
            gc_fetch_stats* f = &out->draw_fetch[r * model_count + m];
            s = gc_analyze_fetch(fetch, &models[m], local, len, (uint32_t)d->vertex_count,
                                 d->stream_count ? d->streams : NULL, d->stream_count, f, err);
            out->fetch[m].bytes += f->bytes;
            out->fetch[m].memory_bytes += f->memory_bytes;
            out->fetch[m].unique_bytes += f->unique_bytes;
        }
        at += len;
    }
    if (!s)
        out->draw_count = draw_count;
    for (size_t m = 0; !s && m < model_count; ++m)
        out->fetch[m].overfetch =
            out->fetch[m].unique_bytes ? (double)out->fetch[m].bytes / (double)out->fetch[m].unique_bytes : 0.0;
    free(local);
    gc_gltf_draw_streams_free(draws, draw_count);
    return s;
}

gc_status gc_mesh_vertex_costs_of(const char* path, const gc_load_options* options, int overdraw,
                                  const gc_fetch_spec* fetch, const gc_model* models, size_t model_count,
                                  gc_mesh_vertex_costs* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!path || (fetch && !fetch->every_reference && model_count && !models))
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_vertex_costs_of: no path or no models");
    if (fetch && !fetch->every_reference && model_count == 0)
        return gc_fail(err, GC_ERR_USAGE, "%s: this fetch spec fetches the vertices a model shades: name a model",
                       path);
    gc_mesh mesh;
    uint32_t* tri = NULL;
    uint32_t* scratch = NULL;
    float* xyz = NULL;
    size_t n = 0, positions = 0;
    gc_status s = gc_mesh_load_triangles(path, options, &tri, &n, &mesh, err);
    if (s)
        return s;
    if (!s && overdraw) {
        s = gc_mesh_load_positions(path, options, &xyz, &positions, err);
        if (s == GC_ERR_UNSUPPORTED) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            s = gc_fail(err, GC_ERR_USAGE, "overdraw needs vertex positions: %s", why);
        }
    }
    /* The whole mesh: every triangle draw in file order over every position. */
    if (!s && overdraw) {
        s = gc_analyze_overdraw(tri, n, xyz, positions, 0, &out->overdraw, err);
        out->has_overdraw = !s;
    }
    /* A glTF's triangle primitives each on their own (gc_mesh_load gives one run each, or
     * no runs for a file of one). */
    if (!s && overdraw && strcmp(gc_mesh_format(path), "gltf") == 0) {
        size_t one = n / 3;
        const size_t* runs = mesh.runs ? mesh.runs : &one;
        size_t run_count = mesh.runs ? mesh.run_count : 1;
        out->draw_overdraw = gc_alloc_array(run_count ? run_count : 1, sizeof *out->draw_overdraw, true);
        scratch = gc_alloc_array(n ? n : 1, sizeof *scratch, false);
        if (!out->draw_overdraw || !scratch)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu draws", path, run_count);
        size_t at = 0;
        for (size_t r = 0; !s && r < run_count; ++r) {
            if (runs[r] > (n - at) / 3) {
                s = gc_fail(err, GC_ERR_DATA, "%s: the draws hold more triangles than the file", path);
                break;
            }
            size_t len = 3 * runs[r];
            s = draw_overdraw(tri + at, len, xyz, positions, scratch, &out->draw_overdraw[r], err);
            at += len;
        }
        out->draw_count = s ? 0 : run_count;
    }
    if (!s && fetch) {
        /* the vertex count: the positions' where known, else the largest index + 1 */
        uint32_t vertices = 0;
        for (size_t i = 0; i < n; ++i)
            vertices = tri[i] + 1 > vertices ? tri[i] + 1 : vertices;
        if (positions > vertices && positions <= UINT32_MAX)
            vertices = (uint32_t)positions;
        out->model_count = fetch->every_reference ? 1 : model_count;
        out->fetch = gc_alloc_array(out->model_count ? out->model_count : 1, sizeof *out->fetch, true);
        if (!out->fetch)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
        if (!s && !fetch->every_reference && strcmp(gc_mesh_format(path), "gltf") == 0) {
            s = gltf_fetch(path, options, fetch, models, model_count, tri, n, &mesh, out, err);
        } else {
            for (size_t m = 0; !s && m < out->model_count; ++m)
                s = gc_analyze_fetch(fetch, fetch->every_reference ? NULL : &models[m], tri, n, vertices, NULL, 0,
                                     &out->fetch[m], err);
        }
        out->has_fetch = !s;
    }
    free(tri);
    free(scratch);
    free(xyz);
    gc_mesh_free(&mesh);
    if (s)
        gc_mesh_vertex_costs_free(out);
    return s;
}
