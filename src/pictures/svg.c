// SPDX-License-Identifier: MIT
/* The SVG writer (gpucache_pictures.h): only what the pictures need, with every user text escaped. */
#include "gpucache/gpucache_pictures.h"

#include <math.h>
#include <string.h>

void gc_svg_begin(FILE* f, int width, int height)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    gc_svg_open(f, width, height);
}

void gc_svg_open(FILE* f, int width, int height)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            width, height, width, height, width, height);
}

void gc_svg_end(FILE* f)
{
    fputs("</svg>\n", f);
}

/* The length of the well-formed UTF-8 sequence at s (1..4), 0 when it is not one
 * (overlong forms, surrogates and values past U+10FFFF included). */
size_t gc_svg_utf8_length(const unsigned char* s)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    unsigned value = c & (0x3Fu >> (n - 1));
    for (size_t i = 1; i < n; ++i) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        value = value << 6 | (s[i] & 0x3Fu);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return 0;
    return n;
}

void gc_svg_clean(char* text, int keep_lines)
{
    unsigned char* s = (unsigned char*)text;
    for (size_t i = 0; s[i];) {
        size_t n = gc_svg_utf8_length(s + i);
        if (n == 0) {
            s[i++] = '?';
        } else if (n == 1) {
            if ((s[i] < 0x20 && !(keep_lines && (s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))) || s[i] == 0x7F)
                s[i] = '?';
            i++;
        } else {
            i += n;
        }
    }
}

void gc_svg_escape(FILE* f, const char* text, size_t max)
{
    const unsigned char* s = (const unsigned char*)text;
    size_t length = strlen(text);
    int cut = max && length > max;
    size_t end = cut ? max : length;
    for (size_t i = 0; i < end;) {
        unsigned c = s[i];
        size_t n = gc_svg_utf8_length(s + i);
        if (n == 0 || i + n > end) {
            fputc('?', f);
            i++;
            continue;
        }
        if (n > 1) {
            fwrite(s + i, 1, n, f);
            i += n;
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(c < 0x20 || c == 0x7F ? '?' : (int)c, f);
        }
        i++;
    }
    if (cut)
        fputs("...", f);
}

void gc_svg_title(FILE* f, const char* what, const char* name)
{
    fprintf(f, "<title>%s", what);
    gc_svg_escape(f, name, 200);
    fputs("</title>\n", f);
}

void gc_svg_text(FILE* f, double x, double y, const char* anchor, int size, const char* s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size);
    gc_svg_escape(f, s, 0);
    fputs("</text>\n", f);
}

uint32_t gc_svg_ramp(double t)
{
    /* stops of a dark-to-bright ramp: low counts recede, repeated shading stands out */
    static const double stops[5][3] = {
        {0.13, 0.19, 0.55}, {0.11, 0.55, 0.62}, {0.35, 0.75, 0.33}, {0.98, 0.82, 0.15}, {0.86, 0.15, 0.12}};
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * 4;
    int i = (int)x;
    if (i > 3)
        i = 3;
    double u = x - i;
    uint32_t rgb = 0;
    for (int k = 0; k < 3; ++k) {
        double v = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * u;
        rgb = rgb << 8 | (uint32_t)lround(v * 255);
    }
    return rgb;
}

uint32_t gc_svg_hash_colour(uint32_t value)
{
    uint32_t h = value * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    double hue = (h % 360) / 60.0, s = 0.55 + (h >> 9) % 30 / 100.0, l = 0.62;
    double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(hue, 2) - 1)), m = l - c / 2;
    double r = 0, g = 0, b = 0;
    switch ((int)hue) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
    }
    return (uint32_t)lround((r + m) * 255) << 16 | (uint32_t)lround((g + m) * 255) << 8 | (uint32_t)lround((b + m) * 255);
}
