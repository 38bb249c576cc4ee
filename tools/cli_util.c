#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void sb_printf(strbuf* b, const char* fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list args;
        va_start(args, fmt);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->data ? b->data + b->length : NULL, b->data ? room : 0, fmt, args);
        va_end(args);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t next = b->capacity ? b->capacity * 2 : 256;
        while (next < b->length + (size_t)n + 1)
            next *= 2;
        char* grown = realloc(b->data, next);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->capacity = next;
        if (b->length == 0)
            b->data[0] = 0;
    }
}

void sb_json_string(strbuf* b, const char* s)
{
    sb_printf(b, "\"");
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            sb_printf(b, "\\u%04x", *p);
        else
            sb_printf(b, "%c", *p);
    }
    sb_printf(b, "\"");
}

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

void signals_child(void)
{
    /* a program started from a held window gets the signals the tool had before */
    if (hold_depth > 0)
        pthread_sigmask(SIG_SETMASK, &held_saved, NULL);
}

int atomic_open(atomic_file* af, const char* path)
{
    memset(af, 0, sizeof *af);
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
    gc_status s = gc_atomic_commit(&af->file, &af->err);
    int e = errno;
    signals_release();
    errno = e;
    return s == GC_OK ? 0 : -1;
}

void atomic_abort(atomic_file* af)
{
    af->f = NULL;
    if (af->file.path) {
        gc_atomic_abort(&af->file);
        signals_release();
    }
}

int check_output(const char* path, const char* const* inputs, size_t input_count)
{
    gc_error err = {0};
    if (gc_output_check(path, inputs, input_count, &err) == GC_OK)
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
