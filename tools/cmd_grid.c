// SPDX-License-Identifier: MIT
/* gpucache grid W H --layout rowmajor|striped|optimal [--cache N] -o FILE: the index
 * buffer of a W x H quad grid in one of seed 002's layouts, as text (.txt/.idx), raw
 * indices (.u16/.u32), or a mesh with positions (.obj, ASCII .ply). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"
#include "cli_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int cmd_grid(int argc, char** argv)
{
    const char* layout_name = "rowmajor";
    const char* out_path = NULL;
    long cache = 16;
    const cli_option options[] = {
        OPT_TEXT("--layout", &layout_name),
        OPT_COUNT("--cache", &cache, 3, 65536, "--cache needs a size in [3, 65536], not '%s'"),
        OPT_TEXT("--output", &out_path),
        OPT_END,
    };
    PARSE_OPTIONS(options);
    if (optind + 2 != argc)
        return usage_error("grid takes W and H (quads), e.g. 'grid 100 100 --layout optimal -o grid.txt'%s", "");
    long w, h;
    if (gc_arg_count(argv[optind], 1, GC_GRID_MAX_SIDE, &w) != 0)
        return usage_error("grid width '%s' is not in [1, 20000]", argv[optind]);
    if (gc_arg_count(argv[optind + 1], 1, GC_GRID_MAX_SIDE, &h) != 0)
        return usage_error("grid height '%s' is not in [1, 20000]", argv[optind + 1]);
    if ((uint64_t)w * (uint64_t)h > GC_GRID_MAX_QUADS) {
        fprintf(stderr, "gpucache: grid %ld x %ld is %llu quads, more than the limit of %llu (see 'gpucache help')\n",
                w, h, (unsigned long long)w * (unsigned long long)h, (unsigned long long)GC_GRID_MAX_QUADS);
        return EXIT_USAGE;
    }
    if (!out_path)
        return usage_error("grid needs -o FILE (.txt, .idx, .u16, .u32, .obj or .ply)%s", "");
    gc_grid_layout layout;
    if (!strcmp(layout_name, "rowmajor"))
        layout = GC_GRID_ROWMAJOR;
    else if (!strcmp(layout_name, "striped"))
        layout = GC_GRID_STRIPED;
    else if (!strcmp(layout_name, "optimal"))
        layout = GC_GRID_OPTIMAL;
    else
        return usage_error("unknown layout '%s' (rowmajor, striped, optimal)", layout_name);
    int text = has_ext(out_path, "txt") || has_ext(out_path, "idx") || is_stdio_path(out_path);
    int u16 = has_ext(out_path, "u16"), u32 = has_ext(out_path, "u32");
    int obj = has_ext(out_path, "obj"), ply = has_ext(out_path, "ply");
    if (!text && !u16 && !u32 && !obj && !ply)
        return usage_error("%s: grid writes .txt, .idx, .u16, .u32, .obj or .ply", out_path);
    uint64_t vertices = (uint64_t)(w + 1) * (uint64_t)(h + 1);
    if (u16 && vertices > 0xFFFF)
        return usage_error("%s: the grid has more vertices than 16-bit indices address", out_path);

    int checked = check_output(out_path, NULL, 0); /* before any work */
    if (checked)
        return checked;

    gc_error err = {0};
    size_t triangles = 0;
    atomic_file af;
    if ((checked = output_open(&af, out_path)) != 0)
        return checked;
    const char* format = text ? "txt" : u16 ? "u16" : u32 ? "u32" : obj ? "obj" : "ply";
    if (gc_grid_file_write(af.f, format, (uint32_t)w, (uint32_t)h, layout, layout_name, (uint32_t)cache, &triangles,
                           &err)) {
        atomic_abort(&af);
        return fail_with(&err);
    }
    if ((checked = output_commit(&af, out_path)) != 0)
        return checked;
    printf("%s: %ldx%ld grid, %s layout (cache %ld): %zu triangles, %llu vertices\n", out_path, w, h, layout_name, cache,
           triangles, (unsigned long long)vertices);
    return 0;
}
