/* Every other mesh format (glTF, GLB, FBX, COLLADA, STL, 3DS, ...) through assimp:
 * triangulated, identical vertices joined (a GPU vertex is a unique combination of
 * the attributes the file gives a corner), meshes concatenated in scene order. */
#include "io.h"

#include <stdio.h>
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
    size_t* runs = calloc(scene->mNumMeshes ? scene->mNumMeshes : 1, sizeof *runs);
    size_t run_count = 0;
    uint64_t base = 0;
    gc_status s = GC_OK;
    for (unsigned m = 0; !s && m < scene->mNumMeshes; ++m) {
        const struct aiMesh* mesh = scene->mMeshes[m];
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
            base += mesh->mNumVertices;
            continue;
        }
        size_t first = indices.count;
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
        if (runs && indices.count > first)
            runs[run_count++] = (indices.count - first) / 3;
    }
    aiReleaseImport(scene);
    if (!runs && !s)
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    if (!s && indices.count == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: no triangles", path);
    if (s) {
        free(indices.data);
        free(runs);
        return s;
    }
    gc_mesh_set(out, indices.data, indices.count, true, base);
    if (run_count > 1) {
        out->runs = runs;
        out->run_count = run_count;
    } else {
        free(runs);
    }
    return GC_OK;
}
#include <assimp/cexport.h>
#include <strings.h>

/* Permutes n items of `size` bytes: out[new] = in[old] for order[new] = old. */
static bool permute(void* data, size_t size, const uint32_t* order, uint32_t n)
{
    if (!data)
        return true;
    unsigned char* copy = malloc((size_t)n * size);
    if (!copy)
        return false;
    memcpy(copy, data, (size_t)n * size);
    for (uint32_t k = 0; k < n; ++k)
        memcpy((unsigned char*)data + (size_t)k * size, copy + (size_t)order[k] * size, size);
    free(copy);
    return true;
}

/* Reorders a mesh's vertices by first use in its faces (unused ones last). */
static gc_status reorder_mesh_vertices(struct aiMesh* mesh, const char* path, gc_error* err)
{
    uint32_t n = mesh->mNumVertices;
    if (mesh->mNumAnimMeshes)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: --reorder-vertices: meshes with morph targets are not supported",
                       path);
    uint32_t* remap = malloc((n ? n : 1) * sizeof *remap);
    uint32_t* order = malloc((n ? n : 1) * sizeof *order);
    if (!remap || !order) {
        free(remap), free(order);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    }
    memset(remap, 0xff, (n ? n : 1) * sizeof *remap);
    uint32_t next = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f)
        for (unsigned k = 0; k < mesh->mFaces[f].mNumIndices; ++k) {
            uint32_t v = mesh->mFaces[f].mIndices[k];
            if (remap[v] == UINT32_MAX)
                remap[v] = next++;
            mesh->mFaces[f].mIndices[k] = remap[v];
        }
    for (uint32_t v = 0; v < n; ++v)
        if (remap[v] == UINT32_MAX)
            remap[v] = next++;
    for (uint32_t v = 0; v < n; ++v)
        order[remap[v]] = v;
    bool ok = permute(mesh->mVertices, sizeof(struct aiVector3D), order, n) &&
              permute(mesh->mNormals, sizeof(struct aiVector3D), order, n) &&
              permute(mesh->mTangents, sizeof(struct aiVector3D), order, n) &&
              permute(mesh->mBitangents, sizeof(struct aiVector3D), order, n);
    for (unsigned c = 0; ok && c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c)
        ok = permute(mesh->mColors[c], sizeof(struct aiColor4D), order, n);
    for (unsigned c = 0; ok && c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c)
        ok = permute(mesh->mTextureCoords[c], sizeof(struct aiVector3D), order, n);
    for (unsigned b = 0; ok && b < mesh->mNumBones; ++b)
        for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w)
            mesh->mBones[b]->mWeights[w].mVertexId = remap[mesh->mBones[b]->mWeights[w].mVertexId];
    free(remap), free(order);
    return ok ? GC_OK : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
}

/* assimp's exporter for a file name's extension ("gltf2" for .gltf, "glb2" for .glb),
 * copied into `id`; false when there is none. */
static bool export_format(const char* path, char* id, size_t size)
{
    const char* dot = strrchr(path, '.');
    if (!dot)
        return false;
    bool found = false;
    for (size_t i = 0; i < aiGetExportFormatCount(); ++i) {
        const struct aiExportFormatDesc* d = aiGetExportFormatDescription(i);
        if (!d)
            continue;
        /* prefer the newest exporter of an extension (gltf2 over gltf) */
        if (strcasecmp(d->fileExtension, dot + 1) == 0 && (!found || strchr(d->id, '2'))) {
            snprintf(id, size, "%s", d->id);
            found = true;
        }
        aiReleaseExportFormatDescription(d); /* each description is a copy */
    }
    return found;
}

gc_status gc_rewrite_assimp(const char* in_path, const uint32_t* indices, size_t count, int reorder_vertices,
                            const char* out_path, gc_error* err)
{
    char format[64];
    if (!export_format(in_path, format, sizeof format))
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: assimp cannot write this format", in_path);
    const struct aiScene* loaded =
        aiImportFile(in_path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (!loaded)
        return gc_fail(err, GC_ERR_DATA, "%s: cannot read this mesh (assimp: %s)", in_path, aiGetErrorString());
    struct aiScene* scene = NULL;
    aiCopyScene(loaded, &scene);
    aiReleaseImport(loaded);
    if (!scene)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory copying the scene", in_path);
    gc_status s = GC_OK;
    size_t at = 0;
    uint64_t base = 0;
    for (unsigned m = 0; !s && m < scene->mNumMeshes; ++m) {
        struct aiMesh* mesh = scene->mMeshes[m];
        if (mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) {
            /* The loader took the 3-corner faces of this mesh, in order: put the new ones there. */
            for (unsigned f = 0; !s && f < mesh->mNumFaces; ++f) {
                struct aiFace* face = &mesh->mFaces[f];
                if (face->mNumIndices != 3)
                    continue;
                if (at + 3 > count) {
                    s = gc_fail(err, GC_ERR_USAGE, "%s: fewer indices given than the file has", in_path);
                    break;
                }
                for (unsigned k = 0; k < 3; ++k) {
                    uint32_t v = indices[at++];
                    if (v < base || v - base >= mesh->mNumVertices) {
                        s = gc_fail(err, GC_ERR_DATA, "%s: mesh %u: a reordered triangle left its mesh", in_path, m);
                        break;
                    }
                    face->mIndices[k] = (unsigned)(v - base);
                }
            }
            if (!s && reorder_vertices)
                s = reorder_mesh_vertices(mesh, in_path, err);
        }
        base += mesh->mNumVertices;
    }
    if (!s && at != count)
        s = gc_fail(err, GC_ERR_USAGE, "%s: more indices given than the file has", in_path);
    if (!s && aiExportScene(scene, format, out_path, 0) != aiReturn_SUCCESS)
        s = gc_fail(err, GC_ERR_IO, "%s: assimp could not write it (%s)", out_path, aiGetErrorString());
    aiFreeScene(scene);
    return s;
}
#else
gc_status gc_rewrite_assimp(const char* in_path, const uint32_t* indices, size_t count, int reorder_vertices,
                            const char* out_path, gc_error* err)
{
    (void)indices, (void)count, (void)reorder_vertices, (void)out_path;
    return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: unknown format (built without assimp)", in_path);
}

gc_status gc_load_assimp(const char* path, const gc_load_options* opt, gc_mesh* out, gc_error* err)
{
    (void)opt;
    (void)out;
    return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: unknown format (built without assimp)", path);
}
#endif
