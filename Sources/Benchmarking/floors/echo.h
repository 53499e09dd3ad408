/* Echo(s): answers with the same string, nothing else. Shared by the
 * two Echo floors, which differ only in how they are driven. */
#include <dbus/dbus.h>

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (!dbus_message_is_method_call(message, "com.dreamsforlittles.Bench.Echo", "Echo"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *text = "";
    DBusMessageIter in;
    if (dbus_message_iter_init(message, &in) && dbus_message_iter_get_arg_type(&in) == DBUS_TYPE_STRING)
        dbus_message_iter_get_basic(&in, &text);
    DBusMessage *reply = dbus_message_new_method_return(message);
    DBusMessageIter out;
    dbus_message_iter_init_append(reply, &out);
    dbus_message_iter_append_basic(&out, DBUS_TYPE_STRING, &text);
    dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}
