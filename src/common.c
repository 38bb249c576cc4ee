/* Error reporting, checked allocation, a growable array and a buffered reader. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gc_status gc_fail(gc_error* err, gc_status code, const char* fmt, ...)
{
    if (err) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
        err->code = code;
    }
    return code;
}

void* gc_alloc_array(size_t count, size_t size, bool zeroed)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    if (bytes == 0)
        bytes = 1;
    return zeroed ? calloc(1, bytes) : malloc(bytes);
}

bool gc_u32_vec_reserve(gc_u32_vec* v, size_t capacity)
{
    if (capacity <= v->capacity)
        return true;
    if (capacity > SIZE_MAX / sizeof(uint32_t))
        return false;
    uint32_t* grown = realloc(v->data, capacity * sizeof(uint32_t));
    if (!grown)
        return false;
    v->data = grown;
    v->capacity = capacity;
    return true;
}

bool gc_u32_vec_push(gc_u32_vec* v, uint32_t value)
{
    if (GC_UNLIKELY(v->count == v->capacity)) {
        /* Grow by half: peak memory during a realloc stays near 2.5x the payload. */
        size_t next = v->capacity < 1024 ? 1024 : v->capacity + v->capacity / 2;
        if (!gc_u32_vec_reserve(v, next))
            return false;
    }
    v->data[v->count++] = value;
    return true;
}

/* ---------------------------------------------------------------- reader */

#define READER_CHUNK 65536

gc_status gc_reader_open(gc_reader* r, const char* path, gc_error* err)
{
    memset(r, 0, sizeof *r);
    r->what = path;
    r->line = 1;
    FILE* f;
    if (strcmp(path, "-") == 0) {
        f = stdin;
        r->what = "<stdin>";
    } else {
        f = fopen(path, "rb");
        if (!f)
            return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    r->buffer = malloc(READER_CHUNK);
    if (!r->buffer) {
        if (f != stdin)
            fclose(f);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for a read buffer of %d bytes", path, READER_CHUNK);
    }
    r->capacity = READER_CHUNK;
    r->file = f;
    return GC_OK;
}

void gc_reader_from_memory(gc_reader* r, const char* data, size_t length, const char* what)
{
    memset(r, 0, sizeof *r);
    r->what = what;
    r->line = 1;
    r->memory = data;
    r->buffer = (unsigned char*)data; /* read only: the memory reader never writes it */
    r->length = length;
    r->capacity = length;
    r->eof = true;
}

void gc_reader_close(gc_reader* r)
{
    if (!r->memory) {
        if (r->file && r->file != stdin)
            fclose(r->file);
        free(r->buffer);
    }
    memset(r, 0, sizeof *r);
}

static bool reader_fill(gc_reader* r)
{
    if (r->eof || r->error)
        return false;
    r->consumed += r->length;
    r->offset = 0;
    r->length = fread(r->buffer, 1, r->capacity, (FILE*)r->file);
    if (r->length == 0) {
        if (ferror((FILE*)r->file))
            r->error = true;
        r->eof = true;
        return false;
    }
    return true;
}

int gc_reader_peek(gc_reader* r)
{
    if (GC_UNLIKELY(r->offset >= r->length) && !reader_fill(r))
        return -1;
    return r->buffer[r->offset];
}

int gc_reader_get(gc_reader* r)
{
    if (GC_UNLIKELY(r->offset >= r->length) && !reader_fill(r))
        return -1;
    int c = r->buffer[r->offset++];
    if (c == '\n')
        r->line++;
    return c;
}

uint64_t gc_reader_offset(const gc_reader* r)
{
    return r->consumed + r->offset;
}
