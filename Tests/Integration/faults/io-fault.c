/* Storage faults on demand, loaded into dfl-sleep-agent with LD_PRELOAD.
 *
 * While the file named by DFL_IO_FAULT_FILE holds "ENOSPC" or "EIO", every
 * write and sync of the timer store's files (sleep-timers.sqlite3 and its
 * -wal and -shm) fails with that error, as a full disk or a failing one
 * would make it fail. Other files, and reads, are untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int fault_for(int fd) {
    const char *trigger = getenv("DFL_IO_FAULT_FILE");
    if (!trigger) return 0;
    char link[64], path[4096], mode[16] = {0};
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 0) return 0;
    path[length] = 0;
    if (!strstr(path, "sleep-timers.sqlite3")) return 0;
    int descriptor = open(trigger, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    ssize_t got = read(descriptor, mode, sizeof mode - 1);
    close(descriptor);
    if (got <= 0) return 0;
    if (strncmp(mode, "ENOSPC", 6) == 0) return ENOSPC;
    if (strncmp(mode, "EIO", 3) == 0) return EIO;
    return 0;
}

#define REAL(name) static __typeof__(name) *real; if (!real) real = dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buffer, size_t count) {
    REAL(write);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd, buffer, count);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(pwrite);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
    REAL(pwrite64);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd, buffer, count, offset);
}

int fsync(int fd) {
    REAL(fsync);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd);
}

int fdatasync(int fd) {
    REAL(fdatasync);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd);
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate);
    int error = fault_for(fd);
    if (error) { errno = error; return -1; }
    return real(fd, length);
}
