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

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ms_key_info gc_ms_keys[MK_COUNT] = {
    {"cus", 18, 1, 64, "public: the console's GPU has 18 compute units"},
    {"clock_mhz", 800, 1, 10000, "public: 800 MHz GPU clock"},
    {"line_bytes", 64, 16, 1024, "seed 003: 12.5 bytes/cycle = 0.2 lines/cycle, 200 = 3.125 lines/cycle"},
    {"l1_kb", 16, 1, 1024, "public: 16 KB vector L1 per CU (GCN)"},
    {"l1_ways", 4, 1, 64, "assumed"},
    {"l2_kb", 512, 16, 65536, "seed 003: worst-case writeback of 512 KB (the whole L2)"},
    {"l2_ways", 16, 1, 64, "public: GCN's L2 is 16-way"},
    {"kcache_kb", 16, 1, 1024, "seed 003: one 16 KB K-cache"},
    {"kcache_ways", 4, 1, 64, "assumed"},
    {"kcache_cus", 3, 1, 64, "seed 003: one K-cache for each three CUs"},
    {"onion_bytes_per_cycle", 12.5, 0.01, 1e6, "seed 003: Onion 10 GB/s = 12.5 bytes/cycle"},
    {"onion_plus_bytes_per_cycle", 12.5, 0.01, 1e6, "assumed: Onion+ shares Onion's bandwidth"},
    {"garlic_bytes_per_cycle", 200, 0.01, 1e6, "seed 003: 160 GB/s of Garlic to the GPU = 200 bytes/cycle"},
    {"l2_inv_locate", 75, 0, 1e6, "seed 003: about 75 cycles to locate and invalidate the lines"},
    {"l2_inv_settle", 250, 0, 1e6, "assumed: in-flight transactions settling; with locate, 325 (seed: 300-350)"},
    {"l2_wb_locate", 75, 0, 1e6, "assumed: as the invalidate's locate (seed: 'small overhead to locate lines')"},
    {"l2_wb_latency", 100, 0, 1e6, "assumed: latency to system memory (seed: 4 KB over Onion ~ 500 cycles)"},
    {"l1_inv_cycles", 16, 0, 1e6, "assumed: per CU invalidated"},
    {"kcache_inv_cycles", 1, 0, 1e6, "seed 003: K-cache invalidation takes 1 cycle"},
    {"wave_bytes", 256, 64, 1 << 20, "assumed: a 64-thread wavefront reading 4 bytes each; waves go to CUs in turn"},
};

typedef struct parser {
    gc_memsys* m;
    const char* what;
    uint64_t line;
    size_t op_capacity, buffer_capacity, dispatch_capacity;
    int open_dispatch; /* -1 outside a dispatch block */
    gc_error* err;
} parser;

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

static int find_buffer(const gc_memsys* m, const char* name)
{
    for (size_t i = 0; i < m->buffer_count; ++i)
        if (!strcmp(m->buffers[i].name, name))
            return (int)i;
    return -1;
}

/* A non-negative integer with an optional K/M suffix (KiB, MiB). */
static bool parse_size(const char* text, uint64_t* out)
{
    char* end;
    errno = 0;
    if (!isdigit((unsigned char)*text))
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return false;
    if (*end == 'K' || *end == 'k')
        v *= 1024, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1024 * 1024, end++;
    if (*end || v > (1ull << 40))
        return false;
    *out = v;
    return true;
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
    if (!grow((void**)&m->ops, &p->op_capacity, m->op_count, sizeof *m->ops))
        return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory", p->what);
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
    *buffer = find_buffer(p->m, words[1]);
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
            char* end;
            double v = value ? strtod(value, &end) : 0;
            if (!value || end == value || *end || !(v >= gc_ms_keys[k].lo && v <= gc_ms_keys[k].hi))
                return bad(p, "machine parameter '%s' needs a value in range", key);
            m->machine[k] = v;
        }
        uint64_t line = (uint64_t)m->machine[MK_LINE];
        if (line & (line - 1))
            return bad(p, "line_bytes must be a power of two, not %s", "that");
        return GC_OK;
    }
    if (!strcmp(cmd, "buffer")) {
        if (p->open_dispatch >= 0)
            return bad(p, "'%s' inside a dispatch block", cmd);
        if (n < 2 || strchr(words[1], '='))
            return bad(p, "'%s' needs a name", cmd);
        if (strlen(words[1]) >= 64)
            return bad(p, "buffer name '%.40s...' is too long", words[1]);
        if (find_buffer(m, words[1]) >= 0)
            return bad(p, "buffer '%s' declared twice", words[1]);
        ms_buffer b;
        memset(&b, 0, sizeof b);
        snprintf(b.name, sizeof b.name, "%s", words[1]);
        bool have_size = false, have_type = false;
        for (int i = 2; i < n; ++i) {
            char *key, *value;
            split_kv(words[i], &key, &value);
            if (!strcmp(key, "size") && value) {
                if (!parse_size(value, &b.size) || b.size == 0)
                    return bad(p, "bad buffer size '%s'", value);
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
        if (!grow((void**)&m->buffers, &p->buffer_capacity, m->buffer_count, sizeof *m->buffers))
            return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory", p->what);
        m->buffers[m->buffer_count++] = b;
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
            if (!value || !parse_size(value, &v))
                return bad(p, "dispatch option '%s' needs a number", key);
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
            return gc_fail(p->err, GC_ERR_NOMEM, "%s: out of memory", p->what);
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
            if (!parse_size(value, &v))
                return bad(p, "access option '%s' needs a number", key);
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
        return gc_fail(err, GC_ERR_NOMEM, "out of memory");
    for (int k = 0; k < MK_COUNT; ++k)
        m->machine[k] = gc_ms_keys[k].value;
    parser p = {m, what ? what : "scenario", 0, 0, 0, 0, -1, err};
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
    FILE* f = fopen(path, "rb");
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char* text = NULL;
    size_t length = 0, capacity = 0;
    for (;;) {
        if (length + 65536 > capacity) {
            if (capacity > (64u << 20)) {
                free(text);
                fclose(f);
                return gc_fail(err, GC_ERR_LIMIT, "%s: a scenario of more than 64 MiB", path);
            }
            size_t next = capacity ? capacity * 2 : 131072;
            char* grown = realloc(text, next);
            if (!grown) {
                free(text);
                fclose(f);
                return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
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
    fclose(f);
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
            n += (m->ops[i].bytes + line - 1) / line;
        else if (m->ops[i].code == OP_SIGNAL)
            n += 1;
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
