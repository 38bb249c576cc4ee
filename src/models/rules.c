/* The built-in models' rules by family, for gc_sim_create: the one place that names them
 * all (each is defined beside its family's fast loop). */
#include "models.h"

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
    case GC_MODEL_NV_DX: return &gc_rule_nv_dx;
    case GC_MODEL_NV_GL: return &gc_rule_nv_gl;
    case GC_MODEL_BATCH_ALL: return &gc_rule_batch_all;
    case GC_MODEL_ATI: return &gc_rule_ati;
    default: return NULL;
    }
}

gc_status gc_sim_create(const gc_model* model, uint32_t vertex_count, const uint32_t* values, gc_sim** out,
                        gc_error* err)
{
    if (!model || !out || !builtin_rule(model->family))
        return gc_fail(err, GC_ERR_USAGE, "gc_sim_create: bad model");
    return gc_sim_create_rule(builtin_rule(model->family), model, NULL, vertex_count, values, out, err);
}
