/* A vertex cache model that gpucache does not have built in, written as a gc_sim_rule
 * against the public header only: a set-associative cache with LRU replacement within
 * each set.
 *
 *  - the cache has `sets` sets of `ways` entries (sets * ways entries in all);
 *  - a vertex goes to set (index value % sets);
 *  - a hit makes the vertex the most recently used of its set;
 *  - a miss shades the vertex and puts it in its set, in place of the least recently
 *    used entry when the set is full.
 *
 * Two ways per set is the usual choice (examples/custom_model/custom_model.c uses it);
 * one way per set is a direct-mapped cache (gpucache's direct-value:N with N sets), one
 * set of N ways a fully associative LRU cache (lru:N). The tests hold it to both. */
#ifndef SET_ASSOC_H
#define SET_ASSOC_H

#include <stdbool.h>
#include <stdint.h>

#include "gpucache/gpucache.h"

/* The parameters a machine is created with (gc_sim_create_custom's `params`): the rule
 * reads them through gc_sim_context.params, so they must outlive the machine. */
typedef struct set_assoc_params {
    uint32_t sets; /* at least 1 */
    uint32_t ways; /* entries per set, at least 1 */
} set_assoc_params;

/* The largest cache the rule accepts, in entries (gpucache's own bound for its models):
 * the set table is allocated from it, and a bigger one models no real GPU. */
#define SET_ASSOC_MAX_ENTRIES GC_MAX_CACHE_SIZE

/* Whether `params` describe a cache the rule can model: at least one set and one way,
 * and at most SET_ASSOC_MAX_ENTRIES entries. gc_sim_create_custom hands `params` to the
 * rule without looking at them, so check them before creating a machine. */
bool set_assoc_valid(const set_assoc_params* params);

/* The rule. Create a machine with
 *     gc_sim_create_custom(&set_assoc_rule, &params, vertex_count, values, &sim, &err);
 * it keys sets by index value: through `values` when given, else by vertex id. */
extern const gc_sim_rule set_assoc_rule;

/* The same cache as a family of gpucache's own, "set-assoc[:sets=,ways=]" (8 sets of 2
 * ways when not given). Registered once (gc_family_register(&set_assoc_family, &id, &err)),
 * it is a model like the built-in ones: gc_model_parse("set-assoc:sets=4,ways=4") makes
 * one, gc_analyze and gc_sim_create run it, gc_optimize's auto takes it as a target and
 * gc_fit as a candidate (and its standard search space lists its shapes). */
extern const gc_family set_assoc_family;

#endif
