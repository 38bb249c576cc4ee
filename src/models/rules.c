// SPDX-License-Identifier: MIT
/* gc_sim_create: the machine of a model's rule, which its family's row names
 * (families.c). */
#include "models.h"

gc_status gc_sim_create(const gc_model* model, uint32_t vertex_count, const uint32_t* values, gc_sim** out,
                        gc_error* err)
{
    const gc_family* f = gc_family_of(model);
    if (!out || !f)
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_create: bad model");
    return gc_sim_create_rule(f->rule, model, NULL, vertex_count, values, out, err);
}
