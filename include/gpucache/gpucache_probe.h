// SPDX-License-Identifier: MIT
/* gpucache_probe.h: measuring a real Vulkan implementation.
 *
 * The probe draws an index buffer headlessly (no window, no surface) and reads back
 * what the implementation did: the vertex-shader invocations of a pipeline-statistics
 * query (seed 002's method) and, per vertex, how many times the shader ran for it,
 * counted by an atomic increment at gl_VertexIndex (seed 001's method).
 *
 * Built into libgpucache_probe only where the Vulkan headers and glslc were found at
 * configure time; gc_probe_available() says whether this build has it. The rest of
 * libgpucache_probe is always there: the backends (a device, or an emulator model standing
 * in for one), the diagnostic suite that writes the measurement files gc_fit reads (read
 * by gpucache_io.h's gc_measurements_load), and the sweep experiment. A static library
 * on top of libgpucache_io and libgpucache. */
#ifndef GPUCACHE_PROBE_H
#define GPUCACHE_PROBE_H

#include "gpucache/gpucache_io.h"

#include <stddef.h>
#include <stdint.h>

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
 * fails with GC_ERR_UNSUPPORTED). O(1); loads nothing. */
GC_API int gc_probe_available(void);

/* Lists the Vulkan devices: fills up to `capacity` entries of the caller's `out` and sets
 * *count to the number found (possibly more than capacity). No Vulkan loader or no device:
 * GC_ERR_UNSUPPORTED with a message. Creates and destroys a Vulkan instance: tens of
 * milliseconds. */
GC_API gc_status gc_probe_list(gc_probe_device* out, uint32_t capacity, uint32_t* count, gc_error* err);

/* Opens device `index` (as listed by gc_probe_list; GC_ERR_USAGE past the last) with the
 * pipelines the probe draws with; on success the caller owns *out (gc_probe_close), on
 * failure *out is NULL. A Vulkan instance, device and pipelines: tens to hundreds of
 * milliseconds, a few MiB. One thread at a time per probe. */
GC_API gc_status gc_probe_open(uint32_t index, gc_probe** out, gc_error* err);

/* Releases everything gc_probe_open created; safe on NULL. */
GC_API void gc_probe_close(gc_probe* probe);

/* The device an open probe draws on; owned by the probe, valid until gc_probe_close.
 * O(1). */
GC_API const gc_probe_device* gc_probe_info(const gc_probe* probe);

/* Draws `draw` (validated first: gc_draw_validate's errors) once with a vertex shader
 * writing `outputs` vec4s (1 .. max_outputs) and writes the counts to *out. Indices are
 * uploaded as 32-bit; the draw's restart value is sent as Vulkan's 0xFFFFFFFF. Vulkan has
 * no line loop, quad list or polygon: GC_ERR_USAGE. If `per_vertex` (the caller's) is
 * non-NULL it receives the counter of every index value 0 .. per_vertex_len-1
 * (per_vertex_len must exceed the largest index value). Device memory: 4 bytes per index
 * and per counter; one submission, waited for. */
GC_API gc_status gc_probe_draw(gc_probe* probe, const gc_draw* draw, uint32_t outputs, uint32_t* per_vertex,
                        size_t per_vertex_len, gc_probe_result* out, gc_error* err);

/* Overdraw counted on the device: the model's six views (docs/models/overdraw.md) rendered
 * for real, the fragment shader running only where the depth test passed. */
typedef struct gc_probe_overdraw_result {
    uint64_t covered;              /* (pixel, side, view) samples shaded at least once */
    uint64_t shaded;               /* fragments that passed the depth test, counted per pixel */
    uint64_t fragment_invocations; /* the pipeline statistics' fragment shader invocations */
    double ratio;                  /* shaded / covered */
} gc_probe_overdraw_result;

/* Renders the triangle list `indices` (each below vertex_count) over `positions` (x, y, z
 * floats, position_stride bytes apart, 0: 12) in the overdraw model's six views and counts
 * the shaded fragments per pixel into *out. Needs fragment shader atomics (GC_ERR_UNSUPPORTED
 * without). Device memory: 12 bytes per vertex, 4 per index, 512 KiB of counters and a
 * 256 x 256 depth buffer, all released before it returns; three submissions, waited for. */
GC_API gc_status gc_probe_overdraw(gc_probe* probe, const uint32_t* indices, size_t index_count,
                                   const float* positions, size_t vertex_count, size_t position_stride,
                                   gc_probe_overdraw_result* out, gc_error* err);

/* ------------------------------------------------------------- backends */

/* Where measurements come from: a Vulkan device through the probe, or an emulator
 * model standing in for one (so that the suite, introspection and fitting can be
 * run and tested without a device). */
typedef struct gc_backend {
    gc_probe* probe;  /* NULL when emulating */
    gc_model model;   /* the emulated model */
    char device[256];
    char driver[256];
    char api_version[32];
    uint32_t max_outputs;
} gc_backend;

/* One measured (or emulated) draw. Per-vertex counts come for every distinct index
 * value of the draw (restarts excluded), ascending, drawn or not. */
typedef struct gc_measurement {
    uint64_t invocations, ia_vertices, ia_primitives, per_vertex_sum;
    uint32_t* values;
    uint32_t* counts;
    size_t count;
} gc_measurement;

/* Fills *b: opens device `device_index` (gc_probe_open's cost and errors), or the
 * emulator `model_spec` (gc_model_parse's errors; no device needed) when it is non-NULL.
 * Release with gc_backend_close. */
GC_API gc_status gc_backend_open(gc_backend* b, uint32_t device_index, const char* model_spec, gc_error* err);
/* Closes the device of a backend, if any; the struct may be opened again. */
GC_API void gc_backend_close(gc_backend* b);
/* Draws once with `outputs` vec4 outputs (ignored when emulating) and writes the counts to
 * *out, whose arrays the caller frees with gc_measurement_free (nothing to free on
 * failure). Emulated: one gc_analyze with per-vertex counts; on a device: gc_probe_draw. */
GC_API gc_status gc_backend_measure(gc_backend* b, const gc_draw* draw, uint32_t outputs, gc_measurement* out, gc_error* err);
/* Frees a measurement's arrays and zeroes it; safe on a zeroed one (not on NULL). */
GC_API void gc_measurement_free(gc_measurement* m);

/* The distinct index values of a draw (restarts excluded), ascending, in a new array *out
 * that the caller frees with free(); *count of them. O(n log n) time, 4 bytes per index. */
GC_API gc_status gc_draw_distinct_values(const gc_draw* draw, uint32_t** out, size_t* count, gc_error* err);

/* ---------------------------------------------------------------- suite */

/* The standard diagnostic suite (`gpucache probe --suite`): each case is an index buffer
 * drawn once on the backend; the measurement file records the buffer itself, so that any
 * model can be replayed against it (gc_fit, through gc_measurements_load). Two cases are
 * adaptive: they look for the cycle length a cache keeps and for the draw size where a
 * cache is cut (a batch or segment boundary), then add cases around what they find. */
typedef struct gc_suite_summary {
    size_t measured;        /* cases measured and written */
    size_t disagree;        /* cases whose pipeline statistics differ from the per-vertex sum */
    uint32_t cycle_kept;    /* the longest cycle 0..k-1 whose second pass is all hits */
    uint32_t cut_triangles; /* the shortest (0 1 2)+ whose cost exceeds 3, or 0 */
} gc_suite_summary;

/* Called after each case with the number measured so far (e.g. to show progress). */
typedef void (*gc_suite_progress_fn)(void* user, size_t measured);

/* Runs the suite on `b` and gives the measurement file (JSON, one line and a newline) in
 * *json (*size bytes, NUL-terminated; free it with free()); *json is NULL when a
 * measurement fails. `progress` may be NULL. Memory: the file's text. */
GC_API gc_status gc_suite_run(gc_backend* b, gc_suite_progress_fn progress, void* progress_user, char** json,
                              size_t* size, gc_suite_summary* summary, gc_error* err);

/* ---------------------------------------------------------------- sweeps */

/* Seed 002's experiment on any model: for each mesh, layout and target cache size, the
 * index buffer is built (grids are generated in the layout, meshes reordered by the
 * optimizer with that cache size) and analyzed under every model, or measured on a device. */
typedef enum gc_sweep_layout {
    GC_LAYOUT_OPTIMAL,  /* seed 002's optimal grid order (grids only) */
    GC_LAYOUT_STRIPED,  /* stripes as wide as the cache (grids only) */
    GC_LAYOUT_TIPSIFY,  /* tipsify with that cache size */
    GC_LAYOUT_FORSYTH,  /* forsyth with that cache size (4 to 256) */
    GC_LAYOUT_AUTO,     /* auto for a FIFO of that size */
    GC_LAYOUT_ORIGINAL, /* the mesh as given */
    GC_LAYOUT_COUNT
} gc_sweep_layout;

/* "optimal", "striped", "tipsify", "forsyth", "auto", "original": a static string, ""
 * for a value outside the enum. O(1). */
GC_API const char* gc_sweep_layout_name(gc_sweep_layout layout);

typedef struct gc_sweep_mesh {
    const char* name;        /* for messages */
    int is_grid;             /* a generated grid of width x height quads: grid layouts apply */
    uint32_t width, height;
    const uint32_t* indices; /* its triangle list (a grid's in row-major order) */
    size_t count;
    uint32_t vertices;       /* largest index + 1 */
} gc_sweep_mesh;

typedef struct gc_sweep_row {
    uint64_t invocations, triangles, vertices;
    double atvr, acmr;
    int valid; /* 0: the layout does not apply (a grid layout on a mesh file, forsyth off 4..256) */
} gc_sweep_row;

typedef struct gc_sweep {
    const gc_sweep_mesh* meshes;
    size_t mesh_count;
    const gc_sweep_layout* layouts;
    size_t layout_count;
    uint32_t cache_lo, cache_hi; /* every target cache size in [cache_lo, cache_hi], 3..4096 */
    const gc_model* models;      /* analyzed with gc_analyze ... */
    const int* on_device;        /* ... or, where on_device[k] is set (may be NULL), measured on device */
    size_t model_count;
    gc_backend* device;          /* one draw at a time */
    unsigned threads;            /* 0: one per core, at most 64 */
    gc_progress_fn progress;     /* jobs done and their total, from any worker; may be NULL */
    void* progress_user;
} gc_sweep;

/* Runs every job (mesh, layout, cache size) on the sweep's threads and writes the rows:
 * rows[job * model_count + k] for model k, jobs numbered mesh-major, then layout, then
 * cache size; the rows are the same for any thread count. Jobs share one budget of working
 * memory, that of one optimizing job on the largest mesh (at least 64 MiB), so threads do
 * not multiply it. Cost: one build (generate or optimize) per job plus one analysis per job
 * and model. The first failure stops the sweep and is reported. */
GC_API gc_status gc_sweep_run(const gc_sweep* sweep, gc_sweep_row* rows, gc_error* err);

/* The most meshes, and the most models, one sweep figure shows. */
#define GC_SWEEP_PLOT_MAX 16

/* What gc_backend_introspect found: the indices still cached after a draw. */
typedef struct gc_introspection {
    uint64_t invocations;  /* the draw's own count */
    size_t candidates;     /* its distinct index values, each tried */
    uint32_t* cached;      /* those still cached after it, ascending; cached_count of them */
    size_t cached_count;
} gc_introspection;
/* Seed 000's introspection of `draw` (a point, line or triangle list: GC_ERR_USAGE naming
 * `what` otherwise) on `b`: for every distinct index I, the draw followed by (I, I, I);
 * I is cached when the count does not grow. A model runs it by simulation (gc_introspect,
 * linear); a device draws once per candidate, refused (GC_ERR_LIMIT) past `max_lookups`
 * index lookups in all. `progress` (may be NULL) sees the candidates done. The caller
 * frees *out with gc_introspection_free. */
GC_API gc_status gc_backend_introspect(gc_backend* b, const gc_draw* draw, uint32_t outputs, uint64_t max_lookups,
                                       const char* what, gc_progress_fn progress, void* progress_user,
                                       gc_introspection* out, gc_error* err);
/* Releases what gc_backend_introspect put in *r and zeroes it; safe on a zeroed one. */
GC_API void gc_introspection_free(gc_introspection* r);


#ifdef __cplusplus
}
#endif

#endif
