/* What the optimize command prints and the pieces of its output handling
 * (optimize_report.h). */
#define _POSIX_C_SOURCE 200809L
#include "optimize_report.h"
#include "table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether two output paths name one file, existing or not: the same file by device and
 * inode, or the same name in the same folder (compared by device and inode). */
int same_output(const char* a, const char* b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char* na = strrchr(a, '/');
    const char* nb = strrchr(b, '/');
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
        return 0;
    char da[4096], db[4096];
    snprintf(da, sizeof da, "%.*s", na ? (int)(na - a) + 1 : 1, na ? a : ".");
    snprintf(db, sizeof db, "%.*s", nb ? (int)(nb - b) + 1 : 1, nb ? b : ".");
    return stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Returns 0, or EXIT_DATA when the JSON could not be built (print_json_document). */
int print_report(const report* r, int json)
{
    const size_t preset_count = r->preset_count, target_count = r->target_count;
    const size_t row_count = preset_count + target_count;
    const gc_model* presets = r->presets;
    const gc_stats* before = r->before;
    const gc_stats* after = r->after;
    if (json) {
        strbuf j = {0};
        sb_json_open(&j);
        sb_printf(&j, "\"input\": ");
        sb_json_string(&j, r->input);
        sb_printf(&j, ", \"output\": ");
        sb_json_string(&j, r->output);
        sb_printf(&j, ", \"algorithm\": \"%s\", \"triangles\": %zu, \"runs\": %zu, \"seconds\": " JSON_FLOAT ", \"models\": [",
                  gc_optimizer_name(r->algorithm), r->triangles, r->runs, JF(r->seconds));
        for (size_t i = 0; i < row_count; ++i) {
            if (i == preset_count)
                sb_printf(&j, "], \"targets\": [");
            sb_printf(&j,
                      "%s{\"model\": \"%s\", \"before\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}, "
                      "\"after\": {\"invocations\": %llu, \"atvr\": " JSON_FLOAT ", \"acmr\": " JSON_FLOAT "}}",
                      i && i != preset_count ? ", " : "", presets[i].name, (unsigned long long)before[i].invocations,
                      JF(before[i].atvr), JF(before[i].acmr), (unsigned long long)after[i].invocations,
                      JF(after[i].atvr), JF(after[i].acmr));
        }
        if (target_count == 0)
            sb_printf(&j, "], \"targets\": [");
        sb_printf(&j, "]");
        const optimize_costs* c = r->costs;
        if (c && c->has_overdraw)
            sb_printf(&j,
                      ", \"overdraw\": {\"before\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT
                      "}, \"after\": {\"covered\": %llu, \"shaded\": %llu, \"ratio\": " JSON_FLOAT "}}",
                      (unsigned long long)c->overdraw_before.covered, (unsigned long long)c->overdraw_before.shaded,
                      JF(c->overdraw_before.ratio), (unsigned long long)c->overdraw_after.covered,
                      (unsigned long long)c->overdraw_after.shaded, JF(c->overdraw_after.ratio));
        if (c && c->fetch_spec) {
            sb_printf(&j, ", \"fetch\": {\"spec\": ");
            sb_json_string(&j, c->fetch_spec);
            sb_printf(&j,
                      ", \"before\": {\"bytes\": %llu, \"overfetch\": " JSON_FLOAT "}, \"after\": {\"bytes\": %llu, "
                      "\"overfetch\": " JSON_FLOAT "}}",
                      (unsigned long long)c->fetch_before.bytes, JF(c->fetch_before.overfetch),
                      (unsigned long long)c->fetch_after.bytes, JF(c->fetch_after.overfetch));
        }
        sb_printf(&j, "}\n");
        return print_json_document(&j);
    } else {
        printf("%s -> %s: %s, %zu triangles%s%s in %.3f s\n", r->input, r->output, gc_optimizer_name(r->algorithm),
               r->triangles, r->runs > 1 ? " in separate runs" : "", r->reorder ? ", vertices reordered" : "",
               r->seconds);
        if (r->note)
            printf("%s\n", r->note);
        static const table_column columns[] = {{"model", 34, 0}, {"before", 12, 1}, {"ATVR", 8, 1},
                                               {"after", 12, 1},  {"ATVR", 8, 1},   {"change", 8, 1}};
        table t; /* widths: table.h */
        table_init(&t, columns, 6, "");
        for (size_t i = 0; i < row_count; ++i) {
            char label[96];
            if (i < preset_count) {
                const char *pname, *spec, *source;
                gc_preset_get(i, &pname, &spec, &source);
                snprintf(label, sizeof label, "%s (%s)", pname, spec);
            } else {
                snprintf(label, sizeof label, "target %s", presets[i].name);
            }
            double change = before[i].invocations
                                ? 100.0 * ((double)after[i].invocations - (double)before[i].invocations) /
                                      (double)before[i].invocations
                                : 0.0;
            char b[24], batvr[32], a[24], aatvr[32], c[40];
            snprintf(b, sizeof b, "%llu", (unsigned long long)before[i].invocations);
            snprintf(batvr, sizeof batvr, "%.4f", before[i].atvr);
            snprintf(a, sizeof a, "%llu", (unsigned long long)after[i].invocations);
            snprintf(aatvr, sizeof aatvr, "%.4f", after[i].atvr);
            snprintf(c, sizeof c, "%+7.1f%%", change);
            const char* cells[] = {label, b, batvr, a, aatvr, c};
            table_row(&t, cells, NULL);
        }
        const optimize_costs* oc = r->costs;
        if (oc && oc->has_overdraw) {
            char b[32], a[32], c[40];
            snprintf(b, sizeof b, "%.4f", oc->overdraw_before.ratio);
            snprintf(a, sizeof a, "%.4f", oc->overdraw_after.ratio);
            snprintf(c, sizeof c, "%+7.1f%%",
                     100.0 * (oc->overdraw_after.ratio - oc->overdraw_before.ratio) / oc->overdraw_before.ratio);
            const char* cells[] = {"overdraw (shaded / covered)", b, "-", a, "-", c};
            table_row(&t, cells, NULL);
        }
        if (oc && oc->fetch_spec) {
            char label[96], b[24], bo[32], a[24], ao[32], c[40];
            snprintf(label, sizeof label, "bytes fetched (%s)", oc->fetch_spec);
            double change = oc->fetch_before.bytes ? 100.0 * ((double)oc->fetch_after.bytes -
                                                              (double)oc->fetch_before.bytes) /
                                                         (double)oc->fetch_before.bytes
                                                   : 0.0;
            snprintf(b, sizeof b, "%llu", (unsigned long long)oc->fetch_before.bytes);
            snprintf(bo, sizeof bo, "%.4f", oc->fetch_before.overfetch);
            snprintf(a, sizeof a, "%llu", (unsigned long long)oc->fetch_after.bytes);
            snprintf(ao, sizeof ao, "%.4f", oc->fetch_after.overfetch);
            snprintf(c, sizeof c, "%+7.1f%%", change);
            const char* cells[] = {label, b, bo, a, ao, c};
            table_row(&t, cells, NULL);
        }
        int printed = table_print(stdout, &t);
        table_free(&t);
        if (printed)
            return EXIT_DATA;
    }
    return 0;
}

/* Sets err to "WHAT: MESSAGE: strerror(errno)" and returns code. */
gc_status fail_message(gc_error* err, gc_status code, const char* message, const char* what)
{
    snprintf(err->message, sizeof err->message, "%s: %s: %s", what, message, strerror(errno));
    err->code = code;
    return code;
}

/* -o -: the finished output file, copied to standard output (atomic_open's "-"). */
gc_status copy_to_stdout(const char* path, gc_error* err)
{
    FILE* in = fopen(path, "rb");
    if (!in)
        return fail_message(err, GC_ERR_IO, "cannot read the output back", path);
    atomic_file af;
    if (atomic_open(&af, "-") != 0) {
        fclose(in);
        *err = af.err;
        return GC_ERR_IO;
    }
    char buffer[65536];
    size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, in)) > 0)
        fwrite(buffer, 1, got, af.f);
    int bad = ferror(in);
    fclose(in);
    if (bad)
        return fail_message(err, GC_ERR_IO, "cannot read the output back", path);
    if (atomic_commit(&af) != 0) {
        *err = af.err;
        return GC_ERR_IO;
    }
    return GC_OK;
}

/* The rows optimize reports before and after: every preset (at most MAX_REPORT_PRESETS), then
 * each target (-m). Returns the preset count. */
size_t report_rows(gc_model* rows, const gc_model* targets, size_t target_count)
{
    size_t preset_count = gc_preset_count();
    gc_error err;
    for (size_t i = 0; i < preset_count && i < MAX_REPORT_PRESETS; ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        gc_model_parse(name, &rows[i], &err);
    }
    for (size_t i = 0; i < target_count; ++i)
        rows[(preset_count < MAX_REPORT_PRESETS ? preset_count : MAX_REPORT_PRESETS) + i] = targets[i];
    return preset_count < MAX_REPORT_PRESETS ? preset_count : MAX_REPORT_PRESETS;
}
