/* The floor for a D-Bus round trip: a minimal libdbus service that owns a
 * name and answers Echo(s) with the same string, nothing else. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

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

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get(DBUS_BUS_SESSION, &error);
    if (!connection) {
        fprintf(stderr, "echo-service: %s\n", error.message);
        return 1;
    }
    DBusObjectPathVTable vtable;
    memset(&vtable, 0, sizeof vtable);
    vtable.message_function = handle;
    dbus_connection_register_object_path(connection, "/com/dreamsforlittles/Bench/Echo", &vtable, NULL);
    if (dbus_bus_request_name(connection, "com.dreamsforlittles.Bench.Echo", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) !=
        DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "echo-service: cannot own the name\n");
        return 1;
    }
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    return 0;
}
