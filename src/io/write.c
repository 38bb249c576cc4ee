// SPDX-License-Identifier: MIT
/* Writing a reordered mesh in its input's format (gc_mesh_write): the format by
 * extension, index-only formats here, mesh formats in their readers' files. Output goes
 * through gc_atomic_file (output.c): a temporary made with mkstemp in the target's
 * folder, renamed only when complete, so a failure never leaves a partial file nor harms
 * an existing one; an output that is one of the input's files is refused first. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


/* The format family of a path: text, u16, u32, obj, ply, or other (assimp); standard
 * input ("-", "FORMAT:-") as gc_stdin_format names it, "-" being text. */
static const char* family(const char* path)
{
    const char* stdin_format = gc_stdin_format(path);
    if (stdin_format)
        return !*stdin_format || !strcmp(stdin_format, "txt") ? "text" : stdin_format;
    if (gc_has_extension(path, "txt") || gc_has_extension(path, "idx"))
        return "text";
    if (gc_has_extension(path, "u16"))
        return "u16";
    if (gc_has_extension(path, "u32"))
        return "u32";
    if (gc_has_extension(path, "obj"))
        return "obj";
    if (gc_has_extension(path, "ply"))
        return "ply";
    const char* dot = strrchr(path, '.');
    return dot ? dot + 1 : "";
}

static gc_status write_text(const uint32_t* idx, size_t n, FILE* f)
{
    for (size_t i = 0; i + 2 < n; i += 3)
        fprintf(f, "%u %u %u\n", idx[i], idx[i + 1], idx[i + 2]);
    for (size_t i = n - n % 3; i < n; ++i)
        fprintf(f, "%u\n", idx[i]);
    return GC_OK;
}

static gc_status write_raw(const uint32_t* idx, size_t n, int bits, FILE* f, const char* path, gc_error* err)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned char b[4] = {(unsigned char)idx[i], (unsigned char)(idx[i] >> 8), (unsigned char)(idx[i] >> 16),
                              (unsigned char)(idx[i] >> 24)};
        if (bits == 16 && idx[i] > 0xFFFF)
            return gc_fail(err, GC_ERR_DATA, "%s: index %zu is %u, too large for 16 bits", path, i, idx[i]);
        fwrite(b, 1, (size_t)bits / 8, f);
    }
    return GC_OK;
}

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* For raw, text and PLY output: the indices renumbered by first use (*out), and the
 * order of the used vertices: (*order)[new] = old value, *used of them; with old_to_new,
 * also the map (*old_to_new)[old] = new (UINT32_MAX: unused), largest index + 1 long,
 * which only dense values have (see dense_values). Memory follows
 * the index count, never the largest value (a 24-byte file may hold 4000000000): values
 * far above the count are first replaced by their rank among the distinct values
 * (sorted, 4 bytes per index), so that the first-use table is as long as the distinct
 * values, not as the largest one. At most 16 bytes per index, the output included, for
 * first use; the fetch numbering (`fetch`) takes about 4 bytes an index and 6 a vertex more
 * while it runs, before the order is allocated (about 10 in all for a closed mesh, 18 where
 * every index is a vertex of its own): below the optimizer's own peak either way. */
/* The largest index value + 1 (0 for no indices) in *domain; true when the values are
 * dense enough for tables indexed by value (gc_too_sparse), every id in 32 bits (the
 * value 0xFFFFFFFF goes the sparse way too). */
static bool dense_values(const uint32_t* indices, size_t n, uint64_t* domain)
{
    uint64_t max = 0;
    for (size_t i = 0; i < n; ++i)
        max = indices[i] > max ? indices[i] : max;
    *domain = n ? max + 1 : 0;
    return !(gc_too_sparse(max + 1, n) || max == UINT32_MAX);
}

static gc_status renumber(const uint32_t* indices, size_t n, const gc_fetch_spec* fetch, uint32_t** out,
                          uint32_t** order, size_t* used, uint32_t** old_to_new, gc_error* err)
{
    *out = *order = NULL;
    *used = 0;
    uint64_t domain64 = 0;
    bool dense = dense_values(indices, n, &domain64);
    if (old_to_new && !dense)
        return gc_fail(err, GC_ERR_LIMIT, "index values up to %llu are too sparse for a vertex map",
                       (unsigned long long)(domain64 - 1));
    uint32_t* values = NULL; /* rank -> value when sparse, else NULL (the identity) */
    uint32_t* remap = NULL;
    size_t domain = (size_t)domain64;
    gc_status s = GC_OK;
    *out = gc_alloc_array(n, sizeof(uint32_t), false);
    if (!*out)
        s = gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering the vertices of %zu indices", n);
    if (!s && !dense) {
        values = gc_alloc_array(n, sizeof(uint32_t), false);
        if (!values) {
            s = gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering the vertices of %zu indices", n);
        } else {
            memcpy(values, indices, n * sizeof(uint32_t));
            qsort(values, n, sizeof(uint32_t), compare_u32);
            size_t distinct = 0;
            for (size_t i = 0; i < n; ++i)
                if (distinct == 0 || values[distinct - 1] != values[i])
                    values[distinct++] = values[i];
            for (size_t i = 0; i < n; ++i) {
                size_t lo = 0, hi = distinct; /* the rank of indices[i] */
                while (hi - lo > 1) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (values[mid] <= indices[i])
                        lo = mid;
                    else
                        hi = mid;
                }
                (*out)[i] = (uint32_t)lo;
            }
            domain = distinct;
        }
    } else if (!s) {
        memcpy(*out, indices, n * sizeof(uint32_t));
    }
    if (!s) {
        remap = gc_alloc_array(domain, sizeof(uint32_t), false);
        if (!remap)
            s = gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering %zu vertices", domain);
    }
    uint32_t count = 0;
    /* first use, or its lines placed for a fetch model (gc_reorder_vertices_fetch: about 4
     * bytes an index more, before the order is allocated) */
    if (!s)
        s = fetch ? gc_reorder_vertices_fetch(*out, n, (uint32_t)domain, fetch, NULL, remap, &count, err)
                  : gc_reorder_vertices(*out, n, (uint32_t)domain, remap, &count, err);
    if (!s) {
        /* at most one entry per distinct value: no more than the indices */
        *order = gc_alloc_array(domain < n ? domain : n, sizeof(uint32_t), false);
        if (!*order)
            s = gc_fail(err, GC_ERR_NOMEM, "out of memory renumbering %zu vertices", domain);
    }
    if (!s) {
        /* remap[old] = new (or none): invert it into the order, old as a value */
        for (size_t r = 0; r < domain; ++r)
            if (remap[r] != UINT32_MAX)
                (*order)[remap[r]] = values ? values[r] : (uint32_t)r;
        *used = count;
        if (old_to_new) { /* dense: remap is indexed by the old value itself */
            *old_to_new = remap;
            remap = NULL;
        }
    }
    free(values);
    free(remap);
    if (s) {
        free(*out), free(*order);
        *out = *order = NULL;
    }
    return s;
}

/* The output's other files: assimp's glTF exporter writes a .gltf's buffer beside it as
 * the output's name with its last extension replaced by .bin. */
static char* gltf_buffer_name(const char* out_path)
{
    const char* dot = strrchr(out_path, '.');
    const char* slash = strrchr(out_path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - out_path) : strlen(out_path);
    char* bin = malloc(stem + 5);
    if (bin) {
        memcpy(bin, out_path, stem);
        memcpy(bin + stem, ".bin", 5);
    }
    return bin;
}

int gc_mesh_write_reencodes(const char* in_path)
{
    if (!in_path || !strcmp(in_path, "-"))
        return 0;
    const char* f = family(in_path);
    static const char* const own[] = {"text", "u16", "u32", "obj", "ply", "gltf", "glb"};
    for (size_t i = 0; i < sizeof own / sizeof *own; ++i)
        if (!strcasecmp(f, own[i]))
            return 0;
    return 1;
}

/* gc_output_check against every file of the inputs (here, beside gc_mesh_input_files'
 * other user, so that output.c needs nothing of the formats). */
gc_status gc_output_check_all(const char* path, const char* const* inputs, size_t input_count, gc_error* err)
{
    char** all = NULL;
    size_t count = 0;
    gc_status s = GC_OK;
    for (size_t i = 0; i < input_count && !s; ++i) {
        char** files = NULL;
        size_t n = 0;
        if (!inputs[i] || (s = gc_mesh_input_files(inputs[i], &files, &n, err)))
            continue;
        if (n == 0)
            continue; /* standard input */
        char** grown = realloc(all, (count + n) * sizeof *all);
        if (!grown) {
            gc_free_names(files, n);
            s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path ? path : "");
            break;
        }
        all = grown;
        memcpy(all + count, files, n * sizeof *files);
        count += n;
        free(files);
    }
    if (!s)
        s = gc_output_check(path, (const char* const*)all, count, err);
    gc_free_names(all, count);
    return s;
}

gc_status gc_mesh_write_check(const char* in_path, const char* out_path, gc_error* err)
{
    if (!in_path || !out_path || !*out_path)
        return gc_fail(err, GC_ERR_USAGE, "no output file given");
    if (gc_stdin_format(out_path))
        return gc_fail(err, GC_ERR_USAGE,
                       "%s: names standard input, not an output file (write a file; the gpucache tool's -o - "
                       "writes one and copies it to standard output)",
                       out_path);
    const char* fin = family(in_path);
    const char* fout = family(out_path);
    if (strcasecmp(fin, fout) != 0)
        return gc_fail(err, GC_ERR_USAGE, "%s: the output keeps the input's format (%s), not %s", out_path, fin,
                       fout);
    char** inputs = NULL;
    size_t input_count = 0;
    gc_status s = gc_mesh_input_files(in_path, &inputs, &input_count, err);
    if (s)
        return s;
    s = gc_output_check(out_path, (const char* const*)inputs, input_count, err);
    if (!s && gc_has_extension(out_path, "gltf")) {
        char* bin = gltf_buffer_name(out_path);
        s = bin ? gc_output_check(bin, (const char* const*)inputs, input_count, err)
                : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", out_path);
        if (s && bin && err) {
            /* say where the .bin comes from: the user named only the .gltf */
            char why[sizeof err->message];
            memcpy(why, err->message, sizeof why);
            s = gc_fail(err, s, "%.150s: buffer file %.300s", out_path, why);
        }
        free(bin);
    }
    gc_free_names(inputs, input_count);
    return s;
}

gc_status gc_mesh_write(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                        size_t index_count, int reorder_vertices, const char* out_path, gc_error* err)
{
    return gc_mesh_write_remap(in_path, options, indices, index_count, reorder_vertices, out_path, NULL, NULL, err);
}

gc_status gc_mesh_remap_check(const char* in_path, int reorder_vertices, gc_error* err)
{
    if (!in_path)
        return gc_fail(err, GC_ERR_USAGE, "no input file given");
    const char* fin = family(in_path);
    if (!reorder_vertices)
        return gc_fail(err, GC_ERR_USAGE, "a vertex map comes only with renumbered vertices (--reorder-vertices)");
    if (strcmp(fin, "text") && strcmp(fin, "u16") && strcmp(fin, "u32"))
        return gc_fail(err, GC_ERR_USAGE,
                       "%s: a vertex map is written for index buffers (.txt, .idx, .u16, .u32), not for .%s files",
                       in_path, fin);
    return GC_OK;
}

gc_status gc_mesh_write_remap(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                              size_t index_count, int reorder_vertices, const char* out_path, uint32_t** remap_out,
                              size_t* remap_count, gc_error* err)
{
    return gc_mesh_write_numbered(in_path, options, indices, index_count, reorder_vertices, NULL, out_path, remap_out,
                                  remap_count, err);
}

gc_status gc_mesh_write_numbered(const char* in_path, const gc_load_options* options, const uint32_t* indices,
                                 size_t index_count, int reorder_vertices, const gc_fetch_spec* fetch,
                                 const char* out_path, uint32_t** remap_out, size_t* remap_count, gc_error* err)
{
    if (fetch && !fetch->every_reference)
        return gc_fail(err, GC_ERR_USAGE, "the vertices are numbered for a meshopt:BYTES fetch spec");
    if (remap_out)
        *remap_out = NULL;
    if (remap_count)
        *remap_count = 0;
    gc_status s = gc_mesh_write_check(in_path, out_path, err);
    if (s)
        return s;
    uint64_t domain = 0;
    if (remap_out) {
        if (!remap_count)
            return gc_fail(err, GC_ERR_USAGE, "a vertex map needs remap_count");
        if ((s = gc_mesh_remap_check(in_path, reorder_vertices, err)))
            return s;
        if (!dense_values(indices, index_count, &domain))
            return gc_fail(err, GC_ERR_LIMIT,
                           "%s: index values up to %llu in %zu indices: a vertex map with one entry per value "
                           "would be longer than 2 x indices + 65536",
                           in_path, (unsigned long long)(domain - 1), index_count);
    }
    const char* fin = family(in_path);
    uint32_t* renumbered = NULL;
    uint32_t* remap = NULL; /* PLY: the used vertices' order, remap[new] = old (see renumber) */
    uint32_t* old_to_new = NULL; /* remap_out: (old_to_new)[old] = new */
    size_t used = 0;
    bool gltf = !strcasecmp(fin, "gltf") || !strcasecmp(fin, "glb");
    bool assimp = strcmp(fin, "text") && strcmp(fin, "u16") && strcmp(fin, "u32") && strcmp(fin, "obj") &&
                  strcmp(fin, "ply") && !gltf;
    if (reorder_vertices && !assimp && !gltf && strcmp(fin, "obj")) {
        if ((s = renumber(indices, index_count, fetch, &renumbered, &remap, &used, remap_out ? &old_to_new : NULL,
                          err)))
            return s;
        indices = renumbered;
    }
    if (gltf) {
        /* the .gltf/.glb writer renames its files itself, the referenced ones first */
        s = gc_rewrite_gltf(in_path, options, indices, index_count, reorder_vertices, fetch, out_path, err);
    } else if (assimp) {
        /* assimp may write several files (a .gltf and its .bin): it creates each through
         * gc_atomic_file itself and renames them all when the export succeeded. */
        s = gc_rewrite_assimp(in_path, indices, index_count, reorder_vertices, out_path, err);
    } else {
        gc_atomic_file af;
        s = gc_atomic_open(&af, out_path, err);
        if (s) {
            free(renumbered);
            free(remap);
            free(old_to_new);
            return s;
        }
        FILE* f = af.file;
        gc_output out = {f, out_path};
        if (!strcmp(fin, "text"))
            s = write_text(indices, index_count, f);
        else if (!strcmp(fin, "u16"))
            s = write_raw(indices, index_count, 16, f, out_path, err);
        else if (!strcmp(fin, "u32"))
            s = write_raw(indices, index_count, 32, f, out_path, err);
        else if (!strcmp(fin, "obj"))
            s = gc_rewrite_obj(in_path, options, indices, index_count, &out, err);
        else
            s = gc_rewrite_ply(in_path, indices, index_count, remap, used, &out, err);
        /* the commit checks every write (ferror), the flush, the sync and the close */
        if (s)
            gc_atomic_abort(&af);
        else
            s = gc_atomic_commit(&af, err);
    }
    free(renumbered);
    free(remap);
    if (!s && remap_out) { /* the very map the output's numbering came from */
        *remap_out = old_to_new;
        *remap_count = (size_t)domain;
        old_to_new = NULL;
    }
    free(old_to_new);
    return s;
}
