// SPDX-License-Identifier: MIT
/* glTF in, glTF out at scale: generates a GLB of about 1M triangles (a grid of W x H quads,
 * triangles shuffled, POSITION + NORMAL + TEXCOORD_0, u32 indices) in a temporary folder,
 * then, in a fresh process (exec, so that the generator's memory is not counted), times
 * gc_gltf_load, the optimizer on each primitive, gc_gltf_reorder_vertices and
 * gc_gltf_write, against a plain copy of the same file (the disk's speed), and prints the
 * peak resident memory next to the file's size.
 *
 *   bench_gltf [-a tipsify|forsyth|auto] [--quads W H] [--keep]
 */
#define _XOPEN_SOURCE 700
#include "gpucache/gpucache.h"

#include "bench_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void put32(unsigned char* p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}

/* Writes the grid GLB; returns its triangle count. */
static size_t generate(const char* path, uint32_t w, uint32_t h)
{
    size_t nv = (size_t)(w + 1) * (h + 1), nt = (size_t)w * h * 2;
    size_t pos_bytes = nv * 12, nrm_bytes = nv * 12, uv_bytes = nv * 8, idx_bytes = nt * 12;
    size_t bin_len = pos_bytes + nrm_bytes + uv_bytes + idx_bytes;
    unsigned char* bin = malloc(bin_len);
    uint32_t* tri = malloc(nt * 3 * sizeof *tri);
    if (!bin || !tri) {
        fprintf(stderr, "bench_gltf: out of memory generating\n");
        exit(1);
    }
    for (uint32_t y = 0; y <= h; ++y)
        for (uint32_t x = 0; x <= w; ++x) {
            size_t v = (size_t)y * (w + 1) + x;
            float p[3] = {(float)x, (float)y, 0.0f}, n[3] = {0.0f, 0.0f, 1.0f};
            float uv[2] = {(float)x / (float)w, (float)y / (float)h};
            memcpy(bin + v * 12, p, 12);
            memcpy(bin + pos_bytes + v * 12, n, 12);
            memcpy(bin + pos_bytes + nrm_bytes + v * 8, uv, 8);
        }
    size_t t = 0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            uint32_t a = y * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
            uint32_t q[6] = {a, b, c, b, d, c};
            memcpy(tri + 3 * t, q, sizeof q);
            t += 2;
        }
    for (size_t i = nt - 1; i > 0; --i) { /* shuffled triangles: work for the optimizer */
        size_t j = (size_t)(next_random() % (i + 1));
        uint32_t s[3];
        memcpy(s, tri + 3 * i, 12), memcpy(tri + 3 * i, tri + 3 * j, 12), memcpy(tri + 3 * j, s, 12);
    }
    unsigned char* ip = bin + pos_bytes + nrm_bytes + uv_bytes;
    for (size_t i = 0; i < nt * 3; ++i)
        put32(ip + 4 * i, tri[i]);
    free(tri);
    char json[2048];
    int jl = snprintf(json, sizeof json,
                      "{\"asset\":{\"version\":\"2.0\",\"generator\":\"bench_gltf\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                      "\"nodes\":[{\"mesh\":0,\"name\":\"grid\"}],\"meshes\":[{\"name\":\"grid\",\"primitives\":[{"
                      "\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},\"indices\":3}]}],"
                      "\"buffers\":[{\"byteLength\":%zu}],\"bufferViews\":["
                      "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%zu,\"target\":34962},"
                      "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":34962},"
                      "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":34962},"
                      "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":34963}],\"accessors\":["
                      "{\"bufferView\":0,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\",\"min\":[0,0,0],"
                      "\"max\":[%u,%u,0]},"
                      "{\"bufferView\":1,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
                      "{\"bufferView\":2,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC2\"},"
                      "{\"bufferView\":3,\"componentType\":5125,\"count\":%zu,\"type\":\"SCALAR\"}]}",
                      bin_len, pos_bytes, pos_bytes, nrm_bytes, pos_bytes + nrm_bytes, uv_bytes,
                      pos_bytes + nrm_bytes + uv_bytes, idx_bytes, nv, w, h, nv, nv, nt * 3);
    while (jl % 4)
        json[jl++] = ' ';
    unsigned char head[28];
    memcpy(head, "glTF", 4);
    put32(head + 4, 2);
    put32(head + 8, (uint32_t)(12 + 8 + (size_t)jl + 8 + bin_len));
    put32(head + 12, (uint32_t)jl);
    memcpy(head + 16, "JSON", 4);
    FILE* f = fopen(path, "wb");
    if (!f || fwrite(head, 1, 20, f) != 20 || fwrite(json, 1, (size_t)jl, f) != (size_t)jl) {
        fprintf(stderr, "bench_gltf: cannot write %s\n", path);
        exit(1);
    }
    put32(head, (uint32_t)bin_len);
    memcpy(head + 4, "BIN", 4);
    if (fwrite(head, 1, 8, f) != 8 || fwrite(bin, 1, bin_len, f) != bin_len || fclose(f) != 0) {
        fprintf(stderr, "bench_gltf: cannot write %s\n", path);
        exit(1);
    }
    free(bin);
    return nt;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

/* The measured run, in its own process: load, optimize, reorder, write. */
static int run(const char* in, const char* out, const char* copy, const char* algorithm)
{
    gc_error err;
    gc_optimizer alg;
    if (gc_optimizer_parse(algorithm, &alg, &err))
        return fprintf(stderr, "bench_gltf: %s\n", err.message), 1;
    struct stat st;
    stat(in, &st);
    double mib = (double)st.st_size / (1024.0 * 1024.0);
    /* the disk: read the file and write it again, synced, as the writer does */
    double t0 = now();
    FILE* src = fopen(in, "rb");
    FILE* dst = fopen(copy, "wb");
    static char block[1 << 20];
    size_t got;
    while (src && dst && (got = fread(block, 1, sizeof block, src)) > 0)
        fwrite(block, 1, got, dst);
    if (dst) {
        fflush(dst);
        fsync(fileno(dst));
        fclose(dst);
    }
    if (src)
        fclose(src);
    double t_copy = now() - t0;
    double base_rss = peak_mib();

    t0 = now();
    gc_gltf* doc = NULL;
    if (gc_gltf_load(in, NULL, &doc, &err))
        return fprintf(stderr, "bench_gltf: %s\n", err.message), 1;
    double t_load = now() - t0;
    double rss_load = peak_mib();

    t0 = now();
    size_t triangles = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc); ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        if (p->topology != GC_TRIANGLE_LIST || !p->index_bits)
            continue;
        uint32_t* outidx = malloc(p->index_count * sizeof *outidx);
        gc_optimize_options o = {0};
        const gc_optimize_placement first_use = {0, 0, 1};
        if (!outidx || gc_optimize_placed(alg, p->indices, p->index_count, (uint32_t)p->vertex_count, &o, &first_use, outidx, &err) ||
            gc_gltf_set_indices(doc, i, outidx, p->index_count, &err))
            return fprintf(stderr, "bench_gltf: %s\n", err.message), 1;
        free(outidx);
        triangles += p->index_count / 3;
    }
    double t_opt = now() - t0;
    t0 = now();
    if (gc_gltf_reorder_vertices(doc, &err))
        return fprintf(stderr, "bench_gltf: %s\n", err.message), 1;
    double t_reorder = now() - t0;
    t0 = now();
    if (gc_gltf_write(doc, out, &err))
        return fprintf(stderr, "bench_gltf: %s\n", err.message), 1;
    double t_write = now() - t0;
    gc_gltf_free(doc);
    double rss = peak_mib();
    printf("file: %zu triangles, %.1f MiB GLB\n", triangles, mib);
    printf("%-34s %9s %10s\n", "phase", "seconds", "MiB/s");
    printf("%-34s %9.3f %10.0f\n", "copy (read + write + fsync)", t_copy, mib / t_copy);
    printf("%-34s %9.3f %10.0f\n", "gc_gltf_load", t_load, mib / t_load);
    printf("%-34s %9.3f %10s\n", algorithm, t_opt, "-");
    printf("%-34s %9.3f %10.0f\n", "gc_gltf_reorder_vertices", t_reorder, mib / t_reorder);
    printf("%-34s %9.3f %10.0f\n", "gc_gltf_write (+ fsync, rename)", t_write, mib / t_write);
    printf("I/O (load + write) %.3f s = %.2f x the copy; total %.3f s\n", t_load + t_write,
           (t_load + t_write) / t_copy, t_load + t_opt + t_reorder + t_write);
    printf("peak RSS: %.1f MiB (process before loading %.1f MiB, after loading %.1f MiB); file %.1f MiB, "
           "indices as u32 %.1f MiB\n",
           rss, base_rss, rss_load, mib, (double)triangles * 12.0 / (1024.0 * 1024.0));
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 6 && !strcmp(argv[1], "--run"))
        return run(argv[2], argv[3], argv[4], argv[5]);
    const char* algorithm = "tipsify";
    uint32_t w = 708, h = 707; /* 1,001,112 triangles */
    int keep = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-a") && i + 1 < argc)
            algorithm = argv[++i];
        else if (!strcmp(argv[i], "--quads") && i + 2 < argc)
            w = (uint32_t)atoi(argv[i + 1]), h = (uint32_t)atoi(argv[i + 2]), i += 2;
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else
            return fprintf(stderr, "usage: bench_gltf [-a tipsify|forsyth|auto] [--quads W H] [--keep]\n"), 2;
    }
    if (w == 0 || h == 0 || (uint64_t)w * h > 20000000)
        return fprintf(stderr, "bench_gltf: --quads W H with W x H in [1, 20000000]\n"), 2;
    char dir[] = "/tmp/bench_gltf-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    char in[64], out[64], copy[64];
    snprintf(in, sizeof in, "%s/in.glb", dir);
    snprintf(out, sizeof out, "%s/out.glb", dir);
    snprintf(copy, sizeof copy, "%s/copy.glb", dir);
    double t0 = now();
    generate(in, w, h);
    fprintf(stderr, "bench_gltf: generated %s in %.2f s\n", in, now() - t0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n > 0) {
            self[n] = 0;
            execl(self, self, "--run", in, out, copy, algorithm, (char*)NULL);
        }
        _exit(127);
    }
    int status = 1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (!keep) {
        unlink(in), unlink(out), unlink(copy);
        rmdir(dir);
    } else {
        fprintf(stderr, "bench_gltf: kept %s\n", dir);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
