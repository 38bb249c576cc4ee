// SPDX-License-Identifier: MIT
/* SVG or PNG outputs of the pictures (picture_file.h): an SVG through atomic_open, a PNG
 * through the library's gc_png_file with the termination signals held meanwhile. */
#include "picture_file.h"

#include "cli.h"

#include <string.h>

int picture_open(picture_file* p, const char* path)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->png = has_ext(path, "png");
    if (!p->png) {
        if (atomic_open(&p->af, path) != 0) {
            fprintf(stderr, "gpucache: %s\n", p->af.err.message[0] ? p->af.err.message : path);
            return EXIT_DATA;
        }
        p->f = p->af.f;
        return 0;
    }
    /* termination signals wait until the folder is gone (commit or abort) */
    signals_hold();
    gc_error err = {0};
    if (gc_png_open(&p->png_file, path, &err)) {
        signals_release();
        return fail_with(&err);
    }
    p->f = p->png_file.f;
    return 0;
}

void picture_abort(picture_file* p)
{
    if (!p->png) {
        atomic_abort(&p->af);
        return;
    }
    gc_png_abort(&p->png_file);
    signals_release();
}

int picture_commit(picture_file* p)
{
    if (!p->png) {
        if (atomic_commit(&p->af) != 0) {
            fprintf(stderr, "gpucache: %s\n", p->af.err.message[0] ? p->af.err.message : p->path);
            return EXIT_DATA;
        }
        return 0;
    }
    gc_error err = {0};
    gc_status s = gc_png_commit(&p->png_file, &err);
    signals_release();
    return s ? fail_with(&err) : 0;
}
