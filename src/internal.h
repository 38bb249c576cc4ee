// SPDX-License-Identifier: MIT
/* Internal interfaces that every part of the library shares: errors, allocation, growable
 * arrays, buffered reading, primitive chunks and triangle keys. Each folder has its own
 * internal header beside it (models/models.h, io/io.h, optimize/optimize.h,
 * memsys/memsys.h). Not installed. */
#ifndef GPUCACHE_INTERNAL_H
#define GPUCACHE_INTERNAL_H

#include "gpucache/gpucache.h"
#include "gpucache_private.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

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

/* Checked 64-bit arithmetic: false (and *out untouched) when the exact result does not fit. */
static inline bool gc_add_u64(uint64_t a, uint64_t b, uint64_t* out)
{
    if (a > UINT64_MAX - b)
        return false;
    *out = a + b;
    return true;
}
static inline bool gc_mul_u64(uint64_t a, uint64_t b, uint64_t* out)
{
    if (b && a > UINT64_MAX / b)
        return false;
    *out = a * b;
    return true;
}

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

void gc_chunker_init(gc_chunker* c, const gc_draw* draw, bool want_positions);
/* Fills *out with the next chunk; returns false at the end. */
bool gc_chunker_next(gc_chunker* c, gc_chunk* out);

/* A triangle up to rotation (winding kept): its lexicographically smallest rotation in
 * out; returns which rotation it was (out[k] = t[(r + k) % 3]). */
int gc_triangle_canonical(const uint32_t* t, uint32_t out[3]);
/* A hash of three indices (of a canonical triangle, for tables of triangles). */
uint64_t gc_triangle_hash(const uint32_t* t);

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

/* fopen(path, "rb"), or stdin for "-" (every input may come from standard input);
 * gc_input_close closes what gc_input_open opened and leaves stdin open. */
FILE* gc_input_open(const char* path);
void gc_input_close(FILE* f);

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


/* The one density rule: index values below `domain` (the largest + 1) among `count`
 * indices are too sparse for tables indexed by value when domain > 2 count + 65536; such
 * values are renumbered by rank first (the analysis, the optimizer, the pipeline) or
 * refused where a table per value is the output (a vertex map). Memory then follows the
 * index count, never the largest value. */
#define GC_SPARSE_SLACK 65536u
static inline bool gc_too_sparse(uint64_t domain, uint64_t count)
{
    return domain > 2 * count + GC_SPARSE_SLACK;
}

/* gc_analyze's invocations of one model over a draw, for callers that need nothing else
 * (auto's scoring of its candidate orders, thousands of times a call on a small mesh):
 * `vertex_count` (above every index, as gc_analyze_options.vertex_count) spares the pass
 * over the indices where the model's loop checks them, and the distinct vertices are not
 * counted. The same invocations as gc_analyze's. */
gc_status gc_analyze_invocations(const gc_model* model, const gc_draw* draw, uint32_t vertex_count,
                                 uint64_t* invocations, gc_error* err);

/* True when path ends in "." ext, case-insensitively (common.c: the format readers, the
 * glTF checks and the output checks all pick by it). */
bool gc_has_extension(const char* path, const char* ext);

#endif
