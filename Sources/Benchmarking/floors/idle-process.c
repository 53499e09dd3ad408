/* The floor for an idle agent: a C process linking the same libraries as
 * dfl-sleep-agent (GLib, libnotify, libdbus, SQLite, libcurl), which
 * initialises each, owns a bus name from a GLib main loop, and then sleeps.
 * Its memory, its wake-ups and its time from start to name are what the
 * libraries alone cost. With --version it prints one line and leaves before
 * initialising anything: the cost of loading the process and its libraries. */
#include <curl/curl.h>
#include <dbus/dbus.h>
#include <glib.h>
#include <glib-unix.h>
#include <libnotify/notify.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static gboolean dispatch(gpointer data) {
    DBusConnection *connection = data;
    while (dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS) {
    }
    return G_SOURCE_CONTINUE;
}

static gboolean readable(gint fd, GIOCondition condition, gpointer data) {
    DBusConnection *connection = data;
    (void)fd;
    (void)condition;
    dbus_connection_read_write(connection, 0);
    return dispatch(connection);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        puts("idle-process");
        return 0;
    }
    const char *name = argc > 1 ? argv[1] : "com.dreamsforlittles.Bench.Idle";
    notify_init("idle-process");
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    sqlite3 *database = NULL;
    sqlite3_open(":memory:", &database);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!connection) {
        fprintf(stderr, "idle-process: %s\n", error.message);
        return 1;
    }
    if (dbus_bus_request_name(connection, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "idle-process: cannot own %s\n", name);
        return 1;
    }
    int fd = -1;
    dbus_connection_get_unix_fd(connection, &fd);
    g_unix_fd_add(fd, G_IO_IN | G_IO_HUP | G_IO_ERR, readable, connection);
    /* A call that came while the name was requested is already read and
     * queued: the descriptor will not say so again. */
    dispatch(connection);
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_main_loop_run(loop);
    curl_multi_cleanup(multi);
    sqlite3_close(database);
    return 0;
}
