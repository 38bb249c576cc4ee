// SPDX-License-Identifier: MIT
/*
 * gpucache: what a GPU's vertex caches do with an index buffer.
 *
 * The header of libgpucache, the core: models, analysis, optimizers, meshlets, overdraw
 * and vertex fetch, fitting, grids (with gpucache_memsys.h and gpucache_pictures.h, also
 * part of it). The core takes arrays and needs only the C library, libm and threads; the
 * files (mesh formats, glTF, measurement files, atomic output) are libgpucache_io's
 * (gpucache_io.h), the Vulkan probe libgpucache_probe's (gpucache_probe.h).
 * Every function returns GC_OK or an error code and, where
 * it takes a gc_error*, fills it with one line the caller can show. The library
 * never prints, never exits and keeps no hidden global state (its one process-wide
 * state is the families a caller registers, gc_family_register).
 */
#ifndef GPUCACHE_H
#define GPUCACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUCACHE_VERSION_MAJOR 0
#define GPUCACHE_VERSION_MINOR 1
#define GPUCACHE_VERSION_PATCH 0
#define GPUCACHE_VERSION_STRING "0.1.0"

/* GC_API marks the functions the shared library exports; everything else in it is built
 * with hidden visibility, so that only this header's functions are the library's ABI. */
#ifndef GC_API
#if defined(__GNUC__) || defined(__clang__)
#define GC_API __attribute__((visibility("default")))
#else
#define GC_API
#endif
#endif

/* ------------------------------------------------------------------ errors */

typedef enum gc_status {
    GC_OK = 0,
    GC_ERR_USAGE = 1,   /* a bad argument: unknown model, parameter out of range */
    GC_ERR_DATA = 2,    /* malformed input data: bad file, index out of range, wrong count */
    GC_ERR_IO = 3,      /* a file could not be opened, read or written */
    GC_ERR_NOMEM = 4,   /* an allocation failed */
    GC_ERR_LIMIT = 5,   /* an input exceeds one of the documented limits */
    GC_ERR_UNSUPPORTED = 6 /* a feature not built in (e.g. no assimp) */
} gc_status;

/* An error: its code and one human-readable line ("file:line: what"). */
typedef struct gc_error {
    gc_status code;
    char message[512];
} gc_error;

/* Limits on what the library accepts; inputs beyond them fail with GC_ERR_LIMIT. */
#define GC_MAX_INDICES ((size_t)1 << 31)       /* indices in one buffer */
#define GC_MAX_CACHE_SIZE 65536u               /* entries in any modelled cache */
#define GC_MAX_STATE_CHANGES ((size_t)1 << 31)

/* ---------------------------------------------------------------- topology */

typedef enum gc_topology {
    GC_POINT_LIST = 0,
    GC_LINE_LIST,
    GC_LINE_STRIP,
    GC_LINE_LOOP,
    GC_TRIANGLE_LIST,
    GC_TRIANGLE_STRIP,
    GC_TRIANGLE_FAN,
    GC_QUAD_LIST,
    GC_POLYGON,
    GC_TOPOLOGY_COUNT
} gc_topology;

/* The canonical name of a topology ("triangle-list"), or NULL for a value outside the
 * enum. A static string; O(1). */
GC_API const char* gc_topology_name(gc_topology topology);

/* Parses a topology name or alias ("triangle-list", "tris", "strip", ...; `name` a
 * NUL-terminated string, not kept) into *out; GC_ERR_USAGE naming the valid names
 * otherwise. O(1): a fixed table. */
GC_API gc_status gc_topology_parse(const char* name, gc_topology* out, gc_error* err);

/* Vertices per assembled primitive: 1, 2, 3 or 4 (polygons assemble as triangles; so
 * does a value outside the enum: 3). O(1). */
GC_API unsigned gc_topology_arity(gc_topology topology);

/* An index buffer as the GPU sees it: indices, how they form primitives,
 * and primitive restart. */
typedef struct gc_draw {
    const uint32_t* indices;
    size_t index_count;
    gc_topology topology;
    int restart_enabled;     /* non-zero: restart_value splits the stream */
    uint32_t restart_value;  /* 0xFFFF for 16-bit buffers, 0xFFFFFFFF for 32-bit */
} gc_draw;

/* One assembled primitive: its vertices (index values) in the order the
 * primitive presents them, and the position in the index stream of each. */
typedef struct gc_primitive {
    uint32_t vertices[4];
    size_t positions[4];
    unsigned count;
} gc_primitive;

/* Primitive assembly, one primitive at a time.
 *  - strips follow Vulkan's order: triangle i is (i, i+1+i%2, i+2-i%2);
 *  - fans follow Vulkan's order: (i+1, i+2, 0);
 *  - a polygon is assembled as the triangles (0, i+1, i+2) (OpenGL);
 *  - a line loop closes with (last, first);
 *  - a restart ends the current strip, fan, loop or polygon. */
typedef struct gc_assembler {
    gc_draw draw;
    size_t position;      /* next index to read */
    size_t segment_start; /* first index of the current strip/fan/loop/polygon */
    size_t in_segment;    /* indices of the current segment consumed */
    int loop_pending;     /* a line loop still owes its closing line */
    size_t loop_last;
} gc_assembler;

/* Starts assembling `draw` into *a (copied: the draw struct need not outlive this call,
 * but its `indices` must outlive the assembly). Call gc_draw_validate first: the
 * assembler trusts its input. O(1), no allocation; nothing to release. */
GC_API void gc_assembler_init(gc_assembler* a, const gc_draw* draw);

/* Writes the next primitive to *out; returns 1, or 0 at the end of the stream. Amortized
 * O(1) per primitive (restarts and incomplete segments are skipped as they come). */
GC_API int gc_assembler_next(gc_assembler* a, gc_primitive* out);

/* Checks that a draw is well formed and counts its primitives into *primitive_count (may
 * be NULL): a topology inside the enum and indices present (GC_ERR_USAGE), at most
 * GC_MAX_INDICES indices (GC_ERR_LIMIT), every list segment between restarts holding whole
 * primitives (GC_ERR_DATA, naming the index). `what` (NUL-terminated, not kept) names the
 * input in messages. One pass over the indices, no allocation. */
GC_API gc_status gc_draw_validate(const gc_draw* draw, const char* what, uint64_t* primitive_count, gc_error* err);

/* Writes the triangles a draw assembles into as a plain triangle list (strips, fans and
 * polygons expanded in their primitive order, a quad (a, b, c, d) as (a, b, c), (a, c, d))
 * and their index count to *written. `out`, owned by the caller, holds `capacity` entries;
 * 3 * primitives (from gc_draw_validate) are needed, twice that for quads: GC_ERR_LIMIT if
 * short. Points and lines have no triangles: GC_ERR_USAGE. Validate the draw first.
 * O(index_count), no allocation. */
GC_API gc_status gc_draw_triangles(const gc_draw* draw, uint32_t* out, size_t capacity, size_t* written, gc_error* err);

/* ------------------------------------------------------------------ models */

/* The built-in families, rows 0 .. GC_MODEL_FAMILY_COUNT - 1 of the family table
 * (gc_family_get); a family a caller registers takes the next number (gc_family_register). */
typedef enum gc_model_family {
    GC_MODEL_FIFO = 0,
    GC_MODEL_LRU,
    GC_MODEL_DIRECT_VALUE,
    GC_MODEL_DIRECT_POSITION,
    GC_MODEL_NVIDIA,
    GC_MODEL_MESHOPT,
    GC_MODEL_REUSE,
    GC_MODEL_BATCH,
    GC_MODEL_LLVMPIPE,
    GC_MODEL_NV_DX,
    GC_MODEL_NV_GL,
    GC_MODEL_BATCH_ALL,
    GC_MODEL_ATI,
    GC_MODEL_FAMILY_COUNT
} gc_model_family;

/* A parsed model specification: its family (a row of the family table, gc_family_get) and
 * its parameters, p[i] being the family's params[i] (for fifo:16, p[0] = 16 entries); the
 * rows say what each is, their ranges and fallbacks (also `gpucache models`, and
 * docs/models/; Kerbl et al.'s batch families: docs/models/kerbl.md). */
typedef struct gc_model {
    gc_model_family family;
    uint32_t p[4];
    char name[64]; /* canonical spec, e.g. "meshopt:32,32,32", or the preset name */
} gc_model;

/* Parses a model specification into *out (zeroed first): a family's name, then its
 * parameters after a ':' positionally ("meshopt:32,32,32") or by name
 * ("nvidia:size=32,idle=16,life=32"), optional where the family gives fallbacks ("nvidia");
 * every family's syntax and an example are in its row (gc_family_get),
 * or a preset name (see gc_preset_count).
 * `spec` is NUL-terminated, shorter than 200 bytes, and not kept; every parameter is
 * range-checked (GC_ERR_USAGE with one line naming the spec otherwise). The result owns
 * nothing: copy it freely. O(length of spec), no allocation. */
GC_API gc_status gc_model_parse(const char* spec, gc_model* out, gc_error* err);

/* Number of built-in presets (intel, nvidia-kepler, ...). O(1). */
GC_API size_t gc_preset_count(void);

/* Preset i (i < gc_preset_count()): its name, the model spec it stands for, and the source
 * that justifies it, as static strings (never freed); all three NULL for i out of range.
 * O(1). */
GC_API void gc_preset_get(size_t i, const char** name, const char** spec, const char** source);

/* The family's name as written in a spec ("fifo", "meshopt", ...; gc_family_get's name): a
 * static string, NULL for a value no family has (built-in or registered). O(1). */
GC_API const char* gc_model_family_name(gc_model_family family);

/* ---------------------------------------------------------- model families */

/* Every family is one row of one table: its name and syntax, its parameters, its rule,
 * and the traits the optimizer and the fit read instead of asking which family a model
 * is. The built-in families are rows 0 .. GC_MODEL_FAMILY_COUNT - 1 (row i is family i);
 * a caller's own rule becomes a row after them with gc_family_register, and is then a
 * model like any other: gc_model_parse takes its specs, gc_analyze, gc_sim_create and
 * gc_introspect run its rule, gc_optimize's auto takes it as a target, and the fit as a
 * candidate. */

/* One parameter of a family, in spec order: "fifo:16" or "nvidia:size=32" set p[i]. */
typedef struct gc_family_param {
    const char* name;     /* as written in a named spec ("size") */
    uint32_t min, max;    /* the range gc_model_parse checks */
    uint32_t fallback;    /* the value when not given (for a family whose parameters are
                             optional; 0 where they are required) */
    int omit_zero;        /* non-zero: left out of the canonical name when 0 */
} gc_family_param;

/* What the optimizer and the fit know of one model (all zero: nothing, which is always
 * safe: auto then scores its general candidates with the model's rule). A family fills
 * it for a model from the model's parameters (gc_family.traits). */
typedef struct gc_family_traits {
    uint32_t capacity;        /* vertices one batch, warp or cache must hold for a primitive
                                 to fit (gc_analyze refuses smaller ones); 0: no such limit */
    const char* capacity_what;/* what `capacity` is called in that message ("warp size") */
    uint32_t order_cache;     /* the cache size cache-aware orders aim at (auto's Tipsify;
                                 at most 256 is used); 0: none */
    int fifo_like;            /* a plain cache of order_cache entries (FIFO, LRU): Tipsify's
                                 fans at that size serve it best */
    int value_keyed;          /* the cost depends on the index values, not only on which
                                 vertices are equal: the numbering afterwards matters */
    int pieces;               /* the rule cuts the draw into pieces (warps, batches, segments)
                                 whose cost is their distinct vertices */
    uint32_t piece_triangles; /* triangles per piece (0: no limit) */
    uint32_t piece_vertices;  /* distinct vertices per piece (0: no limit) */
    uint32_t segment_indices; /* non-zero: the pieces are fixed segments of this many indices
                                 of the draw's stream, from its start (llvmpipe) */
    uint32_t segment_map;     /* ... with a direct-mapped table of this many entries each */
    int warp_sum;             /* the cost is exactly the sum over pieces of their distinct
                                 vertices (no eviction inside a piece): swaps between pieces
                                 may be scored that way */
    int kerbl_batches;        /* Kerbl et al.'s batches (batch_greedy applies): */
    uint32_t batch_indices;   /*   indices per batch (ATI: between hard resets) */
    uint32_t batch_held;      /*   vertices a batch holds (ATI: its LRU) */
    int batch_cut_inside;     /*   batches end inside a primitive (ATI) */
    int32_t batch_reuse_weight; /* the greedy's weight of a vertex still held (-4; ATI -16) */
    int batch_greedy_cheap;   /*   worth its time at the default effort */
    const char* resets_field; /* what a report calls gc_stats.resets ("resets": nvidia's cache
                                 resets; "flushes": a warp's flushes); NULL: not reported */
    uint32_t fill_slots;      /* non-zero: a report gives the batches' state_change_flushes,
                                 map_mode_batches and mean_fill, slots_filled / (batches x
                                 fill_slots) */
    const float* order_scores; /* optional: a score table of Forsyth's order tuned for this
                                 model, which auto's --effort 1 runs for it alone: 16 LRU
                                 position scores, then those of 1..8 remaining triangles (the
                                 last for 8 and more); NULL: auto's own table */
} gc_family_traits;

/* Called by a family's search (gc_family.search) with each candidate spec. */
typedef void (*gc_family_add_fn)(void* user, const char* spec);

/* One family. Strings are static, NUL-terminated. */
typedef struct gc_family {
    const char* name;        /* as written in a spec: lower-case letters, digits, '-' */
    const char* syntax;      /* "fifo:N", "nvidia[:size=,idle=,life=]" */
    const char* summary;     /* what it is, for listings; a '\n' may split it in two lines */
    const char* example;     /* a spec of it ("fifo:16") */
    unsigned param_count;    /* 0 to 4 */
    gc_family_param params[4];
    int params_required;     /* non-zero: every parameter must be given ("fifo:16"); the
                                canonical name is then positional, else named (or the bare
                                name when every parameter has its fallback) */
    /* optional: checks beyond the ranges after parsing (GC_ERR_USAGE naming `spec`) */
    gc_status (*validate)(const struct gc_model* model, const char* spec, gc_error* err);
    /* the rule; its context's params point at the gc_model (p[] as parsed) */
    const struct gc_sim_rule* rule;
    /* optional: the traits of a model of this family into *out (zeroed first) */
    void (*traits)(const struct gc_model* model, gc_family_traits* out);
    /* optional: the fit's standard candidates. The fit asks every family for stage 0, then
       every family for stage 1, ... up to GC_FAMILY_SEARCH_STAGES - 1 (families in table
       order within a stage): on equal scores the earlier candidate ranks first. Specs that
       gc_model_parse refuses are skipped. */
    void (*search)(unsigned stage, gc_family_add_fn add, void* user);
} gc_family;

#define GC_FAMILY_SEARCH_STAGES 32
/* How many families gc_family_register takes. */
#define GC_MAX_REGISTERED_FAMILIES 16

/* Families, built-in then registered. O(1). */
GC_API size_t gc_family_count(void);

/* Family i (i < gc_family_count(); family i is gc_model_family value i), NULL past the
 * end. The row is static (a registered one: the caller's, as registered). O(1). */
GC_API const gc_family* gc_family_get(size_t i);

/* The family named `name` (NUL-terminated), or NULL; with *index (may be NULL) set to its
 * number. O(families). */
GC_API const gc_family* gc_family_find(const char* name, size_t* index);

/* Registers a caller's family after the built-in ones; its number is written to *id (may
 * be NULL) and is the gc_model_family of its models. The row must outlive every use of the
 * library (static storage), and is checked: a name of 1 to 31 lower-case letters, digits
 * and '-' that names no family nor preset, a rule with a feed and at most 4 words per
 * vertex, at most 3 parameters each with min <= max (and min <= fallback <= max when they
 * are optional), syntax, summary and an example that parses (GC_ERR_USAGE otherwise); at
 * most GC_MAX_REGISTERED_FAMILIES (GC_ERR_LIMIT). The registry is the library's one
 * process-wide state: registering is thread-safe and a row once registered stays, but
 * register before other threads parse specs naming the family. O(families). */
GC_API gc_status gc_family_register(const gc_family* family, gc_model_family* id, gc_error* err);

/* The traits of `model` (its family's traits function; all zero for an unknown family or
 * one without it). O(1). */
GC_API void gc_model_traits(const struct gc_model* model, gc_family_traits* out);

/* -------------------------------------------------------------- analysis */

/* Called after each primitive when tracing: the cache contents as index values,
 * -1 for an empty slot where the model has fixed slots. */
typedef void (*gc_trace_fn)(void* user, uint64_t primitive, const int64_t* entries, size_t count);

/* Per-vertex invocation counts (seed 001's measure): one entry per distinct
 * index value in the draw (restarts excluded), ascending by value. */
typedef struct gc_per_vertex {
    uint32_t* values;
    uint32_t* counts;
    size_t count;
} gc_per_vertex;

/* Releases what gc_analyze put in *pv (its two arrays) and zeroes it; safe on a zeroed
 * one and on NULL. O(1). */
GC_API void gc_per_vertex_free(gc_per_vertex* pv);

/* Optional outputs and inputs of an analysis. Zero-initialise, then set what you need. */
typedef struct gc_analyze_options {
    /* If set: filled with per-vertex counts (free with gc_per_vertex_free). */
    gc_per_vertex* per_vertex;
    /* If set: called after every primitive with the cache contents. */
    gc_trace_fn trace;
    void* trace_user;
    /* State changes for the batch model: sorted positions in the index stream;
     * a change at p takes effect before index p. Ignored by other models. */
    const uint64_t* state_changes;
    size_t state_change_count;
    /* Optional: the draw's vertex count, as meshopt_analyzeVertexCache takes it (0:
     * unknown). Every index must be below it (checked: GC_ERR_DATA otherwise). It lets
     * the plain fifo and meshopt loops skip the pass that finds the largest index. */
    uint32_t vertex_count;
} gc_analyze_options;

/* What one model says of one draw. */
typedef struct gc_stats {
    uint64_t invocations;   /* vertex shader invocations */
    uint64_t primitives;    /* assembled primitives */
    uint64_t indices;       /* indices read, restarts included */
    uint64_t vertices;      /* distinct index values referenced by primitives */
    double acmr;            /* invocations / primitives */
    double atvr;            /* invocations / vertices */
    int has_batches;        /* the model has batches (warps, batches) */
    uint64_t batches;       /* warps or batches executed */
    uint64_t resets;        /* nvidia: cache resets; meshopt/reuse: flushes */
    uint64_t state_change_flushes; /* batch: flushes forced by a state change */
    uint64_t map_mode_batches;     /* batch: batches assembled in map mode */
    uint64_t slots_filled;  /* batch: sum of slots used over batches (fill) */
} gc_stats;

/* Analyzes `draw` under `model` into *out: the draw is validated (gc_draw_validate's
 * errors), then replayed through the model's rule. `options` may be NULL; with
 * options->per_vertex the caller owns the arrays written there (gc_per_vertex_free);
 * options->trace is called synchronously. Index values may be any 32-bit values: time is
 * O(index_count x the model's per-index cost, a small constant for every family) and
 * memory stays proportional to the index count (at most ~16 bytes per index), not to the
 * largest value. Thread-safe: no shared state; *err holds one line on failure. */
GC_API gc_status gc_analyze(const gc_model* model, const gc_draw* draw, const gc_analyze_options* options,
                     gc_stats* out, gc_error* err);

/* The most threads gc_analyze_models uses. */
#define GC_MAX_THREADS 64

/* Analyzes one draw under `model_count` models, out[i] for models[i], each exactly as
 * gc_analyze would: the draw is validated, scanned and (when sparse) renumbered once, and
 * the models run on up to `threads` threads (the caller's among them; 0 or 1: the
 * caller's alone; at most GC_MAX_THREADS), each taking the next model not yet run.
 * `options` applies to every model and may not ask for per-vertex counts or a trace
 * (per model: gc_analyze). On failure, the error of the first failing model in order.
 * Cost: one pass over the indices, then each model's own; memory: the draw's renumbering
 * when sparse, plus the per-vertex state of the models running at once. */
GC_API gc_status gc_analyze_models(const gc_model* models, size_t model_count, const gc_draw* draw,
                                   const gc_analyze_options* options, unsigned threads, gc_stats* out, gc_error* err);

/* Adds one draw's stats to a sum over draws: the counts added, has_batches the last
 * draw's, ACMR and ATVR recomputed from the sums. O(1). */
GC_API void gc_stats_add(gc_stats* sum, const gc_stats* draw);

/* ------------------------------------------------------ model state machines */

/* Every model's rule is stated once, as an incremental state machine (a gc_sim_rule, in
 * the family's own file under src/models/). gc_analyze may run a faster loop written for
 * one family; tests prove each such loop identical to the state machine. The optimizer,
 * and any caller who wants to try orders, drive the state machine: feed primitives one at
 * a time, learn which vertices each one shades, save the state and roll back to it.
 *
 * A state machine's state is two parts, so that a save costs what the next primitives
 * write, not the size of the cache:
 *  - a fixed block of `state_bytes` (counters, fill levels), copied on save;
 *  - 32-bit words, zero at reset: `words_per_vertex` for each vertex id, then
 *    `extra_words(params)` more (slot tables). The rule reads them directly and writes
 *    them only through gc_sim_set, which logs the old value while a save is open. */

/* One primitive as a state machine receives it. */
typedef struct gc_sim_primitive {
    uint32_t vertices[4];           /* vertex ids, below the machine's vertex count */
    uint64_t positions[4];          /* position in the index stream of each vertex */
    unsigned count;                 /* 1 to 4: the topology's arity */
    uint64_t number;                /* the primitive's number in the draw, from 0 */
    const uint64_t* state_changes;  /* state changes (index positions: a change before that
                                       index) at or before the primitive's last index and
                                       after the previous primitive's, ascending */
    size_t state_change_count;
} gc_sim_primitive;

/* The invocations of corner j of a primitive within a gc_sim_feed's *shaded, and the
 * amount a rule adds for one: a byte per corner. */
#define GC_SIM_SHADE(j) (1u << (8u * (j)))
#define GC_SIM_SHADED(shaded, j) (((shaded) >> (8u * (j))) & 0xFFu)

/* What a rule's functions see. */
typedef struct gc_sim_context {
    void* state;             /* the rule's fixed block */
    uint32_t* words;         /* per-vertex words, then the extra words; write with gc_sim_set */
    uint32_t vertex_count;
    const uint32_t* values;  /* vertex id -> index value, NULL when the id is the value */
    const void* params;      /* what the machine was created with */
    gc_topology topology;
    struct gc_sim* sim;
} gc_sim_context;

/* A model's rule. Functions marked optional may be NULL. */
typedef struct gc_sim_rule {
    const char* name;
    size_t state_bytes;          /* size of the fixed block */
    uint32_t words_per_vertex;   /* at most 4 */
    /* optional: words beyond the per-vertex ones (a slot table), for these params */
    size_t (*extra_words)(const void* params);
    /* optional: sets the fixed block after the words were zeroed (it is zeroed too) */
    void (*reset)(gc_sim_context* c);
    /* optional: a restart-free run of `index_count` indices begins at `first_position`;
       the primitives fed next belong to it (llvmpipe cuts runs into segments) */
    void (*begin_run)(gc_sim_context* c, uint64_t first_position, uint64_t index_count);
    /* the rule: the invocations the primitive costs; adds GC_SIM_SHADE(j) to *shaded (zero
       on entry) each time corner j's vertex is shaded (a vertex repeated in the primitive
       and shaded once: its first corner) */
    uint32_t (*feed)(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded);
    /* optional: the draw ends; `pending_state_changes` came after its last primitive */
    void (*finish)(gc_sim_context* c, size_t pending_state_changes);
    /* optional: fills the counters of *out other than invocations (batches, resets, ...) */
    void (*stats)(const gc_sim_context* c, gc_stats* out);
    /* optional: how far cached vertex `id` is through its time in the cache, in [0, 1)
       (0 when the rule cannot say); the optimizer prefers to reuse old entries */
    float (*age)(const gc_sim_context* c, uint32_t id);
    /* optional: what feed would return and set for p, leaving the state as it is (a search
       prices many primitives for each it feeds); tests prove it equal to feed */
    uint32_t (*peek)(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded);
} gc_sim_rule;

typedef struct gc_sim gc_sim;

/* Creates the state machine of a built-in model for vertex ids below `vertex_count`, reset
 * for a triangle list.
 * `values` (may be NULL: identity) maps ids to the index values that value-keyed rules
 * (direct-value, llvmpipe) hash; it must outlive the machine. Memory: the model's words
 * per vertex (1 to 2) times 4 bytes per vertex, plus its slot tables; time O(vertex_count)
 * to clear them. On success the caller owns *out (gc_sim_destroy); on failure *out is
 * NULL and *err says why (GC_ERR_NOMEM, GC_ERR_USAGE for a bad model). A machine is not
 * thread-safe; distinct machines are independent. */
GC_API gc_status gc_sim_create(const gc_model* model, uint32_t vertex_count, const uint32_t* values, gc_sim** out,
                        gc_error* err);

/* Creates a state machine for a rule of the caller's (examples/custom_model/ shows one;
 * docs/models/custom.md says how to write one). `rule` (with feed set and at most 4
 * words per vertex: GC_ERR_USAGE otherwise) and `params`, handed to the rule as is, must
 * outlive the machine; `values` as for gc_sim_create. Memory: words_per_vertex x 4 bytes
 * per vertex, the extra words and state_bytes. Ownership and errors as gc_sim_create. */
GC_API gc_status gc_sim_create_custom(const gc_sim_rule* rule, const void* params, uint32_t vertex_count,
                               const uint32_t* values, gc_sim** out, gc_error* err);

/* Frees a machine and everything it allocated (NULL is fine). O(1). */
GC_API void gc_sim_destroy(gc_sim* sim);

/* Back to the state of a fresh machine, for primitives of `topology`. O(vertex count). */
GC_API void gc_sim_reset(gc_sim* sim, gc_topology topology);

/* Announces a restart-free run of indices (see gc_sim_rule.begin_run). Callers feeding a
 * plain triangle list call it once, with the list's position and length. */
GC_API void gc_sim_begin_run(gc_sim* sim, uint64_t first_position, uint64_t index_count);

/* Feeds one primitive (vertex ids below the machine's vertex count, count its arity);
 * returns the invocations it costs and sets *shaded (may be NULL) to who was shaded:
 * GC_SIM_SHADED(*shaded, j) times corner j's vertex. O(1) for every built-in rule (a
 * bounded scan of its slots), plus a log entry per word written under a save point. */
GC_API uint32_t gc_sim_feed(gc_sim* sim, const gc_sim_primitive* primitive, unsigned* shaded);

/* What gc_sim_feed would return and set for the primitive now, the state left as it is:
 * the rule's peek, or a feed undone (nested in any open save point, which stays as it was). */
GC_API uint32_t gc_sim_peek(gc_sim* sim, const gc_sim_primitive* primitive, unsigned* shaded);

/* Ends the draw (see gc_sim_rule.finish): `pending_state_changes` state changes came
 * after the last primitive. O(1) for the built-in rules. */
GC_API void gc_sim_finish(gc_sim* sim, size_t pending_state_changes);

/* Invocations so far, and the rule's other counters, into *out (zeroed first). Only
 * invocations, batches, resets, has_batches, state_change_flushes, map_mode_batches and
 * slots_filled are set. O(1). */
GC_API void gc_sim_stats(const gc_sim* sim, gc_stats* out);

/* How far cached vertex `id` (below the vertex count) is through its time in the cache,
 * in [0, 1); 0 when the rule does not say or the vertex is not cached. O(1). */
GC_API float gc_sim_age(const gc_sim* sim, uint32_t id);

/* Whether the machine's rule says how old a cached vertex is (has gc_sim_rule.age): a search
 * can skip gc_sim_age where it would only return 0. */
GC_API int gc_sim_keeps_age(const gc_sim* sim);

/* Opens a save point: the state now, to which gc_sim_restore returns. A new save replaces
 * the previous one. Costs the fixed block's copy; each later word write costs a log entry
 * (12 bytes) until the next save or gc_sim_release. */
GC_API void gc_sim_save(gc_sim* sim);

/* Returns to the last save point, which stays open. O(words written since). GC_ERR_NOMEM
 * if the log could not grow (the state is then undefined until gc_sim_reset). */
GC_API gc_status gc_sim_restore(gc_sim* sim, gc_error* err);

/* Closes the save point: later writes are not logged (the log's memory is kept for the
 * next save). O(1). */
GC_API void gc_sim_release(gc_sim* sim);

/* Writes word `word` (below the per-vertex words plus the extra words) of the machine's
 * words, for rules: logs the old value while a save point is open (a failed log growth
 * is reported by the next gc_sim_restore). O(1) amortized. */
GC_API void gc_sim_set(gc_sim_context* c, size_t word, uint32_t value);

/* Runs a whole draw through a machine, from a reset, as gc_analyze does (the same stats,
 * per-vertex counts when asked; no trace: GC_ERR_UNSUPPORTED). Index values must be below
 * the machine's vertex count (GC_ERR_DATA otherwise). With a built-in model's machine it
 * gives exactly gc_analyze's numbers; with a custom rule it is the way to analyze one.
 * Time: one gc_sim_feed per primitive; memory: only the per-vertex counts when asked
 * (owned by the caller as with gc_analyze). The machine is left after the draw. */
GC_API gc_status gc_analyze_sim(gc_sim* sim, const gc_draw* draw, const gc_analyze_options* options, gc_stats* out,
                         gc_error* err);

/* Seed 000's introspection by simulation: which of `candidates` (index values, each drawn
 * or not) are still cached after `draw` under `model`, the way the method reads a device:
 * I is cached when drawing the buffer followed by `arity` copies of I costs no more
 * invocations than the buffer alone. Writes them to `cached` (room for candidate_count) in
 * the candidates' order. Through the model's state machine, the shared part of those draws
 * is fed once: O(indices + candidates) time, O(indices + candidates) memory, for every
 * model. */
GC_API gc_status gc_introspect(const gc_model* model, const gc_draw* draw, const uint32_t* candidates, size_t candidate_count,
                        uint32_t* cached, size_t* cached_count, gc_error* err);

/* -------------------------------------------------------------- generators */

typedef enum gc_grid_layout {
    GC_GRID_ROWMAJOR = 0, /* row by row, two triangles per quad */
    GC_GRID_STRIPED,      /* vertical strips just under the cache size */
    GC_GRID_OPTIMAL       /* strips plus a degenerate-triangle prefetch of each strip's first row */
} gc_grid_layout;

/* Number of indices the grid of width x height quads takes in a layout, with the cache
 * size the striped and optimal layouts are made for (for sizing gc_grid_generate's
 * output). O(width / cache_size), no allocation. */
GC_API size_t gc_grid_index_count(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache_size);

/* Writes the index buffer of a width x height quad grid ((width+1)*(height+1) vertices,
 * row-major vertex numbering) in `layout` into `out` (the caller's, holding
 * gc_grid_index_count() entries) and the count to *written. width and height at least 1
 * and the vertices within 32 bits (GC_ERR_USAGE, GC_ERR_LIMIT); cache_size in [3,
 * GC_MAX_CACHE_SIZE] unless row-major. O(written), no allocation. */
GC_API gc_status gc_grid_generate(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache_size,
                           uint32_t* out, size_t* written, gc_error* err);

/* Shuffles the triangles of a triangle list (index_count a multiple of 3; a trailing
 * partial triangle stays in place) in place, deterministically for a seed (Fisher-Yates
 * on splitmix64). O(index_count), no allocation. */
GC_API void gc_shuffle_triangles(uint32_t* indices, size_t index_count, uint64_t seed);

/* --------------------------------------------------------------- optimizers */

/* Progress of a long computation: `done` of `total` steps. May be called from a worker
 * thread, one call at a time. */
typedef void (*gc_progress_fn)(void* user, uint64_t done, uint64_t total);

/* Reordering a triangle list so that a vertex cache does less work. Every optimizer
 * takes a triangle list with indices below `vertex_count`, writes a reordering of its
 * triangles to `out` (index_count entries, not the input), and is checked before it
 * returns: the output must be a permutation of the input triangles, each at most
 * rotated with its winding kept (gc_check_permutation); GC_ERR_DATA otherwise. */

typedef enum gc_optimizer {
    GC_OPT_TIPSIFY = 0, /* Sander, Nehab, Barczak 2007 */
    GC_OPT_FORSYTH,     /* Forsyth, "Linear-Speed Vertex Cache Optimisation" */
    GC_OPT_AUTO,        /* gpucache's own: minimizes the emulated invocations of target models */
    GC_OPT_COUNT
} gc_optimizer;

typedef struct gc_optimize_options {
    uint32_t cache_size;       /* tipsify's k, forsyth's cache; 0: 16 for tipsify, 32 for forsyth */
    const gc_model* targets;   /* auto: the models whose invocations it minimizes, summed; */
    size_t target_count;       /*   none: intel, nvidia-kepler, nvidia-pascal and amd-gcn */
    uint64_t seed;             /* auto: deterministic for a given seed */
    unsigned effort;           /* auto: 0 = the default; 1 = the fast path (one order chosen by the
                                  target's family, nothing scored: about meshoptimizer's time);
                                  2 and more try more orders */
    gc_progress_fn progress;   /* auto: called with (done, total) work units as it goes, done rising
                                  to total at the end, in proportion to the time; may be NULL */
    void* progress_user;
    /* Overdraw (Sander, Nehab and Barczak 2007, docs/optimizers/tipsify.md): with positions,
     * the order is cut into clusters at cache flushes and the clusters are drawn in order of
     * occlusion potential, outward-facing first. NULL: no overdraw pass (as before). */
    const float* positions;    /* x, y, z of each of the vertex_count vertices */
    size_t position_stride;    /* bytes from one vertex's x to the next's (0: 12, packed) */
    float overdraw_threshold;  /* auto, with positions: each target's invocations may rise to at
                                  most this times auto's best while overdraw is lowered; 0: 1.05
                                  (meshoptimizer's); 1: no overdraw pass; below 1: GC_ERR_USAGE */
    float overdraw_lambda;     /* tipsify, with positions: the paper's lambda, a cluster ends where
                                  its ACMR (misses per triangle, from a cold cache) drops below it;
                                  0: no overdraw pass; below 0: GC_ERR_USAGE */
    unsigned threads;          /* auto: threads that score its candidates, runs and patches; 0: the
                                  default (1); the result is the same for every count */
} gc_optimize_options;

/* "tipsify", "forsyth", "auto" (NUL-terminated, not kept) to the enum in *out;
 * GC_ERR_USAGE naming the three for anything else. O(1). */
GC_API gc_status gc_optimizer_parse(const char* name, gc_optimizer* out, gc_error* err);
/* The enum's name ("tipsify", ...): a static string, NULL for a value outside it. O(1). */
GC_API const char* gc_optimizer_name(gc_optimizer algorithm);

/* Reorders the triangle list `indices` (index_count a multiple of 3, every index below
 * vertex_count, and vertex_count at most 2 * index_count + 65536: memory follows the
 * vertex count, so sparse index values must be renumbered first) with `algorithm` into
 * `out` (the caller's, index_count entries, not overlapping `indices`, which is only
 * read). `options` may be NULL (defaults). O(index_count + vertex_count) time for tipsify
 * and forsyth, whatever the vertex valences; auto scores candidate orders with the
 * targets' state machines: O(index_count x candidates x targets), more with `effort`
 * (several times meshoptimizer's time at the default effort, about its time at effort 1).
 * Working memory at most ~16 bytes per index plus the targets' machines, and for auto with
 * options->threads, ~8 bytes per index and 4 per vertex more for each thread past the
 * first, and with positions the overdraw pass's occlusion raster beside them (the output is
 * the same for any count). The result is checked (gc_check_permutation) before
 * it returns; *err holds one line on failure. Thread-safe; options->progress is called on
 * the calling thread. */
GC_API gc_status gc_optimize(gc_optimizer algorithm, const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* out, gc_error* err);

/* Where a list reordered by gc_optimize_placed will be drawn and how it will be read back:
 * what a pipeline that reorders the runs of a longer draw knows (gc_mesh_optimize sets it;
 * a list drawn alone and numbered as it is needs none of it). Zero-initialise. */
typedef struct gc_optimize_placement {
    uint64_t stream_position;  /* auto: where the list starts in the draw's index stream (a run of a
                                  mesh that holds several), for rules keyed by position (llvmpipe's
                                  segments); 0 for a list drawn alone */
    uint64_t stream_length;    /* auto: indices of the whole draw; 0: the list is the whole draw */
    int first_use_numbering;   /* auto: non-zero when the vertices will be numbered in order of first
                                  use afterwards (gc_reorder_vertices, or a format whose reader
                                  numbers them so, as OBJ's): value-keyed rules (direct-value,
                                  llvmpipe) are then scored with that numbering */
} gc_optimize_placement;

/* gc_optimize for a list placed as `placement` says (NULL: drawn alone, numbered as it is,
 * which is gc_optimize). A run outside its draw (stream_position + index_count past a
 * non-zero stream_length): GC_ERR_USAGE. Cost: gc_optimize's. */
GC_API gc_status gc_optimize_placed(gc_optimizer algorithm, const uint32_t* indices, size_t index_count,
                                    uint32_t vertex_count, const gc_optimize_options* options,
                                    const gc_optimize_placement* placement, uint32_t* out, gc_error* err);

/* Checks that `after` holds the triangles of `before`, in any order, each at most
 * rotated (winding kept): GC_OK, or GC_ERR_DATA naming the first triangle that breaks
 * it. O(n) time. */
GC_API gc_status gc_check_permutation(const uint32_t* before, const uint32_t* after, size_t index_count,
                               uint32_t vertex_count, gc_error* err);

/* Renumbers vertices in order of first use (for vertex fetch locality): rewrites
 * `indices` (every index below vertex_count: GC_ERR_DATA otherwise) in place and fills
 * remap[old] = new (the caller's array of vertex_count entries; UINT32_MAX for unused
 * vertices); returns the number of used vertices in *used. O(index_count + vertex_count),
 * no allocation. */
GC_API gc_status gc_reorder_vertices(uint32_t* indices, size_t index_count, uint32_t vertex_count, uint32_t* remap,
                              uint32_t* used, gc_error* err);

/* ----------------------------------------------------------------- meshlets
 *
 * A meshlet (a mesh shader's workgroup of geometry) lists at most V unique vertices and T
 * triangles. gpucache's meshlets are the batches of the `batch-all` family with
 * indices = 3T, vertices = V (docs/models/meshlets.md): scanning a triangle list and
 * closing the meshlet when the next triangle would pass V vertices or T triangles. The
 * arrays follow meshoptimizer's layout (meshopt_Meshlet): meshlet m's vertices are
 * vertices[vertex_offset .. + vertex_count), its triangle k's corners are
 * vertices[vertex_offset + triangles[triangle_offset + 3k + j]], j = 0..2 (triangle_offset
 * counts bytes of `triangles`, without meshoptimizer's padding to 4). */
#define GC_MESHLET_MAX_VERTICES 256u
#define GC_MESHLET_MAX_TRIANGLES 512u

typedef struct gc_meshlet {
    uint32_t vertex_offset;   /* first entry in gc_meshlets.vertices */
    uint32_t triangle_offset; /* first byte in gc_meshlets.triangles (3 per triangle) */
    uint32_t vertex_count;    /* 1 .. max_vertices */
    uint32_t triangle_count;  /* 1 .. max_triangles */
} gc_meshlet;

/* Culling bounds of one meshlet, as meshopt_computeMeshletBounds defines them (without its
 * 8-bit copies): a sphere holding the corners of the meshlet's non-degenerate triangles,
 * and the cone of their normals. Reject the meshlet for a camera at C when
 * dot(normalize(cone_apex - C), cone_axis) >= cone_cutoff (perspective) or
 * dot(view, cone_axis) >= cone_cutoff (orthographic). Every triangle normal n of the
 * meshlet has dot(n, cone_axis) >= sqrt(1 - cone_cutoff^2). A cone wider than useful
 * (min dot(n, axis) <= 0.1: normals past about 84 degrees from the axis) has cone_cutoff 1
 * (never rejects) and apex and axis 0; a meshlet without a non-degenerate triangle has
 * every field 0 (it draws nothing: always rejected). */
typedef struct gc_meshlet_bounds {
    float center[3];
    float radius;
    float cone_apex[3];
    float cone_axis[3];
    float cone_cutoff;
} gc_meshlet_bounds;

/* A set of meshlets, owned by the caller (gc_meshlets_free). Zero-initialise. */
typedef struct gc_meshlets {
    uint32_t max_vertices, max_triangles; /* the limits they were built under */
    gc_meshlet* meshlets;
    size_t meshlet_count;
    uint32_t* vertices;       /* meshlet_vertices: vertex ids, vertex_count entries */
    size_t vertex_count;
    uint8_t* triangles;       /* meshlet_triangles: 3 local indices per triangle */
    size_t triangle_count;    /* triangles (the array holds 3 x this many bytes) */
    gc_meshlet_bounds* bounds; /* meshlet_count entries, or NULL (gc_meshlets_compute_bounds) */
} gc_meshlets;

/* How gc_meshlets_build orders and cuts. Zero-initialise, then set the limits. */
typedef struct gc_meshlet_options {
    uint32_t max_vertices;    /* V, 3 .. GC_MESHLET_MAX_VERTICES */
    uint32_t max_triangles;   /* T, 1 .. GC_MESHLET_MAX_TRIANGLES */
    int keep_order;           /* non-zero: scan the input order as it is (meshopt_buildMeshletsScan's
                                 cut); 0: first reorder with the meshlet grower (each meshlet a
                                 compact patch closed only when no triangle fits; six styles, the
                                 cheapest scan kept), then scan */
    int local_order;          /* non-zero: reorder each meshlet's triangles and vertices for
                                 locality (gc_meshlets_optimize_local) */
    uint64_t seed;            /* auto's seed (effort 2 or more) */
    unsigned effort;          /* 0, 1: the grower alone; 2 or more: auto's order for batch-all:
                                 indices=3T,vertices=V at effort - 1 competes too (slower) */
    gc_progress_fn progress;  /* auto's progress; may be NULL */
    void* progress_user;
} gc_meshlet_options;

/* Builds the meshlets of the triangle list `indices` (index_count a multiple of 3, every
 * index below vertex_count, vertex_count at most 2 * index_count + 65536 as gc_optimize
 * asks) and APPENDS them to *out (zero-initialised for a new set; an *out that holds
 * meshlets must have the same limits: GC_ERR_USAGE), so that several draws of one vertex
 * buffer (a mesh's runs) can share one set. Limits out of range: GC_ERR_USAGE naming them.
 * Scanning the meshlets' triangles in order (gc_meshlets_expand) with the batch-all rule
 * gives exactly these meshlets, draw by draw. Time: O(index_count) (six passes of the grower
 * unless keep_order; gc_optimize's auto as well with effort 2 or more); memory: the output
 * and about 20 bytes per index. On failure *out is as it was. */
GC_API gc_status gc_meshlets_build(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                                   const gc_meshlet_options* options, gc_meshlets* out, gc_error* err);

/* Reorders, inside each meshlet, the triangles and then the vertices for locality, as
 * meshopt_optimizeMeshlet does (docs/models/meshlets.md): triangles greedily chained so
 * that each shares the most vertices with the ones just drawn, then vertices renumbered
 * in order of first use by those triangles. Windings are kept (a triangle may be
 * rotated); each meshlet keeps its vertex set and triangles, so the scan property holds.
 * O(triangles x max_triangles) worst case, no allocation beyond a few KiB. */
GC_API gc_status gc_meshlets_optimize_local(gc_meshlets* m, gc_error* err);

/* Writes the meshlets' triangles as a triangle list (vertex ids), meshlet after meshlet,
 * to out (the caller's, `capacity` entries: 3 x triangle_count needed, GC_ERR_LIMIT if
 * short) and the count to *written. O(triangles), no allocation. */
GC_API gc_status gc_meshlets_expand(const gc_meshlets* m, uint32_t* out, size_t capacity, size_t* written,
                                    gc_error* err);

/* Computes m->bounds (replacing any) from `positions` (x, y, z floats of each of
 * `vertex_count` vertices, `stride` bytes apart; 0: 12): every meshlet vertex must be
 * below vertex_count (GC_ERR_DATA naming the meshlet). O(triangles), memory 32 bytes per
 * meshlet plus a few KiB. */
GC_API gc_status gc_meshlets_compute_bounds(gc_meshlets* m, const float* positions, size_t vertex_count,
                                            size_t stride, gc_error* err);

/* Checks a set of meshlets: limits in range; each meshlet with 1..max_vertices vertices
 * and 1..max_triangles triangles, its ranges exactly following the previous meshlet's
 * (contiguous, in order) and inside the arrays; no vertex listed twice in a meshlet, every
 * listed vertex used by a triangle, every local index below the meshlet's vertex count;
 * with vertex_count non-zero every vertex id below it; bounds finite. GC_ERR_DATA naming
 * `what` and the meshlet otherwise. O(size of the arrays), no allocation. */
GC_API gc_status gc_meshlets_check(const gc_meshlets* m, uint64_t vertex_count, const char* what, gc_error* err);

/* Whether the meshlets (checked first with gc_meshlets_check) draw exactly the triangles of
 * the list `indices`, each as often as it does and with its winding (rotations are the
 * same triangle): GC_ERR_DATA naming `what` and the meshlet with a triangle too many, or
 * the mesh's triangle that no meshlet draws. O(n log n) time, 16 bytes per triangle. */
GC_API gc_status gc_meshlets_cover(const gc_meshlets* m, const uint32_t* indices, size_t index_count,
                                   const char* what, gc_error* err);
/* Releases the arrays of *m and zeroes it; safe on a zeroed set and on NULL. */
GC_API void gc_meshlets_free(gc_meshlets* m);

/* The vendors' published meshlet limits (docs/models/meshlets.md, "Presets"): `name` as
 * `meshlets --target` takes it, V and T, and the source. */
typedef struct gc_meshlet_preset {
    const char* name;
    uint32_t max_vertices, max_triangles;
    const char* source;
} gc_meshlet_preset;
/* How many presets there are. O(1). */
GC_API size_t gc_meshlet_preset_count(void);
/* The i-th preset (i below gc_meshlet_preset_count()), else NULL. */
GC_API const gc_meshlet_preset* gc_meshlet_preset_at(size_t i);

/* What an index buffer costs as meshlets cut by scanning it (the batch-all rule with
 * indices = 3T, vertices = V; docs/models/meshlets.md), as analyze reports it. */
typedef struct gc_meshlet_costs {
    uint32_t max_vertices, max_triangles;
    uint64_t meshlets;         /* meshlets the scan closes */
    uint64_t meshlet_vertices; /* the sum of their vertex counts: the vertices a mesh shader shades */
    uint64_t triangles;
    double vertices_per_triangle; /* meshlet_vertices / triangles (0 without triangles) */
    double vertex_fill;           /* meshlet_vertices / (meshlets x V): how full the vertex slots are */
    double triangle_fill;         /* triangles / (meshlets x T) */
} gc_meshlet_costs;

/* The costs of scanning the triangle list `indices` (index_count a multiple of 3, every
 * index below vertex_count, at most 2 x index_count + 65536) in its order with limits V, T
 * (as gc_meshlets_build's keep_order cuts it; limits out of range: GC_ERR_USAGE). O(indices),
 * 4 bytes per vertex. */
GC_API gc_status gc_meshlet_costs_of(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                                     uint32_t max_vertices, uint32_t max_triangles, gc_meshlet_costs* out,
                                     gc_error* err);

/* The meshlet data file (docs/formats/meshlets.md): "GCMSHLT\0", version 1, the limits and
 * counts, then the arrays in little-endian order, and the bounds when present.
 * gc_meshlet_data_encode writes *m (checked first) into a new buffer *data (free()) of
 * *size bytes. O(size). */
GC_API gc_status gc_meshlet_data_encode(const gc_meshlets* m, uint8_t** data, size_t* size, gc_error* err);
/* Reads a data file's bytes data[0 .. size) (not kept) into *out (zeroed first; the caller
 * frees it with gc_meshlets_free; on failure nothing is left to free), validating
 * everything (magic, version, flags, limits, sizes against the bytes present, then
 * gc_meshlets_check): GC_ERR_DATA with `what` and the place otherwise. Memory: the arrays,
 * allocated only after the sizes were checked against `size`. O(size). */
GC_API gc_status gc_meshlet_data_decode(const void* data, size_t size, const char* what, gc_meshlets* out,
                                        gc_error* err);

/* ---------------------------------------------- overdraw and vertex fetch */

/* Overdraw of a triangle order (docs/models/overdraw.md), meshoptimizer's definition: the
 * mesh scaled into a 256 x 256 grid, drawn along each axis from both sides with a depth
 * test; covered counts the samples drawn at least once, shaded every fragment that passed. */
typedef struct gc_overdraw_stats {
    uint64_t covered;
    uint64_t shaded;
    double ratio; /* shaded / covered; 0 when nothing is covered */
} gc_overdraw_stats;

/* Measures the overdraw of the triangle list `indices` (index_count a multiple of 3, each
 * below vertex_count) drawn in its order, over `positions` (x, y, z floats of each vertex,
 * position_stride bytes apart, 0: 12) into *out. Non-finite coordinates: GC_ERR_DATA.
 * Memory: 512 KiB of raster, no other allocation; time O(vertex_count + triangles x the
 * pixels each covers), six views. Thread-safe. */
GC_API gc_status gc_analyze_overdraw(const uint32_t* indices, size_t index_count, const float* positions,
                                     size_t vertex_count, size_t position_stride, gc_overdraw_stats* out,
                                     gc_error* err);

/* The per-pixel shaded counts of one of the overdraw model's views: along `axis` (0: x, 1:
 * y, 2: z), into `counts` (the caller's, 2 x 256 x 256): first the side of the triangles
 * facing +axis, then the other side, each row-major over the view's grid (row: the second
 * picture coordinate; columns: the first; for axis 0 the picture is (z, y), for 1 (x, z),
 * for 2 (y, x), each from the box's minimum corner). Summing (count > 0) and count over the
 * three views gives gc_analyze_overdraw's covered and shaded. Checks, memory and time as
 * gc_analyze_overdraw's, one view. */
GC_API gc_status gc_overdraw_view(const uint32_t* indices, size_t index_count, const float* positions,
                                  size_t vertex_count, size_t position_stride, int axis, uint32_t* counts,
                                  gc_error* err);

/* One level of a vertex fetch cache: line size, capacity (a multiple of line size x ways,
 * at most 2^20 lines) and ways (1: direct-mapped, up to 64; least recently used within a
 * set). */
typedef struct gc_fetch_level {
    uint32_t line_bytes;
    uint64_t capacity_bytes;
    uint32_t ways;
} gc_fetch_level;

/* A vertex fetch model (docs/models/fetch.md). */
typedef struct gc_fetch_spec {
    gc_fetch_level levels[2]; /* the first level, then the one it misses into */
    unsigned level_count;     /* 1 or 2 */
    int every_reference;      /* non-zero: every index reference fetches (meshoptimizer's
                                 analyzer); zero: the vertices a model shades fetch */
    uint32_t vertex_bytes;    /* the packed vertex used when no streams are given */
} gc_fetch_spec;

/* A vertex stream: vertex v's `size` bytes start at offset + v * stride, in one address
 * space shared by all streams (give each buffer its own range). */
typedef struct gc_fetch_stream {
    uint64_t offset;
    uint32_t stride;
    uint32_t size;
} gc_fetch_stream;

typedef struct gc_fetch_stats {
    uint64_t bytes;        /* bytes the first level read (its misses x its line size) */
    uint64_t memory_bytes; /* with two levels: bytes the second read from memory */
    uint64_t unique_bytes; /* the referenced vertices' bytes, each once */
    double overfetch;      /* bytes / unique_bytes */
} gc_fetch_stats;

/* Parses a fetch spec (NUL-terminated, not kept): "meshopt:BYTES" (meshopt_analyzeVertexFetch:
 * every reference, direct-mapped 128 KiB of 64-byte lines), "gcn:BYTES" (seed 003's GPU: a
 * 16 KiB 4-way vector L1 over a 512 KiB 16-way L2, 64-byte lines), or
 * "cache:LINE,SIZE,WAYS:BYTES" (SIZE may end in K or M); BYTES, 1 to 256, is the packed
 * vertex. GC_ERR_USAGE naming the spec for anything else. O(length). */
GC_API gc_status gc_fetch_parse(const char* spec, gc_fetch_spec* out, gc_error* err);

/* Models the vertex fetch of the triangle list `indices` (index_count a multiple of 3, each
 * below vertex_count) into *out. Each fetch reads every stream (streams NULL or count 0:
 * one packed stream of spec->vertex_bytes). Which vertices fetch: every reference when
 * spec->every_reference, else those `model` shades (its post-transform misses, from its
 * rule; required then). A stride below its stream's size: GC_ERR_DATA. Memory: the cache
 * tags (8 bytes a line), a byte per vertex and the model's state; time O(index_count x
 * streams x lines per vertex x ways). Thread-safe. */
GC_API gc_status gc_analyze_fetch(const gc_fetch_spec* spec, const gc_model* model, const uint32_t* indices,
                                  size_t index_count, uint32_t vertex_count, const gc_fetch_stream* streams,
                                  size_t stream_count, gc_fetch_stats* out, gc_error* err);

/* Renumbers vertices for the fetch model `spec` (NULL: "meshopt:32"): as gc_reorder_vertices
 * (same arguments, same checks, numbers 0 .. *used - 1 in remap), but the lines of first-use
 * vertices are spread over the first level's sets so that a line still to be read again is
 * not evicted by one opened later, where first use would (docs/models/fetch.md, "The
 * numbering"). Kept only when `spec` (with `model` when it fetches a model's misses; NULL
 * otherwise) reads fewer bytes than with first use, which it gives otherwise: never more
 * bytes than gc_reorder_vertices. Vertices that do not divide the line size, or a mesh whose
 * lines fit one per set, keep first use. Invocations of position-keyed models (FIFO, LRU,
 * the presets) do not depend on the numbering; value-keyed ones (direct-value, llvmpipe) do.
 * Time O(index_count x ways), and two gc_analyze_fetch for a spec that fetches a model's
 * misses; memory about 4 bytes an index (8 for a spec that fetches a model's misses) and 6
 * a vertex. */
GC_API gc_status gc_reorder_vertices_fetch(uint32_t* indices, size_t index_count, uint32_t vertex_count,
                                           const gc_fetch_spec* spec, const gc_model* model, uint32_t* remap,
                                           uint32_t* used, gc_error* err);

/* ------------------------------------------------------------------ fitting */

/* One measured draw to fit a model to (seeds 001 and 002: measure, then search the
 * simulations for the one that matches). Per-vertex rows are optional (count 0); when
 * given they list distinct index values ascending with their measured invocations. */
typedef struct gc_fit_case {
    gc_draw draw;
    uint64_t invocations;
    const uint32_t* values;
    const uint32_t* counts;
    size_t count;
} gc_fit_case;

/* A ranked candidate: ranked by cases predicted exactly (invocations and, where
 * measured, every per-vertex count), then by total error, then by search order. */
typedef struct gc_fit_candidate {
    gc_model model;
    size_t exact;          /* cases predicted exactly */
    uint64_t total_error;  /* sum over cases of |predicted - measured| invocations */
} gc_fit_candidate;

typedef struct gc_fit_options {
    unsigned threads;              /* worker threads; 0 or 1: the calling thread only */
    const gc_model* candidates;    /* NULL: the standard search space (gc_fit_search_space) */
    size_t candidate_count;
    gc_progress_fn progress;
    void* progress_user;
} gc_fit_options;

/* The standard search space: every family over its parameters (sizes 1 to 256, warp
 * sizes, compare windows, primitive limits, lifetimes, segments). Writes up to
 * `capacity` models to `out` (the caller's; may be NULL with capacity 0, to size it) and
 * returns how many there are (a few thousand). O(that count), no allocation. */
GC_API size_t gc_fit_search_space(gc_model* out, size_t capacity);

/* Predicts one case under one model: *predicted invocations, and *exact when the
 * invocations and every measured per-vertex count agree. The case's draw is validated
 * (gc_draw_validate's errors). Costs one gc_analyze of the draw (with per-vertex counts
 * when the case has them); nothing is kept. */
GC_API gc_status gc_fit_evaluate(const gc_model* model, const gc_fit_case* c, uint64_t* predicted, int* exact,
                          gc_error* err);

/* Searches the candidates and writes the best `keep` of them, ranked, to `best` (the
 * caller's, `keep` entries; *best_count of them are set). `cases` (validated like
 * gc_draw_validate) and `options` (may be NULL: the standard space on one thread) are
 * only read. Deterministic whatever the thread count: candidates that cannot reach the
 * top `keep` are abandoned early, which never changes the ranking. Time: up to one
 * gc_fit_evaluate per case and candidate, spread over options->threads; memory: each
 * worker's per-vertex counts of one case. */
GC_API gc_status gc_fit(const gc_fit_case* cases, size_t case_count, const gc_fit_options* options, size_t keep,
                 gc_fit_candidate* best, size_t* best_count, gc_error* err);

/* A set of measured draws to fit (what gc_measurements_load of gpucache_io.h reads from a
 * measurement file, or what a caller fills in itself with doc NULL). */
typedef struct gc_measurements_doc gc_measurements_doc; /* opaque: the reader's own data */
typedef struct gc_measurements {
    gc_measurements_doc* doc; /* the file's kept members and the case names; NULL if filled by hand */
    const char* device; /* the file's "device", or NULL */
    gc_fit_case* cases;
    const char** names;
    uint32_t** buffers; /* indices, values, counts per case, owned */
    size_t count;
} gc_measurements;

#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_H */
