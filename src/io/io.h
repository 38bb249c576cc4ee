// SPDX-License-Identifier: MIT
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


/* Format readers, one file each. `path` names the file in messages. */
gc_status gc_load_text(gc_reader* r, const gc_load_options* o, gc_mesh* out, gc_error* err);
/* The text formats' tokens (text index lists, state-change files): skips separators
 * (whitespace, commas) and "#" comments, then reads one token into `token` (cut to
 * GC_TEXT_TOKEN - 1 bytes and NUL-terminated; *length is its whole length) and the line it
 * starts on. Returns 1 with a token, 0 at the end of the input, or a negated error code. */
#define GC_TEXT_TOKEN 32
int gc_text_token(gc_reader* r, char* token, size_t* length, uint64_t* line, gc_error* err);
gc_status gc_load_raw(const char* path, int bits, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_obj(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_ply(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
/* The OBJ and PLY readers on an open reader (standard input), which they close. */
gc_status gc_load_obj_from(gc_reader* r, const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_ply_from(gc_reader* r, const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
/* gc_mesh_load_positions for an OBJ (obj.c) and a PLY (ply.c). A coordinate beyond a
 * float's range is stored as the largest float of its sign (gc_coordinate). */
static inline float gc_coordinate(double v)
{
    return v > 3.4028234663852886e38 ? 3.4028234663852886e38f : v < -3.4028234663852886e38 ? -3.4028234663852886e38f
                                                                                          : (float)v;
}
gc_status gc_obj_positions(const char* path, const gc_load_options* o, float** xyz, size_t* count, gc_error* err);
gc_status gc_ply_positions(const char* path, float** xyz, size_t* count, gc_error* err);
gc_status gc_gltf_positions(const char* path, const gc_load_options* o, float** xyz, size_t* count, gc_error* err);
/* .u16/.u32 from standard input: read whole, at most the index limit and
 * GC_STDIN_RAW_MAX_BYTES (GC_ERR_LIMIT past either). */
#define GC_STDIN_RAW_MAX_BYTES ((size_t)1 << 30)
gc_status gc_load_raw_stdin(int bits, const gc_load_options* o, gc_mesh* out, gc_error* err);
/* Opens `path` for reading if it is a regular file, never blocking on a FIFO or a device
 * (O_NONBLOCK, then fstat; regular_file.c); *size its size. NULL with *why (a strerror text,
 * or "not a regular file") otherwise. */
FILE* gc_open_regular(const char* path, uint64_t* size, const char** why);
gc_status gc_load_assimp(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
#ifdef GPUCACHE_HAVE_ASSIMP
struct aiScene;
/* aiImportFile with a file system that opens nothing outside the input's folder
 * (assimp_confine.c); glTF content is refused (gpucache reads it itself). */
gc_status gc_assimp_import(const char* path, unsigned flags, const struct aiScene** out, gc_error* err);
#endif

/* glTF (gltf_mesh.c): the mesh gc_mesh_load gives for a .gltf/.glb (every triangle of every
 * primitive, strips and fans expanded, one run per primitive, vertex ids offset per set of
 * attributes), and gc_mesh_write's rewrite of it. */
gc_status gc_load_gltf(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_rewrite_gltf(const char* in_path, const gc_load_options* o, const uint32_t* indices, size_t count,
                          int reorder_vertices, const gc_fetch_spec* fetch, const char* out_path, gc_error* err);
/* The vertex streams each triangle draw of a glTF reads (gltf_mesh.c): one per triangle
 * primitive, in file order (the runs gc_load_gltf gives), with the primitive's attribute
 * accessors (its morph targets left out; accessors without a buffer view hold no bytes
 * and are left out too) at their real offsets and strides, each buffer in its own 4 KiB
 * aligned range of one address space. first_vertex: the id gc_load_gltf gives the draw's
 * vertex 0. Free with gc_gltf_draw_streams_free. */
typedef struct gc_gltf_draw {
    uint64_t first_vertex;
    uint64_t vertex_count;
    gc_fetch_stream* streams;
    size_t stream_count;
} gc_gltf_draw;
gc_status gc_gltf_draw_streams(const char* path, const gc_load_options* o, gc_gltf_draw** out,
                               size_t* count, gc_error* err);
void gc_gltf_draw_streams_free(gc_gltf_draw* draws, size_t count);
/* The resolved folder of `path` into out (PATH_MAX bytes); false when it cannot be. */
bool gc_path_folder(const char* path, char* out);
/* Whether `resolved` (a realpath) lies inside the resolved folder `root`. */
bool gc_path_inside(const char* root, const char* resolved);
/* Why a glTF URI may not be followed (absolute, a scheme, a ".." component, also when
 * percent-encoded), or NULL for a relative path inside the folder. */
const char* gc_uri_problem(const char* uri);

/* The value of a hexadecimal digit, or -1 (percent escapes in glTF URIs). */
static inline int gc_hex_digit(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The files the mesh `in_path` consists of: itself and, for glTF/GLB, the files every
 * "uri" member of its JSON names, as written and percent-decoded (gltf_uris.c). None for "-".
 * Free with gc_free_names (output.c). */
gc_status gc_mesh_input_files(const char* in_path, char*** files, size_t* count, gc_error* err);
void gc_free_names(char** names, size_t count);

/* An output of several files, written as a set (output_set.c): gc_output_set_add decides
 * and checks each member before anything is written (a companion's name comes from the
 * input: a safe relative name inside the folder, no symbolic link on the way, no existing
 * file unless it holds the same bytes, which is then left alone; another member passes
 * gc_output_check against the inputs). gc_output_set_begin creates the missing folders
 * and a temporary for each member, filled with its data or its copied file (a member with
 * neither is filled by the caller through gc_output_set_file); gc_output_set_commit renames
 * them all, in the order added, once every one is complete; gc_output_set_abort removes
 * every temporary and every folder the set created. Always end with gc_output_set_free. */
typedef struct gc_output_member {
    char* name;          /* relative to the set's folder */
    char* path;          /* the folder and name */
    char* what;          /* for messages: "images[2]" */
    const void* data;    /* bytes to write, or NULL */
    uint64_t size;
    int from_fd;         /* a regular file to copy, or -1 */
    int companion;       /* named by the input */
    int skip;            /* an identical file is there: nothing to write */
    int written;         /* renamed into place */
    gc_atomic_file file;
} gc_output_member;
typedef struct gc_output_set {
    const char* dir;
    const char* const* inputs;
    size_t input_count;
    gc_output_member* members;
    size_t count, capacity;
    char** created;
    size_t created_count;
} gc_output_set;
void gc_output_set_init(gc_output_set* set, const char* dir, const char* const* inputs, size_t input_count);
gc_status gc_output_set_add(gc_output_set* set, const char* name, int companion, const void* data, uint64_t size,
                            const char* from, const char* what, gc_error* err);
gc_status gc_output_set_begin(gc_output_set* set, gc_error* err);
void* gc_output_set_file(gc_output_set* set, size_t i);
gc_status gc_output_set_commit(gc_output_set* set, gc_error* err);
void gc_output_set_abort(gc_output_set* set);
void gc_output_set_free(gc_output_set* set);

/* Format writers (gc_mesh_write): each writes to an open temporary file `out`. */
typedef struct gc_output {
    void* file;       /* FILE* */
    const char* path; /* the final name, for messages */
} gc_output;
gc_status gc_rewrite_obj(const char* in_path, const gc_load_options* o, const uint32_t* indices, size_t count,
                         gc_output* out, gc_error* err);
/* `order`, when not NULL, reorders the vertex records: order[new] = old for the `used`
 * vertices the renumbered `indices` (all below `used`) name; the file's other vertices
 * follow in their old order. Without it, `indices` are the file's own vertex ids. */
gc_status gc_rewrite_ply(const char* in_path, const uint32_t* indices, size_t count, const uint32_t* order,
                         size_t used, gc_output* out, gc_error* err);
gc_status gc_rewrite_assimp(const char* in_path, const uint32_t* indices, size_t count, int reorder_vertices,
                            const char* out_path, gc_error* err);

#endif
