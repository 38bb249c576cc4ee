/* gpucache in one page: load a mesh, count its vertex shader invocations under a GPU preset,
 * reorder its triangles for that GPU, and count again.
 *   cc hello.c $(pkg-config --cflags --libs gpucache_io) -o hello && ./hello mesh.obj */
#include <gpucache/gpucache.h>
#include <gpucache/gpucache_io.h> /* gc_mesh_load: the file formats */

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hello MESH\n");
        return 2;
    }
    gc_error err;
    gc_mesh mesh;
    if (gc_mesh_load(argv[1], NULL, &mesh, &err)) { /* .obj, .ply, .gltf/.glb, index files */
        fprintf(stderr, "hello: %s\n", err.message);
        return 1;
    }
    gc_model model;
    gc_model_parse("generic", &model, &err); /* a preset: a 16-entry FIFO (gpucache models) */

    gc_draw draw = {mesh.indices, mesh.index_count, GC_TRIANGLE_LIST, 0, 0};
    gc_stats before, after;
    uint32_t vertex_count = 0;
    for (size_t i = 0; i < mesh.index_count; ++i)
        if (mesh.indices[i] >= vertex_count)
            vertex_count = mesh.indices[i] + 1;
    uint32_t* order = malloc((mesh.index_count ? mesh.index_count : 1) * sizeof *order);
    int failed = !order || gc_analyze(&model, &draw, NULL, &before, &err) ||
                 gc_optimize(GC_OPT_TIPSIFY, mesh.indices, mesh.index_count, vertex_count, NULL, order, &err);
    if (!failed) {
        draw.indices = order;
        failed = gc_analyze(&model, &draw, NULL, &after, &err) != GC_OK;
    }
    if (failed)
        fprintf(stderr, "hello: %s\n", order ? err.message : "out of memory");
    else
        printf("%s under %s: %llu invocations (ATVR %.3f), after tipsify %llu (ATVR %.3f)\n", argv[1],
               model.name, (unsigned long long)before.invocations, before.atvr,
               (unsigned long long)after.invocations, after.atvr);
    free(order);
    gc_mesh_free(&mesh);
    return failed;
}
