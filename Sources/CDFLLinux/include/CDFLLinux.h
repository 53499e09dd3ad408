#ifndef CDFLLINUX_H
#define CDFLLINUX_H

/* Linux calls that Swift's Glibc module does not import (sys/prctl.h). */

/* Marks the process not dumpable: no core dumps, and no ptrace or
 * /proc/PID/mem access by other processes of the same user. Returns 0, or -1
 * with errno set. */
int dfl_disable_core_dumps(void);

#endif
