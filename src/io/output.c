// SPDX-License-Identifier: MIT
/* Output files, the one mechanism every writer of the library and of the tool uses:
 * checks on an output path before any work (gc_output_check), and files written whole
 * or not at all (gc_atomic_*). A temporary is created with mkstemp in the output's own
 * folder (O_CREAT|O_EXCL: a name planted there beforehand, a symlink included, is never
 * opened), filled, flushed, synced, given its final mode and renamed over the target. */
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A copy of the folder part of path ("." when there is none). */
static char* folder_of(const char* path)
{
    const char* slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char* dir = malloc(n + 1);
    if (dir) {
        memcpy(dir, path, n);
        dir[n] = 0;
    }
    return dir;
}

gc_status gc_output_check(const char* path, const char* const* inputs, size_t input_count, gc_error* err)
{
    if (!path || !*path)
        return gc_fail(err, GC_ERR_USAGE, "no output file given");
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return gc_fail(err, GC_ERR_IO, "%s: cannot create: it is a folder", path);
        /* The output is replaced by rename: a device or a pipe would be replaced, not written. */
        if (!S_ISREG(st.st_mode))
            return gc_fail(err, GC_ERR_IO, "%s: cannot create: it exists and is not a regular file", path);
        /* By identity, not by name: the same file under another name, a hard link or a symlink. */
        for (size_t i = 0; i < input_count; ++i) {
            struct stat in;
            if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
                return gc_fail(err, GC_ERR_USAGE, "%s: is the input %s; refusing to overwrite it (write the output to another file)", path, inputs[i]);
        }
    } else if (errno != ENOENT && errno != ENOTDIR) { /* the folder's own problems are named below */
        return gc_fail(err, GC_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    char* dir = folder_of(path);
    if (!dir)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    gc_status s = GC_OK;
    if (stat(dir, &st) != 0)
        s = errno == ENOENT ? gc_fail(err, GC_ERR_IO, "%s: cannot create: the folder %s does not exist", path, dir)
                            : gc_fail(err, GC_ERR_IO, "%s: cannot create: folder %s: %s", path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        s = gc_fail(err, GC_ERR_IO, "%s: cannot create: %s is not a folder", path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        s = gc_fail(err, GC_ERR_IO, "%s: cannot create: cannot write in the folder %s: %s", path, dir, strerror(errno));
    free(dir);
    return s;
}

/* The process's umask without changing it (umask() can only be read by setting it, which
 * would race with other threads creating files): Linux reports it in /proc/self/status. */
static mode_t current_umask(void)
{
    FILE* f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned mask;
            if (sscanf(line, "Umask: %o", &mask) == 1) {
                fclose(f);
                return (mode_t)(mask & 0777);
            }
        }
        fclose(f);
    }
    mode_t mask = umask(022);
    umask(mask);
    return mask;
}

gc_status gc_atomic_open(gc_atomic_file* af, const char* path, gc_error* err)
{
    memset(af, 0, sizeof *af);
    if (!path || !*path)
        return gc_fail(err, GC_ERR_USAGE, "no output file given");
    size_t len = strlen(path);
    af->path = strdup(path);
    af->temp = malloc(len + sizeof ".tmp-XXXXXX");
    if (!af->path || !af->temp) {
        free(af->path), free(af->temp);
        memset(af, 0, sizeof *af);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", path);
    }
    memcpy(af->temp, path, len);
    memcpy(af->temp + len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    /* mkstemp: O_CREAT|O_EXCL with a random name and mode 0600 while the file is filled;
     * the final mode is set at commit. */
    int fd = mkstemp(af->temp);
    if (fd < 0) {
        int e = errno;
        gc_status s = gc_fail(err, GC_ERR_IO, "%s: cannot create: %s", path, strerror(e));
        free(af->path), free(af->temp);
        memset(af, 0, sizeof *af);
        errno = e;
        return s;
    }
    /* not inherited by programs the caller runs (gnuplot) */
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    FILE* f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        gc_status s = gc_fail(err, GC_ERR_IO, "%s: cannot create: %s", path, strerror(e));
        close(fd);
        unlink(af->temp);
        free(af->path), free(af->temp);
        memset(af, 0, sizeof *af);
        errno = e;
        return s;
    }
    af->file = f;
    return GC_OK;
}

static void atomic_release(gc_atomic_file* af)
{
    free(af->path);
    free(af->temp);
    memset(af, 0, sizeof *af);
}

gc_status gc_atomic_commit(gc_atomic_file* af, gc_error* err)
{
    if (!af->file) {
        atomic_release(af);
        return gc_fail(err, GC_ERR_USAGE, "gc_atomic_commit: no file open");
    }
    FILE* f = af->file;
    int fd = fileno(f);
    int e = 0;
    if (ferror(f))
        e = errno ? errno : EIO;
    if (fflush(f) != 0 && !e)
        e = errno;
    /* on disk before the rename, so that a crash leaves the old file or the new one */
    if (!e && fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP)
        e = errno;
    if (!e) {
        /* the old file's mode when replacing one, else what creating it would give */
        struct stat st;
        mode_t mode = stat(af->path, &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 0777) : (0666 & ~current_umask());
        if (fchmod(fd, mode) != 0)
            e = errno;
    }
    if (fclose(f) != 0 && !e)
        e = errno;
    af->file = NULL;
    if (!e && rename(af->temp, af->path) != 0)
        e = errno;
    gc_status s = GC_OK;
    if (e) {
        s = gc_fail(err, GC_ERR_IO, "%s: write failed: %s", af->path, strerror(e));
        unlink(af->temp);
    }
    atomic_release(af);
    if (e)
        errno = e; /* for callers that report errno themselves */
    return s;
}

void gc_atomic_abort(gc_atomic_file* af)
{
    if (af->file)
        fclose(af->file);
    if (af->temp)
        unlink(af->temp);
    atomic_release(af);
}

/* ------------------------------------------------- lists of file names */


void gc_free_names(char** names, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        free(names[i]);
    free(names);
}


gc_status gc_write_file_atomic(const char* path, const void* data, size_t size, gc_error* err)
{
    gc_atomic_file af;
    gc_status s = gc_atomic_open(&af, path, err);
    if (s)
        return s;
    if (size)
        fwrite(data, 1, size, (FILE*)af.file); /* gc_atomic_commit checks every write */
    return gc_atomic_commit(&af, err);
}
