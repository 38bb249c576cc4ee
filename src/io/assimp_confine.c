// SPDX-License-Identifier: MIT
/* How assimp is confined while it reads (the formats gpucache does not read itself:
 * FBX, COLLADA, 3DS, STL, ...).
 *
 *  - every file assimp opens (the main file, OBJ materials, COLLADA and FBX external
 *    references, ...) goes through a file system that refuses paths outside the input's
 *    folder (after resolving symbolic links);
 *  - glTF never reaches assimp: a file with the GLB magic or a JSON text is refused here
 *    (gc_mesh_load reads .gltf and .glb itself, src/io/gltf_*.c, with its own checks of
 *    every declared size and URI).
 *
 * What remains trusted: assimp's parsers of the other formats for the sizes they declare
 * inside the file. They read nothing outside the folder, but their memory and time are
 * not bounded here; prefer OBJ, PLY or glTF for files from untrusted sources. No
 * process-wide limit (RLIMIT) is set: this is a library. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io.h"

#ifdef GPUCACHE_HAVE_ASSIMP
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- the confined file system */

typedef struct confined {
    char root[PATH_MAX];  /* the input's folder, resolved */
    char input[PATH_MAX]; /* the input itself, resolved */
    char refused[512];    /* the first path refused, for the message */
} confined;

static size_t file_read(struct aiFile* f, char* buffer, size_t size, size_t count)
{
    return size && count ? fread(buffer, size, count, (FILE*)f->UserData) : 0;
}

static size_t file_write(struct aiFile* f, const char* buffer, size_t size, size_t count)
{
    (void)f, (void)buffer, (void)size, (void)count;
    return 0; /* reading only */
}

static size_t file_tell(struct aiFile* f)
{
    long at = ftell((FILE*)f->UserData);
    return at < 0 ? 0 : (size_t)at;
}

static size_t file_size(struct aiFile* f)
{
    struct stat st;
    return fstat(fileno((FILE*)f->UserData), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
}

static void file_flush(struct aiFile* f)
{
    (void)f;
}

static enum aiReturn file_seek(struct aiFile* f, size_t offset, enum aiOrigin origin)
{
    if (offset > LONG_MAX)
        return aiReturn_FAILURE;
    int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
    return fseek((FILE*)f->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static struct aiFile* confined_open(struct aiFileIO* io, const char* path, const char* mode)
{
    confined* c = (confined*)io->UserData;
    if (!path || !mode || strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
        return NULL;
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return NULL; /* missing: assimp reports it */
    if (strcmp(resolved, c->input) != 0 && !gc_path_inside(c->root, resolved)) {
        if (!c->refused[0])
            snprintf(c->refused, sizeof c->refused, "%s", path);
        return NULL;
    }
    struct aiFile* f = calloc(1, sizeof *f);
    const char* why = NULL;
    FILE* file = gc_open_regular(resolved, NULL, &why); /* a FIFO would block assimp */
    if (!f || !file) {
        free(f);
        if (file)
            fclose(file);
        return NULL;
    }
    f->ReadProc = file_read;
    f->WriteProc = file_write;
    f->TellProc = file_tell;
    f->FileSizeProc = file_size;
    f->SeekProc = file_seek;
    f->FlushProc = file_flush;
    f->UserData = (aiUserData)file;
    return f;
}

static void confined_close(struct aiFileIO* io, struct aiFile* f)
{
    (void)io;
    if (!f)
        return;
    fclose((FILE*)f->UserData);
    free(f);
}

/* glTF content under any name: the GLB magic, or a JSON object ('{' after a UTF-8 byte order
 * mark and any amount of JSON whitespace; the whole file is scanned if it is all
 * whitespace). assimp's glTF importer trusts what such a file declares. */
static bool looks_like_gltf(FILE* f)
{
    unsigned char chunk[4096];
    size_t got = fread(chunk, 1, sizeof chunk, f);
    if (got >= 4 && memcmp(chunk, "glTF", 4) == 0)
        return true;
    size_t at = got >= 3 && memcmp(chunk, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (got > 0) {
        for (; at < got; ++at) {
            unsigned char c = chunk[at];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                return c == '{';
        }
        got = fread(chunk, 1, sizeof chunk, f);
        at = 0;
    }
    return false;
}

gc_status gc_assimp_import(const char* path, unsigned flags, const struct aiScene** out, gc_error* err)
{
    *out = NULL;
    confined c;
    memset(&c, 0, sizeof c);
    if (!gc_path_folder(path, c.root) || !realpath(path, c.input))
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    const char* why = NULL;
    FILE* f = gc_open_regular(path, NULL, &why);
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, why);
    bool gltf = looks_like_gltf(f);
    fclose(f);
    if (gltf)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                       "%s: cannot read this mesh: it looks like glTF; name it .gltf or .glb to read it", path);
    struct aiFileIO io = {confined_open, confined_close, (aiUserData)&c};
    const struct aiScene* scene = aiImportFileEx(path, flags, &io);
    if (!scene) {
        if (c.refused[0])
            return gc_fail(err, GC_ERR_DATA, "%s: refers to '%.300s', outside the input's folder: not read", path,
                           c.refused);
        return gc_fail(err, GC_ERR_DATA, "%s: cannot read this mesh (assimp: %s)", path, aiGetErrorString());
    }
    *out = scene;
    return GC_OK;
}
#endif
