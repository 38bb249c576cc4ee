// SPDX-License-Identifier: MIT
/* Numbering vertices for a vertex fetch model (gc_reorder_vertices_fetch, docs/models/fetch.md
 * "The numbering"). First use groups the vertices into lines: a line holds the vertices that
 * are first used one after the other, as in gc_reorder_vertices. What first use leaves to
 * chance is the set each line falls in: line j goes to set j mod sets, so a vertex used again
 * after `sets x ways` newer lines finds its line evicted, and two lines alive at once may
 * share a set. Here each line, when it is first read, takes a set whose victim (the line the
 * set would evict next, least recently used) is not read again, or is read again latest
 * (Belady's choice, made once per line instead of once per miss); the sets still receive the
 * same number of lines each, so the numbers stay 0 .. used - 1. The numbering is kept only
 * when the fetch model, evaluated exactly, reads fewer bytes than with first use. */
#include "../internal.h"

#include <stdlib.h>
#include <string.h>

#define NEVER UINT32_MAX
/* Where no set's victim is done: the open sets looked at, from a cursor that goes round. */
#define SCAN 64

typedef struct set_cache {
    uint32_t* line; /* sets x ways, each set's most recent first; NEVER: empty */
    uint32_t* next; /* the reference time each resident line is read next; NEVER: not again */
    uint32_t ways;
} set_cache;

/* Reads `line` at a set: 1 on a hit; it becomes the set's most recent, read next at `next`. */
static inline int set_access(set_cache* c, uint32_t set, uint32_t line, uint32_t next)
{
    uint32_t* l = c->line + (size_t)set * c->ways;
    uint32_t* t = c->next + (size_t)set * c->ways;
    if (c->ways == 1) { /* direct-mapped */
        int hit = l[0] == line;
        l[0] = line, t[0] = next;
        return hit;
    }
    uint32_t w = 0;
    while (w < c->ways && l[w] != line)
        ++w;
    int hit = w < c->ways;
    if (!hit)
        w = c->ways - 1;
    memmove(l + 1, l, (size_t)w * sizeof *l);
    memmove(t + 1, t, (size_t)w * sizeof *t);
    l[0] = line, t[0] = next;
    return hit;
}

/* When the set's victim (its least recent way) is read next: NEVER for an empty way or a
 * line not read again. */
static inline uint32_t victim_next(const set_cache* c, uint32_t set)
{
    size_t w = (size_t)set * c->ways + c->ways - 1;
    return c->line[w] == NEVER ? NEVER : c->next[w];
}

/* Division by a count that is a power of two in practice (vertices a line, sets): a shift. */
typedef struct divisor {
    uint32_t d;
    int shift; /* log2 d, or -1 */
} divisor;

static divisor divisor_of(uint32_t d)
{
    divisor x = {d, -1};
    if (d && !(d & (d - 1)))
        for (x.shift = 0; (1u << x.shift) < d; ++x.shift) {
        }
    return x;
}

static inline uint32_t div_by(uint32_t x, divisor d)
{
    return d.shift >= 0 ? x >> d.shift : x / d.d;
}

static inline uint32_t mod_by(uint32_t x, divisor d)
{
    return d.shift >= 0 ? x & (d.d - 1) : x % d.d;
}

/* The bytes `spec` reads for `indices`. */
static gc_status bytes_of(const gc_fetch_spec* spec, const gc_model* model, const uint32_t* indices, size_t n,
                          uint32_t vertex_count, uint64_t* bytes, gc_error* err)
{
    gc_fetch_stats st;
    gc_status s = gc_analyze_fetch(spec, model, indices, n, vertex_count, NULL, 0, &st, err);
    *bytes = st.bytes;
    return s;
}

/* The line (in first-use numbers) of every reference, the time each is read next, and each
 * line's set; returns the new number of every first-use number in `number`. */
static gc_status choose_sets(const uint32_t* indices, size_t n, uint32_t used, uint32_t per_line, uint32_t sets,
                             uint32_t ways, uint32_t* number, uint64_t* misses, uint64_t* first_use_misses,
                             gc_error* err)
{
    const uint32_t lines = (used + per_line - 1) / per_line;
    const divisor by_line = divisor_of(per_line), by_set = divisor_of(sets);
    uint32_t* next = gc_alloc_array(n, sizeof *next, false);
    uint32_t* later = gc_alloc_array(lines, sizeof *later, false);  /* the backward pass's cursor */
    uint32_t* line_number = later;                                  /* then: each line's new number */
    uint32_t* quota = gc_alloc_array(sets, sizeof *quota, false);   /* lines each set may still take */
    uint32_t* open = gc_alloc_array(sets, sizeof *open, false);     /* the sets whose quota is left */
    uint32_t* open_at = gc_alloc_array(sets, sizeof *open_at, false); /* each set's place there */
    uint32_t* filled = gc_alloc_array(sets, sizeof *filled, true);  /* lines each set has taken */
    uint32_t* free_sets = gc_alloc_array(sets, sizeof *free_sets, false); /* a ring: each set once at most */
    uint8_t* queued = gc_alloc_array(sets, 1, true);
    set_cache c = {gc_alloc_array((size_t)sets * ways, sizeof(uint32_t), false),
                   gc_alloc_array((size_t)sets * ways, sizeof(uint32_t), false), ways};
    set_cache f = {gc_alloc_array((size_t)sets * ways, sizeof(uint32_t), false),
                   gc_alloc_array((size_t)sets * ways, sizeof(uint32_t), false), ways}; /* first use's */
    gc_status s = GC_OK;
    if (!next || !later || !quota || !open || !open_at || !filled || !free_sets || !queued || !c.line || !c.next || !f.line ||
        !f.next) {
        s = gc_fail(err, GC_ERR_NOMEM, "reorder vertices: out of memory for %zu indices", n);
        goto done;
    }
    for (uint32_t l = 0; l < lines; ++l)
        later[l] = NEVER;
    for (size_t i = n; i-- > 0;) {
        uint32_t l = div_by(indices[i], by_line);
        next[i] = later[l];
        later[l] = (uint32_t)i;
    }
    memset(line_number, 0xff, (size_t)lines * sizeof *line_number); /* none opened yet */
    memset(c.line, 0xff, (size_t)sets * ways * sizeof(uint32_t));
    memset(c.next, 0xff, (size_t)sets * ways * sizeof(uint32_t));
    memset(f.line, 0xff, (size_t)sets * ways * sizeof(uint32_t));
    memset(f.next, 0xff, (size_t)sets * ways * sizeof(uint32_t));
    *misses = *first_use_misses = 0;
    for (uint32_t k = 0; k < sets; ++k)
        quota[k] = lines / sets + (k < lines % sets);
    /* The last line takes the last number (a partial line must): its set keeps a place. */
    const uint32_t last_set = (lines - 1) % sets;
    quota[last_set]--;
    uint32_t open_count = 0, cursor = 0;
    for (uint32_t k = 0; k < sets; ++k)
        if (quota[k])
            open_at[k] = open_count, open[open_count++] = k;
    size_t top = 0, bottom = 0; /* pushed and popped so far; the ring holds top - bottom */
    for (uint32_t k = 0; k < sets; ++k) /* with no conflict, first use's sets */
        free_sets[top++ % sets] = k, queued[k] = 1;
    for (size_t i = 0; i < n; ++i) {
        uint32_t l = div_by(indices[i], by_line), set;
        if (line_number[l] == NEVER) { /* lines open in first-use order: l is the next line */
            if (l == lines - 1) {
                set = last_set;
            } else {
                set = NEVER;
                while (top > bottom && set == NEVER) {
                    uint32_t k = free_sets[bottom++ % sets];
                    queued[k] = 0;
                    if (quota[k] && victim_next(&c, k) == NEVER)
                        set = k;
                }
                if (set == NEVER) { /* no set's victim is done: the one read again latest */
                    uint32_t best_next = 0;
                    uint32_t scan = open_count < SCAN ? open_count : SCAN;
                    for (uint32_t o = 0; o < scan; ++o) {
                        uint32_t t = victim_next(&c, open[(cursor + o) % open_count]);
                        if (set == NEVER || t > best_next)
                            set = open[(cursor + o) % open_count], best_next = t;
                    }
                    cursor += scan;
                }
                if (--quota[set] == 0) { /* out of the open sets */
                    uint32_t moved = open[--open_count];
                    open[open_at[set]] = moved, open_at[moved] = open_at[set];
                }
            }
            line_number[l] = set + filled[set]++ * sets;
        }
        set = mod_by(line_number[l], by_set);
        *misses += !set_access(&c, set, l, next[i]);
        *first_use_misses += !set_access(&f, mod_by(l, by_set), l, 0);
        if (victim_next(&c, set) == NEVER)
            if (!queued[set])
                free_sets[top++ % sets] = set, queued[set] = 1;
    }
    for (uint32_t f = 0; f < used; ++f)
        number[f] = line_number[div_by(f, by_line)] * per_line + mod_by(f, by_line);
done:
    free(next), free(later), free(quota), free(open), free(open_at), free(filled), free(free_sets), free(queued);
    free(c.line), free(c.next), free(f.line), free(f.next);
    return s;
}

gc_status gc_reorder_vertices_fetch(uint32_t* indices, size_t index_count, uint32_t vertex_count,
                                    const gc_fetch_spec* spec, const gc_model* model, uint32_t* remap, uint32_t* used,
                                    gc_error* err)
{
    gc_fetch_spec meshopt;
    if (!spec) {
        gc_status s = gc_fetch_parse("meshopt:32", &meshopt, err);
        if (s)
            return s;
        spec = &meshopt;
    }
    if (!spec->every_reference && !model)
        return gc_fail(err, GC_ERR_USAGE, "reorder vertices: this fetch spec fetches the vertices a model shades; "
                                          "name the model");
    gc_status s = gc_reorder_vertices(indices, index_count, vertex_count, remap, used, err);
    const gc_fetch_level* first = &spec->levels[0];
    const uint32_t stride = spec->vertex_bytes;
    if (s || index_count % 3 || stride == 0 || first->line_bytes % stride || first->ways == 0 ||
        index_count >= NEVER || *used < 2)
        return s; /* a vertex that may straddle lines, or nothing to choose: first use */
    const uint32_t per_line = first->line_bytes / stride;
    const uint64_t sets = first->capacity_bytes / ((uint64_t)first->line_bytes * first->ways);
    const uint32_t lines = (*used + per_line - 1) / per_line;
    if (sets < 2 || sets > (1u << 20) || lines <= sets)
        return GC_OK; /* one set, or a line per set at most: every numbering reads each line once */
    /* every reference fetches: the first level's misses, simulated while the sets are chosen,
     * are the model's, and the numbering is applied in place; otherwise the model says which
     * references fetch, counted on a renumbered copy (4 bytes an index more) */
    uint32_t* number = gc_alloc_array(*used, sizeof *number, false);
    uint32_t* renumbered = spec->every_reference ? NULL : gc_alloc_array(index_count, sizeof *renumbered, false);
    if (!number || (!spec->every_reference && !renumbered)) {
        free(number), free(renumbered);
        return gc_fail(err, GC_ERR_NOMEM, "reorder vertices: out of memory for %zu indices", index_count);
    }
    uint64_t before = 0, after = 0;
    s = choose_sets(indices, index_count, *used, per_line, (uint32_t)sets, first->ways, number, &after, &before, err);
    for (size_t i = 0; !s && renumbered && i < index_count; ++i)
        renumbered[i] = number[indices[i]];
    if (!s && !spec->every_reference)
        s = bytes_of(spec, model, indices, index_count, *used, &before, err);
    if (!s && !spec->every_reference)
        s = bytes_of(spec, model, renumbered, index_count, *used, &after, err);
    if (!s && after < before) {
        if (renumbered)
            memcpy(indices, renumbered, index_count * sizeof *indices);
        else
            for (size_t i = 0; i < index_count; ++i)
                indices[i] = number[indices[i]];
        for (uint32_t v = 0; v < vertex_count; ++v)
            if (remap[v] != NEVER)
                remap[v] = number[remap[v]];
    }
    free(number), free(renumbered);
    return s;
}
