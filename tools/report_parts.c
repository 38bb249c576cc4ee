/* The report command's parts (report_parts.h): HTML text, shell words, the rows' counts,
 * the heat maps' common scale and the sweep figure drawn by gnuplot. */
#define _POSIX_C_SOURCE 200809L
#include "report_parts.h"

#include "gpucache/gpucache_pictures.h"
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Text as HTML character data or attribute text (svg_escape: & < > " ' escaped, control
 * characters and malformed UTF-8 as '?'), except line breaks and tabs, kept, for <pre>. */
void html_text(FILE* f, const char* s)
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

/* Appends `s` to the shell command in *b as one word a POSIX shell reads back byte for
 * byte: single-quoted ('\'' for a quote), control bytes and malformed UTF-8 (which a page
 * cannot show) as "$(printf '\ooo')"; a name that starts with '-' gets "./" so that it is
 * no option. Line breaks stay inside the quotes, as the shell reads them. */
void sh_word(strbuf* b, const char* s)
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
        size_t n = gc_svg_utf8_length(u + i);
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


/* Every row's model analyzed on one draw (gc_analyze_models: one scan, several threads). */
int analyze_rows(report_row* rows, size_t count, const gc_draw* d, long threads, int after)
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

int largest_count(const gc_model* m, const gc_draw* d, const size_t* runs, size_t run_count,
                  size_t vertex_count, uint32_t* out)
{
    gc_error err = {0};
    if (gc_heatmap_largest_count(m, d, runs, run_count, vertex_count, out, &err) == GC_OK)
        return 0;
    if (err.code != GC_ERR_NOMEM)
        return fail_with(&err);
    fprintf(stderr, "gpucache: report: %s\n", err.message);
    return EXIT_DATA;
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

/* A number cell: the text `analyze --json` prints for it. */
static void number_cell(FILE* f, const char* cls, const char* text)
{
    fprintf(f, "<td class=\"n %s\">%s</td>", cls, text);
}

void write_table(FILE* f, const report_row* rows, size_t row_count, int target_row, int has_triangles, int gltf,
                 size_t reordered, size_t left)
{
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
            reordered, left);
else if (has_triangles)
    fputs("<p>\"after\": the triangles reordered by <code>optimize -a auto</code> for the target model, analyzed "
          "as <code>optimize</code> reports them (an OBJ renumbered in order of first use, as its reader "
          "numbers it).</p>\n",
          f);
}

int write_commands(FILE* f, const char* in_name, const char* model_spec, const char* dot, heatmap_view view,
                   const char* view_name, int has_triangles, uint32_t scale_max, uint32_t lo_size, uint32_t hi_size)
{
    strbuf in_word = {0}, model_word = {0}, cmds = {0};
    sh_word(&in_word, in_name);
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
        return EXIT_DATA;
    }
    return 0;
}
