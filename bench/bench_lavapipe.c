// SPDX-License-Identifier: MIT
/* The lavapipe table of issue 16: on every corpus mesh of 10,000 triangles or more, and on
 * a shuffled copy of each, the vertex shader invocations lavapipe (Mesa's Vulkan driver on
 * the CPU) runs for
 *   - meshoptimizer's order with meshoptimizer's vertex-fetch renumbering
 *     (meshopt_optimizeVertexCache, then meshopt_optimizeVertexFetchRemap and
 *     meshopt_remapIndexBuffer), and
 *   - `gpucache optimize -a auto -m llvmpipe --reorder-vertices IN.u32 -o OUT.u32`,
 * each measured by `gpucache probe --json` (pipeline statistics) and predicted by the
 * llvmpipe model (gc_analyze), with a lower bound beside them.
 *
 * usage: bench_lavapipe [--gpucache PATH] [--min-triangles N] [CORPUS_DIR]
 *   PATH: the gpucache binary (default: `gpucache` beside this program or one folder up,
 *   as in a build folder: build/bench/bench_lavapipe and build/gpucache).
 *   CORPUS_DIR: default ../shared/corpus; every .obj and .ply in it is read.
 * Exit status: 0 once the table is printed (whether or not the rows meet -3%), 77 when
 * there is no lavapipe Vulkan device, 1 on any failure (a command failing, a file not
 * read back, the model disagreeing with the device).
 *
 * The buffers go through raw .u32 files in a private folder made with mkdtemp and removed
 * at the end; gpucache is run with posix_spawn and an argument vector (no shell).
 *
 * The lower bound ("lattice bound (valence-6 disk patches)"). lavapipe draws a triangle
 * list in segments of 1023 indices (1024 trimmed to whole triangles: 341 triangles), and
 * clears its 256-entry fetch table at every segment (docs/models/llvmpipe.md), so a
 * segment costs at least the number of distinct vertices of its triangles. A set of t
 * triangles forming a topological disk with b boundary edges has, by Euler's formula
 * (V - E + t = 1 and 2E = 3t + b), V = 1 + (t + b) / 2 vertices. On a regular valence-6
 * triangulation the hexagon has the shortest boundary for its area (t = 6s^2 triangles,
 * b = 6s edges), so b >= sqrt(6t) roughly (equal for the hexagons) and
 *     f(t) = 1 + (t + sqrt(6 t)) / 2,   f(341) = 194.116...
 * With T triangles, F = floor(T / 341) full segments and L = T mod 341 left over:
 *     bound = max(V_mesh, ceil(F * f(341) + f(L)))   (f(0) = 0),
 * V_mesh being the distinct vertices of the mesh (each is run at least once). This is not
 * a strict bound for irregular meshes: a region of positive curvature (valence-5 vertices)
 * has a shorter boundary than the lattice hexagon, a closed component (b = 0) or a patch
 * that is not a disk has fewer vertices. It says how much room the -3% target leaves. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "gpucache/gpucache.h"

#include <meshoptimizer.h>

#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#define SEGMENT_TRIANGLES 341u /* 1024 indices trimmed to whole triangles: 1023 */
#define TRIANGLE_SEED 16u      /* the shuffled copies: triangle order */
#define VERTEX_SEED 1616u      /* the shuffled copies: vertex numbering */
#define MAX_MESHES 64

static char tmpdir[PATH_MAX];
static char gpucache_bin[PATH_MAX];
static char device_arg[32];

static void cleanup(void)
{
    if (!tmpdir[0])
        return;
    DIR* d = opendir(tmpdir);
    if (d) {
        struct dirent* e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[PATH_MAX + 256];
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(tmpdir);
    tmpdir[0] = 0;
}

static void die(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench_lavapipe: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    cleanup();
    exit(1);
}

static void* xmalloc(size_t n)
{
    void* p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

static void tmp_path(char* out, size_t size, const char* name)
{
    if ((size_t)snprintf(out, size, "%s/%s", tmpdir, name) >= size)
        die("temporary path too long");
}

/* Reads a whole file (NUL-terminated); *size gets its length. */
static char* read_all(const char* path, size_t* size)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        die("%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char* buf = xmalloc(cap + 1);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            char* nb = realloc(buf, cap + 1);
            if (!nb)
                die("out of memory reading %s", path);
            buf = nb;
        }
    }
    if (ferror(f))
        die("%s: read error", path);
    fclose(f);
    buf[n] = 0;
    if (size)
        *size = n;
    return buf;
}

static void write_u32(const char* path, const uint32_t* idx, size_t n)
{
    FILE* f = fopen(path, "wb");
    if (!f)
        die("%s: %s", path, strerror(errno));
    if (fwrite(idx, sizeof *idx, n, f) != n || fclose(f) != 0)
        die("%s: write error", path);
}

/* Reads a raw .u32 file that must hold exactly n indices. */
static uint32_t* read_u32(const char* path, size_t n)
{
    size_t size;
    char* buf = read_all(path, &size);
    if (size != n * sizeof(uint32_t))
        die("%s: %zu bytes, expected %zu", path, size, n * sizeof(uint32_t));
    uint32_t* idx = xmalloc(n * sizeof *idx);
    memcpy(idx, buf, size);
    free(buf);
    return idx;
}

/* Runs gpucache with `args` (NULL-terminated, argv[0] left out) through posix_spawn, its
 * standard output into the temporary out.txt and its error output into err.txt. Returns
 * its exit status, or -1 if it did not exit normally. */
static int run_gpucache(const char* const* args, int quiet)
{
    char out_path[PATH_MAX + 16], err_path[PATH_MAX + 16];
    tmp_path(out_path, sizeof out_path, "out.txt");
    tmp_path(err_path, sizeof err_path, "err.txt");
    char* argv[16];
    size_t argc = 0;
    argv[argc++] = gpucache_bin;
    for (size_t i = 0; args[i]; ++i) {
        if (argc == 15)
            die("too many arguments");
        argv[argc++] = (char*)(uintptr_t)args[i];
    }
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0 ||
        posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0) != 0 ||
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0 ||
        posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0)
        die("posix_spawn_file_actions: out of memory");
    pid_t pid;
    int rc = posix_spawn(&pid, gpucache_bin, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        die("cannot run %s: %s", gpucache_bin, strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code != 0 && !quiet) {
        char* err = read_all(err_path, NULL);
        fprintf(stderr, "bench_lavapipe: gpucache");
        for (size_t i = 1; i < argc; ++i)
            fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, ": exit status %d\n%s", code, err);
        free(err);
    }
    return code;
}

/* The text of the last command's standard output. */
static char* last_output(void)
{
    char p[PATH_MAX + 16];
    tmp_path(p, sizeof p, "out.txt");
    return read_all(p, NULL);
}

/* A number after "key": in gpucache probe's JSON object. */
static uint64_t json_u64(const char* json, const char* key, const char* what)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char* p = strstr(json, pat);
    if (!p)
        die("%s: no \"%s\" in the probe's output: %s", what, key, json);
    p += strlen(pat);
    while (*p == ' ')
        ++p;
    char* end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || errno)
        die("%s: bad \"%s\" in the probe's output: %s", what, key, json);
    return (uint64_t)v;
}

/* Vertex shader invocations of a .u32 triangle list on lavapipe (pipeline statistics). */
static uint64_t probe(const char* file, size_t index_count, char* device_name, size_t name_size)
{
    const char* args[] = {"probe", "--device", device_arg, "--json", "-t", "triangle-list", file, NULL};
    if (run_gpucache(args, 0) != 0)
        die("probe of %s failed", file);
    char* json = last_output();
    if (!strstr(json, "\"statistics_agree\": true"))
        die("%s: the pipeline statistics disagree with the per-vertex counters: %s", file, json);
    if (json_u64(json, "indices", file) != index_count)
        die("%s: the probe drew %llu indices, expected %zu", file,
            (unsigned long long)json_u64(json, "indices", file), index_count);
    uint64_t inv = json_u64(json, "invocations", file);
    const char* d = strstr(json, "\"device\": \"");
    if (d && device_name && !device_name[0]) {
        d += strlen("\"device\": \"");
        size_t k = 0;
        while (d[k] && d[k] != '"' && k + 1 < name_size) {
            device_name[k] = d[k];
            ++k;
        }
        device_name[k] = 0;
    }
    free(json);
    return inv;
}

static gc_model llvmpipe_model;

static gc_stats model_stats(const uint32_t* idx, size_t n)
{
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    if (gc_analyze(&llvmpipe_model, &d, NULL, &st, &err))
        die("gc_analyze: %s", err.message);
    return st;
}

static uint64_t splitmix64(uint64_t* s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The shuffled copy: triangles in a seeded random order, vertices renumbered by a seeded
 * random permutation of 0..vertex_count-1. */
static uint32_t* shuffled_copy(const uint32_t* idx, size_t n, uint32_t vertex_count)
{
    uint32_t* s = xmalloc(n * sizeof *s);
    memcpy(s, idx, n * sizeof *s);
    gc_shuffle_triangles(s, n, TRIANGLE_SEED);
    uint32_t* perm = xmalloc((size_t)vertex_count * sizeof *perm);
    for (uint32_t v = 0; v < vertex_count; ++v)
        perm[v] = v;
    uint64_t state = VERTEX_SEED;
    for (uint32_t i = vertex_count; i > 1; --i) {
        uint32_t j = (uint32_t)(splitmix64(&state) % i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; ++i)
        s[i] = perm[s[i]];
    free(perm);
    return s;
}

/* f(t) = 1 + (t + sqrt(6t)) / 2: the vertices of a t-triangle hexagon-like disk patch of
 * a valence-6 triangulation (see the top of this file). */
static double patch_vertices(uint64_t t)
{
    return t ? 1.0 + 0.5 * ((double)t + sqrt(6.0 * (double)t)) : 0.0;
}

static uint64_t lattice_bound(uint64_t triangles, uint64_t vertices)
{
    uint64_t full = triangles / SEGMENT_TRIANGLES, last = triangles % SEGMENT_TRIANGLES;
    uint64_t b = (uint64_t)ceil((double)full * patch_vertices(SEGMENT_TRIANGLES) + patch_vertices(last));
    return b > vertices ? b : vertices;
}

typedef struct row {
    char name[96];
    uint64_t triangles, vertices;
    uint64_t meshopt_dev, meshopt_model, auto_dev, auto_model;
    uint64_t bound;
    double opt_seconds; /* gpucache optimize's wall time, the process included */
} row;

static void measure(row* r, const uint32_t* idx, size_t n, char* device_name, size_t name_size)
{
    char in_path[PATH_MAX + 16], mo_path[PATH_MAX + 16], auto_path[PATH_MAX + 16];
    tmp_path(in_path, sizeof in_path, "in.u32");
    tmp_path(mo_path, sizeof mo_path, "meshopt.u32");
    tmp_path(auto_path, sizeof auto_path, "auto.u32");

    uint32_t max = 0;
    for (size_t i = 0; i < n; ++i)
        max = idx[i] > max ? idx[i] : max;
    const size_t vertex_count = (size_t)max + 1;
    r->triangles = n / 3;
    r->vertices = model_stats(idx, n).vertices;
    r->bound = lattice_bound(r->triangles, r->vertices);

    /* a. the input */
    write_u32(in_path, idx, n);

    /* b. meshoptimizer: its order, then its vertex-fetch renumbering */
    uint32_t* vc = xmalloc(n * sizeof *vc);
    uint32_t* mo = xmalloc(n * sizeof *mo);
    unsigned int* remap = xmalloc(vertex_count * sizeof *remap);
    meshopt_optimizeVertexCache(vc, idx, n, vertex_count);
    size_t unique = meshopt_optimizeVertexFetchRemap(remap, vc, n, vertex_count);
    meshopt_remapIndexBuffer(mo, vc, n, remap);
    if (unique != r->vertices)
        die("%s: meshopt_optimizeVertexFetchRemap kept %zu vertices, the mesh has %llu", r->name, unique,
            (unsigned long long)r->vertices);
    write_u32(mo_path, mo, n);
    free(remap);
    free(vc);

    /* c. gpucache optimize -a auto -m llvmpipe --reorder-vertices */
    const char* args[] = {"optimize", "-a", "auto", "-m", "llvmpipe", "--reorder-vertices", in_path, "-o", auto_path,
                          NULL};
    double t0 = now();
    if (run_gpucache(args, 0) != 0)
        die("%s: gpucache optimize failed", r->name);
    r->opt_seconds = now() - t0;
    uint32_t* au = read_u32(auto_path, n);

    /* d. lavapipe, and the llvmpipe model on the very same buffers */
    r->meshopt_dev = probe(mo_path, n, device_name, name_size);
    r->auto_dev = probe(auto_path, n, device_name, name_size);
    gc_stats ms = model_stats(mo, n), as = model_stats(au, n);
    r->meshopt_model = ms.invocations;
    r->auto_model = as.invocations;
    if (ms.vertices != r->vertices || as.vertices != r->vertices)
        die("%s: an optimized buffer has %llu / %llu distinct vertices, the input %llu", r->name,
            (unsigned long long)ms.vertices, (unsigned long long)as.vertices, (unsigned long long)r->vertices);
    free(mo);
    free(au);
}

static int compare_names(const void* a, const void* b)
{
    return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static int has_suffix(const char* s, const char* suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* gpucache beside this program, or one folder up (build/bench/ and build/). */
static int find_gpucache(const char* argv0)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0)
        self[n] = 0;
    else if (!realpath(argv0, self))
        return 0;
    char* slash = strrchr(self, '/');
    if (!slash)
        return 0;
    *slash = 0;
    static const char* const rel[] = {"/gpucache", "/../gpucache"};
    for (int i = 0; i < 2; ++i) {
        char cand[PATH_MAX + 16];
        snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
        if (access(cand, X_OK) == 0 && realpath(cand, gpucache_bin))
            return 1;
    }
    return 0;
}

int main(int argc, char** argv)
{
    const double t_start = now();
    const char* corpus = "../shared/corpus";
    uint64_t min_triangles = 10000;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--gpucache") == 0 && i + 1 < argc) {
            if (!realpath(argv[++i], gpucache_bin))
                die("%s: %s", argv[i], strerror(errno));
        } else if (strcmp(argv[i], "--min-triangles") == 0 && i + 1 < argc) {
            min_triangles = strtoull(argv[++i], NULL, 10);
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_lavapipe [--gpucache PATH] [--min-triangles N] [CORPUS_DIR]\n");
            return 2;
        } else {
            corpus = argv[i];
        }
    }
    if (!gpucache_bin[0] && !find_gpucache(argv[0]))
        die("no gpucache binary beside this program; pass --gpucache PATH");
    gc_error err;
    if (gc_model_parse("llvmpipe", &llvmpipe_model, &err))
        die("%s", err.message);

    const char* tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/bench_lavapipe-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        tmpdir[0] = 0;
        die("mkdtemp: %s", strerror(errno));
    }

    /* The lavapipe device, or skip. */
    const char* list_args[] = {"probe", "--list", NULL};
    int list_rc = run_gpucache(list_args, 1);
    char* list = last_output();
    const char* line = list_rc == 0 ? strstr(list, "llvmpipe") : NULL;
    if (!line) {
        char err_path[PATH_MAX + 16];
        tmp_path(err_path, sizeof err_path, "err.txt");
        char* why = read_all(err_path, NULL);
        /* gpucache's own message, or the devices it found */
        fprintf(stderr, "bench_lavapipe: SKIPPED: no lavapipe Vulkan device (gpucache probe --list: exit %d)\n%s",
                list_rc, list_rc ? why : list);
        free(why);
        free(list);
        cleanup();
        return 77;
    }
    while (line > list && line[-1] != '\n')
        --line;
    snprintf(device_arg, sizeof device_arg, "%lu", strtoul(line, NULL, 10));
    free(list);

    /* The corpus meshes, by name. */
    DIR* dir = opendir(corpus);
    if (!dir)
        die("%s: %s", corpus, strerror(errno));
    char* names[MAX_MESHES];
    int name_count = 0;
    struct dirent* e;
    while ((e = readdir(dir)) != NULL && name_count < MAX_MESHES) {
        if (has_suffix(e->d_name, ".obj") || has_suffix(e->d_name, ".ply")) {
            names[name_count] = xmalloc(strlen(e->d_name) + 1);
            strcpy(names[name_count++], e->d_name);
        }
    }
    closedir(dir);
    qsort(names, (size_t)name_count, sizeof *names, compare_names);
    if (name_count == 0)
        die("%s: no .obj or .ply meshes", corpus);

    static row rows[2 * MAX_MESHES];
    int row_count = 0;
    char device_name[256] = "";
    char skipped[2048] = "";
    for (int m = 0; m < name_count; ++m) {
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", corpus, names[m]) >= sizeof path)
            die("%s: path too long", names[m]);
        gc_mesh gm;
        gc_load_options lo = {0};
        if (gc_mesh_load(path, &lo, &gm, &err))
            die("%s", err.message);
        gc_draw d = {gm.indices, gm.index_count, gm.topology, gm.restart_enabled, gm.restart_value};
        uint64_t prims = 0;
        if (gc_draw_validate(&d, path, &prims, &err))
            die("%s", err.message);
        size_t cap = (size_t)prims * 6, n = 0;
        uint32_t* tri = xmalloc(cap * sizeof *tri);
        if (gc_draw_triangles(&d, tri, cap, &n, &err))
            die("%s", err.message);
        gc_mesh_free(&gm);
        if (n / 3 < min_triangles) {
            size_t len = strlen(skipped);
            snprintf(skipped + len, sizeof skipped - len, "%s%s (%zu)", len ? ", " : "", names[m], n / 3);
            free(tri);
            continue;
        }
        uint32_t max = 0;
        for (size_t i = 0; i < n; ++i)
            max = tri[i] > max ? tri[i] : max;
        for (int variant = 0; variant < 2; ++variant) {
            row* r = &rows[row_count++];
            snprintf(r->name, sizeof r->name, "%s%s", names[m], variant ? " (shuffled)" : "");
            uint32_t* in = variant ? shuffled_copy(tri, n, max + 1) : tri;
            measure(r, in, n, device_name, sizeof device_name);
            fprintf(stderr, "%s: meshopt %llu, auto %llu (optimize %.2f s)\n", r->name,
                    (unsigned long long)r->meshopt_dev, (unsigned long long)r->auto_dev, r->opt_seconds);
            if (variant)
                free(in);
        }
        free(tri);
    }
    double total = now() - t_start;
    for (int m = 0; m < name_count; ++m)
        free(names[m]);

    printf("lavapipe: %s (gpucache probe --device %s); %s\n\n", device_name[0] ? device_name : "-", device_arg,
           gpucache_bin);
    printf("meshopt = meshopt_optimizeVertexCache + meshopt_optimizeVertexFetchRemap; auto = gpucache optimize -a "
           "auto -m llvmpipe --reorder-vertices\n");
    printf("invocations measured on lavapipe (pipeline statistics), model = gc_analyze llvmpipe on the same buffer\n");
    printf("bound = lattice bound (valence-6 disk patches): max(vertices, ceil(F * f(341) + f(L))), f(t) = 1 + (t + "
           "sqrt(6t))/2,\n        F full segments of 341 triangles, L left over; not strict for irregular meshes\n\n");
    printf("| mesh | triangles | vertices | meshopt | meshopt (model) | auto | auto (model) | change | -3%% | "
           "meshopt ATVR | auto ATVR | -3%% target | lattice bound | bound ATVR |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|---:|\n");
    int meets = 0, disagree = 0;
    for (int i = 0; i < row_count; ++i) {
        const row* r = &rows[i];
        double change = 100.0 * ((double)r->auto_dev - (double)r->meshopt_dev) / (double)r->meshopt_dev;
        int ok = 100 * r->auto_dev <= 97 * r->meshopt_dev; /* at least 3% fewer */
        meets += ok;
        disagree += (r->meshopt_dev != r->meshopt_model) + (r->auto_dev != r->auto_model);
        double v = (double)r->vertices;
        printf("| %s | %llu | %llu | %llu | %llu%s | %llu | %llu%s | %+.2f%% | %s | %.4f | %.4f | %llu | %llu | %.4f "
               "|\n",
               r->name, (unsigned long long)r->triangles, (unsigned long long)r->vertices,
               (unsigned long long)r->meshopt_dev, (unsigned long long)r->meshopt_model,
               r->meshopt_model == r->meshopt_dev ? "" : " (differs)", (unsigned long long)r->auto_dev,
               (unsigned long long)r->auto_model, r->auto_model == r->auto_dev ? "" : " (differs)", change,
               ok ? "yes" : "no", (double)r->meshopt_dev / v, (double)r->auto_dev / v,
               (unsigned long long)(97 * r->meshopt_dev / 100), (unsigned long long)r->bound,
               (double)r->bound / v);
    }
    printf("\nrows with at least 3%% fewer invocations than meshopt (auto <= 97%% of meshopt): %d of %d\n", meets,
           row_count);
    printf("model equals device: %d of %d buffers\n", 2 * row_count - disagree, 2 * row_count);
    if (skipped[0])
        printf("left out (fewer than %llu triangles): %s\n", (unsigned long long)min_triangles, skipped);
    printf("seconds: %.1f (the whole run)\n", total);
    cleanup();
    if (disagree) {
        fprintf(stderr, "bench_lavapipe: the llvmpipe model disagrees with lavapipe on %d buffers\n", disagree);
        return 1;
    }
    return 0;
}
