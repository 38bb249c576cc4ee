"""The C library, through cffi in ABI mode (no compiler needed at install time).

CDEF restates the part of include/gpucache/gpucache.h and gpucache_probe.h that the package
calls: the declarations must match the headers' layout, which tests/test_layout.py checks
against the C compiler's sizeof and offsetof. The library is found at GPUCACHE_LIBRARY, or
beside this file (where setup.py puts it).
"""
from __future__ import annotations

import os
from pathlib import Path

import cffi

CDEF = r"""
typedef enum gc_status {
    GC_OK = 0, GC_ERR_USAGE = 1, GC_ERR_DATA = 2, GC_ERR_IO = 3, GC_ERR_NOMEM = 4,
    GC_ERR_LIMIT = 5, GC_ERR_UNSUPPORTED = 6
} gc_status;
typedef struct gc_error { gc_status code; char message[512]; } gc_error;

typedef enum gc_topology {
    GC_POINT_LIST = 0, GC_LINE_LIST, GC_LINE_STRIP, GC_LINE_LOOP, GC_TRIANGLE_LIST,
    GC_TRIANGLE_STRIP, GC_TRIANGLE_FAN, GC_QUAD_LIST, GC_POLYGON, GC_TOPOLOGY_COUNT
} gc_topology;
const char* gc_topology_name(gc_topology topology);
gc_status gc_topology_parse(const char* name, gc_topology* out, gc_error* err);

typedef struct gc_draw {
    const uint32_t* indices; size_t index_count; gc_topology topology;
    int restart_enabled; uint32_t restart_value;
} gc_draw;
gc_status gc_draw_validate(const gc_draw* draw, const char* what, uint64_t* primitive_count, gc_error* err);
gc_status gc_draw_triangles(const gc_draw* draw, uint32_t* out, size_t capacity, size_t* written, gc_error* err);

typedef enum gc_model_family {
    GC_MODEL_FIFO = 0, GC_MODEL_LRU, GC_MODEL_DIRECT_VALUE, GC_MODEL_DIRECT_POSITION, GC_MODEL_NVIDIA,
    GC_MODEL_MESHOPT, GC_MODEL_REUSE, GC_MODEL_BATCH, GC_MODEL_LLVMPIPE,
    GC_MODEL_NV_DX, GC_MODEL_NV_GL, GC_MODEL_BATCH_ALL, GC_MODEL_ATI, GC_MODEL_FAMILY_COUNT
} gc_model_family;
typedef struct gc_model { gc_model_family family; uint32_t p[3]; char name[64]; } gc_model;
gc_status gc_model_parse(const char* spec, gc_model* out, gc_error* err);
size_t gc_preset_count(void);
void gc_preset_get(size_t i, const char** name, const char** spec, const char** source);
const char* gc_model_family_name(gc_model_family family);
typedef struct gc_family_traits {
    uint32_t capacity; const char* capacity_what; uint32_t order_cache; int fifo_like; int value_keyed;
    int pieces; uint32_t piece_triangles; uint32_t piece_vertices; uint32_t segment_indices;
    uint32_t segment_map; int warp_sum; int kerbl_batches; uint32_t batch_indices; uint32_t batch_held;
    int batch_cut_inside; int32_t batch_reuse_weight; int batch_greedy_cheap; const char* resets_field;
    uint32_t fill_slots;
} gc_family_traits;
void gc_model_traits(const gc_model* model, gc_family_traits* out);
size_t gc_family_count(void);

typedef void (*gc_trace_fn)(void* user, uint64_t primitive, const int64_t* entries, size_t count);
typedef struct gc_per_vertex { uint32_t* values; uint32_t* counts; size_t count; } gc_per_vertex;
void gc_per_vertex_free(gc_per_vertex* pv);
typedef struct gc_analyze_options {
    gc_per_vertex* per_vertex; gc_trace_fn trace; void* trace_user;
    const uint64_t* state_changes; size_t state_change_count;
    uint32_t vertex_count;
} gc_analyze_options;
typedef struct gc_stats {
    uint64_t invocations; uint64_t primitives; uint64_t indices; uint64_t vertices;
    double acmr; double atvr; int has_batches; uint64_t batches; uint64_t resets;
    uint64_t state_change_flushes; uint64_t map_mode_batches; uint64_t slots_filled;
} gc_stats;
gc_status gc_analyze(const gc_model* model, const gc_draw* draw, const gc_analyze_options* options,
                     gc_stats* out, gc_error* err);

typedef struct gc_mesh {
    uint32_t* indices; size_t index_count; gc_topology topology; int has_topology;
    int restart_enabled; uint32_t restart_value; int index_bits; uint64_t vertex_count;
    size_t* runs; size_t run_count;
} gc_mesh;
typedef struct gc_load_options { int positions_only; size_t max_indices; int allow_external_uris; } gc_load_options;
gc_status gc_mesh_load(const char* path, const gc_load_options* options, gc_mesh* out, gc_error* err);
gc_status gc_mesh_load_positions(const char* path, const gc_load_options* options, float** xyz, size_t* count,
                                 gc_error* err);
void gc_mesh_free(gc_mesh* mesh);
gc_status gc_mesh_write(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                        size_t index_count, int reorder_vertices, const char* out_path, gc_error* err);
gc_status gc_mesh_write_remap(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                              size_t index_count, int reorder_vertices, const char* out_path, uint32_t** remap,
                              size_t* remap_count, gc_error* err);
gc_status gc_state_changes_load(const char* path, size_t index_count, uint64_t** out, size_t* count, gc_error* err);

typedef enum gc_grid_layout { GC_GRID_ROWMAJOR = 0, GC_GRID_STRIPED, GC_GRID_OPTIMAL } gc_grid_layout;
size_t gc_grid_index_count(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache_size);
gc_status gc_grid_generate(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache_size,
                           uint32_t* out, size_t* written, gc_error* err);

typedef void (*gc_progress_fn)(void* user, uint64_t done, uint64_t total);
typedef enum gc_optimizer { GC_OPT_TIPSIFY = 0, GC_OPT_FORSYTH, GC_OPT_AUTO, GC_OPT_COUNT } gc_optimizer;
typedef struct gc_optimize_options {
    uint32_t cache_size; const gc_model* targets; size_t target_count; uint64_t seed; unsigned effort;
    gc_progress_fn progress; void* progress_user; uint64_t stream_position; uint64_t stream_length;
    int first_use_numbering; const float* positions; size_t position_stride; float overdraw_threshold;
    float overdraw_lambda; unsigned threads;
} gc_optimize_options;
gc_status gc_optimizer_parse(const char* name, gc_optimizer* out, gc_error* err);
gc_status gc_optimize(gc_optimizer algorithm, const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* out, gc_error* err);
gc_status gc_reorder_vertices(uint32_t* indices, size_t index_count, uint32_t vertex_count, uint32_t* remap,
                              uint32_t* used, gc_error* err);

typedef struct gc_gltf gc_gltf;
typedef void (*gc_note_fn)(void* user, const char* line);
const char* gc_mesh_format(const char* path);
int gc_mesh_numbers_by_first_use(const char* path);
typedef struct gc_mesh_draw {
    size_t mesh, primitive; const char* mesh_name; int mode; int index_bits; gc_topology topology;
    int restart_enabled; uint32_t restart_value; size_t index_count; uint64_t primitives; uint64_t vertices;
    gc_stats* stats; const uint32_t* indices; const uint64_t* state_changes; size_t state_change_count;
} gc_mesh_draw;
typedef struct gc_mesh_analysis {
    size_t draw_count; gc_mesh_draw* draws; size_t model_count; gc_stats* sums;
    uint64_t indices, primitives, vertices; uint64_t triangles; int mixed; gc_topology topology; void* owner;
} gc_mesh_analysis;
gc_status gc_mesh_analyze(const char* path, const gc_load_options* options, const gc_model* models,
                          size_t model_count, unsigned threads, gc_mesh_analysis* out, gc_error* err);
void gc_mesh_analysis_free(gc_mesh_analysis* analysis);
typedef struct gc_mesh_optimize_options {
    gc_optimizer algorithm; gc_optimize_options optimize; uint32_t vertex_count; int reorder_vertices;
    int vertex_map; int positions; const gc_load_options* load; const gc_model* report; size_t report_count;
    unsigned threads; int mesh_lists; gc_note_fn note; void* note_user;
} gc_mesh_optimize_options;
typedef struct gc_mesh_optimized {
    uint32_t* indices; size_t index_count; uint32_t* dense; uint32_t* input; uint32_t dense_count; int sparse;
    size_t triangles; size_t runs; size_t left; gc_topology topology; gc_stats* before; gc_stats* after;
    gc_gltf* gltf;
} gc_mesh_optimized;
gc_status gc_mesh_optimize(const char* path, const gc_draw* draw, const size_t* runs, size_t run_count,
                           const gc_mesh_optimize_options* options, gc_mesh_optimized* out, gc_error* err);
void gc_mesh_optimized_free(gc_mesh_optimized* result);

typedef struct gc_fit_case {
    gc_draw draw; uint64_t invocations; const uint32_t* values; const uint32_t* counts; size_t count;
} gc_fit_case;
typedef struct gc_fit_candidate { gc_model model; size_t exact; uint64_t total_error; } gc_fit_candidate;
typedef struct gc_fit_options {
    unsigned threads; const gc_model* candidates; size_t candidate_count;
    gc_progress_fn progress; void* progress_user;
} gc_fit_options;
size_t gc_fit_search_space(gc_model* out, size_t capacity);
gc_status gc_fit_evaluate(const gc_model* model, const gc_fit_case* c, uint64_t* predicted, int* exact,
                          gc_error* err);
gc_status gc_fit(const gc_fit_case* cases, size_t case_count, const gc_fit_options* options, size_t keep,
                 gc_fit_candidate* best, size_t* best_count, gc_error* err);

typedef struct gc_measurements {
    void* root; const char* device; gc_fit_case* cases; const char** names; uint32_t** buffers;
    size_t count; void* strings;
} gc_measurements;
gc_status gc_measurements_load(const char* path, gc_measurements* in, gc_error* err);
void gc_measurements_free(gc_measurements* in);
gc_status gc_model_load_fitted(const char* path, gc_model* out, gc_error* err);

typedef enum gc_memtype { GC_MEM_RO = 0, GC_MEM_PV, GC_MEM_GC, GC_MEM_SC, GC_MEM_UC, GC_MEM_TYPE_COUNT } gc_memtype;
typedef enum gc_memsys_strategy {
    GC_MEMSYS_AS_WRITTEN = 0, GC_MEMSYS_L1_BYPASS, GC_MEMSYS_L2_BYPASS, GC_MEMSYS_SC_AS_UC,
    GC_MEMSYS_STRATEGY_COUNT
} gc_memsys_strategy;
const char* gc_memsys_strategy_name(gc_memsys_strategy s);
const char* gc_memtype_name(gc_memtype t);
typedef struct gc_memsys_cache_stats {
    uint64_t accesses[5][2]; uint64_t hits[5][2]; uint64_t misses[5][2];
} gc_memsys_cache_stats;
typedef struct gc_memsys_stats {
    gc_memsys_cache_stats l1, l2, kcache;
    uint64_t garlic_bytes, onion_bytes, onion_plus_bytes;
    uint64_t l1_invalidates, l1_invalidate_lines;
    uint64_t l2_invalidates, l2_invalidates_skipped, l2_invalidate_lines;
    uint64_t l2_writebacks, l2_writebacks_skipped, l2_writeback_lines, l2_writeback_dirty_bytes;
    uint64_t kcache_invalidates, kcache_invalidate_lines;
    uint64_t crosstalk_events, crosstalk_lines;
    double bus_cycles; double event_cycles; double cycles;
    double invalidate_cycles, writeback_cycles;
} gc_memsys_stats;
typedef enum gc_memsys_hazard_kind {
    GC_HAZARD_CPU_READS_DIRTY = 0, GC_HAZARD_GPU_READS_STALE, GC_HAZARD_GC_NO_L1_INVALIDATE,
    GC_HAZARD_CP_CANNOT_SEE, GC_HAZARD_KIND_COUNT
} gc_memsys_hazard_kind;
typedef struct gc_memsys_hazard { gc_memsys_hazard_kind kind; uint64_t line; char message[200]; } gc_memsys_hazard;
typedef struct gc_memsys_report {
    size_t dispatch_count; char (*dispatch_names)[64]; gc_memsys_stats* dispatches;
    gc_memsys_stats between; gc_memsys_stats total; gc_memsys_hazard* hazards; size_t hazard_count;
} gc_memsys_report;
typedef struct gc_memsys gc_memsys;
gc_status gc_memsys_parse(const char* text, size_t length, const char* what, gc_memsys** out, gc_error* err);
void gc_memsys_free(gc_memsys* scenario);
uint64_t gc_memsys_work(const gc_memsys* scenario);
gc_status gc_memsys_run_limited(const gc_memsys* scenario, gc_memsys_strategy strategy, uint64_t max_work,
                                gc_progress_fn progress, void* progress_user, gc_memsys_report* out, gc_error* err);
void gc_memsys_report_free(gc_memsys_report* report);
"""

# The structs whose layout tests/test_layout.py compares with the C compiler's.
CHECKED_STRUCTS = (
    "gc_error", "gc_draw", "gc_model", "gc_per_vertex", "gc_analyze_options", "gc_stats", "gc_mesh",
    "gc_load_options", "gc_optimize_options", "gc_fit_case", "gc_fit_candidate", "gc_fit_options",
    "gc_measurements", "gc_mesh_draw", "gc_mesh_analysis", "gc_mesh_optimize_options", "gc_mesh_optimized",
    "gc_memsys_cache_stats", "gc_memsys_stats", "gc_memsys_hazard", "gc_memsys_report", "gc_family_traits",
)

# Meshlets (issue 31): declared apart from CDEF, so that the additions stay in one place.
MESHLET_CDEF = r"""
typedef struct gc_meshlet {
    uint32_t vertex_offset; uint32_t triangle_offset; uint32_t vertex_count; uint32_t triangle_count;
} gc_meshlet;
typedef struct gc_meshlet_bounds {
    float center[3]; float radius; float cone_apex[3]; float cone_axis[3]; float cone_cutoff;
} gc_meshlet_bounds;
typedef struct gc_meshlets {
    uint32_t max_vertices, max_triangles; gc_meshlet* meshlets; size_t meshlet_count;
    uint32_t* vertices; size_t vertex_count; uint8_t* triangles; size_t triangle_count;
    gc_meshlet_bounds* bounds;
} gc_meshlets;
typedef struct gc_meshlet_options {
    uint32_t max_vertices; uint32_t max_triangles; int keep_order; int local_order; uint64_t seed;
    unsigned effort; gc_progress_fn progress; void* progress_user;
} gc_meshlet_options;
gc_status gc_meshlets_build(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                            const gc_meshlet_options* options, gc_meshlets* out, gc_error* err);
gc_status gc_meshlets_compute_bounds(gc_meshlets* m, const float* positions, size_t vertex_count, size_t stride,
                                     gc_error* err);
gc_status gc_meshlets_check(const gc_meshlets* m, uint64_t vertex_count, const char* what, gc_error* err);
void gc_meshlets_free(gc_meshlets* m);
gc_status gc_meshlet_data_load(const char* path, gc_meshlets* out, gc_error* err);
gc_status gc_meshlet_data_save(const char* path, const gc_meshlets* m, gc_error* err);
"""
CHECKED_STRUCTS = CHECKED_STRUCTS + ("gc_meshlet", "gc_meshlet_bounds", "gc_meshlets", "gc_meshlet_options")
CHECKED_STRUCTS = CHECKED_STRUCTS + ("gc_report_options", "gc_report_info")

# include/gpucache/gpucache_pictures.h: the pictures the package draws through the library.
PICTURES_CDEF = r"""
typedef enum gc_heatmap_view { GC_VIEW_FRONT = 0, GC_VIEW_SIDE = 1, GC_VIEW_TOP = 2 } gc_heatmap_view;
gc_status gc_heatmap_view_parse(const char* name, gc_heatmap_view* out, gc_error* err);
gc_status gc_heatmap_file_svg(const char* path, const gc_load_options* load, const char* name,
                              const gc_model* model, gc_heatmap_view view, uint32_t scale_max, char** svg,
                              size_t* size, gc_error* err);
void gc_svg_free(char* text);
typedef gc_status (*gc_report_figure_fn)(void* user, FILE* f, const char* name, const uint32_t* triangles,
                                         size_t index_count, uint32_t vertex_count, uint32_t cache_lo,
                                         uint32_t cache_hi, gc_error* err);
typedef struct gc_report_options {
    const gc_load_options* load; const char* model_spec; const gc_model* model; gc_heatmap_view view;
    uint32_t cache_lo, cache_hi; unsigned threads; const gc_draw* draw; const size_t* runs; size_t run_count;
    const char* name; gc_report_figure_fn sweep; void* sweep_user; gc_progress_fn progress; void* progress_user;
    gc_note_fn note; void* note_user;
} gc_report_options;
typedef struct gc_report_info { double prepare_seconds; double optimize_seconds; } gc_report_info;
gc_status gc_report_html(const char* path, const gc_report_options* options, gc_report_info* info,
                         char** html, size_t* size, gc_error* err);
"""

LIBRARY_NAME = "libgpucache_python.so"

ffi = cffi.FFI()
# Overdraw and vertex fetch (issue 30): declared apart from CDEF, as the meshlets are.
VERTEX_COSTS_CDEF = r"""
typedef struct gc_overdraw_stats { uint64_t covered; uint64_t shaded; double ratio; } gc_overdraw_stats;
gc_status gc_analyze_overdraw(const uint32_t* indices, size_t index_count, const float* positions,
                              size_t vertex_count, size_t position_stride, gc_overdraw_stats* out, gc_error* err);
typedef struct gc_fetch_level { uint32_t line_bytes; uint64_t capacity_bytes; uint32_t ways; } gc_fetch_level;
typedef struct gc_fetch_spec {
    gc_fetch_level levels[2]; unsigned level_count; int every_reference; uint32_t vertex_bytes;
} gc_fetch_spec;
typedef struct gc_fetch_stream { uint64_t offset; uint32_t stride; uint32_t size; } gc_fetch_stream;
typedef struct gc_fetch_stats {
    uint64_t bytes; uint64_t memory_bytes; uint64_t unique_bytes; double overfetch;
} gc_fetch_stats;
gc_status gc_fetch_parse(const char* spec, gc_fetch_spec* out, gc_error* err);
gc_status gc_analyze_fetch(const gc_fetch_spec* spec, const gc_model* model, const uint32_t* indices,
                           size_t index_count, uint32_t vertex_count, const gc_fetch_stream* streams,
                           size_t stream_count, gc_fetch_stats* out, gc_error* err);
typedef struct gc_mesh_vertex_costs {
    int has_overdraw; gc_overdraw_stats overdraw; size_t draw_count; gc_overdraw_stats* draw_overdraw;
    int has_fetch; size_t model_count; gc_fetch_stats* fetch; gc_fetch_stats* draw_fetch;
} gc_mesh_vertex_costs;
gc_status gc_mesh_vertex_costs_of(const char* path, const gc_load_options* options, int overdraw,
                                  const gc_fetch_spec* fetch, const gc_model* models, size_t model_count,
                                  gc_mesh_vertex_costs* out, gc_error* err);
void gc_mesh_vertex_costs_free(gc_mesh_vertex_costs* costs);
"""
CHECKED_STRUCTS = CHECKED_STRUCTS + ("gc_overdraw_stats", "gc_fetch_level", "gc_fetch_spec", "gc_fetch_stream",
                                     "gc_fetch_stats", "gc_mesh_vertex_costs")

ffi.cdef(CDEF)
ffi.cdef(MESHLET_CDEF)
ffi.cdef(VERTEX_COSTS_CDEF)
ffi.cdef(PICTURES_CDEF)
# libc's free, for the buffers the library allocates with malloc and hands over.
ffi.cdef("void free(void* p);")


def _library_path() -> str:
    explicit = os.environ.get("GPUCACHE_LIBRARY")
    if explicit:
        return explicit
    beside = Path(__file__).with_name(LIBRARY_NAME)
    if beside.exists():
        return str(beside)
    raise ImportError(
        f"gpucache: {LIBRARY_NAME} not found beside {Path(__file__).parent} and GPUCACHE_LIBRARY is not set; "
        "install the package with '/usr/bin/python3 -m pip install ./python' or point GPUCACHE_LIBRARY "
        "at build/python/libgpucache_python.so"
    )


lib = ffi.dlopen(_library_path())
libc = ffi.dlopen(None)
