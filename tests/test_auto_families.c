// SPDX-License-Identifier: MIT
/* Issue 16's acceptance item: with every family and every preset as a single target,
 * auto's order beats meshopt_optimizeVertexCache's on the mean over the corpus and its
 * shuffled copies, and is never more than 0.5% worse on one mesh, both orders scored by
 * gpucache's own analyzer (gc_analyze) under that target.
 *
 * Each corpus mesh is expanded to the triangle list a renderer draws (igea.ply's strips
 * with restarts included), and a shuffled copy of it is made: triangles in a seeded
 * random order, each one's corners rotated at random (winding kept), vertex ids permuted
 * at random. For every (target, mesh): meshopt's order is meshopt_optimizeVertexCache(),
 * auto's is gc_optimize(GC_OPT_AUTO) with that one target at the default effort.
 *
 * Numbering: for the value-keyed families (direct-value, llvmpipe, whose slots follow the
 * index values) both orders are scored after renumbering their vertices in order of first
 * use (gc_reorder_vertices, what meshopt_optimizeVertexFetchRemap gives), and auto is told
 * so (first_use_numbering = 1). For every other family the orders are scored as they come
 * out: those rules do not look at the index values, only at which are equal.
 *
 * The criterion, per target: mean over meshes of (auto / meshopt - 1) < 0, and every
 * mesh's auto / meshopt <= 1.005 (invocations). A failing target prints every mesh's
 * numbers; the group's teardown prints a summary table of every target to stdout.
 *
 * Under the sanitizers (GPUCACHE_TEST_SANITIZED, CI's second pass) only the smaller meshes
 * are used (sanitized_meshes below). $GPUCACHE_AUTO_FAMILIES_MESHES overrides the
 * selection in any build: "all", or a comma-separated list of corpus file names. */
#include "test_util.h"

#include <meshoptimizer.h>

#include <time.h>

#ifndef GPUCACHE_TEST_SANITIZED
#define GPUCACHE_TEST_SANITIZED 0
#endif

/* One representative spec of every family, besides the presets. */
static const char* const family_specs[] = {
    "fifo:16",  "fifo:128",        "lru:16", "direct-value:64", "direct-position:32", "nvidia", "meshopt:32,32,32",
    "reuse:32,16,32", "batch", "batch:slots=16,prims=8", "llvmpipe",
};
#define FAMILY_SPEC_COUNT (sizeof family_specs / sizeof family_specs[0])

/* The meshes of the sanitized run: the smaller ones (about 51,000 triangles, 102,000 with
 * the shuffled copies, about 15 s; all 14 meshes take over 3 minutes sanitized). */
static const char* const sanitized_meshes[] = {"alligator.obj", "cow.obj",  "fandisk.obj", "homer.obj",
                                               "spot.obj",      "suzanne.obj", "teapot.obj", "woody.obj"};

#define MAX_TARGETS 32
#define MAX_MESHES (2 * CORPUS_MESH_COUNT)

static const double worst_allowed = 1.005;

typedef struct mesh {
    char name[96];
    uint32_t* idx; /* triangle list */
    size_t n;
    uint32_t vertices;
    uint32_t* meshopt;         /* meshopt_optimizeVertexCache's order */
    uint32_t* meshopt_renumbered; /* the same, vertices numbered in first-use order */
} mesh;

typedef struct result {
    int done;
    double mean;  /* mean over meshes of auto / meshopt - 1 */
    double worst; /* largest auto / meshopt - 1 */
    size_t worst_mesh;
    int pass;
    double seconds; /* auto's time over all meshes */
} result;

static mesh meshes[MAX_MESHES];
static size_t mesh_count;
static gc_model targets[MAX_TARGETS];
static size_t target_count;
static result results[MAX_TARGETS];
static char target_labels[MAX_TARGETS][96]; /* "intel = fifo:128" for a preset */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int value_keyed(const gc_model* m)
{
    /* nv-gl with pages (the H100): the cache is emptied where index >> page changes */
    return m->family == GC_MODEL_DIRECT_VALUE || m->family == GC_MODEL_LLVMPIPE ||
           (m->family == GC_MODEL_NV_GL && m->p[3] != 0);
}

/* A shuffled copy: triangles in a random order, corners rotated (winding kept), vertex
 * ids permuted; all from a fixed seed. */
static uint32_t* shuffled_copy(const uint32_t* idx, size_t n, uint32_t vertices, uint64_t seed)
{
    size_t t = n / 3;
    uint32_t* out = malloc((n ? n : 1) * sizeof *out);
    uint32_t* perm = malloc((vertices ? vertices : 1) * sizeof *perm);
    assert_non_null(out);
    assert_non_null(perm);
    memcpy(out, idx, n * sizeof *out);
    for (size_t i = t; i > 1; --i) {
        size_t j = (size_t)(test_random(&seed) % i);
        for (int k = 0; k < 3; ++k) {
            uint32_t x = out[3 * (i - 1) + k];
            out[3 * (i - 1) + k] = out[3 * j + k];
            out[3 * j + k] = x;
        }
    }
    for (size_t i = 0; i < t; ++i) {
        unsigned r = (unsigned)(test_random(&seed) % 3);
        uint32_t a = out[3 * i], b = out[3 * i + 1], c = out[3 * i + 2];
        uint32_t v[3] = {a, b, c};
        for (int k = 0; k < 3; ++k)
            out[3 * i + k] = v[(k + r) % 3];
    }
    for (uint32_t v = 0; v < vertices; ++v)
        perm[v] = v;
    for (uint32_t i = vertices; i > 1; --i) {
        uint32_t j = (uint32_t)(test_random(&seed) % i);
        uint32_t x = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = x;
    }
    for (size_t i = 0; i < n; ++i)
        out[i] = perm[out[i]];
    free(perm);
    return out;
}

/* Whether a corpus file is in the selection of this run. */
static int selected(const char* name)
{
    const char* env = getenv("GPUCACHE_AUTO_FAMILIES_MESHES");
    if (env && *env) {
        if (strcmp(env, "all") == 0)
            return 1;
        size_t len = strlen(name);
        for (const char* p = env; *p;) {
            const char* end = strchr(p, ',');
            size_t l = end ? (size_t)(end - p) : strlen(p);
            if (l == len && strncmp(p, name, len) == 0)
                return 1;
            p += l + (end ? 1 : 0);
        }
        return 0;
    }
    if (!GPUCACHE_TEST_SANITIZED)
        return 1;
    for (size_t i = 0; i < sizeof sanitized_meshes / sizeof sanitized_meshes[0]; ++i)
        if (strcmp(sanitized_meshes[i], name) == 0)
            return 1;
    return 0;
}

static void add_mesh(const char* name, uint32_t* idx, size_t n, uint32_t vertices)
{
    assert_true(mesh_count < MAX_MESHES);
    mesh* m = &meshes[mesh_count++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->idx = idx;
    m->n = n;
    m->vertices = vertices;
    m->meshopt = malloc((n ? n : 1) * sizeof *m->meshopt);
    assert_non_null(m->meshopt);
    meshopt_optimizeVertexCache(m->meshopt, idx, n, vertices);
    m->meshopt_renumbered = first_use_copy(m->meshopt, n, vertices);
}

static int setup(void** state)
{
    (void)state;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        const char* name = corpus_meshes_list[i];
        if (!selected(name))
            continue;
        size_t n;
        uint32_t* tri = corpus_triangles(name, &n);
        if (!tri)
            continue;
        uint32_t vertices = index_bound(tri, n);
        add_mesh(name, tri, n, vertices);
        char shuffled_name[96];
        snprintf(shuffled_name, sizeof shuffled_name, "%s (shuffled)", name);
        add_mesh(shuffled_name, shuffled_copy(tri, n, vertices, 0x5eed0000u + i), n, vertices);
    }
    return 0;
}

static int teardown(void** state)
{
    (void)state;
    if (mesh_count == 0) {
        printf("corpus not found (%s): skipped\n", corpus_dir());
        return 0;
    }
    size_t triangles = 0;
    for (size_t i = 0; i < mesh_count; ++i)
        triangles += meshes[i].n / 3;
    printf("\nauto (one target, default effort) against meshopt_optimizeVertexCache, invocations under the target\n"
           "(gc_analyze), over %zu meshes (%zu triangles); change = auto / meshopt - 1\n\n",
           mesh_count, triangles);
    printf("| target | mean change | worst mesh | worst change | result | auto seconds |\n");
    printf("|---|---:|---|---:|---|---:|\n");
    for (size_t t = 0; t < target_count; ++t) {
        const result* r = &results[t];
        if (!r->done) {
            printf("| %s | | | | not run | |\n", target_labels[t]);
            continue;
        }
        printf("| %s%s | %+.2f%% | %s | %+.2f%% | %s | %.2f |\n", target_labels[t],
               value_keyed(&targets[t]) ? " (first-use numbering)" : "", 100.0 * r->mean,
               meshes[r->worst_mesh].name, 100.0 * r->worst, r->pass ? "pass" : "FAIL", r->seconds);
    }
    printf("\n");
    fflush(stdout);
    for (size_t i = 0; i < mesh_count; ++i) {
        free(meshes[i].idx);
        free(meshes[i].meshopt);
        free(meshes[i].meshopt_renumbered);
    }
    return 0;
}

static void auto_against_meshopt(void** state)
{
    size_t t = (size_t)(uintptr_t)*state;
    const gc_model* target = &targets[t];
    if (mesh_count == 0)
        skip();
    int keyed = value_keyed(target);
    uint64_t ours[MAX_MESHES], theirs[MAX_MESHES];
    double change[MAX_MESHES];
    result* r = &results[t];
    double sum = 0, seconds = 0;
    r->worst = -1e300;
    r->worst_mesh = 0;
    for (size_t i = 0; i < mesh_count; ++i) {
        const mesh* m = &meshes[i];
        uint32_t* out = malloc((m->n ? m->n : 1) * sizeof *out);
        assert_non_null(out);
        gc_optimize_options o = {0};
        o.targets = target;
        o.target_count = 1;
        const gc_optimize_placement place = {0, 0, keyed};
        gc_error err;
        double t0 = now();
        if (gc_optimize_placed(GC_OPT_AUTO, m->idx, m->n, m->vertices, &o, &place, out, &err) != GC_OK)
            fail_msg("auto -m %s on %s: %s", target->name, m->name, err.message);
        seconds += now() - t0;
        if (keyed) {
            uint32_t* re = first_use_copy(out, m->n, m->vertices);
            ours[i] = list_cost(target, re, m->n);
            theirs[i] = list_cost(target, m->meshopt_renumbered, m->n);
            free(re);
        } else {
            ours[i] = list_cost(target, out, m->n);
            theirs[i] = list_cost(target, m->meshopt, m->n);
            /* what lets these be scored unrenumbered: the rule is blind to the index values */
            uint64_t re = list_cost(target, m->meshopt_renumbered, m->n);
            if (re != theirs[i])
                fail_msg("%s on %s: %llu invocations, %llu renumbered: the family is value-keyed", target->name,
                         m->name, (unsigned long long)theirs[i], (unsigned long long)re);
        }
        free(out);
        change[i] = theirs[i] ? (double)ours[i] / (double)theirs[i] - 1.0 : 0.0;
        sum += change[i];
        if (change[i] > r->worst) {
            r->worst = change[i];
            r->worst_mesh = i;
        }
    }
    r->mean = sum / (double)mesh_count;
    r->seconds = seconds;
    r->pass = r->mean < 0 && r->worst <= worst_allowed - 1.0;
    r->done = 1;
    if (!r->pass) {
        print_error("auto -m %s%s against meshopt_optimizeVertexCache, invocations:\n", target->name,
                    keyed ? " (both renumbered in first-use order)" : "");
        print_error("%-34s %12s %12s %9s\n", "mesh", "auto", "meshopt", "change");
        for (size_t i = 0; i < mesh_count; ++i)
            print_error("%-34s %12llu %12llu %+8.2f%%%s\n", meshes[i].name, (unsigned long long)ours[i],
                        (unsigned long long)theirs[i], 100.0 * change[i],
                        change[i] > worst_allowed - 1.0 ? "  > +0.50%" : "");
        print_error("%-34s %12s %12s %+8.2f%%\n", "mean", "", "", 100.0 * r->mean);
        fail_msg("auto -m %s: mean change %+.2f%% (must be < 0), worst %+.2f%% on %s (must be <= +0.50%%)",
                 target->name, 100.0 * r->mean, 100.0 * r->worst, meshes[r->worst_mesh].name);
    }
}

int main(void)
{
    static struct CMUnitTest tests[MAX_TARGETS];
    static char names[MAX_TARGETS][96];
    for (size_t i = 0; i < gc_preset_count() && target_count < MAX_TARGETS; ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        snprintf(target_labels[target_count], sizeof target_labels[0], "%s = %s", name, spec);
        targets[target_count++] = model_of(name);
    }
    for (size_t i = 0; i < FAMILY_SPEC_COUNT && target_count < MAX_TARGETS; ++i)
    {
        snprintf(target_labels[target_count], sizeof target_labels[0], "%s", family_specs[i]);
        targets[target_count++] = model_of(family_specs[i]);
    }
    for (size_t t = 0; t < target_count; ++t) {
        snprintf(names[t], sizeof names[t], "auto -m %.80s", target_labels[t]);
        tests[t] = (struct CMUnitTest){names[t], auto_against_meshopt, NULL, NULL, (void*)(uintptr_t)t};
    }
    return _cmocka_run_group_tests("auto_families", tests, target_count, setup, teardown);
}
