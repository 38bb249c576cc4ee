// SPDX-License-Identifier: MIT
/* Internal interface of the model families (src/models/): what the driver (analyze.c)
 * hands a model run, the helpers a model uses, and one entry point per family. Not
 * installed. */
#ifndef GPUCACHE_MODELS_H
#define GPUCACHE_MODELS_H

#include "../internal.h"

#include <stdlib.h>
#include <string.h>

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
    /* Set only for a fast path that promised to check the indices itself (the caller gave
     * a vertex count, so the driver skipped its pass over the indices): the indices are
     * NOT known to be below vertex_count. The model sizes its per-vertex state with
     * gc_run_state_size (a power of two, so that one OR tests a whole triangle) and calls
     * gc_run_check_unchecked after its loop. */
    bool unchecked;
    void* scratch;             /* see gc_run_vertex_state; NULL: none */
    size_t scratch_bytes;
} gc_run;

/* How many per-vertex entries a model allocates: vertex_count, or for an unchecked draw
 * the power of two at or above it, so that any index the loop lets through (it tests
 * `index & ~(size - 1)`) lands inside the array. */
static inline size_t gc_run_state_size(const gc_run* run)
{
    if (!run->unchecked)
        return run->vertex_count;
    size_t size = 1;
    while (size < run->vertex_count)
        size <<= 1;
    return size;
}

/* After an unchecked loop: an index at or above vertex_count either left a non-zero entry
 * past vertex_count, or (at or above the power of two) made the loop stop, `stopped`.
 * Then fails naming the first such index; GC_OK otherwise. */
gc_status gc_run_check_unchecked(const gc_run* run, const uint32_t* state, size_t state_size, bool stopped,
                                 gc_error* err);

/* Whether a draw reads its per-vertex state at scattered places (a shuffled order), so
 * that a loop should prefetch each triangle's state a few triangles ahead; on an ordered
 * draw the hardware prefetcher does better alone. Samples a few hundred triangles. */
bool gc_run_scattered(const gc_run* run);

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
/* ati's loop for a triangle list drawn alone (gc_family_def.list_run). */
gc_status gc_model_ati_list_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
/* nv-dx's, nv-gl's and batch-all's loop for a triangle list drawn alone (kerbl_batch.c). */
gc_status gc_model_kerbl_list_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);

/* Whether a family's run checks the indices itself for this draw (run->unchecked; no
 * per-vertex counts nor trace): the driver may then skip its pass over the indices. */
bool gc_model_fifo_checks_indices(const gc_model* m, const gc_draw* draw);
bool gc_model_meshopt_checks_indices(const gc_model* m, const gc_draw* draw);

/* A run's zeroed per-vertex state of `count` entries of `size` bytes: the driver's
 * scratch (gc_run.scratch, kept across the models of one gc_analyze_models worker, so that
 * each model clears memory the process already has instead of faulting in fresh pages)
 * when it is large enough, else a new allocation. NULL when out of memory. */
static inline void* gc_run_vertex_state(const gc_run* run, size_t count, size_t size)
{
    if (run->scratch && count <= run->scratch_bytes / (size ? size : 1)) {
        memset(run->scratch, 0, count * size);
        return run->scratch;
    }
    return gc_alloc_array(count, size, true);
}

/* Frees what gc_run_vertex_state gave, unless it is the driver's scratch. */
static inline void gc_run_vertex_state_free(const gc_run* run, void* state)
{
    if (state != run->scratch)
        free(state);
}

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

/* Reports a fixed-slot cache to the trace: `empty` marks an unused slot, shown as -1. */
static inline void gc_run_trace_slots(const gc_run* run, uint64_t primitive, const uint32_t* slots, uint32_t n,
                                      uint32_t empty, int64_t* line)
{
    for (uint32_t i = 0; i < n; ++i)
        line[i] = slots[i] == empty ? -1 : (int64_t)slots[i];
    gc_run_trace(run, primitive, line, n);
}

/* ------------------------------------------------------------ state machines */

/* A state machine (gc_sim_*, sim.c). Rules reach it through gc_sim_context.sim. */
struct gc_sim {
    const gc_sim_rule* rule;
    gc_sim_context ctx;
    gc_model model;          /* a built-in model's parameters (ctx.params points here) */
    size_t word_count;
    uint64_t invocations;
    /* the save point */
    unsigned char* saved_state;
    unsigned char* peek_state; /* gc_sim_peek's copy of the fixed block */
    uint64_t saved_invocations;
    bool recording;
    size_t* log_word;
    uint32_t* log_old;
    size_t log_count, log_capacity;
    bool log_failed;
};

/* Creates a machine for a rule: a built-in model's (model, params NULL) or a caller's. */
gc_status gc_sim_create_rule(const gc_sim_rule* rule, const gc_model* model, const void* params,
                             uint32_t vertex_count, const uint32_t* values, struct gc_sim** out, gc_error* err);

/* The primitives of a draw as a machine takes them (gc_analyze_sim, gc_introspect): run by
 * run, each restart-free run announced to the machine (gc_sim_begin_run) before its first
 * primitive, with stream positions and numbers; no state changes (the caller adds them). */
typedef struct gc_sim_stream {
    struct gc_sim* sim;
    gc_draw draw;
    size_t run_start, next_run; /* the current run's first index; where the next one is looked for */
    uint64_t number;
    bool in_run;
    gc_assembler assembler;
} gc_sim_stream;

void gc_sim_stream_init(gc_sim_stream* st, struct gc_sim* sim, const gc_draw* draw);
/* The next primitive into *p; false at the end of the draw. */
bool gc_sim_stream_next(gc_sim_stream* st, gc_sim_primitive* p);

/* Grows the log; false when out of memory (then the write is not logged). */
bool gc_sim_log_grow(struct gc_sim* s);

/* gc_sim_set for the built-in rules, inlined. */
static inline void gc_sim_write(gc_sim_context* c, size_t word, uint32_t value)
{
    struct gc_sim* s = c->sim;
    if (s->recording) {
        if (GC_UNLIKELY(s->log_count == s->log_capacity) && !gc_sim_log_grow(s)) {
            s->log_failed = true;
        } else {
            s->log_word[s->log_count] = word;
            s->log_old[s->log_count++] = c->words[word];
        }
    }
    c->words[word] = value;
}

/* Moves words from+1 .. to-1 down by one (to from .. to-2), through the log when recording:
 * a list kept in order (an LRU) dropping or promoting one entry. */
static inline void gc_sim_shift_down(gc_sim_context* c, size_t from, size_t to)
{
    if (from + 1 >= to)
        return;
    if (c->sim->recording) {
        for (size_t i = from + 1; i < to; ++i)
            gc_sim_write(c, i - 1, c->words[i]);
    } else {
        memmove(c->words + from, c->words + from + 1, (to - from - 1) * sizeof *c->words);
    }
}

/* Word writes of a primitive that is only priced (gc_sim_peek): a rule states its step
 * once, writing through gc_sim_put and reading through gc_sim_read; with `commit` the
 * writes go to the machine, otherwise to the overlay, which later reads of the same step
 * see. Room for 4 corners of 2 words each. */
typedef struct gc_sim_overlay {
    size_t word[8];
    uint32_t value[8];
    unsigned count;
    bool commit;
} gc_sim_overlay;

static inline uint32_t gc_sim_read(const gc_sim_context* c, const gc_sim_overlay* o, size_t word)
{
    for (unsigned i = o->count; i-- > 0;)
        if (o->word[i] == word)
            return o->value[i];
    return c->words[word];
}

static inline void gc_sim_put(gc_sim_context* c, gc_sim_overlay* o, size_t word, uint32_t value)
{
    if (o->commit) {
        gc_sim_write(c, word, value);
    } else {
        o->word[o->count] = word;
        o->value[o->count++] = value;
    }
}

/* The corners of p whose vertex no earlier corner has, in order, to corner[]; returns how
 * many (the rules that look each distinct vertex up once). */
static inline unsigned gc_sim_unique_corners(const gc_sim_primitive* p, unsigned* corner)
{
    unsigned count = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        bool repeated = false;
        for (unsigned k = 0; k < count; ++k)
            repeated |= p->vertices[corner[k]] == p->vertices[j];
        if (!repeated)
            corner[count++] = j;
    }
    return count;
}

/* The index value of a vertex id, for value-keyed rules. */
static inline uint32_t gc_sim_value(const gc_sim_context* c, uint32_t id)
{
    return c->values ? c->values[id] : id;
}

/* A built-in family's row: the public part, and what only the library's driver uses. */
typedef struct gc_family_def {
    gc_family pub;
    /* optional: the fast loop gc_analyze runs (NULL: the rule's state machine) */
    gc_status (*run)(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
    /* optional: whether the loop checks the indices itself for this draw (run->unchecked;
     * no per-vertex counts nor trace): the driver may then skip its pass over the indices */
    bool (*checks_indices)(const gc_model* m, const gc_draw* draw);
    unsigned state_bytes; /* bytes of per-vertex state the fast loop takes (the driver's scratch) */
    /* optional, for a family without `run`: its loop for a triangle list drawn alone (no
     * restarts, state changes, per-vertex counts nor trace); other draws go to its machine */
    gc_status (*list_run)(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err);
} gc_family_def;

/* The families' own Forsyth tables for auto's --effort 1 (family_scores.c): 16 LRU position
 * scores, then those of 1..8 remaining triangles; a family's traits give its models the one
 * tuned for them (gc_family_traits.order_scores). */
#define GC_FAMILY_SCORES 24
extern const float gc_family_scores_lru16[GC_FAMILY_SCORES];

/* The row of a built-in family, NULL for any other value (families.c). */
const gc_family_def* gc_family_builtin(gc_model_family family);
/* The family named by name[0 .. len), or NULL; *index (may be NULL) set to its number. */
const gc_family* gc_family_find_n(const char* name, size_t len, size_t* index);
/* A model's family, NULL for a value no family has. */
static inline const gc_family* gc_family_of(const gc_model* m)
{
    return m && (int)m->family >= 0 ? gc_family_get((size_t)m->family) : NULL;
}

/* The rules of the built-in families, each beside its family's fast loop. */
extern const gc_sim_rule gc_rule_fifo, gc_rule_lru, gc_rule_direct_value, gc_rule_direct_position,
    gc_rule_nvidia, gc_rule_meshopt, gc_rule_reuse, gc_rule_batch, gc_rule_llvmpipe, gc_rule_nv_dx, gc_rule_nv_gl,
    gc_rule_batch_all, gc_rule_ati;

#endif
