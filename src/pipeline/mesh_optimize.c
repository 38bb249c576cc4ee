// SPDX-License-Identifier: MIT
/* gc_mesh_optimize (gpucache.h): the whole reordering of a mesh, written once for the
 * gpucache tool's optimize and report and the Python package: the triangle list, sparse
 * index values compacted for the optimizer and restored, one gc_optimize per run told
 * where the run sits in the draw and how the output will be numbered, and the counts
 * before and after as the output will be read back. A glTF is reordered in its document,
 * primitive by primitive. */
#include "pipeline.h"

#include "../optimize/optimize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gc_mesh_optimized_free(gc_mesh_optimized* r)
{
    if (!r)
        return;
    free(r->indices);
    free(r->dense);
    free(r->input);
    free(r->before);
    free(r->after);
    gc_gltf_free(r->gltf);
    memset(r, 0, sizeof *r);
}

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return x < y ? -1 : x > y;
}

/* Renumbers the values of `idx` to their ranks 0..k-1 in ascending order when they are
 * sparse (gc_pipeline_sparse): *values gets each rank's value (NULL when nothing was done),
 * *bound the ids' bound (the largest + 1 otherwise). */
static gc_status compact(uint32_t* idx, size_t n, uint32_t** values, uint32_t* bound, const char* what, gc_error* err)
{
    *values = NULL;
    uint64_t max = 0;
    for (size_t i = 0; i < n; ++i)
        max = idx[i] > max ? idx[i] : max;
    *bound = n ? (uint32_t)(max + 1 > UINT32_MAX ? UINT32_MAX : max + 1) : 0;
    if (!n || !gc_pipeline_sparse(max, n))
        return GC_OK;
    uint32_t* v = gc_alloc_array(n, sizeof *v, false);
    if (!v)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu index values", what, n);
    memcpy(v, idx, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (!k || v[i] != v[k - 1])
            v[k++] = v[i];
    for (size_t i = 0; i < n; ++i) {
        size_t lo = 0, hi = k; /* the rank of idx[i] among the distinct values */
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (v[mid] <= idx[i])
                lo = mid;
            else
                hi = mid;
        }
        idx[i] = (uint32_t)lo;
    }
    *values = v;
    *bound = (uint32_t)k;
    return GC_OK;
}

/* Each model on one triangle list (report rows), from a reset. */
static gc_status count_list(const gc_model* models, size_t count, const uint32_t* idx, size_t n, unsigned threads,
                            gc_stats* out, gc_error* err)
{
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    memset(out, 0, count * sizeof *out);
    return count ? gc_analyze_models(models, count, &d, NULL, threads ? threads : 1, out, err) : GC_OK;
}

/* The overdraw pass's positions on the dense ids (NULL: no pass), from the caller's array
 * or the file. */
static gc_status dense_positions(const char* path, const gc_mesh_optimize_options* o, const uint32_t* values,
                                 uint32_t bound, float** out, gc_error* err)
{
    *out = NULL;
    const gc_optimize_options* b = &o->optimize;
    int pass = (o->algorithm == GC_OPT_AUTO && (b->overdraw_threshold == 0 || b->overdraw_threshold > 1)) ||
               (o->algorithm == GC_OPT_TIPSIFY && b->overdraw_lambda > 0);
    if (!pass || !bound)
        return GC_OK;
    float* xyz = NULL;
    size_t count = 0;
    if (b->positions) {
        size_t stride = b->position_stride ? b->position_stride : 3 * sizeof(float);
        xyz = gc_alloc_array(bound, 3 * sizeof *xyz, false);
        if (!xyz)
            return gc_fail(err, GC_ERR_NOMEM, "out of memory for %u positions", bound);
        for (uint32_t v = 0; v < bound; ++v)
            memcpy(xyz + 3 * (size_t)v, (const char*)b->positions + stride * (values ? values[v] : v),
                   3 * sizeof *xyz);
        *out = xyz;
        return GC_OK;
    }
    if (!o->positions || !path)
        return GC_OK;
    gc_error perr = {0};
    gc_status s = gc_mesh_load_positions(path, o->load, &xyz, &count, &perr);
    uint32_t largest = values ? values[bound - 1] : bound - 1;
    if (s) {
        if (o->positions < 2)
            return GC_OK; /* no positions (index buffers): no overdraw pass */
        return gc_fail(err, GC_ERR_USAGE, "%s: the overdraw pass needs vertex positions: %s", path, perr.message);
    }
    if (largest >= count) {
        free(xyz);
        if (o->positions < 2)
            return GC_OK;
        return gc_fail(err, GC_ERR_DATA, "%s: %zu vertex positions for index values up to %u", path, count, largest);
    }
    if (values) /* ascending: values[v] >= v, each read before it is overwritten */
        for (uint32_t v = 0; v < bound; ++v)
            memmove(xyz + 3 * (size_t)v, xyz + 3 * (size_t)values[v], 3 * sizeof *xyz);
    *out = xyz;
    return GC_OK;
}

/* The caller's progress over the whole list: each run's share is its share of the indices. */
typedef struct run_progress {
    gc_progress_fn fn;
    void* user;
    size_t done, length, total;
} run_progress;

static void on_progress(void* user, uint64_t done, uint64_t total)
{
    run_progress* p = user;
    double part = total ? (double)done / (double)total : 1.0;
    p->fn(p->user, (uint64_t)((double)p->done + part * (double)p->length), p->total);
}

/* The runs of a list reordered on threads (optimize.threads > 1): each run a job, reordered
 * on one thread (the same output as on any number), its progress reported by the calling
 * thread as the share of the indices done. */
typedef struct run_jobs {
    gc_optimizer algorithm;
    const uint32_t* ids;
    const size_t* runs;
    size_t* starts; /* per run: its first index */
    uint32_t vertex_count;
    gc_optimize_options options;
    gc_optimize_placement place;
    uint32_t* out;
    run_progress* prog;
} run_jobs;

static gc_status run_job(void* user, size_t k, unsigned worker, uint64_t* units, gc_error* err)
{
    (void)worker;
    const run_jobs* J = user;
    const size_t at = J->starts[k], len = J->runs[k] * 3;
    gc_optimize_placement place = J->place;
    place.stream_position = at;
    *units = len;
    return len ? gc_optimize_placed(J->algorithm, J->ids + at, len, J->vertex_count, &J->options, &place, J->out + at,
                                    err)
               : GC_OK;
}

static void run_units(void* user, uint64_t done)
{
    const run_jobs* J = user;
    J->prog->fn(J->prog->user, done, J->prog->total);
}

/* Strips, fans, quads and polygons become the triangle list they draw, into a new array. */
static gc_status triangle_list(const gc_draw* d, const char* what, uint32_t** out, size_t* n, gc_error* err)
{
    *out = NULL;
    *n = 0;
    if (d->topology == GC_POINT_LIST || d->topology == GC_LINE_LIST || d->topology == GC_LINE_STRIP ||
        d->topology == GC_LINE_LOOP)
        return gc_fail(err, GC_ERR_USAGE, "%s: a %s has no triangles to reorder", what, gc_topology_name(d->topology));
    uint64_t primitives = 0;
    gc_status s = gc_draw_validate(d, what, &primitives, err);
    if (s)
        return s;
    size_t capacity = (size_t)primitives * 6 + 1;
    uint32_t* tri = gc_alloc_array(capacity, sizeof *tri, false);
    if (!tri)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for a triangle list of %zu indices", what, capacity);
    if ((s = gc_draw_triangles(d, tri, capacity, n, err))) {
        free(tri);
        return s;
    }
    uint32_t* fitted = realloc(tri, (*n ? *n : 1) * sizeof *tri);
    *out = fitted ? fitted : tri;
    return GC_OK;
}

gc_status gc_mesh_dense_triangles(const gc_draw* draw, const char* what, uint32_t** out, size_t* count,
                                  uint32_t** values, uint32_t* bound, gc_error* err)
{
    *values = NULL;
    *bound = 0;
    gc_status s = triangle_list(draw, what ? what : "indices", out, count, err);
    if (!s && (s = compact(*out, *count, values, bound, what ? what : "indices", err))) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return s;
}

/* A list (draw or file) reordered run by run; see gc_mesh_optimize. */
static gc_status optimize_list(const char* path, const gc_draw* draw, const size_t* runs, size_t run_count,
                               const gc_mesh_optimize_options* o, gc_mesh_optimized* r, gc_error* err)
{
    const char* what = path ? path : "indices";
    gc_status s = triangle_list(draw, what, &r->input, &r->index_count, err);
    if (s)
        return s;
    size_t n = r->index_count;
    r->topology = draw->topology;
    size_t single = n / 3;
    if (runs && draw->topology == GC_TRIANGLE_LIST) {
        /* each run is handed to gc_optimize as a part of the list: they must tile it */
        size_t total = 0;
        for (size_t k = 0; k < run_count; ++k) {
            if (runs[k] > n / 3 - total)
                return gc_fail(err, GC_ERR_USAGE, "%s: runs 0 to %zu hold more than the %zu triangles of the list",
                               what, k, n / 3);
            total += runs[k];
        }
        if (total != n / 3)
            return gc_fail(err, GC_ERR_USAGE, "%s: the runs hold %zu triangles, the list %zu", what, total, n / 3);
    } else {
        runs = &single, run_count = 1;
    }
    const size_t rows = o->report_count;
    r->before = gc_alloc_array(rows ? rows : 1, sizeof *r->before, true);
    r->after = gc_alloc_array(rows ? rows : 1, sizeof *r->after, true);
    r->indices = gc_alloc_array(n ? n : 1, sizeof *r->indices, false);
    if (!r->before || !r->after || !r->indices)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the %zu reordered indices", what, n);
    if ((s = count_list(o->report, rows, r->input, n, o->threads, r->before, err)))
        return s;
    /* the optimizer's ids: the input's values, or their ranks where they are sparse */
    uint64_t largest = 0;
    for (size_t i = 0; i < n; ++i)
        largest = r->input[i] > largest ? r->input[i] : largest;
    uint32_t* dense = NULL;
    uint32_t* values = NULL;
    if (o->vertex_count) {
        r->dense_count = o->vertex_count;
    } else if (n && gc_pipeline_sparse(largest, n)) {
        if (!(dense = gc_alloc_array(n, sizeof *dense, false)))
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the %zu reordered indices", what, n);
        memcpy(dense, r->input, n * sizeof *dense);
        if ((s = compact(dense, n, &values, &r->dense_count, what, err))) {
            free(dense);
            return s;
        }
    } else {
        r->dense_count = n ? (uint32_t)(largest + 1 > UINT32_MAX ? UINT32_MAX : largest + 1) : 0;
    }
    const uint32_t* ids = dense ? dense : r->input;
    r->sparse = values != NULL;
    if (values && o->vertex_map) {
        s = gc_fail(err, GC_ERR_LIMIT,
                    "%s: index values up to %u in %zu indices: a vertex map with one entry per value would be longer "
                    "than 2 x indices + 65536",
                    what, values[r->dense_count - 1], n);
        free(values);
        free(dense);
        return s;
    }
    float* positions = NULL;
    if ((s = dense_positions(path, o, values, r->dense_count, &positions, err))) {
        free(values);
        free(dense);
        return s;
    }
    gc_optimize_options options = o->optimize;
    options.positions = positions;
    options.position_stride = 0;
    run_progress prog = {o->optimize.progress, o->optimize.progress_user, 0, 0, n};
    if (prog.fn) {
        options.progress = on_progress;
        options.progress_user = &prog;
    }
    /* an OBJ reader numbers vertices in order of first use, as reorder_vertices does */
    const int first_use = o->reorder_vertices || gc_mesh_numbers_by_first_use(path);
    gc_optimize_placement place = {0, n, first_use};
    size_t at = 0;
    if (run_count > 1 && options.threads > 1) {
        /* the runs side by side, each on one thread (options.threads among the runs) */
        run_jobs J = {o->algorithm, ids, runs, NULL, r->dense_count, options, place, r->indices, &prog};
        J.options.threads = 1;
        J.options.progress = NULL;
        if (!(J.starts = gc_alloc_array(run_count, sizeof *J.starts, false)))
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the list of %zu runs", what, run_count);
        for (size_t k = 0; !s && k < run_count; ++k)
            J.starts[k] = at, at += runs[k] * 3;
        if (!s)
            s = gc_parallel_run(options.threads, run_count, run_job, &J, prog.fn ? run_units : NULL, err);
        free(J.starts);
    }
    for (size_t k = 0; !s && !(run_count > 1 && options.threads > 1) && k < run_count; ++k) {
        size_t len = runs[k] * 3;
        prog.done = at, prog.length = len;
        place.stream_position = at;
        if (len)
            s = gc_optimize_placed(o->algorithm, ids + at, len, r->dense_count, &options, &place, r->indices + at,
                                   err);
        at += len;
    }
    free(positions);
    r->triangles = n / 3;
    r->runs = run_count;
    /* the output as it will be read: renumbered in first-use order or for the fetch model
     * (on the dense ids, so that sparse values cost nothing), or with its own values */
    const int renumber = rows && first_use;
    uint32_t* seen = s || !renumber ? NULL : gc_alloc_array(n ? n : 1, sizeof *seen, false);
    uint32_t* remap = s || !renumber ? NULL : gc_alloc_array(r->dense_count ? r->dense_count : 1, sizeof *remap, false);
    if (!s && renumber && (!seen || !remap))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory renumbering the output for its report", what);
    if (!s && renumber) { /* as the output is numbered (first use or for the fetch model) */
        memcpy(seen, r->indices, n * sizeof *seen);
        uint32_t used = 0;
        s = r->numbering == GC_NUMBER_KEPT /* an OBJ, which its reader numbers by first use */
                ? gc_reorder_vertices(seen, n, r->dense_count, remap, &used, err)
                : gc_mesh_optimized_renumber(r, seen, r->dense_count, remap, &used, err);
    }
    for (size_t i = 0; !s && values && i < n; ++i)
        r->indices[i] = values[r->indices[i]];
    if (!s)
        s = count_list(o->report, rows, renumber ? seen : r->indices, n, o->threads, r->after, err);
    free(seen);
    free(remap);
    free(values);
    if (r->sparse && !s)
        r->dense = dense;
    else
        free(dense);
    return s;
}

/* The triangles of `doc`'s triangle primitives (strips and fans expanded) in file order
 * into out[0 .. n), as gc_mesh_load lists them but with each primitive's own values. */
static gc_status gltf_local_triangles(const gc_gltf* doc, const char* path, uint32_t* out, size_t n, gc_error* err)
{
    size_t at = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc); ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        if (p->topology != GC_TRIANGLE_LIST && p->topology != GC_TRIANGLE_STRIP && p->topology != GC_TRIANGLE_FAN)
            continue;
        gc_draw d = {p->indices, p->index_count, p->topology, 0, 0};
        size_t written = 0;
        gc_status s = gc_draw_triangles(&d, out + at, n - at, &written, err);
        if (s)
            return s;
        at += written;
    }
    if (at != n)
        return gc_fail(err, GC_ERR_DATA, "%s: %zu triangle indices in the primitives, %zu in the mesh", path, at, n);
    return GC_OK;
}

static void say(const gc_mesh_optimize_options* o, const char* fmt, ...) GC_PRINTF(2, 3);
static void say(const gc_mesh_optimize_options* o, const char* fmt, ...)
{
    if (!o->note)
        return;
    char line[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    o->note(o->note_user, line);
}

/* A primitive reordered on its own: its indices compacted, reordered and restored into a new
 * array *out (n of them). Each gc_optimize on `threads`. */
static gc_status reorder_primitive(const gc_gltf_primitive* p, const char* path, const gc_mesh_optimize_options* o,
                                   unsigned threads, uint32_t* tri, uint32_t* out, gc_error* err)
{
    const size_t n = p->index_count;
    memcpy(tri, p->indices, n * sizeof *tri);
    uint32_t* values = NULL;
    uint32_t bound = 0;
    gc_status s = compact(tri, n, &values, &bound, path, err);
    if (s)
        return s;
    gc_optimize_options options = o->optimize;
    options.positions = NULL; /* no overdraw pass on a document's primitives */
    options.overdraw_threshold = options.overdraw_lambda = 0;
    options.progress = NULL;
    options.threads = threads;
    const gc_optimize_placement place = {0, 0, o->reorder_vertices};
    s = gc_optimize_placed(o->algorithm, tri, n, bound, &options, &place, out, err);
    for (size_t k = 0; !s && values && k < n; ++k)
        out[k] = values[out[k]];
    free(values);
    return s;
}

/* The primitives reordered side by side (optimize.threads above 1): job k reorders primitive
 * which[k] on one thread into out[k] (NULL where it failed or did not run). */
typedef struct primitive_jobs {
    const gc_gltf* doc;
    const char* path;
    const gc_mesh_optimize_options* o;
    const size_t* which;
    uint32_t** out;
} primitive_jobs;

static gc_status primitive_job(void* user, size_t k, unsigned worker, uint64_t* units, gc_error* err)
{
    (void)worker;
    const primitive_jobs* J = user;
    const gc_gltf_primitive* p = gc_gltf_primitive_at(J->doc, J->which[k]);
    const size_t n = p->index_count;
    *units = n;
    uint32_t* tri = gc_alloc_array(n, sizeof *tri, false);
    uint32_t* out = gc_alloc_array(n, sizeof *out, false);
    gc_status s = tri && out ? reorder_primitive(p, J->path, J->o, 1, tri, out, err)
                             : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", J->path, n);
    free(tri);
    if (s)
        free(out);
    else
        J->out[k] = out;
    return s;
}

/* What reorder_primitives does with a primitive: 0 nothing (no triangles, or index data
 * shared with an earlier one), 1 reorder it; 2 and 3 leave it with a note (left_note). */
static int primitive_kind(const gc_gltf_primitive* p)
{
    if (p->topology == GC_TRIANGLE_STRIP || p->topology == GC_TRIANGLE_FAN ||
        (p->topology == GC_TRIANGLE_LIST && !p->index_bits))
        return 2;
    if (p->topology != GC_TRIANGLE_LIST || p->index_count == 0)
        return 0; /* points and lines have no triangles */
    if (p->indices_kept)
        return 3;
    if (p->shares_indices_with != SIZE_MAX)
        return 0; /* shared index data is reordered once, for its first user */
    return 1;
}

static void left_note(const gc_mesh_optimize_options* o, const char* path, const gc_gltf_primitive* p, int kind)
{
    static const char* const modes[7] = {"points",    "lines",          "line-loop",  "line-strip",
                                         "triangles", "triangle-strip", "triangle-fan"};
    if (kind == 2)
        say(o, "%s: meshes[%zu].primitives[%zu]: %s%s left as it is (only indexed triangle lists are reordered "
               "in place)",
            path, p->mesh, p->primitive, p->mode >= 0 && p->mode < 7 ? modes[p->mode] : "?",
            p->index_bits ? "" : " without indices");
    else
        say(o, "%s: meshes[%zu].primitives[%zu]: triangle list left as it is: %s", path, p->mesh, p->primitive,
            p->indices_kept);
}

/* reorder_primitives with the primitives side by side, each on one thread, then written into
 * the document in order, the notes with them: the same document, notes and error as one by
 * one. All their reordered indices are held at once. */
static gc_status reorder_primitives_threaded(gc_gltf* doc, const char* path, const gc_mesh_optimize_options* o,
                                             size_t jobs, gc_mesh_optimized* r, gc_error* err)
{
    const size_t count = gc_gltf_primitive_count(doc);
    size_t* which = gc_alloc_array(jobs, sizeof *which, false);
    uint32_t** out = gc_alloc_array(jobs, sizeof *out, true);
    if (!which || !out) {
        free(which), free(out);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the list of %zu primitives", path, jobs);
    }
    for (size_t i = 0, k = 0; i < count; ++i)
        if (primitive_kind(gc_gltf_primitive_at(doc, i)) == 1)
            which[k++] = i;
    primitive_jobs J = {doc, path, o, which, out};
    gc_error failure;
    memset(&failure, 0, sizeof failure);
    const gc_status failed = gc_parallel_run(o->optimize.threads, jobs, primitive_job, &J, NULL, &failure);
    gc_status s = GC_OK;
    for (size_t i = 0, k = 0; i < count && !s; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        const int kind = primitive_kind(p);
        if (kind >= 2) {
            left_note(o, path, p, kind);
            ++r->left;
        } else if (kind == 1 && !out[k]) { /* the first that failed: every job before it ran */
            if (err)
                *err = failure;
            s = failed;
        } else if (kind == 1) {
            const size_t n = p->index_count;
            if (!(s = gc_gltf_set_indices(doc, i, out[k++], n, err)))
                r->triangles += n / 3, ++r->runs;
        }
    }
    for (size_t k = 0; k < jobs; ++k)
        free(out[k]);
    free(out);
    free(which);
    return s;
}

/* Every indexed triangle list of the document whose index data may be rewritten reordered
 * on its own (shared index data once, for its first user); the rest left, with a note. */
static gc_status reorder_primitives(gc_gltf* doc, const char* path, const gc_mesh_optimize_options* o,
                                    gc_mesh_optimized* r, gc_error* err)
{
    size_t jobs = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc); ++i)
        jobs += primitive_kind(gc_gltf_primitive_at(doc, i)) == 1;
    if (jobs > 1 && o->optimize.threads > 1)
        return reorder_primitives_threaded(doc, path, o, jobs, r, err);
    gc_status s = GC_OK;
    uint32_t* tri = NULL;
    uint32_t* out = NULL;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc) && !s; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        const int kind = primitive_kind(p);
        if (kind >= 2) {
            left_note(o, path, p, kind);
            ++r->left;
        }
        if (kind != 1)
            continue;
        size_t n = p->index_count;
        uint32_t* grown_tri = realloc(tri, n * sizeof *tri);
        uint32_t* grown_out = grown_tri ? realloc(out, n * sizeof *out) : NULL;
        if (grown_tri)
            tri = grown_tri;
        if (grown_out)
            out = grown_out;
        if (!grown_tri || !grown_out) {
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, n);
            break;
        }
        s = reorder_primitive(p, path, o, o->optimize.threads, tri, out, err);
        if (!s)
            s = gc_gltf_set_indices(doc, i, out, n, err);
        if (!s)
            r->triangles += n / 3, ++r->runs;
    }
    free(tri);
    free(out);
    return s;
}

/* gc_mesh_optimize on a .gltf/.glb: see gpucache.h. */
static gc_status optimize_gltf(const char* path, const gc_mesh_optimize_options* o, gc_mesh_optimized* r,
                               gc_error* err)
{
    gc_gltf_options go = {0};
    go.allow_external_uris = o->load ? o->load->allow_external_uris : 0;
    go.max_indices = o->load ? o->load->max_indices : 0;
    go.note = o->note;
    go.note_user = o->note_user;
    gc_status s = gc_gltf_load(path, &go, &r->gltf, err);
    if (s)
        return s;
    const size_t rows = o->report_count;
    r->topology = GC_TRIANGLE_LIST;
    r->before = gc_alloc_array(rows ? rows : 1, sizeof *r->before, true);
    r->after = gc_alloc_array(rows ? rows : 1, sizeof *r->after, true);
    if (!r->before || !r->after)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    gc_mesh_analysis a;
    if (rows) {
        if ((s = gc_pipeline_analyze_gltf(r->gltf, path, o->report, rows, o->threads, &a, err)))
            return s;
        memcpy(r->before, a.sums, rows * sizeof *r->before);
        gc_mesh_analysis_free(&a);
    }
    int triangles = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(r->gltf); ++i) {
        gc_topology t = gc_gltf_primitive_at(r->gltf, i)->topology;
        triangles |= t == GC_TRIANGLE_LIST || t == GC_TRIANGLE_STRIP || t == GC_TRIANGLE_FAN;
    }
    size_t n = 0;
    if (o->mesh_lists && triangles) {
        /* gc_mesh_load's list, and each index's vertex-set base: its value less the
         * primitive's own */
        gc_mesh mesh;
        if ((s = gc_mesh_load(path, o->load, &mesh, err)))
            return s;
        r->input = mesh.indices;
        n = r->index_count = mesh.index_count;
        mesh.indices = NULL;
        gc_mesh_free(&mesh);
        r->indices = gc_alloc_array(n ? n : 1, sizeof *r->indices, false);
        if (!r->indices)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the %zu reordered indices", path, n);
        if ((s = gltf_local_triangles(r->gltf, path, r->indices, n, err)))
            return s;
        for (size_t k = 0; k < n; ++k)
            r->indices[k] = r->input[k] - r->indices[k];
    }
    if ((s = reorder_primitives(r->gltf, path, o, r, err)))
        return s;
    if (r->input) {
        uint32_t* local = gc_alloc_array(n ? n : 1, sizeof *local, false);
        if (!local)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the %zu reordered indices", path, n);
        s = gltf_local_triangles(r->gltf, path, local, n, err);
        for (size_t k = 0; !s && k < n; ++k)
            r->indices[k] += local[k];
        free(local);
        r->dense = s ? NULL : gc_alloc_array(n ? n : 1, sizeof *r->dense, false);
        if (!s && !r->dense)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, n);
        uint32_t* values = NULL;
        if (!s) {
            memcpy(r->dense, r->input, n * sizeof *r->dense);
            s = compact(r->dense, n, &values, &r->dense_count, path, err);
        }
        r->sparse = values != NULL;
        free(values);
        if (!s && !r->sparse) {
            free(r->dense);
            r->dense = NULL;
        }
        if (s)
            return s;
    }
    if (o->reorder_vertices &&
        (s = gc_gltf_reorder_vertices_for(r->gltf, r->numbering == GC_NUMBER_FETCH ? &r->fetch : NULL, err)))
        return s;
    if (rows) {
        if ((s = gc_pipeline_analyze_gltf(r->gltf, path, o->report, rows, o->threads, &a, err)))
            return s;
        memcpy(r->after, a.sums, rows * sizeof *r->after);
        gc_mesh_analysis_free(&a);
    }
    return GC_OK;
}

gc_status gc_mesh_optimize(const char* path, const gc_draw* draw, const size_t* runs, size_t run_count,
                           const gc_mesh_optimize_options* options, gc_mesh_optimized* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!options || (!draw && !path) || (options->report_count && !options->report) ||
        (unsigned)options->algorithm >= GC_OPT_COUNT)
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_optimize: no input, no options or no report models");
    gc_status s = gc_mesh_numbering_choose(path, options, out, err);
    if (s)
        return s;
    if (!draw && strcmp(gc_mesh_format(path), "gltf") == 0) {
        s = optimize_gltf(path, options, out, err);
    } else if (!draw) {
        gc_mesh mesh;
        if ((s = gc_mesh_load(path, options->load, &mesh, err)))
            return s;
        gc_draw d = {mesh.indices, mesh.index_count, mesh.topology, mesh.restart_enabled, mesh.restart_value};
        s = optimize_list(path, &d, mesh.runs, mesh.run_count, options, out, err);
        gc_mesh_free(&mesh);
    } else {
        s = optimize_list(path, draw, runs, run_count, options, out, err);
    }
    if (s)
        gc_mesh_optimized_free(out);
    return s;
}
