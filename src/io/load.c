/* Picks a reader by file extension. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


gc_status gc_mesh_load(const char* path, const gc_load_options* options, gc_mesh* out, gc_error* err)
{
    gc_error scratch;
    if (!err)
        err = &scratch;
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return gc_fail(err, GC_ERR_USAGE, "no input file given");
    if (strcmp(path, "-") == 0 || gc_has_extension(path, "txt") || gc_has_extension(path, "idx")) {
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
    FILE* probe = fopen(path, "rb");
    if (!probe)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    fclose(probe);
    return gc_load_assimp(path, options, out, err);
}

void gc_mesh_free(gc_mesh* mesh)
{
    if (!mesh)
        return;
    free(mesh->indices);
    free(mesh->runs);
    memset(mesh, 0, sizeof *mesh);
}
