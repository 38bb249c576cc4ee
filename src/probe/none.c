// SPDX-License-Identifier: MIT
/* The probe in a build without Vulkan headers or glslc: every call says so. */
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <string.h>

static gc_status not_built(gc_error* err)
{
    return gc_fail(err, GC_ERR_UNSUPPORTED,
                   "this gpucache was built without the Vulkan probe (install libvulkan-dev and glslc, rebuild)");
}

int gc_probe_available(void)
{
    return 0;
}

gc_status gc_probe_list(gc_probe_device* out, uint32_t capacity, uint32_t* count, gc_error* err)
{
    (void)out, (void)capacity;
    *count = 0;
    return not_built(err);
}

gc_status gc_probe_open(uint32_t index, gc_probe** out, gc_error* err)
{
    (void)index;
    *out = NULL;
    return not_built(err);
}

void gc_probe_close(gc_probe* probe)
{
    (void)probe;
}

const gc_probe_device* gc_probe_info(const gc_probe* probe)
{
    (void)probe;
    return NULL;
}

gc_status gc_probe_draw(gc_probe* probe, const gc_draw* draw, uint32_t outputs, uint32_t* per_vertex,
                        size_t per_vertex_len, gc_probe_result* out, gc_error* err)
{
    (void)probe, (void)draw, (void)outputs, (void)per_vertex, (void)per_vertex_len, (void)out;
    return not_built(err);
}

gc_status gc_probe_overdraw(gc_probe* probe, const uint32_t* indices, size_t index_count, const float* positions,
                            size_t vertex_count, size_t position_stride, gc_probe_overdraw_result* out,
                            gc_error* err)
{
    (void)probe, (void)indices, (void)index_count, (void)positions, (void)vertex_count, (void)position_stride;
    if (out)
        memset(out, 0, sizeof *out);
    return not_built(err);
}
