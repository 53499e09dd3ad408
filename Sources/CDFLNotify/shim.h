#ifndef CDFLNOTIFY_SHIM_H
#define CDFLNOTIFY_SHIM_H

/* GLib through its own module first: this include becomes an import of
 * CDFLGLib, whose include guards then keep libnotify's own #include <glib.h>
 * from declaring GLib's types a second time in this module. */
#include "../CDFLGLib/shim.h"
#include <libnotify/notify.h>

/* g_signal_connect is a macro over g_signal_connect_data, and GCallback is
 * an untyped function pointer. These typed wrappers let Swift connect the
 * one signal it needs with a checked callback type. */
typedef void (*dfl_notification_closed_cb)(NotifyNotification *notification, gpointer user_data);

static inline gulong dfl_notification_connect_closed(NotifyNotification *notification,
                                                     dfl_notification_closed_cb callback,
                                                     gpointer user_data,
                                                     GClosureNotify destroy) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(callback),
                                 user_data, destroy, (GConnectFlags)0);
}

/* The server's id of a notification is the GObject property "id", read and
 * written through the variadic g_object_get/g_object_set. Writing it lets a
 * restarted agent replace the notification it showed before instead of
 * adding a second one. */
static inline guint32 dfl_notification_get_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return (guint32)id;
}

static inline void dfl_notification_set_id(NotifyNotification *notification, guint32 id) {
    g_object_set(notification, "id", (gint)id, NULL);
}

#endif
