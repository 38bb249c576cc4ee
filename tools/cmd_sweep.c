/* gpucache sweep: seed 002's experiment on any model. For each mesh, layout and target
 * cache size, build the index buffer (grids are generated in the layout; meshes are
 * optimized with that cache size) and analyze it under every model; write CSV, JSON and a
 * gnuplot figure (one panel per mesh and model, one curve per layout).
 *
 * Jobs (mesh, layout, cache size) run on every core; each job writes its own rows, which
 * are printed in job order, so the output is the same for any thread count. A model
 * named "device" or "device:N" is measured on a Vulkan device through the probe (one
 * draw at a time). */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_probe.h"
#include "cli.h"
#include "commands.h"
#include "help.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_MESHES 16
#define MAX_SWEEP_MODELS 16

typedef enum layout { L_OPTIMAL, L_STRIPED, L_TIPSIFY, L_FORSYTH, L_AUTO, L_ORIGINAL, L_COUNT } layout;
static const char* const layout_names[L_COUNT] = {"optimal", "striped", "tipsify", "forsyth", "auto", "original"};

typedef struct sweep_mesh {
    char name[256];
    int is_grid;
    uint32_t width, height;
    uint32_t* indices; /* triangle list (files) or the row-major grid */
    size_t count;
    uint32_t vertices; /* largest index + 1 */
} sweep_mesh;

typedef struct sweep_model {
    char label[320];
    gc_model model;
    int device;        /* measured on a device */
    uint32_t device_index;
} sweep_model;

typedef struct row {
    uint64_t invocations, triangles, vertices;
    double atvr, acmr;
    int valid;
} row;

typedef struct sweep {
    sweep_mesh meshes[MAX_MESHES];
    size_t mesh_count;
    layout layouts[L_COUNT];
    size_t layout_count;
    uint32_t cache_lo, cache_hi;
    sweep_model models[MAX_SWEEP_MODELS];
    size_t model_count;
    gc_backend device;   /* opened when a model is "device" */
    int have_device;
    pthread_mutex_t lock; /* job queue, progress, the device */
    size_t next_job, done_jobs, job_count;
    row* rows;        /* job * model_count + model */
    int failed;
    gc_error err;
    double start, last_progress;
    int progress;
} sweep;

static size_t cache_count(const sweep* s)
{
    return (size_t)(s->cache_hi - s->cache_lo + 1);
}

/* Builds the buffer of one job into *out (malloc'd); returns its index count, 0 when the
 * layout does not apply (grid layouts on a mesh file). */
static gc_status build_job(const sweep* s, const sweep_mesh* m, layout l, uint32_t cache, uint32_t** out, size_t* n,
                           gc_error* err)
{
    *out = NULL;
    *n = 0;
    if (l == L_OPTIMAL || l == L_STRIPED) {
        if (!m->is_grid)
            return GC_OK;
        gc_grid_layout g = l == L_OPTIMAL ? GC_GRID_OPTIMAL : GC_GRID_STRIPED;
        size_t count = gc_grid_index_count(m->width, m->height, g, cache);
        *out = malloc(count * sizeof **out);
        if (!*out)
            return GC_ERR_NOMEM;
        return gc_grid_generate(m->width, m->height, g, cache, *out, n, err);
    }
    *out = malloc((m->count ? m->count : 1) * sizeof **out);
    if (!*out)
        return GC_ERR_NOMEM;
    if (l == L_ORIGINAL) {
        memcpy(*out, m->indices, m->count * sizeof **out);
        *n = m->count;
        return GC_OK;
    }
    gc_optimize_options o = {0};
    gc_model target;
    gc_optimizer alg = l == L_TIPSIFY ? GC_OPT_TIPSIFY : l == L_FORSYTH ? GC_OPT_FORSYTH : GC_OPT_AUTO;
    if (alg == GC_OPT_FORSYTH && (cache < 4 || cache > 256)) {
        free(*out);
        *out = NULL;
        return GC_OK; /* forsyth models caches of 4 to 256 */
    }
    if (alg == GC_OPT_AUTO) {
        /* auto at cache size c targets a FIFO of c */
        char spec[32];
        snprintf(spec, sizeof spec, "fifo:%u", cache);
        gc_status st = gc_model_parse(spec, &target, err);
        if (st)
            return st;
        o.targets = &target;
        o.target_count = 1;
    } else {
        o.cache_size = cache;
    }
    (void)s;
    *n = m->count;
    return gc_optimize(alg, m->indices, m->count, m->vertices, &o, *out, err);
}

static void show_progress(sweep* s)
{
    double now = now_seconds();
    if (!s->progress || (now - s->last_progress < 0.25 && s->done_jobs != s->job_count))
        return;
    s->last_progress = now;
    double frac = (double)s->done_jobs / (double)s->job_count;
    double left = frac > 0 ? (now - s->start) * (1 - frac) / frac : 0;
    fprintf(stderr, "\rgpucache: sweep: %3.0f%%, %.0f s left   ", 100.0 * frac, left);
    if (s->done_jobs == s->job_count)
        fprintf(stderr, "\n");
}

static void* worker(void* arg)
{
    sweep* s = arg;
    const size_t per_mesh = s->layout_count * cache_count(s);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t job = s->next_job++;
        int stop = s->failed;
        pthread_mutex_unlock(&s->lock);
        if (stop || job >= s->job_count)
            return NULL;
        const sweep_mesh* m = &s->meshes[job / per_mesh];
        layout l = s->layouts[(job % per_mesh) / cache_count(s)];
        uint32_t cache = s->cache_lo + (uint32_t)(job % cache_count(s));
        uint32_t* buf;
        size_t n;
        gc_error err = {0};
        gc_status st = build_job(s, m, l, cache, &buf, &n, &err);
        for (size_t k = 0; !st && n && k < s->model_count; ++k) {
            row* r = &s->rows[job * s->model_count + k];
            gc_draw d = {buf, n, GC_TRIANGLE_LIST, 0, 0};
            if (s->models[k].device) {
                gc_measurement meas;
                pthread_mutex_lock(&s->lock);
                st = gc_backend_measure(&s->device, &d, 1, &meas, &err);
                pthread_mutex_unlock(&s->lock);
                if (st)
                    break;
                /* A triangle list references every index value in it: the measurement's
                 * per-vertex rows are the distinct vertices, as the analyzer counts them. */
                r->invocations = meas.invocations;
                r->triangles = n / 3;
                r->vertices = meas.count;
                r->atvr = meas.count ? (double)meas.invocations / (double)meas.count : 0.0;
                r->acmr = n ? (double)meas.invocations / (double)(n / 3) : 0.0;
                gc_measurement_free(&meas);
            } else {
                gc_stats stt;
                if ((st = gc_analyze(&s->models[k].model, &d, NULL, &stt, &err)))
                    break;
                r->invocations = stt.invocations;
                r->triangles = stt.primitives;
                r->vertices = stt.vertices;
                r->atvr = stt.atvr;
                r->acmr = stt.acmr;
            }
            r->valid = 1;
        }
        free(buf);
        pthread_mutex_lock(&s->lock);
        if (st && !s->failed) {
            s->failed = 1;
            s->err = err;
            if (!s->err.message[0])
                snprintf(s->err.message, sizeof s->err.message, "out of memory");
        }
        s->done_jobs++;
        show_progress(s);
        pthread_mutex_unlock(&s->lock);
    }
}

static int load_mesh(const char* spec, sweep_mesh* m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", spec);
    gc_error err = {0};
    if (strncmp(spec, "grid:", 5) == 0) {
        unsigned w = 0, h = 0;
        char tail;
        if (sscanf(spec + 5, "%ux%u%c", &w, &h, &tail) != 2 || w == 0 || h == 0 || w > 4000 || h > 4000)
            return usage_error("--mesh %s: expected grid:WxH with W and H in [1, 4000]", spec);
        m->is_grid = 1;
        m->width = w;
        m->height = h;
        size_t n = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 0);
        m->indices = malloc(n * sizeof *m->indices);
        if (!m->indices)
            return EXIT_DATA;
        if (gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 0, m->indices, &m->count, &err))
            return fail_with(&err);
        m->vertices = (w + 1) * (h + 1);
        return 0;
    }
    input in;
    gc_draw d;
    uint64_t prims;
    gc_load_options lo = {0};
    int status = load_draw(spec, &lo, NULL, 0, NULL, &in, &d, &prims);
    if (status)
        return status;
    if (d.topology == GC_POINT_LIST || d.topology == GC_LINE_LIST || d.topology == GC_LINE_STRIP ||
        d.topology == GC_LINE_LOOP) {
        gc_mesh_free(&in.mesh);
        fprintf(stderr, "gpucache: %s: a %s has no triangles to lay out\n", spec, gc_topology_name(d.topology));
        return EXIT_USAGE;
    }
    size_t cap = (size_t)prims * 6 + 1;
    m->indices = malloc(cap * sizeof *m->indices);
    if (!m->indices || gc_draw_triangles(&d, m->indices, cap, &m->count, &err)) {
        gc_mesh_free(&in.mesh);
        return m->indices ? fail_with(&err) : EXIT_DATA;
    }
    gc_mesh_free(&in.mesh);
    /* Sparse values are renumbered in value order (the optimizers need dense ids; models
     * keyed by value, direct-value and llvmpipe, see ranks instead of values then). */
    uint32_t* values = NULL;
    int st = compact_indices(m->indices, m->count, &values, &m->vertices);
    free(values);
    return st;
}

/* A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE* f, const char* text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char* p = text; *p; ++p) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}


/* The gnuplot script beside the plot: OUT.png -> OUT.gp. Data inline, so that the script
 * alone redraws the figure. */
static int write_plot_script(const sweep* s, const char* plot_path, const char* temp_image, char* gp_path,
                             size_t gp_size)
{
    snprintf(gp_path, gp_size, "%s", plot_path);
    char* dot = strrchr(gp_path, '.');
    if (dot && !strchr(dot, '/'))
        *dot = 0;
    strncat(gp_path, ".gp", gp_size - strlen(gp_path) - 1);
    atomic_file af;
    if (atomic_open(&af, gp_path) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    FILE* f = af.f;
    int svg = has_ext(plot_path, "svg");
    size_t panels = s->mesh_count * s->model_count;
    size_t cols = panels < 2 ? 1 : panels < 5 ? 2 : 3;
    size_t rows_n = (panels + cols - 1) / cols;
    fprintf(f, "# gpucache sweep: ATVR against the target cache size, one panel per mesh and model.\n");
    fprintf(f, "# Restyle freely, then run: gnuplot %s\n", gp_path);
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t li = 0; li < s->layout_count; ++li)
            for (size_t k = 0; k < s->model_count; ++k) {
                fprintf(f, "$d_%zu_%zu_%zu << EOD\n", mi, li, k);
                for (uint32_t c = s->cache_lo; c <= s->cache_hi; ++c) {
                    size_t job = (mi * s->layout_count + li) * cache_count(s) + (c - s->cache_lo);
                    const row* r = &s->rows[job * s->model_count + k];
                    if (r->valid)
                        fprintf(f, "%u %.6f\n", c, r->atvr);
                }
                fprintf(f, "EOD\n");
            }
    if (svg)
        fprintf(f, "set terminal svg size %zu,%zu dynamic font 'Sans,11' background '#ffffff'\n", 520 * cols,
                380 * rows_n);
    else
        fprintf(f, "set terminal pngcairo size %zu,%zu font 'Sans,10'\n", 560 * cols, 400 * rows_n);
    fprintf(f, "set output '%s'\n", temp_image);
    fprintf(f, "set multiplot layout %zu,%zu\n", rows_n, cols);
    fprintf(f, "set grid\nset key top right opaque box\nset xlabel 'target cache size'\nset ylabel 'ATVR'\n");
    fprintf(f, "set xrange [%u:%u]\nset yrange [1:*]\n", s->cache_lo, s->cache_hi);
    static const char* const colors[L_COUNT] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#666666"};
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t k = 0; k < s->model_count; ++k) {
            fprintf(f, "set title '%s, %s'\n", s->meshes[mi].name, s->models[k].label);
            fprintf(f, "plot ");
            int first = 1;
            for (size_t li = 0; li < s->layout_count; ++li) {
                layout l = s->layouts[li];
                if ((l == L_OPTIMAL || l == L_STRIPED) && !s->meshes[mi].is_grid)
                    continue;
                fprintf(f, "%s$d_%zu_%zu_%zu with lines lw 2 lc rgb '%s' title '%s'", first ? "" : ", ", mi, li, k,
                        colors[l], layout_names[l]);
                first = 0;
            }
            fprintf(f, "\n");
        }
    fprintf(f, "unset multiplot\n");
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    return 0;
}

/* Runs gnuplot on the script; the image goes to a temporary name and is renamed. */
static int draw_plot(const sweep* s, const char* plot_path)
{
    char temp[4200], gp[4200];
    snprintf(temp, sizeof temp, "%s.tmp-%ld", plot_path, (long)getpid());
    int status = write_plot_script(s, plot_path, temp, gp, sizeof gp);
    if (status)
        return status;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", gp, (char*)NULL);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0) {
        fprintf(stderr, "gpucache: %s: cannot run gnuplot: %s\n", plot_path, strerror(errno));
        return EXIT_DATA;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        remove(temp);
        if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
            fprintf(stderr, "gpucache: %s: gnuplot not found (install gnuplot-nox); the script is in %s\n", plot_path,
                    gp);
        else
            fprintf(stderr, "gpucache: %s: gnuplot failed on %s\n", plot_path, gp);
        return EXIT_DATA;
    }
    if (rename(temp, plot_path) != 0) {
        remove(temp);
        fprintf(stderr, "gpucache: %s: cannot rename the finished plot into place: %s\n", plot_path, strerror(errno));
        return EXIT_DATA;
    }
    /* the script names the temporary file: point it at the final one for the user */
    FILE* f = fopen(gp, "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        char* text = size > 0 ? malloc((size_t)size + 1) : NULL;
        size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
        fclose(f);
        if (text) {
            text[got] = 0;
            char* at = strstr(text, temp);
            atomic_file af;
            if (at && atomic_open(&af, gp) == 0) {
                fwrite(text, 1, (size_t)(at - text), af.f);
                fputs(plot_path, af.f);
                fputs(at + strlen(temp), af.f);
                atomic_commit(&af);
            }
            free(text);
        }
    }
    return 0;
}

int cmd_sweep(int argc, char** argv)
{
    enum { OPT_MESH = 256, OPT_CACHE, OPT_CSV, OPT_PLOT, OPT_JSON, OPT_THREADS };
    static const struct option long_options[] = {
        {"mesh", required_argument, NULL, OPT_MESH},   {"algorithms", required_argument, NULL, 'a'},
        {"cache", required_argument, NULL, OPT_CACHE}, {"model", required_argument, NULL, 'm'},
        {"csv", required_argument, NULL, OPT_CSV},     {"plot", required_argument, NULL, OPT_PLOT},
        {"json", no_argument, NULL, OPT_JSON},         {"threads", required_argument, NULL, OPT_THREADS},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
    };
    static sweep s;
    memset(&s, 0, sizeof s);
    const char* mesh_specs[MAX_MESHES];
    size_t mesh_spec_count = 0;
    const char* model_specs[MAX_SWEEP_MODELS];
    const char* layouts_text = "optimal,striped,tipsify,forsyth";
    const char* cache_text = "3..64";
    const char* csv_path = NULL;
    const char* plot_path = NULL;
    int json = 0;
    long threads = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":a:m:h", long_options, NULL)) != -1) {
        switch (c) {
        case OPT_MESH:
            if (mesh_spec_count == MAX_MESHES)
                return usage_error("at most %s meshes", "16");
            mesh_specs[mesh_spec_count++] = optarg;
            break;
        case 'a': layouts_text = optarg; break;
        case OPT_CACHE: cache_text = optarg; break;
        case 'm':
            if (s.model_count == MAX_SWEEP_MODELS)
                return usage_error("at most %s models", "16");
            model_specs[s.model_count++] = optarg;
            break;
        case OPT_CSV: csv_path = optarg; break;
        case OPT_PLOT: plot_path = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_THREADS:
            if (parse_count(optarg, 1, 256, &threads) != 0)
                return usage_error("--threads needs a count in [1, 256], not '%s'", optarg);
            break;
        case 'h': print_help(stdout); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("sweep takes its meshes with --mesh, not '%s'", argv[optind]);
    if (mesh_spec_count == 0)
        mesh_specs[mesh_spec_count++] = "grid:100x100";
    if (s.model_count == 0)
        model_specs[s.model_count++] = "intel";
    if (plot_path && !has_ext(plot_path, "png") && !has_ext(plot_path, "svg"))
        return usage_error("--plot %s: the plot is a .png or an .svg", plot_path);
    /* --cache A..B */
    unsigned lo = 0, hi = 0;
    char tail;
    if (sscanf(cache_text, "%u..%u%c", &lo, &hi, &tail) != 2) {
        if (sscanf(cache_text, "%u%c", &lo, &tail) != 1)
            return usage_error("--cache %s: expected A..B (or one size)", cache_text);
        hi = lo;
    }
    if (lo < 3 || hi < lo || hi > 4096)
        return usage_error("--cache %s: sizes must be in [3, 4096], A <= B", cache_text);
    s.cache_lo = lo;
    s.cache_hi = hi;
    /* -a layouts */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", layouts_text);
    char* save = NULL;
    for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int l = 0; l < L_COUNT; ++l)
            if (!strcmp(tok, layout_names[l]))
                found = l;
        if (found < 0)
            return usage_error("unknown layout '%s' (optimal, striped, tipsify, forsyth, auto, original)", tok);
        for (size_t i = 0; i < s.layout_count; ++i)
            if (s.layouts[i] == (layout)found)
                found = -2;
        if (found >= 0)
            s.layouts[s.layout_count++] = (layout)found;
    }
    if (s.layout_count == 0)
        return usage_error("-a needs at least one layout%s", "");
    gc_error err = {0};
    for (size_t k = 0; k < s.model_count; ++k) {
        sweep_model* m = &s.models[k];
        const char* spec = model_specs[k];
        if (!strcmp(spec, "device") || !strncmp(spec, "device:", 7)) {
            long idx = 0;
            if (spec[6] == ':' && parse_count(spec + 7, 0, 1000, &idx) != 0)
                return usage_error("-m %s: expected device or device:N", spec);
            m->device = 1;
            m->device_index = (uint32_t)idx;
            if (!s.have_device) {
                if (gc_backend_open(&s.device, (uint32_t)idx, NULL, &err))
                    return fail_with(&err);
                s.have_device = 1;
            }
            char label[sizeof m->label];
            snprintf(label, sizeof label, "%s (measured)", s.device.device);
            memcpy(m->label, label, sizeof label);
        } else {
            if (gc_model_parse(spec, &m->model, &err))
                return fail_with(&err);
            /* built aside: label and model name live in the same struct */
            char label[sizeof m->label];
            snprintf(label, sizeof label, "%s", m->model.name);
            for (size_t i = 0; i < gc_preset_count(); ++i) {
                const char *name, *pspec, *source;
                gc_preset_get(i, &name, &pspec, &source);
                if (!strcmp(name, m->model.name))
                    snprintf(label, sizeof label, "%s (%s)", name, pspec);
            }
            memcpy(m->label, label, sizeof label);
        }
    }
    int status = 0;
    for (size_t i = 0; i < mesh_spec_count; ++i) {
        if ((status = load_mesh(mesh_specs[i], &s.meshes[i])) != 0)
            goto out;
        s.mesh_count = i + 1;
    }
    s.job_count = s.mesh_count * s.layout_count * cache_count(&s);
    s.rows = calloc(s.job_count * s.model_count, sizeof *s.rows);
    if (!s.rows) {
        status = EXIT_DATA;
        goto out;
    }
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (cpus > 64 ? 64 : cpus) : 1;
    }
    pthread_mutex_init(&s.lock, NULL);
    s.start = now_seconds();
    s.progress = isatty(2);
    pthread_t workers[64];
    long started = 0;
    for (long t = 1; t < threads; ++t)
        if (pthread_create(&workers[started], NULL, worker, &s) == 0)
            started++;
    worker(&s);
    for (long t = 0; t < started; ++t)
        pthread_join(workers[t], NULL);
    pthread_mutex_destroy(&s.lock);
    if (s.failed) {
        status = fail_with(&s.err);
        goto out;
    }

    /* CSV: one row per (mesh, layout, cache size, model). */
    if (csv_path) {
        atomic_file af;
        if (atomic_open(&af, csv_path) != 0) {
            fprintf(stderr, "gpucache: %s: cannot create: %s\n", csv_path, strerror(errno));
            status = EXIT_DATA;
            goto out;
        }
        fprintf(af.f, "mesh,layout,cache,model,invocations,atvr,acmr,triangles,vertices\n");
        for (size_t job = 0; job < s.job_count; ++job)
            for (size_t k = 0; k < s.model_count; ++k) {
                const row* r = &s.rows[job * s.model_count + k];
                if (!r->valid)
                    continue;
                size_t per_mesh = s.layout_count * cache_count(&s);
                csv_field(af.f, s.meshes[job / per_mesh].name);
                fprintf(af.f, ",%s,%u,", layout_names[s.layouts[(job % per_mesh) / cache_count(&s)]],
                        s.cache_lo + (uint32_t)(job % cache_count(&s)));
                csv_field(af.f, s.models[k].device ? "device" : s.models[k].model.name);
                fprintf(af.f, ",%llu,%.6f,%.6f,%llu,%llu\n", (unsigned long long)r->invocations, r->atvr, r->acmr,
                        (unsigned long long)r->triangles, (unsigned long long)r->vertices);
            }
        if (atomic_commit(&af) != 0) {
            fprintf(stderr, "gpucache: %s: write failed: %s\n", csv_path, strerror(errno));
            status = EXIT_DATA;
            goto out;
        }
    }
    if (json) {
        strbuf j = {0};
        sb_printf(&j, "{\"cache\": [%u, %u], \"rows\": [", s.cache_lo, s.cache_hi);
        int first = 1;
        size_t per_mesh = s.layout_count * cache_count(&s);
        for (size_t job = 0; job < s.job_count; ++job)
            for (size_t k = 0; k < s.model_count; ++k) {
                const row* r = &s.rows[job * s.model_count + k];
                if (!r->valid)
                    continue;
                sb_printf(&j, "%s{\"mesh\": ", first ? "" : ", ");
                sb_json_string(&j, s.meshes[job / per_mesh].name);
                sb_printf(&j, ", \"layout\": \"%s\", \"cache\": %u, \"model\": ",
                          layout_names[s.layouts[(job % per_mesh) / cache_count(&s)]],
                          s.cache_lo + (uint32_t)(job % cache_count(&s)));
                sb_json_string(&j, s.models[k].device ? "device" : s.models[k].model.name);
                sb_printf(&j, ", \"invocations\": %llu, \"atvr\": %.6f, \"acmr\": %.6f}",
                          (unsigned long long)r->invocations, r->atvr, r->acmr);
                first = 0;
            }
        sb_printf(&j, "]}\n");
        if (!j.failed)
            fputs(j.data, stdout);
        free(j.data);
    } else {
        /* The best cache size of each layout, per mesh and model. */
        printf("%-24s %-32s %-9s %10s %8s\n", "mesh", "model", "layout", "best cache", "ATVR");
        size_t per_mesh = s.layout_count * cache_count(&s);
        for (size_t mi = 0; mi < s.mesh_count; ++mi)
            for (size_t k = 0; k < s.model_count; ++k)
                for (size_t li = 0; li < s.layout_count; ++li) {
                    double best = 0;
                    uint32_t at = 0;
                    for (uint32_t cs = s.cache_lo; cs <= s.cache_hi; ++cs) {
                        size_t job = mi * per_mesh + li * cache_count(&s) + (cs - s.cache_lo);
                        const row* r = &s.rows[job * s.model_count + k];
                        if (r->valid && (at == 0 || r->atvr < best)) {
                            best = r->atvr;
                            at = cs;
                        }
                    }
                    if (at)
                        printf("%-24s %-32s %-9s %10u %8.4f\n", s.meshes[mi].name, s.models[k].label,
                               layout_names[s.layouts[li]], at, best);
                }
    }
    if (plot_path)
        status = draw_plot(&s, plot_path);
out:
    for (size_t i = 0; i < MAX_MESHES; ++i)
        free(s.meshes[i].indices);
    free(s.rows);
    if (s.have_device)
        gc_backend_close(&s.device);
    return status;
}
