/* Writing a reordered mesh in its input's format (gc_mesh_write): the format by
 * extension, index-only formats here, mesh formats in their readers' files. Output goes
 * to a temporary file in the target's folder and is renamed only when complete, so a
 * failure never leaves a partial file nor harms an existing one. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


/* The format family of a path: text, u16, u32, obj, ply, or other (assimp). */
static const char* family(const char* path)
{
    if (gc_has_extension(path, "txt") || gc_has_extension(path, "idx"))
        return "text";
    if (gc_has_extension(path, "u16"))
        return "u16";
    if (gc_has_extension(path, "u32"))
        return "u32";
    if (gc_has_extension(path, "obj"))
        return "obj";
    if (gc_has_extension(path, "ply"))
        return "ply";
    const char* dot = strrchr(path, '.');
    return dot ? dot + 1 : "";
}

static gc_status write_text(const uint32_t* idx, size_t n, FILE* f)
{
    for (size_t i = 0; i + 2 < n; i += 3)
        fprintf(f, "%u %u %u\n", idx[i], idx[i + 1], idx[i + 2]);
    for (size_t i = n - n % 3; i < n; ++i)
        fprintf(f, "%u\n", idx[i]);
    return GC_OK;
}

static gc_status write_raw(const uint32_t* idx, size_t n, int bits, FILE* f, const char* path, gc_error* err)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned char b[4] = {(unsigned char)idx[i], (unsigned char)(idx[i] >> 8), (unsigned char)(idx[i] >> 16),
                              (unsigned char)(idx[i] >> 24)};
        if (bits == 16 && idx[i] > 0xFFFF)
            return gc_fail(err, GC_ERR_DATA, "%s: index %zu is %u, too large for 16 bits", path, i, idx[i]);
        fwrite(b, 1, (size_t)bits / 8, f);
    }
    return GC_OK;
}

/* For raw, text and PLY output: the indices renumbered by first use, and the remap. */
static gc_status renumber(const uint32_t* indices, size_t n, uint32_t** out, uint32_t** remap, gc_error* err)
{
    uint32_t max = 0;
    for (size_t i = 0; i < n; ++i)
        max = indices[i] > max ? indices[i] : max;
    *out = gc_alloc_array(n ? n : 1, sizeof(uint32_t), false);
    *remap = gc_alloc_array((size_t)max + 1, sizeof(uint32_t), false);
    if (!*out || !*remap) {
        free(*out), free(*remap);
        *out = *remap = NULL;
        return gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering vertices");
    }
    memcpy(*out, indices, n * sizeof(uint32_t));
    uint32_t used;
    return gc_reorder_vertices(*out, n, max + 1, *remap, &used, err);
}

gc_status gc_mesh_write(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                        size_t index_count, int reorder_vertices, const char* out_path, gc_error* err)
{
    if (!in_path || !out_path || !*out_path)
        return gc_fail(err, GC_ERR_USAGE, "no output file given");
    const char* fin = strcmp(in_path, "-") == 0 ? "text" : family(in_path);
    const char* fout = family(out_path);
    if (strcasecmp(fin, fout) != 0)
        return gc_fail(err, GC_ERR_USAGE, "%s: the output keeps the input's format (%s), not %s", out_path, fin,
                       fout);
    /* A temporary name in the same folder, so that rename() is atomic. */
    size_t len = strlen(out_path);
    char* temp = malloc(len + 32);
    if (!temp)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory");
    /* keep the extension last: assimp picks nothing by name, but users' tools may */
    snprintf(temp, len + 32, "%s.tmp-%ld", out_path, (long)getpid());
    gc_status s = GC_OK;
    uint32_t* renumbered = NULL;
    uint32_t* remap = NULL;
    bool assimp = strcmp(fin, "text") && strcmp(fin, "u16") && strcmp(fin, "u32") && strcmp(fin, "obj") &&
                  strcmp(fin, "ply");
    if (reorder_vertices && !assimp && strcmp(fin, "obj")) {
        if ((s = renumber(indices, index_count, &renumbered, &remap, err))) {
            free(temp);
            return s;
        }
        indices = renumbered;
    }
    if (assimp) {
        s = gc_rewrite_assimp(in_path, indices, index_count, reorder_vertices, temp, err);
    } else {
        FILE* f = fopen(temp, "wb");
        if (!f) {
            s = gc_fail(err, GC_ERR_IO, "%s: cannot create: %s", out_path, strerror(errno));
            free(temp);
            free(renumbered);
            free(remap);
            return s;
        }
        gc_output out = {f, out_path};
        if (!strcmp(fin, "text"))
            s = write_text(indices, index_count, f);
        else if (!strcmp(fin, "u16"))
            s = write_raw(indices, index_count, 16, f, out_path, err);
        else if (!strcmp(fin, "u32"))
            s = write_raw(indices, index_count, 32, f, out_path, err);
        else if (!strcmp(fin, "obj"))
            s = gc_rewrite_obj(in_path, options, indices, index_count, &out, err);
        else
            s = gc_rewrite_ply(in_path, indices, index_count, remap, &out, err);
        if (!s && (ferror(f) || fflush(f) != 0))
            s = gc_fail(err, GC_ERR_IO, "%s: write failed: %s", out_path, strerror(errno));
        if (fclose(f) != 0 && !s)
            s = gc_fail(err, GC_ERR_IO, "%s: write failed: %s", out_path, strerror(errno));
    }
    if (!s && rename(temp, out_path) != 0)
        s = gc_fail(err, GC_ERR_IO, "%s: cannot rename the finished file into place: %s", out_path, strerror(errno));
    if (s)
        remove(temp);
    free(temp);
    free(renumbered);
    free(remap);
    return s;
}
