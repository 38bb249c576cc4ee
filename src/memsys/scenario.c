// SPDX-License-Identifier: MIT
/* The scenario format of the memory-system simulator (docs/memsys.md): one statement per
 * line, '#' comments.
 *
 *   machine key=value...
 *   buffer NAME size=BYTES type=RO|PV|GC|SC|UC
 *   dispatch NAME cus=N [l1_bypass=0|1] [l2_bypass=0|1]
 *     read|write|sread NAME [pattern=seq|random] [stride=N] [bytes=N] [ws=N] [seed=S]
 *     signal NAME
 *     (and any event below)
 *   end
 *   l1_inv [scope=all|once_per_cu]   l2_inv [sc|all]   l2_wb [sc|all]   kcache_inv
 *   signal NAME   cp_wait NAME   cpu_read NAME   cpu_write NAME
 */
#include "memsys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ms_key_info gc_ms_keys[MK_COUNT] = {
    {"cus", 18, 1, 64, 1, "public: the console's GPU has 18 compute units"},
    {"clock_mhz", 800, 1, 10000, 0, "public: 800 MHz GPU clock"},
    {"line_bytes", 64, 16, 1024, 1, "seed 003: 12.5 bytes/cycle = 0.2 lines/cycle, 200 = 3.125 lines/cycle"},
    {"l1_kb", 16, 1, 1024, 1, "public: 16 KB vector L1 per CU (GCN)"},
    {"l1_ways", 4, 1, 64, 1, "assumed"},
    {"l2_kb", 512, 16, 65536, 1, "seed 003: worst-case writeback of 512 KB (the whole L2)"},
    {"l2_ways", 16, 1, 64, 1, "public: GCN's L2 is 16-way"},
    {"kcache_kb", 16, 1, 1024, 1, "seed 003: one 16 KB K-cache"},
    {"kcache_ways", 4, 1, 64, 1, "assumed"},
    {"kcache_cus", 3, 1, 64, 1, "seed 003: one K-cache for each three CUs"},
    {"onion_bytes_per_cycle", 12.5, 0.01, 1e6, 0, "seed 003: Onion 10 GB/s = 12.5 bytes/cycle"},
    {"onion_plus_bytes_per_cycle", 12.5, 0.01, 1e6, 0, "assumed: Onion+ shares Onion's bandwidth"},
    {"garlic_bytes_per_cycle", 200, 0.01, 1e6, 0, "seed 003: 160 GB/s of Garlic to the GPU = 200 bytes/cycle"},
    {"l2_inv_locate", 75, 0, 1e6, 0, "seed 003: about 75 cycles to locate and invalidate the lines"},
    {"l2_inv_settle", 250, 0, 1e6, 0, "assumed: in-flight transactions settling; with locate, 325 (seed: 300-350)"},
    {"l2_wb_locate", 75, 0, 1e6, 0, "assumed: as the invalidate's locate (seed: 'small overhead to locate lines')"},
    {"l2_wb_latency", 100, 0, 1e6, 0, "assumed: latency to system memory (seed: 4 KB over Onion ~ 500 cycles)"},
    {"l1_inv_cycles", 16, 0, 1e6, 0, "assumed: per CU invalidated"},
    {"kcache_inv_cycles", 1, 0, 1e6, 0, "seed 003: K-cache invalidation takes 1 cycle"},
    {"wave_bytes", 256, 64, 1 << 20, 1, "assumed: a 64-thread wavefront reading 4 bytes each; waves go to CUs in turn"},
};

/* a + b, stopping at UINT64_MAX: a sum of work must not wrap to something small. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

typedef struct parser {
    gc_memsys* m;
    const char* what;
    uint64_t line;
    size_t op_capacity, buffer_capacity, dispatch_capacity;
    int open_dispatch; /* -1 outside a dispatch block */
    gc_error* err;
    /* Buffer names hashed (open addressing, buffer index + 1, 0 = empty), so that a
     * scenario of many buffers and accesses parses in linear time, not quadratic. */
    uint32_t* names;
    size_t name_slots;
} parser;

/* Statements (operations) and buffers one scenario may hold: far beyond any hand-written
 * scenario, and a bound on the parser's memory (about 100 bytes per operation). */
#define MS_MAX_OPS ((size_t)1 << 20)
#define MS_MAX_BUFFERS ((size_t)1 << 16)
/* Lines in all the simulated caches together (128 MiB of simulator state). */
#define MS_MAX_CACHE_LINES ((uint64_t)1 << 22)

static gc_status bad(parser* p, const char* fmt, const char* arg)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, arg);
    return gc_fail(p->err, GC_ERR_DATA, "%s:%llu: %s", p->what, (unsigned long long)p->line, msg);
}

static bool grow(void** data, size_t* capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return true;
    size_t next = *capacity ? *capacity * 2 : 16;
    void* grown = realloc(*data, next * size);
    if (!grown)
        return false;
    *data = grown;
    *capacity = next;
    return true;
}

static uint64_t name_hash(const char* name)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char* c = (const unsigned char*)name; *c; ++c)
        h = (h ^ *c) * 1099511628211ull;
    return h;
}

static int find_buffer(const parser* p, const char* name)
{
    if (!p->name_slots)
        return -1;
    for (size_t i = name_hash(name) & (p->name_slots - 1);; i = (i + 1) & (p->name_slots - 1)) {
        uint32_t b = p->names[i];
        if (b == 0)
            return -1;
        if (!strcmp(p->m->buffers[b - 1].name, name))
            return (int)(b - 1);
    }
}

/* Adds buffer `index` (already in m->buffers) to the name table, growing it to keep it
 * at most half full. */
static bool index_buffer(parser* p, size_t index)
{
    if (2 * (index + 1) > p->name_slots) {
        size_t slots = p->name_slots ? p->name_slots * 2 : 64;
        uint32_t* table = gc_alloc_array(slots, sizeof *table, true);
        if (!table)
            return false;
        free(p->names);
        p->names = table;
        p->name_slots = slots;
        for (size_t b = 0; b < index; ++b) {
            size_t i = name_hash(p->m->buffers[b].name) & (slots - 1);
            while (table[i])
                i = (i + 1) & (slots - 1);
            table[i] = (uint32_t)(b + 1);
        }
    }
    size_t i = name_hash(p->m->buffers[index].name) & (p->name_slots - 1);
    while (p->names[i])
        i = (i + 1) & (p->name_slots - 1);
    p->names[i] = (uint32_t)(index + 1);
    return true;
}

/* Largest buffer, access and working set, in bytes (docs/memsys.md). */
#define MS_MAX_SIZE ((uint64_t)1 << 40)

/* A number from the scenario, through the library's one checked parser: when it is not a
 * number, not a whole one or out of range, the message names the file, the line and
 * `head` (which shows the value: "size=4X", "machine parameter 'cus'=2.5"). */
static gc_status number(parser* p, const char* head, const char* value, unsigned flags, uint64_t lo, uint64_t hi,
                        uint64_t* out)
{
    gc_parse_result r = value ? gc_parse_u64(value, strlen(value), flags, lo, hi, out) : GC_PARSE_SYNTAX;
    if (r == GC_PARSE_OK)
        return GC_OK;
    return gc_fail(p->err, GC_ERR_DATA, "%s:%llu: %s %s (%llu to %llu%s)", p->what, (unsigned long long)p->line, head,
                   value ? gc_parse_result_text(r) : "needs a value", (unsigned long long)lo, (unsigned long long)hi,
                   flags & GC_PARSE_SUFFIX ? "; K, M, G suffixes" : "");
}

/* "key=value" for a message, the value cut short. */
static const char* key_value(char* buf, size_t size, const char* key, const char* value)
{
    snprintf(buf, size, "%s=%.40s%s", key, value ? value : "", value && strlen(value) > 40 ? "..." : "");
    return buf;
}

static gc_status parse_type(parser* p, const char* text, gc_memtype* out)
{
    for (int t = 0; t < GC_MEM_TYPE_COUNT; ++t)
        if (!strcmp(text, gc_memtype_name((gc_memtype)t))) {
            *out = (gc_memtype)t;
            return GC_OK;
        }
    return bad(p, "unknown memory type '%s' (RO, PV, GC, SC, UC)", text);
}

static gc_status add_op(parser* p, ms_op op)
{
    gc_memsys* m = p->m;
    if (m->op_count >= MS_MAX_OPS)
        return gc_fail(p->err, GC_ERR_LIMIT, "%s:%llu: more than %zu operations", p->what, (unsigned long long)p->line,
                       MS_MAX_OPS);
    if (!grow((void**)&m->ops, &p->op_capacity, m->op_count, sizeof *m->ops))
        return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory for %zu operations", p->what, m->op_count + 1);
    op.line = p->line;
    if (op.code != OP_BEGIN && op.code != OP_END)
        op.dispatch = p->open_dispatch;
    m->ops[m->op_count++] = op;
    return GC_OK;
}

/* Splits "key=value"; value NULL for a bare word. */
static void split_kv(char* word, char** key, char** value)
{
    char* eq = strchr(word, '=');
    *key = word;
    *value = NULL;
    if (eq) {
        *eq = 0;
        *value = eq + 1;
    }
}

static gc_status need_buffer(parser* p, char** words, int n, int* buffer)
{
    if (n < 2)
        return bad(p, "'%s' needs a buffer name", words[0]);
    *buffer = find_buffer(p, words[1]);
    if (*buffer < 0)
        return bad(p, "unknown buffer '%s' (declare it with 'buffer' first)", words[1]);
    return GC_OK;
}

static gc_status statement(parser* p, char** words, int n)
{
    gc_memsys* m = p->m;
    const char* cmd = words[0];
    ms_op op;
    memset(&op, 0, sizeof op);
    op.buffer = -1;
    gc_status s;
    if (!strcmp(cmd, "machine")) {
        if (p->open_dispatch >= 0 || m->buffer_count || m->op_count)
            return bad(p, "'%s' must come before any buffer or dispatch", cmd);
        for (int i = 1; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            int k = -1;
            for (int j = 0; j < MK_COUNT; ++j)
                if (!strcmp(gc_ms_keys[j].name, key))
                    k = j;
            if (k < 0)
                return bad(p, "unknown machine parameter '%s' (see docs/memsys.md)", key);
            const ms_key_info* info = &gc_ms_keys[k];
            double v;
            char head[160];
            snprintf(head, sizeof head, "machine parameter '%s'=%.40s", key, value ? value : "");
            if (info->integer) {
                uint64_t u;
                if ((s = number(p, head, value, 0, (uint64_t)info->lo, (uint64_t)info->hi, &u)))
                    return s;
                v = (double)u;
            } else {
                gc_parse_result r =
                    value ? gc_parse_double(value, strlen(value), info->lo, info->hi, &v) : GC_PARSE_SYNTAX;
                if (r)
                    return gc_fail(p->err, GC_ERR_DATA, "%s:%llu: %s %s (%g to %g)", p->what,
                                   (unsigned long long)p->line, head, value ? gc_parse_result_text(r) : "needs a value",
                                   info->lo, info->hi);
            }
            m->machine[k] = v;
        }
        uint64_t line = (uint64_t)m->machine[MK_LINE];
        if (line & (line - 1))
            return bad(p, "line_bytes must be a power of two, not %s", "that");
        /* Bound the simulator's own state (32 bytes a line): the largest caches the keys
         * allow at 16-byte lines would ask for about 300 MiB. */
        uint64_t setup = gc_ms_setup_work(m);
        if (setup > MS_MAX_CACHE_LINES)
            return gc_fail(p->err, GC_ERR_LIMIT,
                           "%s:%llu: the machine's caches hold %llu lines in all, more than the simulator's %llu",
                           p->what, (unsigned long long)p->line, (unsigned long long)setup,
                           (unsigned long long)MS_MAX_CACHE_LINES);
        return GC_OK;
    }
    if (!strcmp(cmd, "buffer")) {
        if (p->open_dispatch >= 0)
            return bad(p, "'%s' inside a dispatch block", cmd);
        if (n < 2 || strchr(words[1], '='))
            return bad(p, "'%s' needs a name", cmd);
        if (strlen(words[1]) >= 64)
            return bad(p, "buffer name '%.40s...' is too long", words[1]);
        if (find_buffer(p, words[1]) >= 0)
            return bad(p, "buffer '%s' declared twice", words[1]);
        ms_buffer b;
        memset(&b, 0, sizeof b);
        snprintf(b.name, sizeof b.name, "%s", words[1]);
        bool have_size = false, have_type = false;
        for (int i = 2; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            if (!strcmp(key, "size") && value) {
                char head[160];
                snprintf(head, sizeof head, "bad buffer size '%.40s':", value);
                if ((s = number(p, head, value, GC_PARSE_SUFFIX, 1, MS_MAX_SIZE, &b.size)))
                    return s;
                have_size = true;
            } else if (!strcmp(key, "type") && value) {
                if ((s = parse_type(p, value, &b.type)))
                    return s;
                have_type = true;
            } else {
                return bad(p, "unknown buffer option '%s' (size=, type=)", key);
            }
        }
        if (!have_size || !have_type)
            return bad(p, "buffer '%s' needs size= and type=", b.name);
        if (m->buffer_count >= MS_MAX_BUFFERS)
            return gc_fail(p->err, GC_ERR_LIMIT, "%s:%llu: more than %zu buffers", p->what,
                           (unsigned long long)p->line, MS_MAX_BUFFERS);
        if (!grow((void**)&m->buffers, &p->buffer_capacity, m->buffer_count, sizeof *m->buffers))
            return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory for %zu buffers", p->what, m->buffer_count + 1);
        m->buffers[m->buffer_count] = b;
        if (!index_buffer(p, m->buffer_count))
            return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory for the names of %zu buffers", p->what,
                           m->buffer_count + 1);
        m->buffer_count++;
        return GC_OK;
    }
    if (!strcmp(cmd, "dispatch")) {
        if (p->open_dispatch >= 0)
            return bad(p, "'%s' inside another dispatch (missing 'end'?)", cmd);
        if (n < 2 || strchr(words[1], '='))
            return bad(p, "'%s' needs a name", cmd);
        ms_dispatch d;
        memset(&d, 0, sizeof d);
        snprintf(d.name, sizeof d.name, "%.63s", words[1]);
        d.cus = (uint32_t)m->machine[MK_CUS];
        for (int i = 2; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            uint64_t v;
            char head[160];
            if ((s = number(p, key_value(head, sizeof head, key, value), value, 0, 0, UINT32_MAX, &v)))
                return s;
            if (!strcmp(key, "cus")) {
                if (v < 1 || v > (uint64_t)m->machine[MK_CUS])
                    return bad(p, "cus=%s is not between 1 and the machine's CU count", value);
                d.cus = (uint32_t)v;
            } else if (!strcmp(key, "l1_bypass") && v <= 1) {
                d.l1_bypass = (int)v;
            } else if (!strcmp(key, "l2_bypass") && v <= 1) {
                d.l2_bypass = (int)v;
            } else {
                return bad(p, "unknown or out-of-range dispatch option '%s' (cus=, l1_bypass=0|1, l2_bypass=0|1)",
                           key);
            }
        }
        if (!grow((void**)&m->dispatches, &p->dispatch_capacity, m->dispatch_count, sizeof *m->dispatches))
            return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory for %zu dispatches", p->what,
                           m->dispatch_count + 1);
        m->dispatches[m->dispatch_count] = d;
        op.code = OP_BEGIN;
        op.dispatch = (int)m->dispatch_count;
        p->open_dispatch = (int)m->dispatch_count++;
        return add_op(p, op);
    }
    if (!strcmp(cmd, "end")) {
        if (p->open_dispatch < 0)
            return bad(p, "'%s' without a dispatch", cmd);
        op.code = OP_END;
        op.dispatch = p->open_dispatch;
        s = add_op(p, op);
        p->open_dispatch = -1;
        return s;
    }
    if (!strcmp(cmd, "read") || !strcmp(cmd, "write") || !strcmp(cmd, "sread")) {
        if (p->open_dispatch < 0)
            return bad(p, "'%s' outside a dispatch block", cmd);
        op.code = cmd[0] == 'r' ? OP_READ : cmd[0] == 'w' ? OP_WRITE : OP_SREAD;
        if ((s = need_buffer(p, words, n, &op.buffer)))
            return s;
        const ms_buffer* b = &m->buffers[op.buffer];
        op.pattern = PAT_SEQ;
        op.ws = b->size;
        op.bytes = 0;
        op.seed = 1;
        for (int i = 2; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            if (!value)
                return bad(p, "access option '%s' needs a value", key);
            if (!strcmp(key, "pattern")) {
                if (!strcmp(value, "seq"))
                    op.pattern = PAT_SEQ;
                else if (!strcmp(value, "random"))
                    op.pattern = PAT_RANDOM;
                else
                    return bad(p, "unknown pattern '%s' (seq, random; or stride=N)", value);
                continue;
            }
            uint64_t v;
            /* a seed is any 64-bit number; sizes take suffixes and stay within the simulator's range */
            bool seed = !strcmp(key, "seed");
            char head[160];
            if ((s = number(p, key_value(head, sizeof head, key, value), value, seed ? 0 : GC_PARSE_SUFFIX, 0,
                            seed ? UINT64_MAX : MS_MAX_SIZE, &v)))
                return s;
            if (!strcmp(key, "stride")) {
                if (v == 0)
                    return bad(p, "stride=%s must be positive", value);
                op.pattern = PAT_STRIDE;
                op.stride = v;
            } else if (!strcmp(key, "bytes")) {
                op.bytes = v;
            } else if (!strcmp(key, "ws")) {
                if (v == 0 || v > b->size)
                    return bad(p, "ws=%s must be between 1 and the buffer's size", value);
                op.ws = v;
            } else if (!strcmp(key, "seed")) {
                op.seed = v;
            } else {
                return bad(p, "unknown access option '%s' (pattern=, stride=, bytes=, ws=, seed=)", key);
            }
        }
        if (op.bytes == 0)
            op.bytes = op.ws;
        if (op.bytes > (1ull << 34))
            return bad(p, "bytes=%s is more than this simulator replays (16 GiB)", "that");
        return add_op(p, op);
    }
    static const struct {
        const char* name;
        ms_opcode code;
        int needs_buffer;
    } simple[] = {{"signal", OP_SIGNAL, 1},   {"cp_wait", OP_CP_WAIT, 1},     {"cpu_read", OP_CPU_READ, 1},
                  {"cpu_write", OP_CPU_WRITE, 1}, {"kcache_inv", OP_KCACHE_INV, 0}};
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; ++i)
        if (!strcmp(cmd, simple[i].name)) {
            op.code = simple[i].code;
            if (simple[i].needs_buffer && (s = need_buffer(p, words, n, &op.buffer)))
                return s;
            if (n > 1 + simple[i].needs_buffer)
                return bad(p, "unexpected '%s'", words[1 + simple[i].needs_buffer]);
            if ((op.code == OP_CPU_READ || op.code == OP_CPU_WRITE || op.code == OP_CP_WAIT) && p->open_dispatch >= 0)
                return bad(p, "'%s' is not a GPU operation: put it outside the dispatch block", cmd);
            return add_op(p, op);
        }
    if (!strcmp(cmd, "l1_inv")) {
        op.code = OP_L1_INV;
        for (int i = 1; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            if (strcmp(key, "scope") || !value || (strcmp(value, "all") && strcmp(value, "once_per_cu")))
                return bad(p, "l1_inv takes scope=all or scope=once_per_cu, not '%s'", key);
            op.all = !strcmp(value, "once_per_cu");
        }
        return add_op(p, op);
    }
    if (!strcmp(cmd, "l2_inv") || !strcmp(cmd, "l2_wb")) {
        op.code = cmd[3] == 'i' ? OP_L2_INV : OP_L2_WB;
        if (n > 2 || (n == 2 && strcmp(words[1], "sc") && strcmp(words[1], "all")))
            return bad(p, "%s takes 'sc' (the default) or 'all'", cmd);
        op.all = n == 2 && !strcmp(words[1], "all");
        return add_op(p, op);
    }
    return bad(p, "unknown statement '%s'", cmd);
}

gc_status gc_memsys_parse(const char* text, size_t length, const char* what, gc_memsys** out, gc_error* err)
{
    *out = NULL;
    gc_memsys* m = calloc(1, sizeof *m);
    if (!m)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for a scenario (%zu bytes)", what, sizeof *m);
    for (int k = 0; k < MK_COUNT; ++k)
        m->machine[k] = gc_ms_keys[k].value;
    parser p = {m, what ? what : "scenario", 0, 0, 0, 0, -1, err, NULL, 0};
    gc_status s = GC_OK;
    size_t at = 0;
    char line[4096];
    while (!s && at < length) {
        size_t end = at;
        while (end < length && text[end] != '\n')
            end++;
        p.line++;
        size_t len = end - at;
        if (len >= sizeof line) {
            s = bad(&p, "line longer than %s bytes", "4095");
            break;
        }
        if (memchr(text + at, 0, len)) {
            s = bad(&p, "NUL byte: not a text scenario%s", "");
            break;
        }
        memcpy(line, text + at, len);
        line[len] = 0;
        at = end + 1;
        char* hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char* words[64];
        int n = 0;
        char* save = NULL;
        for (char* w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
            if (n == 64) {
                s = bad(&p, "more than %s words on a line", "64");
                break;
            }
            words[n++] = w;
        }
        if (!s && n)
            s = statement(&p, words, n);
    }
    if (!s && p.open_dispatch >= 0)
        s = gc_fail(err, GC_ERR_DATA, "%s:%llu: dispatch '%s' has no 'end'", p.what, (unsigned long long)p.line,
                    m->dispatches[p.open_dispatch].name);
    if (!s) {
        /* Buffers lie one after the other, each line aligned. */
        uint64_t line_bytes = (uint64_t)m->machine[MK_LINE], base = 0;
        for (size_t i = 0; i < m->buffer_count; ++i) {
            m->buffers[i].base = base;
            base += (m->buffers[i].size + line_bytes - 1) / line_bytes * line_bytes;
        }
    }
    free(p.names);
    if (s) {
        gc_memsys_free(m);
        return s;
    }
    *out = m;
    return GC_OK;
}

gc_status gc_memsys_load(const char* path, gc_memsys** out, gc_error* err)
{
    *out = NULL;
    FILE* f = gc_input_open(path);
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char* text = NULL;
    size_t length = 0, capacity = 0;
    for (;;) {
        if (length + 65536 > capacity) {
            if (capacity > (64u << 20)) {
                free(text);
                gc_input_close(f);
                return gc_fail(err, GC_ERR_LIMIT, "%s: a scenario of more than 64 MiB", path);
            }
            size_t next = capacity ? capacity * 2 : 131072;
            char* grown = realloc(text, next);
            if (!grown) {
                free(text);
                gc_input_close(f);
                return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu bytes of scenario text", path, next);
            }
            text = grown;
            capacity = next;
        }
        size_t got = fread(text + length, 1, capacity - length, f);
        length += got;
        if (got == 0)
            break;
    }
    bool failed = ferror(f);
    gc_input_close(f);
    if (failed) {
        free(text);
        return gc_fail(err, GC_ERR_IO, "%s: read error", path);
    }
    gc_status s = gc_memsys_parse(text, length, path, out, err);
    free(text);
    return s;
}

void gc_memsys_free(gc_memsys* m)
{
    if (!m)
        return;
    free(m->buffers);
    free(m->dispatches);
    free(m->ops);
    free(m);
}

uint64_t gc_memsys_accesses(const gc_memsys* m)
{
    uint64_t line = (uint64_t)m->machine[MK_LINE], n = 0;
    for (size_t i = 0; i < m->op_count; ++i)
        if (m->ops[i].code == OP_READ || m->ops[i].code == OP_WRITE || m->ops[i].code == OP_SREAD)
            n = add_sat(n, (m->ops[i].bytes + line - 1) / line);
        else if (m->ops[i].code == OP_SIGNAL)
            n = add_sat(n, 1);
    return n;
}

/* The lines of every L1, of the L2 and of every K-cache of the scenario's machine. */
static void machine_lines(const gc_memsys* m, uint64_t* l1, uint64_t* l2, uint64_t* kc)
{
    const double* k = m->machine;
    uint64_t line = (uint64_t)k[MK_LINE];
    uint64_t cus = (uint64_t)k[MK_CUS], per_k = (uint64_t)k[MK_KCACHE_CUS];
    uint64_t kcaches = (cus + per_k - 1) / per_k;
    *l1 = mul_sat(cus, ms_cache_lines(k[MK_L1_KB], k[MK_L1_WAYS], line));
    *l2 = ms_cache_lines(k[MK_L2_KB], k[MK_L2_WAYS], line);
    *kc = mul_sat(kcaches, ms_cache_lines(k[MK_KCACHE_KB], k[MK_KCACHE_WAYS], line));
}

uint64_t gc_ms_setup_work(const gc_memsys* m)
{
    uint64_t l1, l2, kc;
    machine_lines(m, &l1, &l2, &kc);
    return add_sat(add_sat(l1, l2), kc); /* setting the caches up touches every line once */
}

uint64_t gc_ms_access_weight(const gc_memsys* m)
{
    /* An access looks through the ways of an L1 or K-cache and of the L2 (each at most
     * twice): on the default machine (4 + 16 + 4 ways) one unit, on the widest (3 x 64)
     * six, where it measured about six times slower. */
    uint64_t ways = (uint64_t)m->machine[MK_L1_WAYS] + (uint64_t)m->machine[MK_L2_WAYS] +
                    (uint64_t)m->machine[MK_KCACHE_WAYS];
    return (ways + 31) / 32;
}

uint64_t gc_ms_op_work(const gc_memsys* m, const ms_op* op)
{
    uint64_t l1, l2, kc, w;
    uint64_t line = (uint64_t)m->machine[MK_LINE];
    machine_lines(m, &l1, &l2, &kc);
    switch (op->code) {
    case OP_READ:
    case OP_WRITE:
    case OP_SREAD: w = mul_sat((op->bytes + line - 1) / line, gc_ms_access_weight(m)); break;
    case OP_L1_INV: w = l1; break; /* every CU's L1, now or at its first wave */
    case OP_L2_INV:
    case OP_L2_WB:
    case OP_CP_WAIT:
    case OP_CPU_READ: w = l2; break; /* a pass over the L2 */
    case OP_KCACHE_INV: w = kc; break;
    case OP_END: w = (uint64_t)m->machine[MK_CUS]; break;
    default: w = 1; break;
    }
    return w ? w : 1;
}

uint64_t gc_memsys_work(const gc_memsys* m)
{
    uint64_t n = gc_ms_setup_work(m);
    for (size_t i = 0; i < m->op_count; ++i)
        n = add_sat(n, gc_ms_op_work(m, &m->ops[i]));
    return n;
}

int gc_memsys_machine_value(const gc_memsys* m, const char* key, double* value)
{
    for (int k = 0; k < MK_COUNT; ++k)
        if (!strcmp(gc_ms_keys[k].name, key)) {
            *value = m ? m->machine[k] : gc_ms_keys[k].value;
            return 1;
        }
    return 0;
}

const char* gc_memtype_name(gc_memtype t)
{
    static const char* const names[GC_MEM_TYPE_COUNT] = {"RO", "PV", "GC", "SC", "UC"};
    return (unsigned)t < GC_MEM_TYPE_COUNT ? names[t] : "?";
}

const char* gc_memsys_strategy_name(gc_memsys_strategy s)
{
    static const char* const names[GC_MEMSYS_STRATEGY_COUNT] = {"as written (explicit SC invalidate/writeback)",
                                                                "L1 bypass", "L2 bypass (Onion+)", "SC as UC"};
    return (unsigned)s < GC_MEMSYS_STRATEGY_COUNT ? names[s] : "?";
}
