// SPDX-License-Identifier: MIT
/* gpucache report's page (gpucache_pictures.h, docs/report.md): one self-contained HTML
 * page about one mesh: its summary, every preset's invocations, ACMR, ATVR and batches
 * (the numbers of `analyze --json`), the heat maps before and after `optimize -a auto` for
 * one model, the sweep of the layouts over a range of cache sizes (drawn by the caller's
 * figure function: the CLI runs gnuplot), and the commands that redo each part. The page
 * loads nothing (no network, no file): the pictures are inline SVG. Every name that came
 * from the caller or a file is HTML-escaped, and the commands are single-quoted for a
 * POSIX shell. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_pictures.h"

#include "../internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ROWS 64
/* The sweep optimizes the mesh once per layout and cache size: past this many triangles x
 * cache sizes the default range is narrowed around 16 (docs/report.md), so that a
 * 1M-triangle mesh costs seconds, not minutes. */
#define SWEEP_TRIANGLE_BUDGET 4000000ull
/* The most triangles each of the report's two heat maps draws (a page holds two): a
 * 1M-triangle mesh's page stays a few MB. */
#define REPORT_HEATMAP_TRIANGLES 30000
/* The sweep's layouts for a mesh (optimal and striped are for generated grids only). */
#define SWEEP_LAYOUTS "original,tipsify,forsyth,auto"

/* the fetch the report shows: the one `optimize` reports by default */
#define REPORT_FETCH_SPEC "meshopt:32"

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

/* One row of the table: a model before, and after optimize. */
typedef struct report_row {
    gc_model model;
    gc_stats before, after;
    int is_preset;
} report_row;

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Text as HTML character data or attribute text (gc_svg_escape: & < > " ' escaped,
 * control characters and malformed UTF-8 as '?'), except line breaks and tabs, kept, for
 * <pre>. */
static void html_text(FILE* f, const char* s)
{
    while (*s) {
        size_t n = strcspn(s, "\n\t");
        if (n) {
            char* part = strndup(s, n);
            if (part)
                gc_svg_escape(f, part, 0);
            free(part);
            s += n;
        }
        if (*s)
            fputc(*s++, f);
    }
}

/* Writes `s` as one word a POSIX shell reads back byte for byte: single-quoted ('\'' for
 * a quote), control bytes and malformed UTF-8 (which a page cannot show) as
 * "$(printf '\ooo')"; a name that starts with '-' gets "./" so that it is no option. Line
 * breaks stay inside the quotes, as the shell reads them. */
static void sh_word(FILE* b, const char* s)
{
    const unsigned char* u = (const unsigned char*)s;
    if (s[0] == '-' && s[1])
        fputs("./", b);
    /* a word of only these characters means itself to the shell: no quotes needed */
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,+=@%-") == strlen(s)) {
        fputs(s, b);
        return;
    }
    fputc('\'', b);
    for (size_t i = 0; u[i];) {
        size_t n = gc_svg_utf8_length(u + i);
        if (u[i] == '\'') {
            fputs("'\\''", b);
            i++;
        } else if (n == 0 || (u[i] < 0x20 && u[i] != '\n') || u[i] == 0x7F) {
            fprintf(b, "'\"$(printf '\\%03o')\"'", u[i]);
            i++;
        } else {
            fwrite(s + i, 1, n, b);
            i += n;
        }
    }
    fputc('\'', b);
}

/* A number as `analyze --json` prints it: 9 decimals, trailing zeros dropped. */
static const char* json_number(char* buffer, size_t size, double value)
{
    if (!isfinite(value)) {
        snprintf(buffer, size, "null");
        return buffer;
    }
    int n = snprintf(buffer, size, "%.9f", value);
    n = n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
    while (n > 0 && buffer[n - 1] == '0')
        buffer[--n] = 0;
    if (n > 0 && buffer[n - 1] == '.')
        buffer[--n] = 0;
    if (strcmp(buffer, "-0") == 0)
        snprintf(buffer, size, "0");
    return buffer;
}

/* A number cell: the text `analyze --json` prints for it. */
static void number_cell(FILE* f, const char* cls, const char* text)
{
    fprintf(f, "<td class=\"n %s\">%s</td>", cls, text);
}

/* The table of every row before and after (and for a glTF what optimize reordered and left). */
static void write_table(FILE* f, const report_row* rows, size_t row_count, int target_row, int has_triangles,
                        int gltf, size_t reordered, size_t left)
{
    fputs("<h2 id=\"models\">Every preset</h2>\n<table id=\"presets\">\n<thead><tr><th>model</th><th>family</th>"
          "<th>invocations</th><th>ACMR</th><th>ATVR</th><th>batches</th>",
          f);
    if (has_triangles)
        fputs("<th>invocations after</th><th>ATVR after</th>", f);
    fputs("</tr></thead>\n<tbody>\n", f);
    char number[400];
    for (size_t i = 0; i < row_count; ++i) {
        const gc_stats* s = &rows[i].before;
        fputs(rows[i].is_preset ? "<tr class=\"preset\" data-model=\"" : "<tr class=\"target\" data-model=\"", f);
        html_text(f, rows[i].model.name);
        fputs("\"><td class=\"name\">", f);
        html_text(f, rows[i].model.name);
        fprintf(f, "%s</td><td>%s</td>", (int)i == target_row ? " (target)" : "",
                gc_model_family_name(rows[i].model.family));
        char text[64];
        snprintf(text, sizeof text, "%llu", (unsigned long long)s->invocations);
        number_cell(f, "invocations", text);
        number_cell(f, "acmr", json_number(number, sizeof number, s->acmr));
        number_cell(f, "atvr", json_number(number, sizeof number, s->atvr));
        if (s->has_batches)
            snprintf(text, sizeof text, "%llu", (unsigned long long)s->batches);
        else
            snprintf(text, sizeof text, "-");
        number_cell(f, "batches", text);
        if (has_triangles) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)rows[i].after.invocations);
            number_cell(f, "invocations-after", text);
            number_cell(f, "atvr-after", json_number(number, sizeof number, rows[i].after.atvr));
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
                   "auto</code> for the target model (%zu reordered; %zu strips, fans, lists without indices or "
                   "index data something else reads left as they are), the draws analyzed again and summed, as "
                   "<code>optimize --json</code> reports them. Nothing is written but this page.</p>\n",
                reordered, left);
    else if (has_triangles)
        fputs("<p>\"after\": the triangles reordered by <code>optimize -a auto</code> for the target model, "
              "analyzed as <code>optimize</code> reports them (an OBJ renumbered in order of first use, as its "
              "reader numbers it).</p>\n",
              f);
}

/* The commands that redo each part of the page. */
static gc_status write_commands(FILE* f, const char* in_name, const char* model_spec, const char* dot,
                                gc_heatmap_view view, int has_triangles, uint32_t scale_max, uint32_t lo_size,
                                uint32_t hi_size, gc_error* err)
{
    static const char* const view_names[3] = {"front", "side", "top"};
    char *in_word = NULL, *model_word = NULL, *cmds = NULL;
    size_t in_size = 0, model_size = 0, cmds_size = 0;
    FILE* w = open_memstream(&in_word, &in_size);
    int failed = !w;
    if (w) {
        sh_word(w, in_name);
        failed |= fclose(w) != 0;
    }
    if (!failed && (w = open_memstream(&model_word, &model_size)) != NULL) {
        sh_word(w, model_spec);
        failed |= fclose(w) != 0;
    } else
        failed = 1;
    const char* ext = dot && !strchr(dot, '/') && strlen(dot) < 12 ? dot : ".txt";
    char view_opt[32] = "";
    if (view != GC_VIEW_FRONT)
        snprintf(view_opt, sizeof view_opt, " --view %s", view_names[view]);
    if (!failed && (w = open_memstream(&cmds, &cmds_size)) != NULL) {
        fprintf(w, "# the table\ngpucache analyze --json %s\n", in_word);
        if (has_triangles) {
            fprintf(w, "# the heat maps\ngpucache analyze -m %s --heatmap before.svg%s --heatmap-max %u %s\n",
                    model_word, view_opt, scale_max, in_word);
            fprintf(w, "gpucache optimize -a auto -m %s %s -o after%s\n", model_word, in_word, ext);
            fprintf(w, "gpucache analyze -m %s --heatmap after.svg%s --heatmap-max %u after%s\n", model_word,
                    view_opt, scale_max, ext);
            fprintf(w, "# the sweep\ngpucache sweep --mesh %s -a " SWEEP_LAYOUTS " --cache %u..%u -m %s "
                       "--plot sweep.svg\n",
                    in_word, lo_size, hi_size, model_word);
        }
        fprintf(w, "# this report\ngpucache report -m %s --cache %u..%u%s %s -o report.html\n", model_word, lo_size,
                hi_size, view_opt, in_word);
        failed |= fclose(w) != 0;
    } else
        failed = 1;
    fputs("<h2 id=\"commands\">Commands</h2>\n<pre id=\"commands-text\">", f);
    if (!failed)
        html_text(f, cmds);
    fputs("</pre>\n", f);
    free(cmds);
    free(in_word);
    free(model_word);
    return failed ? gc_fail(err, GC_ERR_NOMEM, "report: out of memory for the commands") : GC_OK;
}

/* The input as a draw, read as the file says (a glTF: its triangle primitives as one list,
 * gc_mesh_load's runs), validated; the caller frees *mesh. */
static gc_status load_draw(const char* path, const gc_load_options* lo, gc_mesh* mesh, gc_draw* draw,
                           uint64_t* primitives, gc_error* err)
{
    gc_status status = gc_mesh_load(path, lo, mesh, err);
    if (status)
        return status;
    *draw = (gc_draw){mesh->indices, mesh->index_count, mesh->topology, mesh->restart_enabled, mesh->restart_value};
    status = gc_draw_validate(draw, path, primitives, err);
    if (!status && mesh->index_bits == 32 && !draw->restart_enabled)
        for (size_t i = 0; !status && i < draw->index_count; ++i)
            if (draw->indices[i] == UINT32_MAX)
                status = gc_fail(err, GC_ERR_DATA,
                                 "%s: index %zu is 4294967295 (-1), the primitive restart value", path, i);
    if (status)
        gc_mesh_free(mesh);
    return status;
}

/* The vertex pipeline's other two counts, as `optimize --json` gives them: overdraw
 * (where the file has positions) and the bytes fetched in meshoptimizer's mode with 32-byte
 * vertices, before and after optimize -a auto. */
static gc_status write_vertex_pipeline(FILE* f, const char* path, const gc_load_options* lo,
                                       const gc_mesh_optimized* r, gc_error* err)
{
    gc_fetch_spec fetch;
    gc_status s = gc_fetch_parse(REPORT_FETCH_SPEC, &fetch, err);
    gc_mesh_optimized_costs c;
    if (!s)
        s = gc_mesh_optimized_costs_of(path, lo, r, 0, &fetch, &c, err);
    if (s)
        return s;
    fputs("<h2 id=\"vertex-pipeline\">Overdraw and vertex fetch before and after optimize -a auto</h2>\n", f);
    if (!c.has_overdraw && !c.has_fetch) {
        fputs("<p class=\"note\">Neither: the input has no vertex positions and no dense vertex ids.</p>\n", f);
        return GC_OK;
    }
    fputs("<dl class=\"summary\">\n", f);
    if (c.has_overdraw)
        fprintf(f, "<dt>overdraw, as stored</dt><dd class=\"overdraw-before\">%.4f</dd>\n"
                   "<dt>overdraw, after</dt><dd class=\"overdraw-after\">%.4f</dd>\n",
                c.overdraw_before.ratio, c.overdraw_after.ratio);
    if (c.has_fetch)
        fprintf(f, "<dt>bytes fetched (" REPORT_FETCH_SPEC "), as stored</dt><dd class=\"fetch-before\">%llu</dd>\n"
                   "<dt>bytes fetched (" REPORT_FETCH_SPEC "), after</dt><dd class=\"fetch-after\">%llu</dd>\n",
                (unsigned long long)c.fetch_before.bytes, (unsigned long long)c.fetch_after.bytes);
    fputs("</dl>\n<p>Overdraw: pixels shaded over pixels covered in six axis views, as "
          "<code>analyze --overdraw</code> counts it; fetch: meshoptimizer's model, every index reference through "
          "a direct-mapped 128 KiB cache of 64-byte lines (docs/models/overdraw.md, docs/models/fetch.md).",
          f);
    if (!c.has_overdraw)
        fputs(" No overdraw: the input has no vertex positions.", f);
    fputs("</p>\n", f);
    return GC_OK;
}

gc_status gc_report_write(FILE* f, const char* path, const gc_report_options* options, gc_report_info* info,
                          gc_error* err)
{
    static const gc_report_options defaults = {0};
    const gc_report_options* op = options ? options : &defaults;
    gc_report_info ignored;
    info = info ? info : &ignored;
    memset(info, 0, sizeof *info);
    const char* model_spec = op->model_spec ? op->model_spec : GC_REPORT_DEFAULT_MODEL;
    gc_heatmap_view view = op->view > GC_VIEW_TOP ? GC_VIEW_FRONT : op->view;
    unsigned threads = op->threads ? op->threads : 1;
    gc_model target;
    gc_status status = GC_OK;
    if (op->model)
        target = *op->model;
    else if ((status = gc_model_parse(model_spec, &target, err)) != GC_OK)
        return status;
    if ((op->cache_lo || op->cache_hi) &&
        !(op->cache_lo >= 3 && op->cache_lo < op->cache_hi && op->cache_hi <= 256))
        return gc_fail(err, GC_ERR_USAGE, "report: the sweep's cache sizes are A..B with 3 <= A < B <= 256");

    /* the table's rows: every preset (what analyze --json prints), then the target when it
     * is none of them */
    report_row* rows = calloc(MAX_ROWS, sizeof *rows);
    gc_model* models = calloc(MAX_ROWS, sizeof *models);
    gc_stats* stats = calloc(MAX_ROWS, sizeof *stats);
    if (!rows || !models || !stats) {
        free(rows), free(models), free(stats);
        return gc_fail(err, GC_ERR_NOMEM, "report: out of memory for the table");
    }
    size_t row_count = 0;
    int target_row = -1;
    for (size_t i = 0; !status && i < gc_preset_count() && row_count < MAX_ROWS - 1; ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        if ((status = gc_model_parse(name, &rows[row_count].model, err)) != GC_OK)
            break;
        rows[row_count].is_preset = 1;
        if (!strcmp(name, target.name))
            target_row = (int)row_count;
        row_count++;
    }
    if (!status && target_row < 0) {
        target_row = (int)row_count;
        rows[row_count++].model = target;
    }
    for (size_t i = 0; i < row_count; ++i)
        models[i] = rows[i].model;

    double t0 = seconds_now();
    const int gltf = strcmp(gc_mesh_format(path), "gltf") == 0;
    const char* name = op->name ? op->name : path;
    gc_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    gc_draw draw = {0};
    uint64_t primitives = 0;
    gc_mesh_analysis ga;
    memset(&ga, 0, sizeof ga);
    gc_mesh_optimized r;
    memset(&r, 0, sizeof r);
    const size_t* runs = NULL;
    size_t run_count = 0;
    if (status) {
    } else if (gltf) {
        /* read as analyze reads a glTF: each mesh primitive a draw of its own; the triangle
         * primitives as one mesh (gc_mesh_load) for the heat maps and the sweep */
        name = path;
        if ((status = gc_mesh_analyze(path, op->load, models, row_count, threads, &ga, err)) == GC_OK) {
            for (size_t i = 0; i < row_count; ++i)
                rows[i].before = ga.sums[i];
            if (ga.triangles)
                status = load_draw(path, op->load, &mesh, &draw, &primitives, err);
            runs = mesh.runs, run_count = mesh.run_count;
        }
    } else if (op->draw) {
        draw = *op->draw;
        runs = op->runs, run_count = op->run_count;
        status = gc_draw_validate(&draw, name, &primitives, err);
    } else {
        status = load_draw(path, op->load, &mesh, &draw, &primitives, err);
        runs = mesh.runs, run_count = mesh.run_count;
    }
    const uint32_t* tri = NULL; /* the triangle list, dense ids */
    const uint32_t* opt = NULL; /* after optimize, the input's values */
    float* xyz = NULL;
    size_t xyz_count = 0;
    size_t n = 0;
    uint32_t dense_count = 0;
    int has_triangles = gltf ? ga.triangles > 0
                             : !(draw.topology == GC_POINT_LIST || draw.topology == GC_LINE_LIST ||
                                 draw.topology == GC_LINE_STRIP || draw.topology == GC_LINE_LOOP);
    if (!status && !gltf) {
        status = gc_analyze_models(models, row_count, &draw, NULL, threads, stats, err);
        for (size_t i = 0; !status && i < row_count; ++i)
            rows[i].before = stats[i];
    }
    uint64_t vertices = gltf ? ga.vertices : rows[0].before.vertices;
    /* a glTF's heat maps analyze each triangle primitive as its own draw, as analyze
     * --heatmap does: one run of the mesh each */
    size_t single_run = 0;
    const size_t* heat_runs = NULL;
    size_t heat_run_count = 0;

    /* optimize -a auto -m MODEL, as the optimize command does it (gc_mesh_optimize) */
    const char* dot = strrchr(path, '.');
    if (!status && has_triangles) {
        gc_mesh_optimize_options mo = {0};
        mo.algorithm = GC_OPT_AUTO;
        mo.optimize.targets = &target;
        mo.optimize.target_count = 1;
        mo.positions = 1; /* the overdraw pass, as optimize's default */
        mo.load = op->load;
        mo.report = models;
        mo.report_count = row_count;
        mo.threads = threads;
        mo.mesh_lists = 1;
        mo.optimize.progress = op->progress;
        mo.optimize.progress_user = op->progress_user;
        double t = seconds_now();
        status = gc_mesh_optimize(path, gltf ? NULL : &draw, runs, run_count, &mo, &r, err);
        info->optimize_seconds = seconds_now() - t;
        if (!status) {
            for (size_t i = 0; i < row_count; ++i)
                rows[i].after = r.after[i];
            n = r.index_count;
            tri = r.dense ? r.dense : r.input;
            dense_count = r.dense_count;
            opt = r.indices;
            if (gltf) {
                single_run = n / 3;
                heat_runs = runs ? runs : &single_run;
                heat_run_count = runs ? run_count : 1;
                gc_gltf_free(r.gltf); /* the mesh's lists hold what the rest needs */
                r.gltf = NULL;
            }
        }
    }
    info->prepare_seconds = seconds_now() - t0;
    if (status)
        goto out;

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
    /* nothing may load: the page is whole by itself */
    fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
          f);
    fputs("<title>gpucache report: ", f);
    html_text(f, name);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>gpucache report: ", page_style);
    html_text(f, name);
    fputs("</h1>\n", f);

    /* summary */
    fputs("<h2 id=\"summary\">Summary</h2>\n<dl class=\"summary\">\n<dt>input</dt><dd class=\"input\">", f);
    html_text(f, name);
    if (gltf) {
        fprintf(f, "</dd>\n<dt>format</dt><dd>glTF, each mesh primitive a draw of its own</dd>\n"
                   "<dt>draws</dt><dd class=\"draws\">%zu</dd>\n<dt>topology</dt><dd>%s</dd>\n",
                ga.draw_count, ga.mixed ? "mixed" : ga.draw_count ? gc_topology_name(ga.topology) : "-");
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

    /* overdraw and fetch beside the cache (issue 30): before and after the same optimize */
    const char* file = strcmp(path, "-") ? path : NULL; /* standard input is read already */
    if (has_triangles && (status = write_vertex_pipeline(f, file, op->load, &r, err)) != GC_OK)
        goto out;

    /* the heat maps */
    fputs("<h2 id=\"heatmaps\">Heat maps before and after optimize -a auto</h2>\n", f);
    uint32_t scale_max = 1;
    gc_error position_err = {0};
    int pictures = has_triangles && gc_mesh_load_positions(path, op->load, &xyz, &xyz_count, &position_err) == 0;
    if (has_triangles && !pictures) {
        fputs("<p class=\"note\">No heat maps: ", f);
        html_text(f, position_err.message);
        fputs("</p>\n", f);
        if (op->note)
            op->note(op->note_user, "report: no heat maps: the input has no vertex positions");
    } else if (!has_triangles) {
        fputs("<p class=\"note\">No heat maps: the input draws no triangles.</p>\n", f);
    }
    if (pictures) {
        status = gc_heatmap_largest_count(&target, &draw, heat_runs, heat_run_count, xyz_count, &scale_max, err);
        if (status)
            goto out;
        gc_draw after = {opt, n, GC_TRIANGLE_LIST, 0, 0};
        gc_heatmap_options ho = {0};
        ho.view = view;
        ho.scale_max = scale_max;
        ho.max_triangles = REPORT_HEATMAP_TRIANGLES;
        ho.inline_svg = 1;
        ho.runs = heat_runs;
        ho.run_count = heat_run_count;
        fputs("<div class=\"pair\">\n<figure id=\"heatmap-before\" class=\"figure\">\n", f);
        if ((status = gc_heatmap_write(f, xyz, xyz_count, name, &target, &draw, &ho, err)) != GC_OK)
            goto out;
        fputs("<figcaption>As stored.</figcaption>\n</figure>\n<figure id=\"heatmap-after\" class=\"figure\">\n", f);
        if ((status = gc_heatmap_write(f, xyz, xyz_count, name, &target, &after, &ho, err)) != GC_OK)
            goto out;
        fprintf(f, "<figcaption>After <code>optimize -a auto</code> (%.2f s), on the same colour scale (1 to %u)."
                   "</figcaption>\n</figure>\n</div>\n",
                info->optimize_seconds, scale_max);
        free(xyz);
        xyz = NULL;
    }

    /* the sweep */
    uint32_t lo_size = 8, hi_size = 32;
    if (op->cache_lo || op->cache_hi) {
        lo_size = op->cache_lo, hi_size = op->cache_hi;
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
        if (!op->sweep)
            fputs("<p class=\"note\">No sweep figure: gnuplot was not found when this report was written.</p>\n", f);
        else if ((status = op->sweep(op->sweep_user, f, name, tri, n, dense_count, lo_size, hi_size, err)) != GC_OK)
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
    if ((status = write_commands(f, name, model_spec, dot, view, has_triangles, scale_max, lo_size, hi_size, err)) !=
        GC_OK)
        goto out;
    fputs("</body>\n</html>\n", f);
out:
    free(xyz);
    gc_mesh_optimized_free(&r);
    gc_mesh_analysis_free(&ga);
    gc_mesh_free(&mesh);
    free(rows);
    free(models);
    free(stats);
    return status;
}

gc_status gc_report_html(const char* path, const gc_report_options* options, gc_report_info* info, char** html,
                         size_t* size, gc_error* err)
{
    char* text = NULL;
    size_t length = 0;
    *html = NULL;
    *size = 0;
    FILE* f = open_memstream(&text, &length);
    if (!f)
        return gc_fail(err, GC_ERR_NOMEM, "report: out of memory for the page");
    gc_status status = gc_report_write(f, path, options, info, err);
    if (fclose(f) != 0 && !status)
        status = gc_fail(err, GC_ERR_NOMEM, "report: out of memory for the page");
    if (status) {
        free(text);
        return status;
    }
    *html = text, *size = length;
    return GC_OK;
}
