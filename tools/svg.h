/* A small SVG writer for the tool's pictures (analyze --heatmap, --trace-plot): XML
 * escaping of every text that came from the user or a file, a colour ramp for counts and a
 * hash colour for index values. The library draws nothing; pictures are the CLI's. */
#ifndef GPUCACHE_SVG_H
#define GPUCACHE_SVG_H

#include <stdint.h>
#include <stdio.h>

/* Writes the XML declaration and the <svg> element of a `width` x `height` picture (user
 * units are pixels), with a white background. */
void svg_begin(FILE* f, int width, int height);
/* The same <svg> element without the XML declaration: a picture inlined into another
 * document (gpucache report's HTML). */
void svg_open(FILE* f, int width, int height);
/* Closes the <svg> element. */
void svg_end(FILE* f);

/* Writes `s` as XML character data or attribute text: & < > " ' escaped, control
 * characters and bytes that are not well-formed UTF-8 written as '?', so that a hostile
 * name can neither end the element nor make the file unparseable. At most `max` bytes of
 * `s` (longer text ends in "..."), 0: all. */
void svg_escape(FILE* f, const char* s, size_t max);

/* The picture's <title>: what, then the input's name escaped (at most 200 characters of it),
 * as every picture names its input for a viewer's tooltip and a screen reader. */
void svg_title(FILE* f, const char* what, const char* name);

/* The length of the well-formed UTF-8 sequence at s (1 to 4 bytes), 0 when it is not one
 * (overlong forms, surrogates and values past U+10FFFF included). s is NUL-terminated. */
size_t svg_utf8_length(const unsigned char* s);
/* Replaces, in place, every control character (but tab, newline and carriage return when
 * keep_lines) and every byte that is not part of valid UTF-8 with '?'. */
void svg_clean(char* s, int keep_lines);

/* Writes a <text> element at (x, y) with the given anchor ("start", "middle", "end"),
 * size in pixels and the already formatted, escaped-here text `s`. */
void svg_text(FILE* f, double x, double y, const char* anchor, int size, const char* s);

/* The colour of t in [0, 1] on the count ramp (dark blue, teal, green, yellow, red: a
 * perceptually ordered ramp like matplotlib's plasma family), as 0xRRGGBB. t outside
 * [0, 1] is clamped. */
uint32_t svg_ramp(double t);

/* A colour for an index value: a hash spread over hues at fixed lightness, so that
 * neighbouring values differ, as 0xRRGGBB. */
uint32_t svg_hash_colour(uint32_t value);

#endif
