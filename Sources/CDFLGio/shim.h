#ifndef CDFLGIO_SHIM_H
#define CDFLGIO_SHIM_H

/* GIO for GSettings, which the agent reads one key of (GNOME's clock
 * format). GLib through its own module first, as CDFLNotify does, so that
 * GLib's types are declared once. */
#include "../CDFLGLib/shim.h"
#include <gio/gio.h>

/* g_signal_connect is a macro over g_signal_connect_data, and GCallback is
 * an untyped function pointer: a typed wrapper for the one signal the agent
 * connects, GSettings::changed with a key as its detail. */
typedef void (*dfl_settings_changed_cb)(GSettings *settings, const gchar *key, gpointer user_data);

static inline gulong dfl_settings_connect_changed(GSettings *settings, const gchar *detailed_signal,
                                                  dfl_settings_changed_cb callback, gpointer user_data,
                                                  GClosureNotify destroy) {
    return g_signal_connect_data(settings, detailed_signal, G_CALLBACK(callback), user_data, destroy,
                                 (GConnectFlags)0);
}

#endif
