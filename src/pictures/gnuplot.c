// SPDX-License-Identifier: MIT
/* gnuplot scripts and their drawing (gpucache_pictures.h). Nothing a user supplies is ever
 * pasted into a script as code: text goes through gc_gnuplot_string, which writes a
 * double-quoted literal made only of characters that no gnuplot pass gives a meaning to,
 * every other byte as an octal escape (gnuplot runs backquoted text as a shell command
 * even inside double quotes and expands @macros on the raw line, so quoting alone would
 * not be enough). The image's path reaches gnuplot as an argument (ARG1 of `gnuplot -c`),
 * never as script text. */
#include "../internal.h"
#include "gpucache/gpucache_pictures.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The bytes a gnuplot double-quoted string may hold as they are. Everything else (quotes,
 * backslash, backquote, @, $, #, control bytes, non-ASCII) is escaped. */
static int gp_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' || c == ',' ||
           c == '.' || c == '-' || c == '_' || c == '/' || c == '+' || c == ':' || c == '(' || c == ')';
}

void gc_gnuplot_string(FILE* f, const char* s)
{
    fputc('"', f);
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (gp_plain(*p))
            fputc(*p, f);
        else
            fprintf(f, "\\%03o", *p);
    }
    fputc('"', f);
}

void gc_gnuplot_set_output(FILE* f, const char* image_path)
{
    fputs("if (ARGC > 0) { set output ARG1 } else { set output ", f);
    gc_gnuplot_string(f, image_path);
    fputs(" }\n", f);
}

gc_status gc_gnuplot_draw(const char* script_path, const char* image_path, gc_error* err)
{
    char dir[4200], image[4300];
    const char* slash = strrchr(image_path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == image_path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - image_path), image_path);
    if (strlen(dir) + 32 >= sizeof dir)
        return gc_fail(err, GC_ERR_IO, "%s: path too long", image_path);
    strcat(dir, "/.gpucache-plot-XXXXXX");
    if (!mkdtemp(dir))
        return gc_fail(err, GC_ERR_IO, "%s: cannot create a temporary folder beside it: %s", image_path,
                       strerror(errno));
    snprintf(image, sizeof image, "%s/image", dir);
    gc_status status = GC_ERR_IO;
    pid_t pid = fork();
    if (pid == 0) {
        /* gnuplot gets no signal held (the caller may hold some meanwhile) */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execlp("gnuplot", "gnuplot", "-c", script_path, image, (char*)NULL);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0)
        gc_fail(err, GC_ERR_IO, "%s: cannot run gnuplot: %s", image_path, strerror(errno));
    else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
        gc_fail(err, GC_ERR_IO, "%s: gnuplot not found (install gnuplot-nox); the script is in %s", image_path,
                script_path);
    else if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        gc_fail(err, GC_ERR_IO, "%s: gnuplot failed on %s", image_path, script_path);
    else {
        /* gnuplot created the image with the mode a new file gets; a replaced file keeps its own */
        struct stat old;
        if (stat(image_path, &old) == 0 && S_ISREG(old.st_mode))
            chmod(image, old.st_mode & 07777);
        if (rename(image, image_path) != 0)
            gc_fail(err, GC_ERR_IO, "%s: cannot rename the finished plot into place: %s", image_path,
                    strerror(errno));
        else
            status = GC_OK;
    }
    unlink(image);
    if (rmdir(dir) != 0 && status == GC_OK)
        status = gc_fail(err, GC_ERR_IO, "%s: cannot remove the temporary folder %s: %s", image_path, dir,
                         strerror(errno));
    return status;
}

int gc_find_program(const char* name, char* found, size_t size)
{
    const char* path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        char candidate[4096];
        if (n > 0 && n + strlen(name) + 2 < sizeof candidate) {
            snprintf(candidate, sizeof candidate, "%.*s/%s", (int)n, path, name);
            if (access(candidate, X_OK) == 0) {
                if (found)
                    snprintf(found, size, "%s", candidate);
                return 1;
            }
        }
        path += n + (path[n] == ':');
    }
    return 0;
}
