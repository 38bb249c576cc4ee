/* gnuplot scripts and their drawing, shared by every command that plots.
 *
 * Nothing a user supplies (file names, model specs, output paths) is ever pasted into a
 * script as code: text goes through gp_string, which writes a double-quoted literal made
 * only of characters that no gnuplot pass gives a meaning to, every other byte as an
 * octal escape. gnuplot runs backquoted text as a shell command even inside double
 * quotes and expands @macros on the raw line, so quoting alone would not be enough. The
 * image's path reaches gnuplot as an argument (ARG1 of `gnuplot -c`), never as script
 * text. */
#ifndef GPUCACHE_PLOT_H
#define GPUCACHE_PLOT_H

#include <stdio.h>

/* Writes s as a gnuplot double-quoted string literal, quotes included, that gnuplot reads
 * back byte for byte: letters, digits, space and ",.-_/+:()" as they are, every other
 * byte as a three-digit octal escape (\ooo). Cost: O(strlen(s)). */
void gp_string(FILE* f, const char* s);

/* Writes the lines that send the drawing to the image: `set output ARG1` when the script
 * is called with an argument (as gp_draw does), else `set output "<image_path>"`, so that
 * the script alone redraws the figure where it was drawn. */
void gp_set_output(FILE* f, const char* image_path);

/* Runs `gnuplot -c script_path TEMP` where TEMP is a file in a private folder (mkdtemp,
 * mode 0700) made beside image_path, then renames the image into place with the mode a
 * new file gets (or the mode of the file it replaces) and removes the folder. Prints one
 * line and returns non-zero on failure, leaving no temporary behind: SIGINT, SIGTERM and
 * SIGHUP wait (signals_hold) until the folder is gone. */
int gp_draw(const char* script_path, const char* image_path);

#endif
