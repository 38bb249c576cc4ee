// SPDX-License-Identifier: MIT
/* The glTF write path (issue 34): a .gltf or .glb made of the fuzz bytes is written into a
 * private temporary folder (with a companion file "b.bin" its URIs may name), loaded, its
 * triangles shuffled within each primitive by a seeded permutation, written (with or
 * without vertex reordering) into ANOTHER private folder, and reloaded from there. The
 * reloaded mesh must have the same runs, and each run the same triangles as a multiset of
 * (position, position, position) triples: the writer moves whole triangles and, when it
 * renumbers vertices, whole vertices with all their attributes. A write that fails must
 * leave the output folder empty (no partial set, no temporary, no folder). A difference, a
 * file we wrote and cannot read, or a sanitizer report is a finding.
 *
 * Input layout: byte 0 flags (bit 0: GLB, bit 1: reorder vertices), bytes 1-8 the seed,
 * bytes 9-10 the document's length L (little-endian), then L bytes of document, then the
 * bytes of b.bin. */
#define _XOPEN_SOURCE 700
#include "fuzz_util.h"
#include "gpucache_private.h"

#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>

static int compare_triple(const void* a, const void* b)
{
    return memcmp(a, b, 9 * sizeof(float));
}

static uint64_t next_random(uint64_t* s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int remove_entry(const char* path, const struct stat* st, int flag, struct FTW* ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* A fresh empty private folder under /tmp named after `what` (the previous one removed). */
static const char* fresh_folder(char* dir, size_t size, const char* what)
{
    if (dir[0])
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    snprintf(dir, size, "/tmp/gpucache-fuzz-%s-XXXXXX", what);
    if (!mkdtemp(dir))
        abort();
    return dir;
}

static void write_file(const char* path, const uint8_t* data, size_t size)
{
    FILE* f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
}

/* Each run's triangles as sorted position triples (9 floats each), or NULL when an index
 * has no position (the readers' own targets judge that). */
static float* triples(const uint32_t* tri, size_t n, const size_t* runs, size_t run_count, const float* xyz,
                      size_t vertex_count)
{
    float* t = malloc((n ? n : 1) * 3 * sizeof *t);
    if (!t)
        abort();
    for (size_t i = 0; i < n; ++i) {
        if (tri[i] >= vertex_count) {
            free(t);
            return NULL;
        }
        memcpy(t + 3 * i, xyz + 3 * (size_t)tri[i], 3 * sizeof *t);
    }
    size_t at = 0;
    for (size_t r = 0; r < run_count; ++r) {
        qsort(t + 9 * at, runs[r], 9 * sizeof *t, compare_triple);
        at += runs[r];
    }
    return t;
}

static char in_dir[256], out_dir[256];

/* the last run's folders, at exit */
static void remove_folders(void)
{
    if (in_dir[0])
        nftw(in_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (out_dir[0])
        nftw(out_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static int registered;
    if (!registered++)
        atexit(remove_folders);
    if (size < 11)
        return 0;
    int glb = data[0] & 1, reorder = (data[0] >> 1) & 1;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 8; ++i)
        seed = seed * 131 + data[1 + i];
    seed |= 1;
    size_t doc_length = (size_t)data[9] | (size_t)data[10] << 8;
    if (doc_length > size - 11)
        doc_length = size - 11;
    fresh_folder(in_dir, sizeof in_dir, "gltf-in");
    fresh_folder(out_dir, sizeof out_dir, "gltf-out");
    char in_path[300], bin_path[300], out_path[300];
    snprintf(in_path, sizeof in_path, "%s/m.%s", in_dir, glb ? "glb" : "gltf");
    snprintf(bin_path, sizeof bin_path, "%s/b.bin", in_dir);
    snprintf(out_path, sizeof out_path, "%s/m.%s", out_dir, glb ? "glb" : "gltf");
    write_file(in_path, data + 11, doc_length);
    write_file(bin_path, data + 11 + doc_length, size - 11 - doc_length);

    gc_load_options lo = {0};
    lo.max_indices = 1u << 18;
    gc_mesh m;
    gc_error err;
    if (gc_mesh_load(in_path, &lo, &m, &err) != GC_OK)
        return 0;
    size_t n = m.index_count;
    if (m.topology != GC_TRIANGLE_LIST || n % 3) {
        gc_mesh_free(&m);
        return 0;
    }
    size_t single = n / 3;
    const size_t* runs = m.runs ? m.runs : &single;
    size_t run_count = m.runs ? m.run_count : 1;
    uint32_t* tri = malloc((n ? n : 1) * sizeof *tri);
    if (!tri)
        abort();
    memcpy(tri, m.indices, n * sizeof *tri);
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
    float* xyz = NULL;
    size_t vertex_count = 0;
    int have_positions = gc_mesh_load_positions(in_path, &lo, &xyz, &vertex_count, &err) == GC_OK;

    gc_status written = gc_mesh_write(in_path, &lo, tri, n, reorder, out_path, &err);
    if (written != GC_OK) {
        /* nothing of a failed set is left: no member, temporary or folder */
        DIR* d = opendir(out_dir);
        if (!d)
            abort();
        struct dirent* e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                abort();
        closedir(d);
    } else {
        gc_mesh back;
        if (gc_mesh_load(out_path, &lo, &back, &err) != GC_OK)
            abort(); /* we wrote what we cannot read */
        size_t single2 = back.index_count / 3;
        const size_t* runs2 = back.runs ? back.runs : &single2;
        size_t run_count2 = back.runs ? back.run_count : 1;
        if (back.topology != GC_TRIANGLE_LIST || back.index_count != n || run_count2 != run_count)
            abort(); /* other runs or another triangle count */
        for (size_t r = 0; r < run_count; ++r)
            if (runs2[r] != runs[r])
                abort();
        if (!reorder) /* index values kept: the same triangles, as index triples */
            for (size_t r = 0, k = 0; r < run_count; k += runs[r++] * 3) {
                uint64_t sum = 0, sum2 = 0;
                for (size_t i = k; i < k + runs[r] * 3; ++i)
                    sum += tri[i] * (uint64_t)(i % 3 + 1), sum2 += back.indices[i] * (uint64_t)(i % 3 + 1);
                if (sum != sum2)
                    abort();
            }
        float* xyz2 = NULL;
        size_t vertex_count2 = 0;
        if (have_positions) {
            if (gc_mesh_load_positions(out_path, &lo, &xyz2, &vertex_count2, &err) != GC_OK)
                abort(); /* positions readable before, not after */
            float* a = triples(tri, n, runs, run_count, xyz, vertex_count);
            float* b = triples(back.indices, n, runs, run_count, xyz2, vertex_count2);
            if (a && !b)
                abort(); /* an index of the output has no vertex */
            if (a && memcmp(a, b, n * 3 * sizeof *a) != 0)
                abort(); /* a triangle changed */
            free(a);
            free(b);
        }
        free(xyz2);
        gc_mesh_free(&back);
    }
    free(xyz);
    free(tri);
    gc_mesh_free(&m);
    return 0;
}
