// SPDX-License-Identifier: MIT
/* The table of model families: one row per family (zstd's strategy table and SQLite's
 * FuncDef are the pattern), holding what the rest of the library knows of it: name,
 * syntax, summary and example; the parameters with their ranges and fallbacks; the rule
 * and the fast loop; the traits the optimizer reads (gc_family_traits) and the fit's
 * standard candidates. Nothing else in the library asks which family a model is.
 * Adding a family: its file under src/models/ (rule and, if any, fast loop) and its row
 * here (README.md, "Adding a model"). Callers' rows: gc_family_register, below. Specs
 * are parsed here too (gc_model_parse), from the rows. */
#include "models.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ traits */

static uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* fifo and lru: a plain cache of p[0] entries. */
static void plain_cache_traits(const gc_model* m, gc_family_traits* t)
{
    t->order_cache = m->p[0];
    t->fifo_like = 1;
}

/* lru: the same, with a Forsyth table tuned for lru:16 (family_scores.c) at 16 entries. */
static void lru_traits(const gc_model* m, gc_family_traits* t)
{
    plain_cache_traits(m, t);
    if (m->p[0] == 16)
        t->order_scores = gc_family_scores_lru16;
}

static void direct_value_traits(const gc_model* m, gc_family_traits* t)
{
    t->order_cache = m->p[0];
    t->value_keyed = 1;
}

static void direct_position_traits(const gc_model* m, gc_family_traits* t)
{
    t->order_cache = m->p[0];
}

static void nvidia_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t size = m->p[0];
    t->capacity = size, t->capacity_what = "cache size";
    t->order_cache = size;
    t->resets_field = "resets";
}

static void meshopt_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t cache = m->p[0], warp = m->p[1], group = m->p[2];
    t->capacity = warp, t->capacity_what = "warp size";
    t->order_cache = min_u32(cache, 64); /* tuned on the corpus: larger aims did worse */
    t->pieces = 1, t->piece_triangles = group, t->piece_vertices = warp;
    t->warp_sum = warp != 0 && cache >= warp; /* nothing is evicted within a warp */
    t->resets_field = "flushes";
}

static void reuse_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t warp = m->p[0], triangles = m->p[2];
    t->capacity = warp, t->capacity_what = "warp size";
    t->order_cache = warp;
    t->pieces = 1, t->piece_triangles = triangles, t->piece_vertices = warp;
    t->resets_field = "flushes";
}

static void batch_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t slots = m->p[0], prims = m->p[1];
    t->capacity = slots, t->capacity_what = "slot count";
    t->order_cache = slots;
    t->pieces = 1, t->piece_triangles = prims, t->piece_vertices = slots;
    t->fill_slots = slots;
}

static void llvmpipe_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t segment = m->p[0], map = m->p[1];
    t->order_cache = 256;
    t->value_keyed = 1;
    /* a triangle list's segments hold floor(segment / 3) triangles from the draw's start */
    t->pieces = 1, t->piece_triangles = segment / 3;
    t->segment_indices = segment, t->segment_map = map;
}

/* Kerbl et al.'s triangle-bounded batches (nv-dx, nv-gl, batch-all): `indices` / 3
 * triangles and `vertices` invocations from the draw's start; a batch's distinct vertices
 * are its cost under batch-all, and under nv-dx/nv-gl while the window holds them. */
static void kerbl_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t indices = m->p[0], vertices = m->p[1];
    /* a primitive must fit an empty batch, so that it is cut at most once */
    t->capacity = min_u32(indices, vertices), t->capacity_what = "batch limit";
    t->order_cache = vertices; /* what one batch shades */
    t->pieces = 1, t->piece_triangles = indices / 3, t->piece_vertices = vertices;
    t->kerbl_batches = 1, t->batch_indices = indices, t->batch_held = vertices;
    t->batch_reuse_weight = -4; /* SceneProcessor.cpp's "gbatch" */
    t->value_keyed = m->family == GC_MODEL_NV_GL && m->p[3] != 0; /* pages of index values (the H100) */
    t->batch_greedy_cheap = 1;
}

static void batch_all_traits(const gc_model* m, gc_family_traits* t)
{
    kerbl_traits(m, t);
    t->batch_greedy_cheap = m->p[1] <= 64; /* larger batches: it never won on the corpus */
}

static void ati_traits(const gc_model* m, gc_family_traits* t)
{
    const uint32_t lru = m->p[0], vertices = m->p[1], reset = m->p[2];
    t->capacity = vertices, t->capacity_what = "batch vertex limit";
    t->order_cache = lru;
    t->kerbl_batches = 1, t->batch_indices = reset, t->batch_held = lru, t->batch_cut_inside = 1;
    t->batch_reuse_weight = -16; /* SceneProcessor.cpp's "gbatch.amd" */
    t->batch_greedy_cheap = lru >= 16; /* smaller LRUs: the greedy and Forsyth did better */
}

/* meshoptimizer asserts cache_size >= 3 and warp_size == 0 || warp_size >= 3. */
static gc_status meshopt_validate(const gc_model* m, const char* spec, gc_error* err)
{
    if (m->p[1] != 0 && m->p[1] < 3)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': warp size must be 0 (no warps) or at least 3", spec);
    return GC_OK;
}

/* ------------------------------------------------------- the fit's candidates */

/* Stages (gc_family.search): 0-1 the two specific defaults, 2 the sized caches, 3 nvidia,
 * 4 meshopt, 5 reuse, 6 batch, 7 llvmpipe, 8-19 Kerbl's NVIDIA batches (nv-dx and nv-gl
 * alternating by batch size), 20 batch-all, 21 ati: the order the fit always searched,
 * so that ties rank as before. */
static void addf(gc_family_add_fn add, void* user, const char* format, ...) __attribute__((format(printf, 3, 4)));
static void addf(gc_family_add_fn add, void* user, const char* format, ...)
{
    char spec[96];
    va_list ap;
    va_start(ap, format);
    vsnprintf(spec, sizeof spec, format, ap);
    va_end(ap);
    add(user, spec);
}

static void sized_search(const char* family, unsigned stage, gc_family_add_fn add, void* user)
{
    if (stage == 2)
        for (unsigned size = 1; size <= 256; ++size)
            addf(add, user, "%s:%u", family, size);
}
static void fifo_search(unsigned stage, gc_family_add_fn add, void* user)
{
    sized_search("fifo", stage, add, user);
}
static void lru_search(unsigned stage, gc_family_add_fn add, void* user)
{
    sized_search("lru", stage, add, user);
}
static void direct_value_search(unsigned stage, gc_family_add_fn add, void* user)
{
    sized_search("direct-value", stage, add, user);
}
static void direct_position_search(unsigned stage, gc_family_add_fn add, void* user)
{
    sized_search("direct-position", stage, add, user);
}

/* cache sizes, idle and insertion lifetimes (0 = never expires) */
static void nvidia_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned idles[] = {0, 8, 16, 24, 32, 64};
    static const unsigned lives[] = {0, 16, 32, 48, 64};
    if (stage == 1)
        add(user, "nvidia");
    if (stage != 3)
        return;
    for (unsigned size = 3; size <= 256; size += size < 64 ? 1 : 32)
        for (size_t i = 0; i < sizeof idles / sizeof idles[0]; ++i)
            for (size_t l = 0; l < sizeof lives / sizeof lives[0]; ++l)
                addf(add, user, "nvidia:size=%u,idle=%u,life=%u", size, idles[i], lives[l]);
}

/* cache, warp (0 = none), primitive group (0 = no limit) */
static void meshopt_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned warps[] = {0, 16, 32, 64};
    static const unsigned groups[] = {0, 16, 32, 64, 128, 256};
    if (stage != 4)
        return;
    for (unsigned cache = 3; cache <= 256; cache += cache < 64 ? 1 : 8)
        for (size_t w = 0; w < sizeof warps / sizeof warps[0]; ++w)
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g)
                addf(add, user, "meshopt:%u,%u,%u", cache, warps[w], groups[g]);
}

/* warp, compare window, triangles per warp */
static void reuse_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned warps[] = {16, 32, 48, 64, 96, 128};
    static const unsigned windows[] = {4, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    static const unsigned tris[] = {0, 16, 32, 64, 128, 256};
    if (stage != 5)
        return;
    for (size_t w = 0; w < sizeof warps / sizeof warps[0]; ++w)
        for (size_t f = 0; f < sizeof windows / sizeof windows[0] && windows[f] <= warps[w]; ++f)
            for (size_t t = 0; t < sizeof tris / sizeof tris[0]; ++t)
                addf(add, user, "reuse:%u,%u,%u", warps[w], windows[f], tris[t]);
}

/* slots, and a few primitive limits */
static void batch_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned slots[] = {16, 32, 64}, prims[] = {8, 16, 32};
    if (stage != 6)
        return;
    for (unsigned n = 3; n <= 256; ++n)
        addf(add, user, "batch:slots=%u,prims=0", n);
    for (size_t s = 0; s < 3; ++s)
        for (size_t p = 0; p < 3; ++p)
            addf(add, user, "batch:slots=%u,prims=%u", slots[s], prims[p]);
}

/* segment length and fetch-table size */
static void llvmpipe_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned segments[] = {256, 512, 1024, 2048, 4096};
    static const unsigned maps[] = {64, 128, 256, 512, 1024};
    if (stage == 0)
        add(user, "llvmpipe");
    if (stage != 7)
        return;
    for (size_t s = 0; s < 5; ++s)
        for (size_t m = 0; m < 5; ++m)
            addf(add, user, "llvmpipe:segment=%u,map=%u", segments[s], maps[m]);
}

/* Kerbl et al.'s NVIDIA batches (indices, invocations): stage 8 + 2b for nv-dx's b-th size,
 * 9 + 2b for nv-gl's windows at that size. */
static const unsigned kerbl_sizes[][2] = {{96, 32}, {48, 16}, {96, 16}, {192, 64}, {96, 64}, {384, 128}};
#define KERBL_SIZES (sizeof kerbl_sizes / sizeof kerbl_sizes[0])

static void nv_dx_search(unsigned stage, gc_family_add_fn add, void* user)
{
    if (stage >= 8 && stage < 8 + 2 * KERBL_SIZES && stage % 2 == 0) {
        const unsigned* b = kerbl_sizes[(stage - 8) / 2];
        addf(add, user, "nv-dx:indices=%u,vertices=%u", b[0], b[1]);
    }
}

static void nv_gl_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned windows[] = {8, 16, 24, 32, 40, 42, 48, 64};
    if (stage >= 8 && stage < 8 + 2 * KERBL_SIZES && stage % 2 == 1) {
        const unsigned* b = kerbl_sizes[(stage - 8) / 2];
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; ++w) {
            addf(add, user, "nv-gl:indices=%u,vertices=%u,window=%u", b[0], b[1], windows[w]);
            /* and emptied at each change of an index's 65536-value page (the H100) */
            addf(add, user, "nv-gl:indices=%u,vertices=%u,window=%u,page=16", b[0], b[1], windows[w]);
        }
    }
}

/* full reuse in batches (Intel's bound, CURE) */
static void batch_all_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned indices[] = {96, 192, 384, 768, 1023, 1791}, vertices[] = {16, 32, 64, 128, 256};
    if (stage != 20)
        return;
    for (size_t i = 0; i < sizeof indices / sizeof indices[0]; ++i)
        for (size_t v = 0; v < sizeof vertices / sizeof vertices[0]; ++v)
            addf(add, user, "batch-all:indices=%u,vertices=%u", indices[i], vertices[v]);
}

/* ATI's LRU with hard resets */
static void ati_search(unsigned stage, gc_family_add_fn add, void* user)
{
    static const unsigned lrus[] = {8, 14, 15, 16, 24, 30, 32}, resets[] = {192, 384, 768};
    if (stage != 21)
        return;
    for (size_t l = 0; l < sizeof lrus / sizeof lrus[0]; ++l)
        for (size_t r = 0; r < sizeof resets / sizeof resets[0]; ++r)
            addf(add, user, "ati:lru=%u,vertices=64,reset=%u", lrus[l], resets[r]);
}

/* ------------------------------------------------------------------ the table */

#define MAXC GC_MAX_CACHE_SIZE
#define ENTRIES {{"entries", 1, MAXC, 0, 0}}

/* Kerbl et al.'s batch limits (BatchSimulationParameters.h: 96/32 for NVIDIA, 1791/128
 * for Intel); the window is NV_GL's 42 (BatchSimulator.h:127). At least a triangle's 3
 * each (gc_analyze checks the topology's arity). */
static const gc_family_def builtin[GC_MODEL_FAMILY_COUNT] = {
    [GC_MODEL_FIFO] = {{"fifo", "fifo:N", "FIFO of N entries; a hit does not refresh (seeds 000-002)", "fifo:16", 1,
                        ENTRIES, 1, NULL, &gc_rule_fifo, plain_cache_traits, fifo_search},
                       gc_model_fifo_run, gc_model_fifo_checks_indices, 4, NULL},
    [GC_MODEL_LRU] = {{"lru", "lru:N", "least recently used, N entries (seeds 000, 002)", "lru:16", 1, ENTRIES, 1, NULL,
                       &gc_rule_lru, lru_traits, lru_search},
                      gc_model_lru_run, NULL, 4, NULL},
    [GC_MODEL_DIRECT_VALUE] = {{"direct-value", "direct-value:N", "slot = index value mod N (seed 000)",
                                "direct-value:16", 1, ENTRIES, 1, NULL, &gc_rule_direct_value, direct_value_traits,
                                direct_value_search},
                               gc_model_direct_value_run, NULL, 4, NULL},
    [GC_MODEL_DIRECT_POSITION] = {{"direct-position", "direct-position:N", "slot = stream position mod N (seed 000)",
                                   "direct-position:16", 1, ENTRIES, 1, NULL, &gc_rule_direct_position,
                                   direct_position_traits, direct_position_search},
                                  gc_model_direct_position_run, NULL, 4, NULL},
    /* The model packs a slot number in 10 bits: at most 1024 entries. */
    [GC_MODEL_NVIDIA] = {{"nvidia", "nvidia[:size=,idle=,life=]", "seed 000's probed NVIDIA rules (32, 16, 32)",
                          "nvidia:size=32,idle=16,life=32", 3,
                          {{"size", 1, 1024, 32, 0}, {"idle", 0, UINT32_MAX, 16, 0}, {"life", 0, UINT32_MAX, 32, 0}},
                          0, NULL, &gc_rule_nvidia, nvidia_traits, nvidia_search},
                         gc_model_nvidia_run, NULL, 4, NULL},
    [GC_MODEL_MESHOPT] = {{"meshopt", "meshopt:C,W,P", "meshoptimizer 0.18's analyzer (cache, warp, primitive group)",
                           "meshopt:32,32,32", 3,
                           {{"cache", 3, MAXC, 0, 0}, {"warp", 0, MAXC, 0, 0}, {"group", 0, UINT32_MAX, 0, 0}}, 1,
                           meshopt_validate, &gc_rule_meshopt, meshopt_traits, meshopt_search},
                          gc_model_meshopt_run, gc_model_meshopt_checks_indices, 4, NULL},
    [GC_MODEL_REUSE] = {{"reuse", "reuse:W,F,T", "seed 002's warp reuse (warp, compare window, triangles)",
                         "reuse:32,16,32", 3,
                         {{"warp", 3, MAXC, 0, 0}, {"window", 0, MAXC, 0, 0}, {"triangles", 0, UINT32_MAX, 0, 0}}, 1,
                         NULL, &gc_rule_reuse, reuse_traits, reuse_search},
                        gc_model_reuse_run, NULL, 8 /* 64-bit stamps */, NULL},
    [GC_MODEL_BATCH] = {{"batch", "batch[:slots=,prims=]", "seed 004's data assembler batches (32 slots)",
                         "batch:slots=32,prims=0", 2, {{"slots", 1, MAXC, 32, 0}, {"prims", 0, UINT32_MAX, 0, 0}}, 0,
                         NULL, &gc_rule_batch, batch_traits, batch_search},
                        gc_model_batch_run, NULL, 4, NULL},
    /* A segment must hold two primitives of any topology (draw_split_tmp.h asserts it). */
    [GC_MODEL_LLVMPIPE] = {{"llvmpipe", "llvmpipe[:segment=,map=]",
                            "Mesa's draw module (llvmpipe, lavapipe): 1024-index segments,\n"
                            "256-entry direct-mapped fetch table (measured on lavapipe)",
                            "llvmpipe:segment=1024,map=256", 2, {{"segment", 8, MAXC, 1024, 0}, {"map", 1, MAXC, 256, 0}},
                            0, NULL, &gc_rule_llvmpipe, llvmpipe_traits, llvmpipe_search},
                           gc_model_llvmpipe_run, NULL, 4, NULL},
    [GC_MODEL_NV_DX] = {{"nv-dx", "nv-dx[:indices=,vertices=]",
                         "Kerbl et al. 2018's NVIDIA Direct3D batches (96 indices, 32\n"
                         "invocations; reuse window by the slot of the last use)",
                         "nv-dx:indices=96,vertices=32", 2, {{"indices", 3, MAXC, 96, 0}, {"vertices", 3, MAXC, 32, 0}},
                         0, NULL, &gc_rule_nv_dx, kerbl_traits, nv_dx_search},
                        NULL, NULL, 4, gc_model_kerbl_list_run},
    /* page: the cache is emptied where an index's value >> page differs from the previous
       index's (0: never), measured on an NVIDIA H100 (docs/models/nvidia-h100.md) */
    [GC_MODEL_NV_GL] = {{"nv-gl", "nv-gl[:indices=,vertices=,window=,page=]",
                         "the same under OpenGL: a fixed 42-index window", "nv-gl:indices=96,vertices=32,window=42", 4,
                         {{"indices", 3, MAXC, 96, 0},
                          {"vertices", 3, MAXC, 32, 0},
                          {"window", 0, MAXC, 42, 0},
                          {"page", 0, 31, 0, 1}},
                         0,
                         NULL, &gc_rule_nv_gl, kerbl_traits, nv_gl_search},
                        NULL, NULL, 4, gc_model_kerbl_list_run},
    [GC_MODEL_BATCH_ALL] = {{"batch-all", "batch-all[:indices=,vertices=,reset=]",
                             "Kerbl et al.'s full reuse inside batches (Intel bound 1791, 128)",
                             "batch-all:indices=1791,vertices=128,reset=0", 3,
                             {{"indices", 3, MAXC, 1791, 0}, {"vertices", 3, MAXC, 128, 0},
                              {"reset", 0, UINT32_MAX, 0, 1}},
                             0, NULL, &gc_rule_batch_all, batch_all_traits, batch_all_search},
                            NULL, NULL, 4, gc_model_kerbl_list_run},
    /* ATI_BASIC: LRU 15, 64 invocations per batch, 384 indices between hard resets
       (BatchSimulationParameters.h:59-63). The rule scans its LRU at each index (as
       LRUCacheSim does): at most 1024 entries keeps that bounded; GCN's reuse depth is at
       most 30 or so. */
    [GC_MODEL_ATI] = {{"ati", "ati[:lru=,vertices=,reset=]",
                       "Kerbl et al.'s AMD rule: LRU 15, 64-invocation batches cut inside\n"
                       "triangles, hard reset every 384 indices",
                       "ati:lru=15,vertices=64,reset=384", 3,
                       {{"lru", 1, 1024, 15, 0}, {"vertices", 3, MAXC, 64, 0}, {"reset", 3, UINT32_MAX, 384, 0}}, 0,
                       NULL, &gc_rule_ati, ati_traits, ati_search},
                      NULL, NULL, 4, gc_model_ati_list_run},
};

/* ------------------------------------------------------------------ parsing */

static gc_status family_parse(const gc_family* f, gc_model_family id, const char* spec, const char* params,
                              gc_model* out, gc_error* err);

/* Parses one unsigned decimal parameter in [lo, hi]. */
static gc_status parse_uint(const char* spec, const char* text, size_t len, const char* what, uint32_t lo,
                            uint32_t hi, uint32_t* out, gc_error* err)
{
    if (len == 0)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': %s needs a number", spec, what);
    uint64_t v;
    gc_parse_result r = gc_parse_u64(text, len, 0, lo, hi, &v);
    if (r == GC_PARSE_RANGE)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': %s %.*s is out of range [%u, %u]", spec, what,
                       len > 40 ? 40 : (int)len, text, lo, hi);
    if (r != GC_PARSE_OK)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': %s '%.*s' is not a whole number", spec, what,
                       len > 40 ? 40 : (int)len, text);
    *out = (uint32_t)v;
    return GC_OK;
}

/* Splits "a,b,c" into up to `max` fields; returns the count, or -1 if more. */
static int split_fields(const char* params, const char** starts, size_t* lens, int max)
{
    int n = 0;
    const char* p = params;
    for (;;) {
        const char* comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == max)
            return -1;
        starts[n] = p;
        lens[n] = len;
        n++;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

/* Parameters given either positionally ("32,16,32") or by name ("size=32,life=32"). */
static gc_status parse_params(const char* spec, const char* params, int count, const char* const* keys,
                              const uint32_t* lo, const uint32_t* hi, bool all_required, uint32_t* values,
                              gc_error* err)
{
    const char* starts[8];
    size_t lens[8];
    int n = split_fields(params, starts, lens, 8);
    if (n < 0 || n > count)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': too many parameters (at most %d)", spec, count);
    bool named = memchr(starts[0], '=', lens[0]) != NULL;
    if (!named && all_required && n != count)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': expected %d parameters, got %d", spec, count, n);
    for (int i = 0; i < n; ++i) {
        const char* eq = memchr(starts[i], '=', lens[i]);
        if ((eq != NULL) != named)
            return gc_fail(err, GC_ERR_USAGE, "model '%s': mix of named and positional parameters", spec);
        int slot = i;
        const char* value = starts[i];
        size_t vlen = lens[i];
        if (named) {
            size_t klen = (size_t)(eq - starts[i]);
            slot = -1;
            for (int k = 0; k < count; ++k)
                if (strlen(keys[k]) == klen && memcmp(keys[k], starts[i], klen) == 0)
                    slot = k;
            if (slot < 0)
                return gc_fail(err, GC_ERR_USAGE, "model '%s': unknown parameter '%.*s'", spec, (int)klen, starts[i]);
            value = eq + 1;
            vlen = lens[i] - klen - 1;
        }
        gc_status s = parse_uint(spec, value, vlen, keys[slot], lo[slot], hi[slot], &values[slot], err);
        if (s)
            return s;
    }
    return GC_OK;
}

gc_status gc_model_parse(const char* spec, gc_model* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!spec || !*spec)
        return gc_fail(err, GC_ERR_USAGE, "empty model specification");
    if (strlen(spec) >= 200)
        return gc_fail(err, GC_ERR_USAGE, "model specification too long");

    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *preset, *source;
        gc_preset_get(i, &name, &preset, &source);
        if (strcmp(spec, name) == 0) {
            gc_status s = gc_model_parse(preset, out, err);
            if (s == GC_OK)
                snprintf(out->name, sizeof out->name, "%s", name);
            return s;
        }
    }

    const char* colon = strchr(spec, ':');
    size_t flen = colon ? (size_t)(colon - spec) : strlen(spec);
    const char* params = colon ? colon + 1 : NULL;
    size_t family = 0;
    const gc_family* f = gc_family_find_n(spec, flen, &family);
    if (!f) {
        /* every family's syntax and every preset, from the tables, as many as the one-line
         * message holds whole (then "..."; `gpucache models` lists them all) */
        char list[sizeof(((gc_error*)0)->message)];
        const size_t frame = strlen("unknown model '' (families: )") + strlen(spec) + strlen(", ...");
        const size_t room = frame < sizeof list ? sizeof list - frame : 0;
        size_t at = 0;
        bool cut = false;
        list[0] = 0;
        const size_t families = gc_family_count(), items = families + gc_preset_count();
        for (size_t i = 0; i < items && !cut; ++i) {
            const char *item = NULL, *preset, *source;
            if (i < families)
                item = gc_family_get(i)->syntax;
            else
                gc_preset_get(i - families, &item, &preset, &source);
            const char* sep = i == 0 ? "" : i == families ? "; presets: " : ", ";
            if (at + strlen(sep) + strlen(item) >= room)
                cut = true;
            else
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", sep, item);
        }
        return gc_fail(err, GC_ERR_USAGE, "unknown model '%s' (families: %s%s)", spec, list, cut ? ", ..." : "");
    }
    if (params && !*params)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': empty parameter list", spec);
    return family_parse(f, (gc_model_family)family, spec, params, out, err);
}

static gc_status family_parse(const gc_family* f, gc_model_family id, const char* spec, const char* params, gc_model* out,
                          gc_error* err)
{
    memset(out, 0, sizeof *out);
    out->family = id;
    const char* keys[4];
    uint32_t lo[4], hi[4];
    for (unsigned i = 0; i < f->param_count; ++i) {
        keys[i] = f->params[i].name;
        lo[i] = f->params[i].min;
        hi[i] = f->params[i].max;
        if (!f->params_required)
            out->p[i] = f->params[i].fallback;
    }
    if (!params && f->params_required && f->param_count)
        return gc_fail(err, GC_ERR_USAGE, "model '%s' needs %s, e.g. %s", spec,
                       f->param_count == 1 ? "a size" : "parameters", f->example);
    gc_status s = params ? parse_params(spec, params, (int)f->param_count, keys, lo, hi, f->params_required != 0,
                                        out->p, err)
                         : GC_OK;
    if (!s && f->validate)
        s = f->validate(out, spec, err);
    if (s)
        return s;
    /* the canonical name: positional when the parameters are required; else the bare name
     * when each has its fallback, or every one named (but those left out when zero) */
    size_t at = (size_t)snprintf(out->name, sizeof out->name, "%s", f->name);
    bool fallbacks = true;
    for (unsigned i = 0; i < f->param_count; ++i)
        fallbacks &= out->p[i] == f->params[i].fallback;
    for (unsigned i = 0, shown = 0; i < f->param_count && (f->params_required || !fallbacks); ++i) {
        if (!f->params_required && f->params[i].omit_zero && out->p[i] == 0)
            continue;
        if (at < sizeof out->name) {
            if (f->params_required)
                at += (size_t)snprintf(out->name + at, sizeof out->name - at, "%c%u", shown ? ',' : ':', out->p[i]);
            else
                at += (size_t)snprintf(out->name + at, sizeof out->name - at, "%c%s=%u", shown ? ',' : ':', keys[i],
                                       out->p[i]);
        }
        shown++;
    }
    return GC_OK;
}

/* ------------------------------------------------------------- the registry */

static const gc_family* registered[GC_MAX_REGISTERED_FAMILIES];
static atomic_size_t registered_count;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

size_t gc_family_count(void)
{
    return GC_MODEL_FAMILY_COUNT + atomic_load_explicit(&registered_count, memory_order_acquire);
}

const gc_family* gc_family_get(size_t i)
{
    if (i < GC_MODEL_FAMILY_COUNT)
        return &builtin[i].pub;
    i -= GC_MODEL_FAMILY_COUNT;
    return i < atomic_load_explicit(&registered_count, memory_order_acquire) ? registered[i] : NULL;
}

const gc_family_def* gc_family_builtin(gc_model_family family)
{
    return (unsigned)family < GC_MODEL_FAMILY_COUNT ? &builtin[family] : NULL;
}

const gc_family* gc_family_find_n(const char* name, size_t len, size_t* index)
{
    const size_t n = gc_family_count();
    for (size_t i = 0; i < n; ++i) {
        const gc_family* f = gc_family_get(i);
        if (strlen(f->name) == len && memcmp(f->name, name, len) == 0) {
            if (index)
                *index = i;
            return f;
        }
    }
    return NULL;
}

const gc_family* gc_family_find(const char* name, size_t* index)
{
    return name ? gc_family_find_n(name, strlen(name), index) : NULL;
}

const char* gc_model_family_name(gc_model_family family)
{
    const gc_family* f = (int)family < 0 ? NULL : gc_family_get((size_t)family);
    return f ? f->name : NULL;
}

void gc_model_traits(const gc_model* model, gc_family_traits* out)
{
    memset(out, 0, sizeof *out);
    const gc_family* f = model && (int)model->family >= 0 ? gc_family_get((size_t)model->family) : NULL;
    if (f && f->traits)
        f->traits(model, out);
}

static bool name_ok(const char* name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 31)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
            return false;
    return true;
}

gc_status gc_family_register(const gc_family* f, gc_model_family* id, gc_error* err)
{
    if (!f)
        return gc_fail(err, GC_ERR_USAGE, "gc_family_register: null family");
    if (!name_ok(f->name))
        return gc_fail(err, GC_ERR_USAGE,
                       "gc_family_register: a family's name is 1 to 31 lower-case letters, digits and '-'");
    if (!f->syntax || !f->summary || !f->example)
        return gc_fail(err, GC_ERR_USAGE, "family '%s': syntax, summary and example are required", f->name);
    if (!f->rule || !f->rule->feed || f->rule->words_per_vertex > 4)
        return gc_fail(err, GC_ERR_USAGE, "family '%s': a rule needs a feed function and at most 4 words per vertex",
                       f->name);
    if (f->param_count > 4)
        return gc_fail(err, GC_ERR_USAGE, "family '%s': at most 4 parameters", f->name);
    for (unsigned i = 0; i < f->param_count; ++i) {
        const gc_family_param* p = &f->params[i];
        if (!name_ok(p->name) || p->min > p->max ||
            (!f->params_required && (p->fallback < p->min || p->fallback > p->max)))
            return gc_fail(err, GC_ERR_USAGE,
                           "family '%s': parameter %u needs a name and min <= fallback <= max", f->name, i + 1);
    }
    pthread_mutex_lock(&register_lock);
    gc_status s = GC_OK;
    const size_t k = atomic_load_explicit(&registered_count, memory_order_relaxed);
    bool preset = false;
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        preset |= strcmp(name, f->name) == 0;
    }
    if (gc_family_find(f->name, NULL) || preset) {
        s = gc_fail(err, GC_ERR_USAGE, "gc_family_register: '%s' already names a family or a preset", f->name);
    } else if (k == GC_MAX_REGISTERED_FAMILIES) {
        s = gc_fail(err, GC_ERR_LIMIT, "gc_family_register: at most %d families can be registered",
                    GC_MAX_REGISTERED_FAMILIES);
    } else {
        /* the example must parse as this family's */
        const size_t len = strlen(f->name);
        const char* ex = f->example;
        gc_model m;
        if (strncmp(ex, f->name, len) != 0 || (ex[len] != '\0' && ex[len] != ':'))
            s = gc_fail(err, GC_ERR_USAGE, "family '%s': its example '%s' is not one of its specs", f->name, ex);
        else
            s = family_parse(f, (gc_model_family)(GC_MODEL_FAMILY_COUNT + k), ex, ex[len] ? ex + len + 1 : NULL,
                                &m, err);
        if (!s) {
            registered[k] = f;
            atomic_store_explicit(&registered_count, k + 1, memory_order_release);
            if (id)
                *id = (gc_model_family)(GC_MODEL_FAMILY_COUNT + k);
        }
    }
    pthread_mutex_unlock(&register_lock);
    return s;
}
