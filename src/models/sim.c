// SPDX-License-Identifier: MIT
/* The state machines of the models (gc_sim_*): creation, the save point and its log. The
 * rules live in each family's file and reach this one through gc_sim_write; the table of
 * the built-in rules is rules.c, the driver that runs a whole draw through a machine is
 * gc_analyze_sim in analyze.c. */
#include "models.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_sim_create_rule(const gc_sim_rule* rule, const gc_model* model, const void* params, uint32_t vertex_count,
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
    s->peek_state = calloc(1, rule->state_bytes ? rule->state_bytes : 1);
    if (!s->ctx.words || !s->ctx.state || !s->saved_state || !s->peek_state || extra > GC_MAX_INDICES) {
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

gc_status gc_sim_create_custom(const gc_sim_rule* rule, const void* params, uint32_t vertex_count,
                               const uint32_t* values, gc_sim** out, gc_error* err)
{
    if (!out)
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_create_custom: null argument");
    return gc_sim_create_rule(rule, NULL, params, vertex_count, values, out, err);
}

void gc_sim_destroy(gc_sim* s)
{
    if (!s)
        return;
    free(s->ctx.words);
    free(s->ctx.state);
    free(s->saved_state);
    free(s->peek_state);
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

uint32_t gc_sim_peek(gc_sim* s, const gc_sim_primitive* p, unsigned* shaded)
{
    unsigned mask = 0;
    uint32_t n;
    if (s->rule->peek) {
        n = s->rule->peek(&s->ctx, p, &mask);
    } else {
        /* a feed undone: the fixed block copied aside, the words from the log */
        const bool recording = s->recording;
        const size_t mark = s->log_count;
        const uint64_t invocations = s->invocations;
        memcpy(s->peek_state, s->ctx.state, s->rule->state_bytes);
        s->recording = true;
        n = s->rule->feed(&s->ctx, p, &mask);
        for (size_t i = s->log_count; i-- > mark;)
            s->ctx.words[s->log_word[i]] = s->log_old[i];
        s->log_count = mark;
        memcpy(s->ctx.state, s->peek_state, s->rule->state_bytes);
        s->invocations = invocations;
        s->recording = recording;
    }
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

int gc_sim_keeps_age(const gc_sim* s)
{
    return s->rule->age != NULL;
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

void gc_sim_stream_init(gc_sim_stream* st, gc_sim* sim, const gc_draw* draw)
{
    memset(st, 0, sizeof *st);
    st->sim = sim;
    st->draw = *draw;
}

bool gc_sim_stream_next(gc_sim_stream* st, gc_sim_primitive* p)
{
    const gc_draw* d = &st->draw;
    for (;;) {
        /* a triangle list needs no assembly: three indices a primitive, read in place (the
           batch families' machines are fed this way a primitive at a time, and the copies
           through gc_primitive cost them a sixth of their time) */
        if (st->in_run && d->topology == GC_TRIANGLE_LIST) {
            gc_assembler* a = &st->assembler;
            if (a->position + 3 <= a->draw.index_count) {
                const uint32_t* v = a->draw.indices + a->position;
                p->count = 3;
                p->number = st->number++;
                p->state_changes = NULL;
                p->state_change_count = 0;
                for (unsigned j = 0; j < 3; ++j) {
                    p->vertices[j] = v[j];
                    p->positions[j] = st->run_start + a->position + j;
                }
                p->vertices[3] = 0;
                p->positions[3] = 0;
                a->position += 3;
                return true;
            }
        }
        gc_primitive prim;
        if (st->in_run && gc_assembler_next(&st->assembler, &prim)) {
            memset(p, 0, sizeof *p);
            p->count = prim.count;
            p->number = st->number++;
            for (unsigned j = 0; j < prim.count; ++j) {
                p->vertices[j] = prim.vertices[j];
                p->positions[j] = st->run_start + prim.positions[j];
            }
            return true;
        }
        st->in_run = false;
        if (st->next_run > d->index_count)
            return false;
        /* the next restart-free run: up to the next restart index or the end */
        size_t end = st->next_run;
        while (end < d->index_count && !(d->restart_enabled && d->indices[end] == d->restart_value))
            ++end;
        st->run_start = st->next_run;
        st->next_run = end + 1;
        if (end > st->run_start) {
            gc_draw run = *d;
            run.indices = d->indices + st->run_start;
            run.index_count = end - st->run_start;
            run.restart_enabled = 0;
            gc_sim_begin_run(st->sim, st->run_start, run.index_count);
            gc_assembler_init(&st->assembler, &run);
            st->in_run = true;
        }
    }
}
