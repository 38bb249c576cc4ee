// SPDX-License-Identifier: MIT
/* fit --plot and memsys --compare --plot (charts.h): the library draws the charts
 * (gpucache_pictures.h); this file puts them in their file. */
#include "charts.h"

#include "cli.h"
#include "picture_file.h"
#include "gpucache/gpucache_pictures.h"

int write_fit_plot(const char* out_path, const char* name, const gc_measurements* in, const gc_fit_candidate* best,
                   size_t found)
{
    picture_file af;
    gc_error err = {0};
    int status = picture_open(&af, out_path);
    if (status)
        return status;
    if (gc_fit_chart_write(af.f, name, in, best, found, &err) != GC_OK) {
        picture_abort(&af);
        return fail_with(&err);
    }
    return picture_commit(&af);
}

int write_memsys_plot(const char* out_path, const char* name, const gc_memsys_report* reports, const int* order,
                      const char* const* ids, int count)
{
    picture_file af;
    gc_error err = {0};
    int status = picture_open(&af, out_path);
    if (status)
        return status;
    if (gc_memsys_chart_write(af.f, name, reports, order, ids, count, &err) != GC_OK) {
        picture_abort(&af);
        return fail_with(&err);
    }
    return picture_commit(&af);
}
