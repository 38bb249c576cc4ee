// SPDX-License-Identifier: MIT
/* The batch greedy's parts (Kerbl et al.'s gbatch, batch_greedy.c), each stated once for its
 * machine-driven form (batch_greedy.c, any batch family) and its form with nv-dx's and nv-gl's
 * machine written into the loop (batch_greedy_kerbl.c): the setup, the pick, the cold queue,
 * the distance records (stored by slot, GB:399-430 in vector lanes), the held vertices
 * (GB:444-451 given the machine's answer), and the step's GB:321-397 and GB:460-498 given
 * each form's score change (score_change_fn). Both give the same orders. */
#ifndef GPUCACHE_BATCH_GREEDY_PARTS_H
#define GPUCACHE_BATCH_GREEDY_PARTS_H

#include "optimize.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BATCH_GREEDY_MAX_VALENCE 64
#define BATCH_GREEDY_MAX_HELD 256     /* vertices a batch (or ATI's LRU) holds */
#define BATCH_GREEDY_MAX_INDICES 2048 /* indices in a batch (ATI: between hard resets) */
#define STILL_HELD 4                  /* held vertices in a row that end a step's check */

/* The distance entries (GB:155-160's DistanceInformation). Their keys are the triangles
 * placed since the batch was last taken as ended, at most a batch's triangles (and the one
 * placed whatever the machine said): each gets a slot, its rank since then, and an entry
 * holds per slot the distance (0 = none) and the slots it met directly, in fixed-size records
 * (no hash maps, no allocation per entry). The distances are stored by slot: slot k's column
 * holds every record's distance to slot k side by side, so that GB:399-430's least distances
 * are taken for all records at once, in vector lanes (dist_through). A record's number is the
 * lowest one free (a bit set of those in use), so the columns stay short (some tens). */
typedef struct dist_info {
    uint32_t accumulated;
    uint32_t owner;        /* its triangle */
    uint32_t direct_count; /* slots in its direct list */
} dist_info;

/* The remaining triangles by (score, then the lower number), in two queues over the
 * triangles' scores. "Hot": those whose score changed since the batch was last taken as ended (around
 * the batch), a heap of (score, triangle) entries; a changed score pushes a new entry, and an
 * entry whose score is no longer its triangle's, or whose triangle is no longer hot, is
 * stale (dropped when it comes to the top; the heap is emptied when the batch ends). "Cold":
 * the others, whose score is the valence term alone (valence x the sum of their vertices'
 * remaining triangles: the batch's scores are taken back when it ends) and does not move
 * while they are cold, in buckets by that sum, each the setup's triangles of that sum in
 * increasing number (a run read from its front) and a heap of triangle numbers for those
 * that came back cold since, an entry stale once its triangle is hot or placed or in another
 * bucket (a triangle back in the bucket of its run entry is in both: either entry gives it).
 * The best is the better of the two tops under the same total order, as in one heap, but a
 * step moves entries of a small heap only, and memory stays at a few words per triangle. */
#define COLD_BUCKETS (3 * BATCH_GREEDY_MAX_VALENCE + 1)
#define MAX_RECORDS ((1u << 24) - 1) /* distance records, numbered in 24 bits */

typedef struct bucket {
    uint32_t* run;  /* the setup's triangles of the bucket, in increasing number */
    size_t run_at, run_size;
    uint32_t* heap; /* triangle numbers back cold since, the lowest on top */
    size_t size, capacity;
} bucket;

typedef struct hot_entry {
    int32_t score;
    uint32_t triangle;
} hot_entry;

enum { COLD, HOT, PLACED };

/* Per triangle, in one place: a step reads them together. */
typedef struct tri_info {
    int32_t score;
    union {
        int32_t pend;    /* the step's score change so far (batch_greedy.c) */
        uint32_t hot_at; /* its place among the hot triangles (batch_greedy_kerbl.c) */
    };
    uint32_t slot : 24;           /* 1 + its distance record, 0 = none */
    uint32_t batch_count : 2;     /* its cached corners (GB's activeBatchEntries), at most 3 */
    uint32_t state : 2;           /* COLD, HOT, PLACED */
    uint32_t mark : 1;            /* in the step's list of changes (or kept, in a compaction) */
} tri_info;

/* Per vertex, in one place: a step reads them together. */
typedef struct batch_vertex {
    uint32_t start;     /* its triangles' list in adj */
    uint32_t remaining; /* its remaining triangles, first in the list */
} batch_vertex;

typedef struct greedy {
    tri_info* tri;
    batch_vertex* vert;
    uint32_t* adj;
    const uint32_t* indices;
    bucket cold[COLD_BUCKETS]; /* by the sum of remaining triangles (or its reverse) */
    uint32_t cold_lowest;      /* no bucket before it holds a live entry */
    int32_t valence_weight;
    hot_entry* hot; /* batch_greedy.c: a heap */
    size_t hot_size, hot_capacity;
    uint32_t* pend; /* batch_greedy.c: the triangles of the step's score changes */
    size_t pend_count, pend_capacity;
    uint32_t* hot_tri; /* batch_greedy_kerbl.c: the hot triangles, densely, */
    int64_t* hot_key;  /* and their keys: score x 2^32 + (2^32 - 1 - triangle) */
    uint32_t cap;     /* slots per record */
    uint32_t stride;  /* records per column: a multiple of 64 (0 before the first) */
    dist_info* info;  /* per record */
    uint16_t* dist;   /* cap columns of stride distances: slot k's to record r at k * stride + r */
    uint16_t* direct; /* per record, cap slots */
    uint64_t* live;   /* stride / 64 words: the records in use */
    uint16_t* least;  /* stride lanes: dist_through's least distances */
} greedy;

/* A remaining triangle's score change in a step (each greedy its own: batch_greedy.c sums a
 * step's changes, batch_greedy_kerbl.c applies them at once); `hot`: its state is HOT, read by
 * the caller before it wrote the flags' word. False when out of memory. */
typedef bool (*score_change_fn)(greedy* g, uint32_t t, int32_t delta, bool hot);

static inline uint16_t* dist_col(const greedy* g, uint32_t slot)
{
    return g->dist + (size_t)slot * g->stride;
}

static inline uint32_t dist_of(const greedy* g, uint32_t t)
{
    return g->tri[t].slot ? (uint32_t)g->tri[t].slot - 1u : UINT32_MAX;
}

/* Room for twice the records (64 at first), the columns moved to the wider stride. */
static inline bool dist_grow(greedy* g)
{
    const uint32_t old = g->stride, c = old ? 2 * old : 64;
    if (c > MAX_RECORDS) /* record r is slot r + 1 in 24 bits; beyond any batch's neighbourhood: not reached */
        return false;
    dist_info* info = realloc(g->info, c * sizeof *info);
    if (info)
        g->info = info;
    uint16_t* direct = realloc(g->direct, (size_t)c * g->cap * sizeof *direct);
    if (direct)
        g->direct = direct;
    uint64_t* live = realloc(g->live, c / 64 * sizeof *live);
    if (live)
        g->live = live;
    uint16_t* least = realloc(g->least, c * sizeof *least);
    if (least)
        g->least = least;
    uint16_t* dist = gc_alloc_array((size_t)c * g->cap, sizeof *dist, true);
    if (!info || !direct || !live || !least || !dist) {
        free(dist);
        return false;
    }
    for (uint32_t k = 0; old && k < g->cap; ++k)
        memcpy(dist + (size_t)k * c, g->dist + (size_t)k * old, old * sizeof *dist);
    memset(live + old / 64, 0, (c - old) / 64 * sizeof *live);
    free(g->dist);
    g->dist = dist;
    g->stride = c;
    return true;
}

/* A record for triangle t (the lowest free), its distances not set (dist_meet sets them up
 * to the open slot); UINT32_MAX when out of memory. */
static inline uint32_t dist_new(greedy* g, uint32_t t)
{
    uint32_t w = 0;
    while (w < g->stride / 64 && g->live[w] == UINT64_MAX)
        ++w;
    if (w == g->stride / 64 && !dist_grow(g))
        return UINT32_MAX;
    const uint32_t r = 64 * w + (uint32_t)__builtin_ctzll(~g->live[w]);
    g->live[w] |= 1ull << (r % 64);
    g->info[r] = (dist_info){0, t, 0};
    g->tri[t].slot = r + 1;
    return r;
}

/* Slot sb opens: no record has a distance to it yet. */
static inline void dist_open_slot(greedy* g, uint32_t sb)
{
    memset(dist_col(g, sb), 0, g->stride * sizeof *g->dist);
}

/* gbatch's distance step for a triangle `face` that a corner of the step's best meets, the
 * open batch at step sb (GB:321-397): with a record (*d), sb is linked to it directly if it
 * was not (the triangle one step nearer: 1 more accumulated); without one, a new record (*d)
 * whose distances are those of the best's record `mine` one step further (none without it),
 * sb direct, its accumulated distance my_distance + batch_indices / 3 (1 without `mine`).
 * *added: the accumulated distance the step added (0: sb was already linked). False when out
 * of memory. */
static inline bool dist_meet(greedy* g, uint32_t face, uint32_t* d, uint32_t sb, uint32_t mine, uint32_t my_distance,
                             uint32_t batch_indices, uint32_t* added)
{
    if (*d != UINT32_MAX) {
        /* without a branch: a record already linked to sb was linked in this step, its last
           direct slot sb, rewritten */
        uint16_t* at = dist_col(g, sb) + *d;
        dist_info* x = &g->info[*d];
        const uint32_t link = !*at;
        g->direct[(size_t)*d * g->cap + x->direct_count - 1 + link] = (uint16_t)sb;
        x->direct_count += link;
        x->accumulated += link;
        *at = 1;
        *added = link;
        return true;
    }
    if ((*d = dist_new(g, face)) == UINT32_MAX)
        return false;
    const uint32_t r = *d, s = g->stride;
    uint16_t* to = g->dist + r;
    if (mine != UINT32_MAX) {
        g->info[r].accumulated = my_distance + batch_indices / 3;
        const uint16_t* from = g->dist + mine;
        for (uint32_t k = 0; k < sb; ++k) {
            const uint16_t x = from[(size_t)k * s];
            to[(size_t)k * s] = (uint16_t)(x + (x != 0)); /* none stays none */
        }
    } else {
        g->info[r].accumulated = 1;
        for (uint32_t k = 0; k < sb; ++k)
            to[(size_t)k * s] = 0;
    }
    g->direct[(size_t)r * g->cap + g->info[r].direct_count++] = (uint16_t)sb;
    to[(size_t)sb * s] = 1;
    *added = g->info[r].accumulated;
    return true;
}

static inline void dist_remove(greedy* g, uint32_t t)
{
    const uint32_t r = g->tri[t].slot - 1;
    g->live[r / 64] &= ~(1ull << (r % 64));
    g->tri[t].slot = 0;
}

/* Every record dropped (the batch taken as ended). */
static inline void dist_clear(greedy* g)
{
    for (uint32_t w = 0; w < g->stride / 64; ++w) {
        for (uint64_t bits = g->live[w]; bits; bits &= bits - 1)
            g->tri[g->info[64 * w + (uint32_t)__builtin_ctzll(bits)].owner].slot = 0;
        g->live[w] = 0;
    }
}

/* GB:399-430: every record in use other than `mine` (the step's best's) and those that met
 * the step's best directly (slot sb's distance set) gets a distance to sb: the least of its
 * distances to the slots `mine` met directly, plus 1 (none if it has none of them). Each is
 * written (sb's distance, the accumulated distance), and `changed` is called with the record's
 * triangle and gbatch's score change (distance weight x the new distance), in the records'
 * order (each change is its own: the order changes no score). The least distances and the
 * records that take one are found 8 records at a time: dist - 1 wraps a missing 0 to the
 * largest value, and the unsigned minimums are signed ones on values with the top bit flipped
 * (SSE2 has the signed ones); without SSE2, the same one record at a time. False when
 * `changed` is. */
static inline __attribute__((always_inline)) bool dist_through(greedy* g, uint32_t mine, uint32_t sb, int32_t weight,
                                                               score_change_fn changed)
{
    uint16_t* least = g->least;
    uint16_t* now = dist_col(g, sb);
    const uint16_t* direct = g->direct + (size_t)mine * g->cap;
    const uint32_t direct_count = g->info[mine].direct_count;
    for (uint32_t w = 0; w < g->stride / 64; ++w) {
        const uint64_t live = g->live[w] & ~(w == mine / 64 ? 1ull << (mine % 64) : 0);
        if (!live)
            continue;
        const uint32_t base = 64 * w, top = base + 64 - (uint32_t)__builtin_clzll(live);
        uint64_t hits = 0; /* the records of the word that take a distance */
#ifdef __SSE2__
        for (uint32_t r = base; r < top; r += 8) {
            const __m128i flip = _mm_set1_epi16(INT16_MIN), one = _mm_set1_epi16(1);
            __m128i m = _mm_set1_epi16(INT16_MAX); /* UINT16_MAX flipped */
            for (uint32_t k = 0; k < direct_count; ++k) {
                const __m128i x = _mm_loadu_si128((const __m128i*)(const void*)(dist_col(g, direct[k]) + r));
                m = _mm_min_epi16(m, _mm_xor_si128(_mm_sub_epi16(x, one), flip));
            }
            m = _mm_xor_si128(m, flip);
            _mm_storeu_si128((__m128i*)(void*)(least + r), m);
            const __m128i none = _mm_cmpeq_epi16(m, _mm_set1_epi16(-1));
            const __m128i at = _mm_loadu_si128((const __m128i*)(const void*)(now + r));
            const __m128i unmet = _mm_cmpeq_epi16(at, _mm_setzero_si128()); /* not met directly */
            const __m128i take = _mm_andnot_si128(none, unmet); /* a lane of all ones: it takes one */
            hits |= (uint64_t)_mm_movemask_epi8(_mm_packs_epi16(take, _mm_setzero_si128())) << (r - base);
        }
#else
        for (uint32_t r = base; r < top; ++r) {
            uint16_t m = UINT16_MAX;
            for (uint32_t k = 0; k < direct_count; ++k) {
                const uint16_t x = (uint16_t)(dist_col(g, direct[k])[r] - 1u);
                m = x < m ? x : m;
            }
            least[r] = m;
            hits |= (uint64_t)(m != UINT16_MAX && !now[r]) << (r - base);
        }
#endif
        for (hits &= live; hits; hits &= hits - 1) {
            const uint32_t r = base + (uint32_t)__builtin_ctzll(hits), mindist = least[r] + 2u;
            now[r] = (uint16_t)mindist;
            g->info[r].accumulated += mindist;
            const uint32_t t = g->info[r].owner;
            if (!changed(g, t, weight * (int32_t)mindist, g->tri[t].state == HOT))
                return false;
        }
    }
    return true;
}

static inline bool better(const greedy* g, uint32_t a, uint32_t b)
{
    const int32_t sa = g->tri[a].score, sb = g->tri[b].score;
    return sa > sb || (sa == sb && a < b);
}

/* ------------------------------------------------------------------ cold */

/* The bucket of a cold triangle: its sum of remaining triangles, in order of score. */
static inline uint32_t bucket_of(const greedy* g, uint32_t t)
{
    if (g->valence_weight == 0)
        return 0;
    /* gbatch's weight (-4) divided as a constant, the same quotient without a division */
    const int32_t score = g->tri[t].score;
    const uint32_t sum = (uint32_t)(g->valence_weight == -4 ? score / -4 : score / g->valence_weight);
    return g->valence_weight < 0 ? sum : COLD_BUCKETS - 1 - sum;
}

static inline void bucket_sift_down(bucket* b, size_t i)
{
    const uint32_t x = b->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= b->size)
            break;
        if (c + 1 < b->size && b->heap[c + 1] < b->heap[c])
            ++c;
        if (b->heap[c] >= x)
            break;
        b->heap[i] = b->heap[c];
        i = c;
    }
    b->heap[i] = x;
}

static inline void bucket_pop(bucket* b)
{
    b->heap[0] = b->heap[--b->size];
    if (b->size)
        bucket_sift_down(b, 0);
}

/* Drops bucket k's stale and repeated entries (a triangle back in its old bucket). */
static inline void bucket_compact(greedy* g, uint32_t k)
{
    bucket* b = &g->cold[k];
    size_t kept = 0;
    for (size_t i = 0; i < b->size; ++i) {
        const uint32_t t = b->heap[i];
        if (g->tri[t].state == COLD && !g->tri[t].mark && bucket_of(g, t) == k) {
            g->tri[t].mark = 1;
            b->heap[kept++] = t;
        }
    }
    for (size_t i = 0; i < kept; ++i)
        g->tri[b->heap[i]].mark = 0;
    b->size = kept;
    for (size_t i = kept / 2; i-- > 0;)
        bucket_sift_down(b, i);
}

/* t joins the cold triangles. Called between steps (no marks set). */
static inline bool cold_push(greedy* g, uint32_t t)
{
    const uint32_t k = bucket_of(g, t);
    bucket* b = &g->cold[k];
    g->tri[t].state = COLD;
    if (b->size == b->capacity) {
        bucket_compact(g, k);
        if (2 * b->size >= b->capacity) { /* half its entries live: grown (fewer compactions) */
            const size_t c = b->capacity + b->capacity / 2 + 64;
            uint32_t* grown = realloc(b->heap, c * sizeof *grown);
            if (!grown)
                return false;
            b->heap = grown;
            b->capacity = c;
        }
    }
    size_t i = b->size++;
    while (i > 0 && b->heap[(i - 1) / 2] > t) {
        b->heap[i] = b->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    b->heap[i] = t;
    if (k < g->cold_lowest)
        g->cold_lowest = k;
    return true;
}

/* Whether t is a cold triangle of bucket k (else its entry there is stale). */
static inline bool cold_in(const greedy* g, uint32_t t, uint32_t k)
{
    return g->tri[t].state == COLD && bucket_of(g, t) == k;
}

/* The best cold triangle (UINT32_MAX: none), stale entries dropped on the way. */
static inline uint32_t cold_top(greedy* g)
{
    for (; g->cold_lowest < COLD_BUCKETS; g->cold_lowest++) {
        const uint32_t k = g->cold_lowest;
        bucket* b = &g->cold[k];
        while (b->run_at < b->run_size && !cold_in(g, b->run[b->run_at], k))
            b->run_at++;
        while (b->size && !cold_in(g, b->heap[0], k))
            bucket_pop(b);
        const uint32_t r = b->run_at < b->run_size ? b->run[b->run_at] : UINT32_MAX;
        const uint32_t h = b->size ? b->heap[0] : UINT32_MAX;
        if (r != UINT32_MAX || h != UINT32_MAX)
            return r < h ? r : h;
    }
    return UINT32_MAX;
}
/* The step's best: the better of `hot` (the best hot triangle, UINT32_MAX: none) and the best
 * cold one. With a negative valence weight a cold triangle's score is the weight x its bucket,
 * so none is above the weight x cold_lowest: a hot score above that wins without asking the
 * cold queue (its stale entries are dropped later, as they come to its top). */
static inline uint32_t batch_greedy_pick(greedy* g, uint32_t hot)
{
    if (hot != UINT32_MAX && g->valence_weight < 0 &&
        (int64_t)g->tri[hot].score > (int64_t)g->valence_weight * g->cold_lowest)
        return hot;
    const uint32_t cold = cold_top(g);
    return hot != UINT32_MAX && (cold == UINT32_MAX || better(g, hot, cold)) ? hot : cold;
}

/* The setup (GB:183-216): each vertex's triangles (g->adj + g->vert[v].start, in order) and
 * their count (g->vert[v].remaining), the valence scores, every triangle cold. GC_ERR_LIMIT
 * for a vertex of more than BATCH_GREEDY_MAX_VALENCE triangles. The caller frees g's arrays
 * with batch_greedy_free (also on failure). */
static inline gc_status batch_greedy_setup(greedy* g, const uint32_t* indices, size_t T, uint32_t vertex_count,
                                           int32_t valence_weight, uint32_t batch_indices, gc_error* err)
{
    const size_t n = 3 * T;
    batch_vertex* vert = g->vert = gc_alloc_array(vertex_count + 1, sizeof *vert, true);
    uint32_t* adj = g->adj = gc_alloc_array(n + 1, sizeof *adj, false);
    g->tri = gc_alloc_array(T + 1, sizeof *g->tri, true);
    g->indices = indices;
    g->valence_weight = valence_weight;
    g->cold_lowest = COLD_BUCKETS;
    g->cap = batch_indices / 3 + 2;
    if (!vert || !adj || !g->tri)
        return gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for %zu triangles", T);
    for (size_t i = 0; i < n; ++i)
        vert[indices[i]].remaining++;
    uint32_t start = 0;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        if (vert[v].remaining > BATCH_GREEDY_MAX_VALENCE)
            return gc_fail(err, GC_ERR_LIMIT, "batch greedy: vertex %u has more than %d triangles", v,
                           BATCH_GREEDY_MAX_VALENCE);
        vert[v].start = start; /* the list's end while it fills */
        start += vert[v].remaining;
    }
    for (size_t i = 0; i < n; ++i)
        adj[vert[indices[i]].start++] = (uint32_t)(i / 3);
    for (uint32_t v = 0; v < vertex_count; ++v)
        vert[v].start -= vert[v].remaining;
    for (size_t t = 0; t < T; ++t) {
        const uint32_t* f = indices + 3 * t;
        g->tri[t].score =
            valence_weight * (int32_t)(vert[f[0]].remaining + vert[f[1]].remaining + vert[f[2]].remaining);
        g->cold[bucket_of(g, (uint32_t)t)].run_size++;
    }
    /* each bucket's run: its triangles in increasing number; the heaps grow as they fill */
    for (uint32_t k = 0; k < COLD_BUCKETS; ++k) {
        bucket* b = &g->cold[k];
        if (!b->run_size)
            continue;
        if (!(b->run = malloc(b->run_size * sizeof *b->run)))
            return gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for %zu triangles", T);
        b->run_size = 0;
        if (k < g->cold_lowest)
            g->cold_lowest = k;
    }
    for (size_t t = 0; t < T; ++t) {
        bucket* b = &g->cold[bucket_of(g, (uint32_t)t)];
        b->run[b->run_size++] = (uint32_t)t;
    }
    if (!dist_grow(g))
        return gc_fail(err, GC_ERR_NOMEM, "batch greedy: out of memory for distances");
    return GC_OK;
}

/* The step's best's slot, its rank among the triangles placed since the batch was last taken
 * as ended, opened (dist_open_slot). UINT32_MAX past a batch's triangles (not reached: the
 * machine holds at most a batch's triangles). */
static inline uint32_t batch_greedy_slot(greedy* g, uint32_t* slots_used)
{
    const uint32_t sb = (*slots_used)++;
    if (sb >= g->cap)
        return UINT32_MAX;
    dist_open_slot(g, sb);
    return sb;
}

/* The batch taken as ended (GB:436): its distance records dropped, its slots and indices
 * counted from 0 again (the caller sends its hot triangles back cold). */
static inline void batch_greedy_end(greedy* g, uint32_t* batch_indices, uint32_t* slots_used)
{
    dist_clear(g);
    *batch_indices = 0;
    *slots_used = 0;
}

/* The vertices of the open batch (GB's cache entries), in order of last reference, oldest
 * first: a list linked both ways through link[2v] (the one before, UINT32_MAX: v is not in
 * it) and link[2v + 1] (the one after), around the head node `head` (vertex_count), so that a
 * vertex referenced again moves to the end in a few stores; and the step's dropped vertices. */
typedef struct batch_held {
    uint32_t* link;    /* 2 (vertex_count + 1) words */
    uint32_t* removed; /* vertex_count + 1 */
    uint32_t head, removed_count;
} batch_held;

static inline void held_init(batch_held* h, uint32_t* link, uint32_t* removed, uint32_t vertex_count)
{
    h->link = link;
    h->removed = removed;
    h->head = vertex_count;
    h->removed_count = 0;
    memset(link, 0xff, 2 * (size_t)vertex_count * sizeof *link);
    link[2 * (size_t)vertex_count] = link[2 * (size_t)vertex_count + 1] = vertex_count;
}

static inline bool held_in(const batch_held* h, uint32_t v)
{
    return h->link[2 * (size_t)v] != UINT32_MAX;
}

static inline void held_unlink(batch_held* h, uint32_t v)
{
    const uint32_t before = h->link[2 * (size_t)v], after = h->link[2 * (size_t)v + 1];
    h->link[2 * (size_t)before + 1] = after;
    h->link[2 * (size_t)after] = before;
}

static inline void held_append(batch_held* h, uint32_t v)
{
    const uint32_t last = h->link[2 * (size_t)h->head];
    h->link[2 * (size_t)v] = last;
    h->link[2 * (size_t)v + 1] = h->head;
    h->link[2 * (size_t)last + 1] = v;
    h->link[2 * (size_t)h->head] = v;
}

/* Best's corners f referenced: each moves to the list's end (incache[i]: it was in it) or
 * joins it. */
static inline void held_reference(batch_held* h, const uint32_t* f, bool* incache)
{
    for (unsigned i = 0; i < 3; ++i) {
        incache[i] = held_in(h, f[i]);
        if (incache[i])
            held_unlink(h, f[i]);
        held_append(h, f[i]);
    }
}

/* Vertex v is held no more: dropped. */
static inline void held_drop(batch_held* h, uint32_t v)
{
    held_unlink(h, v);
    h->link[2 * (size_t)v] = UINT32_MAX;
    h->removed[h->removed_count++] = v;
}

/* The batch taken as ended (GB:436): every vertex dropped, from the oldest. */
static inline void held_drop_all(batch_held* h)
{
    for (uint32_t v = h->link[2 * (size_t)h->head + 1]; v != h->head;) {
        const uint32_t after = h->link[2 * (size_t)v + 1];
        h->link[2 * (size_t)v] = UINT32_MAX;
        h->removed[h->removed_count++] = v;
        v = after;
    }
    h->link[2 * (size_t)h->head] = h->link[2 * (size_t)h->head + 1] = h->head;
}

/* GB:444-451: the vertices the machine no longer holds dropped (`holds(ctx, v)`: false for
 * those). The rules drop old references first (an LRU, a batch, windows of 39 to 44 indices),
 * so the check goes from the oldest and stops after STILL_HELD held ones in a row: a few
 * checks a step, not one per vertex held (GB asks about every vertex). */
typedef bool (*held_fn)(const void* ctx, uint32_t v);
static inline __attribute__((always_inline)) void held_check(batch_held* h, held_fn holds, const void* ctx)
{
    uint32_t held_in_row = 0;
    for (uint32_t v = h->link[2 * (size_t)h->head + 1]; v != h->head && held_in_row < STILL_HELD;) {
        const uint32_t after = h->link[2 * (size_t)v + 1];
        if (holds(ctx, v)) {
            held_in_row++;
        } else {
            held_drop(h, v);
            held_in_row = 0;
        }
        v = after;
    }
}

/* GB:321-397: best (its corners f, incache[i] as held_reference said) placed at slot sb, its
 * record `mine` (UINT32_MAX: none) of accumulated distance my_distance: each remaining
 * triangle of its vertices loses a valence, gains the cache score for a corner that was not
 * held (and counts it), and meets sb (dist_meet). A vertex's list holds its remaining
 * triangles first (g->vert[v]): best's entries are taken out on the way
 * (a vertex repeated in best: its list read again, without them). False when out of memory. */
static inline __attribute__((always_inline)) bool batch_greedy_meet(greedy* g, const gc_batch_greedy_weights* w,
                                                                    uint32_t best, const uint32_t* f,
                                                                    const bool* incache, uint32_t sb, uint32_t mine,
                                                                    uint32_t my_distance, uint32_t batch_indices,
                                                                    score_change_fn changed)
{
    uint32_t live[3];
    for (unsigned t = 0; t < 3; ++t) {
        const uint32_t vid = f[t];
        batch_vertex* v = &g->vert[vid];
        uint32_t* list = g->adj + v->start;
        const unsigned first = t > 0 && vid == f[0] ? 0 : t > 1 && vid == f[1] ? 1 : t;
        const uint32_t n = first == t ? v->remaining : live[first];
        uint32_t kept = 0;
        v->remaining--;
        for (uint32_t j = 0; j < n; ++j) {
            const uint32_t face = list[j];
            if (face == best)
                continue;
            list[kept++] = face;
            uint32_t d = dist_of(g, face); /* read before the same word is written */
            const bool hot = g->tri[face].state == HOT;
            int32_t delta = -w->valence;
            if (!incache[t]) {
                delta += w->cache;
                g->tri[face].batch_count++;
            }
            if (w->distance != 0) {
                uint32_t added;
                if (!dist_meet(g, face, &d, sb, mine, my_distance, batch_indices, &added))
                    return false;
                delta += w->distance * (int32_t)added;
            }
            if (!changed(g, face, delta, hot))
                return false;
        }
        live[t] = kept;
    }
    return true;
}

/* GB:460-498: the remaining triangles of the step's dropped vertices lose the cache score of
 * each (a triangle left with no held corner loses its distance record and its score). False
 * when out of memory. */
static inline __attribute__((always_inline)) bool batch_greedy_unheld(greedy* g, const gc_batch_greedy_weights* w,
                                                                      const batch_held* h, score_change_fn changed)
{
    for (uint32_t r = 0; r < h->removed_count; ++r) {
        const batch_vertex v = g->vert[h->removed[r]];
        const uint32_t* list = g->adj + v.start;
        for (uint32_t j = 0; j < v.remaining; ++j) {
            const uint32_t face = list[j];
            const uint32_t count = g->tri[face].batch_count, slot = g->tri[face].slot;
            if (count == 0)
                continue;
            const bool hot = g->tri[face].state == HOT; /* read before the word is written */
            int32_t delta = -w->cache;
            g->tri[face].batch_count = count - 1;
            if (count == 1 && slot) {
                delta -= w->distance * (int32_t)g->info[slot - 1].accumulated;
                dist_remove(g, face);
            }
            if (!changed(g, face, delta, hot))
                return false;
        }
    }
    return true;
}

static inline void batch_greedy_free(greedy* g)
{
    free(g->vert);
    free(g->adj);
    free(g->tri);
    for (uint32_t k = 0; k < COLD_BUCKETS; ++k) {
        free(g->cold[k].run);
        free(g->cold[k].heap);
    }
    free(g->hot);
    free(g->pend);
    free(g->hot_tri);
    free(g->hot_key);
    free(g->info);
    free(g->dist);
    free(g->direct);
    free(g->live);
    free(g->least);
}

#endif
