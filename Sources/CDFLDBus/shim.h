#ifndef CDFLDBUS_SHIM_H
#define CDFLDBUS_SHIM_H

/* libdbus through one header. Every entry point the project uses is a plain
 * C function; the variadic dbus_message_append_args/get_args are avoided in
 * favour of message iterators, and the type-code macros such as
 * ((int) 's'), which Swift does not import, are spelt out in Swift from their
 * ASCII letters. */
#include <dbus/dbus.h>

#endif
