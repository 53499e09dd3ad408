#ifndef CDFLLINUX_H
#define CDFLLINUX_H

#include <stdint.h>

/* Linux calls that Swift's Glibc module does not import (sys/prctl.h,
 * sys/eventfd.h, sys/timerfd.h). Each returns 0 or a descriptor, or -1 with
 * errno set. */

/* Marks the process not dumpable: no core dumps, and no ptrace or
 * /proc/PID/mem access by other processes of the same user. */
int dfl_disable_core_dumps(void);

/* A non-blocking eventfd: one thread writes to wake a loop that polls it. */
int dfl_eventfd(void);

/* A non-blocking timerfd on the wall clock (CLOCK_REALTIME). */
int dfl_timerfd_wall_clock(void);

/* Arms the timerfd for an absolute wall-clock moment in milliseconds since
 * 1970, with TFD_TIMER_CANCEL_ON_SET: a read then fails with ECANCELED when
 * the clock is set (a jump, or the time set again after a suspend). A moment
 * of 0 or less disarms it. */
int dfl_timerfd_arm_wall_clock(int fd, int64_t milliseconds_since_1970);

#endif
