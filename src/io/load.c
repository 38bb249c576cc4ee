// SPDX-License-Identifier: MIT
/* Picks a reader by file extension. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The format of a mesh on standard input, from its first bytes (the reader's first
 * chunk): "ply" and a line break is a PLY; a first token (after blank lines and '#'
 * comments) that starts with a letter is an OBJ keyword (v, f, o, g, mtllib, ...), as no
 * index list has one; anything else is text indices. */
static const char* sniff_format(gc_reader* r)
{
    if (gc_reader_peek(r) < 0)
        return "txt";
    const unsigned char* b = r->buffer + r->offset;
    size_t n = r->length - r->offset;
    if (n >= 4 && memcmp(b, "ply", 3) == 0 && (b[3] == '\n' || b[3] == '\r'))
        return "ply";
    if (n >= 4 && memcmp(b, "glTF", 4) == 0)
        return "glb";
    size_t i = 0;
    while (i < n) {
        if (b[i] == '#') {
            while (i < n && b[i] != '\n')
                i++;
        } else if (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
            i++;
        } else {
            break;
        }
    }
    if (i < n && ((b[i] >= 'a' && b[i] <= 'z') || (b[i] >= 'A' && b[i] <= 'Z')))
        return "obj";
    return "txt";
}

/* Standard input: "-" (the format sniffed) or "FORMAT:-" (txt, idx, obj, ply, u16, u32). */
static gc_status load_stdin(const char* format, const gc_load_options* options, gc_mesh* out, gc_error* err)
{
    if (format && strcmp(format, "u16") == 0)
        return gc_load_raw_stdin(16, options, out, err);
    if (format && strcmp(format, "u32") == 0)
        return gc_load_raw_stdin(32, options, out, err);
    gc_reader r;
    gc_status s = gc_reader_open(&r, "-", err);
    if (s)
        return s;
    if (!format)
        format = sniff_format(&r);
    if (strcmp(format, "glb") == 0) {
        /* a GLB's buffers are checked against the file's size and assimp reads files */
        gc_reader_close(&r);
        return gc_fail(err, GC_ERR_UNSUPPORTED, "<stdin>: a GLB on standard input; give its file name instead");
    }
    if (strcmp(format, "obj") == 0)
        return gc_load_obj_from(&r, "<stdin>", options, out, err);
    if (strcmp(format, "ply") == 0)
        return gc_load_ply_from(&r, "<stdin>", options, out, err);
    s = gc_load_text(&r, options, out, err);
    gc_reader_close(&r);
    return s;
}

gc_status gc_mesh_load(const char* path, const gc_load_options* options, gc_mesh* out, gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return gc_fail(err, GC_ERR_USAGE, "no input file given");
    const char* stdin_format = gc_stdin_format(path);
    if (stdin_format)
        return load_stdin(*stdin_format ? stdin_format : NULL, options, out, err);
    if (gc_has_extension(path, "txt") || gc_has_extension(path, "idx")) {
        gc_reader r;
        gc_status s = gc_reader_open(&r, path, err);
        if (s)
            return s;
        s = gc_load_text(&r, options, out, err);
        gc_reader_close(&r);
        return s;
    }
    if (gc_has_extension(path, "u16"))
        return gc_load_raw(path, 16, options, out, err);
    if (gc_has_extension(path, "u32"))
        return gc_load_raw(path, 32, options, out, err);
    if (gc_has_extension(path, "obj"))
        return gc_load_obj(path, options, out, err);
    if (gc_has_extension(path, "ply"))
        return gc_load_ply(path, options, out, err);
    if (gc_has_extension(path, "gltf") || gc_has_extension(path, "glb"))
        return gc_load_gltf(path, options, out, err);
    /* assimp's own message for a missing file is vague: say it plainly first. */
    const char* why = NULL;
    FILE* probe = gc_open_regular(path, NULL, &why); /* never blocks on a FIFO */
    if (!probe)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, why);
    fclose(probe);
    return gc_load_assimp(path, options, out, err);
}

gc_status gc_mesh_load_positions(const char* path, const gc_load_options* options, float** xyz, size_t* count,
                                 gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    *xyz = NULL;
    *count = 0;
    if (!path || !*path)
        return gc_fail(err, GC_ERR_USAGE, "no input file given");
    if (gc_stdin_format(path))
        return gc_fail(err, GC_ERR_UNSUPPORTED, "<stdin>: vertex positions are read from a file only");
    if (gc_has_extension(path, "obj"))
        return gc_obj_positions(path, options, xyz, count, err);
    if (gc_has_extension(path, "ply"))
        return gc_ply_positions(path, xyz, count, err);
    if (gc_has_extension(path, "gltf") || gc_has_extension(path, "glb"))
        return gc_gltf_positions(path, options, xyz, count, err);
    return gc_fail(err, GC_ERR_UNSUPPORTED, "%s: no vertex positions in this format (an OBJ, a PLY or a glTF has them)",
                   path);
}

void gc_mesh_free(gc_mesh* mesh)
{
    if (!mesh)
        return;
    free(mesh->indices);
    free(mesh->runs);
    memset(mesh, 0, sizeof *mesh);
}
