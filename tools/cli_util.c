#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void sb_printf(strbuf* b, const char* fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list args;
        va_start(args, fmt);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->data ? b->data + b->length : NULL, b->data ? room : 0, fmt, args);
        va_end(args);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t next = b->capacity ? b->capacity * 2 : 256;
        while (next < b->length + (size_t)n + 1)
            next *= 2;
        char* grown = realloc(b->data, next);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->capacity = next;
        if (b->length == 0)
            b->data[0] = 0;
    }
}

void sb_json_string(strbuf* b, const char* s)
{
    sb_printf(b, "\"");
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            sb_printf(b, "\\u%04x", *p);
        else
            sb_printf(b, "%c", *p);
    }
    sb_printf(b, "\"");
}

int atomic_open(atomic_file* af, const char* path)
{
    memset(af, 0, sizeof *af);
    if (strlen(path) >= sizeof af->target) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(af->target, sizeof af->target, "%s", path);
    snprintf(af->temp, sizeof af->temp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(af->temp);
    if (fd < 0)
        return -1;
    /* mkstemp makes the file 0600; give it the mode a plain fopen would have. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    af->f = fdopen(fd, "w");
    if (!af->f) {
        close(fd);
        unlink(af->temp);
        return -1;
    }
    return 0;
}

int atomic_commit(atomic_file* af)
{
    int bad = ferror(af->f);
    if (fflush(af->f) != 0)
        bad = 1;
    if (fclose(af->f) != 0)
        bad = 1;
    af->f = NULL;
    if (bad || rename(af->temp, af->target) != 0) {
        int saved = errno;
        unlink(af->temp);
        errno = saved;
        return -1;
    }
    return 0;
}

void atomic_abort(atomic_file* af)
{
    if (af->f)
        fclose(af->f);
    af->f = NULL;
    unlink(af->temp);
}

int has_ext(const char* path, const char* ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && path[n - e - 1] == '.' && strcasecmp(path + n - e, ext) == 0;
}
