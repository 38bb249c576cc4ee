// SPDX-License-Identifier: MIT
/* State-change files (gc_state_changes_load): positions in the index buffer where the
 * application changes state, as whitespace- or comma-separated unsigned integers with
 * "#" comments, the syntax of the text index lists. Each number goes through
 * gc_parse_u64, so a position past 2^64 is refused instead of wrapping around. */
#include "io.h"

#include <stdlib.h>
#include <string.h>

/* Reads the next position. Returns 1 with *value set, 0 at the end, or an error code
 * (negated) with err filled. */
static int next_position(gc_reader* r, size_t index_count, uint64_t* value, uint64_t* token_line, gc_error* err)
{
    char token[GC_TEXT_TOKEN];
    size_t len;
    uint64_t line;
    int got = gc_text_token(r, token, &len, &line, err);
    if (got <= 0)
        return got;
    *token_line = line;
    if (len >= GC_TEXT_TOKEN)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s...' is not a position", r->what, (unsigned long long)line,
                        token);
    gc_parse_result pr = gc_parse_u64(token, len, 0, 0, UINT64_MAX, value);
    if (pr == GC_PARSE_RANGE)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: state change at %s is past the end of the %zu indices", r->what,
                        (unsigned long long)line, token, index_count);
    if (pr != GC_PARSE_OK)
        return -gc_fail(err, GC_ERR_DATA, "%s:%llu: '%s' is not a position (%s)", r->what, (unsigned long long)line,
                        token, gc_parse_result_text(pr));
    return 1;
}

static int compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

gc_status gc_state_changes_load(const char* path, size_t index_count, uint64_t** out, size_t* count, gc_error* err)
{
    *out = NULL;
    *count = 0;
    gc_reader r;
    gc_status s = gc_reader_open(&r, path, err);
    if (s)
        return s;
    uint64_t* list = NULL;
    size_t n = 0, capacity = 0;
    for (;;) {
        uint64_t value = 0, line = 0; /* set when next_position returns 1 */
        int got = next_position(&r, index_count, &value, &line, err);
        if (got < 0) {
            s = (gc_status)-got;
            break;
        }
        if (got == 0)
            break;
        if (value > index_count) {
            s = gc_fail(err, GC_ERR_DATA, "%s:%llu: state change at %llu is past the end of the %zu indices", path,
                        (unsigned long long)line, (unsigned long long)value, index_count);
            break;
        }
        if (n == capacity) {
            if (n >= GC_MAX_STATE_CHANGES) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s:%llu: more than %zu state changes", path,
                            (unsigned long long)line, (size_t)GC_MAX_STATE_CHANGES);
                break;
            }
            size_t next = capacity ? capacity * 2 : 256;
            uint64_t* grown = realloc(list, next * sizeof *list);
            if (!grown) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu state changes", path, next);
                break;
            }
            list = grown;
            capacity = next;
        }
        list[n++] = value;
    }
    gc_reader_close(&r);
    if (s) {
        free(list);
        return s;
    }
    if (n > 1) /* qsort must not see the NULL of an empty list */
        qsort(list, n, sizeof *list, compare_u64);
    *out = list;
    *count = n;
    return GC_OK;
}
