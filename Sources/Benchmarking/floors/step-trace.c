/* Where a program's time goes between two outside events, without
 * slowing it as strace would: preloaded (LD_PRELOAD), this records the
 * wall-clock moment of each socket read and write, and of each file sync,
 * into a shared file that the benchmark reads afterwards. Recording costs two
 * clock reads, an fstat and, for a socket, a getsockname; nothing is written with a system call, so the
 * program's own system calls stay the only ones.
 *
 * DFL_STEP_TRACE names the record file. Each record is 32 bytes, see
 * `struct step`; the first 8 bytes of the file count the records. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum kind { SOCKET_READ = 1, SOCKET_WRITE = 2, FILE_SYNC = 3 };
enum place { LOCAL_SOCKET = 1, NETWORK_SOCKET = 2, REGULAR_FILE = 3 };

struct step {
    int64_t wall_ns;     /* when the call returned */
    int64_t duration_ns; /* how long it took */
    int32_t thread;      /* the calling thread's id */
    int16_t kind;
    int16_t place;
    int64_t bytes;
};

#define CAPACITY 65536
static uint64_t *count;
static struct step *steps;

__attribute__((constructor)) static void open_trace(void) {
    const char *path = getenv("DFL_STEP_TRACE");
    if (!path) return;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    size_t size = sizeof(uint64_t) + CAPACITY * sizeof(struct step);
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return;
    }
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    count = map;
    steps = (struct step *)((char *)map + sizeof(uint64_t));
}

static int64_t wall_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int place_of(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0) return 0;
    if (S_ISREG(status.st_mode)) return REGULAR_FILE;
    if (!S_ISSOCK(status.st_mode)) return 0;
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return 0;
    return address.ss_family == AF_UNIX ? LOCAL_SOCKET : NETWORK_SOCKET;
}

static void record(int kind, int fd, int64_t began, int64_t bytes) {
    if (!count || bytes < 0) return;
    int place = place_of(fd);
    if (!place || (kind != FILE_SYNC && place == REGULAR_FILE)) return;
    int64_t now = wall_ns();
    uint64_t index = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
    if (index >= CAPACITY) return;
    steps[index] = (struct step){now, now - began, (int32_t)syscall(SYS_gettid), (int16_t)kind, (int16_t)place, bytes};
}

#define NEXT(name) static __typeof__(name) *next; if (!next) next = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* One interposed call: the real one, timed, and recorded as `kind` when
 * `kept` holds of its `result`, which is also the record's byte count (a
 * failed write's -1 is left out by `record`). */
#define TRACED(type, name, kind, kept, parameters, ...) \
    type name parameters {                              \
        NEXT(name);                                     \
        int64_t began = wall_ns();                      \
        type result = next(__VA_ARGS__);                \
        if (kept) record(kind, fd, began, result);      \
        return result;                                  \
    }

TRACED(ssize_t, sendmsg, SOCKET_WRITE, 1, (int fd, const struct msghdr *message, int flags), fd, message, flags)
TRACED(ssize_t, send, SOCKET_WRITE, 1, (int fd, const void *buffer, size_t length, int flags), fd, buffer, length, flags)
TRACED(ssize_t, write, SOCKET_WRITE, 1, (int fd, const void *buffer, size_t length), fd, buffer, length)
TRACED(ssize_t, writev, SOCKET_WRITE, 1, (int fd, const struct iovec *vector, int parts), fd, vector, parts)
TRACED(ssize_t, recvmsg, SOCKET_READ, result > 0, (int fd, struct msghdr *message, int flags), fd, message, flags)
TRACED(ssize_t, recv, SOCKET_READ, result > 0, (int fd, void *buffer, size_t length, int flags), fd, buffer, length, flags)
TRACED(ssize_t, read, SOCKET_READ, result > 0, (int fd, void *buffer, size_t length), fd, buffer, length)
TRACED(int, fdatasync, FILE_SYNC, result == 0, (int fd), fd)
TRACED(int, fsync, FILE_SYNC, result == 0, (int fd), fd)
