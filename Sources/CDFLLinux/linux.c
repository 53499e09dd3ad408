#include "CDFLLinux.h"

#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>

int dfl_disable_core_dumps(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int dfl_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int dfl_timerfd_wall_clock(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int dfl_timerfd_arm_wall_clock(int fd, int64_t milliseconds_since_1970) {
    struct itimerspec spec = {0};
    int flags = 0;
    if (milliseconds_since_1970 > 0) {
        spec.it_value.tv_sec = (time_t)(milliseconds_since_1970 / 1000);
        spec.it_value.tv_nsec = (long)(milliseconds_since_1970 % 1000) * 1000000L;
        flags = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
    }
    return timerfd_settime(fd, flags, &spec, NULL);
}
