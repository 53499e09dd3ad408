#ifndef CDFLGLIB_SHIM_H
#define CDFLGLIB_SHIM_H

/* GLib: the main loop every process of the project runs (with the Unix
 * file-descriptor and signal sources of glib-unix.h), g_spawn, and the
 * general formats GLibParsing reads for the core: GTimeZone, GKeyFile,
 * GDateTime's ISO 8601 and base64. Only glib
 * itself: a process that needs no GObject or GIO (dfl-sleepctl,
 * dfl-webview-bridge) links nothing more. CDFLNotify includes this header,
 * so that GLib's types are declared in this one module. */
#include <glib.h>
#include <glib-unix.h>

/* GLib 2.88 marks its flag enums G_GNUC_FLAG_ENUM, and Swift then imports
 * each as an option set: its G_… constants are no longer in scope (the zero
 * one, …_NONE, is gone altogether). These constants, of the enum's own
 * type, have one name on every GLib from Debian 12's 2.74 on. */
static const GIOCondition DFL_G_IO_IN = G_IO_IN;
static const GIOCondition DFL_G_IO_OUT = G_IO_OUT;
static const GIOCondition DFL_G_IO_ERR = G_IO_ERR;
static const GIOCondition DFL_G_IO_HUP = G_IO_HUP;
static const GSpawnFlags DFL_G_SPAWN_SEARCH_PATH = G_SPAWN_SEARCH_PATH;
static const GSpawnFlags DFL_G_SPAWN_STDIN_FROM_DEV_NULL = G_SPAWN_STDIN_FROM_DEV_NULL;
static const GKeyFileFlags DFL_G_KEY_FILE_NONE = G_KEY_FILE_NONE;

#endif
