// SPDX-License-Identifier: MIT
/* Reading measurement files (see gpucache_probe.h).
 *
 * A small streaming JSON reader (RFC 8259, json_reader.c) instead of jansson's document:
 * jansson holds every array element as a separate json_t, about 43 bytes per index of a
 * measurement file, while the cases need 4. Members the schema does not use are checked for syntax
 * and skipped without being stored; nesting is bounded. Errors name the file, line and
 * column, as jansson's did. */
#include "../internal.h"
#include "json_reader.h"
#include "gpucache/gpucache_io.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* What the reader keeps of the file: its top-level members and the case names. */
struct gc_measurements_doc {
    json_t* root;
    json_t* strings;
};

void gc_measurements_free(gc_measurements* in)
{
    for (size_t i = 0; in->buffers && i < 3 * in->count; ++i)
        free(in->buffers[i]);
    free(in->buffers);
    free(in->cases);
    free(in->names);
    if (in->doc) {
        json_decref(in->doc->root);
        json_decref(in->doc->strings);
        free(in->doc);
    }
    memset(in, 0, sizeof *in);
}

/* ---------------------------------------------------------------- the schema */

/* A growable uint32 buffer; grows by half, so the slack stays under 2 bytes an index. */
typedef struct u32buf {
    uint32_t* data;
    size_t count, capacity;
} u32buf;

static bool u32_push(u32buf* b, uint32_t v)
{
    if (b->count == b->capacity) {
        size_t next = b->capacity < 1024 ? 1024 : b->capacity + b->capacity / 2;
        if (next > SIZE_MAX / sizeof(uint32_t))
            return false;
        uint32_t* grown = realloc(b->data, next * sizeof(uint32_t));
        if (!grown)
            return false;
        b->data = grown;
        b->capacity = next;
    }
    b->data[b->count++] = v;
    return true;
}

/* The exact size, once the array is complete (never NULL for a successful read). */
static uint32_t* u32_finish(u32buf* b)
{
    uint32_t* fitted = realloc(b->data, (b->count ? b->count : 1) * sizeof(uint32_t));
    if (fitted)
        b->data = fitted;
    uint32_t* out = b->data;
    b->data = NULL;
    return out;
}

/* A value that must be an integer in [0, 2^32): *ok is false for anything else (which
 * is still read, so that the error can name the element). */
static int read_u32(jreader* r, uint32_t* out, bool* ok)
{
    jr_skip_ws(r);
    *ok = false;
    if (r->c == '-' || (r->c >= '0' && r->c <= '9')) {
        bool integral;
        json_int_t v = 0;
        if (jr_read_number(r, &integral, &v, NULL))
            return -1;
        if (integral && v >= 0 && v <= (json_int_t)UINT32_MAX) {
            *out = (uint32_t)v;
            *ok = true;
        }
        return 0;
    }
    return jr_skip_value(r, 0);
}

/* Calls element(r, user, k) for each element of the array at the current position. */
typedef int (*element_fn)(jreader* r, void* user, size_t k);

static int read_array(jreader* r, element_fn element, void* user)
{
    if (jr_expect(r, '[', "'[' expected"))
        return -1;
    jr_skip_ws(r);
    if (r->c == ']') {
        jr_advance(r);
        return 0;
    }
    for (size_t k = 0;; ++k) {
        if (element(r, user, k))
            return -1;
        jr_skip_ws(r);
        if (r->c == ',') {
            jr_advance(r);
            continue;
        }
        if (r->c == ']') {
            jr_advance(r);
            return 0;
        }
        return jr_syntax(r, "',' or ']' expected");
    }
}

typedef struct case_reader {
    size_t index; /* of the case */
    u32buf indices, values, counts;
    bool have_indices, have_per_vertex, per_vertex_null;
} case_reader;

static int index_element(jreader* r, void* user, size_t k)
{
    case_reader* cr = user;
    uint32_t v = 0;
    bool ok;
    if (read_u32(r, &v, &ok))
        return -1;
    if (!ok)
        return jr_fail_line(r, "case %zu: index %zu is not a 32-bit unsigned integer", cr->index, k);
    if (k >= GC_MAX_INDICES)
        return jr_fail_line(r, "case %zu: more than %zu indices", cr->index, GC_MAX_INDICES);
    if (!u32_push(&cr->indices, v))
        return jr_fail_line(r, "case %zu: out of memory for %zu indices", cr->index, k + 1);
    return 0;
}

typedef struct pair_reader {
    case_reader* cr;
    size_t row, items;
    uint32_t pair[2];
    bool ok;
} pair_reader;

static int pair_element(jreader* r, void* user, size_t k)
{
    pair_reader* pr = user;
    bool ok = false;
    if (k < 2) {
        if (read_u32(r, &pr->pair[k], &ok))
            return -1;
    } else if (jr_skip_value(r, 0)) {
        return -1;
    }
    pr->ok = pr->ok && ok;
    pr->items = k + 1;
    return 0;
}

static int per_vertex_row(jreader* r, void* user, size_t k)
{
    case_reader* cr = user;
    pair_reader pr = {cr, k, 0, {0, 0}, true};
    jr_skip_ws(r);
    int bad = r->c != '[';
    if (bad ? jr_skip_value(r, 0) : read_array(r, pair_element, &pr))
        return -1;
    if (bad || !pr.ok || pr.items != 2 || (k && pr.pair[0] <= cr->values.data[k - 1]))
        return jr_fail_line(r,
                         "case %zu: per_vertex row %zu is not an [index, count] pair in ascending index order",
                         cr->index, k);
    if (!u32_push(&cr->values, pr.pair[0]) || !u32_push(&cr->counts, pr.pair[1]))
        return jr_fail_line(r, "case %zu: out of memory for %zu per_vertex rows", cr->index, k + 1);
    return 0;
}

static int bad(jreader* r, size_t i, const char* what)
{
    gc_fail(r->err, GC_ERR_DATA, "%s: case %zu: %s", r->path, i, what);
    return -1;
}

/* Room for one more case: arrays grow by half. */
static int add_case(jreader* r, gc_measurements* in, size_t* capacity)
{
    if (in->count == *capacity) {
        size_t next = *capacity < 16 ? 16 : *capacity + *capacity / 2;
        gc_fit_case* cases = realloc(in->cases, next * sizeof *cases);
        if (cases)
            in->cases = cases;
        const char** names = realloc(in->names, next * sizeof *names);
        if (names)
            in->names = names;
        uint32_t** buffers = next > SIZE_MAX / 3 / sizeof *buffers ? NULL : realloc(in->buffers, 3 * next * sizeof *buffers);
        if (buffers)
            in->buffers = buffers;
        if (!cases || !names || !buffers)
            return jr_fail_line(r, "out of memory for a list of %zu cases", next);
        *capacity = next;
    }
    memset(&in->cases[in->count], 0, sizeof in->cases[0]);
    in->names[in->count] = "(unnamed)";
    in->buffers[3 * in->count] = in->buffers[3 * in->count + 1] = in->buffers[3 * in->count + 2] = NULL;
    in->count++;
    return 0;
}

/* One case object, read and then checked (in the order the checks always had). */
static int read_case(jreader* r, gc_measurements* in, size_t i)
{
    jr_skip_ws(r);
    if (r->c != '{') {
        if (jr_skip_value(r, 0))
            return -1;
        r->failed = true;
        return bad(r, i, "not an object");
    }
    jr_advance(r);
    case_reader cr = {0};
    cr.index = i;
    json_t* fields = json_object(); /* the case's small members: name, topology, restart, invocations */
    int status = fields ? 0 : jr_fail_line(r, "out of memory reading case %zu", i);
    jr_skip_ws(r);
    if (!status && r->c == '}') {
        jr_advance(r);
    } else {
        while (!status) {
            text key = {0};
            jr_skip_ws(r);
            if (jr_read_string(r, &key) || jr_expect(r, ':', "':' expected")) {
                free(key.data);
                status = -1;
                break;
            }
            const char* k = key.data ? key.data : "";
            if (!strcmp(k, "indices")) {
                jr_skip_ws(r);
                cr.indices.count = 0; /* a repeated member replaces the earlier one */
                cr.have_indices = r->c == '[';
                status = cr.have_indices ? read_array(r, index_element, &cr) : jr_skip_value(r, 0);
            } else if (!strcmp(k, "per_vertex")) {
                jr_skip_ws(r);
                cr.values.count = cr.counts.count = 0;
                cr.have_per_vertex = true;
                cr.per_vertex_null = r->c == 'n';
                if (r->c == '[')
                    status = read_array(r, per_vertex_row, &cr);
                else if ((status = jr_skip_value(r, 0)) == 0 && !cr.per_vertex_null) {
                    r->failed = true;
                    status = bad(r, i, "\"per_vertex\" is not an array of [index, count] pairs");
                }
            } else if (!strcmp(k, "name") || !strcmp(k, "topology") || !strcmp(k, "restart") ||
                       !strcmp(k, "invocations")) {
                json_t* v = jr_read_small(r);
                status = v ? json_object_set_new(fields, k, v) : -1;
            } else {
                status = jr_skip_value(r, 0);
            }
            free(key.data);
            if (status)
                break;
            jr_skip_ws(r);
            if (r->c == ',') {
                jr_advance(r);
                continue;
            }
            if (r->c == '}') {
                jr_advance(r);
                break;
            }
            status = jr_syntax(r, "',' or '}' expected");
        }
    }
    gc_fit_case* fc = &in->cases[i];
    gc_error err;
    if (!status) {
        json_t* name = json_object_get(fields, "name");
        if (json_is_string(name) && json_array_append(in->doc->strings, name) == 0)
            in->names[i] = json_string_value(name);
        json_t* topo = json_object_get(fields, "topology");
        json_t* restart = json_object_get(fields, "restart");
        json_t* inv = json_object_get(fields, "invocations");
        if (!json_is_string(topo) || gc_topology_parse(json_string_value(topo), &fc->draw.topology, &err)) {
            status = bad(r, i, "missing or unknown \"topology\"");
        } else if (restart && !json_is_null(restart) &&
                   (!json_is_integer(restart) || json_integer_value(restart) < 0 ||
                    json_integer_value(restart) > (json_int_t)UINT32_MAX)) {
            status = bad(r, i, "\"restart\" is not a 32-bit index value or null");
        } else if (!cr.have_indices) {
            status = bad(r, i, "missing \"indices\" array");
        } else {
            if (restart && !json_is_null(restart)) {
                fc->draw.restart_value = (uint32_t)json_integer_value(restart);
                fc->draw.restart_enabled = 1;
            }
            fc->draw.index_count = cr.indices.count;
            in->buffers[3 * i] = u32_finish(&cr.indices);
            fc->draw.indices = in->buffers[3 * i];
            char what[64];
            snprintf(what, sizeof what, "case %zu", i);
            uint64_t prims;
            if (gc_draw_validate(&fc->draw, what, &prims, &err)) {
                gc_fail(r->err, GC_ERR_DATA, "%s: %s", r->path, err.message);
                status = -1;
            } else if (!json_is_integer(inv) || json_integer_value(inv) < 0) {
                status = bad(r, i, "missing \"invocations\"");
            } else {
                fc->invocations = (uint64_t)json_integer_value(inv);
                if (cr.have_per_vertex && !cr.per_vertex_null) {
                    fc->count = cr.values.count;
                    in->buffers[3 * i + 1] = u32_finish(&cr.values);
                    in->buffers[3 * i + 2] = u32_finish(&cr.counts);
                    fc->values = in->buffers[3 * i + 1];
                    fc->counts = in->buffers[3 * i + 2];
                }
            }
        }
        if (status)
            r->failed = true;
    }
    free(cr.indices.data);
    free(cr.values.data);
    free(cr.counts.data);
    json_decref(fields);
    return status ? -1 : 0;
}

/* The cases array, through read_array: each element is a case. */
typedef struct cases_reader {
    gc_measurements* in;
    size_t capacity;
} cases_reader;

static int case_element(jreader* r, void* user, size_t k)
{
    cases_reader* c = user;
    (void)k; /* the cases are counted in in->count, which add_case advances */
    return add_case(r, c->in, &c->capacity) || read_case(r, c->in, c->in->count - 1) ? -1 : 0;
}

static int read_cases(jreader* r, gc_measurements* in)
{
    cases_reader c = {in, 0};
    return read_array(r, case_element, &c);
}

/* The document: an object whose "cases" are read as they come; of the other members
 * only "device" is kept. */
static int read_document(jreader* r, gc_measurements* in, bool* have_cases)
{
    jr_skip_ws(r);
    if (r->c != '{') {
        if (jr_skip_value(r, 0))
            return -1;
        *have_cases = false;
    } else {
        jr_advance(r);
        jr_skip_ws(r);
        if (r->c == '}') {
            jr_advance(r);
        } else {
            for (;;) {
                text key = {0};
                jr_skip_ws(r);
                int status = jr_read_string(r, &key) || jr_expect(r, ':', "':' expected") ? -1 : 0;
                const char* k = key.data ? key.data : "";
                if (!status) {
                    jr_skip_ws(r);
                    if (!strcmp(k, "cases") && r->c == '[' && !*have_cases) {
                        *have_cases = true;
                        status = read_cases(r, in);
                    } else if (!strcmp(k, "device")) {
                        json_t* v = jr_read_small(r);
                        status = v ? json_object_set_new(in->doc->root, "device", v) : -1;
                    } else {
                        status = jr_skip_value(r, 0);
                    }
                }
                free(key.data);
                if (status)
                    return -1;
                jr_skip_ws(r);
                if (r->c == ',') {
                    jr_advance(r);
                    continue;
                }
                if (r->c == '}') {
                    jr_advance(r);
                    break;
                }
                return jr_syntax(r, "',' or '}' expected");
            }
        }
    }
    jr_skip_ws(r);
    if (r->c >= 0)
        return jr_syntax(r, "the end of the file expected");
    if (ferror(r->f)) {
        r->failed = true;
        gc_fail(r->err, GC_ERR_IO, "%s: read error", r->path);
        return -1;
    }
    return 0;
}

gc_status gc_measurements_load(const char* path, gc_measurements* in, gc_error* e)
{
    memset(in, 0, sizeof *in);
    FILE* f = gc_input_open(path);
    if (!f)
        return gc_fail(e, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    in->doc = calloc(1, sizeof *in->doc);
    if (in->doc) {
        in->doc->root = json_object();
        in->doc->strings = json_array();
    }
    if (!in->doc || !in->doc->root || !in->doc->strings) {
        gc_input_close(f);
        return gc_fail(e, GC_ERR_NOMEM, "%s: out of memory for the document's top level", path);
    }
    jreader r = {.f = f, .path = path, .line = 1, .err = e};
    r.c = getc(f);
    r.column = 1;
    bool have_cases = false;
    int status = read_document(&r, in, &have_cases);
    gc_input_close(f);
    if (status)
        return e ? e->code : GC_ERR_DATA;
    if (!have_cases)
        return gc_fail(e, GC_ERR_DATA,
                       "%s: not a measurement file (no \"cases\" array; write one with probe --suite)", path);
    if (in->count == 0)
        return gc_fail(e, GC_ERR_DATA, "%s: no cases", path);
    json_t* device = json_object_get(in->doc->root, "device");
    in->device = json_is_string(device) ? json_string_value(device) : NULL;
    return GC_OK;
}

/* ------------------------------------------------------------ fitted models */

/* Calls member(r, user, key) for each member of the object at the current position, the
 * reader on the member's value. */
typedef int (*member_fn)(jreader* r, void* user, const char* key);

static int read_object(jreader* r, member_fn member, void* user)
{
    if (jr_expect(r, '{', "'{' expected"))
        return -1;
    jr_skip_ws(r);
    if (r->c == '}') {
        jr_advance(r);
        return 0;
    }
    for (;;) {
        text key = {0};
        jr_skip_ws(r);
        int status = jr_read_string(r, &key) || jr_expect(r, ':', "':' expected") ? -1 : 0;
        if (!status) {
            jr_skip_ws(r);
            status = member(r, user, key.data ? key.data : "");
        }
        free(key.data);
        if (status)
            return -1;
        jr_skip_ws(r);
        if (r->c == ',') {
            jr_advance(r);
            continue;
        }
        if (r->c == '}') {
            jr_advance(r);
            return 0;
        }
        return jr_syntax(r, "',' or '}' expected");
    }
}

/* What a fit result holds that gc_model_load_fitted uses: the first candidate of "best". */
typedef struct fitted_reader {
    bool have_best;           /* a "best" array was read */
    size_t candidates;        /* its elements */
    bool first_is_object;
    unsigned long line, column; /* where the first candidate starts */
    text model, family;       /* its "model" and "family" strings, when they are strings */
    bool have_model, have_family;
} fitted_reader;

static int candidate_member(jreader* r, void* user, const char* key)
{
    fitted_reader* fr = user;
    if (!strcmp(key, "model") && r->c == '"' && !fr->have_model) {
        fr->have_model = true;
        return jr_read_string(r, &fr->model);
    }
    if (!strcmp(key, "family") && r->c == '"' && !fr->have_family) {
        fr->have_family = true;
        return jr_read_string(r, &fr->family);
    }
    return jr_skip_value(r, 0);
}

static int candidate_element(jreader* r, void* user, size_t k)
{
    fitted_reader* fr = user;
    fr->candidates = k + 1;
    jr_skip_ws(r);
    if (k == 0) {
        fr->line = r->line;
        fr->column = r->column;
        fr->first_is_object = r->c == '{';
    }
    if (k > 0 || r->c != '{')
        return jr_skip_value(r, 0);
    return read_object(r, candidate_member, fr);
}

static int fitted_member(jreader* r, void* user, const char* key)
{
    fitted_reader* fr = user;
    if (!strcmp(key, "best") && r->c == '[' && !fr->have_best) {
        fr->have_best = true;
        return read_array(r, candidate_element, fr);
    }
    return jr_skip_value(r, 0);
}

static int read_fitted(jreader* r, fitted_reader* fr)
{
    jr_skip_ws(r);
    if ((r->c == '{' ? read_object(r, fitted_member, fr) : jr_skip_value(r, 0)))
        return -1;
    jr_skip_ws(r);
    if (r->c >= 0)
        return jr_syntax(r, "the end of the file expected");
    if (r->over)
        return jr_over_limit(r);
    if (ferror(r->f)) {
        r->failed = true;
        gc_fail(r->err, GC_ERR_IO, "%s: read error", r->path);
        return -1;
    }
    return 0;
}

gc_status gc_model_load_fitted(const char* path, gc_model* out, gc_error* e)
{
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return gc_fail(e, GC_ERR_USAGE, "no fit result file given");
    FILE* f = gc_input_open(path);
    if (!f)
        return gc_fail(e, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    jreader r = {.f = f, .path = path, .line = 1, .err = e, .limit = GC_FITTED_MAX_BYTES};
    r.c = getc(f);
    r.column = 1;
    if (r.c >= 0)
        r.bytes = 1;
    fitted_reader fr;
    memset(&fr, 0, sizeof fr);
    int status = read_fitted(&r, &fr);
    gc_input_close(f);
    gc_status s = GC_OK;
    if (status)
        s = e ? e->code : GC_ERR_DATA;
    else if (!fr.have_best)
        s = gc_fail(e, GC_ERR_DATA,
                    "%s: not a fit result (no \"best\" array; write one with 'gpucache fit --json')", path);
    else if (fr.candidates == 0)
        s = gc_fail(e, GC_ERR_DATA, "%s: the fit result has no candidates (\"best\" is empty)", path);
    else if (!fr.first_is_object)
        s = gc_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best candidate (\"best\"[0]) is not an object: not a fit result",
                    path, fr.line, fr.column);
    else if (!fr.have_model)
        s = gc_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best candidate has no \"model\" string: not a fit result", path,
                    fr.line, fr.column);
    if (!s) {
        gc_error parse_err = {0};
        const char* spec = fr.model.data ? fr.model.data : "";
        if (gc_model_parse(spec, out, &parse_err)) {
            s = gc_fail(e, GC_ERR_DATA, "%s:%lu:%lu: the best model does not parse: %s", path, fr.line, fr.column,
                        parse_err.message);
        } else if (fr.have_family && strcmp(fr.family.data ? fr.family.data : "", gc_model_family_name(out->family))) {
            s = gc_fail(e, GC_ERR_DATA,
                        "%s:%lu:%lu: the best model '%s' is a %s model, but its \"family\" says '%.100s'", path,
                        fr.line, fr.column, out->name, gc_model_family_name(out->family),
                        fr.family.data ? fr.family.data : "");
        }
    }
    free(fr.model.data);
    free(fr.family.data);
    if (s)
        memset(out, 0, sizeof *out);
    return s;
}
