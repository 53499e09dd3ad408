/* The floor for putting a notification on screen: libnotify shows a new
 * notification, or updates one in place, as the agent does. Prints one line
 * per call: the wall-clock time (ns since the epoch) just before it, to
 * pair with the time the notification server received it. */
#include <libnotify/notify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long wall_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: notify-show COUNT new|update\n");
        return 64;
    }
    int count = atoi(argv[1]);
    int update = strcmp(argv[2], "update") == 0;
    notify_init("notify-show");
    NotifyNotification *notification = notify_notification_new("Floor is asleep", "Asleep since 9:41 PM", NULL);
    for (int i = 0; i < count; i++) {
        if (!update) {
            g_object_unref(notification);
            notification = notify_notification_new("Floor is asleep", "Asleep since 9:41 PM", NULL);
        }
        char body[64];
        snprintf(body, sizeof body, "Asleep since 9:41 PM · %d min", i);
        notify_notification_update(notification, "Floor is asleep", body, NULL);
        printf("%lld\n", wall_ns());
        fflush(stdout);
        notify_notification_show(notification, NULL);
    }
    g_object_unref(notification);
    return 0;
}
