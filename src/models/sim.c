/* The state machines of the models (gc_sim_*): creation, the save point and its log, and
 * the driver that runs a whole draw through one (gc_analyze_sim). The rules themselves
 * live in each family's file; this file knows none of them but by name. */
#include "models.h"

#include <stdlib.h>
#include <string.h>

static const gc_sim_rule* builtin_rule(gc_model_family family)
{
    switch (family) {
    case GC_MODEL_FIFO: return &gc_rule_fifo;
    case GC_MODEL_LRU: return &gc_rule_lru;
    case GC_MODEL_DIRECT_VALUE: return &gc_rule_direct_value;
    case GC_MODEL_DIRECT_POSITION: return &gc_rule_direct_position;
    case GC_MODEL_NVIDIA: return &gc_rule_nvidia;
    case GC_MODEL_MESHOPT: return &gc_rule_meshopt;
    case GC_MODEL_REUSE: return &gc_rule_reuse;
    case GC_MODEL_BATCH: return &gc_rule_batch;
    case GC_MODEL_LLVMPIPE: return &gc_rule_llvmpipe;
    default: return NULL;
    }
}

static gc_status create(const gc_sim_rule* rule, const gc_model* model, const void* params, uint32_t vertex_count,
                        const uint32_t* values, gc_sim** out, gc_error* err)
{
    *out = NULL;
    if (!rule || !rule->feed || rule->words_per_vertex > 4)
        return gc_fail(err, GC_ERR_USAGE, "gc_sim: a rule needs a feed function and at most 4 words per vertex");
    gc_sim* s = calloc(1, sizeof *s);
    if (!s)
        return gc_fail(err, GC_ERR_NOMEM, "gc_sim: out of memory");
    s->rule = rule;
    if (model) {
        s->model = *model;
        params = &s->model;
    }
    size_t extra = rule->extra_words ? rule->extra_words(params) : 0;
    size_t per_vertex = (size_t)vertex_count * rule->words_per_vertex;
    s->word_count = per_vertex + extra;
    s->ctx.words = gc_alloc_array(s->word_count ? s->word_count : 1, sizeof(uint32_t), true);
    s->ctx.state = calloc(1, rule->state_bytes ? rule->state_bytes : 1);
    s->saved_state = calloc(1, rule->state_bytes ? rule->state_bytes : 1);
    if (!s->ctx.words || !s->ctx.state || !s->saved_state || extra > GC_MAX_INDICES) {
        gc_sim_destroy(s);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the state of %u vertices", rule->name,
                       vertex_count);
    }
    s->ctx.vertex_count = vertex_count;
    s->ctx.values = values;
    s->ctx.params = params;
    s->ctx.sim = s;
    gc_sim_reset(s, GC_TRIANGLE_LIST);
    *out = s;
    return GC_OK;
}

gc_status gc_sim_create(const gc_model* model, uint32_t vertex_count, const uint32_t* values, gc_sim** out,
                        gc_error* err)
{
    if (!model || !out || !builtin_rule(model->family))
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_create: bad model");
    return create(builtin_rule(model->family), model, NULL, vertex_count, values, out, err);
}

gc_status gc_sim_create_custom(const gc_sim_rule* rule, const void* params, uint32_t vertex_count,
                               const uint32_t* values, gc_sim** out, gc_error* err)
{
    if (!out)
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_create_custom: null argument");
    return create(rule, NULL, params, vertex_count, values, out, err);
}

void gc_sim_destroy(gc_sim* s)
{
    if (!s)
        return;
    free(s->ctx.words);
    free(s->ctx.state);
    free(s->saved_state);
    free(s->log_word);
    free(s->log_old);
    free(s);
}

void gc_sim_reset(gc_sim* s, gc_topology topology)
{
    memset(s->ctx.words, 0, s->word_count * sizeof(uint32_t));
    memset(s->ctx.state, 0, s->rule->state_bytes);
    s->ctx.topology = topology;
    s->invocations = 0;
    s->recording = false;
    s->log_count = 0;
    s->log_failed = false;
    if (s->rule->reset)
        s->rule->reset(&s->ctx);
}

void gc_sim_begin_run(gc_sim* s, uint64_t first_position, uint64_t index_count)
{
    if (s->rule->begin_run)
        s->rule->begin_run(&s->ctx, first_position, index_count);
}

uint32_t gc_sim_feed(gc_sim* s, const gc_sim_primitive* p, unsigned* shaded)
{
    unsigned mask = 0;
    uint32_t n = s->rule->feed(&s->ctx, p, &mask);
    s->invocations += n;
    if (shaded)
        *shaded = mask;
    return n;
}

void gc_sim_finish(gc_sim* s, size_t pending_state_changes)
{
    if (s->rule->finish)
        s->rule->finish(&s->ctx, pending_state_changes);
}

void gc_sim_stats(const gc_sim* s, gc_stats* out)
{
    memset(out, 0, sizeof *out);
    if (s->rule->stats)
        s->rule->stats(&s->ctx, out);
    out->invocations = s->invocations;
}

float gc_sim_age(const gc_sim* s, uint32_t id)
{
    return s->rule->age ? s->rule->age(&s->ctx, id) : 0.0f;
}

bool gc_sim_log_grow(gc_sim* s)
{
    size_t capacity = s->log_capacity ? 2 * s->log_capacity : 256;
    size_t* word = realloc(s->log_word, capacity * sizeof *word);
    if (word)
        s->log_word = word;
    uint32_t* old = word ? realloc(s->log_old, capacity * sizeof *old) : NULL;
    if (old)
        s->log_old = old;
    if (!word || !old)
        return false;
    s->log_capacity = capacity;
    return true;
}

void gc_sim_save(gc_sim* s)
{
    memcpy(s->saved_state, s->ctx.state, s->rule->state_bytes);
    s->saved_invocations = s->invocations;
    s->log_count = 0;
    s->recording = true;
}

gc_status gc_sim_restore(gc_sim* s, gc_error* err)
{
    if (!s->recording)
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_restore: no save point");
    if (s->log_failed)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the undo log", s->rule->name);
    for (size_t i = s->log_count; i-- > 0;)
        s->ctx.words[s->log_word[i]] = s->log_old[i];
    s->log_count = 0;
    memcpy(s->ctx.state, s->saved_state, s->rule->state_bytes);
    s->invocations = s->saved_invocations;
    return GC_OK;
}

void gc_sim_release(gc_sim* s)
{
    s->recording = false;
    s->log_count = 0;
}

void gc_sim_set(gc_sim_context* c, size_t word, uint32_t value)
{
    gc_sim_write(c, word, value);
}

/* ------------------------------------------------------------------ driver */

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
    uint64_t number = 0;
    /* Each restart-free run is assembled on its own, so that the machine hears of it first. */
    size_t run_start = 0;
    for (size_t i = 0; i <= draw->index_count; ++i) {
        if (i < draw->index_count && !(draw->restart_enabled && draw->indices[i] == draw->restart_value))
            continue;
        if (i > run_start) {
            gc_draw run = *draw;
            run.indices = draw->indices + run_start;
            run.index_count = i - run_start;
            run.restart_enabled = 0;
            gc_sim_begin_run(s, run_start, run.index_count);
            gc_assembler a;
            gc_assembler_init(&a, &run);
            gc_primitive prim;
            while (gc_assembler_next(&a, &prim)) {
                gc_sim_primitive p;
                memset(&p, 0, sizeof p);
                p.count = prim.count;
                p.number = number++;
                uint64_t completes = 0;
                for (unsigned j = 0; j < prim.count; ++j) {
                    p.vertices[j] = prim.vertices[j];
                    p.positions[j] = run_start + prim.positions[j];
                    completes = p.positions[j] > completes ? p.positions[j] : completes;
                    referenced[prim.vertices[j]] = 1;
                }
                p.state_changes = changes + next_change;
                while (next_change < change_count && changes[next_change] <= completes)
                    next_change++;
                p.state_change_count = (size_t)(changes + next_change - p.state_changes);
                unsigned shaded = 0;
                gc_sim_feed(s, &p, &shaded);
                for (unsigned j = 0; j < prim.count; ++j)
                    counts[prim.vertices[j]] += GC_SIM_SHADED(shaded, j);
            }
        }
        run_start = i + 1;
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
