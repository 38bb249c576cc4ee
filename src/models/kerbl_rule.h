// SPDX-License-Identifier: MIT
/* nv-dx, nv-gl and batch-all (Kerbl et al., HPG 2018; kerbl_batch.c cites the simulator's
 * lines), their step stated once: a primitive's corners are looked up in order at stream
 * positions progress + i, each in the primitive's earlier corners first (the latest with
 * the same vertex), else in the vertex's words (the batch that last referenced it and the
 * position of that reference); an entry is cached by the rule's window on the distance from
 * its last use. The batch ends before corner i when the misses so far would exceed the
 * batch's vertices or the corner would be past its indices; the whole primitive then goes
 * to the next batch, looked up again in its empty cache.
 *
 * The model (kerbl_batch.c: its gc_sim machine, the counters and the hard resets around the
 * step) and the batch greedy's own machine for nv-dx and nv-gl
 * (src/optimize/batch_greedy_kerbl.c) look primitives up through gc_kerbl_lookup; the words
 * are 2 per vertex, word 0 the batch (from 1; 0 = never), word 1 the position. */
#ifndef GPUCACHE_KERBL_RULE_H
#define GPUCACHE_KERBL_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gc_kerbl_entry { GC_KERBL_DX, GC_KERBL_GL, GC_KERBL_ALL } gc_kerbl_entry;

typedef struct gc_kerbl_rule {
    gc_kerbl_entry entry;
    uint32_t window;       /* nv-gl's window (indices, inclusive) */
    uint32_t max_indices;  /* indices a batch holds */
    uint32_t max_vertices; /* invocations a batch holds */
    uint32_t page_shift;   /* nv-gl's page (0: none): gc_kerbl_lookup_paged */
} gc_kerbl_rule;

/* Whether an entry last used at `last` is still cached at `current` (positions modulo 2^32).
 * nv-dx (NVDxCacheEntry::cached, "FIFO +/-42"): the window depends on the slot of the last use,
 * last % 3: slot 0 keeps the vertex for d < 45, slot 1 for d <= 40 or d == 42, slot 2 for
 * d <= 39, d == 41 or d == 42. nv-gl: d <= window (42 by default). batch-all: always. */
static inline bool gc_kerbl_cached(const gc_kerbl_rule* r, uint32_t current, uint32_t last)
{
    const uint32_t d = current - last;
    if (r->entry == GC_KERBL_GL)
        return d <= r->window;
    if (r->entry != GC_KERBL_DX)
        return true;
    /* the three windows above as bit sets of d, by last % 3 */
    static const uint64_t dx_window[3] = {(1ull << 45) - 1, ((1ull << 41) - 1) | 1ull << 42,
                                          ((1ull << 40) - 1) | 1ull << 41 | 1ull << 42};
    return d < 64 && (dx_window[last % 3] >> d & 1);
}

/* Whether corner i of the primitive v[] hits at `progress` in batch `batch`, its earlier
 * corners already looked up and inserted. */
static inline bool gc_kerbl_corner_cached(const gc_kerbl_rule* r, const uint32_t* words, const uint32_t* v, unsigned i,
                                          uint32_t progress, uint32_t batch)
{
    const uint32_t x = v[i];
    for (unsigned k = i; k-- > 0;)
        if (v[k] == x)
            return gc_kerbl_cached(r, progress + i, progress + k);
    if (words[2 * (size_t)x] != batch)
        return false;
    return gc_kerbl_cached(r, progress + i, words[2 * (size_t)x + 1]);
}

/* The lookups of the primitive v[0..count) fed at `progress` into the open batch `batch`
 * (`cbatch` indices and `cuniques` invocations so far), nothing written: miss[i] for each
 * corner, and the invocations it costs; *cut when the batch ends before it (it is then
 * looked up in batch + 1, empty). A primitive must fit an empty batch (the model refuses
 * limits below its arity), so it is cut at most once. */
static inline uint32_t gc_kerbl_lookup(const gc_kerbl_rule* r, const uint32_t* words, const uint32_t* v, unsigned count,
                                       uint32_t progress, uint32_t batch, uint32_t cbatch, uint32_t cuniques, bool* miss,
                                       bool* cut)
{
    uint32_t adds = 0;
    *cut = false;
    for (unsigned i = 0; i < count; ++i) {
        miss[i] = !gc_kerbl_corner_cached(r, words, v, i, progress, batch);
        adds += miss[i];
        if (!*cut && (cuniques + adds > r->max_vertices || cbatch + i + 1 > r->max_indices)) {
            *cut = true;
            batch++;
            cbatch = cuniques = 0;
            adds = 0;
            for (unsigned j = 0; j <= i; ++j) {
                miss[j] = !gc_kerbl_corner_cached(r, words, v, j, progress, batch);
                adds += miss[j];
            }
        }
    }
    return adds;
}

/* nv-gl's page=P (P > 0), measured on an NVIDIA H100 (docs/models/nvidia-h100.md): the cache
 * is emptied before a corner whose value >> P differs from the previous corner's, while the
 * batch and its counters go on. Emptying steps the number of the cache in use, so `*cache`
 * takes the place of gc_kerbl_lookup's batch: words hold the number of the cache that last
 * referenced a vertex, and ids[i] receives corner i's. `*page` is the previous corner's page
 * (UINT32_MAX before the draw's first corner); pages[i] is corner i's value >> P (the index
 * value, which a sparse draw's dense ids hide). When the batch ends before corner i, the whole
 * primitive is looked up again in the next cache with no previous page (its own corners can
 * still empty that cache). The caller resets the batch's counters when *cut; *cache and
 * *page come back as they stand after the primitive. Found by seed 000's method: 21 probe
 * buffers exact per vertex, the corpus and 283 prefixes of igea exact
 * (tests/test_nvidia_h100.c). */
static inline uint32_t gc_kerbl_paged_pass(const gc_kerbl_rule* r, const uint32_t* words, const uint32_t* v,
                                           const uint32_t* pages, unsigned count, uint32_t progress, uint32_t* cache,
                                           uint32_t* page, bool* miss, uint32_t* ids)
{
    uint32_t adds = 0;
    for (unsigned i = 0; i < count; ++i) {
        const uint32_t x = v[i], pg = pages[i];
        if (*page != UINT32_MAX && pg != *page)
            ++*cache;
        *page = pg;
        ids[i] = *cache;
        bool hit = false, inside = false;
        for (unsigned k = i; k-- > 0;)
            if (v[k] == x) {
                hit = ids[k] == *cache && gc_kerbl_cached(r, progress + i, progress + k);
                inside = true;
                break;
            }
        if (!inside)
            hit = words[2 * (size_t)x] == *cache && gc_kerbl_cached(r, progress + i, words[2 * (size_t)x + 1]);
        miss[i] = !hit;
        adds += !hit;
    }
    return adds;
}

static inline uint32_t gc_kerbl_lookup_paged(const gc_kerbl_rule* r, const uint32_t* words, const uint32_t* v,
                                             const uint32_t* pages, unsigned count, uint32_t progress,
                                             uint32_t* cache, uint32_t* page, uint32_t cbatch, uint32_t cuniques,
                                             bool* miss, uint32_t* ids, bool* cut)
{
    uint32_t adds = gc_kerbl_paged_pass(r, words, v, pages, count, progress, cache, page, miss, ids), seen = 0;
    *cut = false;
    for (unsigned i = 0; i < count; ++i) {
        seen += miss[i];
        if (cuniques + seen > r->max_vertices || cbatch + i + 1 > r->max_indices) {
            *cut = true;
            ++*cache;
            *page = UINT32_MAX;
            return gc_kerbl_paged_pass(r, words, v, pages, count, progress, cache, page, miss, ids);
        }
    }
    return adds;
}

#endif
