// SPDX-License-Identifier: MIT
/* nvidia[:size=32,idle=16,life=32] — seed 000's rules for an NVIDIA GPU, found by probing:
 *  - slots are written in order, from slot 0 to the last;
 *  - if a primitive's misses would write past the end, the cache is cleared and
 *    all of its unique vertices become misses, placed from slot 0;
 *  - a slot is invalid once `idle` primitives have passed since its last use, or
 *    `life` primitives since its insertion, whatever its use;
 *  - an invalid slot is neither matched nor rewritten until the next reset;
 *  - lifetimes count primitives, for points, lines and triangles alike.
 * "Passed" follows the seed's worked examples: a slot inserted by primitive p is
 * unusable for primitive p + life (the 33rd (5,5,5) misses) and a slot last used
 * by primitive p is unusable for primitive p + idle (1 and 2 by the 17th triangle).
 * See docs/models/nvidia.md.
 *
 * Implementation: each vertex remembers (epoch, slot) of its latest insertion in 32
 * bits; an epoch is the time between two resets. Within an epoch a slot is written
 * once, so a lookup is O(1): the remembered slot, if of this epoch and not expired.
 * Each slot keeps the first primitive for which it is invalid, min(last use + idle,
 * insertion + life), so that validity is one comparison. When the 22-bit epoch wraps
 * (every 4M resets) the tags are cleared, so an old tag can never pass for a new one. */
#include "models.h"

#include <stdlib.h>

#define NEVER UINT32_MAX /* primitive numbers stay below 2^31 (GC_MAX_INDICES) */
#define SLOT_BITS 10
#define EPOCH_LIMIT (1u << (32 - SLOT_BITS))

typedef struct nvidia_state {
    uint32_t* tag;       /* vertex -> epoch << SLOT_BITS | slot, 0 = never inserted */
    uint32_t* expires;   /* slot -> first primitive that cannot match it */
    uint32_t* life_end;  /* slot -> insertion + life */
    uint32_t* vertex;    /* slot -> vertex (for traces) */
    uint32_t vertex_count;
    uint32_t epoch;
    uint32_t next;       /* next slot to write */
    uint32_t size, idle, life;
    uint64_t invocations, resets;
    uint32_t* per_vertex;
} nvidia_state;

/* The slot holding id that primitive `prim` can match, or -1. */
static inline int32_t lookup(const nvidia_state* s, uint32_t id, uint32_t prim)
{
    uint32_t tag = s->tag[id];
    uint32_t slot = tag & ((1u << SLOT_BITS) - 1);
    return (tag >> SLOT_BITS) == s->epoch && prim < s->expires[slot] ? (int32_t)slot : -1;
}

/* prim + span, saturating: a span of 0 means "never". */
static inline uint32_t end_of(uint32_t prim, uint32_t span)
{
    return span == 0 || span >= NEVER - prim ? NEVER : prim + span;
}

static inline void use(nvidia_state* s, uint32_t slot, uint32_t prim)
{
    uint32_t idle_end = end_of(prim, s->idle);
    s->expires[slot] = idle_end < s->life_end[slot] ? idle_end : s->life_end[slot];
}

static inline void insert(nvidia_state* s, uint32_t id, uint32_t prim)
{
    uint32_t slot = s->next++;
    s->tag[id] = s->epoch << SLOT_BITS | slot;
    s->life_end[slot] = end_of(prim, s->life);
    s->vertex[slot] = id;
    use(s, slot, prim);
    s->invocations++;
    if (s->per_vertex)
        s->per_vertex[id]++;
}

static inline void reset(nvidia_state* s)
{
    if (GC_UNLIKELY(++s->epoch == EPOCH_LIMIT)) {
        for (uint32_t i = 0; i < s->vertex_count; ++i)
            s->tag[i] = 0;
        s->epoch = 1;
    }
    s->next = 0;
    s->resets++;
}

/* One primitive of `count` unique vertices. */
static void primitive(nvidia_state* s, const uint32_t* unique, unsigned count, uint32_t prim)
{
    int32_t hit[4];
    unsigned misses = 0;
    for (unsigned j = 0; j < count; ++j) {
        hit[j] = lookup(s, unique[j], prim);
        misses += hit[j] < 0;
    }
    if (s->next + misses > s->size) {
        reset(s);
        for (unsigned j = 0; j < count; ++j)
            hit[j] = -1;
    }
    for (unsigned j = 0; j < count; ++j) {
        if (hit[j] >= 0)
            use(s, (uint32_t)hit[j], prim);
        else
            insert(s, unique[j], prim);
    }
}

/* Triangles: the common case, without the generic de-duplication loop. */
static void triangle(nvidia_state* s, uint32_t a, uint32_t b, uint32_t c, uint32_t prim)
{
    int32_t ha = lookup(s, a, prim), hb = lookup(s, b, prim), hc = lookup(s, c, prim);
    bool db = b == a, dc = c == a || c == b; /* repeated corners of a degenerate triangle */
    unsigned misses = (ha < 0) + (!db && hb < 0) + (!dc && hc < 0);
    if (GC_UNLIKELY(s->next + misses > s->size)) {
        reset(s);
        ha = hb = hc = -1;
    }
    if (ha >= 0)
        use(s, (uint32_t)ha, prim);
    else
        insert(s, a, prim);
    if (!db) {
        if (hb >= 0)
            use(s, (uint32_t)hb, prim);
        else
            insert(s, b, prim);
    }
    if (!dc) {
        if (hc >= 0)
            use(s, (uint32_t)hc, prim);
        else
            insert(s, c, prim);
    }
}

/* `count` triangles in a row, numbered from `prim`, without a trace: triangle()'s rule with
 * the state in locals (through `s`, every store to a slot array could alias the counters,
 * which the compiler then reloads). */
static void triangles(nvidia_state* s, const uint32_t* v, size_t count, uint32_t prim)
{
    uint32_t* const tag = s->tag;
    uint32_t* const expires = s->expires;
    uint32_t* const life_end = s->life_end;
    uint32_t* const vertex = s->vertex;
    uint32_t* const per_vertex = s->per_vertex;
    const uint32_t size = s->size, idle = s->idle, life = s->life, vertex_count = s->vertex_count;
    uint32_t epoch = s->epoch, next = s->next;
    uint64_t invocations = s->invocations, resets = s->resets;
    for (size_t p = 0; p < count; ++p, ++prim) {
        const uint32_t id[3] = {v[3 * p], v[3 * p + 1], v[3 * p + 2]};
        int32_t hit[3];
        for (int c = 0; c < 3; ++c) {
            const uint32_t t = tag[id[c]], slot = t & ((1u << SLOT_BITS) - 1);
            hit[c] = (t >> SLOT_BITS) == epoch && prim < expires[slot] ? (int32_t)slot : -1;
        }
        const bool fresh[3] = {true, id[1] != id[0], id[2] != id[0] && id[2] != id[1]};
        const unsigned misses = (hit[0] < 0) + (fresh[1] && hit[1] < 0) + (fresh[2] && hit[2] < 0);
        if (GC_UNLIKELY(next + misses > size)) {
            if (GC_UNLIKELY(++epoch == EPOCH_LIMIT)) {
                for (uint32_t i = 0; i < vertex_count; ++i)
                    tag[i] = 0;
                epoch = 1;
            }
            next = 0;
            resets++;
            hit[0] = hit[1] = hit[2] = -1;
        }
        const uint32_t idle_end = end_of(prim, idle);
        for (int c = 0; c < 3; ++c) {
            if (!fresh[c])
                continue;
            uint32_t slot = (uint32_t)hit[c];
            if (hit[c] < 0) {
                slot = next++;
                tag[id[c]] = epoch << SLOT_BITS | slot;
                life_end[slot] = end_of(prim, life);
                vertex[slot] = id[c];
                invocations++;
                if (per_vertex)
                    per_vertex[id[c]]++;
            }
            expires[slot] = idle_end < life_end[slot] ? idle_end : life_end[slot];
        }
    }
    s->epoch = epoch, s->next = next;
    s->invocations = invocations, s->resets = resets;
}

gc_status gc_model_nvidia_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    nvidia_state s = {0};
    s.size = m->p[0];
    s.idle = m->p[1];
    s.life = m->p[2];
    s.per_vertex = run->per_vertex;
    s.vertex_count = run->vertex_count;
    s.tag = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t));
    s.expires = gc_alloc_array(s.size, sizeof(uint32_t), true);
    s.life_end = gc_alloc_array(s.size, sizeof(uint32_t), true);
    s.vertex = gc_alloc_array(s.size, sizeof(uint32_t), true);
    int64_t* line = run->trace ? gc_alloc_array(s.size, sizeof(int64_t), false) : NULL;
    gc_status status = GC_OK;
    if (!s.tag || !s.expires || !s.life_end || !s.vertex || (run->trace && !line)) {
        status = gc_fail(err, GC_ERR_NOMEM, "nvidia: out of memory for %u vertices", run->vertex_count);
        goto done;
    }
    s.epoch = 1;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        if (chunk.arity == 3 && !run->trace) {
            triangles(&s, chunk.vertices, chunk.count, (uint32_t)chunk.first_primitive);
            continue;
        }
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t prim = (uint32_t)(chunk.first_primitive + p);
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            if (chunk.arity == 3) {
                triangle(&s, v[0], v[1], v[2], prim);
            } else {
                uint32_t unique[4];
                primitive(&s, unique, gc_unique_vertices(v, chunk.arity, unique), prim);
            }
            if (GC_UNLIKELY(run->trace != NULL)) {
                /* What the next primitive can match, in slot order: what seed 000's probe reads back. */
                size_t k = 0;
                for (uint32_t slot = 0; slot < s.next; ++slot)
                    if (prim + 1 < s.expires[slot])
                        line[k++] = s.vertex[slot];
                gc_run_trace(run, prim, line, k);
            }
        }
    }
    out->invocations = s.invocations;
    out->resets = s.resets;
    out->has_batches = 0;
done:
    gc_run_vertex_state_free(run, s.tag);
    free(s.expires);
    free(s.life_end);
    free(s.vertex);
    free(line);
    return status;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Words: per vertex its tag (epoch, slot), then per
 * slot the first primitive that cannot match it and its insertion + life. */
typedef struct nvidia_sim {
    uint32_t size, idle, life, epoch, next;
    uint64_t resets;
} nvidia_sim;

static size_t nvidia_extra(const void* params)
{
    return 2 * (size_t)((const gc_model*)params)->p[0];
}

static void nvidia_sim_reset(gc_sim_context* c)
{
    nvidia_sim* s = c->state;
    const gc_model* m = c->params;
    s->size = m->p[0], s->idle = m->p[1], s->life = m->p[2];
    s->epoch = 1;
}

static uint32_t nvidia_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    nvidia_sim* s = c->state;
    uint32_t* expires = c->words + c->vertex_count;
    const size_t life_end = c->vertex_count + s->size;
    const uint32_t prim = (uint32_t)p->number;
    int32_t hit[4];
    unsigned corner[4], misses = 0;
    const unsigned count = gc_sim_unique_corners(p, corner);
    for (unsigned k = 0; k < count; ++k) {
        uint32_t tag = c->words[p->vertices[corner[k]]];
        uint32_t slot = tag & ((1u << SLOT_BITS) - 1);
        hit[k] = (tag >> SLOT_BITS) == s->epoch && prim < expires[slot] ? (int32_t)slot : -1;
        misses += hit[k] < 0;
    }
    if (s->next + misses > s->size) {
        if (++s->epoch == EPOCH_LIMIT) {
            for (uint32_t i = 0; i < c->vertex_count; ++i)
                gc_sim_write(c, i, 0);
            s->epoch = 1;
        }
        s->next = 0;
        s->resets++;
        for (unsigned k = 0; k < count; ++k)
            hit[k] = -1;
        misses = count;
    }
    const uint32_t idle_end = end_of(prim, s->idle);
    for (unsigned k = 0; k < count; ++k) {
        uint32_t slot = (uint32_t)hit[k];
        if (hit[k] < 0) {
            slot = s->next++;
            gc_sim_write(c, p->vertices[corner[k]], s->epoch << SLOT_BITS | slot);
            gc_sim_write(c, life_end + slot, end_of(prim, s->life));
            *shaded += GC_SIM_SHADE(corner[k]);
        }
        uint32_t le = c->words[life_end + slot];
        gc_sim_write(c, c->vertex_count + slot, idle_end < le ? idle_end : le);
    }
    return misses;
}

static void nvidia_stats(const gc_sim_context* c, gc_stats* out)
{
    out->resets = ((const nvidia_sim*)c->state)->resets;
}

const gc_sim_rule gc_rule_nvidia = {
    "nvidia", sizeof(nvidia_sim), 1, nvidia_extra, nvidia_sim_reset, NULL, nvidia_feed, NULL, nvidia_stats, NULL, NULL,
};
