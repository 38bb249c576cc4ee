// SPDX-License-Identifier: MIT
/* An output of several files (a .gltf and the buffers and images it names beside it):
 * every member is decided and checked before anything is written, written to a temporary
 * beside its final name, and renamed into place only when every member is complete; on
 * failure every temporary and every folder the set created is removed.
 *
 * A companion member's name comes from the input (a URI), so it is hostile: it must be a
 * relative path that stays in the output's folder (no "..", no leading "/", no component
 * starting with '.' such as .bashrc or .ssh, no empty component, no control character),
 * no existing part of it may be a symbolic link or anything but a folder, and the file
 * must not exist, unless it already holds exactly the bytes that would be written (this
 * command's own earlier output, recognised by its content: it is then left as it is). */
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MEMBERS 256

/* The path of `name` under the set's folder ("." is left out). */
static char* join(const char* dir, const char* name, size_t name_length)
{
    size_t n = strlen(dir);
    bool plain = !strcmp(dir, ".");
    char* p = malloc(n + name_length + 2);
    if (!p)
        return NULL;
    if (plain)
        snprintf(p, name_length + 1, "%.*s", (int)name_length, name);
    else
        snprintf(p, n + name_length + 2, "%s%s%.*s", dir, dir[n - 1] == '/' ? "" : "/", (int)name_length, name);
    return p;
}

void gc_output_set_init(gc_output_set* set, const char* dir, const char* const* inputs, size_t input_count)
{
    memset(set, 0, sizeof *set);
    set->dir = dir;
    set->inputs = inputs;
    set->input_count = input_count;
}

/* Why a companion name is refused, or NULL when it is a safe relative name. */
static const char* name_problem(const char* name)
{
    if (!*name)
        return "is empty";
    if (name[0] == '/')
        return "is an absolute path";
    if (strlen(name) >= PATH_MAX / 2)
        return "is too long";
    for (const char* p = name;;) {
        const char* end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0)
            return "has an empty part";
        if (p[0] == '.')
            return n == 2 && p[1] == '.' ? "leads out of the output's folder (..)"
                                         : "starts a part with '.' (a hidden file or folder)";
        if (!end)
            break;
        p = end + 1;
    }
    for (const unsigned char* p = (const unsigned char*)name; *p; ++p)
        if (*p < 0x20 || *p == 0x7f)
            return "holds a control character";
    return NULL;
}

/* Whether the open file `fd` holds exactly what `m` would write (fd at its start). */
static bool same_content(int fd, const gc_output_member* m)
{
    char a[1 << 15], b[1 << 15];
    uint64_t at = 0;
    if (m->from_fd >= 0 && lseek(m->from_fd, 0, SEEK_SET) != 0)
        return false;
    for (;;) {
        ssize_t got = read(fd, a, sizeof a);
        if (got < 0)
            return false;
        if (m->from_fd >= 0) {
            size_t have = 0;
            while (have < (size_t)got) {
                ssize_t r = read(m->from_fd, b + have, (size_t)got - have);
                if (r <= 0)
                    return false;
                have += (size_t)r;
            }
            if (memcmp(a, b, (size_t)got))
                return false;
            if (got == 0) {
                char c;
                return read(m->from_fd, &c, 1) == 0 && lseek(m->from_fd, 0, SEEK_SET) == 0;
            }
        } else {
            if ((uint64_t)got > m->size - at || memcmp(a, (const unsigned char*)m->data + at, (size_t)got))
                return false;
            at += (uint64_t)got;
            if (got == 0)
                return at == m->size;
        }
    }
}

/* Checks a companion's folders and file; sets m->skip when an identical file is there. */
static gc_status check_companion(gc_output_set* set, gc_output_member* m, const char* what, gc_error* err)
{
    const char* problem = name_problem(m->name);
    if (problem)
        return gc_fail(err, GC_ERR_DATA, "%s '%.200s': the file name %s; refusing to write it beside the output",
                       what, m->name, problem);
    for (const char* p = strchr(m->name, '/'); p; p = strchr(p + 1, '/')) {
        char* folder = join(set->dir, m->name, (size_t)(p - m->name));
        if (!folder)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", m->path);
        struct stat st;
        int r = lstat(folder, &st), e = errno;
        gc_status s = GC_OK;
        if (r != 0 && e != ENOENT)
            s = gc_fail(err, GC_ERR_IO, "%s '%.200s': %s: %s", what, m->name, folder, strerror(e));
        else if (r == 0 && S_ISLNK(st.st_mode))
            s = gc_fail(err, GC_ERR_DATA, "%s '%.200s': %s is a symbolic link; refusing to write through it", what,
                        m->name, folder);
        else if (r == 0 && !S_ISDIR(st.st_mode))
            s = gc_fail(err, GC_ERR_DATA, "%s '%.200s': %s exists and is not a folder", what, m->name, folder);
        free(folder);
        if (s)
            return s;
        if (r != 0)
            break; /* the rest is created */
    }
    struct stat st;
    if (lstat(m->path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return GC_OK;
        return gc_fail(err, GC_ERR_IO, "%s '%.200s': %s: %s", what, m->name, m->path, strerror(errno));
    }
    if (S_ISREG(st.st_mode)) {
        int fd = open(m->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
        struct stat now;
        bool same = fd >= 0 && fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && same_content(fd, m);
        if (fd >= 0)
            close(fd);
        if (same) {
            m->skip = 1;
            return GC_OK;
        }
    }
    return gc_fail(err, GC_ERR_DATA,
                   "%s '%.200s': %s exists and is not this output's own file; refusing to replace it", what, m->name,
                   m->path);
}

gc_status gc_output_set_add(gc_output_set* set, const char* name, int companion, const void* data, uint64_t size,
                            const char* from, const char* what, gc_error* err)
{
    while (companion && name[0] == '.' && name[1] == '/')
        name += 2;
    size_t length = strlen(name);
    for (size_t i = 0; i < set->count; ++i) {
        const char* other = set->members[i].name;
        size_t other_length = strlen(other);
        if (!strcmp(other, name)) {
            /* two URIs naming one file: one copy; never a file of the output's own */
            if (companion && set->members[i].companion)
                return GC_OK;
            return gc_fail(err, GC_ERR_DATA, "%s '%.200s': the output writes that file already", what, name);
        }
        /* "tex" and "tex/a.png": one name cannot be a file and a folder */
        size_t shorter = length < other_length ? length : other_length;
        const char* longer = length < other_length ? other : name;
        if (length != other_length && !strncmp(other, name, shorter) && longer[shorter] == '/')
            return gc_fail(err, GC_ERR_DATA, "%s '%.200s': the output has '%.200s' too: one name cannot be a file "
                           "and a folder", what, name, other);
    }
    if (set->count == MAX_MEMBERS)
        return gc_fail(err, GC_ERR_LIMIT, "%s: more than %d files to write", set->dir, MAX_MEMBERS);
    if (set->count == set->capacity) {
        size_t cap = set->capacity ? set->capacity * 2 : 8;
        gc_output_member* grown = realloc(set->members, cap * sizeof *grown);
        if (!grown)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", set->dir);
        set->members = grown;
        set->capacity = cap;
    }
    gc_output_member* m = &set->members[set->count];
    memset(m, 0, sizeof *m);
    m->from_fd = -1;
    m->companion = companion;
    m->data = data;
    m->size = size;
    m->name = strdup(name);
    m->path = m->name ? join(set->dir, name, strlen(name)) : NULL;
    m->what = strdup(what);
    if (!m->name || !m->path || !m->what) {
        free(m->name), free(m->path), free(m->what);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", set->dir);
    }
    gc_status s = GC_OK;
    if (from) {
        /* only a regular file: a FIFO or a device would block or never end */
        m->from_fd = open(from, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        struct stat st;
        if (m->from_fd < 0)
            s = gc_fail(err, GC_ERR_IO, "%s '%.200s': cannot open %s to copy it: %s", what, name, from,
                        strerror(errno));
        else if (fstat(m->from_fd, &st) != 0 || !S_ISREG(st.st_mode))
            s = gc_fail(err, GC_ERR_DATA, "%s '%.200s': %s is not a regular file; refusing to copy it", what, name,
                        from);
        else
            fcntl(m->from_fd, F_SETFL, fcntl(m->from_fd, F_GETFL) & ~O_NONBLOCK);
    }
    if (!s)
        s = companion ? check_companion(set, m, what, err) : gc_output_check(m->path, set->inputs, set->input_count, err);
    if (s) {
        if (m->from_fd >= 0)
            close(m->from_fd);
        free(m->name), free(m->path), free(m->what);
        return s;
    }
    set->count++;
    return GC_OK;
}

/* Creates the missing folders of member m, remembering each for gc_output_set_abort. */
static gc_status make_folders(gc_output_set* set, const gc_output_member* m, gc_error* err)
{
    for (const char* p = strchr(m->name, '/'); p; p = strchr(p + 1, '/')) {
        char* folder = join(set->dir, m->name, (size_t)(p - m->name));
        if (!folder)
            return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", m->path);
        struct stat st;
        if (lstat(folder, &st) == 0 && S_ISDIR(st.st_mode)) {
            free(folder);
            continue;
        }
        char** grown = realloc(set->created, (set->created_count + 1) * sizeof *grown);
        if (!grown || mkdir(folder, 0777) != 0) {
            gc_status s = grown ? gc_fail(err, GC_ERR_IO, "%s: cannot create the folder: %s", folder, strerror(errno))
                                : gc_fail(err, GC_ERR_NOMEM, "%s: out of memory", folder);
            if (grown)
                set->created = grown;
            free(folder);
            return s;
        }
        set->created = grown;
        set->created[set->created_count++] = folder;
    }
    return GC_OK;
}

static gc_status copy_member(gc_output_member* m, gc_error* err)
{
    FILE* to = m->file.file;
    if (m->from_fd < 0)
        return m->size == 0 || fwrite(m->data, 1, (size_t)m->size, to) == m->size
                   ? GC_OK
                   : gc_fail(err, GC_ERR_IO, "%s: write failed", m->path);
    char block[1 << 16];
    if (lseek(m->from_fd, 0, SEEK_SET) != 0)
        return gc_fail(err, GC_ERR_IO, "%s: copy failed: %s", m->path, strerror(errno));
    for (;;) {
        ssize_t got = read(m->from_fd, block, sizeof block);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return gc_fail(err, GC_ERR_IO, "%s: copy failed: %s", m->path, strerror(errno));
        if (got == 0)
            return GC_OK;
        if (fwrite(block, 1, (size_t)got, to) != (size_t)got)
            return gc_fail(err, GC_ERR_IO, "%s: write failed", m->path);
    }
}

gc_status gc_output_set_begin(gc_output_set* set, gc_error* err)
{
    gc_status s = GC_OK;
    for (size_t i = 0; i < set->count && !s; ++i) {
        gc_output_member* m = &set->members[i];
        if (m->skip)
            continue;
        if (!(s = make_folders(set, m, err)) && !(s = gc_atomic_open(&m->file, m->path, err)) &&
            (m->data || m->from_fd >= 0))
            s = copy_member(m, err);
    }
    if (s)
        gc_output_set_abort(set);
    return s;
}

void* gc_output_set_file(gc_output_set* set, size_t i)
{
    return i < set->count ? set->members[i].file.file : NULL;
}

gc_status gc_output_set_commit(gc_output_set* set, gc_error* err)
{
    gc_status s = GC_OK;
    /* every member complete before the first rename */
    for (size_t i = 0; i < set->count && !s; ++i) {
        FILE* f = set->members[i].file.file;
        if (f && (fflush(f) != 0 || ferror(f)))
            s = gc_fail(err, GC_ERR_IO, "%s: write failed: %s", set->members[i].path, strerror(errno ? errno : EIO));
    }
    /* then renamed (gc_atomic_commit syncs and renames): the files the document names
     * first, the document, added last, after them */
    for (size_t i = 0; i < set->count; ++i) {
        gc_output_member* m = &set->members[i];
        if (m->skip || !m->file.path)
            continue;
        if (s)
            gc_atomic_abort(&m->file);
        else if ((s = gc_atomic_commit(&m->file, err)) == GC_OK)
            m->written = 1;
    }
    if (s) {
        gc_output_set_abort(set);
        return s;
    }
    for (size_t i = set->created_count; i-- > 0;)
        free(set->created[i]);
    set->created_count = 0;
    return GC_OK;
}

void gc_output_set_abort(gc_output_set* set)
{
    for (size_t i = 0; i < set->count; ++i)
        if (set->members[i].file.path)
            gc_atomic_abort(&set->members[i].file);
    /* the folders this set made, deepest first; one holding a renamed member stays */
    for (size_t i = set->created_count; i-- > 0;) {
        rmdir(set->created[i]);
        free(set->created[i]);
    }
    set->created_count = 0;
}

void gc_output_set_free(gc_output_set* set)
{
    gc_output_set_abort(set);
    for (size_t i = 0; i < set->count; ++i) {
        gc_output_member* m = &set->members[i];
        if (m->from_fd >= 0)
            close(m->from_fd);
        free(m->name), free(m->path), free(m->what);
    }
    free(set->members);
    free(set->created);
    memset(set, 0, sizeof *set);
}
