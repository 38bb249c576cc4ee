/* The set-associative LRU vertex cache of set_assoc.h as a gc_sim_rule.
 *
 * Where its state lives. A machine's state is a fixed block (copied whole on every save)
 * and an array of 32-bit words (of which a save logs only those written afterwards). The
 * cache's contents are the set table: sets * ways words, so they go into the words, as
 * `extra_words`, and a save stays cheap however large the cache. The rule needs no
 * per-vertex words (words_per_vertex = 0: a vertex is found by scanning its set, at most
 * `ways` words) and no fixed block (no counters: gc_sim counts the invocations itself).
 *
 * The table. Set s is the words [s * ways, (s + 1) * ways) (the extra words follow the
 * per-vertex ones, of which there are none here, so the table starts at word 0). Each
 * word holds a vertex id + 1, 0 for an empty way, so that the zeroed words of a fresh
 * machine are an empty cache and no reset function is needed. A set is kept in order of
 * use, most recent first; empty ways are therefore always at its end. */
#include "set_assoc.h"

#include <stddef.h>
#include <stdio.h>

bool set_assoc_valid(const set_assoc_params* params)
{
    return params && params->sets >= 1 && params->ways >= 1 &&
           (uint64_t)params->sets * params->ways <= SET_ASSOC_MAX_ENTRIES;
}

/* gc_sim calls it once, when it creates the machine, to size the words. */
static size_t set_assoc_extra_words(const void* params)
{
    const set_assoc_params* q = params;
    return (size_t)q->sets * q->ways;
}

/* The word where vertex `id`'s set begins. Sets are keyed by index value, as a GPU's
 * cache would be: the machine may number vertices differently from the index buffer
 * (`values` maps its ids back), and then the id is not the value. */
static size_t set_of(const gc_sim_context* c, const set_assoc_params* q, uint32_t id)
{
    uint32_t value = c->values ? c->values[id] : id;
    return (size_t)(value % q->sets) * q->ways;
}

static uint32_t feed_with(gc_sim_context* c, const set_assoc_params* q, const gc_sim_primitive* p, unsigned* shaded)
{
    uint32_t invocations = 0;
    /* Corner by corner, in the primitive's order: a vertex that appears twice in one
       primitive is shaded at its first corner and hits at the second, as the rule asks. */
    for (unsigned j = 0; j < p->count; ++j) {
        const uint32_t id = p->vertices[j];
        const size_t first = set_of(c, q, id);
        const uint32_t* set = c->words + first;
        /* Find the vertex; stop early at the first empty way (nothing is cached past it),
           or at the last way, which on a miss in a full set is the least recently used. */
        uint32_t way = 0;
        while (way < q->ways - 1 && set[way] != id + 1 && set[way] != 0)
            way++;
        const bool hit = set[way] == id + 1;
        /* Either way the vertex becomes the set's most recent entry: the entries before
           it move one way down, over it (a hit), or over the empty or least recently used
           way (a miss, which evicts what was there). Every write goes through gc_sim_set,
           so that a save point can undo it; reading set[k - 1] after writing set[k] is
           fine, as the writes go from the end of the set towards its front. */
        for (uint32_t k = way; k > 0; --k)
            gc_sim_set(c, first + k, set[k - 1]);
        if (way > 0 || !hit)
            gc_sim_set(c, first, id + 1);
        if (!hit) {
            *shaded += GC_SIM_SHADE(j);
            invocations++;
        }
    }
    /* gc_sim adds the return value to the machine's invocations, while gc_analyze_sim's
       per-vertex counts come from *shaded: the two must agree. */
    return invocations;
}

/* Optional: how close a cached vertex is to eviction, 0 for the most recent entry of its
 * set, (ways - 1) / ways for the next to go; 0 when it is not cached. gpucache's
 * optimizer prefers to reuse entries that are about to leave; a caller may ask through
 * gc_sim_age. */
static float age_with(const gc_sim_context* c, const set_assoc_params* q, uint32_t id)
{
    const uint32_t* set = c->words + set_of(c, q, id);
    for (uint32_t way = 0; way < q->ways && set[way] != 0; ++way)
        if (set[way] == id + 1)
            return (float)way / (float)q->ways;
    return 0.0f;
}

static uint32_t set_assoc_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return feed_with(c, c->params, p, shaded);
}

static float set_assoc_age(const gc_sim_context* c, uint32_t id)
{
    return age_with(c, c->params, id);
}

/* The functions left out (reset, begin_run, finish, stats) are optional and this cache
 * needs none: it starts empty, keys nothing by stream position, flushes nothing at the
 * end of a draw and has no counters besides the invocations. */
const gc_sim_rule set_assoc_rule = {
    .name = "set-assoc",
    .state_bytes = 0,
    .words_per_vertex = 0,
    .extra_words = set_assoc_extra_words,
    .feed = set_assoc_feed,
    .age = set_assoc_age, NULL,
};

/* ------------------------------------------------------------ as a family */

/* A registered family's rule gets the parsed gc_model as its params: sets = p[0], ways =
 * p[1] (the row's parameters, in order). */
static set_assoc_params params_of(const void* model)
{
    const gc_model* m = model;
    return (set_assoc_params){m->p[0], m->p[1]};
}

static size_t family_extra_words(const void* model)
{
    const set_assoc_params q = params_of(model);
    return set_assoc_extra_words(&q);
}

static uint32_t family_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const set_assoc_params q = params_of(c->params);
    return feed_with(c, &q, p, shaded);
}

static float family_age(const gc_sim_context* c, uint32_t id)
{
    const set_assoc_params q = params_of(c->params);
    return age_with(c, &q, id);
}

static const gc_sim_rule family_rule = {
    .name = "set-assoc",
    .extra_words = family_extra_words,
    .feed = family_feed,
    .age = family_age, NULL,
};

/* The ranges are checked by gc_model_parse; the product here. */
static gc_status family_validate(const gc_model* m, const char* spec, gc_error* err)
{
    const set_assoc_params q = params_of(m);
    if (set_assoc_valid(&q))
        return GC_OK;
    err->code = GC_ERR_USAGE;
    snprintf(err->message, sizeof err->message, "model '%s': at most %u entries (sets x ways)", spec,
             SET_ASSOC_MAX_ENTRIES);
    return GC_ERR_USAGE;
}

/* What gpucache's optimizer may know of it: orders for a cache of sets x ways entries,
 * and the sets are keyed by index value, so the numbering of the vertices matters. */
static void family_traits(const gc_model* m, gc_family_traits* t)
{
    t->order_cache = m->p[0] * m->p[1];
    t->value_keyed = 1;
}

/* The fit's standard candidates: power-of-two shapes up to 64 x 8, after the built-in
 * families' (their last stage is 21). */
static void family_search(unsigned stage, gc_family_add_fn add, void* user)
{
    if (stage != 22)
        return;
    for (unsigned sets = 1; sets <= 64; sets *= 2)
        for (unsigned ways = 1; ways <= 8; ways *= 2) {
            char spec[64];
            snprintf(spec, sizeof spec, "set-assoc:sets=%u,ways=%u", sets, ways);
            add(user, spec);
        }
}

const gc_family set_assoc_family = {
    .name = "set-assoc",
    .syntax = "set-assoc[:sets=,ways=]",
    .summary = "a set-associative LRU cache, set = index value mod sets (8 sets of 2 ways)",
    .example = "set-assoc:sets=8,ways=2",
    .param_count = 2,
    .params = {{"sets", 1, SET_ASSOC_MAX_ENTRIES, 8, 0}, {"ways", 1, SET_ASSOC_MAX_ENTRIES, 2, 0}},
    .params_required = 0,
    .validate = family_validate,
    .rule = &family_rule,
    .traits = family_traits,
    .search = family_search,
};
