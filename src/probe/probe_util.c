/* What the probe library needs of the library's internals, of its own: libgpucache
 * exports only its public API (hidden visibility), and the probe is a library apart
 * that may be linked against the shared libgpucache, so it cannot call gc_fail or
 * gc_input_open there. */
#include "probe_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

gc_status gc_probe_fail(gc_error* err, gc_status code, const char* fmt, ...)
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

FILE* gc_probe_input_open(const char* path)
{
    return strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
}

void gc_probe_input_close(FILE* f)
{
    if (f && f != stdin)
        fclose(f);
}
