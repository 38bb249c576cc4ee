/* Memory-system scenarios: parsed, then replayed under every strategy when small. */
#include "gpucache/gpucache.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    gc_memsys* m = NULL;
    gc_error err;
    if (gc_memsys_parse((const char*)data, size, "fuzz.scn", &m, &err) != GC_OK)
        return 0;
    double l2 = 0;
    gc_memsys_machine_value(m, "l2_kb", &l2);
    if (gc_memsys_accesses(m) <= 20000 && l2 <= 4096)
        for (int s = 0; s < GC_MEMSYS_STRATEGY_COUNT; ++s) {
            gc_memsys_report r;
            if (gc_memsys_run(m, (gc_memsys_strategy)s, &r, &err) == GC_OK)
                gc_memsys_report_free(&r);
        }
    gc_memsys_free(m);
    return 0;
}
