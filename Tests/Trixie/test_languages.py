"""Languages on Debian 13: glibc 2.41 reads C.UTF-8 as "C" and so ignores
LANGUAGE there (2.36, Debian 12's, does not). A German desktop whose LANG
is C.UTF-8 still gets German from the installed programs, through the
catalogs the package installs, because the programs take the messages from
an installed UTF-8 locale (the root has locales-all). Plain C stays
English, as glibc intends."""

import os
import subprocess
import unittest

from harness import AGENT, BUILD, PATIENCE, SLEEPCTL

APP = os.path.join(BUILD, "dreamsforlittles")


def run(program, *args, **env):
    """A program with only the variables of a minimal session, the
    languages' among them."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"), **env}
    return subprocess.run([program, *args], env=environment, capture_output=True, text=True, timeout=PATIENCE)


class GermanUnderCUTF8Tests(unittest.TestCase):
    def test_glibc_ignores_language_under_c_utf8_here(self):
        """Why the programs must help: gettext itself answers English."""
        if not os.path.exists("/usr/bin/gettext"):
            raise AssertionError("/usr/bin/gettext is needed: apt-get install gettext-base")
        shown = run("/usr/bin/gettext", "-d", "dreamsforlittles", "Usage: {synopsis}", LANGUAGE="de", LANG="C.UTF-8")
        self.assertEqual(shown.stdout, "Usage: {synopsis}")

    def test_the_agents_help_is_german(self):
        shown = run(AGENT, "--help", LANGUAGE="de", LANG="C.UTF-8")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertTrue(shown.stdout.startswith("Aufruf: dfl-sleep-agent"), shown.stdout)

    def test_dfl_sleepctl_is_german(self):
        shown = run(SLEEPCTL, "--help", LANGUAGE="de", LANG="C.UTF-8")
        self.assertTrue(shown.stdout.startswith("Aufruf: dfl-sleepctl COMMAND [OPTIONS]\n"), shown.stdout)
        self.assertIn("\nBefehle:\n", shown.stdout)
        unknown = run(SLEEPCTL, "bogus", LANGUAGE="de", LANG="C.UTF-8")
        self.assertEqual(unknown.returncode, 64)
        self.assertTrue(unknown.stderr.startswith("dfl-sleepctl: unbekannter Befehl „bogus“\n"), unknown.stderr)

    def test_the_whole_list_is_followed(self):
        """The first language without a catalog gives way to the next."""
        shown = run(SLEEPCTL, "--help", LANGUAGE="sv:fr", LANG="C.UTF-8")
        self.assertIn("\nCommandes\u00a0:\n", shown.stdout)

    def test_the_apps_help_is_german(self):
        shown = run(APP, "--help", LANGUAGE="de", LANG="C.UTF-8")
        self.assertTrue(shown.stdout.startswith("Aufruf: dreamsforlittles"), shown.stdout + shown.stderr)

    def test_plain_c_stays_english(self):
        shown = run(SLEEPCTL, "--help", LANGUAGE="de", LANG="C")
        self.assertTrue(shown.stdout.startswith("Usage: dfl-sleepctl COMMAND [OPTIONS]\n"), shown.stdout)


if __name__ == "__main__":
    unittest.main()
