// SPDX-License-Identifier: MIT
/* gpucache report's sweep figure (gc_report_sweep_figure, gpucache_probe.h): the sweep
 * of the mesh's layouts, run by gc_sweep_run, drawn by gnuplot and inlined in the page. */
#define _POSIX_C_SOURCE 200809L
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_pictures.h"
#include "gpucache/gpucache_probe.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void warn(const gc_report_sweep* r, const char* line)
{
    if (r->note)
        r->note(r->note_user, line);
}

/* Reads a whole small file into a NUL-terminated buffer (NULL on failure). */
static char* read_all(const char* path, size_t limit)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    gc_strbuf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.length + n <= limit)
        gc_sb_printf(&b, "%.*s", (int)n, chunk);
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
 * script, not user text: names in it were escaped by gnuplot from gc_gnuplot_string literals. */
static int inline_gnuplot_svg(FILE* f, const char* svg, gc_strbuf* seen, size_t* dups)
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
            gc_strbuf key = {0};
            gc_sb_printf(&key, "\n%.*s\n", (int)len, p);
            if (key.failed) {
                free(key.data);
                return -1;
            }
            int repeat = seen->data && strstr(seen->data, key.data);
            fwrite(p, 1, len, f);
            if (repeat)
                fprintf(f, "-%zu", ++*dups);
            else
                gc_sb_printf(seen, "%s", key.data + (seen->data ? 1 : 0));
            free(key.data);
            p += len;
        }
    }
    return seen->failed ? -1 : 0;
}

/* The report's sweep (gc_report_sweep_figure): the mesh's layouts over the cache sizes for
 * one model, drawn by gnuplot in a private temporary folder and inlined; a note instead of
 * the figure (and a warning through r->note) when gnuplot is missing or fails. */
gc_status gc_report_sweep_figure(void* user, FILE* f, const char* name, const uint32_t* tri, size_t n,
                                 uint32_t vertex_count, uint32_t lo, uint32_t hi, gc_error* err)
{
    const gc_report_sweep* r = user;
    if (!gc_find_program("gnuplot", NULL, 0)) {
        warn(r, "warning: gnuplot not found (install gnuplot-nox): the report has no sweep figure");
        fputs("<p class=\"note\">No sweep figure: gnuplot was not found when this report was written.</p>\n", f);
        return GC_OK;
    }
    char mesh_name[256];
    snprintf(mesh_name, sizeof mesh_name, "%s", name);
    gc_svg_clean(mesh_name, 0); /* gnuplot draws the name as it is: no control bytes, UTF-8 only */
    gc_sweep_mesh mesh = {mesh_name, 0, 0, 0, tri, n, vertex_count};
    static const gc_sweep_layout layouts[] = {GC_LAYOUT_ORIGINAL, GC_LAYOUT_TIPSIFY, GC_LAYOUT_FORSYTH,
                                              GC_LAYOUT_AUTO};
    gc_sweep g = {0};
    g.meshes = &mesh;
    g.mesh_count = 1;
    g.layouts = layouts;
    g.layout_count = 4;
    g.cache_lo = lo;
    g.cache_hi = hi;
    g.models = r->model;
    g.model_count = 1;
    g.threads = r->threads;
    g.progress = r->progress;
    g.progress_user = r->progress_user;
    size_t jobs = 4 * (size_t)(hi - lo + 1);
    gc_sweep_row* rows = gc_alloc_array(jobs, sizeof *rows, true);
    if (!rows)
        return gc_fail(err, GC_ERR_NOMEM, "report: out of memory for the sweep's %zu rows", jobs);
    gc_status s = gc_sweep_run(&g, rows, err);
    if (s) {
        free(rows);
        return s;
    }
    /* gnuplot draws into a private folder; the caller may hold signals while it exists */
    const char* tmp = getenv("TMPDIR");
    char dir[4096], svg_path[4200], gp_path[4200];
    snprintf(dir, sizeof dir, "%s/gpucache-report-XXXXXX", tmp && *tmp && strlen(tmp) < 4000 ? tmp : "/tmp");
    if (r->hold)
        r->hold(1);
    if (!mkdtemp(dir)) {
        if (r->hold)
            r->hold(0);
        char line[4200];
        snprintf(line, sizeof line, "warning: cannot create a temporary folder for the sweep figure in %s",
                 tmp && *tmp ? tmp : "/tmp");
        warn(r, line);
        fputs("<p class=\"note\">No sweep figure: no temporary folder for gnuplot.</p>\n", f);
        free(rows);
        return GC_OK;
    }
    snprintf(svg_path, sizeof svg_path, "%s/sweep.svg", dir);
    snprintf(gp_path, sizeof gp_path, "%s/sweep.gp", dir);
    char* svg = NULL;
    FILE* script = fopen(gp_path, "w");
    if (script) {
        const char* labels[1] = {r->model_spec};
        gc_sweep_plot_script(script, &g, labels, rows, svg_path);
        int bad = ferror(script);
        if (fclose(script) == 0 && !bad) {
            gc_error gerr = {0};
            if (gc_gnuplot_draw(gp_path, svg_path, &gerr) == GC_OK)
                svg = read_all(svg_path, (size_t)64 << 20);
            else
                warn(r, gerr.message);
        }
    }
    unlink(svg_path);
    unlink(gp_path);
    rmdir(dir);
    if (r->hold)
        r->hold(0);
    free(rows);
    gc_strbuf seen = {0};
    size_t dups = 0;
    gc_sb_printf(&seen, "\n");
    if (svg)
        gc_svg_clean(svg, 1); /* whatever gnuplot passed through */
    if (!svg || inline_gnuplot_svg(f, svg, &seen, &dups) != 0) {
        warn(r, "warning: gnuplot did not draw the sweep: the report has no sweep figure");
        fputs("<p class=\"note\">No sweep figure: gnuplot failed.</p>\n", f);
    }
    free(svg);
    free(seen.data);
    return GC_OK;
}
