// SPDX-License-Identifier: MIT
/* A picture's PNG file (gc_png_file, gpucache_pictures.h): its SVG in a private folder
 * beside the output, rendered by rsvg-convert and renamed into place. */
#include "../internal.h"
#include "gpucache/gpucache_pictures.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

gc_status gc_png_open(gc_png_file* p, const char* path, gc_error* err)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->svg_fd = -1;
    /* a relative folder as "./F": a name starting with '-' never reads as an option of
     * rsvg-convert */
    const char* slash = strrchr(path, '/');
    if (!slash)
        snprintf(p->dir, sizeof p->dir, "./.");
    else if (slash == path)
        snprintf(p->dir, sizeof p->dir, "/");
    else if (path[0] == '/')
        snprintf(p->dir, sizeof p->dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(p->dir, sizeof p->dir, "./%.*s", (int)(slash - path), path);
    if (strlen(p->dir) + 32 >= sizeof p->dir || (slash && (size_t)(slash - path) + 40 >= sizeof p->dir))
        return gc_fail(err, GC_ERR_IO, "%s: path too long", path);
    strcat(p->dir, "/.gpucache-png-XXXXXX");
    if (!mkdtemp(p->dir))
        return gc_fail(err, GC_ERR_IO, "%s: cannot create a temporary folder beside it: %s", path, strerror(errno));
    snprintf(p->svg, sizeof p->svg, "%s/svg-XXXXXX", p->dir);
    p->svg_fd = mkstemp(p->svg);
    if (p->svg_fd < 0 || !(p->f = fdopen(p->svg_fd, "w"))) {
        int e = errno;
        if (p->svg_fd >= 0) {
            close(p->svg_fd);
            unlink(p->svg);
        }
        rmdir(p->dir);
        return gc_fail(err, GC_ERR_IO, "%s: cannot create a temporary file: %s", path, strerror(e));
    }
    return GC_OK;
}

/* Removes the temporaries, the folder last; returns 0 when the folder is gone. */
static int remove_private(gc_png_file* p, const char* png)
{
    if (p->f)
        fclose(p->f);
    p->f = NULL;
    unlink(p->svg);
    if (png)
        unlink(png);
    return rmdir(p->dir);
}

void gc_png_abort(gc_png_file* p)
{
    remove_private(p, NULL);
}

/* Runs rsvg-convert on the SVG temporary into png. */
static gc_status render(const gc_png_file* p, const char* png, gc_error* err)
{
    pid_t pid = fork();
    if (pid == 0) {
        /* the original signal mask in the renderer (the caller may hold signals) */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        /* its standard output is the caller's, never the renderer's chatter */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        char* const argv[] = {"rsvg-convert", "--format", "png", "--output", (char*)png, (char*)p->svg, NULL};
        execvp(argv[0], argv);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0)
        return gc_fail(err, GC_ERR_IO, "%s: cannot run rsvg-convert: %s", p->path, strerror(errno));
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
        return gc_fail(err, GC_ERR_IO,
                       "%s: rsvg-convert not found (install librsvg2-bin), needed for PNG pictures; an .svg needs "
                       "nothing",
                       p->path);
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        return gc_fail(err, GC_ERR_IO, "%s: rsvg-convert failed to render the picture", p->path);
    return GC_OK;
}

gc_status gc_png_commit(gc_png_file* p, gc_error* err)
{
    char png[4400];
    snprintf(png, sizeof png, "%s/png-XXXXXX", p->dir);
    int written = !ferror(p->f);
    if (fflush(p->f) != 0)
        written = 0;
    int closed = fclose(p->f);
    p->f = NULL;
    if (!written || closed != 0) {
        gc_fail(err, GC_ERR_IO, "%s: write failed: %s", p->path, strerror(errno));
        remove_private(p, NULL);
        return GC_ERR_IO;
    }
    int fd = mkstemp(png);
    if (fd < 0) {
        gc_fail(err, GC_ERR_IO, "%s: cannot create a temporary file: %s", p->path, strerror(errno));
        remove_private(p, NULL);
        return GC_ERR_IO;
    }
    close(fd);
    gc_status status = render(p, png, err);
    struct stat st;
    if (!status) {
        if (stat(png, &st) != 0 || st.st_size == 0) {
            status = gc_fail(err, GC_ERR_IO, "%s: rsvg-convert wrote no picture", p->path);
        } else {
            /* a new file gets the mode open() gives under the umask (mkstemp made it 0600);
             * a replaced file keeps its own */
            struct stat old;
            mode_t mode;
            if (stat(p->path, &old) == 0 && S_ISREG(old.st_mode))
                mode = old.st_mode & 07777;
            else {
                mode_t mask = umask(0);
                umask(mask);
                mode = 0666 & ~mask;
            }
            chmod(png, mode);
            if (rename(png, p->path) != 0)
                status = gc_fail(err, GC_ERR_IO, "%s: cannot rename the finished picture into place: %s", p->path,
                                 strerror(errno));
        }
    }
    char dir[sizeof p->dir];
    memcpy(dir, p->dir, sizeof dir);
    if (remove_private(p, png) != 0 && status == GC_OK)
        status = gc_fail(err, GC_ERR_IO, "%s: cannot remove the temporary folder %s: %s", p->path, dir,
                         strerror(errno));
    return status;
}
