/* The floor for a D-Bus round trip through a GLib main loop: the same
 * Echo(s) as echo-service, but driven as the agent drives its connection,
 * so that the difference between the two is the loop's share: the
 * connection's descriptor watched by a GLib source, dbus_watch_handle and
 * the dispatch run from that source's callback, and an idle source only
 * for data that remains outside it. */
#include "echo.h"
#include <dbus/dbus.h>
#include <glib-unix.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

static DBusConnection *connection;
static guint pending_dispatch;
static int dispatch_follows;

static void dispatch_all(void) {
    if (pending_dispatch) {
        g_source_remove(pending_dispatch);
        pending_dispatch = 0;
    }
    while (dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS) {
    }
}

static gboolean dispatch_soon(gpointer data) {
    (void)data;
    pending_dispatch = 0;
    dispatch_all();
    return G_SOURCE_REMOVE;
}

static void dispatch_status_changed(DBusConnection *bus, DBusDispatchStatus status, void *data) {
    (void)bus;
    (void)data;
    if (status == DBUS_DISPATCH_DATA_REMAINS && !pending_dispatch && !dispatch_follows)
        pending_dispatch = g_idle_add(dispatch_soon, NULL);
}

static gboolean watch_ready(gint fd, GIOCondition condition, gpointer data) {
    (void)fd;
    unsigned int flags = 0;
    if (condition & G_IO_IN) flags |= DBUS_WATCH_READABLE;
    if (condition & G_IO_OUT) flags |= DBUS_WATCH_WRITABLE;
    if (condition & G_IO_ERR) flags |= DBUS_WATCH_ERROR;
    if (condition & G_IO_HUP) flags |= DBUS_WATCH_HANGUP;
    dispatch_follows = 1;
    dbus_watch_handle(data, flags);
    dispatch_follows = 0;
    dispatch_all();
    return G_SOURCE_CONTINUE;
}

static void update_watch(DBusWatch *watch, void *data) {
    (void)data;
    guint source = GPOINTER_TO_UINT(dbus_watch_get_data(watch));
    if (source) g_source_remove(source);
    source = 0;
    if (dbus_watch_get_enabled(watch)) {
        unsigned int flags = dbus_watch_get_flags(watch);
        GIOCondition condition = G_IO_ERR | G_IO_HUP;
        if (flags & DBUS_WATCH_READABLE) condition |= G_IO_IN;
        if (flags & DBUS_WATCH_WRITABLE) condition |= G_IO_OUT;
        source = g_unix_fd_add(dbus_watch_get_unix_fd(watch), condition, watch_ready, watch);
    }
    dbus_watch_set_data(watch, GUINT_TO_POINTER(source), NULL);
}

static dbus_bool_t add_watch(DBusWatch *watch, void *data) {
    update_watch(watch, data);
    return TRUE;
}

static void remove_watch(DBusWatch *watch, void *data) {
    (void)data;
    guint source = GPOINTER_TO_UINT(dbus_watch_get_data(watch));
    if (source) g_source_remove(source);
    dbus_watch_set_data(watch, NULL, NULL);
}

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    connection = dbus_bus_get(DBUS_BUS_SESSION, &error);
    if (!connection) {
        fprintf(stderr, "echo-loop: %s\n", error.message);
        return 1;
    }
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    dbus_connection_set_watch_functions(connection, add_watch, remove_watch, update_watch, NULL, NULL);
    dbus_connection_set_dispatch_status_function(connection, dispatch_status_changed, NULL, NULL);
    DBusObjectPathVTable vtable;
    memset(&vtable, 0, sizeof vtable);
    vtable.message_function = handle;
    dbus_connection_register_object_path(connection, "/com/dreamsforlittles/Bench/Echo", &vtable, NULL);
    if (dbus_bus_request_name(connection, "com.dreamsforlittles.Bench.EchoLoop", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) !=
        DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "echo-loop: cannot own the name\n");
        return 1;
    }
    dispatch_all();
    g_main_loop_run(loop);
    return 0;
}
