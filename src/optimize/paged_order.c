// SPDX-License-Identifier: MIT
/* The page-classed order for nv-gl with pages (the H100: docs/models/nvidia-h100.md) where the
 * list's values change page and the numbering is kept (auto without --reorder-vertices).
 *
 * The H100 empties its cache before a corner whose page (value >> 16) differs from the
 * previous corner's. A triangle whose three corners are on page p (a pure triangle) can
 * reuse only vertices of the triangles before it up to the last page change; among pure
 * triangles of one page nothing empties the cache but Kerbl's batches, so there nv-gl's
 * page-blind orders (the flushed Forsyth order, Kerbl's batch greedy) are exact. So:
 *  1. every triangle's class is the set of its corners' pages; the triangles are sorted by
 *     (lowest page, mixed, highest page, middle page), a stable radix sort: the pure class
 *     {p}, then the mixed triangles whose lowest page is p ({p, p+1} first), then {p+1}...
 *  2. each pure class is ordered on its own triangles (values less the page's first, at most
 *     65,536 vertices) by the flushed order, with `more` also by the batch greedy, the
 *     cheaper where it stands in the output kept (paged_choose); each group of mixed
 *     triangles (one per lowest page, numbered on its own with its pages kept) by the greedy
 *     that follows the pages (paged_greedy.c).
 * Page changes in the output: inside a mixed triangle at most 2; between two triangles none
 * where both are pure on one page, else at most 1, and such a boundary touches a mixed
 * triangle or joins two pure classes (at most pages - 1 joins): at most 4 M + pages - 1 for
 * M mixed triangles (tests/test_paged_order.c checks it). The classes' orders are jobs
 * (gc_parallel_run), each writing its own range of the output: the same output for every
 * thread count. gc_opt_paged_kept picks between these and the greedy on the whole list. */
#include "paged_order.h"

#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../models/kerbl_rule.h"

/* The mixed groups' greedy looks at the last 6 vertices used, the whole list's at the last 2
 * (igea, and igea subdivided once: 6 was best of 2, 3, 4, 6, 8 for the groups, 2 for the whole
 * list, where it was 0.5% below 3 and in less time). */
#define PAGED_GROUP_RECENT 6
#define PAGED_WHOLE_RECENT 2
/* the default's second greedy on a list mostly mixed (gc_opt_paged_kept) */
#define PAGED_PAIR_RECENT 3

typedef struct paged_worker {
    uint32_t* map;   /* per vertex of the list: its number in a mixed group (UINT32_MAX: none) */
} paged_worker;

typedef struct paged_ctx {
    const uint32_t* indices;
    uint32_t vertex_count;
    const gc_model* target;
    unsigned shift;
    bool more;
    const uint32_t* sorted;   /* the triangles by class, from sorted position `skip` */
    size_t skip;              /* begin[1] where group 0 runs alone (first_alone), else 0 */
    bool first_alone;         /* pure group 0's two orders chosen in its job (paged_first_alone) */
    const size_t* begin;      /* group g: sorted[begin[g] .. begin[g + 1]) */
    const uint32_t* page;     /* group g's page (pure), or UINT32_MAX (mixed) */
    size_t groups;
    const uint64_t* job_of;   /* job j (after the whole list's), its low 32 bits: 2 g + 1 the batch greedy of
                                 pure class g alone, 2 g group g's main order (with `more` and `together[g]`, the batch
                                 greedy after it, on the same list) */
    const bool* together;
    paged_worker* workers;
    uint32_t* order;          /* the output: group g's range as sorted's */
    uint32_t* second;         /* with `more`: the batch greedy's order of each pure class, from `skip` */
    uint64_t* greedy_cost;    /* per group: the batch greedy's count (UINT64_MAX: none, a hub) */
    gc_flush_rule rule;
    size_t triangle_count;
    uint32_t* whole;          /* job 0 (the others after it), where not NULL: the paged greedy on the whole list */
    uint64_t whole_cost;      /* its count */
} paged_ctx;

/* The H100's machine along the output (kerbl_rule.h's paged lookup on its own words): feeds
 * the triangles order[0 .. count) and returns their invocations. */
typedef struct paged_machine {
    gc_kerbl_rule rule;
    uint32_t* words;
    uint32_t cache, page, progress, cbatch, cuniques;
} paged_machine;

static uint64_t paged_feed(paged_machine* m, const uint32_t* indices, const uint32_t* order, size_t count)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint32_t* f = indices + 3 * (size_t)order[i];
        const uint32_t pages[3] = {f[0] >> m->rule.page_shift, f[1] >> m->rule.page_shift, f[2] >> m->rule.page_shift};
        uint32_t ids[3];
        bool miss[3], cut;
        const uint32_t adds = gc_kerbl_lookup_paged(&m->rule, m->words, f, pages, 3, m->progress, &m->cache, &m->page,
                                                    m->cbatch, m->cuniques, miss, ids, &cut);
        if (cut)
            m->cbatch = m->cuniques = 0;
        for (unsigned k = 0; k < 3; ++k) {
            m->words[2 * (size_t)f[k]] = ids[k];
            m->words[2 * (size_t)f[k] + 1] = m->progress + k;
        }
        m->cuniques += adds, m->cbatch += 3, m->progress += 3, total += adds;
    }
    return total;
}

/* A local order (numbers of sorted[b ..]) made the list's triangle numbers in place. */
static void paged_map(const uint32_t* sorted, size_t b, uint32_t* out, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        out[i] = sorted[b + out[i]];
}

/* Pure class g's batch greedy on its list `sub`, into second's range, its count kept. */
static gc_status paged_greedy_pass(paged_ctx* c, size_t g, const uint32_t* sub, size_t count,
                                   uint32_t local_vertices, gc_error* err)
{
    const size_t b = c->begin[g];
    const gc_batch_greedy_weights bw = {1024, -4, -1}; /* SceneProcessor.cpp's "gbatch" (auto.c) */
    uint64_t cost = 0;
    uint32_t* out = c->second + (b - c->skip);
    gc_status s = gc_opt_batch_greedy_kerbl(sub, count, local_vertices, c->target, &bw, out, &cost, err);
    if (s == GC_ERR_LIMIT) { /* a hub: the flushed order stays */
        c->greedy_cost[g] = UINT64_MAX;
        return GC_OK;
    }
    if (s)
        return s;
    c->greedy_cost[g] = cost;
    paged_map(c->sorted, b - c->skip, out, count);
    return GC_OK;
}

/* The machine's count of `out` on `sub` from its first state (a cache number not used before). */
static uint64_t paged_fresh_cost(const paged_ctx* c, uint32_t* words, uint32_t local_vertices, const uint32_t* sub,
                                 const uint32_t* out, size_t count)
{
    memset(words, 0, (2 * (size_t)local_vertices + 2) * sizeof *words);
    paged_machine m = {{GC_KERBL_GL, c->target->p[2], c->target->p[0], c->target->p[1], c->target->p[3]}, words, 2,
                       UINT32_MAX, 0, 0, 0};
    return paged_feed(&m, sub, out, count);
}
/* Pure group 0's order alone, its list `sub` in its own numbering (the page's first value
 * subtracted: the same counts, no page changes inside it): the flushed order's count and the
 * batch greedy's fed from the machine's first state (as paged_choose counts them there, on
 * cache numbers not used before), the flushed order kept among equals; `out` left in the
 * class's numbering. Neither `second` nor `sorted` holds the group: 8 bytes a triangle less
 * where it is most of the list. The flushed order is made again where the batch greedy's
 * order was not cheaper (it is written where the flushed one was). */
static gc_status paged_first_alone(paged_ctx* c, const uint32_t* sub, size_t count, uint32_t local_vertices,
                                   uint32_t* out, gc_error* err)
{
    uint32_t* words = gc_alloc_array(2 * (size_t)local_vertices + 2, sizeof(uint32_t), false);
    if (!words)
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %u vertices", local_vertices);
    uint64_t counted = 0;
    gc_status s = gc_opt_forsyth_flush_kerbl(sub, count, local_vertices, &gc_flush_batch_scores, &c->rule, c->target,
                                             out, &counted, err);
    if (s) {
        free(words);
        return s;
    }
    const uint64_t flushed = paged_fresh_cost(c, words, local_vertices, sub, out, count);
    const gc_batch_greedy_weights bw = {1024, -4, -1}; /* SceneProcessor.cpp's "gbatch" (auto.c) */
    s = gc_opt_batch_greedy_kerbl(sub, count, local_vertices, c->target, &bw, out, &counted, err);
    bool again = s == GC_ERR_LIMIT; /* a hub: the flushed order */
    if (!s)
        again = flushed <= paged_fresh_cost(c, words, local_vertices, sub, out, count);
    free(words);
    if (again)
        s = gc_opt_forsyth_flush_kerbl(sub, count, local_vertices, &gc_flush_batch_scores, &c->rule, c->target, out,
                                       &counted, err);
    c->greedy_cost[0] = UINT64_MAX; /* chosen: paged_choose feeds it as it stands */
    return s;
}

/* Group 0's order `out` (in its numbering: its triangles by number) made the list's numbers,
 * with a table of its triangles made after its list is freed. */
static gc_status paged_map_class(const paged_ctx* c, size_t count, uint32_t* out, gc_error* err)
{
    uint32_t* of = gc_alloc_array(count, sizeof(uint32_t), false);
    if (!of)
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for a class of %zu triangles", count);
    const uint32_t p = c->page[0];
    size_t k = 0;
    for (size_t t = 0; t < c->triangle_count && k < count; ++t) {
        const uint32_t* f = c->indices + 3 * t;
        if ((f[0] >> c->shift) == p && (f[1] >> c->shift) == p && (f[2] >> c->shift) == p)
            of[k++] = (uint32_t)t;
    }
    paged_map(of, 0, out, count);
    free(of);
    return GC_OK;
}

/* The jobs: the whole list's greedy first where asked, then by job_of (the largest classes
 * first). Each job's list is its own (12 bytes a triangle of its class, freed after it) and
 * its orders are written straight into their ranges of the output and of `second`. */
static gc_status paged_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    paged_ctx* c = user;
    paged_worker* w = &c->workers[worker];
    *units = 1;
    if (c->whole && job-- == 0)
        return gc_opt_paged_greedy(c->indices, c->triangle_count, c->vertex_count, c->target, PAGED_WHOLE_RECENT,
                                   c->whole, &c->whole_cost, err);
    const uint32_t entry = (uint32_t)c->job_of[job];
    const bool greedy_pass = entry % 2;
    const size_t g = entry / 2;
    const size_t b = c->begin[g], count = c->begin[g + 1] - b;
    if (count == 0 || (greedy_pass && c->page[g] == UINT32_MAX))
        return GC_OK;
    const bool pure = c->page[g] != UINT32_MAX;
    const uint32_t base = pure ? c->page[g] << c->shift : 0;
    uint32_t local_vertices = c->vertex_count;
    if (pure) {
        const uint64_t span = (uint64_t)1 << c->shift, left = (uint64_t)c->vertex_count - base;
        local_vertices = (uint32_t)(left < span ? left : span);
    }
    uint32_t* sub = gc_alloc_array(3 * count, sizeof(uint32_t), false);
    uint32_t* vpage = pure ? NULL : gc_alloc_array(3 * count, sizeof(uint32_t), false);
    if (!sub || (!pure && !vpage)) {
        free(sub), free(vpage);
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for a class of %zu triangles", count);
    }
    if (g == 0 && c->first_alone) { /* its triangles by number (not in `sorted`) */
        size_t i = 0;
        const uint32_t p = c->page[0];
        for (size_t t = 0; t < c->triangle_count && i < count; ++t) {
            const uint32_t* f = c->indices + 3 * t;
            if ((f[0] >> c->shift) == p && (f[1] >> c->shift) == p && (f[2] >> c->shift) == p)
                sub[3 * i] = f[0] - base, sub[3 * i + 1] = f[1] - base, sub[3 * i + 2] = f[2] - base, ++i;
        }
    } else if (pure) {
        for (size_t i = 0; i < count; ++i) {
            const uint32_t* f = c->indices + 3 * (size_t)c->sorted[b - c->skip + i];
            sub[3 * i] = f[0] - base, sub[3 * i + 1] = f[1] - base, sub[3 * i + 2] = f[2] - base;
        }
    } else { /* numbered in order of first use, each number's page kept */
        local_vertices = 0;
        for (size_t i = 0; i < 3 * count; ++i) {
            const uint32_t v = c->indices[3 * (size_t)c->sorted[b - c->skip + i / 3] + i % 3];
            if (w->map[v] == UINT32_MAX)
                vpage[local_vertices] = v >> c->shift, w->map[v] = local_vertices++;
            sub[i] = w->map[v];
        }
        for (size_t i = 0; i < 3 * count; ++i) /* the map cleared for the next group */
            w->map[c->indices[3 * (size_t)c->sorted[b - c->skip + i / 3] + i % 3]] = UINT32_MAX;
    }
    gc_status s;
    if (g == 0 && c->first_alone) {
        s = paged_first_alone(c, sub, count, local_vertices, c->order, err);
        free(sub), sub = NULL;
        if (!s)
            s = paged_map_class(c, count, c->order, err);
    } else if (greedy_pass) {
        s = paged_greedy_pass(c, g, sub, count, local_vertices, err);
    } else if (pure) {
        uint64_t flushed = 0; /* (its count is not used: paged_choose counts both in place) */
        s = gc_opt_forsyth_flush_kerbl(sub, count, local_vertices, &gc_flush_batch_scores, &c->rule, c->target,
                                       c->order + b, &flushed, err);
        if (!s)
            paged_map(c->sorted, b - c->skip, c->order + b, count);
        if (!s && c->more && c->together[g])
            s = paged_greedy_pass(c, g, sub, count, local_vertices, err);
    } else {
        s = gc_paged_greedy_of(sub, count, local_vertices, vpage, c->target, PAGED_GROUP_RECENT, c->order + b, NULL,
                               err);
        if (!s)
            paged_map(c->sorted, b - c->skip, c->order + b, count);
    }
    free(sub), free(vpage);
    return s;
}

/* Per pure class, its flushed order or the batch greedy's (`second`), the cheaper where it
 * stands in the output: both counted along the output from the batch's state as the groups
 * before it leave it (their orders as chosen), each with the cache emptied at the class's
 * start (cache numbers not used before), the flushed order among equals. Counted alone, the
 * batch greedy's orders looked cheaper where the class began inside a batch, and were not
 * (their batches out of step): this keeps the better in place. */
static gc_status paged_choose(const uint32_t* indices, uint32_t vertex_count, const gc_model* target,
                              const size_t* begin, const uint32_t* page, size_t groups, const uint64_t* cost,
                              uint32_t* order, const uint32_t* second, size_t skip, gc_error* err)
{
    paged_machine m = {{GC_KERBL_GL, target->p[2], target->p[0], target->p[1], target->p[3]}, NULL, 1, UINT32_MAX,
                       0, 0, 0};
    m.words = gc_alloc_array(2 * (size_t)vertex_count + 2, sizeof(uint32_t), true);
    if (!m.words)
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %u vertices", vertex_count);
    for (size_t g = 0; g < groups; ++g) {
        const size_t b = begin[g], count = begin[g + 1] - b;
        if (page[g] == UINT32_MAX || cost[g] == UINT64_MAX) {
            paged_feed(&m, indices, order + b, count);
            continue;
        }
        const paged_machine at = m;
        m.cache += 1, m.page = UINT32_MAX;
        const uint64_t greedy = paged_feed(&m, indices, second + (b - skip), count);
        const uint32_t fresh = m.cache + 1;
        m = at;
        m.cache = fresh, m.page = UINT32_MAX;
        const uint64_t flushed = paged_feed(&m, indices, order + b, count);
        if (flushed <= greedy)
            continue; /* the machine stands after it */
        memcpy(order + b, second + (b - skip), count * sizeof *order);
        const uint32_t again = m.cache + 1; /* the batch greedy's order fed again, on numbers of its own */
        m = at;
        m.cache = again, m.page = UINT32_MAX;
        paged_feed(&m, indices, second + (b - skip), count);
    }
    free(m.words);
    return GC_OK;
}

/* The order's invocations under the target (gc_analyze's count for a list drawn alone). */
static gc_status paged_count(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_model* target, const uint32_t* order, uint64_t* invocations, gc_error* err)
{
    paged_machine m = {{GC_KERBL_GL, target->p[2], target->p[0], target->p[1], target->p[3]}, NULL, 1, UINT32_MAX,
                       0, 0, 0};
    m.words = gc_alloc_array(2 * (size_t)vertex_count + 2, sizeof(uint32_t), true);
    if (!m.words)
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %u vertices", vertex_count);
    *invocations = paged_feed(&m, indices, order, triangle_count);
    free(m.words);
    return GC_OK;
}

/* One pass of the stable radix sort: from `in` to `out` by digit(t) < buckets. */
typedef uint32_t (*digit_fn)(const uint32_t* f, unsigned shift);
static uint32_t digit_mid(const uint32_t* f, unsigned shift)
{
    uint32_t a = f[0] >> shift, b = f[1] >> shift, c = f[2] >> shift;
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return c < lo ? lo : c > hi ? hi : c;
}
static uint32_t digit_hi(const uint32_t* f, unsigned shift)
{
    uint32_t a = f[0] >> shift, b = f[1] >> shift, c = f[2] >> shift;
    uint32_t m = a > b ? a : b;
    return m > c ? m : c;
}
static uint32_t digit_lo_mixed(const uint32_t* f, unsigned shift)
{
    uint32_t a = f[0] >> shift, b = f[1] >> shift, c = f[2] >> shift;
    uint32_t m = a < b ? a : b;
    m = m < c ? m : c;
    return 2 * m + !(a == b && b == c);
}
static void radix_pass(const uint32_t* indices, unsigned shift, digit_fn digit, const uint32_t* in, uint32_t* out,
                       size_t triangle_count, size_t* bucket, size_t buckets)
{
    memset(bucket, 0, (buckets + 1) * sizeof *bucket);
    for (size_t i = 0; i < triangle_count; ++i)
        bucket[digit(indices + 3 * (size_t)(in ? in[i] : i), shift) + 1]++;
    for (size_t k = 0; k < buckets; ++k)
        bucket[k + 1] += bucket[k];
    for (size_t i = 0; i < triangle_count; ++i) {
        const uint32_t t = in ? in[i] : (uint32_t)i;
        out[bucket[digit(indices + 3 * (size_t)t, shift)]++] = t;
    }
}

/* Jobs as keys: the class's size (larger first), then the entry (2 g or 2 g + 1). */
static int paged_key_less(const void* a, const void* b)
{
    const uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

/* gc_opt_paged_order, and where `whole` is not NULL the paged greedy on the whole list into it
 * too (a job beside the classes'), the cheaper of the two orders into `order`. */
static gc_status paged_run(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* target, bool more, unsigned threads, uint32_t* order, size_t* classes,
                           uint32_t* whole, gc_error* err)
{
    if (classes)
        *classes = 0;
    if (target->family != GC_MODEL_NV_GL || !target->p[3] || target->p[3] > 31)
        return gc_fail(err, GC_ERR_USAGE, "paged order: the target is not nv-gl with pages");
    if (triangle_count == 0)
        return GC_OK;
    if (triangle_count > UINT32_MAX / 3) /* (the machine's progress counts corners in 32 bits) */
        return gc_fail(err, GC_ERR_LIMIT, "paged order: %zu triangles, more than %u", triangle_count,
                       UINT32_MAX / 3);
    const unsigned shift = target->p[3];
    const size_t pages = vertex_count ? (size_t)((vertex_count - 1) >> shift) + 1 : 1;
    threads = threads ? threads : 1;
    threads = threads < GC_MAX_THREADS ? threads : GC_MAX_THREADS;
    uint32_t* sorted = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    uint32_t* tmp = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    size_t* bucket = gc_alloc_array(2 * pages + 2, sizeof(size_t), false);
    size_t* begin = gc_alloc_array(2 * pages + 1, sizeof(size_t), false);
    uint32_t* page = gc_alloc_array(2 * pages, sizeof(uint32_t), false);
    uint64_t* cost = gc_alloc_array(2 * pages, sizeof(uint64_t), true); /* the batch greedies' counts */
    uint64_t* job_of = NULL;
    bool* together = NULL;
    paged_worker workers[GC_MAX_THREADS];
    memset(workers, 0, sizeof workers);
    gc_status s = GC_OK;
    if (!sorted || !tmp || !bucket || !begin || !page || !cost) {
        s = gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    /* the classes: by middle page, highest page, then lowest page and mixed (stable) */
    radix_pass(indices, shift, digit_mid, NULL, tmp, triangle_count, bucket, pages);
    radix_pass(indices, shift, digit_hi, tmp, sorted, triangle_count, bucket, pages);
    radix_pass(indices, shift, digit_lo_mixed, sorted, tmp, triangle_count, bucket, 2 * pages);
    { uint32_t* t = sorted; sorted = tmp; tmp = t; }
    /* the groups: bucket 2p (pure {p}), 2p + 1 (mixed, lowest page p) */
    size_t groups = 0, found = 0, mixed_groups = 0;
    {
        size_t at = 0;
        for (size_t k = 0; k < 2 * pages; ++k) {
            size_t end = at;
            while (end < triangle_count && digit_lo_mixed(indices + 3 * (size_t)sorted[end], shift) == k)
                ++end;
            if (end == at)
                continue;
            begin[groups] = at;
            page[groups] = k % 2 ? UINT32_MAX : (uint32_t)(k / 2);
            mixed_groups += k % 2;
            /* classes: the pure one, or the mixed ones in the group (by highest and middle page) */
            if (k % 2 == 0)
                ++found;
            else
                for (size_t i = at; i < end; ++i)
                    found += i == at || digit_hi(indices + 3 * (size_t)sorted[i], shift) !=
                                            digit_hi(indices + 3 * (size_t)sorted[i - 1], shift) ||
                             digit_mid(indices + 3 * (size_t)sorted[i], shift) !=
                                 digit_mid(indices + 3 * (size_t)sorted[i - 1], shift);
            ++groups;
            at = end;
        }
        begin[groups] = triangle_count;
    }
    if (classes)
        *classes = found;
    free(tmp), tmp = NULL;
    /* The jobs, the largest classes first. A pure class over 1 / (2 x threads) of the list runs
     * its two orders in one job, one after the other on one list: two such jobs side by side
     * would each hold a list and an order's working memory for most of the triangles. */
    job_of = gc_alloc_array(2 * groups, sizeof(uint64_t), false); /* (groups <= triangles: entries below 2^32) */
    together = gc_alloc_array(groups, sizeof(bool), false);
    if (!job_of || !together) {
        s = gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %zu classes", groups);
        goto done;
    }
    size_t jobs = 0;
    for (size_t g = 0; g < groups; ++g) {
        const size_t count = begin[g + 1] - begin[g];
        const uint64_t key = (uint64_t)(UINT32_MAX - (uint32_t)count) << 32;
        together[g] = more && page[g] != UINT32_MAX && 2 * (size_t)threads * count > triangle_count;
        job_of[jobs++] = key | (2 * g);
        if (more && page[g] != UINT32_MAX && !together[g])
            job_of[jobs++] = key | (2 * g + 1);
    }
    qsort(job_of, jobs, sizeof *job_of, paged_key_less);
    jobs += whole != NULL;
    /* such a class first in the output: chosen in its job (paged_first_alone), kept out of
       `sorted` and `second` */
    const bool first_alone = together[0];
    const size_t skip = first_alone ? begin[1] : 0, kept = triangle_count - skip;
    if (first_alone) {
        uint32_t* rest = gc_alloc_array(kept ? kept : 1, sizeof(uint32_t), false);
        if (!rest) {
            s = gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %zu triangles", triangle_count);
            goto done;
        }
        memcpy(rest, sorted + skip, kept * sizeof *rest);
        free(sorted), sorted = rest;
    }
    uint32_t* second = NULL;
    if (more && !(second = gc_alloc_array(kept ? kept : 1, sizeof(uint32_t), false))) {
        s = gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    const unsigned workers_used = (size_t)threads < jobs ? threads : (unsigned)jobs;
    for (unsigned k = 0; k < workers_used && mixed_groups; ++k) {
        if (!(workers[k].map = gc_alloc_array(vertex_count, sizeof(uint32_t), false))) {
            s = gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %u vertices", vertex_count);
            free(second);
            goto done;
        }
        memset(workers[k].map, 0xFF, (size_t)vertex_count * sizeof(uint32_t));
    }
    paged_ctx c = {indices, vertex_count, target, shift,  more, sorted, skip, first_alone,    begin, page, groups,
                   job_of,  together,     workers, order, second, cost, {0},  triangle_count, whole, 0};
    gc_flush_batch_rule_of(target, 0, &c.rule);
    s = gc_parallel_run(workers_used, jobs, paged_job, &c, NULL, err);
    if (!s && more)
        s = paged_choose(indices, vertex_count, target, begin, page, groups, cost, order, second, skip, err);
    uint64_t classed = 0;
    if (!s && whole)
        s = paged_count(indices, triangle_count, vertex_count, target, order, &classed, err);
    if (!s && whole && c.whole_cost < classed) /* the classes' order among equals */
        memcpy(order, whole, triangle_count * sizeof *order);
    free(second);
done:
    for (unsigned k = 0; k < GC_MAX_THREADS; ++k)
        free(workers[k].map);
    free(sorted), free(tmp), free(bucket), free(begin), free(page), free(cost), free(job_of), free(together);
    return s;
}

/* gc_opt_paged_kept's two greedies on the whole list (job k: PAGED_WHOLE_RECENT, PAGED_PAIR_RECENT). */
typedef struct paged_pair {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    const gc_model* target;
    uint32_t* out[2];
    uint64_t cost[2];
} paged_pair;

static gc_status paged_pair_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    paged_pair* p = user;
    (void)worker;
    *units = 1;
    return gc_opt_paged_greedy(p->indices, p->triangle_count, p->vertex_count, p->target,
                               job ? PAGED_PAIR_RECENT : PAGED_WHOLE_RECENT, p->out[job], &p->cost[job], err);
}

gc_status gc_opt_paged_kept(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                            const gc_model* target, bool more, unsigned threads, uint32_t* order, gc_error* err)
{
    if (target->family != GC_MODEL_NV_GL || !target->p[3] || target->p[3] > 31)
        return gc_fail(err, GC_ERR_USAGE, "paged order: the target is not nv-gl with pages");
    if (triangle_count > UINT32_MAX / 3) /* (every order here counts corners in 32 bits) */
        return gc_fail(err, GC_ERR_LIMIT, "paged order: %zu triangles, more than %u", triangle_count,
                       UINT32_MAX / 3);
    const unsigned shift = target->p[3];
    size_t mixed = 0;
    for (size_t t = 0; t < triangle_count; ++t) {
        const uint32_t* f = indices + 3 * t;
        mixed += (f[0] >> shift) != (f[1] >> shift) || (f[1] >> shift) != (f[2] >> shift);
    }
    if (!more && 2 * mixed >= triangle_count) /* effort 1: one order */
        return gc_opt_paged_greedy(indices, triangle_count, vertex_count, target, PAGED_WHOLE_RECENT, order, NULL,
                                   err);
    if (!more || 4 * mixed < triangle_count)
        return paged_run(indices, triangle_count, vertex_count, target, more, threads, order, NULL, NULL, err);
    uint32_t* whole = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    if (!whole)
        return gc_fail(err, GC_ERR_NOMEM, "paged order: out of memory for %zu triangles", triangle_count);
    gc_status s;
    if (2 * mixed < triangle_count) {
        /* the default from a quarter mixed: the classes and the whole list's greedy, the cheaper kept */
        s = paged_run(indices, triangle_count, vertex_count, target, true, threads, order, NULL, whole, err);
    } else {
        /* from half mixed: the whole list's greedy with 2 and 3 recent vertices side by side, the
           cheaper kept, 2 among equals (igea subdivided once: 2 was 0.6% below 3; igea with its
           vertices numbered at random, 76% mixed: 3 was 0.9% below 2, 6 1.0% at twice the time;
           the classes there were above both) */
        paged_pair pair = {indices, triangle_count, vertex_count, target, {order, whole}, {0, 0}};
        s = gc_parallel_run(threads ? threads : 1, 2, paged_pair_job, &pair, NULL, err);
        if (!s && pair.cost[1] < pair.cost[0])
            memcpy(order, whole, triangle_count * sizeof *order);
    }
    free(whole);
    return s;
}

gc_status gc_opt_paged_order(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_model* target, bool more, unsigned threads, uint32_t* order, size_t* classes,
                             gc_error* err)
{
    return paged_run(indices, triangle_count, vertex_count, target, more, threads, order, classes, NULL, err);
}
