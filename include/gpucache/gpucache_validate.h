// SPDX-License-Identifier: MIT
/* gpucache_validate.h: every model against what was measured on real GPUs.
 *
 * The published measurements (data/published/: seeds 000, 001 and 002, Kerbl et al. 2018)
 * are data: each value names its source, section and sentence, the GPU as named there, the
 * index buffer it was measured on as a generator gpucache rebuilds (a quad grid in a layout
 * over target cache sizes, or an explicit index sequence) and the figure measured. Given a
 * model, gc_validate rebuilds every buffer, predicts every figure and gives the error.
 * The file format is described in docs/models/validation.md. Part of libgpucache_io
 * (gpucache_io.h; it reads the published measurement files with jansson). */
#ifndef GPUCACHE_VALIDATE_H
#define GPUCACHE_VALIDATE_H

#include "gpucache/gpucache.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What was measured. */
typedef enum gc_figure_kind {
    GC_FIGURE_INVOCATIONS = 0, /* vertex shader invocations of an index sequence */
    GC_FIGURE_ATVR,            /* ATVR of a grid layout at one target cache size */
    GC_FIGURE_BEST_CACHE,      /* the target cache size with the lowest ATVR (the smallest on ties): a size */
    GC_FIGURE_BEST_ATVR,       /* that lowest ATVR */
    GC_FIGURE_BREAK_CACHE,     /* the smallest size above the best one whose ATVR is 1.5 or more */
    GC_FIGURE_COUNT
} gc_figure_kind;

/* "invocations", "atvr", "best_cache", "best_atvr", "break_cache"; "" outside the enum. */
GC_API const char* gc_figure_kind_name(gc_figure_kind kind);

/* The published value is the figure itself, or a bound on it ("ATVR > 2"). */
typedef enum gc_figure_bound { GC_BOUND_EQUAL = 0, GC_BOUND_ABOVE, GC_BOUND_BELOW } gc_figure_bound;

/* Grid layouts a published grid was measured in (gpucache grid and sweep build the same). */
typedef enum gc_published_layout { GC_PUBLISHED_OPTIMAL = 0, GC_PUBLISHED_STRIPED, GC_PUBLISHED_TIPSIFY } gc_published_layout;

/* One published value. Strings are owned by the set. */
typedef struct gc_published {
    const char* file;     /* the file it was read from */
    const char* source;   /* the source's id, e.g. "seed-002" */
    const char* id;       /* the value's id in its source, e.g. "amd-striped-best" */
    const char* gpu;      /* the GPU as the source names it */
    const char* vendor;   /* "amd", "nvidia" or "intel" */
    const char* section;  /* where in the source */
    const char* sentence; /* the sentence stating it */
    const char* note;     /* how a count was derived from the sentence, or "" */
    char buffer[160];     /* the buffer as text: "grid:100x100 striped, cache 3..64" or "0..29 + (0 0 0)" */
    gc_figure_kind kind;
    gc_figure_bound bound;
    double value;         /* the published figure */
    int secondary;        /* stated by a summary of the source, not found in the source's own text */
    /* the buffer: a grid ... */
    int is_grid;
    uint32_t width, height;
    gc_published_layout layout;
    uint32_t cache_lo, cache_hi; /* target cache sizes (one for an "atvr" figure) */
    /* ... or an index sequence */
    uint32_t* indices;
    size_t index_count;
    gc_topology topology;
} gc_published;

typedef struct gc_published_doc gc_published_doc; /* opaque: the reader's own data */
typedef struct gc_published_set {
    gc_published* items;
    size_t count;
    gc_published_doc* owner; /* the strings (private) */
} gc_published_set;

/* Reads one published-measurement file (JSON, at most 16 MiB) or every *.json file of a
 * folder, in name order, into *out (gc_published_free it, on failure too). Every field is
 * checked: a grid of at most 4000 x 4000 quads, cache sizes in [3, 4096], a sequence of at
 * most 1<<22 indices; on failure err names the file and the value (GC_ERR_IO, GC_ERR_DATA,
 * GC_ERR_LIMIT, GC_ERR_NOMEM). Time and memory linear in the files and their sequences. */
GC_API gc_status gc_published_load(const char* path, gc_published_set* out, gc_error* err);

/* Frees what gc_published_load allocated and zeroes *set; safe on a zeroed set. */
GC_API void gc_published_free(gc_published_set* set);

/* The vendor a model stands for, from its name: "intel" (intel, intel-*), "nvidia"
 * (nvidia, nvidia-*, nv-*), "amd" (amd-*, ati*, radeonsi-*), NULL for any other. O(1). */
GC_API const char* gc_published_vendor_of(const char* model_name);

/* A model's prediction of one published value. */
typedef struct gc_prediction {
    int valid;        /* 0: the model cannot run the buffer (predicted and error are 0) */
    double predicted; /* the figure under the model (0 for a break that does not happen) */
    double error;     /* predicted - published for sizes and invocations; (predicted - published) /
                         published for ATVRs; against a bound, 0 when it holds */
    int match;        /* sizes and invocations equal, ATVRs within the tolerance, bounds hold */
} gc_prediction;

/* Predicts every value of `set` under `model` into out[0 .. set->count-1]: rebuilds each
 * buffer (grids in their layout at each target cache size, tipsify through gc_optimize),
 * analyzes it and derives the figure. `tolerance` is the relative ATVR error a match
 * allows (e.g. 0.02). Grid curves shared by several values are built once. Cost: one
 * build and one gc_analyze per grid layout and cache size, one gc_analyze per sequence;
 * memory a few bytes per index of the largest buffer. GC_ERR_NOMEM stops it; a model that
 * cannot run a buffer only marks that prediction invalid. */
GC_API gc_status gc_validate(const gc_published_set* set, const gc_model* model, double tolerance,
                             gc_prediction* out, gc_error* err);

#ifdef __cplusplus
}
#endif

#endif
