/* gpucache report: one self-contained HTML page about one mesh (docs/report.md): its
 * summary, every preset's invocations, ACMR, ATVR and batches (the numbers of
 * `analyze --json`), the heat maps before and after `optimize -a auto` for one model, the
 * sweep of the layouts over a range of cache sizes, and the commands that redo each part.
 *
 * Everything is computed in this process with the library and the tool's own drawing
 * code (pictures.c, sweep_plot.c); only the sweep's figure needs gnuplot, run as sweep
 * --plot runs it. The page is built in memory and written whole or not at all; it loads
 * nothing (no network, no file): the pictures are inline SVG. Every name that came from
 * the command line or a file is HTML-escaped, and the commands are single-quoted for a
 * POSIX shell. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache.h"

#include "cli.h"
#include "commands.h"
#include "help.h"
#include "model_report.h"
#include "pictures.h"
#include "svg.h"
#include "sweep.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_ROWS 64
/* The model the heat maps show and `optimize -a auto` targets when no -m is given: the
 * generic 16-entry FIFO, the README's heat-map model (and no value-keyed rule, so the
 * picture does not depend on how a writer numbers the vertices). */
#define DEFAULT_MODEL "generic"
/* The sweep's default cache sizes and its layouts for a mesh (optimal and striped are for
 * generated grids only). */
#define DEFAULT_CACHE "8..32"
#define SWEEP_LAYOUTS "original,tipsify,forsyth,auto"
/* The sweep optimizes the mesh once per layout and cache size: past this many triangles x
 * cache sizes the default range is narrowed around 16 (docs/report.md), so that a
 * 1M-triangle mesh costs seconds, not minutes. --cache overrides it. */
#define SWEEP_TRIANGLE_BUDGET 4000000ull

/* The most triangles each of the report's two heat maps draws (a page holds two): a
 * 1M-triangle mesh's page stays a few MB. */
#define REPORT_HEATMAP_TRIANGLES 30000

/* ------------------------------------------------------------------ HTML text */

/* Text as HTML character data or attribute text (svg_escape: & < > " ' escaped, control
 * characters and malformed UTF-8 as '?'), except line breaks and tabs, kept, for <pre>. */
static void html_text(FILE* f, const char* s)
{
    while (*s) {
        size_t n = strcspn(s, "\n\t");
        if (n) {
            char* part = strndup(s, n);
            if (part)
                svg_escape(f, part, 0);
            free(part);
            s += n;
        }
        if (*s)
            fputc(*s++, f);
    }
}

/* Appends `s` to the shell command in *b as one word a POSIX shell reads back byte for
 * byte: single-quoted ('\'' for a quote), control bytes and malformed UTF-8 (which a page
 * cannot show) as "$(printf '\ooo')"; a name that starts with '-' gets "./" so that it is
 * no option. Line breaks stay inside the quotes, as the shell reads them. */
static void sh_word(strbuf* b, const char* s)
{
    const unsigned char* u = (const unsigned char*)s;
    if (s[0] == '-' && s[1])
        sb_printf(b, "./");
    /* a word of only these characters means itself to the shell: no quotes needed */
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,+=@%-") == strlen(s)) {
        sb_printf(b, "%s", s);
        return;
    }
    sb_printf(b, "'");
    for (size_t i = 0; u[i];) {
        size_t n = svg_utf8_length(u + i);
        if (u[i] == '\'') {
            sb_printf(b, "'\\''");
            i++;
        } else if (n == 0 || (u[i] < 0x20 && u[i] != '\n') || u[i] == 0x7F) {
            sb_printf(b, "'\"$(printf '\\%03o')\"'", u[i]);
            i++;
        } else {
            sb_printf(b, "%.*s", (int)n, s + i);
            i += n;
        }
    }
    sb_printf(b, "'");
}

/* ------------------------------------------------------------------ the work */

typedef struct report_row {
    model_result before;
    gc_stats after;
    int is_preset;
} report_row;

/* Every row's model analyzed on one draw (gc_analyze_models: one scan, several threads). */
static int analyze_rows(report_row* rows, size_t count, const gc_draw* d, long threads, int after)
{
    gc_model* models = calloc(count, sizeof *models);
    gc_stats* stats = calloc(count, sizeof *stats);
    gc_error err = {0};
    int status = 0;
    if (!models || !stats) {
        fprintf(stderr, "gpucache: report: out of memory for %zu models\n", count);
        status = EXIT_DATA;
    }
    for (size_t i = 0; !status && i < count; ++i)
        models[i] = rows[i].before.model;
    if (!status && gc_analyze_models(models, count, d, NULL, (unsigned)threads, stats, &err))
        status = fail_with(&err);
    for (size_t i = 0; !status && i < count; ++i) {
        if (after)
            rows[i].after = stats[i];
        else
            rows[i].before.stats = stats[i];
    }
    free(models);
    free(stats);
    return status;
}

/* The largest per-vertex count of `d` under `m`: the heat maps' common scale. With
 * `runs` (a glTF's triangle primitives, runs[r] triangles each), each run is analyzed as
 * its own draw and a vertex's counts over the runs add up, as draw_heatmap counts them;
 * `vertex_count` bounds the index values then. */
static int largest_count(const gc_model* m, const gc_draw* d, const size_t* runs, size_t run_count,
                         size_t vertex_count, uint32_t* out)
{
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    gc_stats st;
    gc_error err = {0};
    uint32_t top = 1;
    if (!runs) {
        if (gc_analyze(m, d, &o, &st, &err))
            return fail_with(&err);
        for (size_t i = 0; i < pv.count; ++i)
            top = pv.counts[i] > top ? pv.counts[i] : top;
        gc_per_vertex_free(&pv);
        *out = top;
        return 0;
    }
    uint32_t* counts = calloc(vertex_count ? vertex_count : 1, sizeof *counts);
    if (!counts) {
        fprintf(stderr, "gpucache: report: out of memory for %zu vertex counts\n", vertex_count);
        return EXIT_DATA;
    }
    for (size_t r = 0, at = 0; r < run_count; at += runs[r] * 3, ++r) {
        gc_draw one = {d->indices + at, runs[r] * 3, d->topology, 0, 0};
        if (!one.index_count)
            continue;
        if (gc_analyze(m, &one, &o, &st, &err)) {
            free(counts);
            return fail_with(&err);
        }
        for (size_t i = 0; i < pv.count; ++i)
            if (pv.values[i] < vertex_count) {
                counts[pv.values[i]] += pv.counts[i];
                top = counts[pv.values[i]] > top ? counts[pv.values[i]] : top;
            }
        gc_per_vertex_free(&pv);
    }
    free(counts);
    *out = top;
    return 0;
}

/* ------------------------------------------------------------------ glTF */

/* What the summary says of a glTF: its sums over the primitives, as analyze prints them,
 * and what optimize did to them. */
typedef struct gltf_summary {
    gltf_totals totals;
    size_t reordered, left; /* triangle lists optimize reordered, primitives it left */
} gltf_summary;

/* Every row's model on every primitive of `doc` (gltf_sum_stats: what `analyze --json`
 * prints for a glTF, and `optimize --json` as "after") into the rows' "before" or, with
 * `after`, "after" stats; with `totals`, the draws' own sums too. */
static int gltf_analyze(const gc_gltf* doc, const char* path, report_row* rows, size_t count, long threads,
                        int after, gltf_totals* totals)
{
    gc_model* models = calloc(count ? count : 1, sizeof *models);
    gc_stats* sums = calloc(count ? count : 1, sizeof *sums);
    int status = 0;
    if (!models || !sums) {
        fprintf(stderr, "gpucache: report: out of memory for %zu models\n", count);
        status = EXIT_DATA;
    }
    for (size_t m = 0; !status && m < count; ++m)
        models[m] = rows[m].before.model;
    if (!status)
        status = gltf_sum_stats(doc, path, models, count, (unsigned)threads, sums, totals);
    for (size_t m = 0; !status && m < count; ++m) {
        if (after)
            rows[m].after = sums[m];
        else
            rows[m].before.stats = sums[m];
    }
    free(models);
    free(sums);
    return status;
}

/* The triangles of `doc`'s triangle primitives (strips and fans expanded) in file order
 * into out[0 .. n), as gc_mesh_load lists them but with each primitive's own index
 * values. Returns 0 or the exit status after printing one line. */
static int gltf_local_triangles(const gc_gltf* doc, const char* path, uint32_t* out, size_t n)
{
    gc_error err = {0};
    size_t at = 0;
    for (size_t i = 0; i < gc_gltf_primitive_count(doc); ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(doc, i);
        if (p->topology != GC_TRIANGLE_LIST && p->topology != GC_TRIANGLE_STRIP && p->topology != GC_TRIANGLE_FAN)
            continue;
        gc_draw d = {p->indices, p->index_count, p->topology, 0, 0};
        size_t written = 0;
        if (gc_draw_triangles(&d, out + at, n - at, &written, &err))
            return fail_with(&err);
        at += written;
    }
    if (at != n) {
        fprintf(stderr, "gpucache: %s: %zu triangle indices in the primitives, %zu in the mesh\n", path, at, n);
        return EXIT_DATA;
    }
    return 0;
}

/* optimize -a auto -m TARGET on a glTF, in memory, as the optimize command does it
 * (optimize_gltf_primitives: each indexed triangle list on its own), then every row
 * analyzed on the result primitive by primitive ("after"), and the mesh's triangle list
 * `mesh` (gc_mesh_load's: each primitive's values offset by its vertex set's base) as it
 * becomes, into `after`: base + the primitive's new index values. */
static int gltf_optimize(gc_gltf* doc, const char* path, const uint32_t* mesh, uint32_t* after, size_t n,
                         const gc_model* target, report_row* rows, size_t count, long threads, gltf_summary* gs,
                         double* seconds)
{
    /* each index's vertex-set base: the mesh's value less the primitive's own */
    int status = gltf_local_triangles(doc, path, after, n);
    for (size_t k = 0; !status && k < n; ++k)
        after[k] = mesh[k] - after[k];
    gc_optimize_options options = {0};
    options.targets = target;
    options.target_count = 1;
    size_t triangles = 0;
    double t = now_seconds();
    if (!status)
        status = optimize_gltf_primitives(doc, path, GC_OPT_AUTO, &options, 0, 0, &triangles, &gs->reordered,
                                          &gs->left);
    *seconds = now_seconds() - t;
    if (!status)
        status = gltf_analyze(doc, path, rows, count, threads, 1, NULL);
    uint32_t* local = status ? NULL : malloc((n ? n : 1) * sizeof *local);
    if (!status && !local) {
        fprintf(stderr, "gpucache: %s: out of memory for the %zu reordered indices\n", path, n);
        status = EXIT_DATA;
    }
    if (!status)
        status = gltf_local_triangles(doc, path, local, n);
    for (size_t k = 0; !status && k < n; ++k)
        after[k] += local[k];
    free(local);
    return status;
}

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
static int sweep_figure(FILE* f, const char* name, const uint32_t* tri, size_t n, uint32_t vertex_count,
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
    snprintf(m->name, sizeof m->name, "%s", name);
    svg_clean(m->name, 0); /* gnuplot draws the name as it is: no control bytes, UTF-8 only */
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
        svg_clean(svg, 1); /* whatever gnuplot passed through */
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

/* ------------------------------------------------------------------ the page */

static const char* const page_style =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}th{text-align:left;background:#f3f3f3}"
    "dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}dd{margin:0}"
    ".pair{display:flex;gap:1em;flex-wrap:wrap}.pair figure{flex:1 1 460px;min-width:300px}"
    "figure{margin:0 0 1em 0}figure svg{display:block;width:100%;height:auto}"
    "#sweep svg{max-width:720px}figcaption{font-size:.9em;color:#555}pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre}"
    ".note{color:#a33}";

/* A number cell: the text `analyze --json` prints for it. */
static void number_cell(FILE* f, const char* cls, const char* text)
{
    fprintf(f, "<td class=\"n %s\">%s</td>", cls, text);
}

int cmd_report(int argc, char** argv)
{
    enum { OPT_CACHE = 256, OPT_VIEW, OPT_THREADS, OPT_POSITIONS };
    static const struct option long_options[] = {
        {"model", required_argument, NULL, 'm'},
        {"output", required_argument, NULL, 'o'},
        {"cache", required_argument, NULL, OPT_CACHE},
        {"view", required_argument, NULL, OPT_VIEW},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"positions", no_argument, NULL, OPT_POSITIONS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char* model_spec = NULL;
    const char* out_path = NULL;
    const char* cache_text = NULL;
    const char* view_name = "front";
    heatmap_view view = VIEW_FRONT;
    long threads = default_threads();
    gc_load_options lo = {0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":m:o:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (model_spec)
                return usage_error("report takes one -m (the heat maps' model and optimize's target), got also '%s'",
                                   optarg);
            model_spec = optarg;
            break;
        case 'o': out_path = optarg; break;
        case OPT_CACHE: cache_text = optarg; break;
        case OPT_VIEW:
            if (heatmap_view_parse(optarg, &view) != 0)
                return usage_error("--view needs front, side or top, not '%s'", optarg);
            view_name = optarg;
            break;
        case OPT_THREADS:
            if (parse_count(optarg, 1, GC_MAX_THREADS, &threads) != 0)
                return usage_error("--threads needs a count in [1, 64], not '%s'", optarg);
            break;
        case OPT_POSITIONS: lo.positions_only = 1; break;
        case 'h': print_command_help(stdout, argv[0]); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    const char* path;
    int status = one_input(argc, argv, "report", &path);
    if (status)
        return status;
    if (!out_path)
        return usage_error("report needs -o OUT.html%s", "");
    if (!model_spec)
        model_spec = DEFAULT_MODEL;
    if (is_stdio_path(model_arg_file(model_spec)) && gc_stdin_format(path))
        return usage_error("'-' (standard input) can be given to only one of INPUT and -m @FILE%s", "");
    uint64_t cache_lo = 0, cache_hi = 0;
    /* two sizes at least: a curve of one point is no plot (gnuplot refuses an empty x range) */
    if (cache_text && (parse_range_arg(cache_text, 3, 256, &cache_lo, &cache_hi) != 0 || cache_lo == cache_hi))
        return usage_error("--cache %s: expected A..B with 3 <= A < B <= 256", cache_text);
    {
        const char* inputs[2] = {strcmp(path, "-") ? path : NULL, model_arg_file(model_spec)};
        if ((status = check_output(out_path, inputs, 2)) != 0)
            return status;
    }
    gc_error err = {0};
    gc_model target;
    if (model_arg(model_spec, &target, &err))
        return fail_with(&err);

    /* the table's rows: every preset (what analyze --json prints), then the target when it
     * is none of them */
    report_row* rows = calloc(MAX_ROWS, sizeof *rows);
    if (!rows)
        return EXIT_DATA;
    size_t row_count = 0;
    int target_row = -1;
    for (size_t i = 0; i < gc_preset_count() && row_count < MAX_ROWS - 1; ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        if (gc_model_parse(name, &rows[row_count].before.model, &err)) {
            free(rows);
            return fail_with(&err);
        }
        rows[row_count].before.seconds = -1;
        rows[row_count].is_preset = 1;
        if (!strcmp(name, target.name))
            target_row = (int)row_count;
        row_count++;
    }
    if (target_row < 0) {
        target_row = (int)row_count;
        rows[row_count].before.model = target;
        rows[row_count].before.seconds = -1;
        row_count++;
    }

    double t0 = now_seconds();
    const int gltf = is_gltf_path(path);
    input in;
    memset(&in, 0, sizeof in);
    gc_draw draw = {0};
    uint64_t primitives = 0;
    gc_gltf* doc = NULL;
    gltf_summary gs = {0};
    if (gltf) {
        /* read as analyze reads a glTF (its errors, its exit statuses): each mesh primitive
         * a draw of its own; the triangle primitives as one mesh (gc_mesh_load) for the
         * heat maps and the sweep */
        gc_gltf_options go = {0};
        go.note = print_note;
        if (gc_gltf_load(path, &go, &doc, &err)) {
            free(rows);
            return fail_with(&err);
        }
        status = gltf_analyze(doc, path, rows, row_count, threads, 0, &gs.totals);
        if (!status && gs.totals.triangles)
            status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives);
        snprintf(in.name, sizeof in.name, "%s", path);
        if (status) {
            gc_gltf_free(doc);
            free(rows);
            return status;
        }
    } else if ((status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives)) != 0) {
        free(rows);
        return status;
    }
    uint32_t* tri = NULL;    /* the triangle list, dense ids */
    uint32_t* opt = NULL;    /* after optimize, the input's values */
    uint32_t* values = NULL; /* dense id -> value, when compacted */
    float* xyz = NULL;
    size_t xyz_count = 0;
    char* page = NULL;
    size_t page_size = 0;
    FILE* f = NULL;
    size_t n = 0;
    uint32_t dense_count = 0;
    int has_triangles = gltf ? gs.totals.triangles > 0
                             : !(draw.topology == GC_POINT_LIST || draw.topology == GC_LINE_LIST ||
                                 draw.topology == GC_LINE_STRIP || draw.topology == GC_LINE_LOOP);
    if (!gltf && (status = analyze_rows(rows, row_count, &draw, threads, 0)) != 0)
        goto out;
    uint64_t vertices = gltf ? gs.totals.vertices : rows[0].before.stats.vertices;
    /* a glTF's heat maps analyze each triangle primitive as its own draw, as analyze
     * --heatmap does: one run of the mesh each */
    size_t single_run = 0;
    const size_t* heat_runs = NULL;
    size_t heat_run_count = 0;

    /* optimize -a auto -m MODEL, as the optimize command does it: the triangle list, each
     * run on its own, an OBJ's vertices scored as its reader will number them */
    const char* dot = strrchr(path, '.');
    const int is_obj = dot && strcasecmp(dot, ".obj") == 0;
    double optimize_seconds = 0;
    if (has_triangles) {
        size_t capacity = (size_t)primitives * 6 + 1;
        tri = malloc(capacity * sizeof *tri);
        if (!tri) {
            fprintf(stderr, "gpucache: %s: out of memory for a triangle list of %zu indices\n", path, capacity);
            status = EXIT_DATA;
            goto out;
        }
        if (gc_draw_triangles(&draw, tri, capacity, &n, &err)) {
            status = fail_with(&err);
            goto out;
        }
        if ((status = compact_indices(tri, n, &values, &dense_count)) != 0)
            goto out;
        opt = malloc((n ? n : 1) * sizeof *opt);
        if (!opt) {
            fprintf(stderr, "gpucache: %s: out of memory for the %zu reordered indices\n", path, n);
            status = EXIT_DATA;
            goto out;
        }
        if (gltf) {
            single_run = n / 3;
            heat_runs = in.mesh.runs ? in.mesh.runs : &single_run;
            heat_run_count = in.mesh.runs ? in.mesh.run_count : 1;
            if ((status = gltf_optimize(doc, path, draw.indices, opt, n, &target, rows, row_count, threads, &gs,
                                        &optimize_seconds)) != 0)
                goto out;
            gc_gltf_free(doc); /* the mesh's lists hold what the rest needs */
            doc = NULL;
            goto optimized;
        }
        size_t single = n / 3;
        int by_runs = in.mesh.runs && draw.topology == GC_TRIANGLE_LIST;
        const size_t* runs = by_runs ? in.mesh.runs : &single;
        size_t run_count = by_runs ? in.mesh.run_count : 1;
        gc_optimize_options options = {0};
        options.targets = &target;
        options.target_count = 1;
        options.first_use_numbering = is_obj;
        options.stream_length = n;
        float* positions = NULL; /* the overdraw pass, as optimize's default */
        if ((status = optimize_positions(path, &lo, values, dense_count, 0, &positions)) != 0)
            goto out;
        options.positions = positions;
        progress_line prog;
        progress_init(&prog, "report: optimize");
        options.progress = progress_report;
        options.progress_user = &prog;
        double t = now_seconds();
        for (size_t r = 0, at = 0; r < run_count; at += runs[r] * 3, ++r) {
            options.stream_position = at;
            if (runs[r] && gc_optimize(GC_OPT_AUTO, tri + at, runs[r] * 3, dense_count, &options, opt + at, &err)) {
                progress_end(&prog);
                free(positions);
                status = fail_with(&err);
                goto out;
            }
        }
        progress_end(&prog);
        free(positions);
        optimize_seconds = now_seconds() - t;
        /* the table's "after" as `optimize` reports it: an OBJ renumbered in first-use order
         * (which depends only on the order, so the dense ids serve), else the input's values */
        uint32_t* seen = malloc((n ? n : 1) * sizeof *seen);
        uint32_t* remap = is_obj ? malloc(((size_t)dense_count ? dense_count : 1) * sizeof *remap) : NULL;
        uint32_t used = 0;
        if (!seen || (is_obj && !remap)) {
            free(seen);
            free(remap);
            fprintf(stderr, "gpucache: %s: out of memory for the reordered indices\n", path);
            status = EXIT_DATA;
            goto out;
        }
        memcpy(seen, opt, n * sizeof *seen);
        if (is_obj && gc_reorder_vertices(seen, n, dense_count, remap, &used, &err)) {
            free(seen);
            free(remap);
            status = fail_with(&err);
            goto out;
        }
        free(remap);
        for (size_t i = 0; values && i < n; ++i) {
            if (!is_obj)
                seen[i] = values[seen[i]];
            opt[i] = values[opt[i]];
        }
        gc_draw after = {seen, n, GC_TRIANGLE_LIST, 0, 0};
        status = analyze_rows(rows, row_count, &after, threads, 1);
        free(seen);
        if (status)
            goto out;
    }
optimized:
    verbose_note("report: loaded, analyzed and optimized in %.3f s (optimize %.3f s)", now_seconds() - t0,
                 optimize_seconds);

    /* the page, in memory until it is whole */
    f = open_memstream(&page, &page_size);
    if (!f) {
        fprintf(stderr, "gpucache: report: out of memory for the page\n");
        status = EXIT_DATA;
        goto out;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
    /* nothing may load: the page is whole by itself */
    fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
          f);
    fputs("<title>gpucache report: ", f);
    html_text(f, in.name);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>gpucache report: ", page_style);
    html_text(f, in.name);
    fputs("</h1>\n", f);

    /* summary */
    fputs("<h2 id=\"summary\">Summary</h2>\n<dl class=\"summary\">\n<dt>input</dt><dd class=\"input\">", f);
    html_text(f, in.name);
    if (gltf) {
        fprintf(f, "</dd>\n<dt>format</dt><dd>glTF, each mesh primitive a draw of its own</dd>\n"
                   "<dt>draws</dt><dd class=\"draws\">%zu</dd>\n<dt>topology</dt><dd>%s</dd>\n",
                gs.totals.draws,
                gs.totals.mixed ? "mixed" : gs.totals.draws ? gc_topology_name(gs.totals.topology) : "-");
        fprintf(f, "<dt>indices</dt><dd class=\"indices\">%llu</dd>\n<dt>primitives</dt><dd class=\"primitives\">%llu"
                   "</dd>\n",
                (unsigned long long)gs.totals.indices, (unsigned long long)gs.totals.primitives);
    } else {
        fprintf(f, "</dd>\n<dt>topology</dt><dd>%s%s</dd>\n", gc_topology_name(draw.topology),
                draw.restart_enabled ? ", with restart" : "");
        fprintf(f, "<dt>indices</dt><dd class=\"indices\">%zu</dd>\n<dt>primitives</dt><dd class=\"primitives\">%llu"
                   "</dd>\n",
                draw.index_count, (unsigned long long)primitives);
    }
    fprintf(f, "<dt>vertices</dt><dd class=\"vertices\">%llu</dd>\n", (unsigned long long)vertices);
    if (has_triangles)
        fprintf(f, "<dt>triangles</dt><dd>%zu</dd>\n", n / 3);
    fputs("<dt>model</dt><dd class=\"model\">", f);
    html_text(f, target.name);
    fputs(" (the heat maps' model and optimize's target)</dd>\n", f);
    fprintf(f, "<dt>gpucache</dt><dd>%s</dd>\n</dl>\n", GPUCACHE_VERSION_STRING);

    /* the table */
    fputs("<h2 id=\"models\">Every preset</h2>\n<table id=\"presets\">\n<thead><tr><th>model</th><th>family</th>"
          "<th>invocations</th><th>ACMR</th><th>ATVR</th><th>batches</th>",
          f);
    if (has_triangles)
        fputs("<th>invocations after</th><th>ATVR after</th>", f);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < row_count; ++i) {
        const gc_stats* s = &rows[i].before.stats;
        fputs(rows[i].is_preset ? "<tr class=\"preset\" data-model=\"" : "<tr class=\"target\" data-model=\"", f);
        html_text(f, rows[i].before.model.name);
        fputs("\"><td class=\"name\">", f);
        html_text(f, rows[i].before.model.name);
        fprintf(f, "%s</td><td>%s</td>", (int)i == target_row ? " (target)" : "",
                gc_model_family_name(rows[i].before.model.family));
        char text[64];
        snprintf(text, sizeof text, "%llu", (unsigned long long)s->invocations);
        number_cell(f, "invocations", text);
        number_cell(f, "acmr", JF(s->acmr));
        number_cell(f, "atvr", JF(s->atvr));
        if (s->has_batches)
            snprintf(text, sizeof text, "%llu", (unsigned long long)s->batches);
        else
            snprintf(text, sizeof text, "-");
        number_cell(f, "batches", text);
        if (has_triangles) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)rows[i].after.invocations);
            number_cell(f, "invocations-after", text);
            number_cell(f, "atvr-after", JF(rows[i].after.atvr));
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
    if (gltf)
        fputs("<p>Each mesh primitive is analyzed as its own draw with its own topology; the numbers are the sums "
              "over the draws (ACMR and ATVR of the sums), as <code>analyze --json</code> prints them.</p>\n",
              f);
    if (has_triangles && gltf)
        fprintf(f, "<p>\"after\": each indexed triangle-list primitive reordered on its own by <code>optimize -a "
                   "auto</code> for the target model (%zu reordered; %zu strips, fans, lists without indices or index "
                   "data something else reads left as they are), the draws analyzed again and summed, as "
                   "<code>optimize --json</code> reports them. Nothing is written but this page.</p>\n",
                gs.reordered, gs.left);
    else if (has_triangles)
        fputs("<p>\"after\": the triangles reordered by <code>optimize -a auto</code> for the target model, analyzed "
              "as <code>optimize</code> reports them (an OBJ renumbered in order of first use, as its reader "
              "numbers it).</p>\n",
              f);

    /* the heat maps */
    fputs("<h2 id=\"heatmaps\">Heat maps before and after optimize -a auto</h2>\n", f);
    uint32_t scale_max = 1;
    int pictures = has_triangles && gc_mesh_load_positions(path, &lo, &xyz, &xyz_count, &err) == 0;
    if (has_triangles && !pictures) {
        fputs("<p class=\"note\">No heat maps: ", f);
        html_text(f, err.message);
        fputs("</p>\n", f);
        note("report: no heat maps: %s", "the input has no vertex positions");
    } else if (!has_triangles) {
        fputs("<p class=\"note\">No heat maps: the input draws no triangles.</p>\n", f);
    }
    if (pictures && (status = largest_count(&target, &draw, heat_runs, heat_run_count, xyz_count, &scale_max)) != 0)
        goto out;
    if (pictures) {
        gc_draw after = {opt, n, GC_TRIANGLE_LIST, 0, 0};
        fputs("<div class=\"pair\">\n<figure id=\"heatmap-before\" class=\"figure\">\n", f);
        if ((status = draw_heatmap(f, NULL, xyz, xyz_count, in.name, &target, &draw, heat_runs, heat_run_count,
                                   NULL, view, scale_max, REPORT_HEATMAP_TRIANGLES)) != 0)
            goto out;
        fputs("<figcaption>As stored.</figcaption>\n</figure>\n<figure id=\"heatmap-after\" class=\"figure\">\n", f);
        if ((status = draw_heatmap(f, NULL, xyz, xyz_count, in.name, &target, &after, heat_runs, heat_run_count,
                                   NULL, view, scale_max, REPORT_HEATMAP_TRIANGLES)) != 0)
            goto out;
        fprintf(f, "<figcaption>After <code>optimize -a auto</code> (%.2f s), on the same colour scale (1 to %u)."
                   "</figcaption>\n</figure>\n</div>\n",
                optimize_seconds, scale_max);
        free(xyz);
        xyz = NULL;
    }

    /* the sweep */
    uint32_t lo_size = 8, hi_size = 32;
    if (cache_text) {
        lo_size = (uint32_t)cache_lo, hi_size = (uint32_t)cache_hi;
    } else if (n / 3 * 25 > SWEEP_TRIANGLE_BUDGET) {
        /* narrowed around 16, at least 3 sizes */
        uint64_t sizes = SWEEP_TRIANGLE_BUDGET / (n / 3 ? n / 3 : 1);
        sizes = sizes < 3 ? 3 : sizes;
        lo_size = 16 - (uint32_t)(sizes / 2), hi_size = lo_size + (uint32_t)sizes - 1;
    }
    fprintf(f, "<h2 id=\"sweep-section\">Sweep: ATVR against the target cache size (%u to %u)</h2>\n", lo_size,
            hi_size);
    if (!has_triangles) {
        fputs("<p class=\"note\">No sweep: the input draws no triangles.</p>\n", f);
    } else {
        fputs("<figure id=\"sweep\" class=\"figure\">\n", f);
        if ((status = sweep_figure(f, in.name, tri, n, dense_count, model_spec, &target, lo_size, hi_size,
                                   threads)) != 0)
            goto out;
        fputs("<figcaption>Each layout of the mesh (" SWEEP_LAYOUTS ") optimized for each cache size, analyzed "
              "under the target model.",
              f);
        if (gltf)
            fputs(" For a glTF, the mesh is the triangles of every triangle primitive (strips and fans expanded) "
                  "in file order as one list, as <code>sweep --mesh</code> reads the file: the original layout is "
                  "that list drawn at once, and the others reorder it across the primitives.",
                  f);
        fputs("</figcaption>\n</figure>\n", f);
    }

    /* the commands that redo each part */
    {
        strbuf in_word = {0}, model_word = {0}, cmds = {0};
        sh_word(&in_word, in.name);
        sh_word(&model_word, model_spec);
        const char* ext = dot && !strchr(dot, '/') && strlen(dot) < 12 ? dot : ".txt";
        char view_opt[32] = "";
        if (view != VIEW_FRONT)
            snprintf(view_opt, sizeof view_opt, " --view %s", view_name);
        sb_printf(&cmds, "# the table\ngpucache analyze --json %s\n", in_word.data);
        if (has_triangles) {
            sb_printf(&cmds, "# the heat maps\ngpucache analyze -m %s --heatmap before.svg%s --heatmap-max %u %s\n",
                      model_word.data, view_opt, scale_max, in_word.data);
            sb_printf(&cmds, "gpucache optimize -a auto -m %s %s -o after%s\n", model_word.data, in_word.data, ext);
            sb_printf(&cmds, "gpucache analyze -m %s --heatmap after.svg%s --heatmap-max %u after%s\n",
                      model_word.data, view_opt, scale_max, ext);
            sb_printf(&cmds, "# the sweep\ngpucache sweep --mesh %s -a " SWEEP_LAYOUTS " --cache %u..%u -m %s "
                             "--plot sweep.svg\n",
                      in_word.data, lo_size, hi_size, model_word.data);
        }
        sb_printf(&cmds, "# this report\ngpucache report -m %s --cache %u..%u%s %s -o report.html\n", model_word.data,
                  lo_size, hi_size, view_opt, in_word.data);
        fputs("<h2 id=\"commands\">Commands</h2>\n<pre id=\"commands-text\">", f);
        if (!cmds.failed && !in_word.failed && !model_word.failed)
            html_text(f, cmds.data);
        fputs("</pre>\n", f);
        int failed = cmds.failed || in_word.failed || model_word.failed;
        free(cmds.data);
        free(in_word.data);
        free(model_word.data);
        if (failed) {
            fprintf(stderr, "gpucache: report: out of memory for the commands\n");
            status = EXIT_DATA;
            goto out;
        }
    }
    fputs("</body>\n</html>\n", f);
    if (fclose(f) != 0 || !page) {
        f = NULL;
        fprintf(stderr, "gpucache: report: out of memory for the page\n");
        status = EXIT_DATA;
        goto out;
    }
    f = NULL;
    {
        atomic_file af;
        if (atomic_open(&af, out_path) != 0) {
            status = fail_with(&af.err);
            goto out;
        }
        fwrite(page, 1, page_size, af.f);
        if (atomic_commit(&af) != 0) {
            fprintf(stderr, "gpucache: %s\n", af.err.message[0] ? af.err.message : out_path);
            status = EXIT_DATA;
            goto out;
        }
    }
    verbose_note("report: %zu bytes in %.3f s", page_size, now_seconds() - t0);
out:
    if (f)
        fclose(f);
    free(page);
    free(xyz);
    free(tri);
    free(opt);
    free(values);
    gc_mesh_free(&in.mesh);
    gc_gltf_free(doc);
    free(rows);
    return status;
}
