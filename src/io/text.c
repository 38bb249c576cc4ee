// SPDX-License-Identifier: MIT
/* Text index lists (.txt, .idx, standard input): whitespace- or comma-separated
 * unsigned integers, "#" to the end of a line. "-1" stands for 0xFFFFFFFF, the usual way
 * to write a primitive restart. State-change files (state_changes.c) share the syntax
 * through gc_text_token. */
#include "io.h"

#include <stdlib.h>
#include <string.h>

static bool is_separator(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f' || c == '\v';
}

int gc_text_token(gc_reader* r, char* token, size_t* length, uint64_t* line, gc_error* err)
{
    int c;
    for (;;) {
        c = gc_reader_peek(r);
        if (c < 0)
            return r->error ? -gc_fail(err, GC_ERR_IO, "%s: read error", r->what) : 0;
        if (c == '#') {
            while ((c = gc_reader_peek(r)) >= 0 && c != '\n')
                gc_reader_get(r);
            continue;
        }
        if (!is_separator(c))
            break;
        gc_reader_get(r);
    }
    *line = r->line;
    size_t len = 0;
    while ((c = gc_reader_peek(r)) >= 0 && !is_separator(c) && c != '#') {
        if (len < GC_TEXT_TOKEN - 1)
            token[len] = (char)c;
        len++;
        gc_reader_get(r);
    }
    token[len < GC_TEXT_TOKEN ? len : GC_TEXT_TOKEN - 1] = 0;
    *length = len;
    return 1;
}

/* Reads the next number. Returns 1 with *value set, 0 at the end, or an error code
 * (negated) with err filled. `limit` is the largest value accepted. */
static int next_number(gc_reader* r, uint64_t limit, bool allow_minus_one, uint64_t* value, uint64_t* token_line,
                       gc_error* err)
{
    char token[GC_TEXT_TOKEN];
    size_t len;
    uint64_t line;
    int got = gc_text_token(r, token, &len, &line, err);
    if (got <= 0)
        return got;
    if (token_line)
        *token_line = line;
    if (len >= GC_TEXT_TOKEN)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s...' is not an index", r->what, (unsigned long long)line,
                        token);
    if (allow_minus_one && strcmp(token, "-1") == 0) {
        *value = UINT32_MAX;
        return 1;
    }
    if (token[0] == '-')
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: negative index '%s' (only -1, a restart, is allowed)", r->what,
                        (unsigned long long)line, token);
    /* the one number parser (common.c): digits only, overflow checked before each one */
    gc_parse_result pr = gc_parse_u64(token, len, 0, 0, limit, value);
    if (pr == GC_PARSE_RANGE)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is larger than %llu", r->what, (unsigned long long)line,
                        token, (unsigned long long)limit);
    if (pr != GC_PARSE_OK)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not an index", r->what, (unsigned long long)line,
                        token);
    return 1;
}

gc_status gc_load_text(gc_reader* r, const gc_load_options* o, gc_mesh* out, gc_error* err)
{
    size_t max = o && o->max_indices ? o->max_indices : GC_MAX_INDICES;
    gc_u32_vec v = {0};
    for (;;) {
        uint64_t value = 0; /* set by next_number when it returns 1 */
        int got = next_number(r, UINT32_MAX, true, &value, NULL, err);
        if (got < 0) {
            free(v.data);
            return (gc_status)-got;
        }
        if (got == 0)
            break;
        if (v.count >= max) {
            free(v.data);
            return gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %zu indices", r->what, (unsigned long long)r->line,
                           max);
        }
        if (!gc_u32_vec_push(&v, (uint32_t)value)) {
            free(v.data);
            return gc_fail(err, GC_ERR_NOMEM, "%s:%llu: out of memory after %zu indices", r->what,
                           (unsigned long long)r->line, v.count);
        }
    }
    if (v.count == 0) {
        free(v.data);
        return gc_fail(err, GC_ERR_DATA, "%s: no indices (empty input)", r->what);
    }
    gc_mesh_set(out, v.data, v.count, false, 0);
    return GC_OK;
}

gc_status gc_mesh_parse_text(const char* text, size_t length, const char* what, gc_mesh* out, gc_error* err)
{
    gc_reader r;
    gc_reader_from_memory(&r, text, length, what);
    gc_status s = gc_load_text(&r, NULL, out, err);
    gc_reader_close(&r);
    return s;
}

/* gc_state_changes_load is in state_changes.c. */
