// SPDX-License-Identifier: MIT
/* The write path: a mesh (OBJ, PLY or text, picked by the first byte) is loaded, its
 * triangles shuffled within each run by a seeded permutation, written back in its own
 * format (with or without --reorder-vertices, by the second byte), and reloaded. The
 * reloaded triangles must be the shuffled ones in the same order, up to a one-to-one
 * renaming of the vertices (which is all --reorder-vertices may change); for text with
 * --reorder-vertices, exactly the renaming gc_mesh_write_remap's vertex map says. A difference,
 * a write that fails on what was read, or a sanitizer report is a finding. */
#include "fuzz_util.h"
#include "gpucache_private.h"

static const char* const formats[] = {"obj", "ply", "txt"};

static int compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

static uint64_t next_random(uint64_t* s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* The triangle list a mesh draws, or NULL (free it). */
static uint32_t* triangles_of(const gc_mesh* m, const char* path, size_t* count)
{
    gc_error err;
    gc_draw d = {m->indices, m->index_count, m->topology, m->restart_enabled, m->restart_value};
    uint64_t prims;
    if (gc_draw_validate(&d, path, &prims, &err) != GC_OK || prims > (1u << 20))
        return NULL;
    if (d.topology != GC_TRIANGLE_LIST && d.topology != GC_TRIANGLE_STRIP && d.topology != GC_TRIANGLE_FAN &&
        d.topology != GC_QUAD_LIST && d.topology != GC_POLYGON)
        return NULL;
    size_t capacity = (size_t)prims * 6 + 1;
    uint32_t* t = malloc(capacity * sizeof *t);
    if (!t || gc_draw_triangles(&d, t, capacity, count, &err) != GC_OK) {
        free(t);
        return NULL;
    }
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 10)
        return 0;
    const char* ext = formats[data[0] % 3];
    int reorder = data[1] & 1;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 8; ++i)
        seed = seed * 131 + data[2 + i];
    seed |= 1;
    char in_path[256];
    snprintf(in_path, sizeof in_path, "%s", fuzz_file(data + 10, size - 10, ext));
    char out_path[256];
    snprintf(out_path, sizeof out_path, "/tmp/gpucache-fuzz-out-%ld.%s", (long)getpid(), ext);

    gc_load_options lo = {0};
    lo.max_indices = 1u << 20;
    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(in_path, &lo, &m, &err) != GC_OK)
        return 0;
    size_t n = 0;
    uint32_t* tri = triangles_of(&m, in_path, &n);
    if (!tri) {
        gc_mesh_free(&m);
        return 0;
    }
    /* shuffle whole triangles inside each run (a run's faces stay in that run) */
    size_t single = n / 3;
    int list = m.topology == GC_TRIANGLE_LIST && m.runs;
    const size_t* runs = list ? m.runs : &single;
    size_t run_count = list ? m.run_count : 1;
    size_t at = 0;
    for (size_t r = 0; r < run_count; ++r) {
        uint32_t* t = tri + at * 3;
        for (size_t i = runs[r]; i > 1; --i) {
            size_t j = (size_t)(next_random(&seed) % i);
            for (int k = 0; k < 3; ++k) {
                uint32_t x = t[(i - 1) * 3 + k];
                t[(i - 1) * 3 + k] = t[j * 3 + k];
                t[j * 3 + k] = x;
            }
        }
        at += runs[r];
    }
    if (at * 3 != n)
        abort(); /* the runs must cover the triangles */
    uint32_t* map = NULL; /* text, renumbered: the vertex map (--remap) */
    size_t map_count = 0;
    gc_status written = reorder && !strcmp(ext, "txt")
                            ? gc_mesh_write_remap(in_path, &lo, tri, n, reorder, out_path, &map, &map_count, &err)
                            : gc_mesh_write(in_path, &lo, tri, n, reorder, out_path, &err);
    if (written == GC_ERR_LIMIT && !map) /* values too sparse for a map: written without one */
        written = gc_mesh_write(in_path, &lo, tri, n, reorder, out_path, &err);
    if (written == GC_OK) {
        gc_mesh back;
        if (gc_mesh_load(out_path, &lo, &back, &err) != GC_OK)
            abort(); /* we wrote what we cannot read */
        size_t n2 = 0;
        uint32_t* tri2 = triangles_of(&back, out_path, &n2);
        if (!tri2 || n2 != n)
            abort();
        /* one-to-one renaming: each old id maps to one new id and back. Checked on sorted
         * (old, new) pairs, so that memory follows the index count, not the largest value. */
        uint64_t* pairs = malloc((n ? n : 1) * sizeof *pairs);
        if (!pairs)
            abort();
        for (int side = 0; side < 2; ++side) {
            for (size_t i = 0; i < n; ++i)
                pairs[i] = side ? (uint64_t)tri2[i] << 32 | tri[i] : (uint64_t)tri[i] << 32 | tri2[i];
            qsort(pairs, n, sizeof *pairs, compare_u64);
            for (size_t i = 1; i < n; ++i)
                if (pairs[i] >> 32 == pairs[i - 1] >> 32 && pairs[i] != pairs[i - 1])
                    abort(); /* a vertex renamed two ways: a triangle changed */
        }
        free(pairs);
        for (size_t i = 0; map && i < n; ++i)
            if (tri[i] >= map_count || map[tri[i]] != tri2[i])
                abort(); /* the map is not the numbering written */
        if (!reorder)
            for (size_t i = 0; i < n; ++i)
                if (tri[i] != tri2[i] && m.topology == GC_TRIANGLE_LIST && strcmp(ext, "obj") != 0)
                    abort(); /* without renumbering, index values are kept */
        free(tri2);
        gc_mesh_free(&back);
        remove(out_path);
    }
    free(map);
    free(tri);
    gc_mesh_free(&m);
    return 0;
}
