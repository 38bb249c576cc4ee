// SPDX-License-Identifier: MIT
/* The gnuplot script writer (src/pictures/gnuplot.c) on hostile names: every string
 * gc_gnuplot_string writes must be one double-quoted literal that holds no byte any gnuplot pass acts on
 * (quotes, backquote, @, $, #, backslash other than an escape, line breaks, non-ASCII),
 * and that gnuplot's own unescaping turns back into the name byte for byte. The
 * `set output` lines that gc_gnuplot_set_output writes must be exactly one line. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache_private.h"
#include "fuzz_util.h"

/* gnuplot's reading of a double-quoted literal, for the escapes gc_gnuplot_string uses. */
static char* unescape(const char* lit, size_t len)
{
    if (len < 2 || lit[0] != '"' || lit[len - 1] != '"')
        abort();
    char* out = malloc(len);
    if (!out)
        abort();
    size_t n = 0;
    for (size_t i = 1; i + 1 < len; ++i) {
        unsigned char c = (unsigned char)lit[i];
        if (c == '\\') {
            if (i + 4 >= len + 0 || lit[i + 1] < '0' || lit[i + 1] > '3' || lit[i + 2] < '0' || lit[i + 2] > '7' ||
                lit[i + 3] < '0' || lit[i + 3] > '7')
                abort(); /* only full three-digit octal escapes */
            out[n++] = (char)((lit[i + 1] - '0') * 64 + (lit[i + 2] - '0') * 8 + (lit[i + 3] - '0'));
            i += 3;
            continue;
        }
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '`' || c == '@' || c == '$' || c == '#' || c == '\'' ||
            c == '{' || c == '}' || c == '^' || c == '&' || c == '~' || c == ';' || c == '!')
            abort(); /* a raw byte that a gnuplot pass or the enhanced text mode gives meaning to */
        out[n++] = (char)c;
    }
    out[n] = 0;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    char* name = fuzz_string(data, size);
    char* text = NULL;
    size_t length = 0;
    FILE* f = open_memstream(&text, &length);
    if (!f)
        abort();
    gc_gnuplot_string(f, name);
    fclose(f);
    char* back = unescape(text, length);
    if (strcmp(back, name) != 0)
        abort();
    free(back);
    free(text);

    f = open_memstream(&text, &length);
    if (!f)
        abort();
    gc_gnuplot_set_output(f, name);
    fclose(f);
    if (length == 0 || text[length - 1] != '\n' || memchr(text, '\n', length) != text + length - 1)
        abort();
    free(text);
    free(name);
    return 0;
}
