/* SVG or PNG outputs of the pictures (picture_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "picture_file.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int picture_open(picture_file* p, const char* path)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->svg_fd = -1;
    p->png = has_ext(path, "png");
    if (!p->png) {
        if (atomic_open(&p->af, path) != 0) {
            fprintf(stderr, "gpucache: %s\n", p->af.err.message[0] ? p->af.err.message : path);
            return EXIT_DATA;
        }
        p->f = p->af.f;
        return 0;
    }
    /* a relative folder as "./F": a name starting with '-' never reads as an option of
     * rsvg-convert */
    strcpy(p->dir, "./");
    folder_of(path, p->dir + 2, sizeof p->dir - 2);
    if (p->dir[2] == '/')
        memmove(p->dir, p->dir + 2, strlen(p->dir + 2) + 1);
    if (strlen(p->dir) + 32 >= sizeof p->dir) {
        fprintf(stderr, "gpucache: %s: path too long\n", path);
        return EXIT_DATA;
    }
    strcat(p->dir, "/.gpucache-png-XXXXXX");
    /* termination signals wait until the folder is gone (commit or abort) */
    signals_hold();
    if (!mkdtemp(p->dir)) {
        fprintf(stderr, "gpucache: %s: cannot create a temporary folder beside it: %s\n", path, strerror(errno));
        signals_release();
        return EXIT_DATA;
    }
    snprintf(p->svg, sizeof p->svg, "%s/svg-XXXXXX", p->dir);
    p->svg_fd = mkstemp(p->svg);
    if (p->svg_fd < 0 || !(p->f = fdopen(p->svg_fd, "w"))) {
        fprintf(stderr, "gpucache: %s: cannot create a temporary file: %s\n", path, strerror(errno));
        if (p->svg_fd >= 0) {
            close(p->svg_fd);
            unlink(p->svg);
        }
        rmdir(p->dir);
        signals_release();
        return EXIT_DATA;
    }
    return 0;
}

/* Removes the PNG's temporaries, the folder last; returns 0 when the folder is gone. */
static int remove_private(picture_file* p, const char* png)
{
    if (p->f)
        fclose(p->f);
    p->f = NULL;
    unlink(p->svg);
    if (png)
        unlink(png);
    int st = rmdir(p->dir);
    signals_release();
    return st;
}

void picture_abort(picture_file* p)
{
    if (!p->png) {
        atomic_abort(&p->af);
        return;
    }
    remove_private(p, NULL);
}

/* Runs rsvg-convert on the SVG temporary into png; 0 on success, else prints one line. */
static int render(const picture_file* p, const char* png)
{
    pid_t pid = fork();
    if (pid == 0) {
        signals_child();
        /* its standard output is the tool's report, never the renderer's chatter */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        char* const argv[] = {"rsvg-convert", "--format", "png", "--output", (char*)png, (char*)p->svg, NULL};
        execvp(argv[0], argv);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0) {
        fprintf(stderr, "gpucache: %s: cannot run rsvg-convert: %s\n", p->path, strerror(errno));
        return -1;
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127) {
        fprintf(stderr, "gpucache: %s: rsvg-convert not found (install librsvg2-bin), needed for PNG pictures; an .svg needs nothing\n",
                p->path);
        return -1;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "gpucache: %s: rsvg-convert failed to render the picture\n", p->path);
        return -1;
    }
    return 0;
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
    char png[4400];
    snprintf(png, sizeof png, "%s/png-XXXXXX", p->dir);
    int written = !ferror(p->f);
    if (fflush(p->f) != 0)
        written = 0;
    int closed = fclose(p->f);
    p->f = NULL;
    if (!written || closed != 0) {
        fprintf(stderr, "gpucache: %s: write failed: %s\n", p->path, strerror(errno));
        remove_private(p, NULL);
        return EXIT_DATA;
    }
    int fd = mkstemp(png);
    if (fd < 0) {
        fprintf(stderr, "gpucache: %s: cannot create a temporary file: %s\n", p->path, strerror(errno));
        remove_private(p, NULL);
        return EXIT_DATA;
    }
    close(fd);
    int status = EXIT_DATA;
    struct stat st;
    if (render(p, png) == 0) {
        if (stat(png, &st) != 0 || st.st_size == 0) {
            fprintf(stderr, "gpucache: %s: rsvg-convert wrote no picture\n", p->path);
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
                fprintf(stderr, "gpucache: %s: cannot rename the finished picture into place: %s\n", p->path,
                        strerror(errno));
            else
                status = 0;
        }
    }
    char dir[sizeof p->dir];
    memcpy(dir, p->dir, sizeof dir);
    if (remove_private(p, png) != 0 && status == 0) {
        fprintf(stderr, "gpucache: %s: cannot remove the temporary folder %s: %s\n", p->path, dir, strerror(errno));
        status = EXIT_DATA;
    }
    return status;
}
