#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include "cli_util.h"

#include <errno.h>
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

void gp_string(FILE* f, const char* s)
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

void gp_set_output(FILE* f, const char* image_path)
{
    fputs("if (ARGC > 0) { set output ARG1 } else { set output ", f);
    gp_string(f, image_path);
    fputs(" }\n", f);
}

int gp_draw(const char* script_path, const char* image_path)
{
    char dir[4200], image[4300];
    folder_of(image_path, dir, sizeof dir);
    if (strlen(dir) + 32 >= sizeof dir) {
        fprintf(stderr, "gpucache: %s: path too long\n", image_path);
        return 1;
    }
    strcat(dir, "/.gpucache-plot-XXXXXX");
    /* termination signals wait until the folder is gone; gnuplot gets the original mask */
    signals_hold();
    if (!mkdtemp(dir)) {
        signals_release();
        fprintf(stderr, "gpucache: %s: cannot create a temporary folder beside it: %s\n", image_path,
                strerror(errno));
        return 1;
    }
    snprintf(image, sizeof image, "%s/image", dir);
    int status = 1;
    pid_t pid = fork();
    if (pid == 0) {
        signals_child();
        execlp("gnuplot", "gnuplot", "-c", script_path, image, (char*)NULL);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0)
        fprintf(stderr, "gpucache: %s: cannot run gnuplot: %s\n", image_path, strerror(errno));
    else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
        fprintf(stderr, "gpucache: %s: gnuplot not found (install gnuplot-nox); the script is in %s\n", image_path,
                script_path);
    else if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        fprintf(stderr, "gpucache: %s: gnuplot failed on %s\n", image_path, script_path);
    else {
        /* gnuplot created the image with the mode a new file gets; a replaced file keeps its own */
        struct stat old;
        if (stat(image_path, &old) == 0 && S_ISREG(old.st_mode))
            chmod(image, old.st_mode & 07777);
        if (rename(image, image_path) != 0)
            fprintf(stderr, "gpucache: %s: cannot rename the finished plot into place: %s\n", image_path,
                    strerror(errno));
        else
            status = 0;
    }
    unlink(image);
    if (rmdir(dir) != 0 && status == 0) {
        fprintf(stderr, "gpucache: %s: cannot remove the temporary folder %s: %s\n", image_path, dir, strerror(errno));
        status = 1;
    }
    signals_release();
    return status;
}
