// SPDX-License-Identifier: MIT
/* gpucache_memsys.h: the console memory-system simulator of seed 003 (docs/memsys.md).
 * It shares no concept with the vertex caches; it is part of libgpucache (the core: it
 * needs only the C library) under a header of its own. */
#ifndef GPUCACHE_PUBLIC_MEMSYS_H
#define GPUCACHE_PUBLIC_MEMSYS_H

#include "gpucache/gpucache.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- memory system */

/* Seed 003's console GPU memory system: memory types, per-dispatch L1/L2 bypass bits, the
 * scalar K-cache, L2 invalidates and writebacks priced in cycles, dirty-state tracking,
 * and the hazards a flush strategy leaves. A scenario (docs/memsys.md) declares buffers
 * and runs dispatches and cache events; the simulator replays it. */

typedef enum gc_memtype { GC_MEM_RO = 0, GC_MEM_PV, GC_MEM_GC, GC_MEM_SC, GC_MEM_UC, GC_MEM_TYPE_COUNT } gc_memtype;

/* The flush strategies gc_memsys_run can replay a scenario under (seed 003). */
typedef enum gc_memsys_strategy {
    GC_MEMSYS_AS_WRITTEN = 0, /* the scenario's own bits and events (explicit SC invalidate/writeback) */
    GC_MEMSYS_L1_BYPASS,      /* every dispatch with the L1 bypass bit: GC and SC skip L1 */
    GC_MEMSYS_L2_BYPASS,      /* every dispatch with the L2 bypass bit: SC skips L2 over Onion+ */
    GC_MEMSYS_SC_AS_UC,       /* every SC buffer remapped to UC: no cache, Onion+ */
    GC_MEMSYS_STRATEGY_COUNT
} gc_memsys_strategy;

/* The strategy's name as the tool writes it ("as written (explicit SC invalidate/
 * writeback)", ...): a static string, "?" for a value outside the enum. O(1). */
GC_API const char* gc_memsys_strategy_name(gc_memsys_strategy s);
/* The memory type's name ("RO", "PV", "GC", "SC", "UC"): a static string, "?" outside
 * the enum. O(1). */
GC_API const char* gc_memtype_name(gc_memtype t);

/* Counters of one cache: [memory type][0 read, 1 write]. */
typedef struct gc_memsys_cache_stats {
    uint64_t accesses[GC_MEM_TYPE_COUNT][2];
    uint64_t hits[GC_MEM_TYPE_COUNT][2];
    uint64_t misses[GC_MEM_TYPE_COUNT][2];
} gc_memsys_cache_stats;

/* What one dispatch (or the whole scenario) cost. */
typedef struct gc_memsys_stats {
    gc_memsys_cache_stats l1, l2, kcache;
    uint64_t garlic_bytes, onion_bytes, onion_plus_bytes;
    uint64_t l1_invalidates, l1_invalidate_lines;
    uint64_t l2_invalidates, l2_invalidates_skipped, l2_invalidate_lines;
    uint64_t l2_writebacks, l2_writebacks_skipped, l2_writeback_lines, l2_writeback_dirty_bytes;
    uint64_t kcache_invalidates, kcache_invalidate_lines;
    uint64_t crosstalk_events, crosstalk_lines; /* another dispatch's SC lines touched by an event */
    double bus_cycles;   /* bytes over each bus at its rate */
    double event_cycles; /* invalidates and writebacks */
    double cycles;       /* the two together */
    /* event_cycles split (they add up to it): the L1, L2 and K-cache invalidates, and the
     * L2 writebacks with the bus time of the bytes they drain */
    double invalidate_cycles, writeback_cycles;
} gc_memsys_stats;

typedef enum gc_memsys_hazard_kind {
    GC_HAZARD_CPU_READS_DIRTY = 0, /* a CPU read of SC data still dirty in L2 */
    GC_HAZARD_GPU_READS_STALE,     /* a GPU read of CPU-written SC data with no invalidate */
    GC_HAZARD_GC_NO_L1_INVALIDATE, /* a GC consumer reading stale L1 lines (no L1 invalidate) */
    GC_HAZARD_CP_CANNOT_SEE,       /* cp_wait on a semaphore the command processor cannot see */
    GC_HAZARD_KIND_COUNT
} gc_memsys_hazard_kind;

typedef struct gc_memsys_hazard {
    gc_memsys_hazard_kind kind;
    uint64_t line;        /* scenario line of the operation that found it */
    char message[200];
} gc_memsys_hazard;

typedef struct gc_memsys_report {
    size_t dispatch_count;
    char (*dispatch_names)[64];
    gc_memsys_stats* dispatches; /* per dispatch, in scenario order (events inside count there) */
    gc_memsys_stats between;     /* events outside dispatches */
    gc_memsys_stats total;
    gc_memsys_hazard* hazards;
    size_t hazard_count;
} gc_memsys_report;

typedef struct gc_memsys gc_memsys;

/* Parses a scenario (docs/memsys.md) from text[0 .. length) (not kept, no NUL needed)
 * into *out, which the caller frees with gc_memsys_free (NULL on failure); `what` names
 * it in messages ("file:line: ..."). GC_ERR_DATA with the line for malformed text,
 * GC_ERR_LIMIT past 1048576 operations, 65536 buffers or 4194304 cache lines. O(length)
 * time, memory in proportion to the operations and buffers (not to their sizes). */
GC_API gc_status gc_memsys_parse(const char* text, size_t length, const char* what, gc_memsys** out, gc_error* err);
/* Reads a scenario file (`path`, or "-" for standard input; at most 64 MiB: GC_ERR_LIMIT)
 * and parses it as gc_memsys_parse does. GC_ERR_IO when it cannot be read. */
GC_API gc_status gc_memsys_load(const char* path, gc_memsys** out, gc_error* err);
/* Frees a parsed scenario (NULL is fine). */
GC_API void gc_memsys_free(gc_memsys* scenario);
/* The work of one replay, in simulated line accesses: each line an access touches
 * (counted ceil(ways / 32) times on a machine whose L1, L2 and K-cache have more than 32
 * ways together, since each access looks through them), plus each cache line that setting
 * up the caches, an invalidate, a writeback or a CPU or command-processor check goes over
 * (at least one per operation). A replay takes about this many steps, whatever the size
 * of the scenario's text: three lines can ask for 2^30 random reads. Computed from the
 * parsed scenario, before any replay; saturates at UINT64_MAX. */
GC_API uint64_t gc_memsys_work(const gc_memsys* scenario);
/* The default bound on gc_memsys_work (2^27: about 5 to 30 seconds of replay). */
#define GC_MEMSYS_DEFAULT_MAX_WORK ((uint64_t)1 << 27)
/* Replays the scenario (only read: replays of one scenario may run on several threads)
 * under a strategy into *out, refusing (GC_ERR_LIMIT, before any work) a scenario whose
 * gc_memsys_work is above GC_MEMSYS_DEFAULT_MAX_WORK. Time about gc_memsys_work steps;
 * memory the caches' line tables. The caller owns the report: gc_memsys_report_free
 * (on failure nothing is left to free). */
GC_API gc_status gc_memsys_run(const gc_memsys* scenario, gc_memsys_strategy strategy, gc_memsys_report* out,
                        gc_error* err);
/* As gc_memsys_run with another bound on the work (UINT64_MAX: none); `progress`, when
 * not NULL, is called now and then with the work done and the total. */
GC_API gc_status gc_memsys_run_limited(const gc_memsys* scenario, gc_memsys_strategy strategy, uint64_t max_work,
                                gc_progress_fn progress, void* progress_user, gc_memsys_report* out, gc_error* err);
/* Frees the arrays of a report and zeroes it; safe on a zeroed one (not on NULL). */
GC_API void gc_memsys_report_free(gc_memsys_report* report);
/* Line accesses the scenario's reads, writes and signals make (gc_memsys_work also counts
 * what the cache events go over); saturates at UINT64_MAX. O(operations). */
GC_API uint64_t gc_memsys_accesses(const gc_memsys* scenario);

/* ------------------------------------------------------------------ strategies */

/* A flush strategy's short id ("as-written", "l1-bypass", "l2-bypass", "sc-as-uc"), as
 * memsys --strategy takes it and its JSON writes it; NULL for another value. O(1). */
GC_API const char* gc_memsys_strategy_id(gc_memsys_strategy s);
/* The strategy whose id is `id`; GC_ERR_USAGE naming the four otherwise. O(1). */
GC_API gc_status gc_memsys_strategy_parse(const char* id, gc_memsys_strategy* out, gc_error* err);

/* Replays `scenario` under every strategy (GC_MEMSYS_STRATEGY_COUNT of them, into
 * reports[s] for strategy s) and ranks them into order[] (best first): by total cycles,
 * then Onion and Onion+ bytes, ties in strategy order. `progress`, when not NULL, sees one
 * count over the four replays. On failure no report is left to free; on success the
 * caller frees each with gc_memsys_report_free. Time: four gc_memsys_run. */
GC_API gc_status gc_memsys_compare(const gc_memsys* scenario, gc_progress_fn progress, void* progress_user,
                                   gc_memsys_report reports[GC_MEMSYS_STRATEGY_COUNT],
                                   int order[GC_MEMSYS_STRATEGY_COUNT], gc_error* err);

#ifdef __cplusplus
}
#endif

#endif /* GPUCACHE_PUBLIC_MEMSYS_H */
