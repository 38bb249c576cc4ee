// SPDX-License-Identifier: MIT
/* gpucache_io.h: libgpucache_io, the files: the mesh formats (text and raw index
 * buffers, OBJ, PLY, glTF 2.0 with jansson, others through assimp when built in), the mesh
 * pipeline over a file (gc_mesh_analyze, gc_mesh_optimize), the measurement and fit-result
 * files, the published measurements (gpucache_validate.h), the meshlet data files, the
 * pictures and the report of a mesh file, and atomic output. It depends on libgpucache
 * (gpucache.h), jansson and (optionally) assimp. */
#ifndef GPUCACHE_PUBLIC_IO_H
#define GPUCACHE_PUBLIC_IO_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_pictures.h"
#include "gpucache/gpucache_validate.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- index data */

/* An index buffer loaded from a file, owned by the caller (free with gc_mesh_free). */
typedef struct gc_mesh {
    uint32_t* indices;
    size_t index_count;
    gc_topology topology;     /* as the file says (a PLY tristrips element is a strip) */
    int has_topology;         /* the file fixes the topology (meshes do; raw buffers do not) */
    int restart_enabled;
    uint32_t restart_value;
    int index_bits;           /* 16 or 32: width of the source indices */
    uint64_t vertex_count;    /* vertices in the file's vertex buffer, 0 if unknown */
    size_t* runs;             /* triangles per run of faces that share render state (OBJ: between
                                 usemtl/g/o/s statements; assimp: per mesh), NULL: one run */
    size_t run_count;
} gc_mesh;

/* How to read a mesh file. Zero-initialise. */
typedef struct gc_load_options {
    int positions_only;       /* OBJ: vertex = position index alone */
    size_t max_indices;       /* 0 = GC_MAX_INDICES */
    int allow_external_uris;  /* glTF: follow buffer and image URIs out of the input's folder
                                 (absolute paths, ".."); 0: refuse them */
} gc_load_options;

/* Loads indices from `path` into *out (zeroed first; on success the caller owns its arrays
 * and frees them with gc_mesh_free; on failure nothing is left to free), picking the
 * format by extension: .txt/.idx (text), .u16/.u32 (raw little-endian), .obj, .ply,
 * .gltf/.glb (gc_gltf_load: every triangle of every triangle primitive, strips and fans
 * expanded, one run per primitive, vertex ids offset per set of attribute accessors), else
 * through assimp if built in. `options` may be NULL (defaults). Standard input: "-" reads
 * it as a PLY when it starts with "ply", as an OBJ when its first token is a word, else
 * as text indices; "txt:-", "idx:-", "obj:-", "ply:-", "u16:-" and "u32:-" name the
 * format (gc_stdin_format). Raw formats are read whole into memory (at most 1 GiB of
 * them from standard input: GC_ERR_LIMIT), text ones streamed.
 * Time linear in the input; memory about 4 bytes per index (plus a hash of corners for
 * OBJ), bounded by options->max_indices (GC_MAX_INDICES when 0): GC_ERR_LIMIT past it.
 * GC_ERR_IO for a file that cannot be read, GC_ERR_DATA with the file and the line or
 * byte for malformed content. */
GC_API gc_status gc_mesh_load(const char* path, const gc_load_options* options, gc_mesh* out, gc_error* err);

/* Generated inputs ("grid:WxH", gc_mesh_load_input and the grid command): at most 20000
 * quads a side and 16M quads in all (about 100 M indices, 400 MB), so that a few
 * characters cannot ask for gigabytes. */
#define GC_GRID_MAX_SIDE 20000u
#define GC_GRID_MAX_QUADS ((uint64_t)1 << 24)

/* gc_mesh_load, or for "grid:WxH" the generated W x H quad grid in row-major order (a
 * triangle list of 32-bit indices with its vertex count; GC_ERR_USAGE for a size out of
 * GC_GRID_MAX_SIDE and GC_GRID_MAX_QUADS): every input the gpucache tool takes. */
GC_API gc_status gc_mesh_load_input(const char* path, const gc_load_options* options, gc_mesh* out, gc_error* err);

/* How to draw a loaded mesh (gc_mesh_load_draw). Zero-initialise: the file's topology (a
 * triangle list where the file has none) and restart. */
typedef struct gc_draw_options {
    const gc_topology* topology; /* non-NULL: this topology (GC_ERR_USAGE when the file holds another) */
    int restart;                 /* non-zero: primitive restart on ... */
    int restart_given;           /* ... with restart_value, else the index width's default */
    uint32_t restart_value;      /*     (0xFFFF for 16-bit input, else 0xFFFFFFFF) */
} gc_draw_options;

/* Loads `path` (gc_mesh_load_input) into *mesh and the draw `draw_options` (may be NULL)
 * describe into *draw (pointing into mesh), validated (gc_draw_validate: *primitives set);
 * a 32-bit 0xFFFFFFFF without restart is GC_ERR_DATA (the restart marker, written -1 in
 * text: a mistake, not a vertex). On failure nothing is left to free; on success the
 * caller frees *mesh with gc_mesh_free. Time and memory: gc_mesh_load's, one pass. */
GC_API gc_status gc_mesh_load_draw(const char* path, const gc_load_options* options,
                                   const gc_draw_options* draw_options, gc_mesh* mesh, gc_draw* draw,
                                   uint64_t* primitives, gc_error* err);

/* Reads the vertex positions of the mesh file `path` (read with `options`, as
 * gc_mesh_load reads it) into *xyz: 3 floats (x, y, z) per vertex id of the mesh
 * gc_mesh_load gives, *count vertex ids (0 .. *count - 1, every index below it). An OBJ's
 * vertex is a (position, texcoord, normal) corner, numbered in order of first use, or with
 * options->positions_only the position itself; a PLY's is its vertex record (x, y and z
 * properties needed); a glTF's, gc_mesh_load's id of a triangle primitive's vertex set,
 * takes the set's POSITION accessor (float VEC3, node transforms not applied; others:
 * GC_ERR_UNSUPPORTED; ids of sets no triangle primitive draws are left at 0, 0, 0). Other
 * formats (index buffers, standard input, assimp's): GC_ERR_UNSUPPORTED. On success the caller frees *xyz with free(); on failure *xyz is
 * NULL and *count 0. Time linear in the file; memory 12 bytes per vertex (plus the OBJ
 * reader's corner table and 12 bytes per position while reading). */
GC_API gc_status gc_mesh_load_positions(const char* path, const gc_load_options* options, float** xyz, size_t* count,
                                        gc_error* err);

/* Writes `out_path` as the mesh file `in_path` (read with `options`) with the triangle
 * list `indices` in place of its faces: a reordering of the triangles gc_mesh_load gave,
 * each run's triangles staying in that run. The output keeps the input's format and
 * everything else in it: .txt/.idx (3 indices per line), .u16/.u32 (raw), .obj (every
 * other line kept, each run's faces written as triangles where the run was), .ply (the
 * header written back as gc_mesh_load read it, comments kept; the vertex element and
 * others copied, faces written as triangles; tristrips become faces), .gltf/.glb (each
 * indexed triangle list's index data in place, strips, fans and non-indexed primitives
 * kept, everything else unchanged: gc_gltf_write), other formats through assimp's exporter
 * (gc_mesh_write_reencodes). With `reorder_vertices`, vertices are also renumbered in
 * order of first use (for fetch locality): raw and text indices, PLY vertex records (the
 * unused ones kept, after the used ones), glTF attribute data (gc_gltf_reorder_vertices),
 * each assimp mesh's vertex arrays; an OBJ needs
 * nothing (a renderer builds its vertex buffer from the faces in first-use order). Memory
 * follows the index count, whatever the index values. Every file of the output is written
 * to a temporary in its folder and renamed (gc_atomic_file); an output that would replace
 * one of the input's files is refused (gc_mesh_write_check). */
GC_API gc_status gc_mesh_write(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                        size_t index_count, int reorder_vertices, const char* out_path, gc_error* err);

/* gc_mesh_write, and with `remap` non-NULL also the vertex map the output's numbering came
 * from: (*remap)[old] = the number vertex `old` has in the written file, UINT32_MAX for a
 * value no index uses, for old below *remap_count = the largest index value + 1 (the input's
 * vertices, as far as an index buffer tells). Free *remap with free(). A map is given only
 * with `reorder_vertices` and for index-buffer inputs (.txt/.idx/.u16/.u32, "-"): GC_ERR_USAGE
 * otherwise (gc_mesh_remap_check), and only for dense values (largest + 1 at most
 * 2 x index_count + 65536, so that it follows the index count): GC_ERR_LIMIT otherwise; both
 * are refused before anything is written. Costs 4 bytes per map entry beyond gc_mesh_write;
 * on failure *remap is NULL and *remap_count 0. */
GC_API gc_status gc_mesh_write_remap(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                              size_t index_count, int reorder_vertices, const char* out_path, uint32_t** remap,
                              size_t* remap_count, gc_error* err);

/* gc_mesh_write_remap with the vertices (reorder_vertices) numbered for the fetch model
 * `fetch` (an every-reference spec such as "meshopt:32": gc_reorder_vertices_fetch, never more
 * bytes fetched than first use) where the format carries a numbering: raw and text indices,
 * PLY vertex records, glTF attribute data (each set of attributes permuted once, for its
 * first primitive's indices); NULL: in order of first use, as gc_mesh_write_remap. OBJ and
 * assimp's formats are numbered by first use whatever `fetch` says (an OBJ reader numbers
 * vertices by first use whatever the file lists). Memory: gc_mesh_write's, the fetch
 * numbering's 4 bytes an index taken before the order is allocated. */
GC_API gc_status gc_mesh_write_numbered(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                                        size_t index_count, int reorder_vertices, const gc_fetch_spec* fetch,
                                        const char* out_path, uint32_t** remap, size_t* remap_count, gc_error* err);

/* Releases what gc_mesh_load or gc_mesh_parse_text allocated and zeroes *mesh; safe on a
 * zeroed mesh and on NULL. O(1). */
GC_API void gc_mesh_free(gc_mesh* mesh);

/* ------------------------------------------------------------------- glTF 2.0
 *
 * gpucache's own glTF reader and writer (src/io/gltf.c, docs/formats/gltf.md): each mesh
 * primitive's own index accessor and mode, read from a .gltf (buffers in files beside it
 * or in data: URIs) or a .glb (its BIN chunk), and written back with only the index data
 * (and with vertex reordering the attribute data) of the primitives the caller rewrote
 * changed: the JSON is the same data, every other byte the same. Every declared size is
 * checked against the bytes that hold it before anything is allocated; every URI must
 * stay inside the input's folder unless allow_external_uris; files with compressed
 * geometry (KHR_draco_mesh_compression, EXT_meshopt_compression) are refused. Errors name
 * the file and the JSON path ("meshes[2].primitives[0].indices"). */
typedef struct gc_gltf gc_gltf;

/* Called with one line of information the caller should show its user (a primitive left
 * alone and why, files copied beside the output); the line is valid during the call. */
typedef void (*gc_note_fn)(void* user, const char* line);

typedef struct gc_gltf_options {
    int allow_external_uris;  /* follow absolute and ".." URIs; 0: only the input's folder */
    size_t max_indices;       /* indices over all primitives; 0 = GC_MAX_INDICES */
    gc_note_fn note;          /* may be NULL */
    void* note_user;
} gc_gltf_options;

/* One mesh primitive (a draw), in file order: meshes[mesh].primitives[primitive]. */
typedef struct gc_gltf_primitive {
    size_t mesh;
    const char* mesh_name;    /* meshes[mesh].name, NULL when absent; owned by the document */
    size_t primitive;
    int mode;                 /* the glTF mode, 0..6 */
    gc_topology topology;     /* that mode as a topology (2 is a line loop, 3 a line strip) */
    int index_bits;           /* 8, 16 or 32; 0 for a primitive without indices */
    const uint32_t* indices;  /* index_count values; without indices 0, 1, ..., count - 1 */
    size_t index_count;
    uint64_t vertex_count;    /* elements of its attribute accessors (all equal) */
    size_t shares_indices_with; /* an earlier primitive with the same index accessor, or SIZE_MAX */
    const char* indices_kept; /* an indexed triangle list whose index data must stay as it is:
                                 why (its accessor is also drawn by a primitive of another mode,
                                 used otherwise, or its bytes are shared with another accessor);
                                 NULL when gc_gltf_set_indices may rewrite it. Owned by the doc. */
} gc_gltf_primitive;

/* Reads a .gltf or .glb file (by its 'glTF' magic, else as JSON). Memory: the file, the
 * buffers it names, and 4 bytes per index. The document owns everything it hands out. */
GC_API gc_status gc_gltf_load(const char* path, const gc_gltf_options* options, gc_gltf** out, gc_error* err);

/* The number of primitives, in file order (meshes, then their primitives). O(1). */
GC_API size_t gc_gltf_primitive_count(const gc_gltf* doc);
/* Primitive i (below gc_gltf_primitive_count), owned by the document and valid until
 * gc_gltf_free (its index data follows gc_gltf_set_indices and gc_gltf_reorder_vertices);
 * NULL when i is out of range. O(1). */
GC_API const gc_gltf_primitive* gc_gltf_primitive_at(const gc_gltf* doc, size_t i);

/* Replaces primitive i's index data, where it is and in its component type: `indices`
 * holds index_count values below vertex_count. Only for indexed triangle lists whose
 * indices_kept is NULL (GC_ERR_USAGE otherwise); O(index_count). */
GC_API gc_status gc_gltf_set_indices(gc_gltf* doc, size_t i, const uint32_t* indices, size_t count, gc_error* err);

/* Reorders vertex data for fetch locality: the primitives that share one set of attribute
 * accessors (morph targets, JOINTS_n and WEIGHTS_n included) get one vertex order, by
 * first use over their indices in file order, placed in the slots the used vertices had
 * (so each index accessor keeps its values' set, min and max); each accessor's elements
 * are permuted once, within their byteStride; index values are renumbered to match.
 * Sets joined by a shared index or attribute accessor (one vertex count) get one
 * permutation, each accessor permuted once. Where that cannot be done safely (an
 * attribute accessor also used by a skin or an animation, sparse accessors, overlapping
 * accessors, index data whose bytes something else reads, primitives without indices),
 * the primitives keep their vertices and a note names each of them and says why. Memory: the largest
 * accessor, and O(primitives + accessors). */
GC_API gc_status gc_gltf_reorder_vertices(gc_gltf* doc, gc_error* err);

/* Writes the document to out_path (.gltf for a .gltf input, .glb for a .glb): the JSON
 * unchanged, or with only the URIs of rewritten buffers changed (each rewritten external
 * buffer gets a file of its own beside the output, its name with .bin, -I.bin for
 * buffers[I], never a name the output still refers to nor one of the input's files; a
 * rewritten data: buffer is encoded again); unchanged external buffers
 * and images are copied beside the output when it goes to another folder. The files form
 * one set, every member checked before anything is written: a copied file's name (from
 * the input) must stay in the output's folder (no "..", no leading "/", no part starting
 * with '.', no symbolic link on its way) and may not replace a file unless that file holds
 * the same bytes already (it is then kept): GC_ERR_DATA, nothing written. Each file goes to
 * a temporary, all are renamed when all are complete (the referenced files before
 * out_path), and on failure every temporary and created folder is removed. */
GC_API gc_status gc_gltf_write(gc_gltf* doc, const char* out_path, gc_error* err);
/* gc_gltf_write that also refuses to replace any of `also_inputs` (the caller's other
 * inputs, such as a fit result) with a file of the output. */
GC_API gc_status gc_gltf_write_inputs(gc_gltf* doc, const char* out_path, const char* const* also_inputs,
                                      size_t also_count, gc_error* err);

/* Frees a document; safe on NULL. */
GC_API void gc_gltf_free(gc_gltf* doc);

/* Reads a state-change file (`path`, or "-" for standard input): positions (whitespace
 * separated, "#" comments), each at most index_count (GC_ERR_DATA with the line
 * otherwise). Returns them sorted in *out, which the caller frees with free(), and their
 * number in *count; on failure *out is NULL. O(n log n) time, 8 bytes per position, at
 * most as many positions as indices + 1 (GC_ERR_LIMIT). */
GC_API gc_status gc_state_changes_load(const char* path, size_t index_count, uint64_t** out, size_t* count,
                                gc_error* err);

/* gc_meshlet_data_decode of the file `path` (at most 1 GiB: GC_ERR_LIMIT; GC_ERR_IO when it
 * cannot be read). */
GC_API gc_status gc_meshlet_data_load(const char* path, gc_meshlets* out, gc_error* err);

/* Writes *m to `path` whole or not at all (gc_atomic_file). */
GC_API gc_status gc_meshlet_data_save(const char* path, const gc_meshlets* m, gc_error* err);

/* What `gpucache meshlets` cuts from a mesh file (gc_meshlets_cut_mesh, gc_meshlets_cut_gltf). */
typedef struct gc_meshlets_cut {
    gc_meshlets meshlets; /* the draw's meshlets (a glTF: the last list cut), with bounds when asked */
    gc_meshlets sum;      /* a glTF: the counts summed over the lists cut (no arrays) */
    size_t runs;          /* the runs (a glTF: the lists) cut, each its own set of meshlets */
    uint32_t* indices;    /* not a glTF: the triangle list in meshlet order, in the file's values */
    size_t index_count;
    gc_gltf* doc;         /* a glTF: the document with its lists in meshlet order */
} gc_meshlets_cut;

/* The loaded triangle list `mesh` (with `draw`, as gc_mesh_load_draw gives them; its
 * indices are renumbered in place) of the file `path` cut into meshlets under `o`, each
 * run its own set (sparse values made dense, then put back); with `bounds` each meshlet's
 * bounds from the file's positions (gc_mesh_load_positions with `lo`). An OBJ's meshlet
 * vertices are numbered by first use, as the written file's reader numbers them. Another
 * topology or restart: GC_ERR_USAGE. On success the caller frees *out with
 * gc_meshlets_cut_free; on failure nothing is left to free. */
GC_API gc_status gc_meshlets_cut_mesh(const char* path, const gc_load_options* lo, gc_mesh* mesh,
                                      const gc_draw* draw, const gc_meshlet_options* o, int bounds,
                                      gc_meshlets_cut* out, gc_error* err);
/* The glTF `path` (read with `go`; strips, fans and kept indices left as they are, with a
 * note) with every indexed triangle list cut into meshlets under `o` and rewritten in
 * meshlet order in out->doc (gc_gltf_write writes it). `one_draw`: exactly one list
 * (GC_ERR_USAGE otherwise), as a meshlet data file holds one draw; `bounds`: the last
 * list's bounds from its POSITION data. Frees and failure as gc_meshlets_cut_mesh's. */
GC_API gc_status gc_meshlets_cut_gltf(const char* path, const gc_gltf_options* go, const gc_meshlet_options* o,
                                      int bounds, int one_draw, gc_meshlets_cut* out, gc_error* err);
/* Releases what a cut allocated and zeroes *cut; safe on a zeroed one. */
GC_API void gc_meshlets_cut_free(gc_meshlets_cut* cut);

/* ------------------------------------------------------------ the mesh pipeline
 *
 * What the gpucache tool and the Python package do with a mesh file, in one place
 * (src/pipeline/): gc_mesh_analyze counts each draw the file holds, gc_mesh_optimize runs
 * the whole reordering (triangle list, sparse values, runs, segments, numbering) and
 * counts before and after as the output will be read back. */

/* How gc_mesh_load reads `path`, by its name: "gltf" (.gltf, .glb), "obj", "ply", "txt"
 * (.txt, .idx), "u16", "u32", "stdin" ("-" and "FORMAT:-", gc_stdin_format) or "other"
 * (assimp's, when built in). A static string. O(length of path), no allocation. */
GC_API const char* gc_mesh_format(const char* path);

/* Whether the reader of `path`'s format numbers the vertices in order of first use in
 * the faces (an OBJ's reader builds its vertex buffer so): value-keyed models
 * (direct-value, llvmpipe) see a reordered file's vertices numbered that way. O(1). */
GC_API int gc_mesh_numbers_by_first_use(const char* path);

/* One draw of a mesh file as gc_mesh_analyze counts it. */
typedef struct gc_mesh_draw {
    size_t mesh, primitive;   /* glTF: meshes[mesh].primitives[primitive]; other formats 0, 0 */
    const char* mesh_name;    /* glTF: meshes[mesh].name, or NULL; owned by the analysis */
    int mode;                 /* glTF: the primitive's mode (0..6); other formats -1 */
    int index_bits;           /* 8, 16 or 32; 0 for a glTF primitive without indices */
    gc_topology topology;
    int restart_enabled;
    uint32_t restart_value;
    size_t index_count;
    uint64_t primitives;      /* primitives the draw assembles */
    uint64_t vertices;        /* distinct index values it draws */
    gc_stats* stats;          /* one per model, in the models' order; owned by the analysis */
    const uint32_t* indices;  /* the draw's indices (index_count); owned by the analysis */
    const uint64_t* state_changes; /* those it was counted with (gc_mesh_analyze_with), or NULL; */
    size_t state_change_count;     /* owned by the analysis */
} gc_mesh_draw;

/* What gc_mesh_analyze gives: every draw, and each model's sum over them. */
typedef struct gc_mesh_analysis {
    size_t draw_count;
    gc_mesh_draw* draws;
    size_t model_count;
    gc_stats* sums;           /* model_count sums over the draws (gc_stats_add) */
    uint64_t indices, primitives, vertices; /* summed over the draws */
    uint64_t triangles;       /* of the triangle draws (strips and fans expanded) */
    int mixed;                /* the draws' topologies differ */
    gc_topology topology;     /* the first draw's */
    struct gc_mesh_analysis_owned* owner; /* opaque: the library's (names, stats); do not touch */
} gc_mesh_analysis;

/* Counts every model on every draw of the mesh file `path` (read with `options`, may be
 * NULL), with the semantics of a GPU: a glTF's mesh primitives are each a draw of its own
 * indices with the topology of its mode (points and lines included, a primitive without
 * indices drawing 0, 1, ...), each analyzed from a reset cache; any other format is one
 * draw, of the indices gc_mesh_load gives with the file's topology and restart (a 32-bit
 * 0xFFFFFFFF without restart is GC_ERR_DATA, as in `gpucache analyze`). The sums add
 * the draws (gc_stats_add). This is what `gpucache analyze --json` prints and what the
 * Python package's analyze returns for a loaded file. Draws of 2^16 indices or more run
 * the models on `threads` threads (gc_analyze_models). On success the caller frees *out
 * with gc_mesh_analysis_free; on failure nothing is left to free. Time: one gc_analyze per
 * model and draw; memory: the file's indices, and one gc_stats per model and draw. */
GC_API gc_status gc_mesh_analyze(const char* path, const gc_load_options* options, const gc_model* models,
                                 size_t model_count, unsigned threads, gc_mesh_analysis* out, gc_error* err);
/* What gc_mesh_analyze_with adds to gc_mesh_analyze (zero-initialise: gc_mesh_analyze's
 * semantics). Every field but load and threads applies to a file that is not a glTF (one
 * draw): GC_ERR_USAGE for a glTF when any is set. */
typedef struct gc_mesh_analyze_options {
    const gc_load_options* load;       /* how to read the file (may be NULL) */
    unsigned threads;                  /* as gc_mesh_analyze's */
    gc_draw_options draw;              /* the draw's topology and restart (gc_mesh_load_draw) */
    const char* state_changes;         /* a state-change file (gc_state_changes_load), or NULL */
    gc_per_vertex* per_vertex;         /* model_count of them, filled (free each with
                                          gc_per_vertex_free), or NULL */
    gc_trace_fn trace;                 /* called for every model's every primitive ... */
    void* const* trace_users;          /* ... with trace_users[model] */
} gc_mesh_analyze_options;
/* gc_mesh_analyze with `options` (may be NULL) and models run one at a time where a trace
 * or per-vertex counts are asked for (else as gc_mesh_analyze runs them). A "grid:WxH"
 * path is the generated grid (gc_mesh_load_input). This is what `gpucache analyze` runs. */
GC_API gc_status gc_mesh_analyze_with(const char* path, const gc_mesh_analyze_options* options,
                                      const gc_model* models, size_t model_count, gc_mesh_analysis* out,
                                      gc_error* err);
/* Releases what gc_mesh_analyze allocated and zeroes *analysis; safe on a zeroed one. */
GC_API void gc_mesh_analysis_free(gc_mesh_analysis* analysis);

/* The triangles the mesh file `path` draws (read with `options`, may be NULL, as
 * gc_mesh_load reads it; strips and fans expanded, restarts honoured; a glTF's triangle
 * primitives in file order, numbered as gc_mesh_load numbers them) as a new triangle list
 * *out (free()) of *count indices. With `mesh` non-NULL the loaded mesh is left there too
 * (the caller frees it with gc_mesh_free; its runs are the glTF primitives' triangles).
 * Points and lines: GC_ERR_USAGE naming the file; gc_mesh_load's errors otherwise. On
 * failure nothing is left to free. Time linear in the file; memory 4 bytes per index more. */
GC_API gc_status gc_mesh_load_triangles(const char* path, const gc_load_options* options, uint32_t** out,
                                        size_t* count, gc_mesh* mesh, gc_error* err);

/* A mesh file's overdraw and vertex fetch (gc_mesh_vertex_costs_of). */
typedef struct gc_mesh_vertex_costs {
    int has_overdraw;
    gc_overdraw_stats overdraw;       /* every triangle draw in file order, over every position */
    size_t draw_count;                /* glTF: its triangle primitives, each alone; else 0 */
    gc_overdraw_stats* draw_overdraw; /* draw_count of them, in the file's order (with overdraw) */
    int has_fetch;
    size_t model_count;               /* fetch entries: 1 for an every-reference spec, else one per model */
    gc_fetch_stats* fetch;            /* glTF with a spec that follows a model: the draws' sums */
    gc_fetch_stats* draw_fetch;       /* glTF with a spec that follows a model: draw_count x
                                         model_count, draw by draw (each from an empty model and
                                         cold caches, over its own accessors); else NULL */
} gc_mesh_vertex_costs;

/* The overdraw (when `overdraw` is non-zero: docs/models/overdraw.md) and the vertex fetch
 * (when `fetch` is not NULL: docs/models/fetch.md; a spec fetching the vertices a model
 * shades runs once per model of `models`) of the mesh file `path` read with `options`:
 * its triangles (strips and fans expanded; glTF: every triangle primitive in file order,
 * numbered as gc_mesh_load numbers them) with the positions gc_mesh_load_positions reads
 * (a glTF's draws: each over the vertices it uses, its own box); fetch over one packed
 * stream of the spec's vertex size, the vertex count the positions' where known, except
 * for a glTF with a spec that follows a model: there each triangle primitive is a draw of
 * its own (an empty model, cold caches) over its attribute accessors' real offsets and
 * strides (each buffer its own 4 KiB-aligned range; morph targets and accessors without a
 * buffer view left out), the file's figures the draws' sums. Points
 * and lines: GC_ERR_USAGE; overdraw on a file without positions (an index buffer):
 * GC_ERR_USAGE naming it. On success the caller frees *out with gc_mesh_vertex_costs_free.
 * Time: gc_analyze_overdraw's and gc_analyze_fetch's; memory: the file's triangles twice,
 * its positions, and the models' state. */
GC_API gc_status gc_mesh_vertex_costs_of(const char* path, const gc_load_options* options, int overdraw,
                                         const gc_fetch_spec* fetch, const gc_model* models, size_t model_count,
                                         gc_mesh_vertex_costs* out, gc_error* err);
/* Releases what gc_mesh_vertex_costs_of allocated and zeroes *costs; safe on a zeroed one. */
GC_API void gc_mesh_vertex_costs_free(gc_mesh_vertex_costs* costs);

/* The triangle list `draw` assembles (strips, fans, quads and polygons expanded; a point
 * or line topology: GC_ERR_USAGE naming `what`) in a new array *out of *count indices, on
 * dense ids as gc_mesh_optimize hands them to the optimizers: sparse values (largest + 1
 * above 2 x indices + 65536) renumbered to their ranks, *values (NULL when nothing was
 * renumbered) then the value of each id; *bound the ids' bound. The caller frees *out and
 * *values with free(); on failure both are NULL. O(n log n) time when sparse, else O(n);
 * 4 bytes per index, 8 when sparse. */
GC_API gc_status gc_mesh_dense_triangles(const gc_draw* draw, const char* what, uint32_t** out, size_t* count,
                                         uint32_t** values, uint32_t* bound, gc_error* err);

/* What gc_mesh_optimize does. Zero-initialise, then set `algorithm`. */
typedef struct gc_mesh_optimize_options {
    gc_optimizer algorithm;
    gc_optimize_options optimize; /* cache size, targets, seed, effort, progress and the overdraw
                                     settings, as gc_optimize takes them; positions, when given,
                                     are indexed by the input's index values (vertex_count of them) */
    uint32_t vertex_count;    /* every index is below it; 0: the largest + 1, sparse values compacted */
    int reorder_vertices;     /* the output's vertices are renumbered: gc_mesh_optimized.numbering */
    int vertex_map;           /* the caller wants a vertex map (sparse values refused: GC_ERR_LIMIT) */
    int positions;            /* no optimize.positions: 0 no overdraw pass, 1 the file's positions
                                 where it has them, 2 the file's (GC_ERR_USAGE without) */
    const gc_load_options* load; /* how the file is read (may be NULL) */
    const gc_model* report;   /* counted before and after (may be NULL) */
    size_t report_count;
    unsigned threads;         /* for the counting of large draws */
    int mesh_lists;           /* glTF: also the triangle lists (indices, input, dense), numbered as
                                 gc_mesh_load numbers the file (the file is read a second time) */
    gc_note_fn note;          /* glTF: each primitive left as it is, and why (may be NULL) */
    void* note_user;
    const gc_fetch_spec* fetch; /* reorder_vertices: the fetch model the numbering is chosen for
                                 (an every-reference spec; NULL: "meshopt:32") */
} gc_mesh_optimize_options;

/* How gc_mesh_optimize's output numbers its vertices (gc_mesh_optimized.numbering). */
typedef enum gc_numbering {
    GC_NUMBER_KEPT = 0,      /* as the input numbers them (no reorder_vertices) */
    GC_NUMBER_FIRST_USE = 1, /* in order of first use (gc_reorder_vertices) */
    GC_NUMBER_FETCH = 2      /* first use's lines placed for the fetch model gc_mesh_optimized.fetch
                                (gc_reorder_vertices_fetch) */
} gc_numbering;

/* What gc_mesh_optimize gives; free with gc_mesh_optimized_free. */
typedef struct gc_mesh_optimized {
    uint32_t* indices;        /* the reordered triangle list, with the input's index values (a
                                 glTF's: gc_mesh_load's numbering): what gc_mesh_write takes */
    size_t index_count;
    uint32_t* dense;          /* the input's triangle list on dense ids (the optimizer's), before
                                 reordering; NULL where it is `input` itself */
    uint32_t* input;          /* the input's triangle list, with its own values */
    uint32_t dense_count;     /* the dense ids' bound (the largest value + 1 when not sparse) */
    int sparse;               /* the values were renumbered for the optimizer */
    size_t triangles;         /* triangles reordered */
    size_t runs;              /* lists reordered each on its own (runs, glTF primitives) */
    size_t left;              /* glTF: primitives left as they are */
    gc_topology topology;     /* the input's (strips, fans, quads and polygons become lists) */
    gc_stats* before;         /* report_count each: the input, and the output as it will be read */
    gc_stats* after;
    gc_gltf* gltf;            /* glTF: the document with the new index data (and vertex order),
                                 for gc_gltf_write; owned by the result */
    gc_numbering numbering;   /* how the output is numbered (gc_mesh_optimized_write): with
                                 reorder_vertices, GC_NUMBER_FETCH where the format carries a
                                 numbering (index buffers, PLY, glTF, arrays) and no auto target
                                 is value-keyed (gc_family_traits.value_keyed); else first use */
    gc_fetch_spec fetch;      /* GC_NUMBER_FETCH: the spec it is chosen for */
} gc_mesh_optimized;

/* The whole reordering of a mesh, as `gpucache optimize` does it: `draw` (or, when NULL,
 * the file `path` read with options->load) becomes the triangle list it draws (a point or
 * line topology: GC_ERR_USAGE); sparse index values (largest + 1 above 2 x indices +
 * 65536) are renumbered for the optimizer and restored after; each run of `runs`
 * (triangles per run of faces sharing render state, as gc_mesh_load gives them; NULL:
 * one run; for a triangle list they must add up to its triangles, GC_ERR_USAGE otherwise;
 * other topologies are one run) is reordered on its own by one gc_optimize, told where the run sits in the
 * draw's index stream (llvmpipe's segments) and whether the vertices will be numbered in
 * order of first use (reorder_vertices, or a format whose reader numbers them so:
 * gc_mesh_numbers_by_first_use(path)); with options->optimize.threads above 1 the runs (a
 * glTF's primitives) are reordered side by side, each on one thread (the same output; each
 * its own gc_optimize's memory at once, and a glTF's reordered indices all held until written).
 * A glTF file (path, draw NULL) is reordered in its
 * document: each indexed triangle-list primitive whose index data may be rewritten on its
 * own, strips, fans, non-indexed lists and kept index data left (options->note says why),
 * then with reorder_vertices gc_gltf_reorder_vertices. options->report models are counted
 * on the input and on the output as it will be read back (gc_mesh_analyze's semantics:
 * a glTF per primitive; renumbered in order of first use where it will be). `path` may be
 * NULL for an array. On success the caller frees *out with gc_mesh_optimized_free; on
 * failure nothing is left. Time: gc_optimize's, plus one gc_analyze per report model,
 * before and after; memory about 16 bytes per index beyond gc_optimize's. */
GC_API gc_status gc_mesh_optimize(const char* path, const gc_draw* draw, const size_t* runs, size_t run_count,
                                  const gc_mesh_optimize_options* options, gc_mesh_optimized* out, gc_error* err);
/* Releases what gc_mesh_optimize allocated (the document too) and zeroes *result. */
GC_API void gc_mesh_optimized_free(gc_mesh_optimized* result);

/* Renumbers `indices` (result->index_count of them, below vertex_count: a copy of
 * result->indices) as the output is numbered (result->numbering), in place, with
 * remap[old] = new (vertex_count entries, UINT32_MAX unused) and *used; GC_NUMBER_KEPT
 * leaves them and sets remap to the identity. Cost: gc_reorder_vertices_fetch's. */
GC_API gc_status gc_mesh_optimized_renumber(const gc_mesh_optimized* result, uint32_t* indices,
                                            uint32_t vertex_count, uint32_t* remap, uint32_t* used,
                                            gc_error* err);

/* gc_mesh_write_remap of result->indices to `out_path` (the input `in_path` read with
 * `options`), the vertices numbered as result->numbering says (a glTF's document: write
 * result->gltf with gc_gltf_write instead). `remap` may be NULL (no vertex map). */
GC_API gc_status gc_mesh_optimized_write(const char* in_path, const gc_load_options* options,
                                         const gc_mesh_optimized* result, const char* out_path, uint32_t** remap,
                                         size_t* remap_count, gc_error* err);

/* The overdraw and vertex fetch of a mesh before and after gc_mesh_optimize
 * (gc_mesh_optimized_costs_of). */
typedef struct gc_mesh_optimized_costs {
    int has_overdraw;                 /* the file has positions (OBJ, PLY, glTF) */
    gc_overdraw_stats overdraw_before, overdraw_after;
    int has_fetch;
    gc_fetch_stats fetch_before, fetch_after;
} gc_mesh_optimized_costs;

/* The overdraw (docs/models/overdraw.md, where the mesh file `path`, read with `options`,
 * has positions; `path` may be NULL: none) and the fetch under `fetch` (an every-reference
 * spec, meshopt:BYTES; NULL: none) of the triangle list gc_mesh_optimize read (r->input)
 * and of the one it wrote (r->indices), the latter renumbered as r->numbering says when
 * `reorder_vertices`, as the output file will be read back. What cannot be counted is left
 * unset: no positions, no overdraw; sparse values (r->sparse), no fetch. A spec that
 * follows a model: GC_ERR_USAGE. Time: two gc_analyze_overdraw and two gc_analyze_fetch;
 * memory: the positions and 8 bytes per index. */
GC_API gc_status gc_mesh_optimized_costs_of(const char* path, const gc_load_options* options,
                                            const gc_mesh_optimized* r, int reorder_vertices,
                                            const gc_fetch_spec* fetch, gc_mesh_optimized_costs* out,
                                            gc_error* err);

/* ------------------------------------------------------------ output files */

/* Writes `size` bytes of `data` to `path` whole or not at all: a temporary beside it
 * (mkstemp, never following a name planted there), every write checked, flushed and
 * synced, given the final mode (the replaced file's, else 0666 minus the umask) and
 * renamed over `path`. On failure (GC_ERR_IO naming `path`) the temporary is removed and
 * `path` is as it was. The library installs no signal handlers. O(size) plus an fsync. */
GC_API gc_status gc_write_file_atomic(const char* path, const void* data, size_t size, gc_error* err);

/* ---------------------------------------------------------- measurements */

/* Reading the measurement files the suite writes (JSON) into the cases gc_fit takes
 * (gc_measurements, gpucache.h). The file is streamed: index arrays go straight into 32-bit
 * buffers (4 bytes an index, where a whole jansson document took about 43), and only small
 * members are kept, behind the opaque gc_measurements_doc.
 *
 * Loads and validates a measurement file (`path`, or "-" for standard input) into the
 * cases gc_fit takes. Time linear in the file; memory about 4 bytes per index. On failure err
 * names the file and the case (GC_ERR_IO, GC_ERR_DATA, GC_ERR_LIMIT or GC_ERR_NOMEM).
 * Free with gc_measurements_free either way. */
GC_API gc_status gc_measurements_load(const char* path, gc_measurements* in, gc_error* err);
/* Frees what gc_measurements_load allocated and zeroes *in; safe on a zeroed one. */
GC_API void gc_measurements_free(gc_measurements* in);

/* ---------------------------------------------------------- fitted models */

/* The most a fit result file may hold: `gpucache fit --json --top 1000` on the suite writes
 * about 5 MB. */
#define GC_FITTED_MAX_BYTES ((uint64_t)64 << 20)

/* The best model of a fit result (the JSON `gpucache fit --json` prints): the "model" spec
 * of the first, top-ranked element of its "best" array, parsed with gc_model_parse (its
 * "family", when present, must agree). The file is streamed and checked whole as JSON;
 * other members are checked for syntax and skipped, not stored, so memory stays at about
 * 3 MiB at most whatever the file (strings of at most 1 MiB, nesting of at most 256
 * levels); time is linear in its size, at most GC_FITTED_MAX_BYTES. On failure *out is
 * zeroed and err is one line naming the file (and line:column where there is one):
 * GC_ERR_IO (cannot open or read), GC_ERR_LIMIT (larger than GC_FITTED_MAX_BYTES),
 * GC_ERR_DATA (not JSON, not a fit result, no candidates, a best model that does not parse),
 * GC_ERR_NOMEM, or GC_ERR_USAGE for an empty path. */
GC_API gc_status gc_model_load_fitted(const char* path, gc_model* out, gc_error* err);

/* The heat map of a mesh file as `gpucache analyze --heatmap` draws it: loaded with
 * gc_mesh_load (`load` may be NULL) and gc_mesh_load_positions, a glTF's triangle
 * primitives each analyzed as its own draw. The SVG text goes to *svg (*size bytes, NUL
 * terminated; free it with gc_svg_free). `name` (NULL: `path`) names the input in the
 * picture. Cost: the loads, then gc_heatmap_write's. */
GC_API gc_status gc_heatmap_file_svg(const char* path, const gc_load_options* load, const char* name,
                                     const gc_model* model, gc_heatmap_view view, uint32_t scale_max, char** svg,
                                     size_t* size, gc_error* err);
/* ------------------------------------------------------------------ report */

/* Draws the report's sweep figure into `f` (inline SVG or a note in HTML) for the triangle
 * list `triangles` (index_count indices, dense ids below vertex_count) over target cache
 * sizes cache_lo..cache_hi; returns GC_OK, or a failure of the sweep itself. */
typedef gc_status (*gc_report_figure_fn)(void* user, FILE* f, const char* name, const uint32_t* triangles,
                                         size_t index_count, uint32_t vertex_count, uint32_t cache_lo,
                                         uint32_t cache_hi, gc_error* err);

/* The report's model when none is given: the generic 16-entry FIFO. */
#define GC_REPORT_DEFAULT_MODEL "generic"

typedef struct gc_report_options {
    const gc_load_options* load;  /* may be NULL */
    const char* model_spec;       /* the target as typed (the page's commands); NULL: GC_REPORT_DEFAULT_MODEL */
    const gc_model* model;        /* the target parsed; NULL: gc_model_parse(model_spec) */
    gc_heatmap_view view;
    uint32_t cache_lo, cache_hi;  /* the sweep's sizes, 3 <= lo < hi <= 256; 0, 0: 8..32, narrowed
                                     around 16 for a large mesh */
    unsigned threads;             /* 0: 1 */
    /* optional, not for a glTF: the input already read as a draw (the CLI reads standard
     * input and grid:WxH so); NULL: gc_mesh_load of `path`, drawn as the file says */
    const gc_draw* draw;
    const size_t* runs;           /* with draw: its runs of faces (gc_mesh.runs), may be NULL */
    size_t run_count;
    const char* name;             /* the input's name on the page; NULL: path */
    gc_report_figure_fn sweep;    /* NULL: the page notes that there is no sweep figure */
    void* sweep_user;
    gc_progress_fn progress;      /* optimize's progress; may be NULL */
    void* progress_user;
    gc_note_fn note;              /* a line for the user (no heat maps, and why); may be NULL */
    void* note_user;
} gc_report_options;

typedef struct gc_report_info {
    double prepare_seconds;       /* loading, analyzing and optimizing */
    double optimize_seconds;      /* the time optimize took (printed on the page) */
} gc_report_info;

/* Writes `gpucache report`'s page for the mesh file `path` into `f`: one self-contained
 * HTML page (docs/report.md) with the summary, every preset's numbers before and after
 * optimize -a auto for the target model (the pipeline's gc_mesh_analyze and
 * gc_mesh_optimize: a glTF's primitives each their own draw), the heat maps before and
 * after on one colour scale, the sweep figure (options->sweep) and the commands that redo
 * each part. Every name is HTML-escaped, every command word single-quoted. The page shows
 * optimize's time in seconds (two decimals): two pages of one input differ there only.
 * `info` (optional) gets the times taken. Fails with gc_mesh_*'s, gc_analyze's and
 * the sweep's errors and GC_ERR_NOMEM; what was written to `f` is then incomplete. Cost:
 * the analysis of every preset twice, one optimize -a auto, two heat maps (30,000
 * triangles drawn each) and the sweep's. */
GC_API gc_status gc_report_write(FILE* f, const char* path, const gc_report_options* options, gc_report_info* info,
                                 gc_error* err);

/* gc_report_write into memory: the page's text in *html (*size bytes, NUL-terminated;
 * free it with gc_svg_free). */
GC_API gc_status gc_report_html(const char* path, const gc_report_options* options, gc_report_info* info,
                                char** html, size_t* size, gc_error* err);

#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_PUBLIC_IO_H */
