/* gpucache sweep --plot: the gnuplot script (data inline) and the figure it draws. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The gnuplot script beside the plot: OUT.png -> OUT.gp. Data inline, so that the script
 * alone redraws the figure. */
static int write_plot_script(const sweep* s, const char* plot_path, const char* temp_image, char* gp_path,
                             size_t gp_size)
{
    snprintf(gp_path, gp_size, "%s", plot_path);
    char* dot = strrchr(gp_path, '.');
    if (dot && !strchr(dot, '/'))
        *dot = 0;
    strncat(gp_path, ".gp", gp_size - strlen(gp_path) - 1);
    atomic_file af;
    if (atomic_open(&af, gp_path) != 0) {
        fprintf(stderr, "gpucache: %s: cannot create: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    FILE* f = af.f;
    int svg = has_ext(plot_path, "svg");
    size_t panels = s->mesh_count * s->model_count;
    size_t cols = panels < 2 ? 1 : panels < 5 ? 2 : 3;
    size_t rows_n = (panels + cols - 1) / cols;
    fprintf(f, "# gpucache sweep: ATVR against the target cache size, one panel per mesh and model.\n");
    fprintf(f, "# Restyle freely, then run: gnuplot %s\n", gp_path);
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t li = 0; li < s->layout_count; ++li)
            for (size_t k = 0; k < s->model_count; ++k) {
                fprintf(f, "$d_%zu_%zu_%zu << EOD\n", mi, li, k);
                for (uint32_t c = s->cache_lo; c <= s->cache_hi; ++c) {
                    size_t job = (mi * s->layout_count + li) * cache_count(s) + (c - s->cache_lo);
                    const row* r = &s->rows[job * s->model_count + k];
                    if (r->valid)
                        fprintf(f, "%u %.6f\n", c, r->atvr);
                }
                fprintf(f, "EOD\n");
            }
    if (svg)
        fprintf(f, "set terminal svg size %zu,%zu dynamic font 'Sans,11' background '#ffffff'\n", 520 * cols,
                380 * rows_n);
    else
        fprintf(f, "set terminal pngcairo size %zu,%zu font 'Sans,10'\n", 560 * cols, 400 * rows_n);
    fprintf(f, "set output '%s'\n", temp_image);
    fprintf(f, "set multiplot layout %zu,%zu\n", rows_n, cols);
    fprintf(f, "set grid\nset key top right opaque box\nset xlabel 'target cache size'\nset ylabel 'ATVR'\n");
    fprintf(f, "set xrange [%u:%u]\nset yrange [1:*]\n", s->cache_lo, s->cache_hi);
    static const char* const colors[L_COUNT] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#666666"};
    for (size_t mi = 0; mi < s->mesh_count; ++mi)
        for (size_t k = 0; k < s->model_count; ++k) {
            fprintf(f, "set title '%s, %s'\n", s->meshes[mi].name, s->models[k].label);
            fprintf(f, "plot ");
            int first = 1;
            for (size_t li = 0; li < s->layout_count; ++li) {
                layout l = s->layouts[li];
                if ((l == L_OPTIMAL || l == L_STRIPED) && !s->meshes[mi].is_grid)
                    continue;
                fprintf(f, "%s$d_%zu_%zu_%zu with lines lw 2 lc rgb '%s' title '%s'", first ? "" : ", ", mi, li, k,
                        colors[l], layout_names[l]);
                first = 0;
            }
            fprintf(f, "\n");
        }
    fprintf(f, "unset multiplot\n");
    if (atomic_commit(&af) != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", gp_path, strerror(errno));
        return EXIT_DATA;
    }
    return 0;
}

/* Runs gnuplot on the script; the image goes to a temporary name and is renamed. */
int draw_plot(const sweep* s, const char* plot_path)
{
    char temp[4200], gp[4200];
    snprintf(temp, sizeof temp, "%s.tmp-%ld", plot_path, (long)getpid());
    int status = write_plot_script(s, plot_path, temp, gp, sizeof gp);
    if (status)
        return status;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", gp, (char*)NULL);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0) {
        fprintf(stderr, "gpucache: %s: cannot run gnuplot: %s\n", plot_path, strerror(errno));
        return EXIT_DATA;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        remove(temp);
        if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
            fprintf(stderr, "gpucache: %s: gnuplot not found (install gnuplot-nox); the script is in %s\n", plot_path,
                    gp);
        else
            fprintf(stderr, "gpucache: %s: gnuplot failed on %s\n", plot_path, gp);
        return EXIT_DATA;
    }
    if (rename(temp, plot_path) != 0) {
        remove(temp);
        fprintf(stderr, "gpucache: %s: cannot rename the finished plot into place: %s\n", plot_path, strerror(errno));
        return EXIT_DATA;
    }
    /* the script names the temporary file: point it at the final one for the user */
    FILE* f = fopen(gp, "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        char* text = size > 0 ? malloc((size_t)size + 1) : NULL;
        size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
        fclose(f);
        if (text) {
            text[got] = 0;
            char* at = strstr(text, temp);
            atomic_file af;
            if (at && atomic_open(&af, gp) == 0) {
                fwrite(text, 1, (size_t)(at - text), af.f);
                fputs(plot_path, af.f);
                fputs(at + strlen(temp), af.f);
                atomic_commit(&af);
            }
            free(text);
        }
    }
    return 0;
}
