// SPDX-License-Identifier: MIT
/* Opening an input file that a hostile document names (a glTF buffer, a file assimp asks
 * for, the input itself) without ever blocking: a FIFO or a device opened for reading
 * blocks in open() or read() until a writer comes, so the file is opened with O_NONBLOCK,
 * checked with fstat and refused unless regular; only then is blocking mode restored. */
#define _XOPEN_SOURCE 700
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE* gc_open_regular(const char* path, uint64_t* size, const char** why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return NULL;
    }
    struct stat st;
    int flags;
    const char* problem = NULL;
    if (fstat(fd, &st) != 0)
        problem = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        problem = "not a regular file";
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        problem = strerror(errno);
    FILE* f = problem ? NULL : fdopen(fd, "rb");
    if (!f) {
        *why = problem ? problem : strerror(errno);
        close(fd);
        return NULL;
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return f;
}
