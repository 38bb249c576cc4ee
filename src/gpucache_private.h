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

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_PRIVATE_H */
