#ifndef CDFLGLIB_SHIM_H
#define CDFLGLIB_SHIM_H

/* GLib: the main loop every process of the project runs (with the Unix
 * file-descriptor and signal sources of glib-unix.h), g_spawn, and GKeyFile
 * for the tests that compare the configuration parser with it. Only glib
 * itself: a process that needs no GObject or GIO (dfl-sleepctl,
 * dfl-webview-bridge) links nothing more. CDFLNotify includes this header,
 * so that GLib's types are declared in this one module. */
#include <glib.h>
#include <glib-unix.h>

#endif
