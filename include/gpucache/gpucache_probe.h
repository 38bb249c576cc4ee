/* gpucache_probe.h: measuring a real Vulkan implementation.
 *
 * The probe draws an index buffer headlessly (no window, no surface) and reads back
 * what the implementation did: the vertex-shader invocations of a pipeline-statistics
 * query (seed 002's method) and, per vertex, how many times the shader ran for it,
 * counted by an atomic increment at gl_VertexIndex (seed 001's method).
 *
 * Built into libgpucache_probe only where the Vulkan headers and glslc were found at
 * configure time; gc_probe_available() says whether this build has it. */
#ifndef GPUCACHE_PROBE_H
#define GPUCACHE_PROBE_H

#include "gpucache/gpucache.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Index values the probe can draw: one 4-byte counter each (256 MiB at most). */
#define GC_PROBE_MAX_INDEX_VALUE (1u << 26)

/* Vertex shader variants are compiled for 1 .. GC_PROBE_MAX_OUTPUTS vec4 outputs. */
#define GC_PROBE_MAX_OUTPUTS 32u

/* What the probe knows of a device. */
typedef struct gc_probe_device {
    char name[256];          /* VkPhysicalDeviceProperties::deviceName */
    char driver[256];        /* driver name and info, e.g. "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)" */
    char type[32];           /* "cpu", "discrete-gpu", ... */
    uint32_t api_version;    /* VK_MAKE_API_VERSION-encoded */
    uint32_t driver_version; /* vendor-encoded */
    uint32_t vendor_id, device_id;
    uint32_t max_outputs;    /* vec4 outputs a probe shader may write on this device */
    int list_restart;        /* restart allowed with list topologies (VK_EXT_primitive_topology_list_restart) */
    int usable;              /* has pipeline statistics and vertex-stage storage atomics */
} gc_probe_device;

/* One measured draw. */
typedef struct gc_probe_result {
    uint64_t invocations;    /* VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT */
    uint64_t ia_vertices;    /* ..._INPUT_ASSEMBLY_VERTICES_BIT */
    uint64_t ia_primitives;  /* ..._INPUT_ASSEMBLY_PRIMITIVES_BIT */
    uint64_t per_vertex_sum; /* sum of the per-vertex atomic counters */
} gc_probe_result;

typedef struct gc_probe gc_probe;

/* 1 when this build contains the Vulkan probe, 0 otherwise (then every call below
 * fails with GC_ERR_UNSUPPORTED). */
int gc_probe_available(void);

/* Lists the Vulkan devices: fills up to `capacity` entries and sets *count to the
 * number found. No Vulkan loader or no device: GC_ERR_UNSUPPORTED with a message. */
gc_status gc_probe_list(gc_probe_device* out, uint32_t capacity, uint32_t* count, gc_error* err);

/* Opens device `index` (as listed by gc_probe_list). */
gc_status gc_probe_open(uint32_t index, gc_probe** out, gc_error* err);

/* Releases everything gc_probe_open created; safe on NULL. */
void gc_probe_close(gc_probe* probe);

/* The device an open probe draws on. */
const gc_probe_device* gc_probe_info(const gc_probe* probe);

/* Draws `draw` once with a vertex shader writing `outputs` vec4s (1 .. max_outputs).
 * Indices are uploaded as 32-bit; the draw's restart value is sent as Vulkan's
 * 0xFFFFFFFF. Vulkan has no line loop, quad list or polygon: GC_ERR_USAGE.
 * If `per_vertex` is non-NULL it receives the counter of every index value
 * 0 .. per_vertex_len-1 (per_vertex_len must exceed the largest index value). */
gc_status gc_probe_draw(gc_probe* probe, const gc_draw* draw, uint32_t outputs, uint32_t* per_vertex,
                        size_t per_vertex_len, gc_probe_result* out, gc_error* err);

#ifdef __cplusplus
}
#endif

#endif
