/* Internal interface of the formats (src/io/): the readers and writers, one file each,
 * behind gc_mesh_load and gc_mesh_write (load.c, write.c). Not installed. */
#ifndef GPUCACHE_IO_H
#define GPUCACHE_IO_H

#include "../internal.h"

/* Fills *out with a loaded buffer (taking ownership of `indices`): a triangle list with
 * 32-bit indices unless the caller changes it, no restart. */
static inline void gc_mesh_set(gc_mesh* out, uint32_t* indices, size_t count, bool has_topology,
                               uint64_t vertex_count)
{
    gc_mesh m = {0};
    m.indices = indices;
    m.index_count = count;
    m.topology = GC_TRIANGLE_LIST;
    m.has_topology = has_topology;
    m.restart_value = UINT32_MAX;
    m.index_bits = 32;
    m.vertex_count = vertex_count;
    *out = m;
}

/* True when path ends in "." ext, case-insensitively. */
bool gc_has_extension(const char* path, const char* ext);

/* Format readers, one file each. `path` names the file in messages. */
gc_status gc_load_text(gc_reader* r, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_raw(const char* path, int bits, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_obj(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_ply(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_assimp(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);

/* Format writers (gc_mesh_write): each writes to an open temporary file `out`. */
typedef struct gc_output {
    void* file;       /* FILE* */
    const char* path; /* the final name, for messages */
} gc_output;
gc_status gc_rewrite_obj(const char* in_path, const gc_load_options* o, const uint32_t* indices, size_t count,
                         gc_output* out, gc_error* err);
gc_status gc_rewrite_ply(const char* in_path, const uint32_t* indices, size_t count, const uint32_t* vertex_remap,
                         gc_output* out, gc_error* err);
gc_status gc_rewrite_assimp(const char* in_path, const uint32_t* indices, size_t count, int reorder_vertices,
                            const char* out_path, gc_error* err);

#endif
