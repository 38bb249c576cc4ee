/*
 * gpucache: what a GPU's vertex caches do with an index buffer.
 *
 * One public header. Every function returns GC_OK or an error code and, where
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

/* ---------------------------------------------------------- number parsing */

/* Every number gpucache reads from a file or an argument goes through these, so that
 * none can wrap around silently (a 20-digit position read as 3, a size with a suffix
 * multiplied past 2^64): digits are accumulated with an overflow check, a suffix is
 * applied with one, and the result is checked against [lo, hi]. They parse exactly
 * text[0 .. length): no leading or trailing blanks, no sign unless stated. */
typedef enum gc_parse_result {
    GC_PARSE_OK = 0,
    GC_PARSE_SYNTAX,      /* not a number of the kind asked for (empty, stray characters) */
    GC_PARSE_NOT_INTEGER, /* a number, but not a whole one where a whole one is required ("2.5") */
    GC_PARSE_RANGE        /* a number outside [lo, hi], overflow included */
} gc_parse_result;

#define GC_PARSE_HEX 1u    /* also "0x..." (hexadecimal); otherwise decimal only, a leading 0 included */
#define GC_PARSE_SUFFIX 2u /* an optional K, M or G (x1024, x1024^2, x1024^3), either case */

/* Parses text[0 .. length) as an unsigned integer in [lo, hi] into *out (written only on
 * GC_PARSE_OK); `flags`: GC_PARSE_HEX, GC_PARSE_SUFFIX. `text` need not be NUL-terminated
 * and is not kept. O(length), no allocation; thread-safe. */
GC_API gc_parse_result gc_parse_u64(const char* text, size_t length, unsigned flags, uint64_t lo, uint64_t hi,
                             uint64_t* out);
/* A signed integer in [lo, hi] (lo <= hi): an optional '-' then decimal digits as
 * gc_parse_u64; *out written only on GC_PARSE_OK. O(length), no allocation. */
GC_API gc_parse_result gc_parse_i64(const char* text, size_t length, int64_t lo, int64_t hi, int64_t* out);
/* A finite decimal number in [lo, hi]: [-]digits[.digits][e[+-]digits] (no "inf", "nan",
 * hexadecimal or blanks); *out written only on GC_PARSE_OK. O(length), no allocation
 * (strtod on a bounded copy: the C locale's '.' is assumed). */
GC_API gc_parse_result gc_parse_double(const char* text, size_t length, double lo, double hi, double* out);
/* What went wrong, to follow the number in a message: "is not a number", "is not a whole
 * number", "is out of range" ("is a number" for GC_PARSE_OK). A static string, never NULL; O(1). */
GC_API const char* gc_parse_result_text(gc_parse_result r);

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
    uint32_t p[3];
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
} gc_family_traits;

/* Called by a family's search (gc_family.search) with each candidate spec. */
typedef void (*gc_family_add_fn)(void* user, const char* spec);

/* One family. Strings are static, NUL-terminated. */
typedef struct gc_family {
    const char* name;        /* as written in a spec: lower-case letters, digits, '-' */
    const char* syntax;      /* "fifo:N", "nvidia[:size=,idle=,life=]" */
    const char* summary;     /* what it is, for listings; a '\n' may split it in two lines */
    const char* example;     /* a spec of it ("fifo:16") */
    unsigned param_count;    /* 0 to 3 */
    gc_family_param params[3];
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

/* Whether `path` names standard input for gc_mesh_load: "" for "-" (format from the
 * content), the format ("txt", "obj", "ply", "u16", "u32") for "FORMAT:-" ("idx:-" is
 * "txt"), NULL for a file name. A static string; no allocation. */
GC_API const char* gc_stdin_format(const char* path);

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

/* Checks, before any work, that gc_mesh_write_remap can give a vertex map for `in_path`:
 * vertices renumbered and an index-buffer input; GC_ERR_USAGE with one line otherwise. */
GC_API gc_status gc_mesh_remap_check(const char* in_path, int reorder_vertices, gc_error* err);

/* Checks gc_mesh_write's arguments before any work: an output that is a file (not "-" nor
 * "FORMAT:-": GC_ERR_USAGE), the output keeps the input's format,
 * and every file the output consists of (a .gltf's .bin too) passes gc_output_check
 * against every file the input consists of (a glTF's external buffers and images too).
 * gc_mesh_write runs it again itself. */
GC_API gc_status gc_mesh_write_check(const char* in_path, const char* out_path, gc_error* err);

/* ------------------------------------------------------------ output files */

/* Checks, before any work, that `path` can be written as an output: its folder exists
 * and can be written in, the path is not a folder nor anything but a regular file, and it
 * is not one of the `input_count` files `inputs` (compared by device and inode, so a
 * hard link or a symlink to an input is refused too; inputs that do not exist are
 * skipped). GC_ERR_USAGE when it names an input, GC_ERR_IO otherwise. */
GC_API gc_status gc_output_check(const char* path, const char* const* inputs, size_t input_count, gc_error* err);
/* gc_output_check against every file the inputs consist of: each input expanded to itself
 * and, for a .gltf or .glb (the only names gpucache reads glTF under), every file its
 * URIs name (buffers and images, as written and percent-decoded). NULL inputs are skipped.
 * Memory: the names, and one glTF's JSON at a time. */
GC_API gc_status gc_output_check_all(const char* path, const char* const* inputs, size_t input_count,
                                     gc_error* err);

/* An output file written whole or not at all. gc_atomic_open creates a temporary beside
 * `path` with mkstemp (never following a name planted there); write to `file`;
 * gc_atomic_commit checks every write, flushes, syncs, gives the file its final mode
 * (the replaced file's, else 0666 minus the umask) and renames it over `path`;
 * gc_atomic_abort removes it. Both release the struct. The library installs no signal
 * handlers: a program that wants no temporary left behind when it is interrupted blocks
 * its termination signals between open and commit (the gpucache tool does). */
typedef struct gc_atomic_file {
    void* file; /* FILE*, open for writing */
    char* path; /* the final name */
    char* temp; /* the temporary's name */
} gc_atomic_file;
/* Creates the temporary for `path` (NUL-terminated; copied) into *af, which then owns a
 * FILE* and two strings until gc_atomic_commit or gc_atomic_abort; on failure *af holds
 * nothing and errno is kept. O(1) plus the system calls. */
GC_API gc_status gc_atomic_open(gc_atomic_file* af, const char* path, gc_error* err);
/* Completes the file: GC_ERR_IO naming `path` when any write, the flush, the sync or the
 * rename failed (the temporary is then removed). Releases *af either way; an fsync's cost. */
GC_API gc_status gc_atomic_commit(gc_atomic_file* af, gc_error* err);
/* Drops the temporary and releases *af; safe on a zeroed or released one. */
GC_API void gc_atomic_abort(gc_atomic_file* af);

/* Parses whitespace-separated indices ("#" comments) from text[0 .. length) (not kept, no
 * NUL needed) into *out as gc_mesh_load does for a text file (ownership likewise: free
 * with gc_mesh_free); `what` names the source in messages. O(length) time, ~4 bytes of
 * memory per index, at most GC_MAX_INDICES (GC_ERR_LIMIT). */
GC_API gc_status gc_mesh_parse_text(const char* text, size_t length, const char* what, gc_mesh* out, gc_error* err);

/* Releases what gc_mesh_load or gc_mesh_parse_text allocated and zeroes *mesh; safe on a
 * zeroed mesh and on NULL. O(1). */
GC_API void gc_mesh_free(gc_mesh* mesh);

/* Whether gc_mesh_write writes `in_path`'s format through assimp's exporter, which
 * re-encodes the whole file (vertices merged, index types widened, what assimp does not
 * model dropped): a caller should warn its user. .txt/.idx/.u16/.u32/.obj/.ply/.gltf/.glb
 * are written by gpucache itself and keep what they do not reorder. */
GC_API int gc_mesh_write_reencodes(const char* in_path);

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
/* Writes a self-contained document (a .glb whose buffers are its BIN chunk or data: URIs,
 * a .gltf whose buffers are data: URIs, no image files) to the open stream `file` (a
 * FILE*; `name` for messages): the bytes gc_gltf_write would give its document. A document
 * naming any file (buffer or image): GC_ERR_USAGE, nothing written. */
GC_API gc_status gc_gltf_write_stream(gc_gltf* doc, void* file, const char* name, gc_error* err);
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
    /* The next three describe how the output will be read back; gc_mesh_optimize sets them
     * (callers of the pipeline leave them 0; issue 28 moves them out of this struct). */
    uint64_t stream_position;  /* auto: where the list starts in the draw's index stream (a run of a
                                  mesh that holds several), for rules keyed by position (llvmpipe's
                                  segments); 0 for a list drawn alone */
    uint64_t stream_length;    /* auto: indices of the whole draw; 0: the list is the whole draw */
    int first_use_numbering;   /* auto: non-zero when the vertices will be numbered in order of first
                                  use afterwards (gc_reorder_vertices, --reorder-vertices, or a format
                                  whose reader numbers them so, as OBJ's): value-keyed rules
                                  (direct-value, llvmpipe) are then scored with that numbering */
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
 * first (the output is the same for any count). The result is checked (gc_check_permutation) before
 * it returns; *err holds one line on failure. Thread-safe; options->progress is called on
 * the calling thread. */
GC_API gc_status gc_optimize(gc_optimizer algorithm, const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* out, gc_error* err);

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

/* analyze's meshlet rows: the costs of `draw` (its triangles as the rasterizer assembles
 * them; a point or line topology: an empty string) under every preset, written to a new string
 * *text (free()): with `json`, the member ', "meshlets": [{"preset", "max_vertices",
 * "max_triangles", "meshlets", "meshlet_vertices", "triangles", "vertices_per_triangle",
 * "vertex_fill", "triangle_fill"}, ...]'; else one line per preset after a heading line. */
GC_API gc_status gc_draw_meshlet_report(const gc_draw* draw, int json, char** text, gc_error* err);

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
/* gc_meshlet_data_decode of the file `path` (at most 1 GiB: GC_ERR_LIMIT; GC_ERR_IO when it
 * cannot be read). */
GC_API gc_status gc_meshlet_data_load(const char* path, gc_meshlets* out, gc_error* err);
/* Writes *m to `path` whole or not at all (gc_atomic_file). */
GC_API gc_status gc_meshlet_data_save(const char* path, const gc_meshlets* m, gc_error* err);

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

/* Adds one draw's stats to a sum over draws: the counts added, has_batches the last
 * draw's, ACMR and ATVR recomputed from the sums. O(1). */
GC_API void gc_stats_add(gc_stats* sum, const gc_stats* draw);

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
    void* owner;              /* the library's (names, stats); do not touch */
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
    int reorder_vertices;     /* the output's vertices are renumbered in order of first use */
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
} gc_mesh_optimize_options;

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
 * gc_mesh_numbers_by_first_use(path)). A glTF file (path, draw NULL) is reordered in its
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
 * and of the one it wrote (r->indices), the latter renumbered in order of first use when
 * `reorder_vertices`, as the output file will be read back. What cannot be counted is left
 * unset: no positions, no overdraw; sparse values (r->sparse), no fetch. A spec that
 * follows a model: GC_ERR_USAGE. Time: two gc_analyze_overdraw and two gc_analyze_fetch;
 * memory: the positions and 8 bytes per index. */
GC_API gc_status gc_mesh_optimized_costs_of(const char* path, const gc_load_options* options,
                                            const gc_mesh_optimized* r, int reorder_vertices,
                                            const gc_fetch_spec* fetch, gc_mesh_optimized_costs* out,
                                            gc_error* err);
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

/* ----------------------------------------------------------- memory system */

/* Seed 003's console GPU memory system: memory types, per-dispatch L1/L2 bypass bits, the
 * scalar K-cache, L2 invalidates and writebacks priced in cycles, dirty-state tracking,
 * and the hazards a flush strategy leaves. A scenario (docs/memsys.md) declares buffers
 * and runs dispatches and cache events; the simulator replays it. */

typedef enum gc_memtype { GC_MEM_RO = 0, GC_MEM_PV, GC_MEM_GC, GC_MEM_SC, GC_MEM_UC, GC_MEM_TYPE_COUNT } gc_memtype;

/* The flush strategies gc_memsys_run can replay a scenario under (seed 003). */
typedef enum gc_memsys_strategy {
    GC_MEMSYS_AS_WRITTEN = 0, /* the scenario's own bits and events (explicit SC invalidate/writeback) */
    GC_MEMSYS_L1_BYPASS,      /* every dispatch with the L1 bypass bit: GC and SC skip L1 */
    GC_MEMSYS_L2_BYPASS,      /* every dispatch with the L2 bypass bit: SC skips L2 over Onion+ */
    GC_MEMSYS_SC_AS_UC,       /* every SC buffer remapped to UC: no cache, Onion+ */
    GC_MEMSYS_STRATEGY_COUNT
} gc_memsys_strategy;

/* The strategy's name as the tool writes it ("as written (explicit SC invalidate/
 * writeback)", ...): a static string, "?" for a value outside the enum. O(1). */
GC_API const char* gc_memsys_strategy_name(gc_memsys_strategy s);
/* The memory type's name ("RO", "PV", "GC", "SC", "UC"): a static string, "?" outside
 * the enum. O(1). */
GC_API const char* gc_memtype_name(gc_memtype t);

/* Counters of one cache: [memory type][0 read, 1 write]. */
typedef struct gc_memsys_cache_stats {
    uint64_t accesses[GC_MEM_TYPE_COUNT][2];
    uint64_t hits[GC_MEM_TYPE_COUNT][2];
    uint64_t misses[GC_MEM_TYPE_COUNT][2];
} gc_memsys_cache_stats;

/* What one dispatch (or the whole scenario) cost. */
typedef struct gc_memsys_stats {
    gc_memsys_cache_stats l1, l2, kcache;
    uint64_t garlic_bytes, onion_bytes, onion_plus_bytes;
    uint64_t l1_invalidates, l1_invalidate_lines;
    uint64_t l2_invalidates, l2_invalidates_skipped, l2_invalidate_lines;
    uint64_t l2_writebacks, l2_writebacks_skipped, l2_writeback_lines, l2_writeback_dirty_bytes;
    uint64_t kcache_invalidates, kcache_invalidate_lines;
    uint64_t crosstalk_events, crosstalk_lines; /* another dispatch's SC lines touched by an event */
    double bus_cycles;   /* bytes over each bus at its rate */
    double event_cycles; /* invalidates and writebacks */
    double cycles;       /* the two together */
    /* event_cycles split (they add up to it): the L1, L2 and K-cache invalidates, and the
     * L2 writebacks with the bus time of the bytes they drain */
    double invalidate_cycles, writeback_cycles;
} gc_memsys_stats;

typedef enum gc_memsys_hazard_kind {
    GC_HAZARD_CPU_READS_DIRTY = 0, /* a CPU read of SC data still dirty in L2 */
    GC_HAZARD_GPU_READS_STALE,     /* a GPU read of CPU-written SC data with no invalidate */
    GC_HAZARD_GC_NO_L1_INVALIDATE, /* a GC consumer reading stale L1 lines (no L1 invalidate) */
    GC_HAZARD_CP_CANNOT_SEE,       /* cp_wait on a semaphore the command processor cannot see */
    GC_HAZARD_KIND_COUNT
} gc_memsys_hazard_kind;

typedef struct gc_memsys_hazard {
    gc_memsys_hazard_kind kind;
    uint64_t line;        /* scenario line of the operation that found it */
    char message[200];
} gc_memsys_hazard;

typedef struct gc_memsys_report {
    size_t dispatch_count;
    char (*dispatch_names)[64];
    gc_memsys_stats* dispatches; /* per dispatch, in scenario order (events inside count there) */
    gc_memsys_stats between;     /* events outside dispatches */
    gc_memsys_stats total;
    gc_memsys_hazard* hazards;
    size_t hazard_count;
} gc_memsys_report;

typedef struct gc_memsys gc_memsys;

/* Parses a scenario (docs/memsys.md) from text[0 .. length) (not kept, no NUL needed)
 * into *out, which the caller frees with gc_memsys_free (NULL on failure); `what` names
 * it in messages ("file:line: ..."). GC_ERR_DATA with the line for malformed text,
 * GC_ERR_LIMIT past 1048576 operations, 65536 buffers or 4194304 cache lines. O(length)
 * time, memory in proportion to the operations and buffers (not to their sizes). */
GC_API gc_status gc_memsys_parse(const char* text, size_t length, const char* what, gc_memsys** out, gc_error* err);
/* Reads a scenario file (`path`, or "-" for standard input; at most 64 MiB: GC_ERR_LIMIT)
 * and parses it as gc_memsys_parse does. GC_ERR_IO when it cannot be read. */
GC_API gc_status gc_memsys_load(const char* path, gc_memsys** out, gc_error* err);
/* Frees a parsed scenario (NULL is fine). */
GC_API void gc_memsys_free(gc_memsys* scenario);
/* The work of one replay, in simulated line accesses: each line an access touches
 * (counted ceil(ways / 32) times on a machine whose L1, L2 and K-cache have more than 32
 * ways together, since each access looks through them), plus each cache line that setting
 * up the caches, an invalidate, a writeback or a CPU or command-processor check goes over
 * (at least one per operation). A replay takes about this many steps, whatever the size
 * of the scenario's text: three lines can ask for 2^30 random reads. Computed from the
 * parsed scenario, before any replay; saturates at UINT64_MAX. */
GC_API uint64_t gc_memsys_work(const gc_memsys* scenario);
/* The default bound on gc_memsys_work (2^27: about 5 to 30 seconds of replay). */
#define GC_MEMSYS_DEFAULT_MAX_WORK ((uint64_t)1 << 27)
/* Replays the scenario (only read: replays of one scenario may run on several threads)
 * under a strategy into *out, refusing (GC_ERR_LIMIT, before any work) a scenario whose
 * gc_memsys_work is above GC_MEMSYS_DEFAULT_MAX_WORK. Time about gc_memsys_work steps;
 * memory the caches' line tables. The caller owns the report: gc_memsys_report_free
 * (on failure nothing is left to free). */
GC_API gc_status gc_memsys_run(const gc_memsys* scenario, gc_memsys_strategy strategy, gc_memsys_report* out,
                        gc_error* err);
/* As gc_memsys_run with another bound on the work (UINT64_MAX: none); `progress`, when
 * not NULL, is called now and then with the work done and the total. */
GC_API gc_status gc_memsys_run_limited(const gc_memsys* scenario, gc_memsys_strategy strategy, uint64_t max_work,
                                gc_progress_fn progress, void* progress_user, gc_memsys_report* out, gc_error* err);
/* Frees the arrays of a report and zeroes it; safe on a zeroed one (not on NULL). */
GC_API void gc_memsys_report_free(gc_memsys_report* report);
/* Line accesses the scenario's reads, writes and signals make (gc_memsys_work also counts
 * what the cache events go over); saturates at UINT64_MAX. O(operations). */
GC_API uint64_t gc_memsys_accesses(const gc_memsys* scenario);
/* The machine parameter `key` (NUL-terminated) of a scenario into *value (its default
 * unless the scenario set it; the default itself when `scenario` is NULL); returns
 * non-zero when found, 0 for an unknown key (*value untouched). O(number of parameters). */
GC_API int gc_memsys_machine_value(const gc_memsys* scenario, const char* key, double* value);

#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_H */
