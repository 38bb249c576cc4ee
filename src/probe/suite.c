// SPDX-License-Identifier: MIT
/* The standard diagnostic suite (gc_suite_run, `gpucache probe --suite`). Each case is an index
 * buffer drawn once on the backend; the file records the buffer itself, so that any
 * model can be replayed against it (gpucache fit). Two cases are adaptive: they look
 * for the cycle length a cache keeps and for the draw size where a cache is cut
 * (a batch or segment boundary), then add cases around what they find. */
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct suite {
    gc_backend* b;
    json_t* cases;
    size_t measured;
    size_t disagree; /* cases whose pipeline statistics differ from the per-vertex sum */
    gc_suite_progress_fn progress;
    void* progress_user;
    gc_error err;
    int failed;
} suite;

static uint64_t next_random(uint64_t* s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* Measures one draw; returns invocations, or UINT64_MAX after a failure. */
static uint64_t measure_only(suite* s, const gc_draw* d, uint32_t outputs, gc_measurement* m)
{
    if (s->failed)
        return UINT64_MAX;
    if (gc_backend_measure(s->b, d, outputs, m, &s->err)) {
        s->failed = 1;
        return UINT64_MAX;
    }
    return m->invocations;
}

/* Measures one draw and records it as a case. */
static void add_case(suite* s, const char* name, const char* generator, const gc_draw* d, uint32_t outputs)
{
    gc_measurement m;
    if (measure_only(s, d, outputs, &m) == UINT64_MAX)
        return;
    json_t* c = json_object();
    json_object_set_new(c, "name", json_string(name));
    json_object_set_new(c, "generator", json_string(generator));
    json_object_set_new(c, "topology", json_string(gc_topology_name(d->topology)));
    json_object_set_new(c, "restart", d->restart_enabled ? json_integer(d->restart_value) : json_null());
    json_object_set_new(c, "outputs", json_integer(outputs));
    json_t* idx = json_array();
    for (size_t i = 0; i < d->index_count; ++i)
        json_array_append_new(idx, json_integer(d->indices[i]));
    json_object_set_new(c, "indices", idx);
    json_object_set_new(c, "invocations", json_integer((json_int_t)m.invocations));
    json_object_set_new(c, "ia_vertices", json_integer((json_int_t)m.ia_vertices));
    json_object_set_new(c, "ia_primitives", json_integer((json_int_t)m.ia_primitives));
    json_object_set_new(c, "per_vertex_sum", json_integer((json_int_t)m.per_vertex_sum));
    json_object_set_new(c, "statistics_agree", json_boolean(m.invocations == m.per_vertex_sum));
    s->disagree += m.invocations != m.per_vertex_sum;
    json_t* pv = json_array();
    for (size_t i = 0; i < m.count; ++i)
        json_array_append_new(pv, json_pack("[II]", (json_int_t)m.values[i], (json_int_t)m.counts[i]));
    json_object_set_new(c, "per_vertex", pv);
    json_array_append_new(s->cases, c);
    gc_measurement_free(&m);
    s->measured++;
    if (s->progress)
        s->progress(s->progress_user, s->measured);
}

static void add_list(suite* s, const char* name, const char* generator, const uint32_t* idx, size_t n, gc_topology t,
                     int restart, uint32_t outputs)
{
    gc_draw d = {idx, n, t, restart, UINT32_MAX};
    add_case(s, name, generator, &d, outputs);
}

/* Triangle list of the cycle 0..k-1 written `passes` times (rounded to whole triangles). */
static size_t cycle(uint32_t* out, uint32_t k, uint32_t passes)
{
    size_t n = (size_t)k * passes;
    n -= n % 3;
    for (size_t i = 0; i < n; ++i)
        out[i] = (uint32_t)(i % k);
    return n;
}

static void grid_cases(suite* s, uint32_t w, uint32_t h, uint32_t outputs_max)
{
    static const struct {
        const char* name;
        gc_grid_layout layout;
        int shuffle;
    } orders[] = {{"rowmajor", GC_GRID_ROWMAJOR, 0},
                  {"striped", GC_GRID_STRIPED, 0},
                  {"optimal", GC_GRID_OPTIMAL, 0},
                  {"shuffled", GC_GRID_ROWMAJOR, 1}};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; ++o) {
        size_t n = gc_grid_index_count(w, h, orders[o].layout, 16);
        uint32_t* idx = malloc(n * sizeof *idx);
        size_t written = 0;
        if (!idx || gc_grid_generate(w, h, orders[o].layout, 16, idx, &written, &s->err)) {
            free(idx);
            s->failed = 1;
            return;
        }
        if (orders[o].shuffle)
            gc_shuffle_triangles(idx, written, 1);
        char name[64], gen[128];
        snprintf(name, sizeof name, "grid %ux%u %s", w, h, orders[o].name);
        snprintf(gen, sizeof gen, "gpucache grid %u %u --layout %s --cache 16%s", w, h,
                 orders[o].shuffle ? "rowmajor" : orders[o].name, orders[o].shuffle ? " (triangles shuffled, seed 1)" : "");
        add_list(s, name, gen, idx, written, GC_TRIANGLE_LIST, 0, 1);
        if (o == 0 && outputs_max > 1) {
            snprintf(name, sizeof name, "grid %ux%u %s, %u outputs", w, h, orders[o].name, outputs_max);
            add_list(s, name, gen, idx, written, GC_TRIANGLE_LIST, 0, outputs_max);
        }
        free(idx);
    }
}

gc_status gc_suite_run(gc_backend* b, gc_suite_progress_fn progress, void* progress_user, char** json,
                       size_t* size, gc_suite_summary* summary, gc_error* err)
{
    *json = NULL;
    *size = 0;
    suite s = {0};
    s.b = b;
    s.cases = json_array();
    s.progress = progress;
    s.progress_user = progress_user;
    const uint32_t outputs_max = b->max_outputs;
    const size_t cap = 1 << 17;
    uint32_t* idx = malloc(cap * sizeof *idx);
    char name[128], gen[256];
    gc_measurement m;
    if (!idx) {
        json_decref(s.cases);
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for a suite buffer of %zu indices", cap);
    }

    /* Seed 000: sequential runs 0..n-1 (the cache listings after 0..29 and 0..32). */
    static const uint32_t sequential[] = {3, 30, 33, 96, 99, 300};
    for (size_t i = 0; i < sizeof sequential / sizeof sequential[0]; ++i) {
        for (uint32_t k = 0; k < sequential[i]; ++k)
            idx[k] = k;
        snprintf(name, sizeof name, "sequential %u", sequential[i]);
        snprintf(gen, sizeof gen, "0 1 2 ... %u", sequential[i] - 1);
        add_list(&s, name, gen, idx, sequential[i], GC_TRIANGLE_LIST, 0, 1);
        if (i == 1)
            add_list(&s, "sequential 30, max outputs", gen, idx, sequential[i], GC_TRIANGLE_LIST, 0, outputs_max);
    }

    /* Seed 002: 0 1 1 2 3 4 5 5 5, and (0 1 2)+ of several lengths. */
    static const uint32_t seed002[] = {0, 1, 1, 2, 3, 4, 5, 5, 5};
    add_list(&s, "seed 002 degenerate", "0 1 1 2 3 4 5 5 5", seed002, 9, GC_TRIANGLE_LIST, 0, 1);
    static const uint32_t repeats[] = {1, 10, 32, 33, 100, 1000};
    for (size_t i = 0; i < sizeof repeats / sizeof repeats[0]; ++i) {
        size_t n = cycle(idx, 3, repeats[i]);
        snprintf(name, sizeof name, "(0 1 2) x %u", repeats[i]);
        add_list(&s, name, "(0 1 2) repeated", idx, n, GC_TRIANGLE_LIST, 0, 1);
    }

    /* Seed 000: repeated degenerates and the lifetime examples. */
    for (uint32_t reps = 100; reps <= 1100; reps += 1000) {
        for (uint32_t k = 0; k < 3 * reps; ++k)
            idx[k] = 5;
        snprintf(name, sizeof name, "(5 5 5) x %u", reps);
        add_list(&s, name, "(5 5 5) repeated", idx, 3 * reps, GC_TRIANGLE_LIST, 0, 1);
    }
    for (uint32_t k = 0; k < 600; k += 6) {
        idx[k] = 0, idx[k + 1] = 1, idx[k + 2] = 2;
        idx[k + 3] = idx[k + 4] = idx[k + 5] = 0;
    }
    add_list(&s, "(0 1 2)(0 0 0) x 100", "(0 1 2) then (0 0 0), repeated", idx, 600, GC_TRIANGLE_LIST, 0, 1);
    for (uint32_t k = 0; k < 200; ++k)
        idx[k] = k % 2 ? 0 : 1 + k / 2;
    add_list(&s, "points and a reused point", "1 0 2 0 3 0 ...", idx, 200, GC_POINT_LIST, 0, 1);
    add_list(&s, "lines sharing a vertex", "1 0 2 0 3 0 ...", idx, 200, GC_LINE_LIST, 0, 1);

    /* Adaptive 1: the longest cycle 0..k-1 whose second pass is all hits. */
    uint32_t kept = 0;
    for (uint32_t k = 3; k <= 1024 && !s.failed; ++k) {
        size_t n = cycle(idx, k, 2);
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        uint64_t inv = measure_only(&s, &d, 1, &m);
        gc_measurement_free(&m);
        if (inv == k)
            kept = k;
        else if (inv != UINT64_MAX && k > 2 * (kept + 8))
            break;
    }
    uint32_t cycle_sizes[16];
    size_t cycle_count = 0;
    for (int delta = -2; delta <= 2; ++delta)
        if ((int64_t)kept + delta >= 3)
            cycle_sizes[cycle_count++] = (uint32_t)((int64_t)kept + delta);
    for (uint32_t k = 4; k <= 512; k *= 2)
        if (k + 2 < kept || k > kept + 2) /* not already among those around the boundary */
            cycle_sizes[cycle_count++] = k;
    for (size_t i = 0; i < cycle_count; ++i) {
        size_t n = cycle(idx, cycle_sizes[i], 3);
        snprintf(name, sizeof name, "cycle %u x 3%s", cycle_sizes[i], cycle_sizes[i] == kept ? " (longest kept)" : "");
        snprintf(gen, sizeof gen, "i mod %u for i < %zu", cycle_sizes[i], n);
        add_list(&s, name, gen, idx, n, GC_TRIANGLE_LIST, 0, 1);
    }

    /* Adaptive 2: the shortest (0 1 2)+ that costs more than 3, i.e. where the cache is
     * cut whatever it holds. Searched in triangles up to 16384. */
    uint32_t lo = 1, hi = 0;
    for (uint32_t t = 1; t <= 16384 && !s.failed; t *= 2) {
        size_t n = cycle(idx, 3, t);
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        uint64_t inv = measure_only(&s, &d, 1, &m);
        gc_measurement_free(&m);
        if (inv > 3) {
            hi = t;
            break;
        }
        lo = t;
    }
    while (hi && hi - lo > 1 && !s.failed) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t n = cycle(idx, 3, mid);
        gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
        uint64_t inv = measure_only(&s, &d, 1, &m);
        gc_measurement_free(&m);
        if (inv > 3)
            hi = mid;
        else
            lo = mid;
    }
    if (hi) {
        /* Around the boundary, as (0 1 2)+ and as a sequential run of the same size. */
        for (int64_t t = (int64_t)hi - 2; t <= (int64_t)hi + 1; ++t) {
            if (t < 1)
                continue;
            size_t n = cycle(idx, 3, (uint32_t)t);
            snprintf(name, sizeof name, "(0 1 2) x %lld (cut at %u)", (long long)t, hi);
            add_list(&s, name, "(0 1 2) repeated", idx, n, GC_TRIANGLE_LIST, 0, 1);
        }
        for (int64_t t = 2 * (int64_t)hi - 3; t <= 2 * (int64_t)hi; ++t) {
            size_t n = cycle(idx, 3, (uint32_t)t);
            snprintf(name, sizeof name, "(0 1 2) x %lld (twice the cut)", (long long)t);
            add_list(&s, name, "(0 1 2) repeated", idx, n, GC_TRIANGLE_LIST, 0, 1);
        }
    }

    /* Grids in four orders. */
    grid_cases(&s, 20, 20, 1);
    grid_cases(&s, 100, 100, outputs_max);

    /* Random triangle lists: uniform over V vertices, and local (a sliding window of W). */
    uint64_t seed = 0x5eed;
    static const uint32_t uniform_v[] = {16, 100, 1000};
    for (size_t i = 0; i < sizeof uniform_v / sizeof uniform_v[0]; ++i) {
        for (size_t k = 0; k < 3000; ++k)
            idx[k] = (uint32_t)(next_random(&seed) % uniform_v[i]);
        snprintf(name, sizeof name, "random uniform over %u", uniform_v[i]);
        snprintf(gen, sizeof gen, "1000 triangles, xorshift64* (seed 0x5eed stream)");
        add_list(&s, name, gen, idx, 3000, GC_TRIANGLE_LIST, 0, 1);
    }
    static const uint32_t windows[] = {8, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; ++i) {
        for (size_t k = 0; k < 3000; ++k)
            idx[k] = (uint32_t)(k / 6 + next_random(&seed) % windows[i]);
        snprintf(name, sizeof name, "random local window %u", windows[i]);
        snprintf(gen, sizeof gen, "index k = k/6 + random mod %u", windows[i]);
        add_list(&s, name, gen, idx, 3000, GC_TRIANGLE_LIST, 0, 1);
    }
    /* A random permutation of a grid's vertices (the same mesh with relabelled vertices). */
    {
        size_t n = gc_grid_index_count(30, 30, GC_GRID_ROWMAJOR, 0), written = 0;
        uint32_t perm[31 * 31];
        for (uint32_t v = 0; v < 31 * 31; ++v)
            perm[v] = v;
        for (uint32_t v = 31 * 31 - 1; v > 0; --v) {
            uint32_t j = (uint32_t)(next_random(&seed) % (v + 1)), t = perm[v];
            perm[v] = perm[j];
            perm[j] = t;
        }
        if (gc_grid_generate(30, 30, GC_GRID_ROWMAJOR, 0, idx, &written, &s.err) == GC_OK) {
            for (size_t k = 0; k < n; ++k)
                idx[k] = perm[idx[k]];
            add_list(&s, "grid 30x30, vertices permuted", "gpucache grid 30 30, random vertex relabelling", idx,
                     written, GC_TRIANGLE_LIST, 0, 1);
        }
    }

    /* Modular sequences. */
    static const uint32_t moduli[] = {31, 33, 127, 129, 255, 257};
    for (size_t i = 0; i < sizeof moduli / sizeof moduli[0]; ++i) {
        size_t n = cycle(idx, moduli[i], 3000 / moduli[i] + 1);
        snprintf(name, sizeof name, "i mod %u", moduli[i]);
        snprintf(gen, sizeof gen, "i mod %u for i < %zu", moduli[i], n);
        add_list(&s, name, gen, idx, n, GC_TRIANGLE_LIST, 0, 1);
    }

    /* Large index values: above 16 bits, and a cycle far from zero. */
    for (size_t k = 0; k < 600; ++k)
        idx[k] = 65530 + (uint32_t)(k % 12);
    add_list(&s, "values around 65535", "65530 + i mod 12", idx, 600, GC_TRIANGLE_LIST, 0, 1);
    for (size_t k = 0; k < 1500; ++k)
        idx[k] = 1000000 + (uint32_t)(k % 300);
    add_list(&s, "values from 1000000", "1000000 + i mod 300", idx, 1500, GC_TRIANGLE_LIST, 0, 1);

    /* Every Vulkan topology, with and without restart, on one random local stream. */
    static const gc_topology topologies[] = {GC_POINT_LIST,    GC_LINE_LIST,      GC_LINE_STRIP,
                                             GC_TRIANGLE_LIST, GC_TRIANGLE_STRIP, GC_TRIANGLE_FAN};
    for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; ++t) {
        unsigned arity = gc_topology_arity(topologies[t]);
        int list = topologies[t] == GC_POINT_LIST || topologies[t] == GC_LINE_LIST ||
                   topologies[t] == GC_TRIANGLE_LIST;
        for (int restart = 0; restart < 2; ++restart) {
            size_t n = 0;
            while (n < 2400) {
                if (restart && n > 0 && next_random(&seed) % 50 == 0) {
                    idx[n++] = UINT32_MAX;
                    continue;
                }
                unsigned group = list ? arity : 1;
                for (unsigned g = 0; g < group; ++g, ++n)
                    idx[n] = (uint32_t)(n / 4 + next_random(&seed) % 40);
            }
            snprintf(name, sizeof name, "%s%s", gc_topology_name(topologies[t]), restart ? " with restart" : "");
            snprintf(gen, sizeof gen, "index k = k/4 + random mod 40%s", restart ? ", restart with probability 1/50" : "");
            add_list(&s, name, gen, idx, n, topologies[t], restart, 1);
        }
    }
    /* The corpus's strip format: long strips cut by restarts, and one long fan. */
    for (size_t k = 0; k < 3000; ++k)
        idx[k] = (uint32_t)k;
    add_list(&s, "sequential strip 3000", "0 1 2 ... 2999", idx, 3000, GC_TRIANGLE_STRIP, 0, 1);
    add_list(&s, "sequential fan 3000", "0 1 2 ... 2999", idx, 3000, GC_TRIANGLE_FAN, 0, 1);
    add_list(&s, "sequential line strip 3000", "0 1 2 ... 2999", idx, 3000, GC_LINE_STRIP, 0, 1);

    free(idx);
    gc_status status = GC_OK;
    if (s.failed) {
        *err = s.err;
        status = s.err.code ? s.err.code : GC_ERR_NOMEM;
    } else {
        json_t* root = json_object();
        json_object_set_new(root, "format", json_string("gpucache-measurements"));
        json_object_set_new(root, "version", json_integer(1));
        /* as in every JSON document gpucache writes (docs/json.md) */
        json_object_set_new(root, "gpucache_version", json_string(GPUCACHE_VERSION_STRING));
        json_object_set_new(root, "schema", json_integer(1));
        json_object_set_new(root, "device", json_string(b->device));
        json_object_set_new(root, "driver", json_string(b->driver));
        json_object_set_new(root, "api_version", json_string(b->api_version));
        if (b->probe) {
            const gc_probe_device* d = gc_probe_info(b->probe);
            json_object_set_new(root, "driver_version", json_integer(d->driver_version));
            json_object_set_new(root, "vendor_id", json_integer(d->vendor_id));
            json_object_set_new(root, "device_id", json_integer(d->device_id));
            json_object_set_new(root, "emulated_model", json_null());
        } else {
            json_object_set_new(root, "emulated_model", json_string(b->model.name));
        }
        json_object_set_new(root, "max_outputs", json_integer(outputs_max));
        json_object_set_new(root, "generated_by", json_string("gpucache " GPUCACHE_VERSION_STRING " probe --suite"));
        json_object_set_new(root, "cycle_kept", json_integer(kept));
        json_object_set_new(root, "cut_triangles", json_integer(hi));
        json_object_set_new(root, "statistics_disagree", json_integer((json_int_t)s.disagree));
        json_object_set_new(root, "cases", s.cases);
        s.cases = NULL;
        char* text = json_dumps(root, JSON_COMPACT);
        size_t length = text ? strlen(text) : 0;
        char* line = text ? realloc(text, length + 2) : NULL;
        if (!line) {
            free(text);
            status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the measurement file");
        } else {
            line[length] = '\n';
            line[length + 1] = '\0';
            *json = line;
            *size = length + 1;
        }
        json_decref(root);
        summary->measured = s.measured;
        summary->disagree = s.disagree;
        summary->cycle_kept = kept;
        summary->cut_triangles = hi;
    }
    json_decref(s.cases);
    return status;
}
