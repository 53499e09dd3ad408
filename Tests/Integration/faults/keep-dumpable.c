/* LD_PRELOAD into dfl-sleep-agent: makes prctl(PR_SET_DUMPABLE, 0) a no-op
 * that reports success, so that the agent leaves itself dumpable. The
 * containment test runs such a copy to show that its check would catch an
 * agent that is dumpable. Every other prctl goes to the C library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <sys/prctl.h>

int prctl(int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    unsigned long a = va_arg(arguments, unsigned long), b = va_arg(arguments, unsigned long),
                  c = va_arg(arguments, unsigned long), d = va_arg(arguments, unsigned long);
    va_end(arguments);
    if (option == PR_SET_DUMPABLE && a == 0) return 0;
    int (*real)(int, ...) = (int (*)(int, ...))dlsym(RTLD_NEXT, "prctl");
    return real(option, a, b, c, d);
}
