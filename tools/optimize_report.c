// SPDX-License-Identifier: MIT
/* What the optimize command prints and the pieces of its output handling
 * (optimize_report.h). */
#define _POSIX_C_SOURCE 200809L
#include "optimize_report.h"

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
