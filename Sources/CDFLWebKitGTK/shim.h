#ifndef CDFLWEBKITGTK_SHIM_H
#define CDFLWEBKITGTK_SHIM_H

/* GTK 4 and WebKitGTK 6.0 for the desktop app, and with them GLib, GIO
 * (GSubprocess, GNetworkMonitor, GTlsDatabase) and JavaScriptCore's GLib
 * API. Only the app imports this module. */
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <glib-unix.h>

/* GLib 2.88 marks its flag enums G_GNUC_FLAG_ENUM, and Swift then imports
 * each as an option set: its G_… constants are no longer in scope (the zero
 * one, …_NONE, is gone altogether). These constants, of the enum's own
 * type, have one name on every GLib from Debian 12's 2.74 on (CDFLGLib has
 * the main loop's). */
static const GApplicationFlags DFL_G_APPLICATION_HANDLES_OPEN = G_APPLICATION_HANDLES_OPEN;
static const GApplicationFlags DFL_G_APPLICATION_HANDLES_COMMAND_LINE = G_APPLICATION_HANDLES_COMMAND_LINE;
static const GBusNameWatcherFlags DFL_G_BUS_NAME_WATCHER_FLAGS_NONE = G_BUS_NAME_WATCHER_FLAGS_NONE;
static const GDBusCallFlags DFL_G_DBUS_CALL_FLAGS_NONE = G_DBUS_CALL_FLAGS_NONE;
static const GDBusCallFlags DFL_G_DBUS_CALL_FLAGS_NO_AUTO_START = G_DBUS_CALL_FLAGS_NO_AUTO_START;
static const GDBusSignalFlags DFL_G_DBUS_SIGNAL_FLAGS_NONE = G_DBUS_SIGNAL_FLAGS_NONE;
static const GFileTest DFL_G_FILE_TEST_EXISTS = G_FILE_TEST_EXISTS;
static const GSpawnFlags DFL_G_SPAWN_SEARCH_PATH = G_SPAWN_SEARCH_PATH;
static const GSubprocessFlags DFL_G_SUBPROCESS_FLAGS_STDIN_PIPE = G_SUBPROCESS_FLAGS_STDIN_PIPE;
static const GSubprocessFlags DFL_G_SUBPROCESS_FLAGS_STDOUT_PIPE = G_SUBPROCESS_FLAGS_STDOUT_PIPE;
static const GTlsDatabaseVerifyFlags DFL_G_TLS_DATABASE_VERIFY_NONE = G_TLS_DATABASE_VERIFY_NONE;

/* g_signal_connect is a macro over g_signal_connect_data, and GCallback is
 * an untyped function pointer: one typed wrapper per callback signature, so
 * that Swift hands over a checked @convention(c) function. The data is
 * released by `destroy` when the handler goes (with its object). */
#define DFL_CONNECT(name, callback_type)                                                            \
    static inline gulong name(gpointer instance, const char *signal, callback_type callback,        \
                              gpointer data, GClosureNotify destroy) {                              \
        return g_signal_connect_data(instance, signal, G_CALLBACK(callback), data, destroy,       \
                                     (GConnectFlags)0);                                             \
    }

/* (instance, data): activate, startup, shutdown, clicked. */
typedef void (*dfl_void_cb)(gpointer instance, gpointer data);
DFL_CONNECT(dfl_connect_void, dfl_void_cb)
/* (instance, pointer, data): script-message-received, notify::, automation-started, GAction activate. */
typedef void (*dfl_pointer_cb)(gpointer instance, gpointer argument, gpointer data);
DFL_CONNECT(dfl_connect_pointer, dfl_pointer_cb)
/* (instance, enum or boolean, data): load-changed, web-process-terminated, network-changed. */
typedef void (*dfl_int_cb)(gpointer instance, gint argument, gpointer data);
DFL_CONNECT(dfl_connect_int, dfl_int_cb)
/* (instance, data) -> handled: close-request. */
typedef gboolean (*dfl_bool_void_cb)(gpointer instance, gpointer data);
DFL_CONNECT(dfl_connect_bool_void, dfl_bool_void_cb)
/* (instance, pointer, data) -> handled: permission-request, print, run-file-chooser, authenticate, script-dialog. */
typedef gboolean (*dfl_bool_pointer_cb)(gpointer instance, gpointer argument, gpointer data);
DFL_CONNECT(dfl_connect_bool_pointer, dfl_bool_pointer_cb)
/* decide-policy: (view, decision, WebKitPolicyDecisionType, data) -> handled. */
typedef gboolean (*dfl_policy_cb)(gpointer view, gpointer decision, gint type, gpointer data);
DFL_CONNECT(dfl_connect_policy, dfl_policy_cb)
/* load-failed: (view, WebKitLoadEvent, uri, GError, data) -> handled. */
typedef gboolean (*dfl_load_failed_cb)(gpointer view, gint event, const char *uri, GError *error, gpointer data);
DFL_CONNECT(dfl_connect_load_failed, dfl_load_failed_cb)
/* load-failed-with-tls-errors: (view, uri, certificate, GTlsCertificateFlags, data) -> handled. */
typedef gboolean (*dfl_tls_failed_cb)(gpointer view, const char *uri, GTlsCertificate *certificate, guint errors,
                                      gpointer data);
DFL_CONNECT(dfl_connect_tls_failed, dfl_tls_failed_cb)
/* GApplication::open: (application, GFile **files, n_files, hint, data). */
typedef void (*dfl_open_cb)(gpointer application, GFile **files, gint count, const char *hint, gpointer data);
DFL_CONNECT(dfl_connect_open, dfl_open_cb)
/* GApplication::handle-local-options: (application, GVariantDict *options, data) -> exit status or -1. */
typedef gint (*dfl_local_options_cb)(gpointer application, GVariantDict *options, gpointer data);
DFL_CONNECT(dfl_connect_local_options, dfl_local_options_cb)
/* GApplication::command-line: (application, GApplicationCommandLine *, data) -> exit status. */
typedef gint (*dfl_command_line_cb)(gpointer application, GApplicationCommandLine *command_line, gpointer data);
DFL_CONNECT(dfl_connect_command_line, dfl_command_line_cb)
/* WebKitAutomationSession::create-web-view: (session, data) -> the view to drive. */
typedef WebKitWebView *(*dfl_create_view_cb)(gpointer session, gpointer data);
DFL_CONNECT(dfl_connect_create_view, dfl_create_view_cb)

/* GtkEventControllerKey::key-pressed: (controller, keyval, keycode, modifiers, data) -> handled. */
typedef gboolean (*dfl_key_cb)(gpointer controller, guint keyval, guint keycode, GdkModifierType state, gpointer data);
DFL_CONNECT(dfl_connect_key, dfl_key_cb)

/* GObject's checked casts are macros; each of these checks the instance's
 * type at run time, as the macro does, and returns the typed pointer. */
static inline GtkWindow *dfl_gtk_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkWidget *dfl_gtk_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkApplication *dfl_gtk_application(gpointer p) { return GTK_APPLICATION(p); }
static inline GApplication *dfl_g_application(gpointer p) { return G_APPLICATION(p); }
static inline GActionMap *dfl_g_action_map(gpointer p) { return G_ACTION_MAP(p); }
static inline GtkHeaderBar *dfl_gtk_header_bar(gpointer p) { return GTK_HEADER_BAR(p); }
static inline GtkBox *dfl_gtk_box(gpointer p) { return GTK_BOX(p); }
static inline GtkLabel *dfl_gtk_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkRevealer *dfl_gtk_revealer(gpointer p) { return GTK_REVEALER(p); }
static inline GtkButton *dfl_gtk_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkMenuButton *dfl_gtk_menu_button(gpointer p) { return GTK_MENU_BUTTON(p); }
static inline GtkEventController *dfl_event_controller(gpointer p) { return GTK_EVENT_CONTROLLER(p); }
static inline gboolean dfl_is_text_view(gpointer p) { return GTK_IS_TEXT_VIEW(p); }
static inline WebKitWebView *dfl_webkit_web_view(gpointer p) { return WEBKIT_WEB_VIEW(p); }
static inline WebKitNavigationPolicyDecision *dfl_navigation_decision(gpointer p) {
    return WEBKIT_NAVIGATION_POLICY_DECISION(p);
}
static inline WebKitPolicyDecision *dfl_policy_decision(gpointer p) { return WEBKIT_POLICY_DECISION(p); }
static inline WebKitPermissionRequest *dfl_permission_request(gpointer p) { return WEBKIT_PERMISSION_REQUEST(p); }
static inline WebKitFileChooserRequest *dfl_file_chooser_request(gpointer p) { return WEBKIT_FILE_CHOOSER_REQUEST(p); }
static inline WebKitAuthenticationRequest *dfl_authentication_request(gpointer p) {
    return WEBKIT_AUTHENTICATION_REQUEST(p);
}
static inline JSCValue *dfl_jsc_value(gpointer p) { return JSC_VALUE(p); }
static inline WebKitDownload *dfl_webkit_download(gpointer p) { return WEBKIT_DOWNLOAD(p); }
static inline GInputStream *dfl_g_input_stream(gpointer p) { return G_INPUT_STREAM(p); }
static inline GOutputStream *dfl_g_output_stream(gpointer p) { return G_OUTPUT_STREAM(p); }
static inline GSubprocess *dfl_g_subprocess(gpointer p) { return G_SUBPROCESS(p); }
static inline GDataInputStream *dfl_g_data_input_stream(gpointer p) { return G_DATA_INPUT_STREAM(p); }

/* The web view's construct-only properties go through the variadic
 * g_object_new: its network session (where website data persists), its
 * user content (the bridge's scripts and message handler), the context
 * (automation), and whether WebDriver drives it. */
static inline WebKitWebView *dfl_web_view_new(WebKitNetworkSession *session, WebKitUserContentManager *content,
                                              WebKitWebContext *context, gboolean automation) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session", session, "user-content-manager",
                                        content, "web-context", context, "is-controlled-by-automation", automation,
                                        NULL));
}

/* g_variant_dict_lookup is variadic; the one option the app reads is a
 * boolean flag. */
static inline gboolean dfl_options_flag(GVariantDict *options, const char *name) {
    gboolean value = FALSE;
    return g_variant_dict_lookup(options, name, "b", &value) && value;
}

/* The launching process's terminal, through the one running instance:
 * the print functions take a format; the text is passed as an argument. */
static inline void dfl_command_line_print(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_print(command_line, "%s\n", text);
}
static inline void dfl_command_line_printerr(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_printerr(command_line, "%s\n", text);
}

/* GSubprocessLauncher's spawn is variadic: an argument vector instead. */
static inline GSubprocess *dfl_subprocess_spawn(GSubprocessLauncher *launcher, const char *program, GError **error) {
    const char *argv[] = {program, NULL};
    return g_subprocess_launcher_spawnv(launcher, argv, error);
}

/* gtk_accessible_update_property is variadic: a control's accessible name
 * and description, as a screen reader says them (an icon button is
 * otherwise named after its image). */
static inline void dfl_accessible_describe(gpointer widget, const char *label, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* A control named without a description of its own (its tooltip is one). */
static inline void dfl_accessible_name(gpointer widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* Left out of what assistive technology is shown. */
static inline void dfl_accessible_hide(gpointer widget) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

#endif
