/* One reader that takes a file (.u16, .u32, .obj, .ply: FUZZ_EXT names it), through a file
 * as users give it; the draw it loads must then validate or fail cleanly. Built once per
 * format by fuzz/CMakeLists.txt. */
#include "fuzz_util.h"
#include "gpucache/gpucache.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* path = fuzz_file(data, size, FUZZ_EXT);
    gc_mesh m;
    gc_error err;
    gc_load_options lo = {0};
    lo.max_indices = 1u << 22; /* keep single runs short; the limit path is exercised too */
    if (gc_mesh_load(path, &lo, &m, &err) == GC_OK) {
        gc_draw d = {m.indices, m.index_count, m.topology, m.restart_enabled, m.restart_value};
        uint64_t prims;
        gc_draw_validate(&d, path, &prims, &err);
        gc_mesh_free(&m);
    }
    return 0;
}
