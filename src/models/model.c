/* Model specifications: parsing "family:params" strings and the vendor presets; and the
 * helpers the families' fast loops share (gc_run_check_unchecked, gc_run_scattered). */
#include "models.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const family_names[GC_MODEL_FAMILY_COUNT] = {
    "fifo", "lru", "direct-value", "direct-position", "nvidia", "meshopt", "reuse", "batch", "llvmpipe",
    "nv-dx", "nv-gl", "batch-all", "ati",
};

const char* gc_model_family_name(gc_model_family family)
{
    return (unsigned)family < GC_MODEL_FAMILY_COUNT ? family_names[family] : NULL;
}

/* Presets: name, spec, and where the numbers come from (docs/models/presets.md). */
static const struct {
    const char* name;
    const char* spec;
    const char* source;
} presets[] = {
    {"intel", "fifo:128", "seed 001: Intel Haswell iterates indices in order through a 128-entry FIFO"},
    {"nvidia-kepler", "nvidia", "seed 000: NVIDIA rules found by probing (32 entries, reset on overflow, lifetimes)"},
    {"nvidia-pascal", "meshopt:32,32,32", "meshoptimizer 0.18 demo: NVidia parameters of meshopt_analyzeVertexCache"},
    {"nvidia-maxwell", "meshopt:16,32,32", "meshopt analyzer with a 16-entry window in 32-vertex warps (Maxwell)"},
    {"amd-gcn", "meshopt:14,64,128", "meshoptimizer 0.18 demo: AMD parameters of meshopt_analyzeVertexCache"},
    {"generic", "fifo:16", "a 16-entry FIFO, the usual textbook target (Forsyth, Tipsify papers)"},
    /* Kerbl, Kenzel, Ivanchenko, Schmalstieg, Steinberger, "Revisiting The Vertex Cache" (HPG
       2018): their simulator's table, GPUPeople/vertex_batch_optimization
       sceneprocessor/source/layers/BatchSimulationParameters.h (BSP), commit 46332cd. */
    {"nvidia-dx", "nv-dx",
     "Kerbl et al. HPG 2018 (BSP:20,38-46 NV_DX): NVIDIA (GTX 1080 Ti measured) under Direct3D, 96/32 batches"},
    {"nvidia-gl", "nv-gl",
     "Kerbl et al. HPG 2018 (BSP:22,47-55 NV_GL): NVIDIA under OpenGL, 96/32 batches, 42-index window"},
    {"ati-basic", "ati",
     "Kerbl et al. HPG 2018 (BSP:24,56-64 ATI_BASIC): AMD GCN (R7 200 measured), LRU 15, 384-index resets"},
    {"intel-lower-bound", "batch-all",
     "Kerbl et al. HPG 2018 (BSP:26,65-73 INTEL_LOWER_BOUND): Intel, 1791/128 batches, full reuse (a bound)"},
    {"cure-warp", "batch-all:indices=96,vertices=32",
     "Kerbl et al. HPG 2018 (BSP:28,75-83 CURE warp): a software pipeline's 96/32 warps, full reuse"},
    {"cure-block", "batch-all:indices=1023,vertices=256",
     "Kerbl et al. HPG 2018 (BSP:30,85-93 CURE block): a software pipeline's 1023/256 blocks, full reuse"},
    /* Mesa radeonsi, si_state_shaders.c polaris_set_vgt_vertex_reuse() (VTX_REUSE_DEPTH 30 on
       Polaris and later GFX8/GFX9, 14 for a TES with fractional_odd spacing) and
       si_state_draw.c si_get_ia_multi_vgt_param() (primgroup_size = 128 without GS or
       tessellation: 384 indices of a triangle list) — ATI_BASIC's rule at that depth. */
    {"radeonsi-polaris", "ati:lru=30,vertices=64,reset=384",
     "Mesa radeonsi: VTX_REUSE_DEPTH 30 (Polaris..Vega), primitive groups of 128, on Kerbl's ATI rule"},
    {"radeonsi-polaris-tess-odd", "ati:lru=14,vertices=64,reset=384",
     "Mesa radeonsi: VTX_REUSE_DEPTH 14 for fractional_odd tessellation, groups of 128, Kerbl's ATI rule"},
    /* Issue 32: the rule that reproduces seed 002's AMD grid points (docs/models/validation.md):
       a FIFO of radeonsi's pre-Polaris VTX_REUSE_DEPTH 14, emptied every 256 triangles (the
       one parameter fitted on those two points; Kerbl's R7 200 resets every 128). */
    {"amd-seed002", "meshopt:14,0,256",
     "seed 002's AMD points (striped 8, 1.21; tipsify 16, 1.25): FIFO 14 (radeonsi's depth), reset each 256 triangles (fitted)"},
};

size_t gc_preset_count(void)
{
    return sizeof presets / sizeof presets[0];
}

void gc_preset_get(size_t i, const char** name, const char** spec, const char** source)
{
    if (i >= gc_preset_count()) {
        *name = *spec = *source = NULL;
        return;
    }
    *name = presets[i].name;
    *spec = presets[i].spec;
    *source = presets[i].source;
}

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
        if (strcmp(spec, presets[i].name) == 0) {
            gc_status s = gc_model_parse(presets[i].spec, out, err);
            if (s == GC_OK)
                snprintf(out->name, sizeof out->name, "%s", presets[i].name);
            return s;
        }
    }

    const char* colon = strchr(spec, ':');
    size_t flen = colon ? (size_t)(colon - spec) : strlen(spec);
    const char* params = colon ? colon + 1 : NULL;
    int family = -1;
    for (int f = 0; f < GC_MODEL_FAMILY_COUNT; ++f)
        if (strlen(family_names[f]) == flen && memcmp(family_names[f], spec, flen) == 0)
            family = f;
    if (family < 0)
        return gc_fail(err, GC_ERR_USAGE,
                       "unknown model '%s' (families: fifo:N, lru:N, direct-value:N, direct-position:N, "
                       "nvidia[:size=,idle=,life=], meshopt:C,W,P, reuse:W,F,T, batch[:slots=,prims=], llvmpipe[:segment=,map=], "
                       "nv-dx[:indices=,vertices=], nv-gl[:indices=,vertices=,window=], batch-all[:indices=,vertices=,reset=], "
                       "ati[:lru=,vertices=,reset=]; "
                       "presets: intel, nvidia-kepler, nvidia-pascal, nvidia-maxwell, amd-gcn, generic, nvidia-dx, "
                       "nvidia-gl, ati-basic, intel-lower-bound, cure-warp, cure-block, radeonsi-polaris, "
                       "radeonsi-polaris-tess-odd, amd-seed002)",
                       spec);
    if (params && !*params)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': empty parameter list", spec);
    out->family = (gc_model_family)family;
    gc_status s = GC_OK;
    switch (out->family) {
    case GC_MODEL_FIFO:
    case GC_MODEL_LRU:
    case GC_MODEL_DIRECT_VALUE:
    case GC_MODEL_DIRECT_POSITION: {
        static const char* const keys[] = {"entries"};
        static const uint32_t lo[] = {1}, hi[] = {GC_MAX_CACHE_SIZE};
        if (!params)
            return gc_fail(err, GC_ERR_USAGE, "model '%s' needs a size, e.g. %s:16", spec, family_names[family]);
        s = parse_params(spec, params, 1, keys, lo, hi, true, out->p, err);
        if (!s)
            snprintf(out->name, sizeof out->name, "%s:%u", family_names[family], out->p[0]);
        break;
    }
    case GC_MODEL_NVIDIA: {
        static const char* const keys[] = {"size", "idle", "life"};
        /* The model packs a slot number in 10 bits: at most 1024 entries. */
        static const uint32_t lo[] = {1, 0, 0}, hi[] = {1024, UINT32_MAX, UINT32_MAX};
        out->p[0] = 32;
        out->p[1] = 16;
        out->p[2] = 32;
        if (params)
            s = parse_params(spec, params, 3, keys, lo, hi, false, out->p, err);
        if (!s) {
            if (out->p[0] == 32 && out->p[1] == 16 && out->p[2] == 32)
                snprintf(out->name, sizeof out->name, "nvidia");
            else
                snprintf(out->name, sizeof out->name, "nvidia:size=%u,idle=%u,life=%u", out->p[0], out->p[1],
                         out->p[2]);
        }
        break;
    }
    case GC_MODEL_MESHOPT: {
        /* meshoptimizer asserts cache_size >= 3 and warp_size == 0 || warp_size >= 3. */
        static const char* const keys[] = {"cache", "warp", "group"};
        static const uint32_t lo[] = {3, 0, 0}, hi[] = {GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE, UINT32_MAX};
        if (!params)
            return gc_fail(err, GC_ERR_USAGE, "model '%s' needs parameters, e.g. meshopt:32,32,32", spec);
        s = parse_params(spec, params, 3, keys, lo, hi, true, out->p, err);
        if (!s && out->p[1] != 0 && out->p[1] < 3)
            return gc_fail(err, GC_ERR_USAGE, "model '%s': warp size must be 0 (no warps) or at least 3", spec);
        if (!s)
            snprintf(out->name, sizeof out->name, "meshopt:%u,%u,%u", out->p[0], out->p[1], out->p[2]);
        break;
    }
    case GC_MODEL_REUSE: {
        static const char* const keys[] = {"warp", "window", "triangles"};
        static const uint32_t lo[] = {3, 0, 0}, hi[] = {GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE, UINT32_MAX};
        if (!params)
            return gc_fail(err, GC_ERR_USAGE, "model '%s' needs parameters, e.g. reuse:32,16,32", spec);
        s = parse_params(spec, params, 3, keys, lo, hi, true, out->p, err);
        if (!s)
            snprintf(out->name, sizeof out->name, "reuse:%u,%u,%u", out->p[0], out->p[1], out->p[2]);
        break;
    }
    case GC_MODEL_BATCH: {
        static const char* const keys[] = {"slots", "prims"};
        static const uint32_t lo[] = {1, 0}, hi[] = {GC_MAX_CACHE_SIZE, UINT32_MAX};
        out->p[0] = 32;
        out->p[1] = 0;
        if (params)
            s = parse_params(spec, params, 2, keys, lo, hi, false, out->p, err);
        if (!s) {
            if (out->p[0] == 32 && out->p[1] == 0)
                snprintf(out->name, sizeof out->name, "batch");
            else
                snprintf(out->name, sizeof out->name, "batch:slots=%u,prims=%u", out->p[0], out->p[1]);
        }
        break;
    }
    case GC_MODEL_LLVMPIPE: {
        /* A segment must hold two primitives of any topology (draw_split_tmp.h asserts it). */
        static const char* const keys[] = {"segment", "map"};
        static const uint32_t lo[] = {8, 1}, hi[] = {GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE};
        out->p[0] = 1024;
        out->p[1] = 256;
        if (params)
            s = parse_params(spec, params, 2, keys, lo, hi, false, out->p, err);
        if (!s) {
            if (out->p[0] == 1024 && out->p[1] == 256)
                snprintf(out->name, sizeof out->name, "llvmpipe");
            else
                snprintf(out->name, sizeof out->name, "llvmpipe:segment=%u,map=%u", out->p[0], out->p[1]);
        }
        break;
    }
    case GC_MODEL_NV_DX:
    case GC_MODEL_NV_GL:
    case GC_MODEL_BATCH_ALL: {
        /* Kerbl et al.'s batch limits (BatchSimulationParameters.h: 96/32 for NVIDIA,
           1791/128 for Intel); the window is NV_GL's 42 (BatchSimulator.h:127). At least a
           triangle's 3 each (gc_analyze checks the topology's arity). */
        static const char* const keys[] = {"indices", "vertices", "window"};
        static const uint32_t lo[] = {3, 3, 0}, hi[] = {GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE};
        const bool gl = out->family == GC_MODEL_NV_GL;
        const bool all = out->family == GC_MODEL_BATCH_ALL;
        const uint32_t d0 = all ? 1791 : 96, d1 = all ? 128 : 32, d2 = gl ? 42 : 0;
        static const char* const all_keys[] = {"indices", "vertices", "reset"};
        static const uint32_t all_hi[] = {GC_MAX_CACHE_SIZE, GC_MAX_CACHE_SIZE, UINT32_MAX};
        out->p[0] = d0;
        out->p[1] = d1;
        out->p[2] = d2;
        if (params)
            s = all ? parse_params(spec, params, 3, all_keys, lo, all_hi, false, out->p, err)
                    : parse_params(spec, params, gl ? 3 : 2, keys, lo, hi, false, out->p, err);
        if (!s) {
            if (out->p[0] == d0 && out->p[1] == d1 && out->p[2] == d2)
                snprintf(out->name, sizeof out->name, "%s", family_names[family]);
            else if (gl)
                snprintf(out->name, sizeof out->name, "nv-gl:indices=%u,vertices=%u,window=%u", out->p[0], out->p[1],
                         out->p[2]);
            else if (all && out->p[2])
                snprintf(out->name, sizeof out->name, "batch-all:indices=%u,vertices=%u,reset=%u", out->p[0],
                         out->p[1], out->p[2]);
            else
                snprintf(out->name, sizeof out->name, "%s:indices=%u,vertices=%u", family_names[family], out->p[0],
                         out->p[1]);
        }
        break;
    }
    case GC_MODEL_ATI: {
        /* ATI_BASIC: LRU 15, 64 invocations per batch, 384 indices between hard resets
           (BatchSimulationParameters.h:59-63). */
        /* The rule scans its LRU at each index (as LRUCacheSim does): at most 1024 entries keeps
           that bounded; GCN's reuse depth is at most 30 or so. */
        static const char* const keys[] = {"lru", "vertices", "reset"};
        static const uint32_t lo[] = {1, 3, 3}, hi[] = {1024, GC_MAX_CACHE_SIZE, UINT32_MAX};
        out->p[0] = 15;
        out->p[1] = 64;
        out->p[2] = 384;
        if (params)
            s = parse_params(spec, params, 3, keys, lo, hi, false, out->p, err);
        if (!s) {
            if (out->p[0] == 15 && out->p[1] == 64 && out->p[2] == 384)
                snprintf(out->name, sizeof out->name, "ati");
            else
                snprintf(out->name, sizeof out->name, "ati:lru=%u,vertices=%u,reset=%u", out->p[0], out->p[1],
                         out->p[2]);
        }
        break;
    }
    default: break;
    }
    return s;
}

/* ------------------------------------------- helpers of the families' fast loops */

gc_status gc_run_check_unchecked(const gc_run* run, const uint32_t* state, size_t state_size, bool stopped,
                                 gc_error* err)
{
    for (size_t i = run->vertex_count; !stopped && i < state_size; ++i)
        stopped = state[i] != 0;
    if (!stopped)
        return GC_OK;
    for (size_t i = 0; i < run->draw.index_count; ++i)
        if (run->draw.indices[i] >= run->vertex_count)
            return gc_fail(err, GC_ERR_DATA, "index %zu is %u, not below the vertex count %u", i,
                           run->draw.indices[i], run->vertex_count);
    return gc_fail(err, GC_ERR_DATA, "an index is not below the vertex count %u", run->vertex_count);
}

bool gc_run_scattered(const gc_run* run)
{
    /* Below this many vertices the state (4 bytes each) stays in the core's own caches. */
    if (run->vertex_count < (1u << 16))
        return false;
    const gc_draw* d = &run->draw;
    const size_t samples = 256, places = 4;
    if (d->index_count < 2 * samples * places)
        return false;
    /* An index is far when it is more than 1024 ids (64 cache lines of stamps) from each of
     * the 8 before it: a grid's row above is near the previous triangle's, however wide the
     * grid, where a shuffled draw's indices are near none of the recent ones. */
    const size_t window = 8;
    size_t far = 0;
    for (size_t p = 0; p < places; ++p) {
        const uint32_t* at = d->indices + d->index_count / places * p;
        for (size_t i = window; i < samples; ++i) {
            bool near = false;
            for (size_t k = 1; k <= window; ++k) {
                uint32_t a = at[i - k], b = at[i];
                near |= (a > b ? a - b : b - a) <= 1024;
            }
            far += !near;
        }
    }
    return far * 4 > (samples - window) * places; /* more than a quarter of the steps jump */
}
