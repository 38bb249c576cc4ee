// SPDX-License-Identifier: MIT
/* `gpucache fit`'s report (gc_fit_report_print, gpucache_probe.h): the best candidates
 * for a measurement file, each with the cases it gets wrong, as a table or JSON. */
#include "../internal.h"
#include "../strbuf.h"
#include "gpucache/gpucache_probe.h"

gc_status gc_fit_report_print(FILE* f, const char* path, const gc_measurements* in, const gc_fit_candidate* best,
                              size_t found, size_t searched, unsigned threads, double seconds, int json,
                              gc_error* err)
{
    const char* device_name = in->device ? in->device : "(unknown device)";
    gc_error why = {0};
    gc_strbuf j = {0};
    if (json) {
        gc_sb_json_open(&j);
        gc_sb_printf(&j, "\"input\": ");
        gc_sb_json_string(&j, path);
        gc_sb_printf(&j, ", \"device\": ");
        gc_sb_json_string(&j, device_name);
        gc_sb_printf(&j, ", \"cases\": %zu, \"candidates\": %zu, \"threads\": %ld, \"seconds\": " JSON_FLOAT ", \"best\": [", in->count,
                  searched, (long)threads, JF(seconds));
    } else {
        fprintf(f, "%s: %zu cases from %s; %zu candidates searched in %.1f s on %ld threads\n", path, in->count,
               device_name, searched, seconds, (long)threads);
        fprintf(f, "%-4s %-36s %14s %8s %14s\n", "rank", "model", "exact", "share", "total error");
    }
    for (size_t r = 0; r < found; ++r) {
        const gc_fit_candidate* b = &best[r];
        double share = (double)b->exact / (double)in->count;
        if (json) {
            gc_sb_printf(&j, "%s{\"model\": ", r ? ", " : "");
            gc_sb_json_string(&j, b->model.name);
            gc_sb_printf(&j, ", \"family\": \"%s\", \"exact\": %zu, \"exact_share\": " JSON_FLOAT ", \"total_error\": %llu, \"wrong\": [",
                      gc_model_family_name(b->model.family), b->exact, JF(share), (unsigned long long)b->total_error);
        } else {
            char exact[32];
            snprintf(exact, sizeof exact, "%zu/%zu", b->exact, in->count);
            fprintf(f, "%-4zu %-36s %14s %7.2f%% %14llu\n", r + 1, b->model.name, exact, 100.0 * share,
                   (unsigned long long)b->total_error);
        }
        /* The cases this candidate gets wrong. */
        size_t shown = 0, wrong = 0;
        for (size_t i = 0; i < in->count; ++i) {
            uint64_t predicted = 0;
            int exact = 0;
            gc_status s = gc_fit_evaluate(&b->model, &in->cases[i], &predicted, &exact, &why);
            if (s == GC_OK && exact)
                continue;
            wrong++;
            if (json) {
                gc_sb_printf(&j, "%s{\"case\": %zu, \"name\": ", shown++ ? ", " : "", i);
                gc_sb_json_string(&j, in->names[i]);
                gc_sb_printf(&j, ", \"measured\": %llu, \"predicted\": ", (unsigned long long)in->cases[i].invocations);
                if (s == GC_OK)
                    gc_sb_printf(&j, "%llu}", (unsigned long long)predicted);
                else
                    gc_sb_printf(&j, "null}");
            } else if (shown++ < 4) {
                if (s == GC_OK)
                    fprintf(f, "       wrong: %s: measured %llu, predicted %llu%s\n", in->names[i],
                           (unsigned long long)in->cases[i].invocations, (unsigned long long)predicted,
                           predicted == in->cases[i].invocations ? " (per-vertex counts differ)" : "");
                else
                    fprintf(f, "       wrong: %s: the model cannot run it (%s)\n", in->names[i], why.message);
            }
        }
        if (json)
            gc_sb_printf(&j, "]}");
        else if (wrong > 4)
            fprintf(f, "       ... and %zu more\n", wrong - 4);
    }
    if (json) {
        gc_sb_printf(&j, "]}\n");
        return gc_sb_write(&j, f, err);
    } else if (found && best[0].exact == in->count) {
        fprintf(f, "best: %s predicts every case exactly\n", best[0].model.name);
    } else if (found) {
        fprintf(f, "best: %s, but no candidate predicts every case: the device does something none of the "
               "families models\n", best[0].model.name);
    }
    return GC_OK;
}
