// SPDX-License-Identifier: MIT
/* Warp refinement — gpucache's own improvement step for meshoptimizer's warp model, used by
 * `auto`.
 *
 * In meshopt:C,W,P with C >= W (NVIDIA Pascal's preset meshopt:32,32,32 among them) nothing
 * is evicted within a warp: a warp shades each of its distinct vertices once, and the
 * cost of an order is the sum over its warps of their distinct vertices. The order inside
 * a warp does not matter, only which triangles share one. So this step takes an order,
 * splits it into warps exactly as the model does, and swaps triangles between warps that
 * share vertices (a swap keeps every warp's triangle count, so the model's warp boundaries
 * mostly stay where they were; `auto` keeps the result only if the exact model agrees):
 *   - a swap is kept when it lowers the sum of distinct vertices, or leaves it and
 *     concentrates the warps' vertices (the sum over warps and vertices of the square of
 *     the vertex's corners in the warp goes up): such a swap moves a vertex's triangles
 *     together, so that a later swap can take the vertex out of a warp altogether;
 *   - no warp may hold more than W distinct vertices.
 * The pair (sum, -concentration) goes down with every swap, so the search ends. Each
 * warp is compared with at most REFINE_NEIGHBOURS later warps that its vertices' first
 * REFINE_SCAN triangles lie in, at most REFINE_ROUNDS swaps each per pass: linear time
 * per pass. (A Kernighan-Lin
 * style refinement of a partition; measured in docs/optimizers/auto.md.) */
#include "optimize.h"
#include "auto_warps.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define REFINE_SCAN 32   /* triangles of a vertex looked at for neighbouring warps */
#define REFINE_ROUNDS 8  /* swaps tried per pair of warps and pass */
#define REFINE_NEIGHBOURS 16 /* later warps compared with each warp, at most */
#define REFINE_TOUCHING 64   /* triangles of a warp that touch the other, looked at per round */
#define REFINE_MAX_WARP 65536 /* llvmpipe's segments: 341 triangles, 256 vertices */

typedef struct refine_state {
    uint32_t* order;     /* triangle ids; warp w is order[start[w] .. start[w + 1]) */
    uint32_t* corner;    /* per place in the order: its triangle's corners (swaps move them
                          * with the triangle), read in order instead of through the ids */
    uint32_t* warp;      /* per triangle: its warp (swaps update it); NULL when the
                          * neighbours are the next warps in the order (unused then) */
    uint32_t* count_a;   /* per vertex: corners in warp a (zero outside a pair's evaluation) */
    uint32_t* count_b;
    uint32_t* changed;   /* per warp: 1 + the last pass that swapped a triangle of it, 0: none */
    uint32_t pass;
} refine_state;

/* Adds (sign 1) or removes (sign -1) triangle t's corners; returns the change in distinct
 * vertices and adds the change in the sum of squared counts to *square. */
static int corners_update(uint32_t* count, const uint32_t* tv, int sign, int* square)
{
    int distinct = 0;
    for (int c = 0; c < 3; ++c) {
        uint32_t* n = &count[tv[c]];
        if (sign > 0) {
            *square += 2 * (int)*n + 1;
            distinct += (*n)++ == 0;
        } else {
            *square -= 2 * (int)*n - 1;
            distinct -= --(*n) == 0;
        }
    }
    return distinct;
}

static int warp_fill(refine_state* r, uint32_t* count, uint32_t begin, uint32_t end, int sign)
{
    int distinct = 0, square = 0;
    for (uint32_t i = begin; i < end; ++i)
        distinct += corners_update(count, r->corner + 3 * (size_t)i, sign, &square);
    return distinct;
}

/* Whether triangle tv has a corner in the warp counted by `count`. */
static bool touches(const uint32_t* count, const uint32_t* tv)
{
    return (count[tv[0]] | count[tv[1]] | count[tv[2]]) != 0; /* (no branch on the data) */
}

/* A triangle of a pair's touching lists: its corners and their counts in warps a and b, read
 * once a round (the counts do not change while the round's swaps are priced). */
typedef struct touching_tri {
    uint32_t position;
    uint32_t v[3];
    int na[3], nb[3];
} touching_tri;

static bool touching_fill(const refine_state* r, touching_tri* t, uint32_t position)
{
    const uint32_t* tv = r->corner + 3 * (size_t)position;
    t->position = position;
    for (int c = 0; c < 3; ++c) {
        t->v[c] = tv[c];
        t->na[c] = (int)r->count_a[tv[c]];
        t->nb[c] = (int)r->count_b[tv[c]];
    }
    return tv[0] == tv[1] || tv[0] == tv[2] || tv[1] == tv[2];
}

/* The change in distinct vertices of warp a (*da) and b (*db) and in the sum of squared
 * counts of both when x (in a) and y (in b) trade places: what corners_update's four calls
 * give, computed from the counts without writing them. Per vertex, with n its count in a
 * and d its corners in y less those in x: a's distinct vertices change by [n + d > 0] -
 * [n > 0], its squares by (n + d)^2 - n^2; b's likewise with -d. */
static void swap_delta(const touching_tri* x, const touching_tri* y, int* da, int* db, int* square)
{
    uint32_t u[6] = {x->v[0], x->v[1], x->v[2], y->v[0], y->v[1], y->v[2]};
    int na[6] = {x->na[0], x->na[1], x->na[2], y->na[0], y->na[1], y->na[2]};
    int nb[6] = {x->nb[0], x->nb[1], x->nb[2], y->nb[0], y->nb[1], y->nb[2]};
    int a = 0, b = 0, sq = 0;
    for (int s = 0; s < 6; ++s) {
        int d = s < 3 ? -1 : 1;
        bool first = true;
        for (int q = 0; q < s; ++q)
            first &= u[q] != u[s];
        if (!first)
            continue;
        for (int q = s + 1; q < 6; ++q)
            d += u[q] == u[s] ? (q < 3 ? -1 : 1) : 0;
        if (d == 0)
            continue;
        const int n = na[s], m = nb[s];
        a += (n + d > 0) - (n > 0);
        b += (m - d > 0) - (m > 0);
        sq += 2 * n * d - 2 * m * d + 2 * d * d;
    }
    *da = a, *db = b, *square = sq;
}

/* The touching triangles of warp b, a field an array, with each corner's share of a swap
 * (swap_delta's terms for a corner whose vertex the other triangle does not have; a
 * vertex in both triangles, once in each, has d = 0 and takes both shares back). */
typedef struct touching_set {
    uint32_t v[3][REFINE_TOUCHING];
    int ca[3][REFINE_TOUCHING], cb[3][REFINE_TOUCHING], cs[3][REFINE_TOUCHING];
    int sa[REFINE_TOUCHING], sb[REFINE_TOUCHING], ss[REFINE_TOUCHING];
    int da[REFINE_TOUCHING], db[REFINE_TOUCHING], sq[REFINE_TOUCHING];
    int32_t key[REFINE_TOUCHING]; /* the swap's score, INT32_MAX where it may not be made */
} touching_set;

/* A swap's score (fewer distinct vertices first, then more concentration: lower is better),
 * INT32_MAX where it adds distinct vertices or takes a warp past its room. It fits: |da + db|
 * <= 6 and |sq| < 2^25 for warps of REFINE_MAX_WARP triangles. */
static inline int32_t swap_key(int da, int db, int sq, int room_a, int room_b)
{
    const int bad = (da + db > 0) | (da > room_a) | (db > room_b);
    return bad ? INT32_MAX : (da + db) * (1 << 20) - sq;
}

/* A corner's shares (distinct in a, in b, squares) when its triangle leaves (sign -1, d =
 * -1 for a) or joins (sign 1) warp a. */
static inline void corner_share(int n, int m, int sign, int* ca, int* cb, int* cs)
{
    if (sign < 0)
        *ca = -(n == 1), *cb = m == 0, *cs = -2 * n + 2 * m + 2;
    else
        *ca = n == 0, *cb = -(m == 1), *cs = 2 * n - 2 * m + 2;
}

/* Up to REFINE_ROUNDS swaps between warps a and b, each the best of all pairs of their
 * triangles that touch the other warp. Returns the swaps made. Warp a's corners are counted
 * in count_a (the caller's, kept by the swaps), its distinct vertices in *distinct. */
static inline __attribute__((always_inline)) unsigned refine_pair(refine_state* r, const uint32_t* start, uint32_t a, uint32_t b, uint32_t max_vertices,
                            touching_set* set, int* distinct, int* keep_b)
{
    unsigned swaps = 0;
    const uint32_t* corner = r->corner;
    int distinct_a = *distinct;
    int distinct_b = warp_fill(r, r->count_b, start[b], start[b + 1], 1);
    for (int round = 0; round < REFINE_ROUNDS; ++round) {
        int64_t best = 0;
        uint32_t best_i = 0, best_j = 0;
        int best_da = 0, best_db = 0;
        /* the triangles of each that touch the other, at most REFINE_TOUCHING: a pair of
         * segments around one hub (a fan) would otherwise cost the product of their sizes */
        touching_tri touching_a[REFINE_TOUCHING], touching_b[REFINE_TOUCHING];
        uint32_t na = 0, nb = 0;
        bool degenerate_b = false;
        for (uint32_t i = start[a]; i < start[a + 1] && na < REFINE_TOUCHING; ++i)
            if (touches(r->count_b, corner + 3 * (size_t)i))
                touching_fill(r, &touching_a[na++], i);
        for (uint32_t j = start[b]; j < start[b + 1] && nb < REFINE_TOUCHING; ++j)
            if (touches(r->count_a, corner + 3 * (size_t)j)) {
                const touching_tri* y = &touching_b[nb];
                degenerate_b |= touching_fill(r, &touching_b[nb], j);
                set->sa[nb] = set->sb[nb] = set->ss[nb] = 0;
                for (int c = 0; c < 3; ++c) {
                    set->v[c][nb] = y->v[c];
                    corner_share(y->na[c], y->nb[c], 1, &set->ca[c][nb], &set->cb[c][nb], &set->cs[c][nb]);
                    set->sa[nb] += set->ca[c][nb], set->sb[nb] += set->cb[c][nb], set->ss[nb] += set->cs[c][nb];
                }
                nb++;
            }
        const int room_a = (int)max_vertices - distinct_a, room_b = (int)max_vertices - distinct_b;
        for (uint32_t ia = 0; ia < na; ++ia) {
            const touching_tri* x = &touching_a[ia];
            const bool degenerate = degenerate_b || x->v[0] == x->v[1] || x->v[0] == x->v[2] || x->v[1] == x->v[2];
            if (degenerate) {
                for (uint32_t ib = 0; ib < nb; ++ib) {
                    swap_delta(x, &touching_b[ib], &set->da[ib], &set->db[ib], &set->sq[ib]);
                    set->key[ib] = swap_key(set->da[ib], set->db[ib], set->sq[ib], room_a, room_b);
                }
            } else {
                int xa[3], xb[3], xs[3], sa = 0, sb = 0, ss = 0;
                for (int c = 0; c < 3; ++c) {
                    corner_share(x->na[c], x->nb[c], -1, &xa[c], &xb[c], &xs[c]);
                    sa += xa[c], sb += xb[c], ss += xs[c];
                }
                const uint32_t x0 = x->v[0], x1 = x->v[1], x2 = x->v[2];
                for (uint32_t ib = 0; ib < nb; ++ib) {
                    int da = sa + set->sa[ib], db = sb + set->sb[ib], sq = ss + set->ss[ib];
                    for (int c = 0; c < 3; ++c) {
                        const uint32_t v = set->v[c][ib];
                        /* the corner of x with this vertex, if any (x's corners differ) */
                        const int m0 = -(int)(v == x0), m1 = -(int)(v == x1), m2 = -(int)(v == x2);
                        da -= set->ca[c][ib] & (m0 | m1 | m2);
                        db -= set->cb[c][ib] & (m0 | m1 | m2);
                        sq -= set->cs[c][ib] & (m0 | m1 | m2);
                        da -= (xa[0] & m0) + (xa[1] & m1) + (xa[2] & m2);
                        db -= (xb[0] & m0) + (xb[1] & m1) + (xb[2] & m2);
                        sq -= (xs[0] & m0) + (xs[1] & m1) + (xs[2] & m2);
                    }
                    set->da[ib] = da, set->db[ib] = db;
                    set->key[ib] = swap_key(da, db, sq, room_a, room_b);
                }
            }
            /* the lowest score of the row, then its first pair (without a branch per pair):
             * the first pair of the lowest score over the rows, as a scan would keep */
            int32_t low = INT32_MAX;
            for (uint32_t ib = 0; ib < nb; ++ib)
                low = set->key[ib] < low ? set->key[ib] : low;
            if ((int64_t)low < best) {
                uint32_t ib = 0;
                while (set->key[ib] != low)
                    ++ib;
                best = low;
                best_i = x->position, best_j = touching_b[ib].position;
                best_da = set->da[ib], best_db = set->db[ib];
            }
        }
        if (best >= 0)
            break;
        int square = 0;
        const uint32_t x = r->order[best_i], y = r->order[best_j];
        uint32_t* cx = r->corner + 3 * (size_t)best_i;
        uint32_t* cy = r->corner + 3 * (size_t)best_j;
        corners_update(r->count_a, cx, -1, &square);
        corners_update(r->count_a, cy, 1, &square);
        corners_update(r->count_b, cy, -1, &square);
        corners_update(r->count_b, cx, 1, &square);
        r->order[best_i] = y, r->order[best_j] = x;
        for (int c = 0; c < 3; ++c) {
            const uint32_t t = cx[c];
            cx[c] = cy[c], cy[c] = t;
        }
        if (r->warp)
            r->warp[y] = a, r->warp[x] = b;
        if (r->changed) /* (NULL: not wanted, gc_opt_warp_refine_made) */
            r->changed[a] = r->changed[b] = r->pass + 1;
        distinct_a += best_da, distinct_b += best_db;
        swaps++;
    }
    if (keep_b) /* warp b left counted in count_b, its distinct vertices in *keep_b */
        *keep_b = distinct_b;
    else
        warp_fill(r, r->count_b, start[b], start[b + 1], -1);
    *distinct = distinct_a;
    return swaps;
}

/* Splits an order into warps as meshopt:C,W,P with C >= W does: a new warp when the current
 * one holds P triangles or the triangle's uncached corners (each corner counted, as the
 * model counts them) would take it past W vertices; a vertex is cached when it is in the
 * current warp. `corner`: each place's triangle corners, `ids` its triangle. Writes each
 * triangle's warp to warp and each warp's first position to start (start[warps] =
 * triangle_count; both may be NULL); returns the number of warps, their distinct vertices
 * in all in *cost. `stamp` (per vertex) must be zero. */
/* The split's state: warps begun, the last one's distinct vertices and triangles. */
typedef struct warp_split {
    uint32_t warps, fill, drawn;
} warp_split;

/* One place of the split (triangle tv): true when it begins a new warp; its corners' misses in
 * that warp (the distinct vertices it adds) in *added. */
static inline bool warp_split_place(warp_split* w, uint32_t* stamp, const uint32_t* tv, uint32_t max_vertices,
                                    uint32_t max_triangles, uint32_t* added)
{
    const uint32_t misses = (stamp[tv[0]] != w->warps) + (stamp[tv[1]] != w->warps) + (stamp[tv[2]] != w->warps);
    const bool begins = w->warps == 0 || w->drawn == max_triangles || w->fill + misses > max_vertices;
    if (begins)
        w->warps++, w->fill = w->drawn = 0;
    uint32_t miss = 0;
    for (int c = 0; c < 3; ++c) { /* (without a branch on the data: it is not predictable) */
        miss += stamp[tv[c]] != w->warps;
        stamp[tv[c]] = w->warps;
    }
    w->fill += miss;
    w->drawn++;
    *added = miss;
    return begins;
}

static uint32_t form_warps(const uint32_t* corner, const uint32_t* ids, size_t triangle_count, uint32_t max_vertices,
                           uint32_t max_triangles, uint32_t* stamp, uint32_t* warp, uint32_t* start, uint64_t* cost)
{
    warp_split w = {0, 0, 0};
    uint64_t filled = 0;
    for (size_t i = 0; i < triangle_count; ++i) {
        uint32_t added;
        if (warp_split_place(&w, stamp, corner + 3 * i, max_vertices, max_triangles, &added) && start)
            start[w.warps - 1] = (uint32_t)i;
        filled += added;
        if (warp)
            warp[ids[i]] = w.warps - 1;
    }
    if (start)
        start[w.warps] = (uint32_t)triangle_count;
    *cost = filled; /* the warps' distinct vertices: the model's invocations */
    return w.warps;
}

gc_status gc_opt_warp_refine(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             uint32_t max_vertices, uint32_t max_triangles, unsigned passes, uint32_t* order,
                             gc_error* err)
{
    return gc_opt_warp_refine_ex(indices, triangle_count, vertex_count, max_vertices, max_triangles, passes, 0, order,
                                 err);
}

/* Two passes of the swaps between each warp and the next k (GC_WARP_REFINE_NEXT(k), k >= 2)
 * as a pipeline on two threads (issue 33: nvidia-pascal's default chain). A pair (a, b) reads
 * and writes warps a and b only, b - a <= k, and a pass takes the warps in order; so once the
 * first pass has finished warp a + k, warps 0 .. a + k are final for it and it will touch
 * nothing below a + k + 1: the second pass may take warp a, and sees what it would see after
 * the whole first pass. Each pass counts in its own count_a, count_b; the first publishes the
 * warps it has finished (release), the second waits for them (acquire). Where the first pass
 * swaps nothing, the one-thread loop stops, and the second pass, seeing the same order,
 * swaps nothing either: the same order for every thread count. */
#define REFINE_PIPE_MIN_WARPS 256 /* below, the second thread's start costs more than it saves */

typedef struct refine_pipe {
    refine_state r[2];
    const uint32_t* start;
    uint32_t warps, reach, max_vertices; /* reach: the later warps compared with each */
    atomic_uint_least32_t done;           /* warps the first pass has finished */
} refine_pipe;

/* Warp a against warps a + 1 .. last, in order (nothing where last <= a). Inlined into its
 * callers, so that each clone (AVX2 or not) prices the swaps its own way. */
static inline __attribute__((always_inline)) void pair_pass(refine_state* r, const uint32_t* start, uint32_t a,
                                                            uint32_t last, uint32_t max_vertices, touching_set* set)
{
    if (last <= a)
        return;
    int distinct = warp_fill(r, r->count_a, start[a], start[a + 1], 1);
    for (uint32_t b = a + 1; b <= last; ++b)
        refine_pair(r, start, a, b, max_vertices, set, &distinct, NULL);
    warp_fill(r, r->count_a, start[a], start[a + 1], -1);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static gc_status refine_pipe_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    (void)worker, (void)err;
    refine_pipe* p = user;
    refine_state* r = &p->r[job];
    const uint32_t* start = p->start;
    touching_set set;
    uint32_t ready = 0;
    *units = 1;
    for (uint32_t a = 0; a < p->warps; ++a) {
        const uint32_t last = p->warps - 1 - a > p->reach ? a + p->reach : p->warps - 1;
        while (job == 1 && ready <= last) { /* the first pass past warp `last` */
            ready = (uint32_t)atomic_load_explicit(&p->done, memory_order_acquire);
            if (ready <= last)
                sched_yield();
        }
        pair_pass(r, start, a, last, p->max_vertices, &set);
        if (job == 0)
            atomic_store_explicit(&p->done, a + 1, memory_order_release);
    }
    return GC_OK;
}

/* gc_opt_warp_refine_made: the maker and the two passes as two jobs. The second job forms
 * the warps as the maker publishes the order (form_warps' scan, one place at a time, on the
 * places as the maker wrote them: a pass swaps only within warps already formed, so the warps
 * are those form_warps finds on the whole order). Its first pass takes warp a once warp
 * a + reach is whole (the next has begun) or the order has ended; after each, its second pass
 * takes the warps whose pairs the first has finished with, as refine_pipe_job's second thread
 * does: a pair (a, b) reads and writes warps a and b only, b - a <= reach, so once the first
 * pass has finished warp a + reach, warps a .. a + reach are final for it, and it will not
 * touch them again. So the two passes go along together on one thread, in the time the maker
 * leaves it, and give what the first pass then the second give. The second job waits only on
 * the first: with one thread they run in turn. */
typedef struct made_pipe {
    refine_state r[2];
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t* start;
    uint32_t* stamp;
    uint32_t max_vertices, max_triangles, reach;
    gc_order_make_fn make;
    void* make_user;
    uint32_t* made;
    gc_order_feed feed;
} made_pipe;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static gc_status made_pipe_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    (void)worker;
    made_pipe* p = user;
    *units = 1;
    if (job == 0)
        return p->make(p->make_user, p->made, &p->feed, err);
    touching_set set;
    const uint32_t reach = p->reach;
    warp_split split = {0, 0, 0}; /* form_warps' scan, one place at a time */
    uint32_t second = 0;          /* the second pass's next warp */
    size_t formed = 0, have = 0;
    bool whole = false;
    for (uint32_t a = 0;; ++a) {
        /* warps a .. a + reach formed whole: warp a + reach + 1 begun, or the order ended */
        while (!whole && split.warps <= a + reach + 1) {
            if (formed == p->triangle_count) {
                p->start[split.warps] = (uint32_t)formed;
                whole = true;
                break;
            }
            if (formed == have && (have = gc_order_feed_wait(&p->feed, formed + 1)) <= formed)
                return GC_OK; /* the maker failed: its status is the one reported */
            const uint32_t tri = p->made[formed];
            uint32_t* tv = p->r[0].corner + 3 * formed;
            memcpy(tv, p->indices + 3 * (size_t)tri, 3 * sizeof *tv);
            p->r[0].order[formed] = tri;
            uint32_t added;
            if (warp_split_place(&split, p->stamp, tv, p->max_vertices, p->max_triangles, &added))
                p->start[split.warps - 1] = (uint32_t)formed;
            formed++;
        }
        if (whole && a >= split.warps)
            break;
        pair_pass(&p->r[0], p->start, a, whole && split.warps - 1 - a <= reach ? split.warps - 1 : a + reach,
                  p->max_vertices, &set);
        /* the first pass has finished warps 0 .. a: the second takes those whose pairs it is done with */
        for (; second + reach <= a; ++second)
            pair_pass(&p->r[1], p->start, second, second + reach, p->max_vertices, &set);
    }
    for (; second < split.warps; ++second)
        pair_pass(&p->r[1], p->start, second, split.warps - 1 - second <= reach ? split.warps - 1 : second + reach,
                  p->max_vertices, &set);
    return GC_OK;
}

gc_status gc_opt_warp_refine_made(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  uint32_t max_vertices, uint32_t max_triangles, uint32_t reach, unsigned threads,
                                  gc_order_make_fn make, void* make_user, uint32_t* made, uint32_t* refined,
                                  gc_error* err)
{
    if (max_vertices < 3 || max_triangles < 1 || max_vertices > REFINE_MAX_WARP || max_triangles > REFINE_MAX_WARP ||
        reach < 2 || reach > REFINE_NEIGHBOURS)
        return gc_fail(err, GC_ERR_USAGE, "warp refinement: warps of %u vertices and %u triangles, %u next, are not "
                       "supported", max_vertices, max_triangles, reach);
    made_pipe p;
    memset(&p, 0, sizeof p);
    atomic_init(&p.feed.written, 0);
    atomic_init(&p.feed.ended, 0);
    p.indices = indices, p.triangle_count = triangle_count, p.made = made;
    p.max_vertices = max_vertices, p.max_triangles = max_triangles, p.reach = reach;
    p.make = make, p.make_user = make_user;
    const size_t vn = vertex_count ? vertex_count : 1;
    refine_state r = {refined, NULL, NULL, NULL, NULL, NULL, 0};
    r.corner = gc_alloc_array(triangle_count ? triangle_count : 1, 3 * sizeof(uint32_t), false);
    p.start = gc_alloc_array(triangle_count + 1, sizeof(uint32_t), false);
    p.stamp = gc_alloc_array(vn, sizeof(uint32_t), true);
    p.r[0] = p.r[1] = r;
    p.r[1].pass = 1;
    for (int k = 0; k < 2; ++k) {
        p.r[k].count_a = gc_alloc_array(vn, sizeof(uint32_t), true);
        p.r[k].count_b = gc_alloc_array(vn, sizeof(uint32_t), true);
    }
    gc_status s = GC_OK;
    if (!r.corner || !p.start || !p.stamp || !p.r[0].count_a || !p.r[0].count_b || !p.r[1].count_a ||
        !p.r[1].count_b)
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %zu triangles and %u vertices",
                    triangle_count, vertex_count);
    else
        s = gc_parallel_run(threads, 2, made_pipe_job, &p, NULL, err);
    for (int k = 0; k < 2; ++k) {
        free(p.r[k].count_a);
        free(p.r[k].count_b);
    }
    free(r.corner);
    free(p.start);
    free(p.stamp);
    return s;
}

/* gc_opt_warp_refine_ex, cloned for AVX2 where the CPU has it (an ifunc picks at load time;
 * static, so that the library exports no resolver; integers only, so the same orders): the
 * pricing of a pair's swaps on 8 lanes. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static gc_status refine_ex(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           uint32_t max_vertices, uint32_t max_triangles, unsigned passes, unsigned flags,
                           unsigned threads, uint32_t* order, gc_error* err)
{
    if (triangle_count == 0 || passes == 0)
        return GC_OK;
    if (max_vertices < 3 || max_triangles < 1 || max_vertices > REFINE_MAX_WARP || max_triangles > REFINE_MAX_WARP)
        return gc_fail(err, GC_ERR_USAGE, "warp refinement: warps of %u vertices and %u triangles are not supported",
                       max_vertices, max_triangles);
    /* the neighbours: the next warps in the order (no adjacency), or those sharing vertices */
    const uint32_t next_warps = (flags >> 8) & 0xFFu;
    gc_adjacency adj = {0};
    gc_status s = next_warps ? GC_OK : gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    refine_state r = {order, NULL, NULL, NULL, NULL, NULL, 0};
    uint32_t* stamp = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    uint32_t *start = NULL, *seen_by = NULL, *input = NULL, warps = 0;
    uint32_t neighbour[REFINE_NEIGHBOURS];
    touching_set set_storage, *set = &set_storage; /* refine_pair's scratch */
    r.warp = next_warps ? NULL : gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    r.corner = gc_alloc_array(triangle_count, 3 * sizeof(uint32_t), false);
    start = gc_alloc_array(triangle_count + 1, sizeof(uint32_t), false);
    r.count_a = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    r.count_b = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
    if (!stamp || (!next_warps && !r.warp) || !r.corner || !start || !r.count_a || !r.count_b) {
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    /* The warps, counted first so that the per-warp arrays are sized by them. */
    uint64_t cost_before = 0, cost_after = 0;
    /* each place's corners, in a pass of its own (its loads independent of each other: the
     * warps' cuts would stall them), then the warps over them in order */
    for (size_t i = 0; i < triangle_count; ++i)
        memcpy(r.corner + 3 * i, indices + 3 * (size_t)order[i], 3 * sizeof *r.corner);
    warps = form_warps(r.corner, order, triangle_count, max_vertices, max_triangles, stamp, r.warp, start,
                       &cost_before);
    if ((flags & GC_WARP_REFINE_KEEP) && !(input = gc_alloc_array(triangle_count, sizeof(uint32_t), false))) {
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for an order of %zu triangles", triangle_count);
        goto done;
    }
    if (input)
        memcpy(input, order, triangle_count * sizeof *order);
    seen_by = gc_alloc_array(warps, sizeof(uint32_t), true); /* per warp: the last a + 1 */
    r.changed = gc_alloc_array(warps, sizeof(uint32_t), true);
    if (!seen_by || !r.changed) {
        s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %u warps", warps);
        goto done;
    }
    memset(stamp, 0, vertex_count * sizeof *stamp); /* now: the visit that last scanned the vertex */
    uint32_t visit = 0;
    const bool slide = next_warps == 1 && !(flags & GC_WARP_REFINE_CHANGED);
    uint32_t carried = UINT32_MAX; /* sliding: the warp already counted in count_a */
    int carried_distinct = 0;
    if (threads > 1 && passes == 2 && next_warps > 1 && !(flags & GC_WARP_REFINE_CHANGED) &&
        warps >= REFINE_PIPE_MIN_WARPS) { /* the two passes side by side (refine_pipe_job) */
        refine_pipe p;
        memset(&p, 0, sizeof p);
        p.r[0] = p.r[1] = r;
        p.r[1].pass = 1;
        p.r[1].count_a = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
        p.r[1].count_b = gc_alloc_array(vertex_count, sizeof(uint32_t), true);
        p.start = start, p.warps = warps, p.max_vertices = max_vertices;
        p.reach = next_warps < REFINE_NEIGHBOURS ? next_warps : REFINE_NEIGHBOURS;
        atomic_init(&p.done, 0);
        if (p.r[1].count_a && p.r[1].count_b)
            s = gc_parallel_run(2, 2, refine_pipe_job, &p, NULL, err);
        else
            s = gc_fail(err, GC_ERR_NOMEM, "warp refinement: out of memory for %u vertices", vertex_count);
        free(p.r[1].count_a);
        free(p.r[1].count_b);
        passes = 0; /* done */
    }
    for (unsigned pass = 0; pass < passes; ++pass) {
        unsigned swaps = 0;
        r.pass = pass;
        for (uint32_t a = 0; a < warps; ++a) {
            /* after the first pass, with GC_WARP_REFINE_CHANGED: only the warps that a swap
             * changed in the pass before or in this one */
            if ((flags & GC_WARP_REFINE_CHANGED) && pass > 0 && r.changed[a] < pass)
                continue;
            if (slide) {
                /* each warp with the next only: warp a + 1, counted as b, is the next a (the
                 * same swaps as below, two fills of a warp fewer) */
                int distinct = carried == a ? carried_distinct : warp_fill(&r, r.count_a, start[a], start[a + 1], 1);
                carried = UINT32_MAX;
                if (a + 1 < warps) {
                    swaps += refine_pair(&r, start, a, a + 1, max_vertices, set, &distinct, &carried_distinct);
                    carried = a + 1;
                }
                warp_fill(&r, r.count_a, start[a], start[a + 1], -1);
                uint32_t* t = r.count_a;
                r.count_a = r.count_b, r.count_b = t;
                continue;
            }
            if (++visit == 0) { /* wrapped: no stamp may pass for this visit's */
                memset(stamp, 0, vertex_count * sizeof *stamp);
                visit = 1;
            }
            /* the later warps that share a vertex with this one (a vertex's triangles scanned
             * once: a second scan of them would find no warp that the first did not) */
            size_t neighbours = 0;
            for (uint32_t b = a + 1; next_warps && b < warps && b - a <= next_warps && neighbours < REFINE_NEIGHBOURS; ++b)
                neighbour[neighbours++] = b;
            for (uint32_t i = start[a]; !next_warps && i < start[a + 1] && neighbours < REFINE_NEIGHBOURS; ++i) {
                const uint32_t* tv = r.corner + 3 * (size_t)i;
                for (int c = 0; c < 3; ++c) {
                    if (stamp[tv[c]] == visit)
                        continue;
                    stamp[tv[c]] = visit;
                    uint32_t first = adj.offsets[tv[c]], end = adj.offsets[tv[c] + 1];
                    if (end - first > REFINE_SCAN)
                        end = first + REFINE_SCAN;
                    for (uint32_t k = first; k < end && neighbours < REFINE_NEIGHBOURS; ++k) {
                        uint32_t b = r.warp[adj.triangles[k]];
                        if (b > a && seen_by[b] != a + 1) {
                            seen_by[b] = a + 1;
                            neighbour[neighbours++] = b;
                        }
                    }
                }
            }
            if (neighbours == 0)
                continue;
            int distinct = warp_fill(&r, r.count_a, start[a], start[a + 1], 1);
            for (size_t q = 0; q < neighbours; ++q)
                swaps += refine_pair(&r, start, a, neighbour[q], max_vertices, set, &distinct, NULL);
            warp_fill(&r, r.count_a, start[a], start[a + 1], -1);
        }
        if (swaps == 0)
            break;
    }
    if (input && !s) { /* the input back unless the model's warps of the result cost less */
        memset(stamp, 0, vertex_count * sizeof *stamp);
        form_warps(r.corner, order, triangle_count, max_vertices, max_triangles, stamp, NULL, NULL, &cost_after);
        if (cost_after >= cost_before)
            memcpy(order, input, triangle_count * sizeof *order);
    }
done:
    free(input);
    gc_adjacency_free(&adj);
    free(r.warp);
    free(r.corner);
    free(r.count_a);
    free(r.count_b);
    free(start);
    free(stamp);
    free(seen_by);
    free(r.changed);
    return s;
}

gc_status gc_opt_warp_refine_ex(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                uint32_t max_vertices, uint32_t max_triangles, unsigned passes, unsigned flags,
                                uint32_t* order, gc_error* err)
{
    return refine_ex(indices, triangle_count, vertex_count, max_vertices, max_triangles, passes, flags, 1, order, err);
}

gc_status gc_opt_warp_refine_threads(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     uint32_t max_vertices, uint32_t max_triangles, unsigned passes, unsigned flags,
                                     unsigned threads, uint32_t* order, gc_error* err)
{
    return refine_ex(indices, triangle_count, vertex_count, max_vertices, max_triangles, passes, flags, threads, order,
                     err);
}

/* --effort 1 for meshopt:C,W,P with C >= W (auto_fast.c): meshoptimizer's order (its table,
 * gc_opt_score_table), then one pass of the swaps between each warp and the next, kept where
 * the model's warps cost less. On the corpus (nvidia-pascal, 28 rows) 2.48% below
 * meshoptimizer's order at about 1.4 times its time; the compact patches it replaces were
 * 0.25% below. A hub (GC_ERR_LIMIT from the table's order) or warps the swaps do not take:
 * the patches, as before. */
gc_status gc_opt_warp_fast(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           uint32_t max_vertices, uint32_t max_triangles, uint32_t* order, gc_error* err)
{
    const bool fits = max_vertices >= 3 && max_triangles >= 1 && max_vertices <= REFINE_MAX_WARP &&
                      max_triangles <= REFINE_MAX_WARP; /* else (a group of 0: no limit) the patches too */
    gc_status s = fits ? gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, order, err)
                       : GC_ERR_LIMIT;
    if (s == GC_ERR_LIMIT)
        return gc_opt_patches(indices, triangle_count, vertex_count, max_triangles, 0, max_vertices, 0, order, err);
    if (!s)
        s = gc_opt_warp_refine_ex(indices, triangle_count, vertex_count, max_vertices, max_triangles, 1,
                                  GC_WARP_REFINE_NEXT(1) | GC_WARP_REFINE_KEEP, order, err);
    return s;
}
