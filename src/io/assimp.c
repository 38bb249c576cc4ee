// SPDX-License-Identifier: MIT
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
    const struct aiScene* scene = NULL;
    gc_status imported = gc_assimp_import(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType, &scene, err);
    if (imported)
        return imported;
    gc_u32_vec indices = {0};
    const unsigned mesh_count = scene->mNumMeshes;
    size_t* runs = calloc(mesh_count ? mesh_count : 1, sizeof *runs);
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
                    s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, indices.count + 1);
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
        s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the runs of %u meshes", path, mesh_count);
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
#include <limits.h>
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
    /* Every vertex id the tables are indexed with comes from the file: faces the loader
     * skipped (not triangles) and bone weights are checked here, before any lookup. */
    for (unsigned b = 0; b < mesh->mNumBones; ++b)
        for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w)
            if (mesh->mBones[b]->mWeights[w].mVertexId >= n) {
                free(remap), free(order);
                return gc_fail(err, GC_ERR_DATA, "%s: bone %u weight %u: vertex %u of %u", path, b, w,
                               mesh->mBones[b]->mWeights[w].mVertexId, n);
            }
    uint32_t next = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f)
        for (unsigned k = 0; k < mesh->mFaces[f].mNumIndices; ++k) {
            uint32_t v = mesh->mFaces[f].mIndices[k];
            if (v >= n) {
                free(remap), free(order);
                return gc_fail(err, GC_ERR_DATA, "%s: face %u: vertex index %u of %u", path, f, v, n);
            }
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

/* Every file assimp's exporter writes goes through this file system: each name it opens
 * for writing (the output, a .gltf's .bin) becomes a gc_atomic_file, after the same
 * checks gc_mesh_write_check made (a buffer name the exporter picks must not be one of
 * the input's files either); the files are renamed into place only when the whole export
 * succeeded, the .bin before the .gltf that names it, and removed otherwise. */
#include <assimp/cfileio.h>

typedef struct export_io {
    char** inputs;
    size_t input_count;
    gc_atomic_file files[8];
    size_t count;
    gc_status status; /* the first failure, in err */
    gc_error* err;
} export_io;

static size_t export_write(struct aiFile* f, const char* data, size_t size, size_t count)
{
    return fwrite(data, size, count, (FILE*)(void*)f->UserData);
}

static size_t export_read(struct aiFile* f, char* data, size_t size, size_t count)
{
    return fread(data, size, count, (FILE*)(void*)f->UserData);
}

static size_t export_tell(struct aiFile* f)
{
    long at = ftell((FILE*)(void*)f->UserData);
    return at < 0 ? 0 : (size_t)at;
}

static size_t export_size(struct aiFile* f)
{
    FILE* file = (FILE*)(void*)f->UserData;
    long at = ftell(file);
    if (at < 0 || fseek(file, 0, SEEK_END) != 0)
        return 0;
    long end = ftell(file);
    fseek(file, at, SEEK_SET);
    return end < 0 ? 0 : (size_t)end;
}

static enum aiReturn export_seek(struct aiFile* f, size_t offset, enum aiOrigin origin)
{
    if (offset > (size_t)LONG_MAX)
        return aiReturn_FAILURE;
    int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
    return fseek((FILE*)(void*)f->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static void export_flush(struct aiFile* f)
{
    fflush((FILE*)(void*)f->UserData);
}

static struct aiFile* export_open(struct aiFileIO* io, const char* name, const char* mode)
{
    export_io* x = (export_io*)(void*)io->UserData;
    if (x->status)
        return NULL;
    bool writing = strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+');
    struct aiFile* f = calloc(1, sizeof *f);
    if (!f) {
        x->status = gc_fail(x->err, GC_ERR_NOMEM, "%s: out of memory", name);
        return NULL;
    }
    f->ReadProc = export_read;
    f->WriteProc = export_write;
    f->TellProc = export_tell;
    f->FileSizeProc = export_size;
    f->SeekProc = export_seek;
    f->FlushProc = export_flush;
    if (!writing) {
        /* the exporter only reads to ask whether a file exists */
        FILE* in = fopen(name, "rb");
        if (!in) {
            free(f);
            return NULL;
        }
        f->UserData = (aiUserData)(void*)in;
        return f;
    }
    gc_status s = x->count == sizeof x->files / sizeof x->files[0]
                      ? gc_fail(x->err, GC_ERR_UNSUPPORTED, "%s: the exporter writes too many files", name)
                      : gc_output_check(name, (const char* const*)x->inputs, x->input_count, x->err);
    if (!s)
        s = gc_atomic_open(&x->files[x->count], name, x->err);
    if (s) {
        x->status = s;
        free(f);
        return NULL;
    }
    f->UserData = (aiUserData)x->files[x->count++].file;
    return f;
}

static void export_close(struct aiFileIO* io, struct aiFile* f)
{
    (void)io;
    if (!f)
        return;
    export_io* x = (export_io*)(void*)io->UserData;
    bool ours = false;
    for (size_t i = 0; i < x->count; ++i)
        ours = ours || (void*)f->UserData == x->files[i].file;
    /* an output stays open until the commit, which checks and closes it */
    if (!ours)
        fclose((FILE*)(void*)f->UserData);
    free(f);
}

static gc_status export_atomic(const struct aiScene* scene, const char* format, const char* in_path,
                               const char* out_path, gc_error* err)
{
    export_io x = {0};
    x.err = err;
    gc_status s = gc_mesh_input_files(in_path, &x.inputs, &x.input_count, err);
    if (s)
        return s;
    struct aiFileIO io = {export_open, export_close, (aiUserData)(void*)&x};
    enum aiReturn r = aiExportSceneEx(scene, format, out_path, &io, 0);
    s = x.status;
    if (!s && r != aiReturn_SUCCESS) {
        const char* why = aiGetErrorString();
        s = gc_fail(err, GC_ERR_IO, "%s: assimp could not write it (%s)", out_path,
                    why && *why ? why : "no reason given");
    }
    if (!s && x.count == 0)
        s = gc_fail(err, GC_ERR_IO, "%s: assimp wrote nothing", out_path);
    /* the files the output references first, the one the user named last */
    for (size_t i = x.count; i-- > 0;) {
        if (s)
            gc_atomic_abort(&x.files[i]);
        else
            s = gc_atomic_commit(&x.files[i], err);
    }
    gc_free_names(x.inputs, x.input_count);
    return s;
}

gc_status gc_rewrite_assimp(const char* in_path, const uint32_t* indices, size_t count, int reorder_vertices,
                            const char* out_path, gc_error* err)
{
    char format[64];
    if (!export_format(in_path, format, sizeof format))
        return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: assimp cannot write this format", in_path);
    const struct aiScene* loaded = NULL;
    gc_status imported = gc_assimp_import(
        in_path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType, &loaded, err);
    if (imported)
        return imported;
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
    if (!s)
        s = export_atomic(scene, format, in_path, out_path, err);
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
