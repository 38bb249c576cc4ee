// SPDX-License-Identifier: MIT
/* The memory-system simulator: replays a scenario through per-CU L1s, the shared L2 and
 * the K-caches of seed 003's console GPU, prices the traffic and the cache events, and
 * looks for the hazards a flush strategy leaves (docs/memsys.md has every rule).
 *
 * Accesses are line-sized (a coalesced wavefront access). L1s are write-through without
 * write-allocate; the L2 is write-back with write-allocate; lines are tagged with their
 * memory type, so SC events touch SC lines only; LRU replacement everywhere. */
#include "memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ms_line {
    uint64_t tag;      /* line address */
    uint64_t lru;
    uint64_t fill_seq; /* when the data was fetched or written */
    int32_t owner;     /* last dispatch to touch it, -1 for none */
    uint8_t valid, dirty, type;
} ms_line;

typedef struct ms_cache {
    ms_line* lines;
    uint32_t sets, ways;
} ms_cache;

typedef struct ms_buffer_state {
    gc_memtype type;     /* after the strategy's remapping */
    uint64_t cpu_write_seq;
    uint64_t gpu_write_seq;
    int gpu_writer;
} ms_buffer_state;

typedef struct sim {
    const gc_memsys* m;
    gc_memsys_report* r;
    ms_cache* l1;          /* per CU */
    ms_cache* kcache;      /* per group of CUs */
    ms_cache l2;
    uint32_t cus, kcaches;
    uint64_t line_bytes;
    uint64_t seq, clock;   /* operations, LRU time */
    bool sc_read_since_inv, sc_write_since_wb;
    bool* l1_pending;      /* once-per-CU invalidate waiting for the CU's first wave */
    ms_buffer_state* buffers;
    int last_dispatch;     /* the dispatch that events outside blocks are attributed to */
    gc_error* err;
    size_t hazard_capacity;
    bool failed;
    gc_progress_fn progress; /* or NULL */
    void* progress_user;
    uint64_t work_done, work_total;
} sim;

static bool cache_init(ms_cache* c, double kb, double ways, uint64_t line)
{
    uint64_t lines = (uint64_t)(kb * 1024) / line;
    c->ways = (uint32_t)ways;
    if (c->ways > lines)
        c->ways = (uint32_t)(lines ? lines : 1);
    c->sets = (uint32_t)(lines / c->ways);
    if (c->sets == 0)
        c->sets = 1;
    c->lines = gc_alloc_array((size_t)c->sets * c->ways, sizeof(ms_line), true);
    return c->lines != NULL;
}

static ms_line* cache_find(ms_cache* c, uint64_t tag)
{
    ms_line* set = c->lines + (size_t)(tag % c->sets) * c->ways;
    for (uint32_t w = 0; w < c->ways; ++w)
        if (set[w].valid && set[w].tag == tag)
            return &set[w];
    return NULL;
}

/* The line to fill for `tag`: an invalid way or the least recently used one (returned
 * still holding the victim, so that the caller can write it back). */
static ms_line* cache_victim(ms_cache* c, uint64_t tag)
{
    ms_line* set = c->lines + (size_t)(tag % c->sets) * c->ways;
    ms_line* v = &set[0];
    for (uint32_t w = 0; w < c->ways; ++w) {
        if (!set[w].valid)
            return &set[w];
        if (set[w].lru < v->lru)
            v = &set[w];
    }
    return v;
}

static void add_bus(gc_memsys_stats* st, int bus, uint64_t bytes)
{
    if (bus == 0)
        st->garlic_bytes += bytes;
    else if (bus == 1)
        st->onion_bytes += bytes;
    else
        st->onion_plus_bytes += bytes;
}

/* The bus a memory type misses on through the L2: SC over Onion (coherent), others Garlic. */
static int l2_bus(int type)
{
    return type == GC_MEM_SC ? 1 : 0;
}

static void hazard(sim* s, gc_memsys_hazard_kind kind, uint64_t line, const char* fmt, const char* a, const char* b)
{
    gc_memsys_report* r = s->r;
    /* One report per operation. Operations run in scenario order, so the hazards of this
     * one are the last ones recorded: looking back only over those keeps a scenario of many
     * hazards linear. */
    for (size_t i = r->hazard_count; i > 0 && r->hazards[i - 1].line == line; --i)
        if (r->hazards[i - 1].kind == kind)
            return;
    if (r->hazard_count == s->hazard_capacity) {
        size_t next = s->hazard_capacity ? s->hazard_capacity * 2 : 16;
        gc_memsys_hazard* grown = realloc(r->hazards, next * sizeof *grown);
        if (!grown) {
            s->failed = true;
            return;
        }
        r->hazards = grown;
        s->hazard_capacity = next;
    }
    gc_memsys_hazard* h = &r->hazards[r->hazard_count++];
    h->kind = kind;
    h->line = line;
    snprintf(h->message, sizeof h->message, fmt, a, b);
}

static const char* dispatch_name(const sim* s, int d)
{
    return d >= 0 ? s->m->dispatches[d].name : "(none)";
}

/* A read hit on data fetched before the CPU last wrote it, or (GC) before another
 * dispatch last wrote it. */
static void check_stale(sim* s, const ms_line* l, int buffer, int dispatch, const ms_op* op, bool in_l1)
{
    const ms_buffer_state* b = &s->buffers[buffer];
    const char* name = s->m->buffers[buffer].name;
    if (b->type == GC_MEM_SC && l->fill_seq < b->cpu_write_seq)
        hazard(s, GC_HAZARD_GPU_READS_STALE, op->line,
               "dispatch %s reads SC buffer %s, written by the CPU since it was cached, with no invalidate in between",
               dispatch_name(s, dispatch), name);
    if (in_l1 && b->type == GC_MEM_GC && l->fill_seq < b->gpu_write_seq && b->gpu_writer != dispatch)
        hazard(s, GC_HAZARD_GC_NO_L1_INVALIDATE, op->line,
               "dispatch %s reads GC buffer %s from L1 lines older than another dispatch's writes: no L1 invalidate",
               dispatch_name(s, dispatch), name);
}

static void l1_invalidate_cu(sim* s, uint32_t cu, gc_memsys_stats* st)
{
    ms_cache* c = &s->l1[cu];
    for (size_t i = 0; i < (size_t)c->sets * c->ways; ++i)
        if (c->lines[i].valid && (c->lines[i].type == GC_MEM_GC || c->lines[i].type == GC_MEM_SC)) {
            c->lines[i].valid = 0;
            st->l1_invalidate_lines++;
        }
    st->l1_invalidates++;
    st->event_cycles += s->m->machine[MK_L1_INV_CYCLES];
    st->invalidate_cycles += s->m->machine[MK_L1_INV_CYCLES];
}

/* Through the L2 (or around it): returns whether the L2 (or memory) served a hit. */
static void l2_access(sim* s, gc_memsys_stats* st, uint64_t tag, int buffer, int dispatch, bool write, bool l2_bypass,
                      const ms_op* op)
{
    ms_buffer_state* b = &s->buffers[buffer];
    int type = b->type;
    if (type == GC_MEM_UC || (type == GC_MEM_SC && l2_bypass)) {
        add_bus(st, 2, s->line_bytes); /* Onion+: no cache at all */
        return;
    }
    st->l2.accesses[type][write]++;
    ms_line* l = cache_find(&s->l2, tag);
    if (l) {
        st->l2.hits[type][write]++;
        if (!write)
            check_stale(s, l, buffer, dispatch, op, false);
    } else {
        st->l2.misses[type][write]++;
        l = cache_victim(&s->l2, tag);
        if (l->valid && l->dirty) /* a dirty victim goes back to memory */
            add_bus(st, l2_bus(l->type), s->line_bytes);
        if (!write)
            add_bus(st, l2_bus(type), s->line_bytes); /* a write fills the whole line: no fetch */
        l->valid = 1;
        l->dirty = 0;
        l->tag = tag;
        l->type = (uint8_t)type;
        l->fill_seq = s->seq;
    }
    l->lru = ++s->clock;
    l->owner = dispatch;
    if (write) {
        l->dirty = 1;
        l->fill_seq = s->seq;
    }
    if (type == GC_MEM_SC) {
        if (write)
            s->sc_write_since_wb = true;
        else
            s->sc_read_since_inv = true;
    }
}

static void fill(sim* s, ms_cache* c, uint64_t tag, int type, int dispatch)
{
    ms_line* l = cache_victim(c, tag);
    l->valid = 1;
    l->dirty = 0;
    l->tag = tag;
    l->type = (uint8_t)type;
    l->fill_seq = s->seq;
    l->lru = ++s->clock;
    l->owner = dispatch;
}

static void access_line(sim* s, gc_memsys_stats* st, const ms_op* op, uint64_t tag, uint32_t cu, int dispatch,
                        bool l1_bypass, bool l2_bypass)
{
    ms_buffer_state* b = &s->buffers[op->buffer];
    int type = b->type;
    bool write = op->code == OP_WRITE || op->code == OP_SIGNAL;
    if (s->l1_pending[cu]) {
        s->l1_pending[cu] = false; /* the CU's first wave performs the once-per-CU invalidate */
        l1_invalidate_cu(s, cu, st);
    }
    if (type == GC_MEM_UC) {
        add_bus(st, 2, s->line_bytes);
        if (write) {
            b->gpu_write_seq = s->seq;
            b->gpu_writer = dispatch;
        }
        return;
    }
    if (op->code == OP_SREAD) {
        ms_cache* k = &s->kcache[cu / (uint32_t)s->m->machine[MK_KCACHE_CUS]];
        st->kcache.accesses[type][0]++;
        ms_line* l = cache_find(k, tag);
        if (l) {
            st->kcache.hits[type][0]++;
            l->lru = ++s->clock;
            check_stale(s, l, op->buffer, dispatch, op, false);
            return;
        }
        st->kcache.misses[type][0]++;
        l2_access(s, st, tag, op->buffer, dispatch, false, l2_bypass, op);
        fill(s, k, tag, type, dispatch);
        return;
    }
    bool use_l1 = !(l1_bypass && (type == GC_MEM_GC || type == GC_MEM_SC));
    if (use_l1) {
        ms_cache* c = &s->l1[cu];
        st->l1.accesses[type][write]++;
        ms_line* l = cache_find(c, tag);
        if (l) {
            st->l1.hits[type][write]++;
            l->lru = ++s->clock;
            if (!write) {
                check_stale(s, l, op->buffer, dispatch, op, true);
                return;
            }
            l->fill_seq = s->seq; /* write-through: the copy stays current */
        } else {
            st->l1.misses[type][write]++;
            if (!write) {
                l2_access(s, st, tag, op->buffer, dispatch, false, l2_bypass, op);
                fill(s, c, tag, type, dispatch);
                return;
            }
        }
    }
    if (!write) {
        l2_access(s, st, tag, op->buffer, dispatch, false, l2_bypass, op);
        return;
    }
    l2_access(s, st, tag, op->buffer, dispatch, true, l2_bypass, op);
    b->gpu_write_seq = s->seq;
    b->gpu_writer = dispatch;
}

static uint64_t next_random(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void run_access(sim* s, gc_memsys_stats* st, const ms_op* op, const ms_dispatch* d, int dispatch, bool l1b,
                       bool l2b)
{
    const ms_buffer* buf = &s->m->buffers[op->buffer];
    uint64_t count = op->code == OP_SIGNAL ? 1 : (op->bytes + s->line_bytes - 1) / s->line_bytes;
    uint64_t wave = (uint64_t)s->m->machine[MK_WAVE_BYTES];
    uint32_t cus = d ? d->cus : s->cus;
    uint64_t rng = op->seed;
    uint64_t ws = op->ws ? op->ws : buf->size; /* a signal writes the buffer's first line */
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t offset;
        switch (op->pattern) {
        case PAT_STRIDE: offset = (i * op->stride) % ws; break;
        case PAT_RANDOM: offset = next_random(&rng) % ws; break;
        default: offset = (i * s->line_bytes) % ws; break;
        }
        uint64_t tag = (buf->base + offset) / s->line_bytes;
        uint32_t cu = (uint32_t)(((i * s->line_bytes) / wave) % cus);
        access_line(s, st, op, tag, cu, dispatch, l1b, l2b);
        if (s->progress && (i & 0xFFFFF) == 0xFFFFF)
            s->progress(s->progress_user, s->work_done + i * gc_ms_access_weight(s->m), s->work_total);
    }
}

/* Lines of buffer `b` dirty in the L2. */
static uint64_t dirty_lines_of(sim* s, int b)
{
    const ms_buffer* buf = &s->m->buffers[b];
    uint64_t first = buf->base / s->line_bytes, last = (buf->base + buf->size - 1) / s->line_bytes, n = 0;
    for (size_t i = 0; i < (size_t)s->l2.sets * s->l2.ways; ++i) {
        const ms_line* l = &s->l2.lines[i];
        n += l->valid && l->dirty && l->tag >= first && l->tag <= last;
    }
    return n;
}

static void count_crosstalk(gc_memsys_stats* st, uint64_t lines, bool* counted)
{
    if (lines && !*counted) {
        st->crosstalk_events++;
        *counted = true;
    }
    st->crosstalk_lines += lines;
}

static void l2_invalidate(sim* s, gc_memsys_stats* st, const ms_op* op, int requester)
{
    if (!op->all && !s->sc_read_since_inv) {
        st->l2_invalidates_skipped++; /* dirty tracking: no SC read since the last invalidate */
        return;
    }
    st->l2_invalidates++;
    bool counted = false;
    for (size_t i = 0; i < (size_t)s->l2.sets * s->l2.ways; ++i) {
        ms_line* l = &s->l2.lines[i];
        if (!l->valid || l->dirty || (!op->all && l->type != GC_MEM_SC))
            continue; /* dirty lines stay until written back */
        l->valid = 0;
        st->l2_invalidate_lines++;
        if (l->type == GC_MEM_SC && l->owner >= 0 && l->owner != requester)
            count_crosstalk(st, 1, &counted);
    }
    st->event_cycles += s->m->machine[MK_L2_INV_LOCATE] + s->m->machine[MK_L2_INV_SETTLE];
    st->invalidate_cycles += s->m->machine[MK_L2_INV_LOCATE] + s->m->machine[MK_L2_INV_SETTLE];
    s->sc_read_since_inv = false;
}

static void l2_writeback(sim* s, gc_memsys_stats* st, const ms_op* op, int requester)
{
    if (!op->all && !s->sc_write_since_wb) {
        st->l2_writebacks_skipped++; /* dirty tracking: no SC write since the last writeback */
        return;
    }
    st->l2_writebacks++;
    uint64_t onion = 0, garlic = 0;
    bool counted = false;
    for (size_t i = 0; i < (size_t)s->l2.sets * s->l2.ways; ++i) {
        ms_line* l = &s->l2.lines[i];
        if (!l->valid || !l->dirty || (!op->all && l->type != GC_MEM_SC))
            continue;
        l->dirty = 0;
        st->l2_writeback_lines++;
        if (l2_bus(l->type) == 1)
            onion += s->line_bytes;
        else
            garlic += s->line_bytes;
        if (l->type == GC_MEM_SC && l->owner >= 0 && l->owner != requester)
            count_crosstalk(st, 1, &counted);
    }
    st->l2_writeback_dirty_bytes += onion + garlic;
    st->onion_bytes += onion;
    st->garlic_bytes += garlic;
    const double* k = s->m->machine;
    double cost = k[MK_L2_WB_LOCATE];
    if (onion + garlic) {
        /* The two buses drain in parallel; the slower sets the time. */
        double t_onion = (double)onion / k[MK_ONION], t_garlic = (double)garlic / k[MK_GARLIC];
        cost += k[MK_L2_WB_LATENCY] + (t_onion > t_garlic ? t_onion : t_garlic);
    }
    /* The bytes are priced here, not again as bus traffic. */
    st->event_cycles += cost;
    st->writeback_cycles += cost;
    st->bus_cycles -= (double)onion / k[MK_ONION] + (double)garlic / k[MK_GARLIC];
    s->sc_write_since_wb = false;
}

static void stats_add(gc_memsys_stats* to, const gc_memsys_stats* from)
{
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        for (int w = 0; w < 2; ++w) {
            to->l1.accesses[t][w] += from->l1.accesses[t][w];
            to->l1.hits[t][w] += from->l1.hits[t][w];
            to->l1.misses[t][w] += from->l1.misses[t][w];
            to->l2.accesses[t][w] += from->l2.accesses[t][w];
            to->l2.hits[t][w] += from->l2.hits[t][w];
            to->l2.misses[t][w] += from->l2.misses[t][w];
            to->kcache.accesses[t][w] += from->kcache.accesses[t][w];
            to->kcache.hits[t][w] += from->kcache.hits[t][w];
            to->kcache.misses[t][w] += from->kcache.misses[t][w];
        }
    to->garlic_bytes += from->garlic_bytes;
    to->onion_bytes += from->onion_bytes;
    to->onion_plus_bytes += from->onion_plus_bytes;
    to->l1_invalidates += from->l1_invalidates;
    to->l1_invalidate_lines += from->l1_invalidate_lines;
    to->l2_invalidates += from->l2_invalidates;
    to->l2_invalidates_skipped += from->l2_invalidates_skipped;
    to->l2_invalidate_lines += from->l2_invalidate_lines;
    to->l2_writebacks += from->l2_writebacks;
    to->l2_writebacks_skipped += from->l2_writebacks_skipped;
    to->l2_writeback_lines += from->l2_writeback_lines;
    to->l2_writeback_dirty_bytes += from->l2_writeback_dirty_bytes;
    to->kcache_invalidates += from->kcache_invalidates;
    to->kcache_invalidate_lines += from->kcache_invalidate_lines;
    to->crosstalk_events += from->crosstalk_events;
    to->crosstalk_lines += from->crosstalk_lines;
    to->bus_cycles += from->bus_cycles;
    to->event_cycles += from->event_cycles;
    to->invalidate_cycles += from->invalidate_cycles;
    to->writeback_cycles += from->writeback_cycles;
}

/* Bus time of the traffic counted in st (writebacks already priced as events). */
static void finish_stats(const sim* s, gc_memsys_stats* st)
{
    const double* k = s->m->machine;
    st->bus_cycles += (double)st->garlic_bytes / k[MK_GARLIC] + (double)st->onion_bytes / k[MK_ONION] +
                      (double)st->onion_plus_bytes / k[MK_ONION_PLUS];
    st->cycles = st->bus_cycles + st->event_cycles;
}

gc_status gc_memsys_run(const gc_memsys* m, gc_memsys_strategy strategy, gc_memsys_report* out, gc_error* err)
{
    return gc_memsys_run_limited(m, strategy, GC_MEMSYS_DEFAULT_MAX_WORK, NULL, NULL, out, err);
}

gc_status gc_memsys_run_limited(const gc_memsys* m, gc_memsys_strategy strategy, uint64_t max_work,
                                gc_progress_fn progress, void* progress_user, gc_memsys_report* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)strategy >= GC_MEMSYS_STRATEGY_COUNT)
        return gc_fail(err, GC_ERR_USAGE, "memsys: unknown strategy %d", (int)strategy);
    /* Known before any work: a few lines of scenario can ask for hours of replay. */
    uint64_t work = gc_memsys_work(m);
    if (work > max_work)
        return gc_fail(err, GC_ERR_LIMIT,
                       "memsys: the scenario asks for %llu simulated line accesses, more than the limit of %llu",
                       (unsigned long long)work, (unsigned long long)max_work);
    sim s;
    memset(&s, 0, sizeof s);
    s.progress = progress;
    s.progress_user = progress_user;
    s.work_total = work;
    s.work_done = gc_ms_setup_work(m);
    s.m = m;
    s.r = out;
    s.err = err;
    s.cus = (uint32_t)m->machine[MK_CUS];
    s.line_bytes = (uint64_t)m->machine[MK_LINE];
    uint32_t per_k = (uint32_t)m->machine[MK_KCACHE_CUS];
    s.kcaches = (s.cus + per_k - 1) / per_k;
    s.last_dispatch = -1;
    s.l1 = calloc(s.cus, sizeof *s.l1);
    s.kcache = calloc(s.kcaches, sizeof *s.kcache);
    s.l1_pending = calloc(s.cus, sizeof *s.l1_pending);
    s.buffers = calloc(m->buffer_count ? m->buffer_count : 1, sizeof *s.buffers);
    out->dispatch_count = m->dispatch_count;
    out->dispatches = calloc(m->dispatch_count ? m->dispatch_count : 1, sizeof *out->dispatches);
    out->dispatch_names = calloc(m->dispatch_count ? m->dispatch_count : 1, sizeof *out->dispatch_names);
    bool ok = s.l1 && s.kcache && s.l1_pending && s.buffers && out->dispatches && out->dispatch_names &&
              cache_init(&s.l2, m->machine[MK_L2_KB], m->machine[MK_L2_WAYS], s.line_bytes);
    for (uint32_t i = 0; ok && i < s.cus; ++i)
        ok = cache_init(&s.l1[i], m->machine[MK_L1_KB], m->machine[MK_L1_WAYS], s.line_bytes);
    for (uint32_t i = 0; ok && i < s.kcaches; ++i)
        ok = cache_init(&s.kcache[i], m->machine[MK_KCACHE_KB], m->machine[MK_KCACHE_WAYS], s.line_bytes);
    gc_status status = GC_OK;
    if (!ok) {
        status = gc_fail(err, GC_ERR_NOMEM, "memsys: out of memory for the caches of %u compute units and %zu buffers",
                         s.cus, m->buffer_count);
        goto done;
    }
    for (size_t i = 0; i < m->dispatch_count; ++i)
        snprintf(out->dispatch_names[i], sizeof out->dispatch_names[i], "%s", m->dispatches[i].name);
    for (size_t i = 0; i < m->buffer_count; ++i) {
        s.buffers[i].type = m->buffers[i].type;
        if (strategy == GC_MEMSYS_SC_AS_UC && s.buffers[i].type == GC_MEM_SC)
            s.buffers[i].type = GC_MEM_UC;
        s.buffers[i].gpu_writer = -1;
    }
    for (size_t i = 0; i < m->op_count && !s.failed; ++i) {
        const ms_op* op = &m->ops[i];
        s.seq++;
        int d = op->dispatch;
        gc_memsys_stats* st = d >= 0 ? &out->dispatches[d] : &out->between;
        const ms_dispatch* disp = d >= 0 ? &m->dispatches[d] : NULL;
        bool l1b = disp ? disp->l1_bypass : false, l2b = disp ? disp->l2_bypass : false;
        if (strategy == GC_MEMSYS_L1_BYPASS)
            l1b = true;
        if (strategy == GC_MEMSYS_L2_BYPASS)
            l2b = true;
        int requester = d >= 0 ? d : s.last_dispatch;
        switch (op->code) {
        case OP_BEGIN: s.last_dispatch = op->dispatch; break;
        case OP_END:
            /* a once-per-CU invalidate does not reach the CUs the dispatch never used */
            for (uint32_t cu = 0; cu < s.cus; ++cu)
                s.l1_pending[cu] = false;
            break;
        case OP_READ:
        case OP_WRITE:
        case OP_SREAD: run_access(&s, st, op, disp, d, l1b, l2b); break;
        case OP_SIGNAL: run_access(&s, st, op, disp, requester, l1b, l2b); break;
        case OP_L1_INV:
            if (op->all) { /* scope=once_per_cu: at each CU's first wave of what follows */
                for (uint32_t cu = 0; cu < s.cus; ++cu)
                    s.l1_pending[cu] = true;
            } else {
                for (uint32_t cu = 0; cu < s.cus; ++cu)
                    l1_invalidate_cu(&s, cu, st);
            }
            break;
        case OP_L2_INV: l2_invalidate(&s, st, op, requester); break;
        case OP_L2_WB: l2_writeback(&s, st, op, requester); break;
        case OP_KCACHE_INV:
            for (uint32_t k = 0; k < s.kcaches; ++k)
                for (size_t j = 0; j < (size_t)s.kcache[k].sets * s.kcache[k].ways; ++j)
                    if (s.kcache[k].lines[j].valid) {
                        s.kcache[k].lines[j].valid = 0;
                        st->kcache_invalidate_lines++;
                    }
            st->kcache_invalidates++;
            st->event_cycles += m->machine[MK_KCACHE_INV_CYCLES];
            st->invalidate_cycles += m->machine[MK_KCACHE_INV_CYCLES];
            break;
        case OP_CP_WAIT: {
            /* The command processor reads memory and never sees the L2. */
            const ms_buffer_state* b = &s.buffers[op->buffer];
            const char* name = m->buffers[op->buffer].name;
            if (b->type == GC_MEM_UC)
                break;
            if (b->type == GC_MEM_SC && dirty_lines_of(&s, op->buffer))
                hazard(&s, GC_HAZARD_CP_CANNOT_SEE, op->line,
                       "cp_wait on SC semaphore %s: its write is still in the L2 (no writeback)%s", name, "");
            else if (b->type != GC_MEM_SC && dirty_lines_of(&s, op->buffer))
                hazard(&s, GC_HAZARD_CP_CANNOT_SEE, op->line,
                       "cp_wait on %s semaphore %s: its write sits in the L2, which the command processor cannot see",
                       gc_memtype_name(b->type), name);
            break;
        }
        case OP_CPU_READ: {
            uint64_t dirty = dirty_lines_of(&s, op->buffer);
            if (dirty && s.buffers[op->buffer].type == GC_MEM_SC)
                hazard(&s, GC_HAZARD_CPU_READS_DIRTY, op->line,
                       "the CPU reads SC buffer %s while %s of its lines are still dirty in the L2 (no writeback)",
                       m->buffers[op->buffer].name, dirty == 1 ? "one" : "some");
            break;
        }
        case OP_CPU_WRITE: s.buffers[op->buffer].cpu_write_seq = s.seq; break;
        }
        s.work_done += gc_ms_op_work(m, op);
        if (progress)
            progress(progress_user, s.work_done, s.work_total);
    }
    if (s.failed) {
        status = gc_fail(err, GC_ERR_NOMEM, "memsys: out of memory for a list of %zu hazards", s.hazard_capacity * 2);
        goto done;
    }
    for (size_t i = 0; i < m->dispatch_count; ++i) {
        finish_stats(&s, &out->dispatches[i]);
        stats_add(&out->total, &out->dispatches[i]);
    }
    finish_stats(&s, &out->between);
    stats_add(&out->total, &out->between);
    out->total.cycles = out->total.bus_cycles + out->total.event_cycles;
done:
    for (uint32_t i = 0; s.l1 && i < s.cus; ++i)
        free(s.l1[i].lines);
    for (uint32_t i = 0; s.kcache && i < s.kcaches; ++i)
        free(s.kcache[i].lines);
    free(s.l1);
    free(s.kcache);
    free(s.l2.lines);
    free(s.l1_pending);
    free(s.buffers);
    if (status)
        gc_memsys_report_free(out);
    return status;
}

void gc_memsys_report_free(gc_memsys_report* r)
{
    free(r->dispatch_names);
    free(r->dispatches);
    free(r->hazards);
    memset(r, 0, sizeof *r);
}
