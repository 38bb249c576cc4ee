/* The report command's part the library leaves to it (report_parts.h): the sweep figure,
 * run as sweep runs it and drawn by gnuplot. */
#define _POSIX_C_SOURCE 200809L
#include "report_parts.h"

#include "gpucache/gpucache_pictures.h"
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether gnuplot is on PATH, as gp_draw will run it (execlp). */
static int gnuplot_on_path(void)
{
    const char* path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        char candidate[4096];
        if (n > 0 && n < sizeof candidate - sizeof "/gnuplot") {
            snprintf(candidate, sizeof candidate, "%.*s/gnuplot", (int)n, path);
            if (access(candidate, X_OK) == 0)
                return 1;
        }
        path += n + (path[n] == ':');
    }
    return 0;
}

/* Reads a whole small file into a NUL-terminated buffer (NULL on failure). */
static char* read_all(const char* path, size_t limit)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    strbuf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.length + n <= limit)
        sb_printf(&b, "%.*s", (int)n, chunk);
    int bad = ferror(f) || n > 0 || b.failed;
    fclose(f);
    if (bad) {
        free(b.data);
        return NULL;
    }
    return b.data;
}

/* Copies gnuplot's SVG into the page from its <svg> element on (the XML declaration and
 * doctype cannot stand inside HTML), with every id and reference to one prefixed by
 * "sweep-", so that they meet no other figure's. The file is gnuplot's output of our own
 * script, not user text: names in it were escaped by gnuplot from gp_string literals. */
static int inline_gnuplot_svg(FILE* f, const char* svg, strbuf* seen, size_t* dups)
{
    const char* start = strstr(svg, "<svg");
    if (!start)
        return -1;
    static const char* const marks[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    const char* p = start;
    while (*p) {
        size_t best = strlen(p);
        size_t which = 0;
        for (size_t k = 0; k < sizeof marks / sizeof marks[0]; ++k) {
            const char* hit = strstr(p, marks[k]);
            if (hit && (size_t)(hit - p) < best)
                best = (size_t)(hit - p), which = k + 1;
        }
        fwrite(p, 1, best, f);
        p += best;
        if (!which)
            break;
        fputs(marks[which - 1], f);
        fputs("sweep-", f);
        p += strlen(marks[which - 1]);
        if (which <= 2) {
            /* gnuplot gives a few groups the same id (a curve and its key entry): the
             * second and later get a number, so that each id names one element */
            char quote = which == 1 ? '\'' : '"';
            size_t len = strcspn(p, which == 1 ? "'" : "\"");
            if (p[len] != quote || len > 200)
                continue;
            strbuf key = {0};
            sb_printf(&key, "\n%.*s\n", (int)len, p);
            if (key.failed) {
                free(key.data);
                return -1;
            }
            int repeat = seen->data && strstr(seen->data, key.data);
            fwrite(p, 1, len, f);
            if (repeat)
                fprintf(f, "-%zu", ++*dups);
            else
                sb_printf(seen, "%s", key.data + (seen->data ? 1 : 0));
            free(key.data);
            p += len;
        }
    }
    return seen->failed ? -1 : 0;
}

/* Runs the sweep of the mesh (its triangle list `tri`, dense ids below vertex_count) for
 * `model` and writes gnuplot's figure into `f`, or a note saying why there is none (and a
 * warning on stderr). Returns non-zero only for a failure of the sweep itself. */
int sweep_figure(FILE* f, const char* name, const uint32_t* tri, size_t n, uint32_t vertex_count,
                        const char* model_spec, const gc_model* model, uint32_t lo, uint32_t hi, long threads)
{
    if (!gnuplot_on_path()) {
        fprintf(stderr, "gpucache: warning: gnuplot not found (install gnuplot-nox): the report has no sweep figure\n");
        fputs("<p class=\"note\">No sweep figure: gnuplot was not found when this report was written.</p>\n", f);
        return 0;
    }
    sweep* s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "gpucache: report: out of memory for the sweep\n");
        return EXIT_DATA;
    }
    int status = 0;
    sweep_mesh* m = &s->meshes[0];
    snprintf(m->name, sizeof m->name, "%.*s", (int)(sizeof m->name - 1), name);
    gc_svg_clean(m->name, 0); /* gnuplot draws the name as it is: no control bytes, UTF-8 only */
    m->indices = (uint32_t*)tri; /* only read */
    m->count = n;
    m->vertices = vertex_count;
    s->mesh_count = 1;
    static const layout layouts[] = {GC_LAYOUT_ORIGINAL, GC_LAYOUT_TIPSIFY, GC_LAYOUT_FORSYTH, GC_LAYOUT_AUTO};
    for (size_t i = 0; i < 4; ++i)
        s->layouts[s->layout_count++] = layouts[i];
    s->cache_lo = lo;
    s->cache_hi = hi;
    s->models[0].model = *model;
    char label[sizeof s->models[0].label];
    snprintf(label, sizeof label, "%s", model_spec);
    memcpy(s->models[0].label, label, sizeof label);
    s->model_count = 1;
    s->job_count = s->layout_count * cache_count(s);
    s->rows = calloc(s->job_count, sizeof *s->rows);
    if (!s->rows) {
        fprintf(stderr, "gpucache: report: out of memory for the sweep's %zu rows\n", s->job_count);
        free(s);
        return EXIT_DATA;
    }
    if (sweep_run(s, threads)) {
        status = fail_with(&s->err);
        goto out;
    }
    /* gnuplot draws into a private folder; the termination signals wait while it exists */
    const char* tmp = getenv("TMPDIR");
    char dir[4096], svg_path[4200], gp_path[4200];
    snprintf(dir, sizeof dir, "%s/gpucache-report-XXXXXX", tmp && *tmp && strlen(tmp) < 4000 ? tmp : "/tmp");
    signals_hold();
    if (!mkdtemp(dir)) {
        signals_release();
        fprintf(stderr, "gpucache: warning: cannot create a temporary folder for the sweep figure in %s\n",
                tmp && *tmp ? tmp : "/tmp");
        fputs("<p class=\"note\">No sweep figure: no temporary folder for gnuplot.</p>\n", f);
        goto out;
    }
    snprintf(svg_path, sizeof svg_path, "%s/sweep.svg", dir);
    script_path(svg_path, gp_path, sizeof gp_path);
    char* svg = draw_plot(s, svg_path) == 0 ? read_all(svg_path, (size_t)64 << 20) : NULL;
    unlink(svg_path);
    unlink(gp_path);
    rmdir(dir);
    signals_release();
    strbuf seen = {0};
    size_t dups = 0;
    sb_printf(&seen, "\n");
    if (svg)
        gc_svg_clean(svg, 1); /* whatever gnuplot passed through */
    if (!svg || inline_gnuplot_svg(f, svg, &seen, &dups) != 0) {
        fprintf(stderr, "gpucache: warning: gnuplot did not draw the sweep: the report has no sweep figure\n");
        fputs("<p class=\"note\">No sweep figure: gnuplot failed.</p>\n", f);
    }
    free(svg);
    free(seen.data);
out:
    free(s->rows);
    free(s);
    return status;
}

gc_status report_sweep_figure(void* user, FILE* f, const char* name, const uint32_t* triangles, size_t index_count,
                              uint32_t vertex_count, uint32_t cache_lo, uint32_t cache_hi, gc_error* err)
{
    report_sweep* r = user;
    r->status = sweep_figure(f, name, triangles, index_count, vertex_count, r->model_spec, r->model, cache_lo,
                             cache_hi, r->threads);
    /* sweep_figure printed what failed: the caller returns r->status */
    if (!r->status)
        return GC_OK;
    err->code = GC_ERR_DATA;
    snprintf(err->message, sizeof err->message, "report: the sweep failed");
    return GC_ERR_DATA;
}
