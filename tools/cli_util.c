// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Termination signals are held while any output temporary exists, so that an interrupted
 * run never leaves one behind: a SIGINT or SIGTERM that arrives meanwhile takes effect
 * right after the commit (or the abort) removed or renamed it. Only the window from open
 * to commit is covered, not the computation before it. Holds nest. */
static int hold_depth;
static sigset_t held_saved;

void signals_hold(void)
{
    if (hold_depth++ == 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set, &held_saved);
    }
}

void signals_release(void)
{
    if (hold_depth > 0 && --hold_depth == 0)
        pthread_sigmask(SIG_SETMASK, &held_saved, NULL);
}

/* "-" as an output: the data goes to the original standard output, through its own
 * stream, and file descriptor 1 becomes a copy of standard error, so that everything the
 * command prints as its report (printf) goes there instead of into the data. Claimed
 * before any work by check_output, at most once per run. */
static FILE* data_out;

static int claim_stdout(void)
{
    if (data_out) {
        fprintf(stderr, "gpucache: '-': standard output can take only one of the outputs\n");
        return 2;
    }
    fflush(stdout);
    int fd = dup(1);
    FILE* f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f || dup2(2, 1) < 0) {
        fprintf(stderr, "gpucache: standard output: %s\n", strerror(errno));
        if (f)
            fclose(f);
        else if (fd >= 0)
            close(fd);
        return 1;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    data_out = f;
    return 0;
}

int is_stdio_path(const char* path)
{
    return path && strcmp(path, "-") == 0;
}

int atomic_open(atomic_file* af, const char* path)
{
    memset(af, 0, sizeof *af);
    if (is_stdio_path(path)) {
        if (!data_out && claim_stdout() != 0) {
            errno = EBADF;
            snprintf(af->err.message, sizeof af->err.message, "standard output: cannot write");
            af->err.code = GC_ERR_IO;
            return -1;
        }
        af->f = data_out;
        af->to_stdout = 1;
        return 0;
    }
    signals_hold();
    if (gc_atomic_open(&af->file, path, &af->err) != GC_OK) {
        int e = errno;
        signals_release();
        errno = e;
        return -1;
    }
    af->f = af->file.file;
    return 0;
}

int atomic_commit(atomic_file* af)
{
    af->f = NULL;
    if (af->to_stdout) {
        /* checked again (and closed) by finish_stdout; a failure here stops the command */
        if (fflush(data_out) != 0 || ferror(data_out)) {
            int e = errno ? errno : EIO;
            snprintf(af->err.message, sizeof af->err.message, "standard output: write failed: %s", strerror(e));
            af->err.code = GC_ERR_IO;
            errno = e;
            return -1;
        }
        return 0;
    }
    gc_status s = gc_atomic_commit(&af->file, &af->err);
    int e = errno;
    signals_release();
    errno = e;
    return s == GC_OK ? 0 : -1;
}

void atomic_abort(atomic_file* af)
{
    af->f = NULL;
    if (af->to_stdout) /* what went out cannot be taken back: the exit status says it failed */
        return;
    if (af->file.path) {
        gc_atomic_abort(&af->file);
        signals_release();
    }
}

int output_open(atomic_file* af, const char* path)
{
    if (atomic_open(af, path) == 0)
        return 0;
    fprintf(stderr, "gpucache: %s: cannot create: %s\n", path, strerror(errno));
    return EXIT_DATA;
}

int output_commit(atomic_file* af, const char* path)
{
    if (atomic_commit(af) == 0)
        return 0;
    fprintf(stderr, "gpucache: %s: write failed: %s\n", path, strerror(errno));
    return EXIT_DATA;
}

int check_output(const char* path, const char* const* inputs, size_t input_count)
{
    if (is_stdio_path(path))
        return claim_stdout();
    gc_error err = {0};
    /* a glTF input's buffers and images are inputs too */
    if (gc_output_check_all(path, inputs, input_count, &err) == GC_OK)
        return 0;
    fprintf(stderr, "gpucache: %s\n", err.message);
    return err.code == GC_ERR_USAGE ? 2 : 1;
}

int finish_stdout(int status)
{
    /* Output to a full disk or a closed pipe fails at some write, the flush or the close:
     * a run that lost output must not exit 0. */
    int bad = ferror(stdout);
    errno = 0;
    if (data_out) { /* the data of an output given as "-" */
        bad |= ferror(data_out);
        if (fflush(data_out) != 0)
            bad = 1;
        if (fclose(data_out) != 0)
            bad = 1;
        data_out = NULL;
    }
    if (fflush(stdout) != 0)
        bad = 1;
    int e = errno;
    if (fclose(stdout) != 0) {
        bad = 1;
        if (!e)
            e = errno;
    }
    if (!bad)
        return status;
    if (status == 0)
        fprintf(stderr, "gpucache: standard output: write failed: %s\n", strerror(e ? e : EIO));
    return status ? status : 1;
}

int has_ext(const char* path, const char* ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && path[n - e - 1] == '.' && strcasecmp(path + n - e, ext) == 0;
}
