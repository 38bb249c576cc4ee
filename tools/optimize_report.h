// SPDX-License-Identifier: MIT
/* The optimize command's report and output helpers (optimize_report.c). */
#ifndef GPUCACHE_OPTIMIZE_REPORT_H
#define GPUCACHE_OPTIMIZE_REPORT_H

#include "cli.h"
#include "gpucache_private.h"

#define MAX_TARGETS 16
/* the presets optimize reports before and after (gc_preset_count() must not exceed it) */
#define MAX_REPORT_PRESETS 32

/* Whether two output paths name one file, existing or not: the same file by device and
 * inode, or the same name in the same folder (compared by device and inode). */
int same_output(const char* a, const char* b);
/* Sets err to "WHAT: MESSAGE: strerror(errno)" and returns code. */
gc_status fail_message(gc_error* err, gc_status code, const char* message, const char* what);
/* -o -: the finished output file, copied to standard output (atomic_open's "-"). */
gc_status copy_to_stdout(const char* path, gc_error* err);
/* The rows optimize reports before and after: every preset (at most MAX_REPORT_PRESETS),
 * then each target. Returns the preset count. */
size_t report_rows(gc_model* rows, const gc_model* targets, size_t target_count);

#endif
