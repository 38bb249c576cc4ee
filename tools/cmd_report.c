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
#include "report_parts.h"
#include "gpucache/gpucache_pictures.h"
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
/* The sweep optimizes the mesh once per layout and cache size: past this many triangles x
 * cache sizes the default range is narrowed around 16 (docs/report.md), so that a
 * 1M-triangle mesh costs seconds, not minutes. --cache overrides it. */
#define SWEEP_TRIANGLE_BUDGET 4000000ull

/* The most triangles each of the report's two heat maps draws (a page holds two): a
 * 1M-triangle mesh's page stays a few MB. */
#define REPORT_HEATMAP_TRIANGLES 30000

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
    const int gltf = strcmp(gc_mesh_format(path), "gltf") == 0;
    input in;
    memset(&in, 0, sizeof in);
    gc_draw draw = {0};
    uint64_t primitives = 0;
    gc_mesh_analysis ga;
    memset(&ga, 0, sizeof ga);
    gc_mesh_optimized r;
    memset(&r, 0, sizeof r);
    gc_model models[MAX_ROWS];
    for (size_t i = 0; i < row_count; ++i)
        models[i] = rows[i].before.model;
    if (gltf) {
        /* read as analyze reads a glTF (its errors, its exit statuses): each mesh primitive
         * a draw of its own; the triangle primitives as one mesh (gc_mesh_load) for the
         * heat maps and the sweep */
        if (gc_mesh_analyze(path, &lo, models, row_count, (unsigned)threads, &ga, &err)) {
            free(rows);
            return fail_with(&err);
        }
        for (size_t i = 0; i < row_count; ++i)
            rows[i].before.stats = ga.sums[i];
        if (ga.triangles)
            status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives);
        snprintf(in.name, sizeof in.name, "%s", path);
        if (status) {
            gc_mesh_analysis_free(&ga);
            free(rows);
            return status;
        }
    } else if ((status = load_draw(path, &lo, NULL, 0, NULL, &in, &draw, &primitives)) != 0) {
        free(rows);
        return status;
    }
    const uint32_t* tri = NULL; /* the triangle list, dense ids */
    const uint32_t* opt = NULL; /* after optimize, the input's values */
    float* xyz = NULL;
    size_t xyz_count = 0;
    char* page = NULL;
    size_t page_size = 0;
    FILE* f = NULL;
    size_t n = 0;
    uint32_t dense_count = 0;
    int has_triangles = gltf ? ga.triangles > 0
                             : !(draw.topology == GC_POINT_LIST || draw.topology == GC_LINE_LIST ||
                                 draw.topology == GC_LINE_STRIP || draw.topology == GC_LINE_LOOP);
    if (!gltf && (status = analyze_rows(rows, row_count, &draw, threads, 0)) != 0)
        goto out;
    uint64_t vertices = gltf ? ga.vertices : rows[0].before.stats.vertices;
    /* a glTF's heat maps analyze each triangle primitive as its own draw, as analyze
     * --heatmap does: one run of the mesh each */
    size_t single_run = 0;
    const size_t* heat_runs = NULL;
    size_t heat_run_count = 0;

    /* optimize -a auto -m MODEL, as the optimize command does it (gc_mesh_optimize) */
    const char* dot = strrchr(path, '.');
    double optimize_seconds = 0;
    if (has_triangles) {
        gc_mesh_optimize_options mo = {0};
        mo.algorithm = GC_OPT_AUTO;
        mo.optimize.targets = &target;
        mo.optimize.target_count = 1;
        mo.positions = 1; /* the overdraw pass, as optimize's default */
        mo.load = &lo;
        mo.report = models;
        mo.report_count = row_count;
        mo.threads = (unsigned)threads;
        mo.mesh_lists = 1;
        progress_line prog;
        progress_init(&prog, "report: optimize");
        mo.optimize.progress = progress_report;
        mo.optimize.progress_user = &prog;
        double t = now_seconds();
        gc_status s = gc_mesh_optimize(path, gltf ? NULL : &draw, in.mesh.runs, in.mesh.run_count, &mo, &r, &err);
        progress_end(&prog);
        optimize_seconds = now_seconds() - t;
        if (s) {
            status = fail_with(&err);
            goto out;
        }
        for (size_t i = 0; i < row_count; ++i)
            rows[i].after = r.after[i];
        n = r.index_count;
        tri = r.dense ? r.dense : r.input;
        dense_count = r.dense_count;
        opt = r.indices;
        if (gltf) {
            single_run = n / 3;
            heat_runs = in.mesh.runs ? in.mesh.runs : &single_run;
            heat_run_count = in.mesh.runs ? in.mesh.run_count : 1;
            gc_gltf_free(r.gltf); /* the mesh's lists hold what the rest needs */
            r.gltf = NULL;
        }
    }
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
                ga.draw_count,
                ga.mixed ? "mixed" : ga.draw_count ? gc_topology_name(ga.topology) : "-");
        fprintf(f, "<dt>indices</dt><dd class=\"indices\">%llu</dd>\n<dt>primitives</dt><dd class=\"primitives\">%llu"
                   "</dd>\n",
                (unsigned long long)ga.indices, (unsigned long long)ga.primitives);
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
    write_table(f, rows, row_count, target_row, has_triangles, gltf, r.runs, r.left);

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
    if ((status = write_commands(f, in.name, model_spec, dot, view, view_name, has_triangles, scale_max, lo_size,
                                 hi_size)) != 0)
        goto out;
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
    gc_mesh_optimized_free(&r);
    gc_mesh_analysis_free(&ga);
    gc_mesh_free(&in.mesh);
    free(rows);
    return status;
}
