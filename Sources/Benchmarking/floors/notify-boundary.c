/* The floor for wake-ups: three libnotify notifications whose elapsed time
 * moves on at the same minute boundary, as three Sleep timers started in the
 * same second do, updated in place from a GLib main loop that sleeps until
 * the next boundary. Its context switches, counted over a minute, are what
 * libnotify and one wake-up per boundary cost with no agent around them.
 * Usage: notify-boundary STARTED-AT-MS (wall clock, ms since the epoch). */
#include <libnotify/notify.h>
#include <stdio.h>
#include <stdlib.h>

static gint64 started_at_ms;
static NotifyNotification *notifications[3];
static const char *names[3] = {"Floor A is asleep", "Floor B is asleep", "Floor C is asleep"};

static gint64 now_ms(void) { return g_get_real_time() / 1000; }

static void show_all(void) {
    gint64 minutes = (now_ms() - started_at_ms) / 60000;
    for (int i = 0; i < 3; i++) {
        char body[64];
        snprintf(body, sizeof body, "Asleep since 9:41 PM · %lld min", (long long)minutes);
        notify_notification_update(notifications[i], names[i], body, NULL);
        notify_notification_show(notifications[i], NULL);
    }
}

static gboolean boundary(gpointer data);

/* One timeout for the next whole minute after the start. */
static void arm_next(void) {
    gint64 now = now_ms();
    gint64 next = started_at_ms + ((now - started_at_ms) / 60000 + 1) * 60000;
    g_timeout_add((guint)(next - now), boundary, NULL);
}

static gboolean boundary(gpointer data) {
    (void)data;
    show_all();
    arm_next();
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: notify-boundary STARTED-AT-MS\n");
        return 64;
    }
    started_at_ms = atoll(argv[1]);
    notify_init("notify-boundary");
    for (int i = 0; i < 3; i++) notifications[i] = notify_notification_new(names[i], "", NULL);
    show_all();
    arm_next();
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
