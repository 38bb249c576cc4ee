// SPDX-License-Identifier: MIT
/* ati[:lru=,vertices=,reset=] — the AMD rule Kerbl et al. (HPG 2018) measured and
 * published in GPUPeople/vertex_batch_optimization (commit 46332cd) as ATI_BASIC
 * "(stat, 384, x, LRU 15)" (sceneprocessor/source/layers/BatchSimulationParameters.h
 * (BSP):23-24, 56-64; the engine is BatchSimulator.h (BS)):
 *  - an LRU of `lru` vertices (LRUCacheSim<15>, BS:189-239, BSP:63): a lookup scans it
 *    (BS:197-205); an insert moves a present vertex to the most recent end or appends a new
 *    one, dropping the least recent when full (BS:206-233);
 *  - hard resets every `reset` indices (HardReset = 384, BSP:61): before a primitive whose
 *    position is a non-zero multiple of `reset` (BS:313-317; `last_hard_reset` only keeps
 *    position 0 from resetting, since soft cuts happen inside a primitive) the LRU is
 *    emptied (LRUCacheSim::reset(true), BS:234-238) and a batch ends;
 *  - batches of at most `vertices` invocations (BatchVertices = 64, BSP:60) and `reset`
 *    indices (BatchIndices = 384 = HardReset in BSP:59-61; one parameter here), cut inside a
 *    primitive (TriangleBounds = false, BSP:62; BS:356-370): the corner that does not fit
 *    starts the next batch, counted as its first invocation (adds = 1, BS:367);
 *  - a soft cut does not empty the LRU (reset(false) is a no-op, BS:236), so the
 *    invocations are the LRU's misses with the hard resets; the batches only count.
 * Positions count the primitives' corners as if the draw were a list (the simulator's
 * `progress`, BS:380). */
#include "lru_rule.h"
#include "models.h"

/* No per-vertex words: the LRU is the extra words 0..lru-1. */
typedef struct ati_sim {
    uint64_t progress;  /* position of the next corner */
    uint32_t count;     /* vertices in the LRU: extra words 0..count-1, least recent first */
    uint32_t cbatch;    /* indices in the open batch (BS:246) */
    uint32_t cuniques;  /* the open batch's counted invocations (BS:247) */
    uint64_t cuts;      /* batches ended inside the draw (soft cuts and hard resets) */
    uint64_t resets;    /* hard resets */
    bool fed;
} ati_sim;

static size_t ati_extra(const void* params)
{
    return ((const gc_model*)params)->p[0];
}

/* The LRU's two forms (lru_rule.h: the same rule): the machine's scanned list in its extra
 * words (ati_feed), or the list form on plain arrays (gc_model_ati_run's loop). */
typedef struct ati_lru {
    gc_sim_context* c; /* the scanned form: the machine (its words, its count in the state) */
    gc_lru_list* list; /* else the list form */
    const gc_lru_words* words;
} ati_lru;

/* Vertex v looked up in the LRU of `size` and inserted: 1 on a miss. */
static inline __attribute__((always_inline)) uint32_t ati_access(const ati_lru* l, ati_sim* s, uint32_t v,
                                                                 uint32_t size)
{
    if (l->c) {
        const uint32_t loc = gc_lru_scan_find(l->c->words, s->count, v); /* BS:197-205 */
        const uint32_t miss = loc == s->count;
        gc_lru_scan_insert(l->c, &s->count, v, loc, size); /* BS:206-233 */
        return miss;
    }
    return gc_lru_list_access(l->list, l->words, v);
}

/* The LRU emptied (a hard reset). */
static inline void ati_empty(const ati_lru* l, ati_sim* s)
{
    s->count = 0;
    if (!l->c) {
        for (uint32_t node = l->list->head; node != GC_LRU_NONE; node = l->words->next[node])
            l->words->node_of[l->words->vertex[node]] = 0;
        *l->list = gc_lru_list_start(l->list->capacity);
    }
}

/* The rule's step for a primitive of `count` corners, either form: its misses. */
static inline __attribute__((always_inline)) uint32_t ati_step(const ati_lru* l, ati_sim* s, const gc_model* m,
                                                               const uint32_t* vertices, unsigned count,
                                                               unsigned* shaded)
{
    const uint32_t size = m->p[0], max_vertices = m->p[1], reset = m->p[2];
    /* BS:313-317: the hard reset */
    if (s->progress != 0 && s->progress % reset == 0) {
        ati_empty(l, s);
        s->cbatch = s->cuniques = 0;
        s->cuts++;
        s->resets++;
    }
    uint32_t misses = 0, adds = 0, cbatch = s->cbatch, cuniques = s->cuniques, move = count;
    for (unsigned i = 0; i < count; ++i) {
        const uint32_t miss = ati_access(l, s, vertices[i], size);
        adds += miss;
        if (miss) {
            misses++;
            *shaded += GC_SIM_SHADE(i);
        }
        /* BS:332-335, with the counters as the simulator has them after a cut in this
           primitive (cbatch 0, not minus the corners already placed) */
        if (cuniques + adds > max_vertices || cbatch + i + 1 > reset) {
            /* BS:356-370: the corners before i stay in the ending batch, this one opens the
               next (pendBatch sets cbatch and cuniques to 0, adds = 1), and the primitive's
               remaining corners are what the batch gets of it (move -= i) */
            s->cuts++;
            cuniques = 0;
            cbatch = 0;
            move -= i;
            adds = 1;
        }
    }
    s->cuniques = cuniques + adds;
    s->cbatch = cbatch + move;
    s->progress += count;
    s->fed = true;
    return misses;
}

static uint32_t ati_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const ati_lru l = {c, NULL, NULL};
    return ati_step(&l, c->state, c->params, p->vertices, p->count, shaded);
}

/* The LRU's entries as a peek reads them. */
typedef struct ati_list {
    const uint32_t* list;
    uint32_t count;
} ati_list;

static bool ati_cached(const void* held, uint32_t v)
{
    const ati_list* h = held;
    return gc_lru_scan_find(h->list, h->count, v) < h->count;
}

/* What ati_feed would return and shade, the state left as it is (auto prices many triangles
 * for each it places; a feed shifts the LRU word by word): the LRU's price (lru_rule.h's
 * gc_lru_price) after the hard reset, if one comes before the primitive. */
static uint32_t ati_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const ati_sim* s = c->state;
    const gc_model* m = c->params;
    const uint32_t size = m->p[0], reset = m->p[2];
    const uint32_t* list = c->words;
    const uint32_t count = (s->progress != 0 && s->progress % reset == 0) ? 0 : s->count; /* the hard reset */
    const ati_list held = {list, count};
    return gc_lru_price(list, count < 8 ? count : 8, count, size, p->vertices, p->count, ati_cached, &held, shaded);
}

static void ati_counts(const ati_sim* s, gc_stats* out)
{
    out->has_batches = 1;
    out->batches = s->cuts + (s->fed ? 1 : 0);
    out->resets = s->resets;
}

static void ati_stats(const gc_sim_context* c, gc_stats* out)
{
    ati_counts(c->state, out);
}

const gc_sim_rule gc_rule_ati = {
    "ati", sizeof(ati_sim), 0, ati_extra, NULL, NULL, ati_feed, NULL, ati_stats, NULL, ati_peek,
};

/* A triangle list drawn alone (no restarts, no state changes, no per-vertex counts nor
 * trace: analyze.c runs it only then, gc_family_def.list_run; the machine otherwise): the
 * step above on the list form, each lookup O(1) where the machine's scanned list shifts up
 * to `lru` words (the same counts: tests/test_analyze_invocations.c checks them against the
 * machine's). */
gc_status gc_model_ati_list_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const gc_draw* d = &run->draw;
    gc_lru_list list = gc_lru_list_start(m->p[0]);
    uint32_t* node_of = gc_run_vertex_state(run, run->vertex_count ? run->vertex_count : 1, sizeof(uint32_t));
    uint32_t* nodes = gc_alloc_array(list.capacity, 3 * sizeof(uint32_t), false);
    if (!node_of || !nodes) {
        gc_run_vertex_state_free(run, node_of);
        free(nodes);
        return gc_fail(err, GC_ERR_NOMEM, "ati: out of memory for %u vertices", run->vertex_count);
    }
    const gc_lru_words words = {node_of, nodes, nodes + list.capacity, nodes + 2 * (size_t)list.capacity, NULL};
    const ati_lru l = {NULL, &list, &words};
    ati_sim s;
    memset(&s, 0, sizeof s);
    uint64_t invocations = 0;
    for (size_t t = 0; t < d->index_count; t += 3) {
        unsigned shaded = 0;
        invocations += ati_step(&l, &s, m, d->indices + t, 3, &shaded);
    }
    out->invocations = invocations;
    ati_counts(&s, out);
    gc_run_vertex_state_free(run, node_of);
    free(nodes);
    return GC_OK;
}
