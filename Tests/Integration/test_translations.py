"""The agent, dfl-sleepctl and the desktop app in each language of po/,
read where a person reads them: the notification as xfce4-notifyd shows it
(its own log of the summary, body and button labels) or as a recording
server received it, dfl-sleepctl's output, and the page the app's window
shows (through WebKitWebDriver) and what a second launch prints.

glibc takes LANGUAGE only where the locale of the messages is not "C" (nor
"POSIX"; "C.UTF-8" is fine), so each language runs under its own UTF-8
locale from locales-all, as a desktop session sets it, and one test shows
LANG=C turning LANGUAGE off. The catalogs come from build/locale (make
locale). The expected words are written here, not read from the catalogs,
so a broken catalog fails."""

import html
import os
import subprocess
import time
import unittest

from app_harness import APP, CONFIGURATION_MISTAKE_TEXT, AppTestCase
from dbus_client import Client
from desktop import Display, RecordingServer, SpecPanel, XfceNotifyd
from harness import (PATIENCE, REPO, SLEEPCTL, AgentProcess, Session, eventually, gdbus_call, now_ms,
                     timer_dict)

CATALOGS = os.path.join(REPO, "build", "locale")
NBSP = "\u00a0"

# What each language must show: a timer asleep for 1 h 1 min, one for
# 2 h 2 min and one for 0 min (French and Brazilian Portuguese say "0
# minute" in the singular, the others in the plural).
LANGUAGES = {
    "de": dict(locale="de_DE.UTF-8", asleep="{name} schläft", body="Schläft seit {time} · {elapsed}",
               one="1 Stunde 1 Minute", two="2 Stunden 2 Minuten", zero="0 Minuten", labels=["Öffnen", "Beenden"],
               usage="Aufruf: dfl-sleepctl COMMAND [OPTIONS]", commands="Befehle:",
               unknown="dfl-sleepctl: unbekannter Befehl „bogus“", running="läuft, kann beendet werden",
               no_such="Auf diesem Desktop wird kein Schlaf-Timer mit dieser ID angezeigt.",
               status="3 Timer angezeigt"),
    "fr": dict(locale="fr_FR.UTF-8", asleep="{name} dort", body="Dort depuis {time} · {elapsed}",
               one="1 heure et 1 minute", two="2 heures et 2 minutes", zero="0 minute", labels=["Ouvrir", "Terminer"],
               usage="Utilisation" + NBSP + ": dfl-sleepctl COMMAND [OPTIONS]", commands="Commandes" + NBSP + ":",
               unknown="dfl-sleepctl: commande inconnue «" + NBSP + "bogus" + NBSP + "»",
               running="en cours, peut être terminé", listed="{name}" + NBSP + ": {since} [{state}]",
               no_such="Aucun minuteur de sommeil avec cet identifiant n’est affiché sur ce bureau.",
               status="3 minuteurs affichés"),
    "es": dict(locale="es_ES.UTF-8", asleep="{name} está durmiendo", body="Durmiendo desde {time} · {elapsed}",
               one="1 hora y 1 minuto", two="2 horas y 2 minutos", zero="0 minutos", labels=["Abrir", "Terminar"],
               usage="Uso: dfl-sleepctl COMMAND [OPTIONS]", commands="Comandos:",
               unknown="dfl-sleepctl: comando desconocido «bogus»", running="en curso, se puede terminar",
               no_such="No hay ningún temporizador de sueño con este id en este escritorio.",
               status="3 temporizadores en pantalla"),
    "pt_BR": dict(locale="pt_BR.UTF-8", asleep="{name} está dormindo", body="Dormindo desde {time} · {elapsed}",
                  one="1 hora e 1 minuto", two="2 horas e 2 minutos", zero="0 minuto", labels=["Abrir", "Concluir"],
                  usage="Uso: dfl-sleepctl COMMAND [OPTIONS]", commands="Comandos:",
                  unknown="dfl-sleepctl: comando desconhecido “bogus”", running="em andamento, pode ser concluído",
                  no_such="Nenhum timer de sono com este id está sendo exibido nesta área de trabalho.",
                  status="3 timers exibidos"),
    "it": dict(locale="it_IT.UTF-8", asleep="{name} sta dormendo", body="Dorme dalle {time} · {elapsed}",
               one="1 ora e 1 minuto", two="2 ore e 2 minuti", zero="0 minuti", labels=["Apri", "Termina"],
               usage="Uso: dfl-sleepctl COMMAND [OPTIONS]", commands="Comandi:",
               unknown="dfl-sleepctl: comando sconosciuto «bogus»", running="in corso, si può terminare",
               no_such="Nessun timer del sonno con questo id è mostrato su questo desktop.",
               status="3 timer mostrati"),
}

UNKNOWN_TIMER = "00000000-0000-4000-8000-000000000999"
DCONF_SERVICE = "/usr/libexec/dconf-service"


def require_catalogs():
    missing = [lang for lang in LANGUAGES if not os.path.exists(
        os.path.join(CATALOGS, lang, "LC_MESSAGES", "dreamsforlittles.mo"))]
    if missing:
        raise AssertionError("no compiled catalogs for %s in build/locale: run make locale" % ", ".join(missing))


def require_locale(name):
    available = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    if name.replace("UTF-8", "utf8") not in available:
        raise AssertionError("the locale %s is not installed: apt-get install locales-all" % name)


def started(minutes, seconds_into_the_minute=20):
    """A start `minutes` whole minutes (and a few seconds) ago, so that the
    elapsed time reads `minutes` for the next 40 seconds."""
    return now_ms() - (minutes * 60 + seconds_into_the_minute) * 1000


def clock(ms, twelve_hour=False, am="AM", pm="PM"):
    """The time of day of `ms` in UTC, as the agent writes it."""
    hour, minute = time.gmtime(ms / 1000)[3:5]
    if not twelve_hour:
        return "%02d:%02d" % (hour, minute)
    return "%d:%02d %s" % (hour % 12 or 12, minute, am if hour < 12 else pm)


class LanguageSession:
    """A private session in one language: LANG its locale, LANGUAGE set,
    the catalogs of the build tree."""

    def __init__(self, test, installed=True, **env):
        require_catalogs()
        self.session = Session()
        test.addCleanup(self.session.close)
        for value in (env.get("LANG"), env.get("LC_TIME"), env.get("LC_MESSAGES"), env.get("LC_ALL")):
            if installed and value and value not in ("C", "C.UTF-8", "POSIX"):
                require_locale(value)
        self.session.env.update(DFL_LOCALEDIR=CATALOGS, **env)

    def sleepctl(self, *args):
        return subprocess.run([SLEEPCTL, *args], env=self.session.env, capture_output=True, text=True,
                              timeout=PATIENCE)


class EachLanguageTests(unittest.TestCase):
    """Per language: the notifications on xfce4-notifyd, with the plural
    of every number, the locale's clock and translated buttons; the status
    line systemd shows; dfl-sleepctl's help, errors, refusals and list."""

    def check_language(self, language):
        words = LANGUAGES[language]
        session = LanguageSession(self, LANG=words["locale"], LANGUAGE=language)
        Display(session.session)
        server = XfceNotifyd(session.session, log=True)
        agent = AgentProcess(session.session)
        client = Client(session.session)
        self.addCleanup(client.close)
        timers = {"Maya": (started(61), "one"), "Leo": (started(122), "two"), "Zoé": (started(0), "zero")}
        for name, (start, _) in timers.items():
            client.mirror(timer_dict(baby_name=name, timezone="Etc/UTC", started_at_ms=start))

        for name, (start, elapsed) in timers.items():
            expected = {"summary": words["asleep"].format(name=name),
                        "body": words["body"].format(time=clock(start), elapsed=words[elapsed]),
                        "labels": words["labels"]}
            shown = lambda: [{"summary": e.get("summary"), "body": html.unescape(e.get("body", "")),
                              "labels": e["labels"]} for e in server.logged()]
            eventually(lambda: expected in shown(), what="xfce4-notifyd to show %r (it showed %r)" % (expected, shown()))

        # What `systemctl --user status` shows, in the same language.
        lines = []
        eventually(lambda: lines.append(agent.notify.receive()) or "STATUS=" + words["status"] in lines[-1],
                   what="a STATUS= line for three timers")

        help_text = session.sleepctl("--help").stdout
        self.assertTrue(help_text.startswith(words["usage"] + "\n"), help_text)
        self.assertIn("\n" + words["commands"] + "\n", help_text)
        unknown = session.sleepctl("bogus")
        self.assertEqual(unknown.returncode, 64)
        self.assertTrue(unknown.stderr.startswith(words["unknown"] + "\n"), unknown.stderr)
        refused = session.sleepctl("complete", UNKNOWN_TIMER)
        self.assertEqual((refused.returncode, refused.stderr), (1, "dfl-sleepctl: " + words["no_such"] + "\n"))
        listed = session.sleepctl("list").stdout
        start, _ = timers["Maya"]
        since = words["body"].format(time=clock(start), elapsed=words["one"])
        line = words.get("listed", "{name}: {since} [{state}]").format(name="Maya", since=since, state=words["running"])
        self.assertIn(line + "\n", listed)

    def test_german(self):
        self.check_language("de")

    def test_french(self):
        self.check_language("fr")

    def test_spanish(self):
        self.check_language("es")

    def test_brazilian_portuguese(self):
        self.check_language("pt_BR")

    def test_italian(self):
        self.check_language("it")


class ClockTests(unittest.TestCase):
    """AM/PM and the hour cycle follow LC_TIME, the words LC_MESSAGES and
    LANGUAGE, and GNOME's clock-format wins where it is set; read from a
    recording server."""

    def notify_body(self, session, start, **agent_env):
        server = RecordingServer(session.session, capabilities=("actions", "body", "persistence"))
        AgentProcess(session.session, extra_env=agent_env)
        client = Client(session.session)
        self.addCleanup(client.close)
        client.mirror(timer_dict(baby_name="Maya", timezone="Etc/UTC", started_at_ms=start))
        self.assertTrue(server.wait_for(lambda calls: any(c["method"] == "Notify" for c in calls)))
        return server, server.notifies()[0]

    def test_an_american_locale_has_a_twelve_hour_clock(self):
        session = LanguageSession(self, LANG="en_US.UTF-8")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual((shown["summary"], shown["body"]),
                         ("Maya is asleep", "Asleep since %s · 1 h 1 min" % clock(start, twelve_hour=True)))

    def test_the_words_follow_language_and_the_clock_lc_time(self):
        session = LanguageSession(self, LANG="en_US.UTF-8", LANGUAGE="de")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual(shown["body"], "Schläft seit %s · 1 Stunde 1 Minute" % clock(start, twelve_hour=True))

    def test_lc_time_alone_changes_the_clock(self):
        session = LanguageSession(self, LANG="en_US.UTF-8", LC_TIME="de_DE.UTF-8")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual(shown["body"], "Asleep since %s · 1 h 1 min" % clock(start))

    def test_lc_messages_alone_changes_the_words(self):
        session = LanguageSession(self, LANG="en_US.UTF-8", LC_MESSAGES="it_IT.UTF-8")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual((shown["summary"], shown["body"]),
                         ("Maya sta dormendo", "Dorme dalle %s · 1 ora e 1 minuto" % clock(start, twelve_hour=True)))

    def test_language_is_ignored_in_the_c_locale_as_glibc_does(self):
        session = LanguageSession(self, LANG="C", LANGUAGE="de")
        _, shown = self.notify_body(session, started(2))
        self.assertEqual(shown["summary"], "Maya is asleep")

    def test_language_is_honoured_in_c_utf8(self):
        session = LanguageSession(self, LANG="C.UTF-8", LANGUAGE="fr")
        _, shown = self.notify_body(session, started(2))
        self.assertEqual(shown["summary"], "Maya dort")

    def gsettings(self, session, *args):
        """The gsettings tool on the session's own settings (a key file)."""
        subprocess.run(["gsettings", *args], env=session.session.env, check=True, timeout=PATIENCE)

    def test_gnomes_clock_format_wins_and_is_followed_while_the_agent_runs(self):
        session = LanguageSession(self, LANG="es_ES.UTF-8", LANGUAGE="es", GSETTINGS_BACKEND="keyfile")
        self.gsettings(session, "set", "org.gnome.desktop.interface", "clock-format", "12h")
        start = started(61)
        server, shown = self.notify_body(session, start)
        # es_ES has no AM/PM of its own: the catalog's words stand in.
        twelve = clock(start, twelve_hour=True, am="a.\u00a0m.", pm="p.\u00a0m.")
        self.assertEqual(shown["body"], "Durmiendo desde %s · 1 hora y 1 minuto" % twelve)
        self.gsettings(session, "set", "org.gnome.desktop.interface", "clock-format", "24h")
        expected = "Durmiendo desde %s · 1 hora y 1 minuto" % clock(start)
        self.assertTrue(server.wait_for(lambda calls: any(c.get("body") == expected for c in calls)),
                        "the notification did not follow the new clock: %r" % server.notifies())

    def test_without_the_schema_the_locale_decides_and_nothing_aborts(self):
        # No schemas where XDG_DATA_DIRS points: GSettings would abort the
        # process on a missing schema, were it not looked up first.
        session = LanguageSession(self, LANG="en_US.UTF-8", GSETTINGS_BACKEND="keyfile")
        session.session.env["XDG_DATA_DIRS"] = os.path.join(session.session.root, "no-schemas-here")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual(shown["body"], "Asleep since %s · 1 h 1 min" % clock(start, twelve_hour=True))

    def test_a_clock_format_nobody_set_leaves_the_locale_outside_gnome(self):
        session = LanguageSession(self, LANG="en_US.UTF-8", GSETTINGS_BACKEND="keyfile",
                                  XDG_CURRENT_DESKTOP="XFCE")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual(shown["body"], "Asleep since %s · 1 h 1 min" % clock(start, twelve_hour=True))

    def test_in_a_gnome_session_gnomes_clock_is_followed_even_untouched(self):
        # The schema's default is 24h, which GNOME's own clock then shows.
        session = LanguageSession(self, LANG="en_US.UTF-8", GSETTINGS_BACKEND="keyfile",
                                  XDG_CURRENT_DESKTOP="ubuntu:GNOME")
        start = started(61)
        _, shown = self.notify_body(session, start)
        self.assertEqual(shown["body"], "Asleep since %s · 1 h 1 min" % clock(start))


class DconfTests(unittest.TestCase):
    """GNOME's clock-format where GNOME keeps it, in dconf: dconf-service on
    the session's bus, written with gsettings as GNOME's settings write."""

    def dconf_session(self):
        session = LanguageSession(self, LANG="en_US.UTF-8")
        if not os.path.exists(DCONF_SERVICE):
            raise AssertionError("dconf-service is needed: apt-get install dconf-service dconf-gsettings-backend")
        with open(os.path.join(session.session.services, "ca.desrt.dconf.service"), "w") as handle:
            handle.write("[D-BUS Service]\nName=ca.desrt.dconf\nExec=%s\n" % DCONF_SERVICE)
        return session

    def gsettings(self, session, value):
        subprocess.run(["gsettings", "set", "org.gnome.desktop.interface", "clock-format", value],
                       env=session.session.env, check=True, timeout=PATIENCE)

    def follow(self, session, **agent):
        """Mirrors a timer under a 24-hour setting, switches to 12 hours, and
        returns the agent once its notification followed."""
        self.gsettings(session, "24h")
        server = RecordingServer(session.session, capabilities=("actions", "body", "persistence"))
        agent = AgentProcess(session.session, **agent)
        client = Client(session.session)
        self.addCleanup(client.close)
        start = started(61)
        client.mirror(timer_dict(baby_name="Maya", timezone="Etc/UTC", started_at_ms=start))
        bodies = lambda: [c["body"] for c in server.notifies()]
        eventually(lambda: "Asleep since %s · 1 h 1 min" % clock(start) in bodies(), what="the 24-hour clock")
        self.gsettings(session, "12h")
        twelve = "Asleep since %s · 1 h 1 min" % clock(start, twelve_hour=True)
        eventually(lambda: twelve in bodies(), what="the 12-hour clock (the notification showed %r)" % bodies())
        return agent

    def test_a_change_in_dconf_reaches_the_notification(self):
        session = self.dconf_session()
        self.follow(session)

    def test_in_a_sandbox_with_a_read_only_runtime_directory_too_and_quietly(self):
        # The unit's ProtectHome=read-only keeps $XDG_RUNTIME_DIR read-only, so
        # dconf cannot write its change flag there: it reads afresh each time,
        # and its "dconf will not work properly" stays out of the journal.
        session = self.dconf_session()
        runtime = os.path.join(session.session.root, "read-only-runtime")
        os.makedirs(runtime, mode=0o700)
        if os.geteuid() == 0:
            # root writes through permissions: a read-only mount, as systemd makes.
            wrapper = ["unshare", "--mount", "sh", "-c",
                       'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$1"', runtime]
        else:
            os.chmod(runtime, 0o500)
            wrapper = []
        agent = self.follow(session, extra_env={"XDG_RUNTIME_DIR": runtime}, wrapper=wrapper)
        log = agent.log()
        self.assertIn("dconf cannot write its change flag", log)
        self.assertNotIn("dconf will not work properly", log)
        self.assertNotIn("CRITICAL", log)


class PanelTests(unittest.TestCase):
    """The panel icon in German, as a panel written from the specifications
    reads it: title, tooltip and menu."""

    def test_the_panel_icon_speaks_german(self):
        session = LanguageSession(self, LANG="de_DE.UTF-8", LANGUAGE="de")
        panel = SpecPanel(session.session)
        self.addCleanup(panel.stop)
        AgentProcess(session.session)
        client = Client(session.session)
        self.addCleanup(client.close)
        client.mirror(timer_dict(baby_name="Maya", timezone="Etc/UTC", started_at_ms=started(61)))

        def shown(events):
            properties = [e["properties"] for e in events if e["event"] == "properties"]
            layouts = [[child[1].get("label", "—") for child in e["layout"][2]] for e in events if e["event"] == "layout"]
            return properties and layouts and (properties[-1], layouts[-1])

        properties, labels = panel.wait_for(shown, "the item and its menu")
        self.assertEqual(properties["Title"], "Maya schläft")
        self.assertEqual(properties["ToolTip"][2:], ["Dreams for Littles", "Maya schläft · 1 Stunde 1 Minute"])
        self.assertEqual(labels, ["Schlaf von Maya beenden", "Schlaf von Maya öffnen", "—", "Dreams for Littles öffnen"])


class EnglishForDevelopersTests(unittest.TestCase):
    """The journal and D-Bus errors stay English whatever the language."""

    def test_log_lines_and_dbus_errors_stay_english(self):
        session = LanguageSession(self, LANG="de_DE.UTF-8", LANGUAGE="de")
        missing = os.path.join(session.session.root, "no-system-bus")
        agent = AgentProcess(session.session, extra_env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + missing})
        refused = gdbus_call(session.session, "Complete", UNKNOWN_TIMER, "0", check=False)
        self.assertIn("No Sleep timer with this id is mirrored on this desktop.", refused.stderr)
        # Also strerror's words, which libdbus puts in the log: the process
        # itself stays in the C locale.
        self.assertIn("(no system bus: Failed to connect to socket", agent.log())
        self.assertIn("No such file or directory", agent.log())

    def test_a_locale_that_is_not_installed_leaves_english_and_says_so(self):
        session = LanguageSession(self, installed=False, LANG="xx_XX.UTF-8", LANGUAGE="de")
        agent = AgentProcess(session.session)
        self.assertIn("is not installed", agent.log())
        self.assertEqual(session.sleepctl("bogus").stderr.splitlines()[0], 'dfl-sleepctl: unknown command "bogus"')


class AppInGermanTests(AppTestCase):
    """The real app under Xvfb with LANGUAGE=de: its own page, read from the
    window's DOM, and the refusal a second launch prints, come from the
    German catalog; the app's log stays English."""

    notification_server = False
    configuration_mistake = True

    def setUp(self):
        require_catalogs()
        require_locale("de_DE.UTF-8")
        super().setUp()
        self.session.env.update(LANG="de_DE.UTF-8", LANGUAGE="de", DFL_LOCALEDIR=CATALOGS)
        self.session.env.pop("LC_ALL", None)
        self.session.env.pop("LC_MESSAGES", None)

    def test_the_configuration_error_page_and_a_refused_link_speak_german_and_the_log_english(self):
        app = self.start_app()
        shown = app.wait("return document.querySelector('h1') && "
                         "[document.title, document.querySelector('h1').textContent, document.body.innerText]",
                         "the app's own page")
        title, heading, text = shown
        self.assertEqual(title, "Die Konfiguration lässt sich nicht verwenden")
        self.assertEqual(heading, "Die Konfiguration lässt sich nicht verwenden")
        self.assertIn("Korrigiere diesen Fehler in der Konfigurationsdatei und starte die App dann neu: ", text)
        # The mistake itself is the parser's, in English.
        self.assertIn(CONFIGURATION_MISTAKE_TEXT, text)

        # A second launch hands its link to the window's instance, which
        # answers on the second launch's terminal, in German.
        second = subprocess.run([APP, "javascript:alert(1)"], env=self.session.env, capture_output=True,
                                text=True, timeout=PATIENCE)
        self.assertEqual(second.returncode, 2, second.stderr)
        self.assertIn("dreamsforlittles: Der Link javascript:alert(1) lässt sich nicht öffnen. "
                      "Der Link beginnt nicht mit dreamsforlittles://.", second.stderr)
        eventually(lambda: "Refused a link: it does not start with dreamsforlittles://." in app.log(),
                   what="the refusal in the app's log, in English")
        self.assertNotIn("Der Link", app.log())


if __name__ == "__main__":
    unittest.main()
