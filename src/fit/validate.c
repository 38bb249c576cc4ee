// SPDX-License-Identifier: MIT
/* Predicting the published measurements under a model (gc_validate, gpucache_validate.h):
 * each buffer rebuilt as it was measured (a quad grid in seed 002's layouts at each target
 * cache size, or the source's own sequence), analyzed, and the figure derived the way the
 * source states it (the best target cache size, its ATVR, the size where striping breaks). */
#include "../internal.h"
#include "gpucache/gpucache_validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A grid's ATVR at each target cache size, shared by the values that measure it. */
typedef struct curve {
    uint32_t width, height, lo, hi;
    gc_published_layout layout;
    double* atvr;  /* hi - lo + 1 values */
    int valid;     /* the model ran every size */
} curve;

/* The buffer of a grid at one cache size into *out (malloc'd, *n indices). */
static gc_status build_grid(const curve* c, uint32_t cache, const uint32_t* rowmajor, size_t rowmajor_count,
                            uint32_t** out, size_t* n, gc_error* err)
{
    *out = NULL;
    *n = 0;
    if (c->layout == GC_PUBLISHED_TIPSIFY) {
        *out = gc_alloc_array(rowmajor_count ? rowmajor_count : 1, sizeof **out, false);
        if (!*out)
            return gc_fail(err, GC_ERR_NOMEM, "validate: out of memory for %zu indices", rowmajor_count);
        gc_optimize_options o = {0};
        o.cache_size = cache;
        *n = rowmajor_count;
        return gc_optimize(GC_OPT_TIPSIFY, rowmajor, rowmajor_count, (c->width + 1) * (c->height + 1), &o, *out, err);
    }
    gc_grid_layout g = c->layout == GC_PUBLISHED_OPTIMAL ? GC_GRID_OPTIMAL : GC_GRID_STRIPED;
    size_t count = gc_grid_index_count(c->width, c->height, g, cache);
    *out = gc_alloc_array(count ? count : 1, sizeof **out, false);
    if (!*out)
        return gc_fail(err, GC_ERR_NOMEM, "validate: out of memory for %zu indices", count);
    return gc_grid_generate(c->width, c->height, g, cache, *out, n, err);
}

/* Fills c->atvr under the model: GC_ERR_NOMEM stops; another failure marks it invalid. */
static gc_status run_curve(curve* c, const gc_model* model, gc_error* err)
{
    size_t sizes = (size_t)(c->hi - c->lo + 1);
    c->atvr = gc_alloc_array(sizes, sizeof *c->atvr, true);
    size_t rowmajor_count = gc_grid_index_count(c->width, c->height, GC_GRID_ROWMAJOR, 0);
    uint32_t* rowmajor = gc_alloc_array(rowmajor_count ? rowmajor_count : 1, sizeof *rowmajor, false);
    if (!c->atvr || !rowmajor) {
        free(rowmajor);
        return gc_fail(err, GC_ERR_NOMEM, "validate: out of memory for a %ux%u grid", c->width, c->height);
    }
    size_t written = 0;
    gc_status s = gc_grid_generate(c->width, c->height, GC_GRID_ROWMAJOR, 0, rowmajor, &written, err);
    c->valid = s == GC_OK;
    for (uint32_t cache = c->lo; !s && cache <= c->hi; ++cache) {
        uint32_t* buf;
        size_t n;
        s = build_grid(c, cache, rowmajor, written, &buf, &n, err);
        if (!s) {
            gc_draw d = {buf, n, GC_TRIANGLE_LIST, 0, 0};
            gc_stats st;
            s = gc_analyze(model, &d, NULL, &st, err);
            c->atvr[cache - c->lo] = st.atvr;
        }
        free(buf);
    }
    free(rowmajor);
    if (s == GC_ERR_NOMEM)
        return s;
    if (s)
        c->valid = 0;
    return GC_OK;
}

/* The figure a curve gives for value p. */
static double curve_figure(const curve* c, const gc_published* p)
{
    size_t sizes = (size_t)(c->hi - c->lo + 1), best = 0;
    for (size_t i = 1; i < sizes; ++i)
        if (c->atvr[i] < c->atvr[best])
            best = i;
    switch (p->kind) {
    case GC_FIGURE_ATVR:
        return c->atvr[0];
    case GC_FIGURE_BEST_CACHE:
        return (double)(c->lo + best);
    case GC_FIGURE_BEST_ATVR:
        return c->atvr[best];
    case GC_FIGURE_BREAK_CACHE:
        for (size_t i = best + 1; i < sizes; ++i)
            if (c->atvr[i] >= 1.5)
                return (double)(c->lo + i);
        return 0.0;
    default:
        return 0.0;
    }
}

/* Error and match of a prediction against the published value. */
static void judge(const gc_published* p, double tolerance, gc_prediction* out)
{
    int relative = p->kind == GC_FIGURE_ATVR || p->kind == GC_FIGURE_BEST_ATVR;
    double diff = out->predicted - p->value;
    out->error = relative && p->value != 0 ? diff / p->value : diff;
    if (p->bound == GC_BOUND_ABOVE) {
        out->match = out->predicted > p->value;
        if (out->match)
            out->error = 0;
    } else if (p->bound == GC_BOUND_BELOW) {
        out->match = out->predicted < p->value;
        if (out->match)
            out->error = 0;
    } else {
        out->match = relative ? fabs(out->error) <= tolerance + 1e-12 : fabs(diff) < 1e-9;
    }
}

gc_status gc_validate(const gc_published_set* set, const gc_model* model, double tolerance, gc_prediction* out,
                      gc_error* err)
{
    if (!set || !model || (set->count && (!set->items || !out)))
        return gc_fail(err, GC_ERR_USAGE, "validate: a set, a model and room for the predictions needed");
    curve* curves = gc_alloc_array(set->count ? set->count : 1, sizeof *curves, true);
    if (!curves)
        return gc_fail(err, GC_ERR_NOMEM, "validate: out of memory for %zu values", set->count);
    size_t curve_count = 0;
    gc_status s = GC_OK;
    for (size_t i = 0; !s && i < set->count; ++i) {
        const gc_published* p = &set->items[i];
        gc_prediction* r = &out[i];
        memset(r, 0, sizeof *r);
        if (!p->is_grid) {
            gc_draw d = {p->indices, p->index_count, p->topology, 0, 0};
            gc_stats st;
            gc_error local;
            gc_status a = gc_analyze(model, &d, NULL, &st, &local);
            if (a == GC_ERR_NOMEM) {
                s = a;
                if (err)
                    *err = local;
                break;
            }
            r->valid = a == GC_OK;
            r->predicted = r->valid ? (double)st.invocations : 0.0;
        } else {
            curve* c = NULL;
            for (size_t k = 0; k < curve_count && !c; ++k)
                if (curves[k].width == p->width && curves[k].height == p->height && curves[k].layout == p->layout &&
                    curves[k].lo == p->cache_lo && curves[k].hi == p->cache_hi)
                    c = &curves[k];
            if (!c) {
                c = &curves[curve_count++];
                c->width = p->width;
                c->height = p->height;
                c->layout = p->layout;
                c->lo = p->cache_lo;
                c->hi = p->cache_hi;
                gc_error local;
                if ((s = run_curve(c, model, &local))) {
                    if (err)
                        *err = local;
                    break;
                }
            }
            r->valid = c->valid;
            r->predicted = c->valid ? curve_figure(c, p) : 0.0;
        }
        if (r->valid)
            judge(p, tolerance, r);
    }
    for (size_t k = 0; k < curve_count; ++k)
        free(curves[k].atvr);
    free(curves);
    return s;
}
