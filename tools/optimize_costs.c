/* optimize's overdraw and vertex fetch before and after (optimize_costs.h): the library's
 * gc_mesh_optimized_costs_of, with the spec's text for the table. */
#include "optimize_costs.h"

#include <string.h>

gc_status optimize_costs_of(const char* path, const gc_load_options* lo, const gc_mesh_optimized* r, int reorder,
                            const char* spec_text, const gc_fetch_spec* spec, optimize_costs* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    gc_mesh_optimized_costs c;
    gc_status s = gc_mesh_optimized_costs_of(path, lo, r, reorder, spec, &c, err);
    if (s)
        return s;
    out->has_overdraw = c.has_overdraw;
    out->overdraw_before = c.overdraw_before, out->overdraw_after = c.overdraw_after;
    out->fetch_before = c.fetch_before, out->fetch_after = c.fetch_after;
    out->fetch_spec = c.has_fetch ? spec_text : NULL;
    return GC_OK;
}
