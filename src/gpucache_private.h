// SPDX-License-Identifier: MIT
/* gpucache_private.h: the private interface of the gpucache tool (tools/) and of the
 * libraries' own sources: number parsing, standard input names, the output checks and
 * atomic files, and the helpers only the command line needs. Not installed, not part of
 * any library's ABI: these functions are hidden in the shared libraries (no GC_API) and
 * reached by static linking (the tool links libgpucache.a, libgpucache_io.a and
 * libgpucache_probe.a), as zstd's programs/ reach zstd's internals. */
#ifndef GPUCACHE_PRIVATE_H
#define GPUCACHE_PRIVATE_H

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_io.h"
#include "gpucache/gpucache_memsys.h"
#include "gpucache/gpucache_pictures.h"
#include "gpucache/gpucache_probe.h"
#include "gpucache/gpucache_validate.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- number parsing */

/* Every number gpucache reads from a file or an argument goes through these, so that
 * none can wrap around silently (a 20-digit position read as 3, a size with a suffix
 * multiplied past 2^64): digits are accumulated with an overflow check, a suffix is
 * applied with one, and the result is checked against [lo, hi]. They parse exactly
 * text[0 .. length): no leading or trailing blanks, no sign unless stated. */
typedef enum gc_parse_result {
    GC_PARSE_OK = 0,
    GC_PARSE_SYNTAX,      /* not a number of the kind asked for (empty, stray characters) */
    GC_PARSE_NOT_INTEGER, /* a number, but not a whole one where a whole one is required ("2.5") */
    GC_PARSE_RANGE        /* a number outside [lo, hi], overflow included */
} gc_parse_result;

#define GC_PARSE_HEX 1u    /* also "0x..." (hexadecimal); otherwise decimal only, a leading 0 included */
#define GC_PARSE_SUFFIX 2u /* an optional K, M or G (x1024, x1024^2, x1024^3), either case */

/* Parses text[0 .. length) as an unsigned integer in [lo, hi] into *out (written only on
 * GC_PARSE_OK); `flags`: GC_PARSE_HEX, GC_PARSE_SUFFIX. `text` need not be NUL-terminated
 * and is not kept. O(length), no allocation; thread-safe. */
gc_parse_result gc_parse_u64(const char* text, size_t length, unsigned flags, uint64_t lo, uint64_t hi,
                             uint64_t* out);
/* A signed integer in [lo, hi] (lo <= hi): an optional '-' then decimal digits as
 * gc_parse_u64; *out written only on GC_PARSE_OK. O(length), no allocation. */
gc_parse_result gc_parse_i64(const char* text, size_t length, int64_t lo, int64_t hi, int64_t* out);
/* A finite decimal number in [lo, hi]: [-]digits[.digits][e[+-]digits] (no "inf", "nan",
 * hexadecimal or blanks); *out written only on GC_PARSE_OK. O(length), no allocation
 * (strtod on a bounded copy: the C locale's '.' is assumed). */
gc_parse_result gc_parse_double(const char* text, size_t length, double lo, double hi, double* out);
/* What went wrong, to follow the number in a message: "is not a number", "is not a whole
 * number", "is out of range" ("is a number" for GC_PARSE_OK). A static string, never NULL; O(1). */
const char* gc_parse_result_text(gc_parse_result r);

/* The command line's values (src/io/args.c), each 0 on success and -1 otherwise (the
 * caller names the option); nothing wraps around, nothing out of range is clamped.
 * gc_arg_count: a decimal count in [lo, hi] (a leading '-' allowed when lo < 0);
 * gc_arg_u64: an unsigned number in [lo, hi] (flags: GC_PARSE_HEX, GC_PARSE_SUFFIX);
 * gc_arg_grid_size: "WxH", each side in [1, max_side] and W x H at most max_quads;
 * gc_arg_range: "A..B" with lo <= A <= B <= hi, or "A" (then B = A). */
int gc_arg_count(const char* text, long lo, long hi, long* out);
int gc_arg_u64(const char* text, unsigned flags, uint64_t lo, uint64_t hi, uint64_t* out);
int gc_arg_grid_size(const char* text, uint32_t max_side, uint64_t max_quads, uint32_t* w, uint32_t* h);
int gc_arg_range(const char* text, uint64_t lo, uint64_t hi, uint64_t* a, uint64_t* b);
/* A -m argument as a model: "@FILE" is the best model of a fit result (`gpucache fit
 * --json`, gc_model_load_fitted), anything else a model spec or a preset (gc_model_parse). */
gc_status gc_model_arg(const char* arg, gc_model* out, gc_error* err);
/* The FILE of an "@FILE" model argument, else NULL. */
const char* gc_model_arg_file(const char* arg);
/* Seconds from a monotonic clock. */
double gc_now_seconds(void);
/* The machine's online cores, in [1, 64]. */
long gc_default_threads(void);


/* Whether `path` names standard input for gc_mesh_load: "" for "-" (format from the
 * content), the format ("txt", "obj", "ply", "u16", "u32") for "FORMAT:-" ("idx:-" is
 * "txt"), NULL for a file name. A static string; no allocation. */
const char* gc_stdin_format(const char* path);

/* Checks, before any work, that gc_mesh_write_remap can give a vertex map for `in_path`:
 * vertices renumbered and an index-buffer input; GC_ERR_USAGE with one line otherwise. */
gc_status gc_mesh_remap_check(const char* in_path, int reorder_vertices, gc_error* err);

/* gc_gltf_reorder_vertices, each component's first primitive numbered for the fetch model
 * `fetch` (gc_reorder_vertices_fetch on its own first-use numbers; NULL: first use). */
gc_status gc_gltf_reorder_vertices_for(gc_gltf* doc, const gc_fetch_spec* fetch, gc_error* err);

/* Checks gc_mesh_write's arguments before any work: an output that is a file (not "-" nor
 * "FORMAT:-": GC_ERR_USAGE), the output keeps the input's format,
 * and every file the output consists of (a .gltf's .bin too) passes gc_output_check
 * against every file the input consists of (a glTF's external buffers and images too).
 * gc_mesh_write runs it again itself. */
gc_status gc_mesh_write_check(const char* in_path, const char* out_path, gc_error* err);

/* ------------------------------------------------------------ output files */

/* Checks, before any work, that `path` can be written as an output: its folder exists
 * and can be written in, the path is not a folder nor anything but a regular file, and it
 * is not one of the `input_count` files `inputs` (compared by device and inode, so a
 * hard link or a symlink to an input is refused too; inputs that do not exist are
 * skipped). GC_ERR_USAGE when it names an input, GC_ERR_IO otherwise. */
gc_status gc_output_check(const char* path, const char* const* inputs, size_t input_count, gc_error* err);
/* gc_output_check against every file the inputs consist of: each input expanded to itself
 * and, for a .gltf or .glb (the only names gpucache reads glTF under), every file its
 * URIs name (buffers and images, as written and percent-decoded). NULL inputs are skipped.
 * Memory: the names, and one glTF's JSON at a time. */
gc_status gc_output_check_all(const char* path, const char* const* inputs, size_t input_count,
                                     gc_error* err);

/* An output file written whole or not at all. gc_atomic_open creates a temporary beside
 * `path` with mkstemp (never following a name planted there); write to `file`;
 * gc_atomic_commit checks every write, flushes, syncs, gives the file its final mode
 * (the replaced file's, else 0666 minus the umask) and renames it over `path`;
 * gc_atomic_abort removes it. Both release the struct. The library installs no signal
 * handlers: a program that wants no temporary left behind when it is interrupted blocks
 * its termination signals between open and commit (the gpucache tool does). */
typedef struct gc_atomic_file {
    void* file; /* FILE*, open for writing */
    char* path; /* the final name */
    char* temp; /* the temporary's name */
} gc_atomic_file;
/* Creates the temporary for `path` (NUL-terminated; copied) into *af, which then owns a
 * FILE* and two strings until gc_atomic_commit or gc_atomic_abort; on failure *af holds
 * nothing and errno is kept. O(1) plus the system calls. */
gc_status gc_atomic_open(gc_atomic_file* af, const char* path, gc_error* err);
/* Completes the file: GC_ERR_IO naming `path` when any write, the flush, the sync or the
 * rename failed (the temporary is then removed). Releases *af either way; an fsync's cost. */
gc_status gc_atomic_commit(gc_atomic_file* af, gc_error* err);
/* Drops the temporary and releases *af; safe on a zeroed or released one. */
void gc_atomic_abort(gc_atomic_file* af);

/* Parses whitespace-separated indices ("#" comments) from text[0 .. length) (not kept, no
 * NUL needed) into *out as gc_mesh_load does for a text file (ownership likewise: free
 * with gc_mesh_free); `what` names the source in messages. O(length) time, ~4 bytes of
 * memory per index, at most GC_MAX_INDICES (GC_ERR_LIMIT). */
gc_status gc_mesh_parse_text(const char* text, size_t length, const char* what, gc_mesh* out, gc_error* err);

/* Whether gc_mesh_write writes `in_path`'s format through assimp's exporter, which
 * re-encodes the whole file (vertices merged, index types widened, what assimp does not
 * model dropped): a caller should warn its user. .txt/.idx/.u16/.u32/.obj/.ply/.gltf/.glb
 * are written by gpucache itself and keep what they do not reorder. */
int gc_mesh_write_reencodes(const char* in_path);

/* Writes a self-contained document (a .glb whose buffers are its BIN chunk or data: URIs,
 * a .gltf whose buffers are data: URIs, no image files) to the open stream `file` (a
 * FILE*; `name` for messages): the bytes gc_gltf_write would give its document. A document
 * naming any file (buffer or image): GC_ERR_USAGE, nothing written. */
gc_status gc_gltf_write_stream(gc_gltf* doc, void* file, const char* name, gc_error* err);

/* The machine parameter `key` (NUL-terminated) of a scenario into *value (its default
 * unless the scenario set it; the default itself when `scenario` is NULL); returns
 * non-zero when found, 0 for an unknown key (*value untouched). O(number of parameters). */
int gc_memsys_machine_value(const gc_memsys* scenario, const char* key, double* value);

/* ---------------------------------------------------- the tool's reports and files
 *
 * What the gpucache tool prints and how it writes its pictures: library code (the tool
 * stays argument parsing, a call and printing) that only the tool needs, so no promise to
 * the library's users (issue 29's honest header). */

/* optimize's overdraw and vertex fetch, before and after. */
typedef struct gc_optimize_costs {
    int has_overdraw;         /* the input has positions (OBJ, PLY) */
    gc_overdraw_stats overdraw_before, overdraw_after;
    const char* fetch_spec;   /* the fetch's spec as given (meshopt:BYTES), NULL: not counted */
    gc_fetch_stats fetch_before, fetch_after;
} gc_optimize_costs;

/* What `gpucache optimize` reports: every preset and target before and after. */
typedef struct gc_optimize_report {
    const char* input;
    const char* output;
    gc_optimizer algorithm;
    size_t triangles, runs;
    double seconds;
    int reorder;
    const char* note;        /* a line after the headline, or NULL */
    const gc_model* presets; /* the presets, then the targets */
    const gc_stats* before;
    const gc_stats* after;
    size_t preset_count, target_count;
    const gc_optimize_costs* costs; /* overdraw and fetch before and after, or NULL */
} gc_optimize_report;

/* A picture written as PNG: the SVG goes to a mkstemp temporary in a private folder
 * (mkdtemp, mode 0700) made beside `path`, and gc_png_commit renders it with Debian's
 * rsvg-convert (package librsvg2-bin; fork and exec with an argument vector, no shell),
 * then renames the PNG into place with the mode a new file gets (or the mode of the file
 * it replaces). Nothing is left behind and the output is whole or untouched. The caller
 * installs any signal handling (the tool holds SIGINT, SIGTERM and SIGHUP from open to
 * commit or abort). Messages name `path`. */
typedef struct gc_png_file {
    FILE* f;          /* the SVG is written here */
    int svg_fd;       /* the SVG temporary */
    char dir[4200];   /* the private folder beside the output */
    char svg[4300];   /* the SVG temporary in dir */
    const char* path; /* the output */
} gc_png_file;

/* The report formats of gc_validate_print. */
enum { GC_VALIDATE_TEXT = 0, GC_VALIDATE_JSON = 1, GC_VALIDATE_MARKDOWN = 2 };

/* (were in gpucache_text.h) */
/* `gpucache models`: every family (gc_family_get: its syntax and summary) and every preset
 * (name, spec, source), as text or, with `json`, its JSON. */
gc_status gc_models_print(FILE* f, int json, gc_error* err);

/* memsys's report of one replay of the scenario file `path` under `strategy`: the table
 * (per dispatch, between them, the total, then the hazards) or, with `json`, its JSON. */
gc_status gc_memsys_report_print(FILE* f, const char* path, const gc_memsys_report* report,
                                        gc_memsys_strategy strategy, int json, gc_error* err);

/* memsys --compare's ranking of gc_memsys_compare's reports, as a table or JSON. */
gc_status gc_memsys_ranking_print(FILE* f, const char* path,
                                         const gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT],
                                         const int order[GC_MEMSYS_STRATEGY_COUNT], int json, gc_error* err);

/* (from gpucache_io.h) */
/* The overdraw (where the mesh file `path`, read with `lo`, has positions) and the fetch
 * under `spec` (every index reference; `spec_text` names it) of the input's triangle list
 * and of the output's as it will be written: its vertices renumbered in order of first
 * use when `reorder`. Nothing is set where it cannot be counted (an index buffer has no
 * positions; sparse values have no real vertex buffer). */
gc_status gc_optimize_costs_of(const char* path, const gc_load_options* lo, const gc_mesh_optimized* r,
                                      int reorder, const char* spec_text, const gc_fetch_spec* spec,
                                      gc_optimize_costs* out, gc_error* err);

/* The report as a table or, with `json`, optimize --json's document. */
gc_status gc_optimize_report_print(FILE* f, const gc_optimize_report* r, int json, gc_error* err);

/* Opens the SVG stream (p->f). GC_ERR_IO when the folder or the temporary cannot be made. */
gc_status gc_png_open(gc_png_file* p, const char* path, gc_error* err);

/* Renders and renames; GC_ERR_IO (a missing rsvg-convert names the package) or a failed
 * write. The temporaries and the folder are gone either way. Cost: the renderer's, about
 * a second for a few MB of SVG. */
gc_status gc_png_commit(gc_png_file* p, gc_error* err);

/* Drops the picture: its temporaries and folder are removed, the output is untouched. */
void gc_png_abort(gc_png_file* p);

/* Writes s as a gnuplot double-quoted string literal, quotes included, that gnuplot reads
 * back byte for byte: letters, digits, space and ",.-_/+:()" as they are, every other
 * byte as a three-digit octal escape. Cost: O(strlen(s)). */
void gc_gnuplot_string(FILE* f, const char* s);

/* The lines that send the drawing to the image: `set output ARG1` when the script is
 * called with an argument (as gc_gnuplot_draw does), else `set output "<image_path>"`,
 * so that the script alone redraws the figure where it was drawn. */
void gc_gnuplot_set_output(FILE* f, const char* image_path);

/* Runs `gnuplot -c script_path TEMP` where TEMP is a file in a private folder (mkdtemp,
 * mode 0700) made beside image_path, then renames the image into place (keeping the mode
 * of a file it replaces) and removes the folder. GC_ERR_IO on failure (a missing gnuplot
 * names the package), nothing left behind. The caller installs any signal handling. */
gc_status gc_gnuplot_draw(const char* script_path, const char* image_path, gc_error* err);
/* Whether the executable `name` is in a folder of PATH, as execvp would find it; its path
 * in found[size] when found is not NULL (src/pictures/gnuplot.c). */
int gc_find_program(const char* name, char* found, size_t size);




/* (from gpucache_probe.h) */
/* Writes the gnuplot script of the sweep's figure to f (data inline: the script alone
 * redraws it with gnuplot; gc_gnuplot_draw draws it): one panel per mesh and model
 * (`labels[k]` names model k), ATVR against the target cache size from `rows` (as
 * gc_sweep_run wrote them), a curve per layout, and seed 002's published points of the
 * 100x100 grid beside models that stand for their vendor. `plot_path` is the image (its
 * .svg or .png picks the terminal). Nothing for more than GC_SWEEP_PLOT_MAX meshes or
 * models. Write errors are the caller's to check. */
void gc_sweep_plot_script(FILE* f, const gc_sweep* sweep, const char* const* labels, const gc_sweep_row* rows,
                                 const char* plot_path);

/* `gpucache fit`'s report: the `found` best candidates of gc_fit for the measurement file
 * `path` (`in`; `searched` candidates on `threads` threads in `seconds`), each with the
 * cases it gets wrong (gc_fit_evaluate), as a table or, with `json`, its JSON. */
gc_status gc_fit_report_print(FILE* f, const char* path, const gc_measurements* in,
                                     const gc_fit_candidate* best, size_t found, size_t searched, unsigned threads,
                                     double seconds, int json, gc_error* err);

/* `gpucache introspect`'s report of it (input and device named), as lines or JSON. */
gc_status gc_introspection_print(FILE* f, const char* input, const char* device, const gc_draw* draw,
                                        uint64_t primitives, const gc_introspection* r, int json, gc_error* err);

/* What gc_report_sweep_figure needs besides the mesh: the model, its spec for the label,
 * the sweep's threads and progress, where its warnings go (a missing or failing gnuplot:
 * the page then says there is no figure), and an optional `hold` called with 1 before the
 * private temporary folder is made and with 0 once it is gone (the tool holds its
 * termination signals meanwhile). */
typedef struct gc_report_sweep {
    const char* model_spec;
    const gc_model* model;
    unsigned threads;
    gc_progress_fn progress;
    void* progress_user;
    gc_note_fn note;
    void* note_user;
    void (*hold)(int on);
} gc_report_sweep;

/* A gc_report_figure_fn (gpucache_pictures.h; user: a gc_report_sweep): the sweep of the
 * layouts original, tipsify, forsyth and auto over cache_lo..cache_hi for the model, drawn
 * by gnuplot and inlined as SVG, or a note saying why there is none. Fails only when the
 * sweep itself fails. */
gc_status gc_report_sweep_figure(void* user, FILE* f, const char* name, const uint32_t* triangles,
                                        size_t index_count, uint32_t vertex_count, uint32_t cache_lo,
                                        uint32_t cache_hi, gc_error* err);

/* `gpucache sweep --csv`'s file: one line per valid row (mesh, layout, cache size, model
 * ("device" for one measured on the device), invocations, ATVR, ACMR, triangles, vertices),
 * names quoted as CSV needs. Write errors are the caller's to check. */
void gc_sweep_csv(FILE* f, const gc_sweep* sweep, const gc_sweep_row* rows);

/* `gpucache sweep`'s report: each layout's best cache size per mesh and model (labels[k]
 * names model k) or, with `json`, every valid row as JSON. */
gc_status gc_sweep_print(FILE* f, const gc_sweep* sweep, const char* const* labels, const gc_sweep_row* rows,
                                int json, gc_error* err);

/* `gpucache probe --list`'s report of `count` devices (gc_probe_list), as lines or, with
 * `json`, its JSON document (docs/json.md). */
gc_status gc_probe_devices_print(FILE* f, const gc_probe_device* devices, uint32_t count, int json,
                                        gc_error* err);

/* `gpucache probe --overdraw`: the mesh file's triangles and positions (loaded with `lo`)
 * drawn by the overdraw model and rendered on device `device` (gc_probe_overdraw), the
 * shaded counts side by side on f, as lines or, with `json`, a JSON document
 * (src/probe/overdraw_report.c). */
gc_status gc_probe_overdraw_print(FILE* f, const char* path, const gc_load_options* lo, uint32_t device, int json,
                                  gc_error* err);

/* `gpucache probe`'s report of one measurement `m` of `draw` (of the input named `input`,
 * `primitives` assembled by its topology, `outputs` shader outputs) on backend `b`, as
 * lines or JSON. */
gc_status gc_measurement_print(FILE* f, const gc_backend* b, const char* input, const gc_draw* draw,
                                      uint64_t primitives, uint32_t outputs, const gc_measurement* m, int json,
                                      gc_error* err);

/* The per-vertex CSV of a measurement: "index,invocations", one line per vertex. */
void gc_measurement_csv(FILE* f, const gc_measurement* m);

/* (from gpucache_validate.h) */
/* `gpucache validate`'s report, written to f: for each of `models` (count of them), every
 * value of `set` (read from the folder `data`) predicted against published with the error.
 * `vendor`: the values shown, "amd", "nvidia", "intel" or "all"; NULL: those of the
 * vendor each model stands for (gc_published_vendor_of), else all. `tolerance_pct`: the
 * ATVR match tolerance in percent. `format`: GC_VALIDATE_TEXT (a table per model),
 * GC_VALIDATE_JSON (docs/json.md, built whole, then written) or GC_VALIDATE_MARKDOWN
 * (docs/models/validation.md's tables). Cost: one gc_validate per model. */
gc_status gc_validate_print(FILE* f, const gc_published_set* set, const char* data, const gc_model* models,
                                   size_t count, const char* vendor, long tolerance_pct, int format, gc_error* err);

/* "amd-gcn (meshopt:14,64,128)" for a preset, its name otherwise, in out[size]. */
void gc_model_label(const gc_model* model, char* out, size_t size);



/* The model rows of analyze and demo (src/pipeline/analyze_report.c; the table and string
 * types are src/table.h's and src/strbuf.h's). The table's columns: [layout,] model,
 * invocations, ACMR, ATVR, batches, with `seconds` (when >= 0) after the row. */
struct gc_table;
struct gc_strbuf;
void gc_model_table_init(struct gc_table* t, int with_layout);
void gc_model_table_add(struct gc_table* t, const char* layout, const gc_model* m, const gc_stats* s,
                        double seconds);
/* One model's analyze --json object: seconds < 0 is null; fetch (under fetch_spec) and
 * trace (the inside of a JSON array) only when not NULL. */
void gc_model_json(struct gc_strbuf* j, const gc_model* m, const gc_stats* s, double seconds,
                   const char* fetch_spec, const gc_fetch_stats* fetch, const char* trace);
/* analyze --trace: a gc_trace_fn whose user is a gc_trace_sink, collecting "N: [a, b, c]"
 * lines, or with json the inside of a JSON array of arrays (first: set to 1 to start). */
typedef struct gc_trace_sink {
    struct gc_strbuf* out;
    int json;
    int first;
} gc_trace_sink;
void gc_trace_collect(void* user, uint64_t primitive, const int64_t* entries, size_t count);
/* analyze --repeat: the median seconds of `repeat` plain passes of gc_analyze (base's state
 * changes; no per-vertex counts, no trace). */
gc_status gc_analyze_median_seconds(const gc_model* m, const gc_draw* d, const gc_analyze_options* base,
                                    long repeat, double* seconds, gc_error* err);

/* `gpucache grid`'s file on f: the W x H grid in `layout` (gc_grid_generate with `cache`)
 * as `format`: "txt" (a triangle a line), "u16" or "u32" (raw little-endian), "obj" or
 * "ply" (ASCII, the grid's positions and a comment naming the layout `layout_name`).
 * Sets *triangles. Write errors are the caller's to check (src/io/grid_file.c). */
gc_status gc_grid_file_write(FILE* f, const char* format, uint32_t w, uint32_t h, gc_grid_layout layout,
                             const char* layout_name, uint32_t cache, size_t* triangles, gc_error* err);

/* `gpucache demo`'s report on f: a 100x100 quad grid in four orders (row-major, striped,
 * optimal, shuffled) under every preset, as a table or, with `json`, its JSON document
 * (src/pipeline/demo_report.c). */
gc_status gc_demo_print(FILE* f, int json, gc_error* err);

/* (analyze's and meshlets' reports) */
/* What `gpucache analyze` reports for one mesh file (gc_analyze_report_print). */
typedef struct gc_analyze_report {
    const char* input;                  /* the name printed */
    const gc_mesh_analysis* analysis;   /* gc_mesh_analyze's or gc_mesh_analyze_with's */
    int per_draw;                       /* a glTF: a row (JSON object) per draw and the sums;
                                           else the first draw alone */
    const gc_model* models;             /* the analysis's models, in its order */
    size_t model_count;
    const double* seconds;              /* per model, median seconds (< 0: not measured), or NULL */
    const char* const* traces;          /* per model, the trace (gc_trace_fn lines as "N: [a, b]"
                                           lines, or with json the inside of an array of arrays),
                                           or NULL: no trace */
    const gc_mesh_vertex_costs* costs;  /* overdraw and fetch (gc_mesh_vertex_costs_of), or NULL */
    const char* fetch_text;             /* the fetch spec as given, with ... */
    const gc_fetch_spec* fetch;         /* ... its parsed form (NULL without fetch) */
} gc_analyze_report;

/* analyze's report on `f`: a table (the draws of a glTF, the models' counts, the overdraw
 * and fetch lines, the presets' meshlet rows and the traces) or, with `json`, analyze
 * --json's document. GC_ERR_NOMEM when memory runs out (nothing of the JSON written). */
gc_status gc_analyze_report_print(FILE* f, const gc_analyze_report* r, int json, gc_error* err);

/* `gpucache meshlets`' report of `m` (runs of them, cut from `in` into `out`, or NULL for
 * a data file read back) on `f`: a table of the figures (meshlets, meshlet vertices,
 * triangles, means, vertices per triangle, fill) or, with `json`, one JSON document. */
gc_status gc_meshlets_report_print(FILE* f, const char* in, const char* out, const gc_meshlets* m,
                                          size_t runs, double seconds, int json, gc_error* err);

/* `meshlets --check FILE` and `analyze --meshlets FILE INPUT`: the meshlet data file read
 * back (gc_meshlet_data_load) and, with mesh_path, checked to draw exactly that mesh's
 * triangles (loaded with `lo`; gc_meshlets_cover), then its report as above. */
gc_status gc_meshlet_file_print(FILE* f, const char* data_path, const char* mesh_path, const gc_load_options* lo,
                                int json, gc_error* err);

/* analyze's meshlet rows: the costs of `draw` (its triangles as the rasterizer assembles
 * them; a point or line topology: an empty string) under every preset, written to a new string
 * *text (free()): with `json`, the member ', "meshlets": [{"preset", "max_vertices",
 * "max_triangles", "meshlets", "meshlet_vertices", "triangles", "vertices_per_triangle",
 * "vertex_fill", "triangle_fill"}, ...]'; else one line per preset after a heading line. */
gc_status gc_draw_meshlet_report(const gc_draw* draw, int json, char** text, gc_error* err);


#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_PRIVATE_H */
