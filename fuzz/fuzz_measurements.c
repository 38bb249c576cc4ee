// SPDX-License-Identifier: MIT
/* Measurement files (JSON) as `gpucache fit` reads them; the cases then go to the fitter
 * with a few candidate models. The same bytes as a fit result (-m @FILE, the same
 * streaming reader): a model it accepts must be one that its own name parses back to. */
#include "gpucache/gpucache_probe.h"
#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* path = fuzz_file(data, size, "json");
    gc_measurements in;
    gc_error load_err;
    if (gc_measurements_load(path, &in, &load_err) == GC_OK) {
        gc_model models[3];
        gc_error err;
        gc_model_parse("fifo:16", &models[0], &err);
        gc_model_parse("nvidia", &models[1], &err);
        gc_model_parse("llvmpipe", &models[2], &err);
        gc_fit_options o = {0};
        o.candidates = models;
        o.candidate_count = 3;
        gc_fit_candidate best[3];
        size_t found;
        size_t total = 0;
        for (size_t i = 0; i < in.count; ++i)
            total += in.cases[i].draw.index_count;
        if (total < 100000)
            gc_fit(in.cases, in.count, &o, 3, best, &found, &err);
    }
    gc_measurements_free(&in);
    gc_model fitted, again;
    gc_error fit_err;
    if (gc_model_load_fitted(path, &fitted, &fit_err) == GC_OK &&
        (gc_model_parse(fitted.name, &again, &fit_err) != GC_OK || again.family != fitted.family ||
         memcmp(again.p, fitted.p, sizeof again.p) != 0))
        abort();
    return 0;
}
