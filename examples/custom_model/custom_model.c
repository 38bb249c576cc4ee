/* custom_model: analyzes an index buffer under a vertex cache model of the caller's own,
 * plugged into gpucache through the public state-machine interface (gc_sim_rule,
 * gc_sim_create_custom, gc_analyze_sim), then asks the machine what one more triangle
 * would cost without changing it (gc_sim_save, gc_sim_feed, gc_sim_restore). Then the same
 * rule registered as a family (gc_family_register): a model like the built-in ones, which
 * gc_analyze runs, gc_optimize's auto orders triangles for, and gc_fit ranks.
 *
 *     custom_model [--sets N] [--ways N] [MESH]
 *
 * The model is set_assoc.h's set-associative LRU cache, 8 sets of 2 ways by default.
 * MESH is any file `gpucache analyze` reads (.obj, .ply, .txt, .u16, ...); without one,
 * a built-in grid of 12x4 quads. Only the public headers gpucache.h and gpucache_io.h (the
 * mesh file) are used: nothing here
 * depends on gpucache's internals. Exit status: 0, 1 for bad data, 2 for a usage error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucache/gpucache.h"
#include "gpucache/gpucache_io.h"
#include "set_assoc.h"

/* The built-in input: a grid of GRID_W x GRID_H quads, (GRID_W + 1) x (GRID_H + 1)
 * vertices numbered row by row, drawn row by row as two triangles per quad. A row of
 * quads touches two rows of vertices, 26 of them, more than the default cache's 16
 * entries: so the cache misses, and the models compared below need not agree. */
#define GRID_W 12
#define GRID_H 4
#define GRID_INDICES (GRID_W * GRID_H * 6)

static void builtin_grid(uint32_t* out)
{
    size_t k = 0;
    for (uint32_t row = 0; row < GRID_H; ++row)
        for (uint32_t col = 0; col < GRID_W; ++col) {
            uint32_t a = row * (GRID_W + 1) + col, b = a + 1, c = a + GRID_W + 1, d = c + 1;
            const uint32_t quad[6] = {a, c, b, b, c, d};
            for (int i = 0; i < 6; ++i)
                out[k++] = quad[i];
        }
}

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* A machine allocates its per-vertex state and gc_analyze_sim its per-vertex counts for
 * every id below its vertex count, so the ids must be dense: a .u32 file holding the one
 * index 4000000000 must not cost gigabytes. This numbers the distinct index values 0, 1, 2,
 * ... in ascending order, rewrites `draw`'s indices into `ids` (a restart becomes
 * UINT32_MAX, above every id) and returns the id -> value table, which the machine is
 * given so that the rule still sees the buffer's values (the sets are keyed by value). */
static uint32_t* dense_ids(const gc_draw* draw, uint32_t* ids, uint32_t* vertex_count)
{
    size_t n = 0;
    uint32_t* values = malloc((draw->index_count ? draw->index_count : 1) * sizeof *values);
    if (!values)
        return NULL;
    for (size_t i = 0; i < draw->index_count; ++i)
        if (!(draw->restart_enabled && draw->indices[i] == draw->restart_value))
            values[n++] = draw->indices[i];
    qsort(values, n, sizeof *values, compare_u32);
    size_t distinct = 0;
    for (size_t i = 0; i < n; ++i)
        if (distinct == 0 || values[distinct - 1] != values[i])
            values[distinct++] = values[i];
    for (size_t i = 0; i < draw->index_count; ++i) {
        if (draw->restart_enabled && draw->indices[i] == draw->restart_value) {
            ids[i] = UINT32_MAX;
            continue;
        }
        const uint32_t* at = bsearch(&draw->indices[i], values, distinct, sizeof *values, compare_u32);
        ids[i] = (uint32_t)(at - values);
    }
    *vertex_count = (uint32_t)distinct; /* at most GC_MAX_INDICES, which fits */
    return values;
}

static void print_row(const char* model, const gc_stats* st)
{
    printf("%-28s %12llu %8.3f %8.3f\n", model, (unsigned long long)st->invocations, st->acmr, st->atvr);
}

/* A built-in model of as many entries, for comparison: the same draw through gc_analyze. */
static int print_builtin(const char* spec, const gc_draw* draw)
{
    gc_model model;
    gc_stats st;
    gc_error err;
    if (gc_model_parse(spec, &model, &err) || gc_analyze(&model, draw, NULL, &st, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        return 1;
    }
    print_row(spec, &st);
    return 0;
}

/* What feeding triangle `t` (machine ids) next would cost, asked without changing the
 * machine: save, feed, print, restore. `draw` is the machine's draw, for the
 * positions and the number a primitive after its end would have. */
static int what_if(gc_sim* sim, const uint32_t t[3], const uint32_t* values, const gc_draw* draw,
                   uint64_t primitives, const char* what)
{
    gc_sim_primitive p;
    memset(&p, 0, sizeof p); /* no state changes: this rule ignores them anyway */
    p.count = 3;
    p.number = primitives;
    for (unsigned j = 0; j < 3; ++j) {
        p.vertices[j] = t[j];
        p.positions[j] = draw->index_count + j;
    }
    gc_sim_save(sim);
    unsigned shaded = 0;
    uint32_t cost = gc_sim_feed(sim, &p, &shaded);
    char triangle[48];
    snprintf(triangle, sizeof triangle, "(%u, %u, %u)", values[t[0]], values[t[1]], values[t[2]]);
    printf("  %-24s %-34s %u invocation%s", triangle, what, cost, cost == 1 ? "" : "s");
    const char* sep = ": shades ";
    for (unsigned j = 0; j < 3; ++j)
        if (GC_SIM_SHADED(shaded, j)) {
            printf("%s%u", sep, values[t[j]]);
            sep = ", ";
        }
    printf("\n");
    gc_error err;
    if (gc_sim_restore(sim, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        return 1;
    }
    return 0;
}

/* The rule as a registered family: the same count through gc_analyze, an order that auto
 * makes for it, and where the fit ranks it on one "measurement", the count the machine gave.
 * `tris` (tri_count indices below vertex_count) are the draw's triangles. */
static int as_family(const set_assoc_params* params, const gc_draw* draw, const uint32_t* tris, size_t tri_count,
                     uint32_t vertex_count, uint64_t measured)
{
    gc_error err;
    gc_model model;
    char spec[64];
    snprintf(spec, sizeof spec, "set-assoc:sets=%u,ways=%u", params->sets, params->ways);
    if (gc_family_register(&set_assoc_family, NULL, &err) || gc_model_parse(spec, &model, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        return 1;
    }
    printf("\nregistered as a family (gc_family_register), as %s:\n", model.name);
    gc_stats st;
    if (gc_analyze(&model, draw, NULL, &st, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        return 1;
    }
    printf("  gc_analyze: %llu invocations%s\n", (unsigned long long)st.invocations,
           st.invocations == measured ? ", as the machine counted" : "");
    if (tri_count >= 3) {
        uint32_t* order = malloc(tri_count * sizeof *order);
        gc_optimize_options o;
        memset(&o, 0, sizeof o);
        o.targets = &model;
        o.target_count = 1;
        gc_draw ordered = {order, tri_count, GC_TRIANGLE_LIST, 0, 0};
        if (!order || gc_optimize(GC_OPT_AUTO, tris, tri_count, vertex_count, &o, order, &err) ||
            gc_analyze(&model, &ordered, NULL, &st, &err)) {
            fprintf(stderr, "custom_model: %s\n", order ? err.message : "out of memory");
            free(order);
            return 1;
        }
        free(order);
        printf("  auto's order for it: %llu invocations\n", (unsigned long long)st.invocations);
    }
    /* the fit: the registered model among built-in ones of as many entries */
    gc_model candidates[3];
    snprintf(spec, sizeof spec, "lru:%u", params->sets * params->ways);
    gc_model_parse(spec, &candidates[0], &err);
    snprintf(spec, sizeof spec, "direct-value:%u", params->sets * params->ways);
    gc_model_parse(spec, &candidates[1], &err);
    candidates[2] = model;
    gc_fit_case c;
    memset(&c, 0, sizeof c);
    c.draw = *draw;
    c.invocations = measured;
    gc_fit_options fo;
    memset(&fo, 0, sizeof fo);
    fo.candidates = candidates;
    fo.candidate_count = 3;
    gc_fit_candidate best[3];
    size_t best_count = 0;
    if (gc_fit(&c, 1, &fo, 3, best, &best_count, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        return 1;
    }
    for (size_t i = 0; i < best_count; ++i)
        if (best[i].model.family == model.family)
            printf("  gc_fit: rank %zu of %zu, %zu of 1 case exact\n", i + 1, best_count, best[i].exact);
    return 0;
}

static int usage(const char* message)
{
    fprintf(stderr, "custom_model: %s\nusage: custom_model [--sets N] [--ways N] [MESH]\n", message);
    return 2;
}

/* A whole decimal number from 1 to SET_ASSOC_MAX_ENTRIES, digits only. */
static int parse_count(const char* s, uint64_t* out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return 0;
    for (; *s; ++s) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > SET_ASSOC_MAX_ENTRIES)
            return 0;
    }
    if (v < 1)
        return 0;
    *out = v;
    return 1;
}

int main(int argc, char** argv)
{
    /* 8 sets of 2 ways: 16 entries, the size of gpucache's `generic` preset (fifo:16). */
    set_assoc_params params = {8, 2};
    const char* path = NULL;
    for (int i = 1; i < argc; ++i) {
        uint32_t* target = !strcmp(argv[i], "--sets") ? &params.sets : !strcmp(argv[i], "--ways") ? &params.ways : NULL;
        if (target) {
            uint64_t v;
            if (i + 1 == argc || !parse_count(argv[i + 1], &v))
                return usage("--sets and --ways take a number from 1 to 65536");
            *target = (uint32_t)v;
            ++i;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option");
        } else if (path) {
            return usage("one mesh at most");
        } else {
            path = argv[i];
        }
    }
    /* gc_sim_create_custom passes params to the rule unread: they are checked here. */
    if (!set_assoc_valid(&params))
        return usage("the cache may hold at most 65536 entries (sets x ways)");

    /* The draw: a mesh file, or the built-in grid. */
    gc_error err;
    gc_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    uint32_t grid[GRID_INDICES];
    gc_draw draw = {grid, GRID_INDICES, GC_TRIANGLE_LIST, 0, 0};
    if (path) {
        if (gc_mesh_load(path, NULL, &mesh, &err)) {
            fprintf(stderr, "custom_model: %s\n", err.message);
            return err.code == GC_ERR_USAGE ? 2 : 1;
        }
        draw = (gc_draw){mesh.indices, mesh.index_count, mesh.topology, mesh.restart_enabled, mesh.restart_value};
    } else {
        builtin_grid(grid);
    }
    int status = 1;
    uint32_t* ids = malloc((draw.index_count ? draw.index_count : 1) * sizeof *ids);
    uint32_t vertex_count = 0;
    uint32_t* values = ids ? dense_ids(&draw, ids, &vertex_count) : NULL;
    gc_sim* sim = NULL;
    uint32_t* tris = NULL;
    gc_per_vertex pv;
    memset(&pv, 0, sizeof pv);
    if (!values) {
        fprintf(stderr, "custom_model: out of memory\n");
        goto done;
    }
    gc_draw machine_draw = draw;
    machine_draw.indices = ids;
    machine_draw.restart_value = UINT32_MAX;

    /* The machine: the rule, its parameters (read by the rule, so they must live as long
       as the machine: `params` does), the number of vertex ids and their index values. */
    if (gc_sim_create_custom(&set_assoc_rule, &params, vertex_count, values, &sim, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        goto done;
    }

    /* The whole draw through the machine, as gc_analyze runs a built-in model: primitive
       assembly for the topology, restarts, and per-vertex counts when asked. */
    gc_analyze_options options;
    memset(&options, 0, sizeof options);
    options.per_vertex = &pv;
    gc_stats st;
    if (gc_analyze_sim(sim, &machine_draw, &options, &st, &err)) {
        fprintf(stderr, "custom_model: %s\n", err.message);
        goto done;
    }
    printf("input: %s, %s, %llu primitives, %llu vertices\n", path ? path : "built-in 12x4 grid",
           gc_topology_name(draw.topology), (unsigned long long)st.primitives, (unsigned long long)st.vertices);
    char name[64];
    snprintf(name, sizeof name, "set-assoc %ux%u (custom)", params.sets, params.ways);
    printf("%-28s %12s %8s %8s\n", "model", "invocations", "ACMR", "ATVR");
    print_row(name, &st);
    /* Built-in models of the same size, for comparison; they take the original indices. */
    char spec[64];
    const uint32_t entries = params.sets * params.ways;
    snprintf(spec, sizeof spec, "lru:%u", entries);
    if (print_builtin(spec, &draw))
        goto done;
    snprintf(spec, sizeof spec, "direct-value:%u", entries);
    if (print_builtin(spec, &draw))
        goto done;
    /* Per-vertex counts: a vertex shaded twice was evicted before its last use. */
    size_t again = 0;
    for (size_t i = 0; i < pv.count; ++i)
        again += pv.counts[i] > 1;
    printf("vertices shaded more than once: %zu of %zu\n", again, pv.count);

    /* The machine now holds the cache as the draw left it. What would one more triangle
       cost? Each candidate is fed after a save point and rolled back, so each is priced
       against the same state, and the machine ends as it was. This is how an optimizer
       tries orders: it costs only the words the candidate writes, not a copy of the cache. */
    size_t tri_count = 0;
    if (st.primitives && gc_topology_arity(draw.topology) >= 3) {
        size_t capacity = 6 * (size_t)st.primitives; /* room for quads' two triangles */
        tris = malloc(capacity * sizeof *tris);
        if (!tris || gc_draw_triangles(&machine_draw, tris, capacity, &tri_count, &err)) {
            fprintf(stderr, "custom_model: %s\n", tris ? err.message : "out of memory");
            goto done;
        }
    }
    if (tri_count >= 6) {
        const uint32_t* first = tris;
        const uint32_t* last = tris + tri_count - 3;
        /* the last triangle again: all three are in the cache, unless a set conflict
           evicted one; the first triangle: long gone on any mesh bigger than the cache;
           and one of each: the first triangle's first vertex with two of the last's */
        const uint32_t mixed[3] = {last[0], last[1], first[0]};
        printf("\nwhat one more triangle would cost now (save, feed, restore):\n");
        if (what_if(sim, last, values, &machine_draw, st.primitives, "the last triangle again") ||
            what_if(sim, first, values, &machine_draw, st.primitives, "the first triangle again") ||
            what_if(sim, mixed, values, &machine_draw, st.primitives, "two of the last, one of the first"))
            goto done;
        gc_sim_release(sim); /* no more rollbacks: later writes need no log */
        /* The restores gave the invocation count back too (the rolled-back feeds added to
           it); a rule that wrote its words without gc_sim_set would show up here only as
           wrong costs later, which is why the rule must never write them directly. */
        gc_stats after;
        gc_sim_stats(sim, &after);
        if (after.invocations != st.invocations) {
            fprintf(stderr, "custom_model: the machine did not roll back (%llu invocations, %llu before)\n",
                    (unsigned long long)after.invocations, (unsigned long long)st.invocations);
            goto done;
        }
        printf("invocations after the three questions: %llu, as before\n", (unsigned long long)after.invocations);
    }
    if (as_family(&params, &draw, tris, tri_count, vertex_count, st.invocations))
        goto done;
    status = 0;
done:
    free(tris);
    gc_per_vertex_free(&pv);
    gc_sim_destroy(sim);
    free(values);
    free(ids);
    gc_mesh_free(&mesh);
    return status;
}
