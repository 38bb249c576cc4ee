// SPDX-License-Identifier: MIT
/* The analysis driver: validates a draw, maps sparse index values to dense ids,
 * runs one model and derives the metrics every model shares. */
#include "models.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Dense ids are used as array indices by every model. When the largest index value
 * is far above the index count (a hostile or sparse buffer), values are renumbered
 * by rank among the distinct values, so that memory follows the index count, not the
 * values: 4 bytes per index for the renumbered draw and 4 per distinct value, sorted
 * and searched (O(n log n), paid only by sparse input). The rule: gc_too_sparse. */

typedef struct dense_map {
    uint32_t* indices; /* rewritten draw, or NULL when the draw is used as is */
    uint32_t* values;  /* dense id -> value, ascending */
    uint32_t count;
} dense_map;

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static gc_status build_dense_map(const gc_draw* d, size_t used, dense_map* map, gc_error* err)
{
    size_t n = d->index_count;
    map->values = gc_alloc_array(used, sizeof(uint32_t), false);
    map->indices = gc_alloc_array(n, sizeof(uint32_t), false);
    if (!map->values || !map->indices) {
        free(map->values);
        free(map->indices);
        map->values = map->indices = NULL;
        return gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering %zu sparse indices", n);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (!(d->restart_enabled && d->indices[i] == d->restart_value))
            map->values[k++] = d->indices[i];
    qsort(map->values, k, sizeof(uint32_t), compare_u32);
    size_t distinct = 0;
    for (size_t i = 0; i < k; ++i)
        if (distinct == 0 || map->values[distinct - 1] != map->values[i])
            map->values[distinct++] = map->values[i];
    for (size_t i = 0; i < n; ++i) {
        uint32_t v = d->indices[i];
        if (d->restart_enabled && v == d->restart_value) {
            map->indices[i] = UINT32_MAX; /* dense ids stay below 2^31, so this cannot collide */
            continue;
        }
        size_t lo = 0, hi = distinct;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (map->values[mid] <= v)
                lo = mid;
            else
                hi = mid;
        }
        map->indices[i] = (uint32_t)lo;
    }
    map->count = (uint32_t)distinct;
    return GC_OK;
}

/* The largest index. Cloned for wider vector units where the CPU has them (an ifunc
 * picks at load time): this scan runs before every analysis. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "sse4.1", "default")))
#endif
static uint32_t max_index(const uint32_t* idx, size_t n)
{
    uint32_t m = 0;
    for (size_t i = 0; i < n; ++i)
        m = idx[i] > m ? idx[i] : m;
    return m;
}

/* Marks every index in [start, end) in the bitmap: no branch, so it streams. */
static void mark_range(uint64_t* seen, const uint32_t* idx, size_t start, size_t end)
{
    for (size_t j = start; j < end; ++j)
        seen[idx[j] >> 6] |= 1ull << (idx[j] & 63);
}

/* A bitmap of the vertices in restart-free segments of at least `need` indices, or NULL
 * when out of memory. */
static uint64_t* vertex_bitmap(const gc_draw* d, uint32_t vertex_count, unsigned need)
{
    size_t words = ((size_t)vertex_count + 63) / 64;
    uint64_t* seen = gc_alloc_array(words, sizeof(uint64_t), true);
    if (!seen)
        return NULL;
    if (!d->restart_enabled) {
        if (d->index_count >= need)
            mark_range(seen, d->indices, 0, d->index_count);
        return seen;
    }
    size_t start = 0;
    for (size_t i = 0; i <= d->index_count; ++i) {
        if (i < d->index_count && d->indices[i] != d->restart_value)
            continue;
        if (i - start >= need)
            mark_range(seen, d->indices, start, i);
        start = i + 1;
    }
    return seen;
}

static uint64_t bitmap_count(const uint64_t* bits, uint32_t vertex_count)
{
    uint64_t n = 0;
    for (size_t w = 0; w < ((size_t)vertex_count + 63) / 64; ++w)
        n += (uint64_t)__builtin_popcountll(bits[w]);
    return n;
}

/* Vertices that actually reach a primitive: a strip segment of two indices draws nothing. */
static uint64_t count_referenced(const gc_draw* d, uint32_t vertex_count, gc_error* err, gc_status* status)
{
    unsigned need = 1;
    if (d->topology == GC_LINE_STRIP || d->topology == GC_LINE_LOOP)
        need = 2;
    else if (d->topology == GC_TRIANGLE_STRIP || d->topology == GC_TRIANGLE_FAN || d->topology == GC_POLYGON)
        need = 3;
    uint64_t* seen = vertex_bitmap(d, vertex_count, need);
    if (!seen) {
        *status = gc_fail(err, GC_ERR_NOMEM, "out of memory counting %u vertices", vertex_count);
        return 0;
    }
    uint64_t distinct = bitmap_count(seen, vertex_count);
    free(seen);
    *status = GC_OK;
    return distinct;
}

void gc_per_vertex_free(gc_per_vertex* pv)
{
    if (!pv)
        return;
    free(pv->values);
    free(pv->counts);
    memset(pv, 0, sizeof *pv);
}

/* Turns dense counts into the caller's (value, count) list. Dense ids ascend with the
 * values (the identity, or ranks of a renumbered draw), so the list comes out sorted. */
static gc_status collect_per_vertex(const gc_run* run, const uint32_t* dense, gc_per_vertex* pv, gc_error* err)
{
    /* Every index value but the restart has a row, drawn or not. */
    uint64_t* present = vertex_bitmap(&run->draw, run->vertex_count, 1);
    if (!present)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for the per-vertex counts of %u vertices", run->vertex_count);
    size_t distinct = (size_t)bitmap_count(present, run->vertex_count);
    pv->values = gc_alloc_array(distinct, sizeof(uint32_t), false);
    pv->counts = gc_alloc_array(distinct, sizeof(uint32_t), false);
    if (!pv->values || !pv->counts) {
        free(present);
        gc_per_vertex_free(pv);
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for the per-vertex counts of %zu vertices", distinct);
    }
    size_t n = 0;
    for (uint32_t v = 0; v < run->vertex_count; ++v) {
        if (present[v >> 6] & (1ull << (v & 63))) {
            pv->values[n] = gc_run_value(run, v);
            pv->counts[n++] = dense[v];
        }
    }
    pv->count = n;
    free(present);
    return GC_OK;
}

/* Translates dense ids back to index values before handing a trace line to the caller. */
typedef struct trace_bridge {
    gc_trace_fn user_fn;
    void* user;
    const uint32_t* values;
    int64_t* buffer;
    size_t capacity;
} trace_bridge;

static void trace_translate(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    trace_bridge* b = user;
    if (count > b->capacity)
        count = b->capacity;
    for (size_t i = 0; i < count; ++i)
        b->buffer[i] = entries[i] < 0 ? -1 : (int64_t)b->values[entries[i]];
    b->user_fn(b->user, primitive, b->buffer, count);
}

/* Capacity (vertices per batch, warp or cache) that must hold one primitive. */
static gc_status check_capacity(const gc_model* m, unsigned arity, gc_error* err)
{
    gc_family_traits t;
    gc_model_traits(m, &t);
    const uint32_t capacity = t.capacity;
    const char* what = t.capacity_what ? t.capacity_what : "capacity";
    if (capacity != 0 && capacity < arity)
        return gc_fail(err, GC_ERR_USAGE, "model '%s': %s %u cannot hold one primitive of %u vertices", m->name,
                       what, capacity, arity);
    return GC_OK;
}

/* The families without a loop of their own (Kerbl et al.'s batch rules, callers' rules): their state
 * machine, fed the dense draw as gc_analyze_sim feeds it, is the analysis. No trace: the
 * machines do not show their contents. */
static gc_status machine_run(const gc_model* model, const gc_run* run, gc_stats* out, gc_error* err)
{
    if (run->trace)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "model '%s' has no trace (its batches are not a cache to show)",
                       model->name);
    gc_sim* sim;
    gc_status s = gc_sim_create(model, run->vertex_count ? run->vertex_count : 1, run->values, &sim, err);
    if (s)
        return s;
    gc_sim_reset(sim, run->draw.topology);
    const uint64_t* changes = run->state_changes;
    size_t next_change = 0;
    gc_sim_stream stream;
    gc_sim_stream_init(&stream, sim, &run->draw);
    gc_sim_primitive p;
    while (gc_sim_stream_next(&stream, &p)) {
        uint64_t completes = 0;
        for (unsigned j = 0; j < p.count; ++j)
            completes = p.positions[j] > completes ? p.positions[j] : completes;
        const size_t first_change = next_change;
        while (next_change < run->state_change_count && changes[next_change] <= completes)
            next_change++;
        p.state_changes = changes ? changes + first_change : NULL;
        p.state_change_count = next_change - first_change;
        unsigned shaded = 0;
        gc_sim_feed(sim, &p, &shaded);
        if (run->per_vertex)
            for (unsigned j = 0; j < p.count; ++j)
                run->per_vertex[p.vertices[j]] += GC_SIM_SHADED(shaded, j);
    }
    gc_sim_finish(sim, run->state_change_count - next_change);
    gc_stats st;
    gc_sim_stats(sim, &st);
    out->invocations = st.invocations;
    out->has_batches = st.has_batches;
    out->batches = st.batches;
    out->resets = st.resets;
    gc_sim_destroy(sim);
    return GC_OK;
}

/* The draw's referenced vertices, counted once for all the models of gc_analyze_models
 * that keep no per-vertex state (the batch families): the first that needs it counts. */
typedef struct referenced_once {
    pthread_mutex_t lock;
    bool known;
    gc_status status;
    gc_error error;
    uint64_t count;
} referenced_once;

/* What every model's run of one draw shares: the validated draw, renumbered when sparse. */
typedef struct prepared_draw {
    gc_run run; /* without the per-model parts (per_vertex, trace, vertices_seen) */
    dense_map map;
    uint64_t primitives;
    referenced_once* referenced; /* NULL: each run counts for itself */
    bool invocations_only;       /* the distinct vertices not counted (gc_analyze_invocations) */
} prepared_draw;

static void prepared_free(prepared_draw* p)
{
    free(p->map.indices);
    free(p->map.values);
}

/* Validates the draw and sizes the per-vertex arrays, once for any number of models.
 * `model` is the one model that will run, or NULL for several: only a single model whose
 * loop checks the indices itself lets a caller's vertex count skip the pass over them. */
static gc_status prepare_draw(const gc_model* model, const gc_draw* draw, const gc_analyze_options* options,
                              prepared_draw* p, gc_error* err)
{
    memset(p, 0, sizeof *p);
    gc_status s = gc_draw_validate(draw, "input", &p->primitives, err);
    if (s)
        return s;

    /* The caller's vertex count spares the pass over the indices where the model's loop
     * checks them itself (bounded like the dense case below, so memory still follows the
     * index count). */
    const uint32_t hint = options->vertex_count;
    const bool checks_own =
        model && hint > 0 && hint <= (1u << 30) &&
        !gc_too_sparse(hint, draw->index_count) && draw->index_count < UINT32_MAX / 2 &&
        !options->per_vertex && !options->trace &&
        gc_family_builtin(model->family) && gc_family_builtin(model->family)->checks_indices &&
        gc_family_builtin(model->family)->checks_indices(model, draw);

    /* The largest value sizes the per-vertex arrays; restarts are not vertices. */
    uint32_t max_value = 0;
    size_t used = draw->index_count;
    if (checks_own) {
        max_value = hint - 1; /* what the model checks */
    } else if (!draw->restart_enabled) {
        max_value = max_index(draw->indices, draw->index_count);
    } else {
        used = 0;
        for (size_t i = 0; i < draw->index_count; ++i) {
            uint32_t v = draw->indices[i];
            if (v == draw->restart_value)
                continue;
            used++;
            max_value = v > max_value ? v : max_value;
        }
    }
    if (hint > 0 && !checks_own && used > 0 && max_value >= hint) {
        for (size_t i = 0; i < draw->index_count; ++i) {
            uint32_t v = draw->indices[i];
            if (v >= hint && !(draw->restart_enabled && v == draw->restart_value))
                return gc_fail(err, GC_ERR_DATA, "index %zu is %u, not below the vertex count %u", i, v, hint);
        }
    }

    gc_run* run = &p->run;
    run->draw = *draw;
    run->state_changes = options->state_changes;
    run->state_change_count = options->state_change_count;
    if (used > 0 && gc_too_sparse((uint64_t)max_value + 1, used)) {
        s = build_dense_map(draw, used, &p->map, err);
        if (s)
            return s;
        run->draw.indices = p->map.indices;
        run->draw.restart_value = UINT32_MAX;
        run->values = p->map.values;
        run->vertex_count = p->map.count;
    } else {
        run->vertex_count = used > 0 ? max_value + 1 : 0;
        run->unchecked = checks_own && used > 0;
    }
    return GC_OK;
}

/* One model over a prepared draw. Reads `p` only, so that several threads may share it. */
static gc_status run_model(const gc_model* model, const prepared_draw* p, const gc_analyze_options* options,
                           void* scratch, size_t scratch_bytes, gc_stats* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    gc_status s = check_capacity(model, gc_topology_arity(p->run.draw.topology), err);
    if (s)
        return s;
    gc_run run = p->run;
    run.scratch = scratch;
    run.scratch_bytes = scratch_bytes;

    uint32_t* dense_counts = NULL;
    if (options->per_vertex) {
        memset(options->per_vertex, 0, sizeof *options->per_vertex);
        dense_counts = gc_alloc_array(run.vertex_count, sizeof(uint32_t), true);
        if (!dense_counts)
            return gc_fail(err, GC_ERR_NOMEM, "out of memory for per-vertex counts");
        run.per_vertex = dense_counts;
    }

    trace_bridge bridge = {0};
    if (options->trace) {
        run.trace = options->trace;
        run.trace_user = options->trace_user;
        if (run.values) {
            bridge.user_fn = options->trace;
            bridge.user = options->trace_user;
            bridge.values = run.values;
            bridge.capacity = GC_MAX_CACHE_SIZE;
            bridge.buffer = gc_alloc_array(bridge.capacity, sizeof(int64_t), false);
            if (!bridge.buffer) {
                s = gc_fail(err, GC_ERR_NOMEM, "out of memory for a trace line of %zu entries", bridge.capacity);
                goto done;
            }
            run.trace = trace_translate;
            run.trace_user = &bridge;
        }
    }

    uint64_t vertices = 0;
    bool vertices_reported = false;
    run.vertices_seen = &vertices;
    run.vertices_reported = &vertices_reported;
    const gc_family_def* def = gc_family_builtin(model->family);
    const gc_draw* d = &run.draw; /* a family's loop for a plain triangle list (list_run), else its machine */
    const bool plain_list = d->topology == GC_TRIANGLE_LIST && !d->restart_enabled && d->index_count % 3 == 0 &&
                            !run.state_change_count && !run.per_vertex && !run.trace;
    s = def && def->run                    ? def->run(model, &run, out, err)
        : def && def->list_run && plain_list ? def->list_run(model, &run, out, err)
                                           : machine_run(model, &run, out, err);
    if (s)
        goto done;

    /* Models with per-vertex state count the vertices they saw; the others need a pass. */
    if (p->invocations_only) {
        vertices = 0; /* not asked for */
    } else if (!vertices_reported && p->referenced) {
        referenced_once* r = p->referenced;
        pthread_mutex_lock(&r->lock);
        if (!r->known) {
            r->count = count_referenced(&run.draw, run.vertex_count, &r->error, &r->status);
            r->known = true;
        }
        vertices = r->count;
        s = r->status;
        if (s && err)
            *err = r->error;
        pthread_mutex_unlock(&r->lock);
        if (s)
            goto done;
    } else if (!vertices_reported) {
        vertices = count_referenced(&run.draw, run.vertex_count, err, &s);
        if (s)
            goto done;
    }

    if (dense_counts) {
        s = collect_per_vertex(&run, dense_counts, options->per_vertex, err);
        if (s)
            goto done;
    }

    out->indices = p->run.draw.index_count;
    out->primitives = p->primitives;
    out->vertices = vertices;
    out->acmr = p->primitives ? (double)out->invocations / (double)p->primitives : 0.0;
    out->atvr = vertices ? (double)out->invocations / (double)vertices : 0.0;

done:
    free(bridge.buffer);
    free(dense_counts);
    return s;
}

gc_status gc_analyze(const gc_model* model, const gc_draw* draw, const gc_analyze_options* options,
                     gc_stats* out, gc_error* err)
{
    static const gc_analyze_options no_options;
    if (!options)
        options = &no_options;
    if (!model || !draw || !out)
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze: null argument");
    if (!gc_family_of(model))
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze: bad model family");
    memset(out, 0, sizeof *out);
    prepared_draw p;
    gc_status s = prepare_draw(model, draw, options, &p, err);
    if (!s)
        s = run_model(model, &p, options, NULL, 0, out, err);
    prepared_free(&p);
    return s;
}

gc_status gc_analyze_invocations(const gc_model* model, const gc_draw* draw, uint32_t vertex_count,
                                 uint64_t* invocations, gc_error* err)
{
    gc_analyze_options options;
    memset(&options, 0, sizeof options);
    options.vertex_count = vertex_count;
    *invocations = 0;
    if (!model || !draw)
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze_invocations: null argument");
    if (!gc_family_of(model))
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze_invocations: bad model family");
    prepared_draw p;
    gc_status s = prepare_draw(model, draw, &options, &p, err);
    gc_stats st;
    p.invocations_only = true;
    if (!s)
        s = run_model(model, &p, &options, NULL, 0, &st, err);
    if (!s)
        *invocations = st.invocations;
    prepared_free(&p);
    return s;
}

/* ------------------------------------------------------------ several models */

typedef struct models_job {
    const gc_model* models;
    size_t count;
    const prepared_draw* draw;
    const gc_analyze_options* options;
    gc_stats* out;
    gc_status* status;
    gc_error* errors;
    pthread_mutex_t lock;
    size_t next;
    size_t scratch_bytes; /* the largest per-vertex state of the models */
} models_job;

/* A worker takes the next model until none is left. Its models share one scratch array
 * for their per-vertex state (gc_run_vertex_state): clearing it costs less than the page
 * faults of a fresh allocation per model. Without the memory for it, each model
 * allocates its own, as gc_analyze does. */
static void* models_worker(void* arg)
{
    models_job* job = arg;
    void* scratch = NULL;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t i = job->next++;
        pthread_mutex_unlock(&job->lock);
        if (i >= job->count)
            break;
        if (!scratch && job->scratch_bytes > 0)
            scratch = malloc(job->scratch_bytes);
        job->status[i] = run_model(&job->models[i], job->draw, job->options, scratch,
                                   scratch ? job->scratch_bytes : 0, &job->out[i], &job->errors[i]);
    }
    free(scratch);
    return NULL;
}

gc_status gc_analyze_models(const gc_model* models, size_t model_count, const gc_draw* draw,
                            const gc_analyze_options* options, unsigned threads, gc_stats* out, gc_error* err)
{
    static const gc_analyze_options no_options;
    if (!options)
        options = &no_options;
    if (!models || !draw || !out)
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze_models: null argument");
    if (options->per_vertex || options->trace)
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze_models: per-vertex counts and traces are per model (gc_analyze)");
    for (size_t i = 0; i < model_count; ++i)
        if (!gc_family_of(&models[i]))
            return gc_fail(err, GC_ERR_USAGE, "gc_analyze_models: bad model family (model %zu)", i);
    memset(out, 0, model_count * sizeof *out);
    prepared_draw p;
    gc_status s = prepare_draw(model_count == 1 ? models : NULL, draw, options, &p, err);
    if (s) {
        prepared_free(&p);
        return s;
    }
    gc_status* status = gc_alloc_array(model_count ? model_count : 1, sizeof *status, true);
    gc_error* errors = gc_alloc_array(model_count ? model_count : 1, sizeof *errors, true);
    if (!status || !errors) {
        free(status);
        free(errors);
        prepared_free(&p);
        return gc_fail(err, GC_ERR_NOMEM, "gc_analyze_models: out of memory for %zu results", model_count);
    }
    referenced_once referenced = {PTHREAD_MUTEX_INITIALIZER, false, GC_OK, {0}, 0};
    p.referenced = &referenced;
    models_job job = {models, model_count, &p, options, out, status, errors, PTHREAD_MUTEX_INITIALIZER, 0, 0};
    /* 4 bytes a vertex, more where a family's loop says so (reuse's 64-bit stamps); a lone
     * model needs no sharing */
    if (model_count > 1) {
        size_t entry = 4;
        for (size_t i = 0; i < model_count; ++i) {
            const gc_family_def* def = gc_family_builtin(models[i].family);
            entry = def && def->state_bytes > entry ? def->state_bytes : entry;
        }
        job.scratch_bytes = entry * (size_t)p.run.vertex_count;
    }
    if (threads > GC_MAX_THREADS)
        threads = GC_MAX_THREADS;
    if (threads > model_count)
        threads = (unsigned)model_count;
    pthread_t workers[GC_MAX_THREADS];
    unsigned started = 0;
    /* The caller's thread is one of the workers; a thread that cannot start is no error,
     * the others take its share. */
    while (started + 1 < threads && pthread_create(&workers[started], NULL, models_worker, &job) == 0)
        started++;
    models_worker(&job);
    for (unsigned t = 0; t < started; ++t)
        pthread_join(workers[t], NULL);
    pthread_mutex_destroy(&job.lock);
    pthread_mutex_destroy(&referenced.lock);
    s = GC_OK;
    for (size_t i = 0; i < model_count && !s; ++i) {
        if (status[i]) {
            s = status[i];
            if (err)
                *err = errors[i];
        }
    }
    free(status);
    free(errors);
    prepared_free(&p);
    return s;
}

/* ------------------------------------------------------- state machine driver */

/* gc_analyze_sim: a whole draw through one state machine (gc_sim_stream: run by run, each
 * restart-free run announced first), primitive by primitive, with the state changes each
 * must see. */

gc_status gc_analyze_sim(gc_sim* s, const gc_draw* draw, const gc_analyze_options* options, gc_stats* out,
                         gc_error* err)
{
    static const gc_analyze_options no_options;
    if (!options)
        options = &no_options;
    if (!s || !draw || !out)
        return gc_fail(err, GC_ERR_USAGE, "gc_analyze_sim: null argument");
    if (options->trace)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "gc_analyze_sim: no trace from a state machine");
    memset(out, 0, sizeof *out);
    uint64_t primitives = 0;
    gc_status st = gc_draw_validate(draw, "input", &primitives, err);
    if (st)
        return st;
    const uint32_t vertex_count = s->ctx.vertex_count;
    for (size_t i = 0; i < draw->index_count; ++i) {
        uint32_t v = draw->indices[i];
        if (!(draw->restart_enabled && v == draw->restart_value) && v >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "index %zu is %u, not below the machine's %u vertices", i, v,
                           vertex_count);
    }
    uint32_t* counts = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    unsigned char* referenced = gc_alloc_array(vertex_count ? vertex_count : 1, 1, true);
    if (!counts || !referenced) {
        free(counts);
        free(referenced);
        return gc_fail(err, GC_ERR_NOMEM, "gc_analyze_sim: out of memory for %u vertices", vertex_count);
    }
    gc_sim_reset(s, draw->topology);
    const uint64_t* changes = options->state_changes;
    const size_t change_count = options->state_change_count;
    size_t next_change = 0;
    gc_sim_stream stream;
    gc_sim_stream_init(&stream, s, draw);
    gc_sim_primitive p;
    while (gc_sim_stream_next(&stream, &p)) {
        uint64_t completes = 0;
        for (unsigned j = 0; j < p.count; ++j) {
            completes = p.positions[j] > completes ? p.positions[j] : completes;
            referenced[p.vertices[j]] = 1;
        }
        const size_t first_change = next_change;
        while (next_change < change_count && changes[next_change] <= completes)
            next_change++;
        p.state_changes = changes ? changes + first_change : NULL;
        p.state_change_count = next_change - first_change;
        unsigned shaded = 0;
        gc_sim_feed(s, &p, &shaded);
        for (unsigned j = 0; j < p.count; ++j)
            counts[p.vertices[j]] += GC_SIM_SHADED(shaded, j);
    }
    gc_sim_finish(s, change_count - next_change);
    gc_sim_stats(s, out);
    uint64_t vertices = 0;
    for (uint32_t v = 0; v < vertex_count; ++v)
        vertices += referenced[v];
    out->indices = draw->index_count;
    out->primitives = primitives;
    out->vertices = vertices;
    out->acmr = primitives ? (double)out->invocations / (double)primitives : 0.0;
    out->atvr = vertices ? (double)out->invocations / (double)vertices : 0.0;
    st = GC_OK;
    gc_per_vertex* pv = options->per_vertex;
    if (pv) {
        memset(pv, 0, sizeof *pv);
        /* Every index value but the restart has a row, drawn or not (as gc_analyze). */
        unsigned char* present = referenced;
        for (size_t i = 0; i < draw->index_count; ++i)
            if (!(draw->restart_enabled && draw->indices[i] == draw->restart_value))
                present[draw->indices[i]] = 1;
        size_t n = 0;
        for (uint32_t v = 0; v < vertex_count; ++v)
            n += present[v];
        pv->values = gc_alloc_array(n ? n : 1, sizeof(uint32_t), false);
        pv->counts = gc_alloc_array(n ? n : 1, sizeof(uint32_t), false);
        if (!pv->values || !pv->counts) {
            gc_per_vertex_free(pv);
            st = gc_fail(err, GC_ERR_NOMEM, "gc_analyze_sim: out of memory for per-vertex counts");
        } else {
            for (uint32_t v = 0; v < vertex_count; ++v)
                if (present[v]) {
                    pv->values[pv->count] = gc_sim_value(&s->ctx, v);
                    pv->counts[pv->count++] = counts[v];
                }
        }
    }
    free(counts);
    free(referenced);
    return st;
}

void gc_stats_add(gc_stats* sum, const gc_stats* s)
{
    sum->invocations += s->invocations;
    sum->primitives += s->primitives;
    sum->indices += s->indices;
    sum->vertices += s->vertices;
    sum->has_batches = s->has_batches;
    sum->batches += s->batches;
    sum->resets += s->resets;
    sum->state_change_flushes += s->state_change_flushes;
    sum->map_mode_batches += s->map_mode_batches;
    sum->slots_filled += s->slots_filled;
    sum->acmr = sum->primitives ? (double)sum->invocations / (double)sum->primitives : 0.0;
    sum->atvr = sum->vertices ? (double)sum->invocations / (double)sum->vertices : 0.0;
}
