// SPDX-License-Identifier: MIT
/* Forsyth's algorithm told where the target empties its cache (issue 33): for the rules that
 * flush their reuse at known points, the modelled cache of forsyth.c (the same scores, the
 * same linear scan) is emptied where the target's is, so that no triangle is chosen for
 * vertices the target will not hold any more:
 *  - ati (Kerbl et al.'s ATI rule, LRU of fewer than 16 entries: ati-basic): the LRU is
 *    emptied before every primitive whose position is a non-zero multiple of `reset`
 *    indices (hard resets); known exactly from the triangle's number in the draw;
 *  - reuse:W,F,T: a new warp (nothing reused) before a triangle when T are buffered, or
 *    when its misses would take the warp past W vertices. The warp is followed along the
 *    order (a vertex hits while in the warp and among the last F added); the cache is
 *    emptied after a triangle that fills the warp's T, or leaves fewer than 2 of its W
 *    vertices (the next triangle's misses are not known yet: most have 1 or 2).
 *  - nv-dx, nv-gl (Kerbl et al.'s batches, kerbl_batch.c): the batch followed along the
 *    order the same way, a vertex held while referenced in the batch at most the window's
 *    indices back (nv-gl's window; 42 for nv-dx, whose window is 39 to 44 by slot); the
 *    cache is emptied after the batch's last triangle (`indices` / 3), or when fewer than 2
 *    of its `vertices` are left. Within a batch the order grows it round its first triangle
 *    (gc_flush_growth): a vertex the batch holds scores more, and one the batch referenced
 *    less by its distance from that triangle (the batch greedy's compact batches, cheaply:
 *    on a finely tessellated surface Forsyth's recency alone drew long thin batches).
 * At a flush the vertices that were cached keep their remaining triangles as the next
 * step's candidates, scored by their valences only, so the order stays on the surface.
 * On the corpus (28 rows, 14 meshes stored and shuffled) against meshoptimizer's order:
 * ati-basic -1.04% with lru:16's table (the plain order: -0.42%), reuse:32,16,32 -2.20%
 * with the tuned table (plain: -0.37%), nv-dx -2.14% (plain -0.41%), nv-gl -2.17% (plain
 * -0.44%), in the plain order's time (docs/optimizers/auto.md).
 *
 * Told of seed 000's NVIDIA rule (gc_opt_forsyth_nvidia; issue 33, nvidia-kepler): the
 * modelled cache holds only the vertices the rule (src/models/nvidia_rule.h, its state by
 * vertex) still holds for the next primitive, the rule followed along the order exactly.
 * After each triangle the LRU of the vertices used so far is kept as in Forsyth's
 * algorithm; the vertices the rule holds get the table's place scores by their rank among
 * themselves, a vertex the rule no longer holds loses its place's score (its valence stays,
 * and its remaining triangles stay candidates for the next step, so that the order stays on
 * the surface). A vertex pushed past the LRU's places keeps the score it had until its next
 * use (the rule's 32 slots may still hold it; zeroing it there, as forsyth.c does, gave
 * -1.68% against meshoptimizer on the corpus for -1.72%). auto runs it with the tuned table
 * (gc_auto_tuned_scores), unchanged. */
#include "optimize.h"
#include "forsyth_lists.h"
#include "kerbl_machine.h"
#include "order_race.h"
#include "../models/nvidia_rule.h"
#include "../models/reuse_rule.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

bool gc_flush_rule_of(const gc_model* target, uint64_t first_index, gc_flush_rule* rule)
{
    memset(rule, 0, sizeof *rule);
    rule->first_index = first_index;
    if (target->family == GC_MODEL_ATI && target->p[0] < 16 && target->p[2] > 0) {
        rule->reset_indices = target->p[2];
        return true;
    }
    if (target->family == GC_MODEL_REUSE && target->p[0] > 0) {
        rule->warp = target->p[0];
        rule->window = target->p[1] ? target->p[1] : target->p[0];
        rule->warp_triangles = target->p[2];
        return true;
    }
    return false;
}

bool gc_flush_batch_rule_of(const gc_model* target, uint64_t first_index, gc_flush_rule* rule)
{
    memset(rule, 0, sizeof *rule);
    rule->first_index = first_index;
    gc_family_traits t;
    gc_model_traits(target, &t);
    /* seed 004's batch (slots followed as a warp of `slots` vertices, all held) gave +0.94%
       against meshoptimizer on the corpus where the plain tuned order gave -0.08%: none */
    if ((target->family == GC_MODEL_NV_DX || target->family == GC_MODEL_NV_GL) && t.piece_vertices > 0) {
        rule->warp = rule->window = t.piece_vertices;
        rule->warp_triangles = t.piece_triangles;
        /* nv-gl's window (p[2]); nv-dx's is 39 to 44 by the slot of the last use
           (kerbl_batch.c's dx_cached): 42 in the order builder, the model counts */
        rule->window_indices = target->family == GC_MODEL_NV_GL ? target->p[2] : 42;
        if (rule->window_indices == 0) /* nv-gl:window=0 holds nothing: the warp's rule, no window */
            rule->window = 0;
        return true;
    }
    return false;
}

const gc_forsyth_scores* gc_flush_scores(const gc_model* target, gc_forsyth_scores* own)
{
    if (target->family != GC_MODEL_ATI || target->p[0] != 15)
        return &gc_auto_tuned_scores;
    /* ati-basic's LRU of 15 between its resets: lru:16's own table (gc_family_traits), which
     * took it from -0.88% to -1.04% against meshoptimizer on the corpus; for an LRU of 14
     * (radeonsi-polaris-tess-odd) it gave -0.01%, the tuned table -0.94% */
    const gc_model lru = {GC_MODEL_LRU, {16, 0, 0}, "lru:16"};
    gc_family_traits t;
    gc_model_traits(&lru, &t);
    return gc_family_forsyth_scores(&t, own);
}

/* The table and the batches' growth for nv-dx and nv-gl (--effort 1). The table was auto's
 * tuned table (score_table.c) tuned again with the batches followed (steps of 0.15 down to
 * 0.05, on ogre, stanford-bunny, rocker-arm, fandisk, spot, alligator and suzanne; nv-dx
 * -2.54%, nv-gl -2.56% on the corpus against meshoptimizer's order). With the growth both were
 * tuned together (bench/tune_flush.c --half even --subdivide 1 --target nv-dx: coordinate
 * descent, steps 0.1 then 0.05, from that table and a guess of {0.3, 0.07, 10}), half the
 * objective from alligator, cheburashka, fandisk, igea, rocker-arm, stanford-bunny and teapot,
 * half from igea subdivided once, stored and shuffled: those -2.27% -> -3.04%, the subdivided
 * igea -1.94% -> -3.43%, the held-out half -2.81% -> -2.74% (docs/optimizers/auto.md). Its
 * changes: places 3 and 15 and a vertex's last triangle lower, places 10 and 11 and 3
 * remaining triangles higher, the vertices of 8 or more lower. */
const gc_flush_growth gc_flush_batch_growth = {0.2f, 0.05f, 9.0f};

const gc_forsyth_scores gc_flush_batch_scores = {
    16, 9,
    {0.779f, 0.791f, 0.789f, 0.881f, 0.843f, 0.826f, 0.847f, 0.832f, 0.867f, 0.876f, 0.842f, 0.810f, 0.700f, 0.525f,
     0.332f, 0.177f},
    {0.0f, 0.818f, 0.713f, 0.550f, 0.304f, 0.059f, 0.005f, 0.147f, 0.309f}};

/* A large, finely tessellated surface (GC_FLUSH_FINE_TRIANGLES triangles or more; no mesh of
 * the corpus has as many): its own table and growth. First tuned on igea subdivided once
 * (tune_flush --fine), then again without igea (tune_flush --half all --fine --subdivide 2
 * --from-level 2, steps 0.025 on ogre and stanford-bunny subdivided twice with nv-dx, then
 * 0.0125 with ogre, stanford-bunny and beetle-alt subdivided twice, both targets), igea held
 * out: the 4.3M igea -3.73% -> -3.76%, ogre, stanford-bunny, beetle-alt and rocker-arm
 * subdivided twice -3.68%, -3.70%, -3.62%, -3.68% -> -3.74%, -3.71%, -3.69%, -3.71%
 * (docs/optimizers/auto.md). FINE_TABLE */
const gc_flush_growth gc_flush_fine_growth = {0.1875f, 0.0375f, 9.0f};

const gc_forsyth_scores gc_flush_fine_scores = {
    16, 9,
    {0.779f, 0.766f, 0.7765f, 0.881f, 0.843f, 0.826f, 0.897f, 0.882f, 0.867f, 0.8635f, 0.842f, 0.760f, 0.750f,
     0.475f, 0.3445f, 0.202f},
    {0.0f, 0.868f, 0.713f, 0.5375f, 0.304f, 0.059f, 0.005f, 0.147f, 0.309f}};

/* The batch table on a large mesh: the fine table and growth (picked here, so that effort 1's
 * order and the default's job run the same table; from that size effort 1 then gives the
 * batch greedy the tail, flush_tail.c, and the default does not score that order). */
static const gc_forsyth_scores* batch_scores(const gc_forsyth_scores* scores, size_t triangle_count,
                                             const gc_flush_growth** growth)
{
    *growth = &gc_flush_batch_growth;
    if (scores != &gc_flush_batch_scores || triangle_count < GC_FLUSH_FINE_TRIANGLES)
        return scores;
    *growth = &gc_flush_fine_growth;
    return &gc_flush_fine_scores;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A vertex: its remaining triangles and its list's mark (forsyth_lists.h); told of the nvidia
 * rule, its state under the rule follows in the same 16-byte record (the triangle's corners
 * read both). */
typedef gc_forsyth_vertex flush_vertex;
typedef struct nv_vertex {
    flush_vertex f;
    gc_nv_vertex rule;
} nv_vertex;
/* Growing a batch (nv-dx, nv-gl), in the record that the cache's update reads anyway: the
 * number of the batch that last referenced the vertex (modulo 2^24) and its distance there
 * from the batch's first triangle (0 for that triangle's corners, else 1 more than the
 * nearest corner of the triangle that brought it; at most 255) in one word, and the low 32
 * bits of its stamp (warp_state's), so that the update reads no other array by vertex. */
typedef struct grow_vertex {
    flush_vertex f;
    uint32_t mark; /* batch << 8 | distance */
    uint32_t last;
} grow_vertex;

/* The warp of a reuse rule followed along the order: each vertex's stamp when it joined
 * (0: never), the stamps given so far, the warp's first stamp, its vertices and triangles. */
typedef struct warp_state {
    uint64_t* stamp;
    uint64_t added, start;
    uint32_t fill, triangles;
} warp_state;

/* Kerbl et al.'s batches (window_indices): the stamp is the index position (from 1) of the
 * vertex's last reference, hit or miss; a corner hits while its vertex was referenced in
 * the batch at most window_indices indices back (kerbl_rule.h's window in nv-gl's form:
 * nv-dx's, 39 to 44 by slot, taken as 42); the batch ends before a triangle whose misses
 * would take it past `warp` vertices or after warp_triangles triangles. */
static inline bool batch_holds(const warp_state* w, const gc_flush_rule* r, uint32_t v, uint64_t at)
{
    const gc_kerbl_rule window = {GC_KERBL_GL, r->window_indices, 0, 0, 0};
    return w->stamp[v] > w->start && gc_kerbl_cached(&window, (uint32_t)at, (uint32_t)w->stamp[v]);
}

static bool batch_feed(warp_state* w, const gc_flush_rule* r, const uint32_t* tv)
{
    const uint64_t pos = w->added + 1; /* the triangle's first corner's stamp */
    uint32_t misses = 0;
    for (int c = 0; c < 3; ++c)
        misses += !(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]) &&
                  !batch_holds(w, r, tv[c], pos + (uint64_t)c);
    if ((r->warp_triangles && w->triangles == r->warp_triangles) || w->fill + misses > r->warp) {
        w->start = w->added, w->fill = 0, w->triangles = 0;
        misses = 0;
        for (int c = 0; c < 3; ++c)
            misses += !(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]);
    }
    for (int c = 0; c < 3; ++c)
        w->stamp[tv[c]] = pos + (uint64_t)c;
    w->added += 3;
    w->fill += misses;
    w->triangles++;
    return (r->warp_triangles && w->triangles == r->warp_triangles) || w->fill + 2 > r->warp;
}

/* Whether vertex v hits in the reuse warp (reuse_rule.h): it joined this warp (after its first
 * stamp) and fewer than the window joined after it. */
static inline bool warp_holds(const warp_state* w, const gc_flush_rule* r, uint32_t v)
{
    return w->stamp[v] > w->start && gc_reuse_in_window(w->added - w->stamp[v], r->window);
}

/* Feeds triangle tv to the warp; true when the next triangle will (or likely will) start a new one. */
static bool warp_feed(warp_state* w, const gc_flush_rule* r, const uint32_t* tv)
{
    uint32_t u[3], n = 0, misses = 0;
    for (int c = 0; c < 3; ++c)
        if (!(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]))
            u[n++] = tv[c];
    for (uint32_t k = 0; k < n; ++k)
        misses += !warp_holds(w, r, u[k]);
    if (gc_reuse_flushes(w->triangles, r->warp_triangles, w->fill, misses, r->warp))
        w->start = w->added, w->fill = 0, w->triangles = 0;
    for (uint32_t k = 0; k < n; ++k)
        if (!warp_holds(w, r, u[k]))
            w->stamp[u[k]] = ++w->added, w->fill++;
    w->triangles++;
    return gc_reuse_flushes(w->triangles, r->warp_triangles, w->fill, 2, r->warp);
}

/* The order, with the flushes of `rule` or (`nv`) the nvidia rule of `target` from primitive
 * `first_primitive` on. Inlined into each entry point, so that each keeps only its own tests
 * and its own record size. */
static ALWAYS_INLINE gc_status forsyth_told(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                            const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                            const gc_flush_growth* growth, const bool nv, const gc_model* target,
                                            uint64_t first_primitive, const gc_model* kerbl, uint64_t* invocations,
                                            gc_order_race* race, size_t head, size_t* placed, uint32_t* order,
                                            gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    const uint32_t cache_size = scores->cache_size;
    if (gc_forsyth_scores_check(scores, err))
        return GC_ERR_USAGE;
    if (nv && (target->family != GC_MODEL_NVIDIA || target->p[0] < 3))
        return gc_fail(err, GC_ERR_USAGE, "forsyth: the nvidia order takes an nvidia target of 3 entries or more");
    gc_nv_fill fill = gc_nv_fill_of(nv ? target->p[0] : 0, nv ? target->p[1] : 0, nv ? target->p[2] : 0);
    /* Everything in one block (8-byte words: the emitted flags, the warp's stamps, the
     * adjacency's counts and the vertex records, zeroed but for the plain records, which are
     * set below; then the lists and 8 zeroed entries past them (read by the lists' steps,
     * forsyth_lists.h, never kept), the scores, the dead ends and a step's candidates), so
     * that a caller's next call gets it back whole from the allocator instead of fresh pages:
     * with the pieces apart, glibc gave the heap's top back on every call on a large mesh (as
     * score_table.c and auto_fast.c found). */
    if (triangle_count > SIZE_MAX / 64)
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory for %zu triangles and %u vertices", triangle_count,
                       vertex_count);
    /* the open batch's growth (nv-dx, nv-gl): its marks in 16-byte records (grow_vertex) */
    const bool grow = !nv && growth && rule->warp && rule->window_indices && rule->warp_triangles &&
                      rule->warp_triangles < triangle_count; /* a list one batch holds: Forsyth's order */
    const size_t stride = nv ? sizeof(nv_vertex) : grow ? sizeof(grow_vertex) : sizeof(flush_vertex);
    const size_t vn = vertex_count ? vertex_count : 1;
#define WORDS8(bytes) (((bytes) + 7) / 8)
    const size_t emitted_w = (triangle_count + 63) / 64, stamp_w = !nv && rule->warp ? vn : 0;
    const size_t records_w = WORDS8(vn * stride), offsets_w = WORDS8(((size_t)vertex_count + 1) * 4);
    /* kerbl (nv-dx or nv-gl): its machine's words, 2 per vertex, fed as the order is emitted */
    const size_t kerbl_w = kerbl ? WORDS8((2 * vn + 2) * 4) : 0;
    const size_t zeroed_w = emitted_w + stamp_w + offsets_w + kerbl_w + (nv || grow ? records_w : 0);
    const size_t lists_w = WORDS8((triangle_count * 3 + 8) * 4), vscore_w = WORDS8(vn * 4);
    const size_t dead_w = WORDS8(triangle_count * 3 * 4);
    const size_t cand_w = WORDS8(((size_t)cache_size * GC_FORSYTH_SCAN + 8) * 4);
    uint64_t* block = gc_alloc_array(
        emitted_w + stamp_w + offsets_w + kerbl_w + records_w + lists_w + vscore_w + dead_w + cand_w, 8, false);
#undef WORDS8
    if (!block)
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory for %zu triangles and %u vertices", triangle_count,
                       vertex_count);
    memset(block, 0, zeroed_w * 8);
    uint64_t* emitted = block;
    warp_state warp = {stamp_w ? emitted + emitted_w : NULL, 0, 0, 0, 0};
    uint32_t batch = 1; /* the open batch's number (marks of 0: none) */
    const gc_kerbl_rule window = {GC_KERBL_GL, rule ? rule->window_indices : 0, 0, 0, 0};
    float distance_cost[256]; /* growth: what a distance of d costs */
    for (uint32_t d = 0; grow && d < 256; ++d)
        distance_cost[d] = growth->distance * ((float)d < growth->distance_max ? (float)d : growth->distance_max);
    gc_adjacency adj;
    adj.offsets = (uint32_t*)(void*)(block + emitted_w + stamp_w);
    gc_kerbl_machine machine = {{GC_KERBL_DX, 0, 0, 0, 0}, NULL, 1, 0, 0, 0, 0};
    if (kerbl)
        machine = gc_kerbl_machine_of(kerbl, (uint32_t*)(void*)(block + emitted_w + stamp_w + offsets_w));
    char* records = (char*)(block + emitted_w + stamp_w + offsets_w + kerbl_w);
    adj.triangles = (uint32_t*)(void*)(block + emitted_w + stamp_w + offsets_w + kerbl_w + records_w);
    float* vscore = (float*)(void*)(block + emitted_w + stamp_w + offsets_w + kerbl_w + records_w + lists_w);
    uint32_t* dead_end =
        (uint32_t*)(void*)(block + emitted_w + stamp_w + offsets_w + kerbl_w + records_w + lists_w + vscore_w);
    uint32_t* cand = dead_end + 2 * dead_w;
    memset(adj.triangles + 3 * triangle_count, 0, 8 * sizeof *adj.triangles);
    gc_adjacency_fill(indices, triangle_count, vertex_count, adj.offsets, adj.triangles);
#define VERT(v) ((flush_vertex*)(records + (size_t)(v) * stride))
#define RULE(v) (&((nv_vertex*)(void*)records)[v].rule)
#define MARK(v) ((grow_vertex*)(void*)(records + (size_t)(v) * stride))
    uint32_t* list = adj.triangles;
    const uint32_t* list_start = adj.offsets;
    const uint32_t live_max = scores->live_count - 1;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        const uint32_t live = list_start[v + 1] - list_start[v];
        VERT(v)->live = live;
        VERT(v)->listed = gc_forsyth_listed(live, cache_size);
        vscore[v] = live == 0 ? -1.0f : scores->live[live < live_max ? live : live_max];
    }
    uint32_t caches[2][GC_FORSYTH_MAX_CACHE + 3], scan[GC_FORSYTH_MAX_CACHE + 3];
    uint32_t *cache = caches[0], *next_cache = caches[1];
    float position_score[GC_FORSYTH_MAX_CACHE + 4];
    for (uint32_t k = 0; k < cache_size + 4; ++k)
        position_score[k] = k < cache_size ? scores->position[k] : 0.0f;
    uint32_t cache_count = 0;
    size_t cursor = 0, written = 0, dead_top = 0;
    int64_t best = gc_forsyth_first(indices, triangle_count, vscore);
    unsigned mark = 0; /* the race's next mark (order_race.h) */
    size_t mark_at = race ? race->at[0] : SIZE_MAX;
    bool gave_up = false;
    while (best >= 0) {
        const uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * t;
        const uint64_t prim = first_primitive + written;
        emitted[t / 64] |= 1ull << (t % 64);
        order[written++] = t;
        if (kerbl)
            gc_kerbl_machine_add(&machine, tv);
        if (written == mark_at) {
            /* chasing, only before `head`: past it the batch greedy's tail is not this order's
               to give up (a mark there, reached where no batch fills to the index limit) */
            if (!race->batch_leads)
                gc_order_race_post(race, mark, machine.invocations);
            else if (written < head && (gave_up = gc_order_race_trails(race, mark, machine.invocations)))
                break; /* it trails the batch greedy: given up (order_race.h) */
            mark_at = ++mark < GC_RACE_MARKS ? race->at[mark] : SIZE_MAX;
        }
        if (written >= head && machine.cbatch + 3 > machine.rule.max_indices)
            break; /* (kerbl) the batch is full: what follows opens one of its own (flush_tail.c) */
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        gc_forsyth_emit(list, list_start, records, stride, tv, t);
        uint32_t u[3];
        const unsigned un = gc_nv_distinct3(tv, u);
        /* whether the target empties its cache before the next triangle; the nvidia rule fed
         * the triangle */
        bool flush = false;
        if (nv) {
            gc_nv_vertex* corner[3] = {RULE(u[0]), RULE(u[un > 1 ? 1 : 0]), RULE(u[un > 2 ? 2 : 0])};
            gc_nv_fill_feed(&fill, corner, un, prim);
        } else if (rule->reset_indices) {
            const uint64_t next = rule->first_index + 3 * (uint64_t)written; /* > 0 */
            flush = next % rule->reset_indices == 0;
        } else if (grow) {
            const uint64_t start = warp.start;
            flush = batch_feed(&warp, rule, tv);
            batch += warp.start != start; /* the triangle opened a batch */
            /* its new vertices' distance: 1 more than its nearest corner the batch referenced */
            const uint32_t key = batch << 8;
            uint32_t near = 256; /* none */
            for (int c = 0; c < 3; ++c) {
                const uint32_t m = MARK(tv[c])->mark;
                near = (m & ~0xFFu) == key && (m & 0xFFu) < near ? m & 0xFFu : near;
            }
            const uint32_t fresh = key | (near == 256 ? 0 : near < 255 ? near + 1 : 255);
            for (int c = 0; c < 3; ++c) {
                grow_vertex* g = MARK(tv[c]);
                g->mark = (g->mark & ~0xFFu) == key ? g->mark : fresh;
                g->last = (uint32_t)warp.stamp[tv[c]];
            }
            batch += flush; /* the next triangle likely opens one */
        } else if (rule->warp) {
            flush = rule->window_indices ? batch_feed(&warp, rule, tv) : warp_feed(&warp, rule, tv);
        }
        /* LRU update: the triangle's vertices first, then the old order */
        uint32_t n = 0;
        for (uint32_t k = 0; k < un; ++k)
            next_cache[n++] = u[k];
        for (uint32_t k = 0; k < cache_count; ++k) { /* without a branch: which entries go is hard to foresee */
            const uint32_t v = cache[k];
            next_cache[n] = v;
            n += (v != tv[0]) & (v != tv[1]) & (v != tv[2]);
        }
        uint32_t live_cached = 0, place = 0;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t v = next_cache[k], live = VERT(v)->live;
            float p;
            if (nv) {
                /* the place among the vertices the rule holds; 0 for the others */
                const bool held = gc_nv_holds(&fill, RULE(v), prim + 1) && fill.next < fill.size;
                p = position_score[held ? place : cache_size];
                place += held;
            } else {
                /* after a flush: no place in the cache, the valence only */
                p = flush ? 0.0f : position_score[k];
                if (grow) {
                    /* the batch's own terms: held (the window of batch_feed), and near its start;
                     * chosen without a branch (a term of 0 leaves p as it is; whether a vertex is
                     * in the batch, or has triangles left, is hard to foresee, and one without
                     * scores -1 whatever) */
                    const grow_vertex* g = MARK(v);
                    const bool in = (g->mark & ~0xFFu) == batch << 8 && !flush;
                    const bool held = in & gc_kerbl_cached(&window, (uint32_t)(warp.added + 1), g->last);
                    p += held ? growth->held : 0.0f;
                    p -= in ? distance_cost[g->mark & 0xFFu] : 0.0f;
                }
            }
            vscore[v] = gc_forsyth_score_live(p + scores->live[live < live_max ? live : live_max], live);
            scan[live_cached] = v;
            live_cached += (live != 0) & (k < cache_size);
        }
        cache_count = flush ? 0 : (n < cache_size ? n : cache_size);
        uint32_t* swap = cache;
        cache = next_cache, next_cache = swap;
        /* the next triangle: the best among those vertices' remaining triangles, else a dead
           end's (forsyth_lists.h) */
        uint32_t scan_start[GC_FORSYTH_MAX_CACHE + 3];
        gc_forsyth_scan_starts(scan, live_cached, list_start, list, scan_start);
        const uint32_t count =
            gc_forsyth_candidates(scan, live_cached, scan_start, list, records, stride, emitted, cand);
        /* (the batch's distance may take a candidate below -1) */
        best = gc_forsyth_best(cand, count, indices, vscore, grow ? -FLT_MAX : -1.0f);
        if (best < 0)
            best = gc_forsyth_dead_end(dead_end, &dead_top, list, list_start, records, stride, emitted);
        if (best < 0) {
            while (cursor < triangle_count && (emitted[cursor / 64] >> (cursor % 64) & 1))
                ++cursor;
            if (cursor < triangle_count)
                best = (int64_t)cursor;
        }
    }
#undef VERT
#undef RULE
#undef MARK
    free(block);
    if (kerbl)
        *invocations = machine.invocations;
    if (placed)
        *placed = written;
    if (written != triangle_count && written < head && !gave_up)
        return gc_fail(err, GC_ERR_DATA, "forsyth: emitted %zu of %zu triangles", written, triangle_count);
    return GC_OK;
}

gc_status gc_opt_forsyth_flush(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_forsyth_scores* scores, const gc_flush_rule* rule, uint32_t* order,
                               gc_error* err)
{
    /* the batches' growth in a copy of its own, so that the other rules' loop is without it */
    if (rule->window_indices) {
        const gc_flush_growth* growth;
        scores = batch_scores(scores, triangle_count, &growth);
        return forsyth_told(indices, triangle_count, vertex_count, scores, rule, growth, false, NULL, 0, NULL, NULL,
                            NULL, SIZE_MAX, NULL, order, err);
    }
    return forsyth_told(indices, triangle_count, vertex_count, scores, rule, NULL, false, NULL, 0, NULL, NULL, NULL,
                        SIZE_MAX, NULL, order, err);
}

gc_status gc_opt_forsyth_flush_grown(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                     const gc_flush_growth* growth, uint32_t* order, gc_error* err)
{
    return forsyth_told(indices, triangle_count, vertex_count, scores, rule, growth, false, NULL, 0, NULL, NULL, NULL,
                        SIZE_MAX, NULL, order, err);
}

gc_status gc_opt_forsyth_flush_kerbl(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                     const gc_model* target, uint32_t* order, uint64_t* invocations, gc_error* err)
{
    return gc_opt_forsyth_flush_kerbl_race(indices, triangle_count, vertex_count, scores, rule, target, NULL, order,
                                           invocations, err);
}

gc_status gc_opt_forsyth_flush_kerbl_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                          const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                          const gc_model* target, gc_order_race* race, uint32_t* order,
                                          uint64_t* invocations, gc_error* err)
{
    size_t placed;
    return gc_opt_forsyth_flush_kerbl_head(indices, triangle_count, vertex_count, scores, rule, target, race, SIZE_MAX,
                                           order, invocations, &placed, err);
}

gc_status gc_opt_forsyth_flush_kerbl_head(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                          const gc_forsyth_scores* scores, const gc_flush_rule* rule,
                                          const gc_model* target, gc_order_race* race, size_t head, uint32_t* order,
                                          uint64_t* invocations, size_t* placed, gc_error* err)
{
    if (target->family != GC_MODEL_NV_DX && target->family != GC_MODEL_NV_GL)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: '%s' is not nv-dx or nv-gl", target->name);
    *invocations = 0;
    *placed = 0;
    const gc_flush_growth* growth;
    scores = batch_scores(scores, triangle_count, &growth);
    return forsyth_told(indices, triangle_count, vertex_count, scores, rule, growth, false, NULL, 0, target,
                        invocations, race, head, placed, order, err);
}

gc_status gc_opt_forsyth_nvidia(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, const gc_model* target, uint64_t first_primitive,
                                uint32_t* order, gc_error* err)
{
    return forsyth_told(indices, triangle_count, vertex_count, scores, NULL, NULL, true, target, first_primitive, NULL,
                        NULL, NULL, SIZE_MAX, NULL, order, err);
}
