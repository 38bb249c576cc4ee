// SPDX-License-Identifier: MIT
/* gc_mesh_analyze (gpucache.h): every draw of a mesh file counted under every model, as
 * a GPU executes it: a glTF's mesh primitives each a draw of its own with its own
 * topology, any other format one draw. The gpucache tool's analyze, report and optimize
 * and the Python package all count a file here, so that they agree. */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>

const char* gc_mesh_format(const char* path)
{
    if (!path)
        return "other";
    if (gc_stdin_format(path))
        return "stdin";
    static const char* const known[][2] = {{"gltf", "gltf"}, {"glb", "gltf"}, {"obj", "obj"}, {"ply", "ply"},
                                           {"txt", "txt"},   {"idx", "txt"},  {"u16", "u16"}, {"u32", "u32"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
        if (gc_has_extension(path, known[i][0]))
            return known[i][1];
    return "other";
}

int gc_mesh_numbers_by_first_use(const char* path)
{
    return path && strcmp(gc_mesh_format(path), "obj") == 0;
}

/* What an analysis owns beside its public arrays. */
typedef struct gc_mesh_analysis_owned {
    gc_gltf* doc; /* the glTF whose mesh names the draws point to */
    gc_mesh mesh; /* the indices of a single-draw file */
    uint64_t* changes; /* its state changes */
} owned;

void gc_mesh_analysis_free(gc_mesh_analysis* a)
{
    if (!a)
        return;
    if (a->draws)
        free(a->draws[0].stats); /* one block for every draw's stats */
    free(a->draws);
    free(a->sums);
    owned* o = a->owner;
    if (o) {
        gc_gltf_free(o->doc);
        gc_mesh_free(&o->mesh);
        free(o->changes);
        free(o);
    }
    memset(a, 0, sizeof *a);
}

/* Space for `draws` draws and their stats under `count` models. */
static gc_status analysis_alloc(gc_mesh_analysis* a, size_t draws, size_t count, const char* path, gc_error* err)
{
    a->draw_count = draws;
    a->model_count = count;
    a->draws = gc_alloc_array(draws ? draws : 1, sizeof *a->draws, true);
    a->sums = gc_alloc_array(count ? count : 1, sizeof *a->sums, true);
    gc_stats* block = a->draws ? gc_alloc_array(draws && count ? draws * count : 1, sizeof *block, true) : NULL;
    if (!a->draws || !a->sums || !block) {
        free(block);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu draws of %zu models", path, draws, count);
    }
    for (size_t i = 0; i < (draws ? draws : 1); ++i)
        a->draws[i].stats = block + i * count;
    return GC_OK;
}

/* One draw counted under every model into d->stats, and added to the sums. With a trace
 * or per-vertex counts (o), the models run one at a time. */
static gc_status count_draw(gc_mesh_analysis* a, gc_mesh_draw* d, const gc_draw* draw, const gc_model* models,
                            unsigned threads, const char* path, const gc_analyze_options* base,
                            const gc_mesh_analyze_options* o, gc_error* err)
{
    gc_status s = gc_draw_validate(draw, path, &d->primitives, err);
    /* threads pay off on large draws only; a glTF may hold thousands of small ones */
    unsigned t = draw->index_count >= ((size_t)1 << 16) ? threads : 1u;
    const int one_by_one = o && (o->trace || o->per_vertex);
    if (!s && one_by_one) {
        for (size_t m = 0; !s && m < a->model_count; ++m) {
            gc_analyze_options one = base ? *base : (gc_analyze_options){0};
            one.per_vertex = o->per_vertex ? &o->per_vertex[m] : NULL;
            one.trace = o->trace;
            one.trace_user = o->trace && o->trace_users ? o->trace_users[m] : NULL;
            s = gc_analyze(&models[m], draw, &one, &d->stats[m], err);
        }
    } else if (!s && draw->index_count && a->model_count) {
        s = gc_analyze_models(models, a->model_count, draw, base, t, d->stats, err);
    }
    if (s)
        return s;
    d->indices = draw->indices;
    d->topology = draw->topology;
    d->restart_enabled = draw->restart_enabled;
    d->restart_value = draw->restart_value;
    d->index_count = draw->index_count;
    d->vertices = a->model_count ? d->stats[0].vertices : 0;
    for (size_t m = 0; m < a->model_count; ++m)
        gc_stats_add(&a->sums[m], &d->stats[m]);
    if (a->draws == d)
        a->topology = draw->topology;
    a->mixed |= draw->topology != a->topology;
    a->indices += draw->index_count;
    a->primitives += d->primitives;
    a->vertices += d->vertices;
    if (draw->topology == GC_TRIANGLE_LIST || draw->topology == GC_TRIANGLE_STRIP ||
        draw->topology == GC_TRIANGLE_FAN)
        a->triangles += d->primitives;
    return GC_OK;
}

gc_status gc_pipeline_analyze_gltf(const gc_gltf* doc, const char* path, const gc_model* models, size_t count,
                                   unsigned threads, gc_mesh_analysis* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    size_t n = gc_gltf_primitive_count(doc);
    gc_status s = analysis_alloc(out, n, count, path, err);
    for (size_t i = 0; !s && i < n; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        gc_mesh_draw* d = &out->draws[i];
        d->mesh = p->mesh;
        d->mesh_name = p->mesh_name;
        d->primitive = p->primitive;
        d->mode = p->mode;
        d->index_bits = p->index_bits;
        gc_draw draw = {p->indices, p->index_count, p->topology, 0, 0};
        s = count_draw(out, d, &draw, models, threads, path, NULL, NULL, err);
    }
    if (s)
        gc_mesh_analysis_free(out);
    return s;
}

gc_status gc_mesh_analyze(const char* path, const gc_load_options* options, const gc_model* models,
                          size_t model_count, unsigned threads, gc_mesh_analysis* out, gc_error* err)
{
    gc_mesh_analyze_options o = {0};
    o.load = options;
    o.threads = threads;
    return gc_mesh_analyze_with(path, &o, models, model_count, out, err);
}

gc_status gc_mesh_analyze_with(const char* path, const gc_mesh_analyze_options* opts, const gc_model* models,
                               size_t model_count, gc_mesh_analysis* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!path || (model_count && !models))
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_analyze: no path or no models");
    const gc_mesh_analyze_options none = {0};
    const gc_mesh_analyze_options* o = opts ? opts : &none;
    const gc_load_options* options = o->load;
    owned* own = calloc(1, sizeof *own);
    if (!own)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    gc_status s;
    if (strcmp(gc_mesh_format(path), "gltf") == 0) {
        if (o->draw.topology || o->draw.restart || o->state_changes || o->per_vertex || o->trace) {
            free(own);
            return gc_fail(err, GC_ERR_USAGE, "%s: each glTF primitive is a draw of its own: no topology, restart, "
                           "state changes, per-vertex counts or trace", path);
        }
        gc_gltf_options go = {0};
        go.allow_external_uris = options ? options->allow_external_uris : 0;
        go.max_indices = options ? options->max_indices : 0;
        s = gc_gltf_load(path, &go, &own->doc, err);
        if (!s)
            s = gc_pipeline_analyze_gltf(own->doc, path, models, model_count, o->threads, out, err);
    } else {
        gc_draw draw;
        uint64_t primitives = 0;
        size_t change_count = 0;
        s = gc_mesh_load_draw(path, options, &o->draw, &own->mesh, &draw, &primitives, err);
        if (!s && o->state_changes)
            s = gc_state_changes_load(o->state_changes, draw.index_count, &own->changes, &change_count, err);
        gc_analyze_options base = {0};
        base.state_changes = own->changes;
        base.state_change_count = change_count;
        if (!s)
            s = analysis_alloc(out, 1, model_count, path, err);
        if (!s) {
            out->draws[0].mode = -1;
            out->draws[0].index_bits = own->mesh.index_bits;
            out->draws[0].state_changes = own->changes;
            out->draws[0].state_change_count = change_count;
            s = count_draw(out, &out->draws[0], &draw, models, o->threads, path, &base, o, err);
        }
    }
    out->owner = own;
    if (s)
        gc_mesh_analysis_free(out);
    return s;
}
