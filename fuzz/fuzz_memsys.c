// SPDX-License-Identifier: MIT
/* Memory-system scenarios: parsed, then replayed under every strategy through the work
 * limit (gc_memsys_run_limited) that the CLI uses. A scenario whose estimated work is
 * over the limit must be refused before any replay; one under it must replay. The limit
 * here is small so that each input stays fast; the estimate is what bounds it. */
#include "gpucache_private.h"

#include <stdlib.h>

#define FUZZ_MAX_WORK 200000u

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    gc_memsys* m = NULL;
    gc_error err;
    if (gc_memsys_parse((const char*)data, size, "fuzz.scn", &m, &err) != GC_OK)
        return 0;
    uint64_t work = gc_memsys_work(m);
    if (work < gc_memsys_accesses(m))
        abort(); /* the estimate counts at least every line access */
    for (int s = 0; s < GC_MEMSYS_STRATEGY_COUNT; ++s) {
        gc_memsys_report r;
        gc_status st = gc_memsys_run_limited(m, (gc_memsys_strategy)s, FUZZ_MAX_WORK, NULL, NULL, &r, &err);
        if (work > FUZZ_MAX_WORK && st != GC_ERR_LIMIT)
            abort(); /* over the limit and not refused */
        if (st == GC_OK)
            gc_memsys_report_free(&r);
    }
    gc_memsys_free(m);
    return 0;
}
