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

/* ------------------------------------------------- the files a mesh consists of */

static bool push_name(char*** list, size_t* count, char* name)
{
    if (!name)
        return false;
    char** grown = realloc(*list, (*count + 1) * sizeof **list);
    if (!grown) {
        free(name);
        return false;
    }
    *list = grown;
    grown[(*count)++] = name;
    return true;
}

void gc_free_names(char** names, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        free(names[i]);
    free(names);
}

/* dir + "/" + name (name alone when it is absolute or dir is "."). */
static char* join(const char* dir, const char* name, size_t name_len)
{
    bool absolute = (name_len && name[0] == '/') || !strcmp(dir, ".");
    size_t dl = absolute ? 0 : strlen(dir);
    char* p = malloc(dl + 1 + name_len + 1);
    if (!p)
        return NULL;
    size_t at = 0;
    if (!absolute) {
        memcpy(p, dir, dl);
        p[dl] = '/';
        at = dl + 1;
    }
    memcpy(p + at, name, name_len);
    p[at + name_len] = 0;
    return p;
}

/* Every "uri" string of a glTF JSON text that names a file (not a data: URI), as a path
 * beside `dir`, both as written and percent-decoded. Conservative: a name too many only
 * ever makes an output refused, never an input missed. */
static bool gltf_uris(const char* json, size_t n, const char* dir, char*** list, size_t* count)
{
    static const char key[] = "\"uri\"";
    for (size_t i = 0; i + sizeof key - 1 <= n; ++i) {
        if (memcmp(json + i, key, sizeof key - 1) != 0)
            continue;
        size_t at = i + sizeof key - 1;
        while (at < n && (json[at] == ' ' || json[at] == '\t' || json[at] == '\r' || json[at] == '\n'))
            at++;
        if (at >= n || json[at] != ':')
            continue;
        at++;
        while (at < n && (json[at] == ' ' || json[at] == '\t' || json[at] == '\r' || json[at] == '\n'))
            at++;
        if (at >= n || json[at] != '"')
            continue;
        at++;
        /* the string, JSON escapes decoded (a decoded string is never longer) */
        char* s = malloc(n - at + 1);
        if (!s)
            return false;
        size_t len = 0;
        while (at < n && json[at] != '"') {
            char c = json[at++];
            if (c == '\\' && at < n) {
                char e = json[at++];
                if (e == 'u' && at + 4 <= n) {
                    unsigned v = 0;
                    bool ok = true;
                    for (int k = 0; k < 4; ++k) {
                        int h = gc_hex_digit((unsigned char)json[at + k]);
                        ok = ok && h >= 0;
                        v = v * 16 + (unsigned)(h < 0 ? 0 : h);
                    }
                    at += 4;
                    if (!ok)
                        continue;
                    if (v < 0x80) {
                        s[len++] = (char)v;
                    } else if (v < 0x800) {
                        s[len++] = (char)(0xC0 | (v >> 6));
                        s[len++] = (char)(0x80 | (v & 0x3F));
                    } else { /* 6 bytes of escape give at most 3 */
                        s[len++] = (char)(0xE0 | (v >> 12));
                        s[len++] = (char)(0x80 | ((v >> 6) & 0x3F));
                        s[len++] = (char)(0x80 | (v & 0x3F));
                    }
                    continue;
                }
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
            }
            s[len++] = c;
        }
        s[len] = 0;
        if (len && strncmp(s, "data:", 5) != 0) {
            bool ok = push_name(list, count, join(dir, s, len));
            /* percent-decoded, in place */
            size_t d = 0;
            for (size_t k = 0; k < len; ++k) {
                int h1, h2;
                if (s[k] == '%' && k + 2 < len && (h1 = gc_hex_digit((unsigned char)s[k + 1])) >= 0 &&
                    (h2 = gc_hex_digit((unsigned char)s[k + 2])) >= 0) {
                    s[d++] = (char)(h1 * 16 + h2);
                    k += 2;
                } else {
                    s[d++] = s[k];
                }
            }
            if (ok && d != len)
                ok = push_name(list, count, join(dir, s, d));
            if (!ok) {
                free(s);
                return false;
            }
        }
        free(s);
        i = at;
    }
    return true;
}

static uint32_t le32(const unsigned char* p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

gc_status gc_mesh_input_files(const char* in_path, char*** files, size_t* count, gc_error* err)
{
    *files = NULL;
    *count = 0;
    if (!in_path || gc_stdin_format(in_path))
        return GC_OK;
    if (!push_name(files, count, strdup(in_path)))
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    bool gltf = gc_has_extension(in_path, "gltf"), glb = gc_has_extension(in_path, "glb");
    if (!gltf && !glb)
        return GC_OK;
    /* A glTF's buffers and images are files of its own: an output must not replace them. */
    FILE* f = fopen(in_path, "rb");
    if (!f)
        return GC_OK; /* the reader reports it */
    char* text = NULL;
    size_t n = 0;
    if (glb) {
        /* 12-byte header, then the JSON chunk's length and type */
        unsigned char h[20];
        if (fread(h, 1, 20, f) == 20 && !memcmp(h, "glTF", 4) && !memcmp(h + 16, "JSON", 4)) {
            n = le32(h + 12);
            struct stat st;
            if (fstat(fileno(f), &st) != 0 || (uint64_t)n > (uint64_t)st.st_size)
                n = 0; /* the loader refuses a chunk longer than the file */
        }
    } else {
        struct stat st;
        n = fstat(fileno(f), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
    }
    if (n) {
        text = malloc(n);
        if (!text) {
            fclose(f);
            gc_free_names(*files, *count);
            *files = NULL, *count = 0;
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory reading %zu bytes", in_path, n);
        }
        n = fread(text, 1, n, f);
    }
    fclose(f);
    char* dir = folder_of(in_path);
    bool ok = dir && gltf_uris(text ? text : "", text ? n : 0, dir, files, count);
    free(dir);
    free(text);
    if (!ok) {
        gc_free_names(*files, *count);
        *files = NULL, *count = 0;
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", in_path);
    }
    return GC_OK;
}
