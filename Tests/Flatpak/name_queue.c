/* The impostor of test_impostor_flatpak.py, the program of a second
 * Flatpak (org.example.NameQueue) whose one bus permission is
 * --own-name=com.dreamsforlittles.DreamsForLittles.SleepTimers1: it waits in
 * that name's queue (RequestName without DO_NOT_QUEUE) and, once it owns the
 * name, answers the agent's methods as an agent would.
 *
 * Every message it is sent is appended to received.log in its own data
 * folder ($XDG_DATA_HOME, ~/.var/app/org.example.NameQueue/data outside),
 * one line each: its type, sender, interface, member, its arguments as
 * GVariant text, and the bytes read from each file descriptor it carried
 * (where the bridge hands over a token). Also there: its unique name, the
 * reply to RequestName, and NameAcquired and NameLost.
 *
 * Built in the test with the SDK (flatpak build): only GIO. */
#include <errno.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NAME "com.dreamsforlittles.DreamsForLittles.SleepTimers1"
#define INTERFACE "com.dreamsforlittles.SleepTimers1"
#define PROPERTIES "org.freedesktop.DBus.Properties"

static FILE *record;
static GMutex record_lock;

static void note(const char *format, ...) G_GNUC_PRINTF(1, 2);

static void note(const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    gchar *line = g_strdup_vprintf(format, arguments);
    va_end(arguments);
    g_mutex_lock(&record_lock);
    fputs(line, record);
    fputc('\n', record);
    fflush(record);
    fsync(fileno(record));
    g_mutex_unlock(&record_lock);
    g_free(line);
}

/* What each descriptor of the message holds, from its start, escaped. */
static gchar *descriptor_bytes(GDBusMessage *message)
{
    GUnixFDList *list = g_dbus_message_get_unix_fd_list(message);
    GString *text = g_string_new("");
    for (gint index = 0; list != NULL && index < g_unix_fd_list_get_length(list); index++) {
        gint descriptor = g_unix_fd_list_get(list, index, NULL);
        if (descriptor < 0)
            continue;
        lseek(descriptor, 0, SEEK_SET);
        GString *bytes = g_string_new("");
        char buffer[4096];
        ssize_t count;
        while (bytes->len < (1 << 20) && ((count = read(descriptor, buffer, sizeof buffer)) > 0
                                          || (count < 0 && errno == EINTR)))
            if (count > 0)
                g_string_append_len(bytes, buffer, count);
        close(descriptor);
        gchar *escaped = g_strescape(bytes->str, NULL);
        g_string_append_printf(text, "%sfd%d=%s", index ? " " : "", index, escaped);
        g_free(escaped);
        g_string_free(bytes, TRUE);
    }
    return g_string_free(text, FALSE);
}

/* The reply an agent would give, or NULL for a method it does not know. */
static GVariant *answer(const char *interface, const char *member)
{
    if (g_strcmp0(interface, PROPERTIES) == 0) {
        if (g_strcmp0(member, "Get") == 0)
            return g_variant_new("(v)", g_variant_new_string("9.9.9"));
        if (g_strcmp0(member, "GetAll") == 0)
            return g_variant_new_parsed("({'Version': <'9.9.9'>},)");
        return NULL;
    }
    if (g_strcmp0(member, "Mirror") == 0)
        return g_variant_new("()");
    if (g_strcmp0(member, "List") == 0)
        return g_variant_new_parsed("(@aa{sv} [],)");
    if (g_strcmp0(member, "Remove") == 0)
        return g_variant_new("(b)", TRUE);
    if (g_strcmp0(member, "Reconcile") == 0 || g_strcmp0(member, "Purge") == 0)
        return g_variant_new("(u)", 0);
    if (g_strcmp0(member, "Complete") == 0)
        return g_variant_new("(s)", "queued");
    return NULL;
}

static GDBusMessage *filter(GDBusConnection *connection, GDBusMessage *message, gboolean incoming, gpointer data)
{
    (void) data;
    if (!incoming)
        return message;
    GDBusMessageType type = g_dbus_message_get_message_type(message);
    const char *interface = g_dbus_message_get_interface(message);
    const char *member = g_dbus_message_get_member(message);
    GVariant *body = g_dbus_message_get_body(message);
    if (type == G_DBUS_MESSAGE_TYPE_SIGNAL) {
        const char *argument = "";
        if (body && g_variant_is_of_type(body, G_VARIANT_TYPE("(s)")))
            g_variant_get(body, "(&s)", &argument);
        if ((g_strcmp0(member, "NameAcquired") == 0 || g_strcmp0(member, "NameLost") == 0)
            && g_strcmp0(argument, NAME) == 0)
            note("%s %s", member, argument);
        return message;
    }
    if (type != G_DBUS_MESSAGE_TYPE_METHOD_CALL)
        return message;
    gchar *arguments = body ? g_variant_print(body, TRUE) : g_strdup("()");
    gchar *descriptors = descriptor_bytes(message);
    note("call sender=%s interface=%s member=%s path=%s args=%s %s", g_dbus_message_get_sender(message),
         interface ? interface : "", member ? member : "", g_dbus_message_get_path(message), arguments, descriptors);
    g_free(arguments);
    g_free(descriptors);
    /* Peer and Introspectable are GDBus's own to answer. */
    if (g_strcmp0(interface, INTERFACE) != 0 && g_strcmp0(interface, PROPERTIES) != 0)
        return message;
    GVariant *reply_body = answer(interface, member);
    GDBusMessage *reply = reply_body
        ? g_dbus_message_new_method_reply(message)
        : g_dbus_message_new_method_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "%s", member);
    if (reply_body)
        g_dbus_message_set_body(reply, reply_body);
    g_dbus_connection_send_message(connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
    g_object_unref(reply);
    g_object_unref(message);
    return NULL;
}

static gboolean quit(gpointer loop)
{
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(void)
{
    gchar *folder = g_build_filename(g_get_user_data_dir(), NULL);
    g_mkdir_with_parents(folder, 0700);
    gchar *path = g_build_filename(folder, "received.log", NULL);
    record = fopen(path, "a");
    if (record == NULL) {
        g_printerr("name-queue: cannot open %s: %s\n", path, g_strerror(errno));
        return 1;
    }
    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (bus == NULL) {
        g_printerr("name-queue: no session bus: %s\n", error->message);
        return 1;
    }
    g_dbus_connection_add_filter(bus, filter, NULL, NULL);
    note("unique %s", g_dbus_connection_get_unique_name(bus));
    /* Flags 0: no DO_NOT_QUEUE, so it waits behind the owner. */
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "RequestName",
                                                  g_variant_new("(su)", NAME, 0), G_VARIANT_TYPE("(u)"),
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (reply == NULL) {
        note("RequestName failed %s", error->message);
        return 1;
    }
    guint32 code;
    g_variant_get(reply, "(u)", &code);
    note("RequestName %u", code);
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGTERM, quit, loop);
    g_main_loop_run(loop);
    note("exit");
    return 0;
}
