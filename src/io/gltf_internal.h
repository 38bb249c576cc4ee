// SPDX-License-Identifier: MIT
/* glTF 2.0, read and written by gpucache itself (docs/formats/gltf.md): the private interface
 * of src/io/gltf_*.c (not installed, not part of the public API).
 *
 * Reading: the whole file is read once (a GLB's BIN chunk stays inside that copy), the JSON
 * is parsed with jansson and every buffer is resolved: the BIN chunk, a file beside the
 * input (only inside the input's folder unless allow_external_uris) or a base64 data: URI.
 * Every declared size is checked against the bytes that hold it before anything is
 * allocated: the GLB header and chunk lengths against the file, a buffer's byteLength
 * against its bytes, each bufferView against its buffer, each accessor against its view.
 * Each primitive's index accessor (u8, u16, u32, with offsets and strides) is decoded to
 * 32 bits; its attributes (morph targets included) fix its vertex count.
 *
 * Writing changes only bytes of the accessors the caller rewrote (gc_gltf_set_indices,
 * gc_gltf_reorder_vertices): the buffers are modified in memory, in place, and written back
 * with the JSON as it was (byte for byte when no URI had to change). */
#ifndef GC_GLTF_INTERNAL_H
#define GC_GLTF_INTERNAL_H

#include "io.h"

#include <jansson.h>

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The JSON of a glTF is held as a jansson document: keep it to a size where that is cheap. */
#define MAX_GLTF_JSON ((uint64_t)64 << 20)

/* The expansion cap (docs/SECURITY.md, "Reader limits"): the indices of all primitives
 * together (each primitive's own copy; a primitive without indices gets 0, 1, 2, ...) and
 * the vertices of all vertex sets together may each be at most 8 per byte of the input
 * (the glTF file and each buffer file once) plus 2^20. A file of a few bytes otherwise
 * declares billions: accessors without a buffer view are zeros of any count, and many
 * primitives may draw one accessor. */
#define EXPANSION_PER_BYTE 8
#define EXPANSION_FLOOR ((uint64_t)1 << 20)

enum { BUF_NONE, BUF_BIN, BUF_FILE, BUF_DATA }; /* NONE: not resolved yet (its data, if any, is owned) */

typedef struct gltf_buffer {
    unsigned char* data; /* BIN: points into the file copy; else owned */
    uint64_t size;       /* bytes held (a file's whole size, a data: URI's decoded size) */
    uint64_t length;     /* byteLength */
    int kind;
    int dirty;           /* bytes rewritten */
    char* file;          /* BUF_FILE: the path it was read from */
    char* uri;           /* BUF_FILE: the URI as written, percent-decoded */
    int relative;        /* BUF_FILE: a plain relative path (no "..", not absolute) */
    char* resolved;      /* BUF_FILE: the file's real path (symbolic links resolved) */
    size_t same_as;      /* BUF_FILE: an earlier buffer of the same file whose bytes this one
                            shares (each file is read once); SIZE_MAX: its own */
} gltf_buffer;

typedef struct gltf_accessor {
    int valid;           /* parsed and inside its buffer */
    int has_view;
    int sparse;
    size_t buffer;
    uint64_t offset;     /* of element 0 in the buffer */
    uint64_t stride;     /* bytes from one element to the next */
    uint64_t element;    /* bytes of one element */
    uint64_t count;
    int component;       /* componentType */
    int uses;            /* references from primitives' attributes */
    int other_uses;      /* references as indices or from skins and animations */
    size_t group;        /* the vertex group whose attribute it is (SIZE_MAX: none yet,
                            SIZE_MAX - 1: several) */
    size_t index_group;  /* the same for the primitives that use it as indices */
    size_t view;         /* its bufferView, when has_view */
    size_t bytes_of;     /* the buffer whose bytes it reads (buffer, or the buffer it shares
                            a file with): accessors overlap only within one */
    size_t same_data;    /* during assign_sets: the first accessor that reads the same
                            elements (same bytes, offset, stride, element, count) */
    size_t first_index_user; /* the first primitive that uses it as indices, or SIZE_MAX */
    int index_uses;      /* references as indices (counted in other_uses too) */
    uint64_t user_vertices; /* the fewest vertices of a primitive that uses it as indices */
    size_t crossed_by;   /* an accessor whose bytes cross its own; SIZE_MAX: none; CROSSED_VIEW:
                            its view overlaps another view (or too many accessors to compare) */
    size_t odd_users[3]; /* the first primitives that draw it as indices in a mode other than
                            a triangle list */
    size_t odd_count;    /* how many do */
} gltf_accessor;

#define CROSSED_VIEW (SIZE_MAX - 1)
#define PERMUTED (SIZE_MAX - 2) /* gltf_accessor.group during gc_gltf_reorder_vertices: done */

typedef struct gltf_prim {
    gc_gltf_primitive pub;
    uint32_t* indices;   /* owned, or (pub.shares_indices_with set) the first user's: one
                            decoded copy of an index accessor however many draw it */
    size_t index_accessor; /* SIZE_MAX: none */
    size_t* attributes;  /* accessors of the attributes and morph targets, sorted */
    size_t attribute_count;
    size_t group;
    const size_t* set_key; /* during assign_sets: its attributes' same_data ids, sorted */
    char kept[320];      /* pub.indices_kept's text */
} gltf_prim;

struct gc_gltf {
    char* path;
    char root[PATH_MAX]; /* the input's folder, resolved */
    int glb;
    int allow_external;
    gc_note_fn note;
    void* note_user;
    unsigned char* file; /* the whole input */
    size_t file_size;
    size_t json_at, json_length;   /* the JSON text inside `file` */
    size_t chunks_end;             /* GLB: the end of the JSON chunk (with its padding) */
    json_t* doc;
    gltf_buffer* buffers;
    size_t buffer_count;
    gltf_accessor* accessors;
    size_t accessor_count;
    gltf_prim* prims;
    size_t prim_count;
    uint64_t input_bytes; /* the file and each buffer file once */
    size_t* file_table;  /* while loading buffers: buffers by resolved path (hashed) */
    size_t file_table_size;
};

/* A place in the JSON for messages: "meshes[2].primitives[0].indices". */
typedef char place_t[200];

/* Vertex sets: primitives whose attribute accessors read the same data (the same
 * accessors, or accessors over the same bytes, offset and stride: one POSITION accessor per
 * primitive over one vertex buffer makes one set, not one per primitive). Sets p->group
 * (numbered by first appearance in file order), each accessor's group and index_group,
 * and the members of each set in file order: members[start[k] .. start[k + 1]).
 * O(P log P) comparisons of attribute lists. */
typedef struct vertex_sets {
    size_t count;
    size_t* start;   /* count + 1 */
    size_t* members; /* prim_count */
} vertex_sets;

/* gltf_util.c: bytes, messages, URIs and JSON members */
uint32_t gltf_le32(const unsigned char* p);
void gltf_put32(unsigned char* p, uint32_t v);
void gltf_note(gc_gltf* g, const char* fmt, ...) GC_PRINTF(2, 3);
const char* gltf_uri_decode(const char* uri, char* out, size_t size);
bool gltf_member_u64(json_t* obj, const char* key, uint64_t fallback, uint64_t* out);
int gltf_member_ref(json_t* obj, const char* key, size_t limit, size_t* out);
size_t gltf_array_size(json_t* doc, const char* key);

/* gltf_accessors.c: accessors and primitives */
gc_status gltf_load_accessors(gc_gltf* g, gc_error* err);
int gltf_compare_size(const void* a, const void* b);
uint64_t gltf_expansion_cap(const gc_gltf* g);
gc_status gltf_load_primitives(gc_gltf* g, size_t max_indices, gc_error* err);

/* gltf_vertex_sets.c: index rewriting, vertex sets and their reordering */
void gltf_free_sets(vertex_sets* v);
bool gltf_assign_sets(gc_gltf* g, vertex_sets* v);
gc_status gltf_check_vertex_sets(gc_gltf* g, gc_error* err);
gc_status gltf_classify_index_data(gc_gltf* g, gc_error* err);

#endif
