/* Internal interfaces shared by the library's source files. Not installed. */
#ifndef GPUCACHE_INTERNAL_H
#define GPUCACHE_INTERNAL_H

#include "gpucache/gpucache.h"

#include <stdarg.h>
#include <stdbool.h>

#if defined(__GNUC__)
#define GC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define GC_LIKELY(x) __builtin_expect(!!(x), 1)
#define GC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define GC_PRINTF(a, b)
#define GC_LIKELY(x) (x)
#define GC_UNLIKELY(x) (x)
#endif

/* Sets err (if non-NULL) and returns code. */
gc_status gc_fail(gc_error* err, gc_status code, const char* fmt, ...) GC_PRINTF(3, 4);

/* Overflow-checked allocation of count * size bytes; NULL on overflow or failure. */
void* gc_alloc_array(size_t count, size_t size, bool zeroed);

/* A run of primitives of one arity, as a model consumes them. Vertex ids are dense
 * (< gc_run.vertex_count). `positions` is filled only when the model asks for it. */
typedef struct gc_chunk {
    const uint32_t* vertices; /* count * arity ids */
    const size_t* positions;  /* count * arity stream positions, or NULL */
    size_t count;
    unsigned arity;
    uint64_t first_primitive;
} gc_chunk;

/* Cuts a draw into chunks: a list without restart is handed over in one piece,
 * anything else is assembled into fixed buffers. */
#define GC_CHUNK_PRIMITIVES 1024
typedef struct gc_chunker {
    gc_assembler assembler;
    bool contiguous;
    bool want_positions;
    bool done;
    uint64_t next_primitive;
    uint32_t vertices[GC_CHUNK_PRIMITIVES * 4];
    size_t positions[GC_CHUNK_PRIMITIVES * 4];
} gc_chunker;

/* Everything a model run needs besides the model itself. */
typedef struct gc_run {
    gc_draw draw;              /* indices rewritten to dense ids when the input was sparse */
    uint32_t vertex_count;     /* dense ids are below this */
    const uint32_t* values;    /* dense id -> original index value, NULL when identity */
    uint32_t* per_vertex;      /* dense-indexed invocation counts, or NULL */
    gc_trace_fn trace;         /* receives dense ids; the driver translates */
    void* trace_user;
    const uint64_t* state_changes;
    size_t state_change_count;
    uint64_t* vertices_seen;   /* a model with per-vertex state reports here the vertices it saw */
    bool* vertices_reported;   /* ... and sets this; otherwise the driver counts them */
} gc_run;

void gc_chunker_init(gc_chunker* c, const gc_draw* draw, bool want_positions);
/* Fills *out with the next chunk; returns false at the end. */
bool gc_chunker_next(gc_chunker* c, gc_chunk* out);

/* The original index value of a dense id. */
static inline uint32_t gc_run_value(const gc_run* run, uint32_t id)
{
    return run->values ? run->values[id] : id;
}

/* Reports one trace line, if tracing. */
static inline void gc_run_trace(const gc_run* run, uint64_t primitive, const int64_t* entries, size_t count)
{
    if (run->trace)
        run->trace(run->trace_user, primitive, entries, count);
}

/* One function per model family, each in its own source file. Each fills
 * invocations, batches/resets and the family-specific counters of *out. */
gc_status gc_model_fifo_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_lru_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_direct_value_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_direct_position_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_nvidia_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_meshopt_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_reuse_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_batch_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
gc_status gc_model_llvmpipe_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);

/* Reports the distinct vertices a model saw: those whose per-vertex state is non-zero
 * (the way meshoptimizer counts them), saving the driver a pass over the indices. */
static inline void gc_run_report_vertices(const gc_run* run, const uint32_t* state)
{
    uint64_t c = 0;
    for (uint32_t i = 0; i < run->vertex_count; ++i)
        c += state[i] != 0;
    *run->vertices_seen = c;
    *run->vertices_reported = true;
}

/* Distinct unique vertices of one primitive, in first-appearance order; returns how many. */
static inline unsigned gc_unique_vertices(const uint32_t* v, unsigned arity, uint32_t* out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < arity; ++i) {
        unsigned j = 0;
        while (j < n && out[j] != v[i])
            ++j;
        if (j == n)
            out[n++] = v[i];
    }
    return n;
}

/* Buffered reading of a file with line and byte tracking, for the text parsers. */
typedef struct gc_reader {
    void* file;         /* FILE* */
    const char* what;   /* name for messages */
    unsigned char* buffer;
    size_t capacity, length, offset;
    uint64_t consumed;  /* bytes before buffer[0] */
    uint64_t line;      /* 1-based line of the next byte */
    const char* memory; /* reading from memory instead of a file */
    bool eof, error;
} gc_reader;

gc_status gc_reader_open(gc_reader* r, const char* path, gc_error* err);
void gc_reader_from_memory(gc_reader* r, const char* data, size_t length, const char* what);
void gc_reader_close(gc_reader* r);
/* Next byte, or -1 at end of input (or on a read error, flagged in r->error). */
int gc_reader_peek(gc_reader* r);
int gc_reader_get(gc_reader* r);
uint64_t gc_reader_offset(const gc_reader* r);

/* A growable uint32 array. */
typedef struct gc_u32_vec {
    uint32_t* data;
    size_t count, capacity;
} gc_u32_vec;

bool gc_u32_vec_push(gc_u32_vec* v, uint32_t value);
bool gc_u32_vec_reserve(gc_u32_vec* v, size_t capacity);

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

/* Reports a fixed-slot cache to the trace: `empty` marks an unused slot, shown as -1. */
static inline void gc_run_trace_slots(const gc_run* run, uint64_t primitive, const uint32_t* slots, uint32_t n,
                                      uint32_t empty, int64_t* line)
{
    for (uint32_t i = 0; i < n; ++i)
        line[i] = slots[i] == empty ? -1 : (int64_t)slots[i];
    gc_run_trace(run, primitive, line, n);
}

/* Vertex -> triangle adjacency of a triangle list (CSR): the triangles of vertex v are
 * triangles[offsets[v] .. offsets[v+1]), one entry per corner (a degenerate triangle
 * appears twice in its repeated vertex's list). */
typedef struct gc_adjacency {
    uint32_t* offsets;   /* vertex_count + 1 */
    uint32_t* triangles; /* 3 * triangle count */
} gc_adjacency;

gc_status gc_adjacency_build(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             gc_adjacency* out, gc_error* err);
void gc_adjacency_free(gc_adjacency* a);

/* A triangle up to rotation (winding kept): its lexicographically smallest rotation in
 * out; returns which rotation it was (out[k] = t[(r + k) % 3]). */
int gc_triangle_canonical(const uint32_t* t, uint32_t out[3]);
/* A hash of three indices (of a canonical triangle, for tables of triangles). */
uint64_t gc_triangle_hash(const uint32_t* t);

/* Each vertex's remaining (not yet emitted) triangles, kept compact: those of v are
 * adj.triangles[adj.offsets[v] .. adj.offsets[v] + live[v]). An emitted triangle leaves
 * its vertices' lists in O(1) through a back-pointer per corner, whatever the valence. */
typedef struct gc_live_triangles {
    gc_adjacency adj;
    uint32_t* live; /* per vertex: remaining triangles (corners) */
    uint32_t* slot; /* per corner: its entry in its vertex's list, UINT32_MAX once removed */
} gc_live_triangles;

gc_status gc_live_triangles_init(gc_live_triangles* lt, const uint32_t* indices, size_t triangle_count,
                                 uint32_t vertex_count, gc_error* err);
/* Removes triangle t (its three corners) from its vertices' lists. */
void gc_live_triangles_remove(gc_live_triangles* lt, const uint32_t* indices, uint32_t t);
void gc_live_triangles_free(gc_live_triangles* lt);

/* The optimizers, one file each. Each writes the triangle ids in their new order to
 * `order` (triangle_count entries); gc_optimize validates, dispatches, checks that the
 * ids are a permutation and writes the triangles out. Tipsify and Forsyth also write each
 * triangle's indices to `out` (when not NULL) as they emit it: the indices are at hand
 * then, and reading them again in a second pass, in the new order, costs a cache miss per
 * triangle on a large mesh. */
gc_status gc_opt_tipsify(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, uint32_t* out, gc_error* err);
gc_status gc_opt_forsyth(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, uint32_t* out, gc_error* err);

/* Forsyth's algorithm with any score tables: a vertex at position p of the modelled LRU
 * cache (cache_size entries) scores position[p] (0 outside it), plus live[min(n,
 * live_count - 1)] for n remaining triangles (live[0] is not used: a vertex with no
 * triangles left scores -1). gc_opt_forsyth fills them with Forsyth's published curves;
 * auto also runs a table tuned on the vertex cache models (opt_auto.c). */
#define GC_FORSYTH_MAX_CACHE 256
#define GC_FORSYTH_MAX_LIVE 64
typedef struct gc_forsyth_scores {
    uint32_t cache_size, live_count;
    float position[GC_FORSYTH_MAX_CACHE];
    float live[GC_FORSYTH_MAX_LIVE];
} gc_forsyth_scores;
gc_status gc_opt_forsyth_scored(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, uint32_t* order, uint32_t* out, gc_error* err);

/* Warp refinement (opt_warp_refine.c), for meshopt:C,W,P with C >= W: splits `order` into
 * the model's warps (at most max_vertices vertices and max_triangles triangles each) and
 * swaps triangles between warps that share vertices while the sum of the warps' distinct
 * vertices goes down (or stays and their vertices get more concentrated), at most
 * `passes` passes. Used by auto. */
gc_status gc_opt_warp_refine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             uint32_t max_vertices, uint32_t max_triangles, unsigned passes, uint32_t* order,
                             gc_error* err);
gc_status gc_opt_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* order, gc_error* err);

/* True when path ends in "." ext, case-insensitively. */
bool gc_has_extension(const char* path, const char* ext);

/* Format readers, one file each. `path` names the file in messages. */
gc_status gc_load_text(gc_reader* r, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_raw(const char* path, int bits, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_obj(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_ply(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
gc_status gc_load_assimp(const char* path, const gc_load_options* o, gc_mesh* out, gc_error* err);
#ifdef GPUCACHE_HAVE_ASSIMP
struct aiScene;
/* aiImportFile, after the checks of io_gltf_check.c (GLB chunk lengths, glTF URIs and
 * declared sizes) and with a file system that opens nothing outside the input's folder. */
gc_status gc_assimp_import(const char* path, unsigned flags, const struct aiScene** out, gc_error* err);
#endif

/* The files the mesh `in_path` consists of: itself and, for glTF/GLB, the files its
 * buffer and image URIs name (io_output.c). None for "-". Free with gc_free_names. */
gc_status gc_mesh_input_files(const char* in_path, char*** files, size_t* count, gc_error* err);
void gc_free_names(char** names, size_t count);

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
