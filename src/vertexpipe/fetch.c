// SPDX-License-Identifier: MIT
/* Vertex fetch, modelled as a memory cache (docs/models/fetch.md).
 *
 * The rule: a vertex that is fetched reads `size` bytes at `offset + id * stride` from each
 * of its streams; each 64-byte (line_bytes) line those bytes touch is looked up in the
 * first cache level, and a line missing there costs line_bytes of traffic into it and is
 * looked up in the next level, where a miss costs line_bytes read from memory. Each level is
 * set-associative with least-recently-used replacement within a set (set = line number modulo
 * the number of sets; one way is direct-mapped). Which vertices are fetched depends on the
 * spec: meshoptimizer's analyzer fetches at every index reference; the others fetch the
 * vertices the post-transform cache model shades (its misses), as a GPU's vertex fetch runs
 * only for the invocations it launches. */
#include "../internal.h"

#include <stdlib.h>
#include <string.h>

/* Tags kept by one level at most (its capacity over its line size): 8 MiB of tags. */
#define MAX_LINES ((uint64_t)1 << 20)

typedef struct cache_level {
    uint64_t* tags; /* sets x ways, each set's most recent first; 0 empty, else line + 1 */
    uint64_t sets;
    uint64_t set_mask; /* sets - 1 when sets is a power of two above 1, else 0 */
    uint32_t ways;
    uint32_t line_bytes;
} cache_level;

static gc_status parse_level(const char* text, size_t length, gc_fetch_level* level, const char* spec, gc_error* err)
{
    /* LINE,SIZE,WAYS */
    const char* p = text;
    const char* end = text + length;
    uint64_t v[3];
    static const uint64_t lo[3] = {4, 4, 1}, hi[3] = {4096, (uint64_t)1 << 30, 64};
    static const char* what[3] = {"line size", "capacity", "ways"};
    for (int k = 0; k < 3; ++k) {
        const char* q = p;
        while (q < end && *q != ',')
            ++q;
        if ((k < 2 && q == end) || (k == 2 && q != end) ||
            gc_parse_u64(p, (size_t)(q - p), GC_PARSE_SUFFIX, lo[k], hi[k], &v[k]) != GC_PARSE_OK)
            return gc_fail(err, GC_ERR_USAGE,
                           "fetch spec '%s': the %s must be a whole number in [%llu, %llu] (cache:LINE,SIZE,WAYS:BYTES)",
                           spec, what[k], (unsigned long long)lo[k], (unsigned long long)hi[k]);
        p = q + 1;
    }
    if (v[1] % (v[0] * v[2]))
        return gc_fail(err, GC_ERR_USAGE, "fetch spec '%s': the capacity %llu is not a multiple of line size x ways",
                       spec, (unsigned long long)v[1]);
    if (v[1] / v[0] > MAX_LINES)
        return gc_fail(err, GC_ERR_LIMIT, "fetch spec '%s': more than %llu lines in one cache", spec,
                       (unsigned long long)MAX_LINES);
    level->line_bytes = (uint32_t)v[0];
    level->capacity_bytes = v[1];
    level->ways = (uint32_t)v[2];
    return GC_OK;
}

gc_status gc_fetch_parse(const char* spec, gc_fetch_spec* out, gc_error* err)
{
    if (!spec || !out)
        return gc_fail(err, GC_ERR_USAGE, "fetch spec: none given");
    memset(out, 0, sizeof *out);
    size_t length = strlen(spec);
    const char* last = strrchr(spec, ':');
    if (!last || length > 200)
        return gc_fail(err, GC_ERR_USAGE,
                       "fetch spec '%.200s': expected meshopt:BYTES, gcn:BYTES or cache:LINE,SIZE,WAYS:BYTES", spec);
    uint64_t bytes;
    if (gc_parse_u64(last + 1, strlen(last + 1), 0, 1, 256, &bytes) != GC_PARSE_OK)
        return gc_fail(err, GC_ERR_USAGE, "fetch spec '%s': the vertex size after the last ':' must be 1 to 256 bytes",
                       spec);
    out->vertex_bytes = (uint32_t)bytes;
    size_t head = (size_t)(last - spec);
    if (head == 7 && !memcmp(spec, "meshopt", 7)) {
        /* meshopt_analyzeVertexFetch: direct-mapped, 128 KiB of 64-byte lines, every reference. */
        out->every_reference = 1;
        out->level_count = 1;
        out->levels[0] = (gc_fetch_level){64, 128 * 1024, 1};
    } else if (head == 3 && !memcmp(spec, "gcn", 3)) {
        /* Seed 003's GPU: a GCN vector L1 (16 KiB, 64-byte lines, 4-way; AMD's GCN
         * architecture white paper) over the 512 KiB L2 (the seed's worst-case writeback of
         * 512 KB; 16-way, 64-byte lines per the white paper). */
        out->level_count = 2;
        out->levels[0] = (gc_fetch_level){64, 16 * 1024, 4};
        out->levels[1] = (gc_fetch_level){64, 512 * 1024, 16};
    } else if (head > 6 && !memcmp(spec, "cache:", 6)) {
        out->level_count = 1;
        gc_status s = parse_level(spec + 6, head - 6, &out->levels[0], spec, err);
        if (s != GC_OK)
            return s;
    } else {
        return gc_fail(err, GC_ERR_USAGE,
                       "fetch spec '%s': unknown cache; expected meshopt:BYTES, gcn:BYTES or cache:LINE,SIZE,WAYS:BYTES",
                       spec);
    }
    return GC_OK;
}

static gc_status level_init(cache_level* c, const gc_fetch_level* spec, gc_error* err)
{
    if (spec->line_bytes < 4 || spec->ways < 1 || spec->ways > 64 || spec->capacity_bytes < spec->line_bytes ||
        spec->capacity_bytes % ((uint64_t)spec->line_bytes * spec->ways) ||
        spec->capacity_bytes / spec->line_bytes > MAX_LINES)
        return gc_fail(err, GC_ERR_USAGE,
                       "fetch: a cache of %llu bytes, %u-byte lines and %u ways is not one gpucache models",
                       (unsigned long long)spec->capacity_bytes, spec->line_bytes, spec->ways);
    c->line_bytes = spec->line_bytes;
    c->ways = spec->ways;
    c->sets = spec->capacity_bytes / ((uint64_t)spec->line_bytes * spec->ways);
    c->set_mask = (c->sets > 1 && !(c->sets & (c->sets - 1))) ? c->sets - 1 : 0;
    c->tags = calloc((size_t)(c->sets * c->ways), sizeof *c->tags);
    if (!c->tags)
        return gc_fail(err, GC_ERR_NOMEM, "fetch: out of memory for a cache of %llu lines",
                       (unsigned long long)(c->sets * c->ways));
    return GC_OK;
}

/* Looks line `line` up; returns 1 on a hit. Either way it becomes the set's most recent. */
static int level_access(cache_level* c, uint64_t line)
{
    uint64_t index = c->set_mask ? (line & c->set_mask) : line % c->sets;
    uint64_t tag = line + 1;
    if (c->ways == 1) { /* direct-mapped: no order to keep */
        int hit = c->tags[index] == tag;
        c->tags[index] = tag;
        return hit;
    }
    uint64_t* set = c->tags + (size_t)index * c->ways;
    uint32_t w = 0;
    while (w < c->ways && set[w] != tag)
        ++w;
    int hit = w < c->ways;
    if (!hit)
        w = c->ways - 1; /* the least recent goes */
    memmove(set + 1, set, (size_t)w * sizeof *set);
    set[0] = tag;
    return hit;
}

typedef struct fetcher {
    cache_level level[2];
    unsigned level_count;
    const gc_fetch_stream* streams;
    size_t stream_count;
    gc_fetch_stats* out;
    unsigned line_shift; /* log2 of the first level's line size when a power of two, else 0 */
} fetcher;

static void fetch_vertex(fetcher* f, uint32_t v)
{
    for (size_t s = 0; s < f->stream_count; ++s) {
        const gc_fetch_stream* st = &f->streams[s];
        uint64_t start = st->offset + (uint64_t)v * st->stride;
        uint64_t first, last;
        if (f->line_shift) { /* a power-of-two line: a shift, not a 64-bit division */
            first = start >> f->line_shift;
            last = (start + st->size - 1) >> f->line_shift;
        } else {
            first = start / f->level[0].line_bytes;
            last = (start + st->size - 1) / f->level[0].line_bytes;
        }
        for (uint64_t line = first; line <= last; ++line) {
            if (level_access(&f->level[0], line))
                continue;
            f->out->bytes += f->level[0].line_bytes;
            if (f->level_count < 2)
                continue;
            /* The next level sees the missing line's bytes, in its own lines. */
            uint64_t a = line * f->level[0].line_bytes;
            uint64_t b = a + f->level[0].line_bytes - 1;
            for (uint64_t l2 = a / f->level[1].line_bytes; l2 <= b / f->level[1].line_bytes; ++l2)
                if (!level_access(&f->level[1], l2))
                    f->out->memory_bytes += f->level[1].line_bytes;
        }
    }
}

gc_status gc_analyze_fetch(const gc_fetch_spec* spec, const gc_model* model, const uint32_t* indices,
                           size_t index_count, uint32_t vertex_count, const gc_fetch_stream* streams,
                           size_t stream_count, gc_fetch_stats* out, gc_error* err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!spec || !out || (index_count && !indices))
        return gc_fail(err, GC_ERR_USAGE, "fetch: the spec, the indices and the result are required");
    if (spec->level_count < 1 || spec->level_count > 2)
        return gc_fail(err, GC_ERR_USAGE, "fetch: a spec has one or two cache levels, not %u", spec->level_count);
    if (!spec->every_reference && !model)
        return gc_fail(err, GC_ERR_USAGE, "fetch: this spec fetches the vertices a model shades; name the model");
    if (index_count % 3)
        return gc_fail(err, GC_ERR_DATA, "fetch: %zu indices is not a whole number of triangles", index_count);
    if (index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "fetch: %zu indices is past the limit of %zu", index_count,
                       (size_t)GC_MAX_INDICES);
    gc_fetch_stream packed = {0, spec->vertex_bytes, spec->vertex_bytes};
    if (!streams || !stream_count) {
        if (!spec->vertex_bytes)
            return gc_fail(err, GC_ERR_USAGE, "fetch: no vertex streams and no vertex size");
        streams = &packed;
        stream_count = 1;
    }
    uint64_t vertex_bytes = 0;
    for (size_t s = 0; s < stream_count; ++s) {
        if (streams[s].size == 0 || streams[s].size > 4096)
            return gc_fail(err, GC_ERR_USAGE, "fetch: stream %zu reads %u bytes per vertex (1 to 4096)", s,
                           streams[s].size);
        if (streams[s].stride < streams[s].size && vertex_count > 1)
            return gc_fail(err, GC_ERR_DATA, "fetch: stream %zu has a stride of %u bytes, less than the %u bytes it holds",
                           s, streams[s].stride, streams[s].size);
        /* Keeps every address below 2^63: the offset plus the last vertex's bytes. */
        if (streams[s].offset > ((uint64_t)1 << 62) ||
            (uint64_t)streams[s].stride * vertex_count > ((uint64_t)1 << 62))
            return gc_fail(err, GC_ERR_LIMIT, "fetch: stream %zu's addresses are past 2^62 bytes", s);
        vertex_bytes += streams[s].size;
    }
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "fetch: index %zu is %u, past the %u vertices", i, indices[i],
                           vertex_count);

    fetcher f;
    memset(&f, 0, sizeof f);
    f.level_count = spec->level_count;
    f.streams = streams;
    f.stream_count = stream_count;
    f.out = out;
    gc_status status = GC_OK;
    for (unsigned l = 0; l < f.level_count && status == GC_OK; ++l)
        status = level_init(&f.level[l], &spec->levels[l], err);
    if (status == GC_OK && !(f.level[0].line_bytes & (f.level[0].line_bytes - 1)))
        while ((1u << f.line_shift) < f.level[0].line_bytes)
            ++f.line_shift;
    uint8_t* seen = status == GC_OK ? calloc(vertex_count ? vertex_count : 1, 1) : NULL;
    if (status == GC_OK && !seen)
        status = gc_fail(err, GC_ERR_NOMEM, "fetch: out of memory for %u vertices", vertex_count);
    gc_sim* sim = NULL;
    if (status == GC_OK && !spec->every_reference)
        status = gc_sim_create(model, vertex_count, NULL, &sim, err);
    if (status == GC_OK) {
        if (sim)
            gc_sim_begin_run(sim, 0, index_count);
        for (size_t i = 0; i < index_count; i += 3) {
            unsigned shaded = 0x010101u; /* every reference: each corner fetches */
            if (sim) {
                gc_sim_primitive p;
                memset(&p, 0, sizeof p);
                p.count = 3;
                p.number = i / 3;
                for (unsigned j = 0; j < 3; ++j) {
                    p.vertices[j] = indices[i + j];
                    p.positions[j] = i + j;
                }
                shaded = 0;
                gc_sim_feed(sim, &p, &shaded);
            }
            for (unsigned j = 0; j < 3; ++j) {
                seen[indices[i + j]] = 1;
                for (unsigned k = GC_SIM_SHADED(shaded, j); k > 0; --k)
                    fetch_vertex(&f, indices[i + j]);
            }
        }
        uint64_t unique = 0;
        for (uint32_t v = 0; v < vertex_count; ++v)
            unique += seen[v];
        out->unique_bytes = unique * vertex_bytes;
        out->overfetch = unique ? (double)out->bytes / (double)out->unique_bytes : 0.0;
    }
    gc_sim_destroy(sim);
    free(seen);
    for (unsigned l = 0; l < 2; ++l)
        free(f.level[l].tags);
    return status;
}
