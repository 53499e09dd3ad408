#ifndef CDFLGIO_SHIM_H
#define CDFLGIO_SHIM_H

/* GIO for GSettings, which the agent reads one key of (GNOME's clock
 * format). GLib through its own module first, as CDFLNotify does, so that
 * GLib's types are declared once. */
#include "../CDFLGLib/shim.h"
#include <gio/gio.h>
#include <string.h>

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

/* dconf keeps a one-byte change flag in $XDG_RUNTIME_DIR/dconf, which the
 * agent's sandbox (ProtectHome=read-only) keeps read-only. dconf then reads
 * its database afresh on every read, which is correct, but logs "dconf will
 * not work properly" as a critical each time. Giving the sandbox that
 * directory would let the agent plant a symbolic link that every other dconf
 * client of the user then writes through, so instead those lines, and only
 * those, are left out: a GLib log writer that hands everything else to
 * GLib's default writer (the journal, or standard error). */
static inline GLogWriterOutput dfl_log_writer_without_dconf_flag(GLogLevelFlags level, const GLogField *fields,
                                                                 gsize count, gpointer user_data) {
    const char *domain = NULL, *message = NULL;
    for (gsize i = 0; i < count; i++) {
        if (fields[i].length >= 0) continue;
        if (strcmp(fields[i].key, "GLIB_DOMAIN") == 0) domain = fields[i].value;
        if (strcmp(fields[i].key, "MESSAGE") == 0) message = fields[i].value;
    }
    if (domain && message && strcmp(domain, "dconf") == 0 && strstr(message, "dconf will not work properly"))
        return G_LOG_WRITER_HANDLED;
    return g_log_writer_default(level, fields, count, user_data);
}

/* Installs that writer; once per process, before anything reads dconf. */
static inline void dfl_leave_out_dconf_flag_warnings(void) {
    g_log_set_writer_func(dfl_log_writer_without_dconf_flag, NULL, NULL);
}

#endif
