// SPDX-License-Identifier: MIT
/* llvmpipe[:segment=1024,map=256] — what Mesa's gallium draw module (used by llvmpipe
 * and lavapipe) does with an indexed draw, from Mesa 22.3's source and checked against
 * lavapipe with the probe (docs/models/llvmpipe.md):
 *
 *  - with primitive restart, the draw is cut at every restart index into separate
 *    draws (draw_pt.c, draw_pt_arrays_restart);
 *  - each draw is trimmed to whole primitives and split into segments of at most
 *    `segment` indices (draw_split_tmp.h): a strip segment keeps an even number of
 *    triangles and the next one starts 2 indices back (`first - incr`), a fan or
 *    polygon segment after the first re-reads the fan's first index in its first
 *    place, a line loop's segments hold at most segment-1 and the last one re-reads
 *    the first index to close the loop;
 *  - within a segment, a direct-mapped table of `map` entries keyed by index value
 *    mod `map` decides whether the vertex was already fetched (draw_pt_vsplit.c,
 *    vsplit_add_cache); the table is cleared at every segment. Every miss is one
 *    vertex shader invocation. */
#include "models.h"
#include "llvmpipe_rule.h"

#include <stdlib.h>

#define EMPTY UINT32_MAX

typedef struct llvmpipe_state {
    const gc_run* run;
    uint32_t map_size;
    uint32_t* table;   /* dense id per slot, EMPTY when clear */
    bool has_max_fetch;
    uint64_t invocations;
    uint64_t primitive; /* primitives traced so far */
    uint64_t segments;
    int64_t* line;
} llvmpipe_state;

static void clear_table(llvmpipe_state* st)
{
    for (uint32_t i = 0; i < st->map_size; ++i)
        st->table[i] = EMPTY;
    st->has_max_fetch = false;
}

/* vsplit_add_cache: one fetch element through the direct-mapped table. */
static void add_element(llvmpipe_state* st, uint32_t id)
{
    const gc_run* run = st->run;
    uint32_t value = gc_run_value(run, id);
    uint32_t slot = value % st->map_size;
    /* The table starts filled with ~0, so the value ~0 must be forced to miss once. */
    if (id == EMPTY && !st->has_max_fetch) {
        st->table[slot] = 0;
        st->has_max_fetch = true;
    }
    if (st->table[slot] != id) {
        st->table[slot] = id;
        st->invocations++;
        if (run->per_vertex)
            run->per_vertex[id]++;
    }
}

/* One segment: `count` elements from position `start`; if `spoken`, the first is
 * replaced by the element at `spoken_pos`; if `close`, the element at `close_pos`
 * is appended. Primitives end every `incr` elements from element first-1. */
static void run_segment(llvmpipe_state* st, size_t start, size_t count, bool spoken, size_t spoken_pos, bool close,
                        size_t close_pos, unsigned first, unsigned incr)
{
    const uint32_t* idx = st->run->draw.indices;
    clear_table(st);
    st->segments++;
    for (size_t i = 0; i < count; ++i) {
        add_element(st, (spoken && i == 0) ? idx[spoken_pos] : idx[start + i]);
        if (st->run->trace && i + 1 >= first && (i + 1 - first) % incr == 0)
            gc_run_trace_slots(st->run, st->primitive++, st->table, st->map_size, EMPTY, st->line);
    }
    if (close) {
        add_element(st, idx[close_pos]);
        if (st->run->trace)
            gc_run_trace_slots(st->run, st->primitive++, st->table, st->map_size, EMPTY, st->line);
    }
}

#define SPLIT_AFTER 1u
#define SPLIT_BEFORE 2u

/* One restart-free draw of `count` indices from `start` (draw_split_tmp.h). */
static void run_draw(llvmpipe_state* st, gc_topology t, size_t start, size_t count, size_t segment)
{
    unsigned first, incr;
    gc_llvmpipe_split_prim(t, &first, &incr);
    count = gc_llvmpipe_trim(count, first, incr);
    if (count < first)
        return;
    if (count <= segment) {
        run_segment(st, start, count, false, 0, false, 0, first, incr);
        return;
    }
    const size_t rollback = first - incr;
    unsigned flags = SPLIT_AFTER;
    size_t seg_start = 0, seg_max;
    if (t == GC_LINE_LOOP) {
        seg_max = gc_llvmpipe_trim(segment - 1 < count ? segment - 1 : count, first, incr);
        while (seg_start < count) {
            size_t remaining = count - seg_start;
            size_t n = remaining > seg_max ? seg_max : remaining;
            if (remaining <= seg_max)
                flags &= ~SPLIT_AFTER;
            run_segment(st, start + seg_start, n, false, 0, flags == SPLIT_BEFORE, start, first, incr);
            seg_start += remaining > seg_max ? seg_max - rollback : remaining;
            flags |= SPLIT_BEFORE;
        }
        return;
    }
    bool fan = t == GC_TRIANGLE_FAN || t == GC_POLYGON;
    seg_max = gc_llvmpipe_trim(segment < count ? segment : count, first, incr);
    if (t == GC_TRIANGLE_STRIP && seg_max < count && !(((seg_max - first) / incr) & 1))
        seg_max -= incr; /* an even number of triangles per segment keeps the winding */
    while (seg_start < count) {
        size_t remaining = count - seg_start;
        size_t n = remaining > seg_max ? seg_max : remaining;
        run_segment(st, start + seg_start, n, fan && (flags & SPLIT_BEFORE), start, false, 0, first, incr);
        seg_start += remaining > seg_max ? seg_max - rollback : remaining;
        flags |= SPLIT_BEFORE;
    }
}

gc_status gc_model_llvmpipe_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    llvmpipe_state st = {0};
    st.run = run;
    st.map_size = m->p[1];
    st.table = gc_alloc_array(st.map_size, sizeof(uint32_t), false);
    st.line = run->trace ? gc_alloc_array(st.map_size, sizeof(int64_t), false) : NULL;
    if (!st.table || (run->trace && !st.line)) {
        free(st.table);
        free(st.line);
        return gc_fail(err, GC_ERR_NOMEM, "llvmpipe: out of memory for a fetch table of %u entries", st.map_size);
    }
    const gc_draw* d = &run->draw;
    const size_t segment = m->p[0];
    if (d->restart_enabled) {
        size_t run_start = 0;
        for (size_t i = 0; i <= d->index_count; ++i) {
            if (i == d->index_count || d->indices[i] == d->restart_value) {
                if (i > run_start)
                    run_draw(&st, d->topology, run_start, i - run_start, segment);
                run_start = i + 1;
            }
        }
    } else {
        run_draw(&st, d->topology, 0, d->index_count, segment);
    }
    out->invocations = st.invocations;
    out->has_batches = 1; /* segments */
    out->batches = st.segments;
    free(st.table);
    free(st.line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Segments of a run hold whole primitives: with
 * `step` = seg_max - (first - incr) = P * incr indices between segment starts, segment j
 * holds primitives j*P .. j*P + P - 1 of the run, so a primitive's segment follows from its
 * number in the run. A segment's first primitive fetches all its elements in stream order
 * (a fan's first element is the spoken one, the run's first index, which has the lowest
 * position); the others fetch the elements past the last one fetched. A split line loop's
 * closing line re-reads the run's first index. Words: per slot, the vertex id + 1. */
typedef struct llvmpipe_sim {
    uint32_t segment, map;
    uint64_t run_start, in_run;      /* the run's first position; primitives fed in it */
    uint64_t per_segment;            /* P: primitives per segment, 0 when the run is one segment */
    uint64_t loop_lines;             /* a split line loop: its primitives before the closing one */
    uint64_t current;                /* segment of the last primitive, + 1 (0: none yet) */
    uint64_t last_fetched;           /* position of the last element fetched in the segment */
    uint64_t segments;
    uint64_t memo_at, memo_segment;  /* the last primitive number divided, and its segment (a
                                        search prices many primitives at the same number) */
} llvmpipe_sim;

static size_t llvmpipe_extra(const void* params)
{
    return ((const gc_model*)params)->p[1];
}

static void llvmpipe_sim_reset(gc_sim_context* c)
{
    llvmpipe_sim* s = c->state;
    const gc_model* m = c->params;
    s->segment = m->p[0], s->map = m->p[1];
}

static void llvmpipe_begin_run(gc_sim_context* c, uint64_t first_position, uint64_t index_count)
{
    llvmpipe_sim* s = c->state;
    s->run_start = first_position;
    s->in_run = 0;
    s->current = 0;
    s->memo_at = s->memo_segment = 0; /* 0 is in segment 0 */
    s->per_segment = gc_llvmpipe_per_segment(c->topology, index_count, s->segment, &s->loop_lines);
}

/* Slots written while a primitive is only priced (gc_sim_peek): the table stays as it is. */
typedef struct pending {
    uint32_t slot[4], entry[4];
    unsigned count;
} pending;

/* One primitive, written to the table (`commit`) or only priced. */
static uint32_t llvmpipe_step(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded, bool commit)
{
    llvmpipe_sim* s = c->state;
    const uint64_t k = s->in_run;
    const bool closing = s->loop_lines && k == s->loop_lines;
    uint64_t segment = 0;
    if (s->per_segment) {
        const uint64_t at = closing ? k - 1 : k;
        if (at != s->memo_at)
            s->memo_at = at, s->memo_segment = at / s->per_segment;
        segment = s->memo_segment;
    }
    bool fresh = s->current != segment + 1;
    if (commit) {
        s->in_run++;
        if (fresh) {
            for (uint32_t i = 0; i < s->map; ++i)
                if (c->words[i])
                    gc_sim_write(c, i, 0);
            s->current = segment + 1;
            s->segments++;
        }
    }
    /* The corners in stream order. */
    unsigned order[4];
    for (unsigned j = 0; j < p->count; ++j) {
        unsigned at = j;
        while (at > 0 && p->positions[order[at - 1]] > p->positions[j]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = j;
    }
    pending written = {{0}, {0}, 0};
    uint32_t misses = 0;
    uint64_t last = fresh ? 0 : s->last_fetched;
    for (unsigned i = 0; i < p->count; ++i) {
        unsigned j = order[i];
        uint64_t at = p->positions[j];
        last = at > last ? at : last;
        if (!(fresh || at > s->last_fetched || (closing && at == s->run_start)))
            continue;
        /* vsplit_add_cache: the slot of the index value, a miss unless it holds this vertex
         * (a power-of-two table, the driver's 256, by mask: the optimizer's inner loop) */
        uint32_t id = p->vertices[j], value = gc_sim_value(c, id);
        uint32_t slot = gc_llvmpipe_slot(value, s->map);
        uint32_t held = !commit && fresh ? 0 : c->words[slot]; /* priced: a fresh segment is empty */
        for (unsigned w = 0; w < written.count; ++w)
            if (written.slot[w] == slot)
                held = written.entry[w];
        if (held == id + 1)
            continue;
        if (commit) {
            gc_sim_write(c, slot, id + 1);
        } else {
            written.slot[written.count] = slot;
            written.entry[written.count++] = id + 1;
        }
        *shaded += GC_SIM_SHADE(j);
        misses++;
    }
    if (commit)
        s->last_fetched = last;
    return misses;
}

static uint32_t llvmpipe_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return llvmpipe_step(c, p, shaded, true);
}

static uint32_t llvmpipe_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return llvmpipe_step(c, p, shaded, false);
}

static void llvmpipe_stats(const gc_sim_context* c, gc_stats* out)
{
    out->has_batches = 1;
    out->batches = ((const llvmpipe_sim*)c->state)->segments;
}

const gc_sim_rule gc_rule_llvmpipe = {
    "llvmpipe", sizeof(llvmpipe_sim), 0, llvmpipe_extra, llvmpipe_sim_reset, llvmpipe_begin_run, llvmpipe_feed,
    NULL, llvmpipe_stats, NULL, llvmpipe_peek,
};
