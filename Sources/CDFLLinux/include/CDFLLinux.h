#ifndef CDFLLINUX_H
#define CDFLLINUX_H

#include <langinfo.h>
#include <locale.h>
#include <stdint.h>

/* Linux calls that Swift's Glibc module does not import (sys/prctl.h,
 * sys/eventfd.h, sys/timerfd.h, libintl.h). Each system call returns 0 or a
 * descriptor, or -1 with errno set. */

/* Marks the process not dumpable: no core dumps, and no ptrace or
 * /proc/PID/mem access by other processes of the same user. */
int dfl_disable_core_dumps(void);

/* Names the calling thread (at most 15 bytes are kept), as ps, top and
 * /proc/PID/task/TID/comm show it. */
int dfl_name_thread(const char *name);

/* A non-blocking eventfd: one thread writes to wake a loop that polls it. */
int dfl_eventfd(void);

/* A non-blocking timerfd on the wall clock (CLOCK_REALTIME). */
int dfl_timerfd_wall_clock(void);

/* Arms the timerfd for an absolute wall-clock moment in milliseconds since
 * 1970, with TFD_TIMER_CANCEL_ON_SET: a read then fails with ECANCELED when
 * the clock is set (a jump, or the time set again after a suspend). A moment
 * of 0 or less disarms it. */
int dfl_timerfd_arm_wall_clock(int fd, int64_t milliseconds_since_1970);

/* glibc's gettext and locale objects (libintl.h is not part of the Glibc
 * module, LC_ALL_MASK is a macro). The programs leave the process's own
 * locale "C" (so that strerror, libdbus and GLib write the journal in
 * English) and read translations and the clock through a locale object. */

/* The locale the environment names (LC_ALL, LC_*, LANG), as glibc's
 * setlocale(LC_ALL, "") would take it; NULL when a locale it names is not
 * installed. Never freed: it lives as long as the program. */
locale_t dfl_environment_locale(void);

/* The "C" locale as an object. */
locale_t dfl_c_locale(void);

/* `base` with its messages' category (LC_MESSAGES) taken from the locale
 * `name`, as a new object; NULL when `name` is not installed. `base` is
 * left as it was. */
locale_t dfl_locale_with_messages(locale_t base, const char *name);

/* The translation of a message in a text domain, in `locale`'s messages
 * language (LANGUAGE first, unless that locale is "C"), or the message
 * itself: gettext on this thread with `locale` in force. The pointers
 * returned belong to glibc, or are the message given. */
const char *dfl_dgettext_l(locale_t locale, const char *domain, const char *message);
const char *dfl_dngettext_l(locale_t locale, const char *domain, const char *singular, const char *plural,
                            unsigned long count);

/* What `locale` says of an item of nl_langinfo (T_FMT, AM_STR, DAY_1, ...). */
const char *dfl_langinfo_l(locale_t locale, nl_item item);

/* Where a text domain's catalogs are, their encoding, and the program's
 * default domain; NULL when out of memory. */
const char *dfl_bindtextdomain(const char *domain, const char *directory);
const char *dfl_bind_textdomain_codeset(const char *domain, const char *codeset);
const char *dfl_textdomain(const char *domain);

#endif
