#include "CDFLLinux.h"

#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>

int dfl_disable_core_dumps(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int dfl_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int dfl_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int dfl_timerfd_wall_clock(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int dfl_timerfd_arm_wall_clock(int fd, int64_t milliseconds_since_1970) {
    struct itimerspec spec = {0};
    int flags = 0;
    if (milliseconds_since_1970 > 0) {
        spec.it_value.tv_sec = (time_t)(milliseconds_since_1970 / 1000);
        spec.it_value.tv_nsec = (long)(milliseconds_since_1970 % 1000) * 1000000L;
        flags = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
    }
    return timerfd_settime(fd, flags, &spec, NULL);
}

locale_t dfl_environment_locale(void) {
    return newlocale(LC_ALL_MASK, "", (locale_t)0);
}

locale_t dfl_c_locale(void) {
    return newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t dfl_locale_with_messages(locale_t base, const char *name) {
    locale_t copy = duplocale(base);
    if (copy == (locale_t)0) return (locale_t)0;
    locale_t made = newlocale(LC_MESSAGES_MASK, name, copy);
    if (made == (locale_t)0) freelocale(copy);
    return made;
}

const char *dfl_dgettext_l(locale_t locale, const char *domain, const char *message) {
    locale_t previous = uselocale(locale);
    const char *translated = dgettext(domain, message);
    uselocale(previous);
    return translated;
}

const char *dfl_dngettext_l(locale_t locale, const char *domain, const char *singular, const char *plural,
                            unsigned long count) {
    locale_t previous = uselocale(locale);
    const char *translated = dngettext(domain, singular, plural, count);
    uselocale(previous);
    return translated;
}

const char *dfl_langinfo_l(locale_t locale, nl_item item) {
    return nl_langinfo_l(item, locale);
}

const char *dfl_bindtextdomain(const char *domain, const char *directory) {
    return bindtextdomain(domain, directory);
}

const char *dfl_bind_textdomain_codeset(const char *domain, const char *codeset) {
    return bind_textdomain_codeset(domain, codeset);
}

const char *dfl_textdomain(const char *domain) {
    return textdomain(domain);
}
