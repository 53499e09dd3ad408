/* The floor for a D-Bus round trip: a minimal libdbus service that owns a
 * name and answers Echo(s) with the same string, nothing else. */
#include "echo.h"
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

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
