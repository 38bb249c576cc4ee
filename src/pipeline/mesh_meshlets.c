// SPDX-License-Identifier: MIT
/* gpucache meshlets' pipeline (gpucache_io.h): a mesh file's triangle lists cut into
 * meshlets (gc_meshlets_build per run, on dense ids, back to the file's own values), the
 * output list or the rewritten glTF, the bounds; and the report of a set of meshlets. */
#include "pipeline.h"
#include "gpucache_private.h"
#include "../strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The triangle list renumbered in place to dense ids when its values are sparse
 * (gc_mesh_dense_triangles); *values then maps ids back (NULL when nothing changed). */
static gc_status dense_in_place(const char* what, uint32_t* tri, size_t n, uint32_t** values, uint32_t* bound,
                                gc_error* err)
{
    gc_draw d = {tri, n, GC_TRIANGLE_LIST, 0, 0};
    uint32_t* dense = NULL;
    size_t count = 0;
    gc_status s = gc_mesh_dense_triangles(&d, what, &dense, &count, values, bound, err);
    if (s)
        return s;
    memcpy(tri, dense, n * sizeof *tri);
    free(dense);
    return GC_OK;
}

/* Builds the meshlets of every run of `tri` (n indices, ids below vertex_count) into *m. */
static gc_status build_runs(const char* path, const uint32_t* tri, size_t n, uint32_t vertex_count,
                            const size_t* runs, size_t run_count, const gc_meshlet_options* o, gc_meshlets* m,
                            gc_error* err)
{
    size_t at = 0;
    for (size_t r = 0; r < run_count; ++r) {
        size_t len = runs[r] * 3;
        if (len > n - at)
            return gc_fail(err, GC_ERR_DATA, "%s: runs longer than the triangle list", path);
        gc_status s = gc_meshlets_build(tri + at, len, vertex_count, o, m, err);
        if (s)
            return s;
        at += len;
    }
    return GC_OK;
}

/* --bounds on a glTF: the POSITION data of the draw whose index values are `indices` (n of
 * them, as in the file), found among gc_mesh_load's runs; *xyz (free it) holds *count
 * vertices, the draw's value v at *xyz + 3 * (*first + v). */
static gc_status gltf_draw_positions(const char* path, const gc_load_options* lo, const uint32_t* indices,
                                     size_t n, float** xyz, size_t* first, size_t* count, gc_error* err)
{
    gc_mesh mesh;
    *xyz = NULL;
    gc_status s = gc_mesh_load(path, lo, &mesh, err);
    if (s)
        return s;
    if ((s = gc_mesh_load_positions(path, lo, xyz, count, err)) != GC_OK) {
        gc_mesh_free(&mesh);
        return s;
    }
    /* the loaded mesh has one run per triangle primitive, its ids offset per vertex set: the
       draw is the run that is `indices` plus one offset */
    size_t single = mesh.index_count / 3, at = 0;
    const size_t* runs = mesh.runs ? mesh.runs : &single;
    size_t run_count = mesh.runs ? mesh.run_count : 1;
    int found = 0;
    for (size_t r = 0; r < run_count && !found; at += 3 * runs[r], ++r) {
        if (3 * runs[r] != n || n == 0 || at + n > mesh.index_count || mesh.indices[at] < indices[0])
            continue;
        uint32_t offset = mesh.indices[at] - indices[0];
        size_t k = 0;
        while (k < n && mesh.indices[at + k] - indices[k] == offset && mesh.indices[at + k] >= indices[k])
            ++k;
        if (k == n && (size_t)offset <= *count) {
            *first = offset;
            found = 1;
        }
    }
    gc_mesh_free(&mesh);
    if (!found) {
        free(*xyz);
        *xyz = NULL;
        return gc_fail(err, GC_ERR_DATA,
                       "%s: cannot find the positions of the triangle list's vertices (--bounds)", path);
    }
    return GC_OK;
}

/* Back to the input's own index values. */
static void values_back(const uint32_t* values, uint32_t* out, size_t n, gc_meshlets* m)
{
    for (size_t k = 0; k < n; ++k)
        out[k] = values[out[k]];
    for (size_t k = 0; k < m->vertex_count; ++k)
        m->vertices[k] = values[m->vertices[k]];
}

gc_status gc_meshlets_cut_gltf(const char* path, const gc_gltf_options* go, const gc_meshlet_options* o,
                               int bounds, int one_draw, gc_meshlets_cut* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    gc_status s = gc_gltf_load(path, go, &out->doc, err);
    if (s)
        return s;
    gc_meshlets* sum = &out->sum;
    gc_meshlets* one = &out->meshlets;
    uint32_t* original = NULL; /* --bounds: the draw's index values as in the file */
    size_t original_count = 0;
    sum->max_vertices = o->max_vertices, sum->max_triangles = o->max_triangles;
    for (size_t i = 0; i < gc_gltf_primitive_count(out->doc) && !s; ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(out->doc, i);
        if (p->topology != GC_TRIANGLE_LIST || !p->index_bits || p->index_count == 0 || p->indices_kept ||
            p->shares_indices_with != SIZE_MAX) {
            if ((p->topology == GC_TRIANGLE_STRIP || p->topology == GC_TRIANGLE_FAN || p->indices_kept) &&
                go->note) {
                char line[1200];
                snprintf(line, sizeof line,
                         "%s: meshes[%zu].primitives[%zu] left as it is (only indexed triangle lists are cut)",
                         path, p->mesh, p->primitive);
                go->note(go->note_user, line);
            }
            continue;
        }
        size_t n = p->index_count;
        uint32_t* tri = malloc(n * sizeof *tri);
        uint32_t* list = malloc(n * sizeof *list);
        uint32_t* values = NULL;
        uint32_t vc = 0;
        size_t written = 0;
        gc_meshlets_free(one);
        if (!tri || !list) {
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, n);
        } else {
            memcpy(tri, p->indices, n * sizeof *tri);
            size_t whole = n / 3;
            if (!(s = dense_in_place(path, tri, n, &values, &vc, err)) &&
                !(s = build_runs(path, tri, n, vc, &whole, 1, o, one, err)))
                s = gc_meshlets_expand(one, list, n, &written, err);
        }
        if (!s && bounds && !original) {
            original = malloc(n * sizeof *original);
            if (original)
                memcpy(original, p->indices, n * sizeof *original), original_count = n;
        }
        if (!s && values)
            values_back(values, list, n, one);
        if (!s)
            s = gc_gltf_set_indices(out->doc, i, list, n, err);
        free(values);
        free(tri);
        free(list);
        if (s)
            break;
        out->runs++;
        sum->meshlet_count += one->meshlet_count;
        sum->vertex_count += one->vertex_count;
        sum->triangle_count += one->triangle_count;
    }
    if (!s && one_draw && out->runs != 1)
        s = gc_fail(err, GC_ERR_USAGE,
                    "%s: --data writes one draw's meshlets; this file has %zu indexed triangle lists "
                    "(split it, or leave out --data)", path, out->runs);
    if (!s && bounds) {
        float* xyz = NULL;
        size_t first = 0, count = 0;
        gc_load_options lo = {0};
        lo.allow_external_uris = go->allow_external_uris;
        if (!original)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the draw's indices", path);
        else if (!(s = gltf_draw_positions(path, &lo, original, original_count, &xyz, &first, &count, err)))
            s = gc_meshlets_compute_bounds(one, xyz + 3 * first, count - first, 0, err);
        free(xyz);
    }
    free(original);
    if (s)
        gc_meshlets_cut_free(out);
    return s;
}

gc_status gc_meshlets_cut_mesh(const char* path, const gc_load_options* lo, gc_mesh* mesh, const gc_draw* draw,
                               const gc_meshlet_options* o, int bounds, gc_meshlets_cut* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (draw->topology != GC_TRIANGLE_LIST || draw->restart_enabled)
        return gc_fail(err, GC_ERR_USAGE,
                       "%s: a %s: meshlets are cut from a triangle list; convert it first (gpucache optimize -a "
                       "auto %s -o LIST writes its triangles as a list)", path, gc_topology_name(draw->topology),
                       path);
    size_t n = mesh->index_count;
    uint32_t* tri = mesh->indices;
    uint32_t* values = NULL;
    uint32_t vc = 0;
    float* xyz = NULL;
    size_t xyz_count = 0;
    gc_meshlets* m = &out->meshlets;
    m->max_vertices = o->max_vertices, m->max_triangles = o->max_triangles;
    size_t single = n / 3;
    const size_t* runs = mesh->runs ? mesh->runs : &single;
    out->runs = mesh->runs ? mesh->run_count : 1;
    out->index_count = n;
    gc_status s = GC_OK;
    size_t written = 0;
    if (!(out->indices = malloc((n ? n : 1) * sizeof *out->indices)))
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, n);
    else if (!(bounds && (s = gc_mesh_load_positions(path, lo, &xyz, &xyz_count, err))) &&
             !(s = dense_in_place(path, tri, n, &values, &vc, err)) &&
             !(s = build_runs(path, tri, n, vc, runs, out->runs, o, m, err)) &&
             !(s = gc_meshlets_expand(m, out->indices, n, &written, err))) {
        if (values)
            values_back(values, out->indices, n, m);
        if (bounds)
            s = gc_meshlets_compute_bounds(m, xyz, xyz_count, 0, err);
    }
    const char* dot = strrchr(path, '.');
    if (!s && dot && strcasecmp(dot, ".obj") == 0 && m->vertex_count) {
        /* an OBJ reader numbers the output's vertices by first use: the data file says so too */
        uint32_t* renum = malloc(n * sizeof *renum);
        uint32_t* remap = malloc(((size_t)vc ? vc : 1) * sizeof *remap);
        uint32_t used = 0;
        gc_error ignored = {0};
        if (!renum || !remap)
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory renumbering the output", path);
        else if (memcpy(renum, out->indices, n * sizeof *renum),
                 values || gc_reorder_vertices(renum, n, vc, remap, &used, &ignored))
            s = gc_fail(err, GC_ERR_DATA, "%s: cannot renumber the output's vertices", path);
        else
            for (size_t k = 0; k < m->vertex_count; ++k)
                m->vertices[k] = remap[m->vertices[k]];
        free(renum), free(remap);
    }
    free(values);
    free(xyz);
    if (s)
        gc_meshlets_cut_free(out);
    return s;
}

void gc_meshlets_cut_free(gc_meshlets_cut* cut)
{
    gc_meshlets_free(&cut->meshlets);
    free(cut->indices);
    gc_gltf_free(cut->doc);
    memset(cut, 0, sizeof *cut);
}

gc_status gc_meshlets_report_print(FILE* f, const char* in, const char* out, const gc_meshlets* m, size_t runs,
                                   double seconds, int json, gc_error* err)
{
    size_t tris = m->triangle_count, count = m->meshlet_count;
    double mv = count ? (double)m->vertex_count / (double)count : 0;
    double mt = count ? (double)tris / (double)count : 0;
    double vpt = tris ? (double)m->vertex_count / (double)tris : 0;
    double fill = count ? 100.0 * mt / m->max_triangles : 0;
    if (json) {
        gc_strbuf j = {0};
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"input\": ");
        gc_sb_json_string(&j, in);
        gc_sb_printf(&j, ", \"output\": ");
        if (out)
            gc_sb_json_string(&j, out);
        else
            gc_sb_printf(&j, "null");
        gc_sb_printf(&j,
                     ", \"limits\": {\"max_vertices\": %u, \"max_triangles\": %u}, \"runs\": %zu, \"meshlets\": "
                     "%zu, \"meshlet_vertices\": %zu, \"triangles\": %zu, \"mean_vertices\": " JSON_FLOAT
                     ", \"mean_triangles\": " JSON_FLOAT ", \"vertices_per_triangle\": " JSON_FLOAT
                     ", \"triangle_fill\": " JSON_FLOAT ", \"bounds\": %s, \"seconds\": " JSON_FLOAT "}\n",
                     m->max_vertices, m->max_triangles, runs, count, m->vertex_count, tris, JF(mv), JF(mt),
                     JF(vpt), JF(fill / 100.0), m->bounds ? "true" : "false", JF(seconds));
        return gc_sb_write(&j, f, err);
    }
    if (out)
        fprintf(f, "%s -> %s: meshlets of at most %u vertices and %u triangles, in %.3f s\n", in, out,
                m->max_vertices, m->max_triangles, seconds);
    else
        fprintf(f, "%s: meshlets of at most %u vertices and %u triangles%s\n", in, m->max_vertices,
                m->max_triangles, m->bounds ? ", with bounds" : "");
    fprintf(f, "  %-22s %12s\n", "figure", "value");
    fprintf(f, "  %-22s %12zu\n", "meshlets", count);
    fprintf(f, "  %-22s %12zu\n", "meshlet vertices", m->vertex_count);
    fprintf(f, "  %-22s %12zu\n", "triangles", tris);
    fprintf(f, "  %-22s %12.2f\n", "mean vertices", mv);
    fprintf(f, "  %-22s %12.2f\n", "mean triangles", mt);
    fprintf(f, "  %-22s %12.4f\n", "vertices per triangle", vpt);
    fprintf(f, "  %-22s %11.1f%%\n", "triangle fill", fill);
    return GC_OK;
}

gc_status gc_meshlet_file_print(FILE* f, const char* data_path, const char* mesh_path, const gc_load_options* lo,
                                int json, gc_error* err)
{
    gc_meshlets m = {0};
    uint32_t* tri = NULL;
    size_t n = 0;
    gc_status s = gc_meshlet_data_load(data_path, &m, err);
    if (!s && mesh_path && (s = gc_mesh_load_triangles(mesh_path, lo, &tri, &n, NULL, err)) == GC_OK)
        s = gc_meshlets_cover(&m, tri, n, data_path, err);
    if (!s)
        s = gc_meshlets_report_print(f, data_path, NULL, &m, 1, 0.0, json, err);
    free(tri);
    gc_meshlets_free(&m);
    return s;
}
