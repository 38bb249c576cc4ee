/* Every other mesh format (glTF, GLB, FBX, COLLADA, STL, 3DS, ...) through assimp:
 * triangulated, identical vertices joined (a GPU vertex is a unique combination of
 * the attributes the file gives a corner), meshes concatenated in scene order. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#ifdef GPUCACHE_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

gc_status gc_load_assimp(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    size_t max = opt && opt->max_indices ? opt->max_indices : GC_MAX_INDICES;
    const struct aiScene* scene =
        aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (!scene)
        return gc_fail(err, GC_ERR_DATA, "%s: cannot read this mesh (assimp: %s)", path, aiGetErrorString());
    gc_u32_vec indices = {0};
    uint64_t base = 0;
    gc_status s = GC_OK;
    for (unsigned m = 0; !s && m < scene->mNumMeshes; ++m) {
        const struct aiMesh* mesh = scene->mMeshes[m];
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        for (unsigned f = 0; !s && f < mesh->mNumFaces; ++f) {
            const struct aiFace* face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue;
            if (indices.count + 3 > max) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: more than %zu indices", path, max);
                break;
            }
            for (unsigned k = 0; k < 3; ++k) {
                if (face->mIndices[k] >= mesh->mNumVertices || base + face->mIndices[k] > UINT32_MAX - 1) {
                    s = gc_fail(err, GC_ERR_DATA, "%s: mesh %u face %u: vertex index out of range", path, m, f);
                    break;
                }
                if (!gc_u32_vec_push(&indices, (uint32_t)(base + face->mIndices[k]))) {
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
                    break;
                }
            }
        }
        base += mesh->mNumVertices;
    }
    aiReleaseImport(scene);
    if (!s && indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no triangles", path);
    if (s) {
        free(indices.data);
        return s;
    }
    gc_mesh_set(out, indices.data, indices.count, true, base);
    return GC_OK;
}
#else
gc_status gc_load_assimp(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    (void)opt;
    (void)out;
    return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: unknown format (built without assimp)", path);
}
#endif
