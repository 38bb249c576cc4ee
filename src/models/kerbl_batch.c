// SPDX-License-Identifier: MIT
/* nv-dx, nv-gl and batch-all: the batch rules Kerbl, Kenzel, Ivanchenko, Schmalstieg and
 * Steinberger measured ("Revisiting The Vertex Cache", HPG 2018) and published as a
 * simulator, GPUPeople/vertex_batch_optimization (commit 46332cd). Citations below are
 * to its sceneprocessor/source/layers/ files (BSP = BatchSimulationParameters.h,
 * BS = BatchSimulator.h).
 *
 * The three families share their simulator's batching engine, BatchState::addTriangle
 * with triangle_bounds = true (BS:310-382), over a FIFOCacheSim of per-vertex entries
 * (BS:158-184); they differ only in the entry's rule, "cached" (BS:102-156). The engine
 * is stated once here, the three entry rules beside it:
 *  - a primitive's corners are looked up in order at stream positions progress + i
 *    (BS:325); each is inserted after its lookup, so a vertex repeated in the primitive
 *    finds its earlier corner (BS:338), and every reference, hit or miss, moves the
 *    vertex's last use to its position (BS:171-179, update());
 *  - the batch ends before corner i when the misses so far would exceed `vertices`
 *    (cuniques + adds > batchVertices, BS:332) or the corner would be past `indices`
 *    (cbatch + i + 1 > batchIndices, BS:334); with triangle bounds the whole primitive
 *    moves to the next batch and is looked up again in its empty cache (BS:339-355:
 *    pendBatch clears the FIFOCacheSim whatever `hard` says, BS:180-183);
 *  - the batch's counters are its indices (cbatch) and its misses (cuniques), not its
 *    distinct vertices: a vertex that left its window and comes back is shaded and counted
 *    again (BS:327, 377).
 * `progress` counts the primitives' corners as if the draw were a list (the simulator
 * takes triangle lists only, BS:415-416: progress += 3 per triangle); for a triangle
 * list it is the index position. Positions are kept in 32 bits, as the simulator's
 * uint32_t (BS:120, 136): distances are taken modulo 2^32. */
#include "kerbl_rule.h"
#include "models.h"

/* The entry rules (BS:102-156) and the lookup (BS:325-355) are in kerbl_rule.h:
 *  - NVGLCacheEntry::cached (BS:125-128): a fixed window of 42 indices, inclusive (d <=
 *    window; 42 is BSP:22's "FIFO 42");
 *  - NVDxCacheEntry::cached (BS:141-151): the window depends on the slot of the last use,
 *    last % 3 (its corner in a triangle list): slot 0 keeps the vertex for d < 45
 *    (BS:145-146), slot 1 for d <= 40 or d == 42 (BS:147-148), slot 2 for d <= 39, d == 41
 *    or d == 42 (BS:150). BSP:20 names it "FIFO +/-42";
 *  - ForeverCacheEntry::cached (BS:108-111): anything looked up in the batch stays. */

/* ------------------------------------------------------------------ engine */

/* Per vertex: word 0 = number of the batch that last referenced it (from 1; 0 = never),
 * word 1 = the position of that reference. */
typedef struct kerbl_sim {
    uint32_t current;   /* the open batch's number, from 1 */
    uint32_t cbatch;    /* indices in the open batch (BS:246) */
    uint32_t cuniques;  /* invocations in the open batch (BS:247) */
    uint32_t progress;  /* position of the next corner (BS:248) */
    uint64_t cuts;      /* batches ended before the draw's end */
    uint32_t page;      /* nv-gl's page: the previous corner's (UINT32_MAX: none yet) */
    bool fed;           /* a primitive was fed: the open batch is not empty */
} kerbl_sim;

static void kerbl_reset(gc_sim_context* c)
{
    kerbl_sim* s = c->state;
    s->current = 1;
    s->page = UINT32_MAX;
}

/* The step for a primitive of `count` corners on the words `words` (through the machine's
 * log when `c` is given, else written directly: gc_model_kerbl_list_run's loop): its misses.
 * `values` maps the vertices' ids to index values (NULL: the same), for nv-gl's pages. */
static inline __attribute__((always_inline)) uint32_t kerbl_step(kerbl_sim* s, const gc_model* m, gc_kerbl_entry entry,
                                                                 uint32_t* words, gc_sim_context* c,
                                                                 const uint32_t* values, const uint32_t* vertices,
                                                                 unsigned count, unsigned* shaded)
{
    const gc_kerbl_rule rule = {entry, m->p[2], m->p[0], m->p[1], entry == GC_KERBL_GL ? m->p[3] : 0};
    /* batch-all's optional hard reset (p[2], 0 = none): BS:313-317, a batch ends before a
       primitive at a non-zero multiple of it — VertexReuseStats.cpp:234 runs CURE warp so
       (HardReset 96, "stat"), where BSP:80 has none */
    if (entry == GC_KERBL_ALL && m->p[2] && s->progress != 0 && s->progress % m->p[2] == 0 && s->cbatch != 0) {
        s->cuts++;
        s->current++;
        s->cbatch = s->cuniques = 0;
    }
    /* BS:325-355: the lookups, the batch ended first when it is full (pendBatch, BS:258-267,
       clears the FIFOCacheSim whatever `hard` says, BS:180-183) */
    bool miss[4] = {false, false, false, false}, cut;
    uint32_t ids[4], adds;
    if (rule.page_shift) { /* the H100's pages: each corner's cache number (kerbl_rule.h) */
        uint32_t pages[4];
        for (unsigned i = 0; i < count; ++i)
            pages[i] = (values ? values[vertices[i]] : vertices[i]) >> rule.page_shift;
        adds = gc_kerbl_lookup_paged(&rule, words, vertices, pages, count, s->progress, &s->current, &s->page,
                                     s->cbatch, s->cuniques, miss, ids, &cut);
    } else {
        adds = gc_kerbl_lookup(&rule, words, vertices, count, s->progress, s->current, s->cbatch, s->cuniques, miss,
                               &cut);
        s->current += cut;
        ids[0] = ids[1] = ids[2] = ids[3] = s->current;
    }
    if (cut) {
        s->cuts++;
        s->cbatch = s->cuniques = 0;
    }
    /* BS:376-380: the lookups become the cache; counters move by the primitive */
    for (unsigned i = 0; i < count; ++i) {
        if (c) {
            gc_sim_write(c, 2 * (size_t)vertices[i], ids[i]);
            gc_sim_write(c, 2 * (size_t)vertices[i] + 1, s->progress + i);
        } else {
            words[2 * (size_t)vertices[i]] = ids[i];
            words[2 * (size_t)vertices[i] + 1] = s->progress + i;
        }
        if (miss[i])
            *shaded += GC_SIM_SHADE(i);
    }
    s->cuniques += adds;
    s->cbatch += count;
    s->progress += count;
    s->fed = true;
    return adds;
}

static uint32_t kerbl_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded, gc_kerbl_entry entry)
{
    return kerbl_step(c->state, c->params, entry, c->words, c, c->values, p->vertices, p->count, shaded);
}

static uint32_t nv_dx_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return kerbl_feed(c, p, shaded, GC_KERBL_DX);
}

static uint32_t nv_gl_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return kerbl_feed(c, p, shaded, GC_KERBL_GL);
}

static uint32_t batch_all_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return kerbl_feed(c, p, shaded, GC_KERBL_ALL);
}

/* Batches: the ones cut, and the open one at the end (the simulator's final endBatch,
 * BS:418). */
static void kerbl_counts(const kerbl_sim* s, gc_stats* out)
{
    out->has_batches = 1;
    out->batches = s->cuts + (s->fed ? 1 : 0);
}

static void kerbl_stats(const gc_sim_context* c, gc_stats* out)
{
    kerbl_counts(c->state, out);
}

const gc_sim_rule gc_rule_nv_dx = {
    "nv-dx", sizeof(kerbl_sim), 2, NULL, kerbl_reset, NULL, nv_dx_feed, NULL, kerbl_stats, NULL, NULL,
};
const gc_sim_rule gc_rule_nv_gl = {
    "nv-gl", sizeof(kerbl_sim), 2, NULL, kerbl_reset, NULL, nv_gl_feed, NULL, kerbl_stats, NULL, NULL,
};
const gc_sim_rule gc_rule_batch_all = {
    "batch-all", sizeof(kerbl_sim), 2, NULL, kerbl_reset, NULL, batch_all_feed, NULL, kerbl_stats, NULL, NULL,
};

/* A triangle list drawn alone (analyze.c runs it only then, gc_family_def.list_run; the
 * machine otherwise): the step above on the words directly, without the machine's stream
 * and log (the same counts: tests/test_analyze_invocations.c checks them against the
 * machine's). */
static inline __attribute__((always_inline)) gc_status kerbl_list(const gc_model* m, const gc_run* run, gc_stats* out,
                                                                  gc_error* err, gc_kerbl_entry entry)
{
    uint32_t* words = gc_run_vertex_state(run, 2 * (size_t)(run->vertex_count ? run->vertex_count : 1),
                                          sizeof(uint32_t));
    if (!words)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %u vertices", m->name, run->vertex_count);
    kerbl_sim s;
    memset(&s, 0, sizeof s);
    s.current = 1; /* kerbl_reset */
    s.page = UINT32_MAX;
    uint64_t invocations = 0;
    const gc_draw* d = &run->draw;
    for (size_t t = 0; t < d->index_count; t += 3) {
        unsigned shaded = 0;
        invocations += kerbl_step(&s, m, entry, words, NULL, run->values, d->indices + t, 3, &shaded);
    }
    out->invocations = invocations;
    kerbl_counts(&s, out);
    gc_run_vertex_state_free(run, words);
    return GC_OK;
}

gc_status gc_model_kerbl_list_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    if (m->family == GC_MODEL_NV_DX)
        return kerbl_list(m, run, out, err, GC_KERBL_DX);
    if (m->family == GC_MODEL_NV_GL)
        return kerbl_list(m, run, out, err, GC_KERBL_GL);
    return kerbl_list(m, run, out, err, GC_KERBL_ALL);
}
