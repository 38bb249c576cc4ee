/* The write path: a mesh (OBJ, PLY or text, picked by the first byte) is loaded, its
 * triangles shuffled within each run by a seeded permutation, written back in its own
 * format (with or without --reorder-vertices, by the second byte), and reloaded. The
 * reloaded triangles must be the shuffled ones in the same order, up to a one-to-one
 * renaming of the vertices (which is all --reorder-vertices may change). A difference,
 * a write that fails on what was read, or a sanitizer report is a finding. */
#include "fuzz_util.h"
#include "gpucache/gpucache.h"

static const char* const formats[] = {"obj", "ply", "txt"};

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
    gc_status written = gc_mesh_write(in_path, &lo, tri, n, reorder, out_path, &err);
    if (written == GC_OK) {
        gc_mesh back;
        if (gc_mesh_load(out_path, &lo, &back, &err) != GC_OK)
            abort(); /* we wrote what we cannot read */
        size_t n2 = 0;
        uint32_t* tri2 = triangles_of(&back, out_path, &n2);
        if (!tri2 || n2 != n)
            abort();
        /* one-to-one renaming: old id -> new id and back, each consistent */
        uint32_t top = 0, top2 = 0;
        for (size_t i = 0; i < n; ++i) {
            top = tri[i] > top ? tri[i] : top;
            top2 = tri2[i] > top2 ? tri2[i] : top2;
        }
        uint32_t* fwd = malloc(((size_t)top + 1) * sizeof *fwd);
        uint32_t* bwd = malloc(((size_t)top2 + 1) * sizeof *bwd);
        if (!fwd || !bwd)
            abort();
        memset(fwd, 0xFF, ((size_t)top + 1) * sizeof *fwd);
        memset(bwd, 0xFF, ((size_t)top2 + 1) * sizeof *bwd);
        for (size_t i = 0; i < n; ++i) {
            if (fwd[tri[i]] == UINT32_MAX && bwd[tri2[i]] == UINT32_MAX) {
                fwd[tri[i]] = tri2[i];
                bwd[tri2[i]] = tri[i];
            } else if (fwd[tri[i]] != tri2[i] || bwd[tri2[i]] != tri[i]) {
                abort(); /* a triangle changed */
            }
        }
        if (!reorder)
            for (size_t i = 0; i < n; ++i)
                if (tri[i] != tri2[i] && m.topology == GC_TRIANGLE_LIST && strcmp(ext, "obj") != 0)
                    abort(); /* without renumbering, index values are kept */
        free(fwd);
        free(bwd);
        free(tri2);
        gc_mesh_free(&back);
        remove(out_path);
    }
    free(tri);
    gc_mesh_free(&m);
    return 0;
}
