"""What a page in the app's window can make happen on the desktop without a
person: no file written by a download, from a frame of another origin or
from the web app itself, and no program launched by a frame's or a
script's navigation, while a person's click on a link in the web app's page
still opens the browser, once. The real app and WebKitGTK under Xvfb, the
reference platform serving the demo web app, a second origin on loopback
(other_origin.py), and the real xdg-open with a browser and a mail program
registered for the test's desktop that record what they were given."""

import os
import subprocess
import time

from app_harness import AppTestCase
from harness import PATIENCE, eventually, read_until
from other_origin import ATTACHMENT, OtherOrigin

# How long the frames keep trying: long enough for dozens of attempts.
ATTEMPTS_S = 10


def new_files(root, since):
    """Files under `root` changed since `since` (seconds since 1970)."""
    found = []
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            try:
                if os.lstat(path).st_mtime >= since:
                    found.append(path)
            except OSError:
                continue
    return found


def downloaded(paths):
    """The files among `paths` that a download wrote: named as the servers
    named them, a partial download, or with their content."""
    found = []
    for path in sorted(set(paths)):
        name = os.path.basename(path)
        if "drive-by" in name or "web-app-attachment" in name or name.endswith(".wkdownload"):
            found.append(path)
            continue
        try:
            with open(path, "rb") as handle:
                head = handle.read(256)
        except OSError:
            continue
        if head in (ATTACHMENT, b"a file of the web app's\n"):
            found.append(path)
    return found


class ContainmentTestCase(AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        self.other = self.other_origin()

    def other_origin(self):
        other = OtherOrigin(self.platform.certs)
        self.addCleanup(other.close)
        return other

    def add_frame(self, app, path, origin=None):
        app.js("const f = document.createElement('iframe'); f.src = arguments[0]; document.body.append(f);",
               (origin or self.other).origin + path)

    def app_log(self, app):
        return app.log()


class DownloadTests(ContainmentTestCase):
    def test_no_frame_and_not_the_web_app_itself_can_write_a_file_by_a_download(self):
        started = time.time() - 1
        # Each way from an origin of its own, so that each has its log line.
        anchor = self.other_origin()
        app = self.start_app()
        app.wait_for_page()
        page = app.url()
        self.add_frame(app, "/frame/attachment")
        self.add_frame(app, "/frame/a-download", origin=anchor)
        refused = {origin: "Refused and cancelled a download from %s" % origin
                   for origin in (self.other.origin, anchor.origin, self.platform.origin)}

        def written():
            return downloaded(new_files(self.session.home, started) + new_files("/tmp", started))

        def refused_or_written(origins):
            """Waits until each origin's download is refused, or a file is
            written; a timeout names the origins not refused."""
            def not_refused():
                log = self.app_log(app)
                return [origin for origin in origins if refused[origin] not in log]
            try:
                eventually(lambda: written() or not not_refused())
            except AssertionError:
                raise AssertionError("the downloads to be refused or written; not refused: %s"
                                     % ", ".join(not_refused())) from None

        # The frames' downloads first: the page's own navigation below
        # stops its frames' loads, and with them a download not yet begun.
        refused_or_written((self.other.origin, anchor.origin))
        app.js("location.href = '/demo/attachment?secret=own'")
        eventually(lambda: self.requests("GET", "/demo/attachment"), what="the web app's own download to be asked for")
        refused_or_written(refused)
        self.assertEqual(written(), [], "a download wrote files")
        log = self.app_log(app)
        for line in refused.values():
            self.assertEqual(log.count(line), 1, line)
        self.assertNotIn("secret", log)  # the URL's path and query are never logged
        self.assertEqual(app.url(), page)


class LaunchTests(ContainmentTestCase):
    def setUp(self):
        super().setUp()
        self.opened = register_handlers(self)

    def launches(self):
        try:
            with open(self.opened) as handle:
                return handle.read().split()
        except FileNotFoundError:
            return []

    def test_frames_and_scripts_launch_nothing_and_a_persons_click_launches_once(self):
        app = self.start_app()
        app.wait_for_page()
        page = app.url()
        # A person's click on a link in the top frame, whose page also
        # calls window.open for it: one click, one launch.
        clicked = self.other.origin + "/landing?clicked"
        app.js("const a = document.createElement('a'); a.id = 'elsewhere'; a.href = arguments[0];"
               "a.textContent = 'elsewhere'; a.style.display = 'block';"
               "a.addEventListener('click', () => window.open(arguments[0]));"
               "document.body.prepend(a);", clicked)
        app.click("#elsewhere")
        eventually(lambda: self.launches() == [clicked], what="the browser to get the clicked link")

        # Frames of another origin: one navigates the top every 250 ms, one
        # adds mailto: frames every 250 ms.
        self.add_frame(app, "/frame/top")
        self.add_frame(app, "/frame/mailto")
        time.sleep(ATTEMPTS_S)
        attempts = [p for p in self.other.requests() if p.startswith("/landing?n=")]
        self.assertGreater(len(attempts), 5, "the frame's navigations did not happen")
        self.assertEqual(self.launches(), [clicked], "a frame launched a program, or the click did twice")
        log = self.app_log(app)
        self.assertEqual(log.count("in the default browser"), 1, log)
        dropped = "Refused to leave the app for %s" % self.other.origin
        self.assertEqual(log.count(dropped), 1, "one line per origin and minute")
        self.assertEqual(log.count("Refused to leave the app for mailto:"), 1)
        self.assertNotIn("victim", log)
        # The frames go, and their navigations with them. A busy machine
        # once gave the address of a navigation still on its way (its
        # response is refused) as the window's: the window's page is read
        # until no navigation is pending, and then from the document.
        app.js("document.querySelectorAll('iframe').forEach(f => f.remove())")
        read_until(app.url, lambda url: url == page, "the window to show the web app's page, not a frame's "
                   "navigation")
        self.assertEqual(app.js("return location.href"), page)
        self.assertEqual(len(app.windows()), 1)


def register_handlers(test):
    """The test desktop's default browser and mail program: one .desktop
    file for http, https and mailto whose Exec appends the URL to a file,
    which xdg-open finds through mimeapps.list. Returns that file."""
    session = test.session
    data = os.path.join(session.root, "xdg-data")
    os.makedirs(os.path.join(data, "applications"))
    opened = os.path.join(session.root, "launched")
    recorder = os.path.join(session.root, "handler")
    with open(recorder, "w") as handle:
        handle.write('#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' % opened)
    os.chmod(recorder, 0o755)
    schemes = ("http", "https", "mailto")
    with open(os.path.join(data, "applications", "test-handler.desktop"), "w") as handle:
        handle.write("[Desktop Entry]\nType=Application\nName=Test handler\nExec=%s %%u\nMimeType=%s\n" % (
            recorder, "".join("x-scheme-handler/%s;" % s for s in schemes)))
    subprocess.run(["update-desktop-database", os.path.join(data, "applications")], check=True, timeout=PATIENCE)
    with open(os.path.join(session.env["XDG_CONFIG_HOME"], "mimeapps.list"), "w") as handle:
        handle.write("[Default Applications]\n" + "".join(
            "x-scheme-handler/%s=test-handler.desktop\n" % s for s in schemes))
    session.env["XDG_DATA_DIRS"] = data + ":/usr/local/share:/usr/share"
    return opened
