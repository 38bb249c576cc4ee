/* Where measurements come from: a Vulkan device through the probe, or an emulator
 * model standing in for one (so that the suite, introspection and fitting can be
 * run and tested without a device). */
#ifndef GPUCACHE_BACKEND_H
#define GPUCACHE_BACKEND_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_probe.h"

typedef struct backend {
    gc_probe* probe;  /* NULL when emulating */
    gc_model model;   /* the emulated model */
    char device[256];
    char driver[256];
    char api_version[32];
    uint32_t max_outputs;
} backend;

/* One measured (or emulated) draw. Per-vertex counts come for every distinct index
 * value of the draw (restarts excluded), ascending, drawn or not. */
typedef struct measurement {
    uint64_t invocations, ia_vertices, ia_primitives, per_vertex_sum;
    uint32_t* values;
    uint32_t* counts;
    size_t count;
} measurement;

/* Opens device `device_index`, or the emulator `model_spec` when it is non-NULL. */
gc_status backend_open(backend* b, uint32_t device_index, const char* model_spec, gc_error* err);
void backend_close(backend* b);
/* Draws once with `outputs` vec4 outputs (ignored when emulating). */
gc_status backend_measure(backend* b, const gc_draw* draw, uint32_t outputs, measurement* out, gc_error* err);
void measurement_free(measurement* m);

/* The distinct index values of a draw (restarts excluded), ascending; *count of them. */
gc_status draw_distinct_values(const gc_draw* draw, uint32_t** out, size_t* count, gc_error* err);

#endif
