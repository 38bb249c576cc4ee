// SPDX-License-Identifier: MIT
/* Where a picture goes: the SVG the tool draws (tools/svg.c) written whole or not at all,
 * or, when the output's name ends in .png, that SVG rendered to PNG by Debian's
 * rsvg-convert (package librsvg2-bin). The tool draws nothing twice: every picture is
 * written as SVG first. */
#ifndef GPUCACHE_PICTURE_FILE_H
#define GPUCACHE_PICTURE_FILE_H

#include "cli_util.h"
#include "gpucache/gpucache_pictures.h"

#include <stdio.h>

typedef struct picture_file {
    FILE* f;        /* the SVG is written here */
    atomic_file af; /* an SVG output: the temporary renamed into place */
    int png;        /* the output's name ends in .png: the library's gc_png_file */
    gc_png_file png_file;
    const char* path; /* the output */
} picture_file;

/* Opens the picture's SVG stream. SVG: a temporary beside path (atomic_open). PNG: a
 * private folder beside path (mkdtemp, mode 0700) holding a mkstemp temporary; the
 * termination signals are held until commit or abort removes it. Prints one line and
 * returns EXIT_DATA on failure, 0 on success. */
int picture_open(picture_file* p, const char* path);

/* Finishes the picture. SVG: checks every write and renames the temporary into place.
 * PNG: runs `rsvg-convert --format png --output TEMP SVG_TEMP` (fork and exec with an
 * argument vector, no shell) and renames TEMP into place with the mode a new file gets
 * (or the mode of the file it replaces). Either way nothing is left behind and the
 * output is whole or untouched. Prints one line and returns EXIT_DATA on failure (a
 * missing rsvg-convert names the package to install). Cost: the renderer's, about a
 * second for a few MB of SVG. */
int picture_commit(picture_file* p);

/* Drops the picture: its temporaries and folder are removed, the output is untouched. */
void picture_abort(picture_file* p);

#endif
