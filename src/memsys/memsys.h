// SPDX-License-Identifier: MIT
/* The memory-system simulator's scenario, shared by its parser and its engine. */
#ifndef GPUCACHE_MEMSYS_H
#define GPUCACHE_MEMSYS_H

#include "../internal.h"

/* Machine parameters: key, default, and where the default comes from (docs/memsys.md). */
typedef enum ms_key {
    MK_CUS, MK_CLOCK_MHZ, MK_LINE, MK_L1_KB, MK_L1_WAYS, MK_L2_KB, MK_L2_WAYS, MK_KCACHE_KB, MK_KCACHE_WAYS,
    MK_KCACHE_CUS, MK_ONION, MK_ONION_PLUS, MK_GARLIC, MK_L2_INV_LOCATE, MK_L2_INV_SETTLE, MK_L2_WB_LOCATE,
    MK_L2_WB_LATENCY, MK_L1_INV_CYCLES, MK_KCACHE_INV_CYCLES, MK_WAVE_BYTES, MK_COUNT
} ms_key;

typedef struct ms_key_info {
    const char* name;
    double value;
    double lo, hi;
    int integer; /* a count or a size: a fraction is refused, not truncated */
    const char* source;
} ms_key_info;

extern const ms_key_info gc_ms_keys[MK_COUNT];

typedef struct ms_buffer {
    char name[64];
    uint64_t size;
    gc_memtype type;
    uint64_t base; /* byte address, line aligned */
} ms_buffer;

typedef struct ms_dispatch {
    char name[64];
    uint32_t cus;
    int l1_bypass, l2_bypass;
} ms_dispatch;

typedef enum ms_opcode {
    OP_BEGIN, OP_END, OP_READ, OP_WRITE, OP_SREAD, OP_SIGNAL, OP_L1_INV, OP_L2_INV, OP_L2_WB, OP_KCACHE_INV,
    OP_CP_WAIT, OP_CPU_READ, OP_CPU_WRITE
} ms_opcode;

typedef enum ms_pattern { PAT_SEQ, PAT_STRIDE, PAT_RANDOM } ms_pattern;

typedef struct ms_op {
    ms_opcode code;
    uint64_t line;     /* scenario line */
    int buffer;        /* index, or -1 */
    int dispatch;      /* OP_BEGIN/OP_END: the dispatch; others: the enclosing one or -1 */
    ms_pattern pattern;
    uint64_t stride, bytes, ws, seed;
    int all;           /* l2_inv/l2_wb: every type (else SC only); l1_inv: 1 = once per CU */
} ms_op;

struct gc_memsys {
    double machine[MK_COUNT];
    ms_buffer* buffers;
    size_t buffer_count;
    ms_dispatch* dispatches;
    size_t dispatch_count;
    ms_op* ops;
    size_t op_count;
};

/* The work (gc_memsys_work's unit) of setting up the machine's caches, and of one operation. */
uint64_t gc_ms_setup_work(const gc_memsys* m);
uint64_t gc_ms_op_work(const gc_memsys* m, const ms_op* op);
/* The work of one line access: 1, or more on caches of more than 32 ways together. */
uint64_t gc_ms_access_weight(const gc_memsys* m);

/* Lines of a cache of `kb` KiB with `ways` ways and `line`-byte lines, as the simulator
 * builds it (simulate.c's cache_init): ways are capped by the lines, sets are at least 1. */
static inline uint64_t ms_cache_lines(double kb, double ways, uint64_t line)
{
    uint64_t lines = (uint64_t)(kb * 1024) / line;
    uint64_t w = (uint64_t)ways;
    if (w > lines)
        w = lines ? lines : 1;
    uint64_t sets = lines / w;
    return (sets ? sets : 1) * w;
}

#endif
