/* Issue 31, against Debian's meshoptimizer 0.18 (tests only; the library never calls it):
 *  - bounds: gpucache's (computed independently, in double precision) agree with
 *    meshopt_computeMeshletBounds' on every meshlet of corpus meshes;
 *  - size: on corpus meshes and shuffled copies, gpucache's meshlets are no more, and hold no
 *    more meshlet vertices, than meshopt_buildMeshlets' (cone weight 0) at 64/124. */
#include "test_util.h"

#include <math.h>
#include <meshoptimizer.h>

static const char* const meshes[] = {"alligator.obj", "cow.obj", "homer.obj", "teapot.obj", "fandisk.obj"};

static int load(const char* name, gc_mesh* mesh, float** xyz, size_t* count)
{
    char path[1024];
    gc_error err;
    if (corpus_path(path, sizeof path, name))
        return -1;
    assert_int_equal(gc_mesh_load(path, NULL, mesh, &err), GC_OK);
    assert_int_equal(gc_mesh_load_positions(path, NULL, xyz, count, &err), GC_OK);
    assert_true(*count >= mesh->vertex_count);
    return 0;
}

static void bounds_agree_with_meshoptimizer(void** state)
{
    (void)state;
    int found = 0;
    size_t compared = 0, cones = 0, near_threshold = 0;
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
        gc_mesh mesh;
        float* xyz;
        size_t count;
        if (load(meshes[i], &mesh, &xyz, &count))
            continue;
        found++;
        gc_meshlet_options o = {0};
        o.max_vertices = 64;
        o.max_triangles = 124;
        o.keep_order = i % 2; /* auto's order and the file's */
        gc_meshlets ml = {0};
        gc_error err;
        assert_int_equal(gc_meshlets_build(mesh.indices, mesh.index_count, (uint32_t)mesh.vertex_count, &o, &ml, &err),
                         GC_OK);
        assert_int_equal(gc_meshlets_compute_bounds(&ml, xyz, count, 0, &err), GC_OK);
        for (size_t k = 0; k < ml.meshlet_count; ++k) {
            const gc_meshlet* m = &ml.meshlets[k];
            struct meshopt_Bounds p = meshopt_computeMeshletBounds(ml.vertices + m->vertex_offset,
                                                                   ml.triangles + m->triangle_offset,
                                                                   m->triangle_count, xyz, count, 12);
            const gc_meshlet_bounds* b = &ml.bounds[k];
            double scale = fmax(p.radius, 1e-3);
            for (unsigned a = 0; a < 3; ++a)
                assert_float_equal(b->center[a], p.center[a], 1e-4 * scale);
            assert_float_equal(b->radius, p.radius, 1e-4 * scale);
            compared++;
            if ((b->cone_cutoff >= 1) != (p.cone_cutoff >= 1)) {
                /* only where min dot(n, axis) sits on the 0.1 threshold: float against double */
                double mindp = sqrt(1 - (double)fmin(b->cone_cutoff, p.cone_cutoff) * fmin(b->cone_cutoff, p.cone_cutoff));
                assert_true(fabs(mindp - 0.1) < 1e-3);
                near_threshold++;
                continue;
            }
            if (b->cone_cutoff >= 1)
                continue;
            cones++;
            for (unsigned a = 0; a < 3; ++a) {
                assert_float_equal(b->cone_axis[a], p.cone_axis[a], 1e-3);
                assert_float_equal(b->cone_apex[a], p.cone_apex[a], 1e-2 * scale);
            }
            assert_float_equal(b->cone_cutoff, p.cone_cutoff, 1e-3);
        }
        gc_meshlets_free(&ml);
        free(xyz);
        gc_mesh_free(&mesh);
    }
    if (!found)
        skip();
    assert_true(cones > 0);
    assert_true(near_threshold <= compared / 100);
}

static void no_more_than_meshopt_build_meshlets(void** state)
{
    (void)state;
    int found = 0;
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; ++i) {
        gc_mesh mesh;
        float* xyz;
        size_t count;
        if (load(meshes[i], &mesh, &xyz, &count))
            continue;
        found++;
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(mesh.indices, mesh.index_count, 31);
            size_t cap = meshopt_buildMeshletsBound(mesh.index_count, 64, 124);
            struct meshopt_Meshlet* pm = malloc(cap * sizeof *pm);
            unsigned* pv = malloc(cap * 64 * sizeof *pv);
            unsigned char* pt = malloc(cap * 124 * 3);
            size_t pc = meshopt_buildMeshlets(pm, pv, pt, mesh.indices, mesh.index_count, xyz, count, 12, 64, 124, 0.0f);
            size_t pverts = 0;
            for (size_t k = 0; k < pc; ++k)
                pverts += pm[k].vertex_count;
            gc_meshlet_options o = {0};
            o.max_vertices = 64;
            o.max_triangles = 124;
            o.local_order = 1;
            gc_meshlets ml = {0};
            gc_error err;
            assert_int_equal(
                gc_meshlets_build(mesh.indices, mesh.index_count, (uint32_t)mesh.vertex_count, &o, &ml, &err), GC_OK);
            if (ml.meshlet_count > pc || ml.vertex_count > pverts)
                fail_msg("%s%s: %zu meshlets / %zu vertices, meshoptimizer 0.18 %zu / %zu", meshes[i],
                         shuffled ? " (shuffled)" : "", ml.meshlet_count, ml.vertex_count, pc, pverts);
            gc_meshlets_free(&ml);
            free(pm), free(pv), free(pt);
        }
        free(xyz);
        gc_mesh_free(&mesh);
    }
    if (!found)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bounds_agree_with_meshoptimizer),
        cmocka_unit_test(no_more_than_meshopt_build_meshlets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
