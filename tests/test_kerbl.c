// SPDX-License-Identifier: MIT
/* Kerbl et al.'s batch rules (nv-dx, nv-gl, batch-all, ati; docs/models/kerbl.md):
 *  - worked examples derived by hand from their simulator (GPUPeople/vertex_batch_optimization,
 *    sceneprocessor/source/layers/BatchSimulator.h, "BS"): the vertex limit, the index limit,
 *    a reuse just inside and just outside each window, the DX window's slots, ATI's cut
 *    inside a triangle, its hard reset and its LRU;
 *  - on random triangle lists, each family against a second implementation written here
 *    from BatchState::addTriangle as it reads (a copy of the cache per triangle, flat arrays
 *    cleared by loops), sharing no code with the library. */
#include "test_util.h"

/* Invocations and batches of a triangle list under a spec. */
static gc_stats stats_of(const char* spec, const uint32_t* idx, size_t n)
{
    gc_model m = model_of(spec);
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(&m, &d, NULL, &st, &err) != GC_OK)
        fail_msg("%s: %s", spec, err.message);
    return st;
}

/* Appends triangle (a, b, c) `times` times. */
static size_t tri(uint32_t* idx, size_t n, uint32_t a, uint32_t b, uint32_t c, unsigned times)
{
    for (unsigned t = 0; t < times; ++t) {
        idx[n++] = a;
        idx[n++] = b;
        idx[n++] = c;
    }
    return n;
}

/* Appends `count` triangles of fresh vertices from *next. */
static size_t fresh(uint32_t* idx, size_t n, uint32_t* next, unsigned count)
{
    for (unsigned t = 0; t < count; ++t, *next += 3)
        n = tri(idx, n, *next, *next + 1, *next + 2, 1);
    return n;
}

/* ---------------------------------------------------------- worked examples */

/* NVIDIA: 32 invocations per batch (BS:332). Ten fresh triangles take 30; the eleventh
 * (30, 31, 32) would be the 33rd at its third corner, so the whole triangle opens batch 2
 * (BS:339); (0, 1, 2) then misses in batch 2 although 33 indices back is inside every
 * window: 30 + 3 + 3 = 36, 2 batches. A triangle reusing one vertex fits exactly:
 * (30, 5, 31) makes 32, and the next fresh one is cut at its first corner. */
static void nv_vertex_limit(void** state)
{
    (void)state;
    uint32_t idx[64 * 3];
    const char* const specs[] = {"nv-dx", "nv-gl", "nvidia-dx", "nvidia-gl"};
    for (size_t s = 0; s < 4; ++s) {
        uint32_t next = 0;
        size_t n = fresh(idx, 0, &next, 10);
        n = tri(idx, n, 30, 31, 32, 1);
        n = tri(idx, n, 0, 1, 2, 1);
        gc_stats st = stats_of(specs[s], idx, n);
        assert_int_equal(st.invocations, 36);
        assert_int_equal(st.batches, 2);
        /* with room for 33 the same stream is one batch and (0, 1, 2) hits (d = 33) */
        const char* wide = s % 2 ? "nv-gl:indices=96,vertices=33,window=42" : "nv-dx:indices=96,vertices=33";
        st = stats_of(wide, idx, n);
        assert_int_equal(st.invocations, 33);
        assert_int_equal(st.batches, 1);

        next = 0;
        n = fresh(idx, 0, &next, 10);
        n = tri(idx, n, 30, 5, 31, 1); /* 5 is 26 indices back: a hit; 32 exactly */
        gc_stats one = stats_of(specs[s], idx, n);
        assert_int_equal(one.invocations, 32);
        assert_int_equal(one.batches, 1);
        n = tri(idx, n, 40, 41, 42, 1); /* the 33rd at its first corner */
        one = stats_of(specs[s], idx, n);
        assert_int_equal(one.invocations, 35);
        assert_int_equal(one.batches, 2);
    }
}

/* 96 indices per batch (BS:334): (0, 1, 2) 32 times is one batch of 3 invocations; the
 * 33rd copy (indices 97-99) opens batch 2 and shades all three again: 6 (the jump at 99
 * indices the paper shows on a GTX 1080 Ti). Intel's 1791 the same way: 597 copies, 3;
 * 598, 6. */
static void index_limit(void** state)
{
    (void)state;
    static uint32_t idx[600 * 3];
    size_t n = tri(idx, 0, 0, 1, 2, 32);
    assert_int_equal(stats_of("nv-dx", idx, n).invocations, 3);
    assert_int_equal(stats_of("nv-gl", idx, n).invocations, 3);
    n = tri(idx, n, 0, 1, 2, 1);
    assert_int_equal(stats_of("nv-dx", idx, n).invocations, 6);
    assert_int_equal(stats_of("nv-gl", idx, n).invocations, 6);
    assert_int_equal(stats_of("nv-gl", idx, n).batches, 2);
    n = tri(idx, 0, 0, 1, 2, 597);
    assert_int_equal(stats_of("intel-lower-bound", idx, n).invocations, 3);
    n = tri(idx, n, 0, 1, 2, 1);
    assert_int_equal(stats_of("intel-lower-bound", idx, n).invocations, 6);
    assert_int_equal(stats_of("intel-lower-bound", idx, n).batches, 2);
}

/* Vertex 0 used once at position p0, then only (3, 4, 5) (hits), then 0 again at
 * position p1 = 3 * t + corner: the invocations tell whether 0 was still cached. */
static size_t window_stream(uint32_t* idx, unsigned first_corner, unsigned t, unsigned corner)
{
    uint32_t a[3] = {1, 2, 6}, b[3] = {3, 4, 5};
    a[first_corner] = 0; /* the other two corners: two of 1, 2, 6 */
    size_t n = tri(idx, 0, a[0], a[1], a[2], 1);
    n = tri(idx, n, 3, 4, 5, t - 1);
    b[corner] = 0;
    return tri(idx, n, b[0], b[1], b[2], 1);
}

/* GL (BS:127, d <= 42): from position 0, a reuse at 42 hits (6 invocations: 0, 1, 2, 3, 4,
 * 5), at 43 misses (7). DX (BS:141-150) by the slot of the last use:
 *  slot 0, d < 45:               d = 44 hits, d = 45 misses (GL misses both);
 *  slot 1, d <= 40 or d == 42:   40 hits, 41 misses, 42 hits, 43 misses;
 *  slot 2, d <= 39, 41 or 42:    39 hits, 40 misses, 41 hits, 42 hits, 43 misses. */
static void windows(void** state)
{
    (void)state;
    uint32_t idx[64 * 3];
    static const struct {
        unsigned slot, d;
        int dx_hit, gl_hit;
    } cases[] = {
        {0, 42, 1, 1}, {0, 43, 1, 0}, {0, 44, 1, 0}, {0, 45, 0, 0}, {1, 40, 1, 1}, {1, 41, 0, 1},
        {1, 42, 1, 1}, {1, 43, 0, 0}, {2, 39, 1, 1}, {2, 40, 0, 1}, {2, 41, 1, 1}, {2, 42, 1, 1},
        {2, 43, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        unsigned p1 = cases[k].slot + cases[k].d;
        size_t n = window_stream(idx, cases[k].slot, p1 / 3, p1 % 3);
        assert_int_equal(n, 3 * (p1 / 3 + 1));
        assert_int_equal(idx[cases[k].slot], 0);
        assert_int_equal(idx[p1], 0);
        /* 0, 1, 2 (or 1, 0, 2 ...), then 3, 4, 5: 6 invocations, and 0 again when missed */
        uint64_t dx = stats_of("nv-dx", idx, n).invocations, gl = stats_of("nv-gl", idx, n).invocations;
        if (dx != (cases[k].dx_hit ? 6u : 7u) || gl != (cases[k].gl_hit ? 6u : 7u))
            fail_msg("slot %u, d = %u: nv-dx %llu, nv-gl %llu invocations", cases[k].slot, cases[k].d,
                     (unsigned long long)dx, (unsigned long long)gl);
        /* the same reuse under a GL window of d - 1 misses, of d hits */
        char spec[64];
        snprintf(spec, sizeof spec, "nv-gl:indices=96,vertices=32,window=%u", cases[k].d - 1);
        assert_int_equal(stats_of(spec, idx, n).invocations, 7);
        snprintf(spec, sizeof spec, "nv-gl:indices=96,vertices=32,window=%u", cases[k].d);
        assert_int_equal(stats_of(spec, idx, n).invocations, 6);
    }
}

/* Every reference moves the last use (BS:177-178): 0 at 0, 39, 78 — each 39 apart — stays
 * cached though 78 is past every window from position 0. */
static void every_reference_moves(void** state)
{
    (void)state;
    uint32_t idx[30 * 3];
    size_t n = tri(idx, 0, 0, 1, 2, 1);
    n = tri(idx, n, 3, 4, 5, 12);
    n = tri(idx, n, 0, 4, 5, 1); /* position 39 */
    n = tri(idx, n, 3, 4, 5, 12);
    n = tri(idx, n, 0, 4, 5, 1); /* position 78 */
    assert_int_equal(stats_of("nv-dx", idx, n).invocations, 6);
    assert_int_equal(stats_of("nv-gl", idx, n).invocations, 6);
}

/* ATI cuts inside a triangle (BS:356-370) and keeps its LRU across the cut (BS:236).
 * With 4 invocations a batch, four fresh triangles make batches {0 1 2 3} {4 5 6 7}
 * {8 9 10 11}: 3; triangle-bounded batches (batch-all) make {0 1 2} {3 4 5} {6 7 8}
 * {9 10 11}: 4. With the default 64: 21 fresh triangles are 63, the 22nd is cut after its
 * first corner, and (60, 61, 62) then hits the LRU: 66 invocations, 2 batches. */
static void ati_cut_inside(void** state)
{
    (void)state;
    uint32_t idx[64 * 3];
    uint32_t next = 0;
    size_t n = fresh(idx, 0, &next, 4);
    gc_stats st = stats_of("ati:lru=15,vertices=4,reset=384", idx, n);
    assert_int_equal(st.invocations, 12);
    assert_int_equal(st.batches, 3);
    assert_int_equal(stats_of("batch-all:indices=96,vertices=4", idx, n).batches, 4);

    next = 0;
    n = fresh(idx, 0, &next, 22);
    n = tri(idx, n, 60, 61, 62, 1);
    st = stats_of("ati", idx, n);
    assert_int_equal(st.invocations, 66);
    assert_int_equal(st.batches, 2);
}

/* The hard reset every 384 indices (BS:313-317): (0, 1, 2) 128 times is 3 invocations;
 * the 129th copy starts at 384, after the reset: 6, one reset. radeonsi's groups of 128
 * are the same 384 indices. */
static void ati_hard_reset(void** state)
{
    (void)state;
    uint32_t idx[130 * 3];
    size_t n = tri(idx, 0, 0, 1, 2, 128);
    assert_int_equal(stats_of("ati", idx, n).invocations, 3);
    assert_int_equal(stats_of("ati", idx, n).resets, 0);
    n = tri(idx, n, 0, 1, 2, 1);
    gc_stats st = stats_of("ati-basic", idx, n);
    assert_int_equal(st.invocations, 6);
    assert_int_equal(st.resets, 1);
    assert_int_equal(st.batches, 2);
    assert_int_equal(stats_of("radeonsi-polaris", idx, n).invocations, 6);
}

/* The LRU of 15 (BS:189-233): five fresh triangles fill it with 0..14; (0, 1, 15) hits 0
 * and 1 (16 invocations); (15, 0, 1) instead drops 0 for 15, then 1 for 0, then 2 for 1:
 * 18. radeonsi's depth 30 keeps ten fresh triangles: (0, 1, 2) then hits (30), where 15
 * misses all three (33). */
static void ati_lru(void** state)
{
    (void)state;
    uint32_t idx[16 * 3];
    uint32_t next = 0;
    size_t n = fresh(idx, 0, &next, 5);
    size_t m = tri(idx, n, 0, 1, 15, 1);
    assert_int_equal(stats_of("ati", idx, m).invocations, 16);
    m = tri(idx, n, 15, 0, 1, 1);
    assert_int_equal(stats_of("ati", idx, m).invocations, 18);
    next = 0;
    n = fresh(idx, 0, &next, 10);
    n = tri(idx, n, 0, 1, 2, 1);
    assert_int_equal(stats_of("radeonsi-polaris", idx, n).invocations, 30);
    assert_int_equal(stats_of("ati", idx, n).invocations, 33);
    assert_int_equal(stats_of("radeonsi-polaris-tess-odd", idx, n).invocations, 33);
}

/* Intel's bound: 128 invocations, full reuse (BS:108-111). 42 fresh triangles are 126; the
 * 43rd is cut at its third corner and opens batch 2, where (0, 1, 2) misses: 132. */
static void intel_vertex_limit(void** state)
{
    (void)state;
    uint32_t idx[50 * 3];
    uint32_t next = 0;
    size_t n = fresh(idx, 0, &next, 43);
    n = tri(idx, n, 0, 1, 2, 1);
    gc_stats st = stats_of("intel-lower-bound", idx, n);
    assert_int_equal(st.invocations, 132);
    assert_int_equal(st.batches, 2);
    /* one fresh triangle fewer: (0, 1, 2) hits however far back */
    next = 0;
    n = fresh(idx, 0, &next, 42);
    n = tri(idx, n, 0, 1, 2, 1);
    assert_int_equal(stats_of("intel-lower-bound", idx, n).invocations, 126);
}

/* batch-all's hard reset, as VertexReuseStats.cpp:234 runs CURE warp (HardReset 96): ten
 * fresh triangles, (30, 31, 32) cut to batch 2 at position 30, then 21 more copies (to
 * position 95): at 96 the static batches reset although batch 2 holds only 66 indices, and
 * (30, 31, 32) is shaded again (36); the table's dynamic batches keep it (33). */
static void static_reset(void** state)
{
    (void)state;
    uint32_t idx[40 * 3];
    uint32_t next = 0;
    size_t n = fresh(idx, 0, &next, 10);
    n = tri(idx, n, 30, 31, 32, 23);
    assert_int_equal(n, 99);
    assert_int_equal(stats_of("cure-warp", idx, n).invocations, 33);
    gc_stats st = stats_of("batch-all:indices=96,vertices=32,reset=96", idx, n);
    assert_int_equal(st.invocations, 36);
    assert_int_equal(st.batches, 3);
}

/* ------------------------------------------------- the naive implementation */

/* BatchState<FIFOCacheSim<Entry>>::addTriangle with triangle_bounds (BS:310-382), as the
 * code reads: `kind` 0 = NVDx, 1 = NVGL (window), 2 = Forever. The cache is two flat arrays
 * (present, last use), copied whole for each triangle, cleared by a loop at a batch end. */
enum { NAIVE_V = 256 };
typedef struct naive_cache {
    bool present[NAIVE_V];
    uint32_t last[NAIVE_V];
} naive_cache;

static bool naive_entry(int kind, uint32_t window, uint32_t last, uint32_t current)
{
    uint32_t d = current - last;
    if (kind == 1)
        return d <= window;
    if (kind == 2)
        return true;
    if (last % 3 == 0)
        return d < 45;
    if (last % 3 == 1)
        return d <= 40 || d == 42;
    return d <= 39 || d == 41 || d == 42;
}

static bool naive_cached(const naive_cache* c, int kind, uint32_t window, uint32_t v, uint32_t at)
{
    return c->present[v] && naive_entry(kind, window, c->last[v], at);
}

static void naive_insert(naive_cache* c, uint32_t v, uint32_t at)
{
    c->present[v] = true;
    c->last[v] = at;
}

static void naive_triangle_bounded(const uint32_t* idx, size_t n, int kind, uint32_t bi, uint32_t bv, uint32_t window,
                                   uint32_t hard, uint64_t* invocations, uint64_t* batches)
{
    static naive_cache cache, ccopy;
    for (uint32_t v = 0; v < NAIVE_V; ++v)
        cache.present[v] = false;
    uint32_t cbatch = 0, cuniques = 0, progress = 0, inv = 0, last_hard_reset = 0;
    uint64_t ends = 0;
    for (size_t t = 0; t + 3 <= n; t += 3) {
        const uint32_t* ind = idx + t;
        if (progress % hard == 0 && last_hard_reset != progress) { /* BS:313-317 */
            ends++;
            for (uint32_t v = 0; v < NAIVE_V; ++v)
                cache.present[v] = false;
            cbatch = cuniques = 0;
            last_hard_reset = progress;
        }
        ccopy = cache;
        uint32_t adds = 0;
        for (uint32_t i = 0; i < 3; ++i) {
            if (!naive_cached(&ccopy, kind, window, ind[i], progress + i))
                ++adds;
            bool reset_state = cuniques + adds > bv || cbatch + i + 1 > bi;
            if (!reset_state) {
                naive_insert(&ccopy, ind[i], progress + i);
            } else {
                ends++; /* pendBatch */
                for (uint32_t v = 0; v < NAIVE_V; ++v)
                    cache.present[v] = false;
                cbatch = 0;
                cuniques = 0;
                last_hard_reset = progress;
                ccopy = cache;
                adds = 0;
                for (uint32_t j = 0; j <= i; ++j) {
                    if (!naive_cached(&ccopy, kind, window, ind[j], progress + j))
                        ++adds;
                    naive_insert(&ccopy, ind[j], progress + j);
                }
            }
        }
        cache = ccopy;
        cuniques += adds;
        inv += adds;
        cbatch += 3;
        progress += 3;
    }
    *invocations = inv;
    *batches = ends + (n >= 3);
}

/* BatchState<LRUCacheSim<S>>::addTriangle without triangle bounds (BS:310-382): a ring
 * buffer as theirs, copied per triangle. */
typedef struct naive_lru {
    uint32_t buffer[64];
    uint32_t front, size;
} naive_lru;

static bool lru_has(const naive_lru* c, uint32_t S, uint32_t v)
{
    for (uint32_t i = 0; i < c->size; ++i)
        if (c->buffer[(c->front + i) % S] == v)
            return true;
    return false;
}

static void lru_put(naive_lru* c, uint32_t S, uint32_t v)
{
    uint32_t loc = UINT32_MAX;
    for (uint32_t i = 0; i < c->size; ++i)
        if (c->buffer[(c->front + i) % S] == v) {
            loc = i;
            break;
        }
    if (loc == UINT32_MAX) {
        if (c->size == S)
            c->front = (c->front + 1) % S;
        else
            ++c->size;
    } else {
        for (uint32_t i = loc + 1; i < c->size; ++i)
            c->buffer[(c->front + i - 1) % S] = c->buffer[(c->front + i) % S];
    }
    c->buffer[(c->front + c->size - 1) % S] = v;
}

static void naive_ati(const uint32_t* idx, size_t n, uint32_t S, uint32_t bv, uint32_t hard, uint64_t* invocations,
                      uint64_t* batches, uint64_t* resets)
{
    naive_lru cache = {{0}, 0, 0}, ccopy;
    uint32_t cbatch = 0, cuniques = 0, progress = 0, last_hard_reset = 0, inv = 0;
    uint64_t ends = 0, hards = 0;
    for (size_t t = 0; t + 3 <= n; t += 3) {
        const uint32_t* ind = idx + t;
        if (progress % hard == 0 && last_hard_reset != progress) {
            ends++, hards++;
            cache.front = cache.size = 0;
            cbatch = cuniques = 0;
            last_hard_reset = progress;
        }
        ccopy = cache;
        uint32_t adds = 0, move = 3;
        for (uint32_t i = 0; i < 3; ++i) {
            if (!lru_has(&ccopy, S, ind[i]))
                ++adds;
            bool reset_state = cuniques + adds > bv || cbatch + i + 1 > hard;
            if (!reset_state) {
                lru_put(&ccopy, S, ind[i]);
            } else {
                cuniques += adds - 1;
                inv += adds - 1;
                cbatch += i;
                progress += i;
                ends++; /* pendBatch(ccopy, false): the LRU stays */
                cbatch = 0;
                cuniques = 0;
                last_hard_reset = progress;
                adds = 1;
                move -= i;
                lru_put(&ccopy, S, ind[i]);
            }
        }
        cache = ccopy;
        cuniques += adds;
        inv += adds;
        cbatch += move;
        progress += move;
    }
    *invocations = inv;
    *batches = ends + (n >= 3);
    *resets = hards;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

/* Random triangle lists: mostly near a drifting base (reuse at every distance), some
 * far jumps; lengths across several batches and resets. */
static size_t random_list(uint32_t* idx, size_t triangles, uint32_t vertices)
{
    uint32_t base = 0;
    for (size_t k = 0; k < triangles * 3; ++k) {
        if (rnd(6) == 0)
            base = rnd(vertices);
        idx[k] = rnd(5) == 0 ? rnd(vertices) : (base + rnd(8)) % vertices;
    }
    return triangles * 3;
}

static void against_naive(void** state)
{
    (void)state;
    enum { MAXT = 1500 };
    static uint32_t idx[MAXT * 3];
    static const struct {
        const char* spec;
        int kind; /* 0 dx, 1 gl, 2 all, 3 ati */
        uint32_t a, b, c, hard;
    } specs[] = {
        {"nv-dx", 0, 96, 32, 0, 0},
        {"nv-gl", 1, 96, 32, 42, 0},
        {"nv-dx:indices=12,vertices=5", 0, 12, 5, 0, 0},
        {"nv-dx:indices=30,vertices=3", 0, 30, 3, 0, 0},
        {"nv-gl:indices=21,vertices=7,window=4", 1, 21, 7, 4, 0},
        {"nv-gl:indices=96,vertices=32,window=0", 1, 96, 32, 0, 0},
        {"batch-all", 2, 1791, 128, 0, 0},
        {"batch-all:indices=96,vertices=32", 2, 96, 32, 0, 0},
        {"batch-all:indices=10,vertices=4", 2, 10, 4, 0, 0},
        {"batch-all:indices=96,vertices=32,reset=96", 2, 96, 32, 0, 96},
        {"batch-all:indices=10,vertices=4,reset=9", 2, 10, 4, 0, 9},
        {"batch-all:indices=30,vertices=5,reset=12", 2, 30, 5, 0, 12},
        {"ati", 3, 15, 64, 384, 0},
        {"ati:lru=30,vertices=64,reset=384", 3, 30, 64, 384, 0},
        {"ati:lru=4,vertices=5,reset=30", 3, 4, 5, 30, 0},
        {"ati:lru=7,vertices=3,reset=100", 3, 7, 3, 100, 0},
        {"ati:lru=2,vertices=9,reset=10", 3, 2, 9, 10, 0},
    };
    const size_t lengths[] = {0, 1, 2, 11, 31, 32, 33, 100, 129, 400, 1500};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; ++s)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l)
            for (int rep = 0; rep < 3; ++rep) {
                uint32_t vertices = 3 + rnd(rep == 0 ? 40 : NAIVE_V - 3);
                size_t n = random_list(idx, lengths[l], vertices);
                uint64_t inv = 0, batches = 0, resets = 0;
                if (specs[s].kind == 3)
                    naive_ati(idx, n, specs[s].a, specs[s].b, specs[s].c, &inv, &batches, &resets);
                else
                    naive_triangle_bounded(idx, n, specs[s].kind, specs[s].a, specs[s].b, specs[s].c,
                                           specs[s].hard ? specs[s].hard : 0xFFFFFFFFu, &inv, &batches);
                gc_stats st = stats_of(specs[s].spec, idx, n);
                if (st.invocations != inv || st.batches != batches || st.resets != resets)
                    fail_msg("%s, %zu triangles of %u vertices: invocations %llu (naive %llu), batches %llu (%llu), "
                             "resets %llu (%llu)",
                             specs[s].spec, lengths[l], vertices, (unsigned long long)st.invocations,
                             (unsigned long long)inv, (unsigned long long)st.batches, (unsigned long long)batches,
                             (unsigned long long)st.resets, (unsigned long long)resets);
            }
}

/* The specs and presets name themselves as `gpucache models` lists them. */
static void names(void** state)
{
    (void)state;
    assert_string_equal(model_of("nv-dx").name, "nv-dx");
    assert_string_equal(model_of("nv-dx:indices=96,vertices=32").name, "nv-dx");
    assert_string_equal(model_of("nv-gl:window=40").name, "nv-gl:indices=96,vertices=32,window=40");
    assert_string_equal(model_of("batch-all:indices=96,vertices=32").name, "batch-all:indices=96,vertices=32");
    assert_string_equal(model_of("ati:lru=30").name, "ati:lru=30,vertices=64,reset=384");
    assert_string_equal(model_of("radeonsi-polaris").name, "radeonsi-polaris");
    assert_int_equal(model_of("radeonsi-polaris").p[0], 30);
    assert_int_equal(model_of("radeonsi-polaris-tess-odd").p[0], 14);
    assert_int_equal(model_of("intel-lower-bound").p[0], 1791);
    assert_int_equal(model_of("cure-block").p[1], 256);
    gc_model m;
    gc_error err;
    assert_int_equal(gc_model_parse("nv-dx:window=3", &m, &err), GC_ERR_USAGE);
    assert_int_equal(gc_model_parse("nv-dx:vertices=2", &m, &err), GC_ERR_USAGE);
    assert_int_equal(gc_model_parse("ati:lru=0", &m, &err), GC_ERR_USAGE);
    assert_int_equal(gc_model_parse("ati:lru=1025", &m, &err), GC_ERR_USAGE);
    assert_int_equal(gc_model_parse("nv-gl:reset=3", &m, &err), GC_ERR_USAGE);
    assert_string_equal(model_of("batch-all:reset=0").name, "batch-all");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nv_vertex_limit), cmocka_unit_test(index_limit),   cmocka_unit_test(windows),
        cmocka_unit_test(every_reference_moves), cmocka_unit_test(ati_cut_inside), cmocka_unit_test(ati_hard_reset),
        cmocka_unit_test(ati_lru), cmocka_unit_test(intel_vertex_limit), cmocka_unit_test(static_reset),
        cmocka_unit_test(against_naive),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
