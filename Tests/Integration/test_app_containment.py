"""What a page in the app's window can make happen on the desktop without a
person: no file written by a download, from a frame of another origin or
from the web app itself, and no program launched by a frame's or a
script's navigation, while a person's click on a link in the web app's page
still opens the browser, once. The real app and WebKitGTK under Xvfb, the
reference platform serving the demo web app, a second origin on loopback
(other_origin.py), and the real xdg-open with a browser and a mail program
registered for the test's desktop that record what they were given; and
no window brought up by a frame's print(), in the shown window or in the
hidden app, read from the X server's list of windows."""

import os
import subprocess
import time

from app_harness import APP, AppTestCase, app_windows
from dbus_client import Client
from desktop import xdotool
from harness import PATIENCE, eventually, read_until
from other_origin import ATTACHMENT, OtherOrigin
from window_close import request_close

# How long the frames keep trying: long enough for dozens of attempts.
ATTEMPTS_S = 10
# How long no new window may appear while a frame keeps calling print().
NO_WINDOW_S = 20


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


class NoWindowWithoutAPersonTests(AppTestCase):
    """A frame of another origin calls print() with no click, every 2 s, in
    the shown window and in the hidden app that a mirrored Sleep keeps
    running. Without --automation: under WebDriver WebKit never shows a
    print dialog, so only a plain app tells. Its web origin here is a second
    loopback site whose start page holds the frame; the X server's list of
    the app's visible windows is read throughout."""

    notification_server = False

    def setUp(self):
        super().setUp()
        self.other = OtherOrigin(self.platform.certs)
        self.addCleanup(self.other.close)
        self.site = OtherOrigin(self.platform.certs)
        self.addCleanup(self.site.close)
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n" % (
            self.platform.origin, os.path.join(str(self.platform.certs), "ca.pem"), self.site.origin))
        client = Client(self.session)
        self.addCleanup(client.close)
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(client, timer_id, reply)

    def visible_windows(self, pid):
        """The X server's visible top-level windows of the app's process."""
        return set(xdotool(self.session, "search", "--all", "--onlyvisible", "--maxdepth", "1", "--pid", str(pid),
                           "--name", "").stdout.split())

    def prints(self):
        return [p for p in self.other.requests() if p.startswith("/landing?print=")]

    def watch(self, pid, windows, where):
        """For NO_WINDOW_S, no visible window of the app's but `windows`,
        while the frame keeps asking to print."""
        asked = len(self.prints())
        deadline = time.monotonic() + NO_WINDOW_S
        while time.monotonic() < deadline:
            new = self.visible_windows(pid) - windows
            if new:
                names = [xdotool(self.session, "getwindowname", w).stdout.strip() for w in sorted(new)]
                self.fail("print() from a frame (%s) brought up windows: %s" % (where, names))
            time.sleep(0.25)
        self.assertGreater(len(self.prints()), asked, "the frame did not ask to print meanwhile (%s)" % where)

    def start_plain_app(self, start_page):
        """The app without WebDriver on the site's `start_page`; its pid,
        its window and its log's path."""
        self.site.start_page = start_page
        log_path = os.path.join(self.session.root, "plain-app.log")
        log = open(log_path, "w")
        self.addCleanup(log.close)
        process = subprocess.Popen([APP], env=self.session.env, stdout=log, stderr=log)
        self.session.processes.append(process)
        eventually(lambda: len(app_windows(self.session, process.pid)) == 1, what="the window")
        [window] = app_windows(self.session, process.pid)
        return process, window, log_path

    def assert_one_refusal_logged(self, log_path):
        with open(log_path) as handle:
            text = handle.read()
        self.assertEqual(text.count("Refused a print dialog"), 1, "one line per origin and minute:\n" + text)

    def test_a_frames_print_brings_up_no_window_in_the_shown_window(self):
        process, window, log_path = self.start_plain_app(
            '<p>the web app</p><iframe src="%s/frame/print"></iframe>' % self.other.origin)
        eventually(self.prints, what="the frame to call print()")
        self.watch(process.pid, {window}, "shown")
        self.assert_one_refusal_logged(log_path)

    def test_a_frames_print_brings_up_no_window_in_the_hidden_app(self):
        # The frame comes once the page is hidden: the window is closed
        # while the mirrored Sleep keeps the app running.
        process, window, log_path = self.start_plain_app(
            "<p>the web app</p><script>document.addEventListener('visibilitychange', () => {"
            "if (!document.hidden || document.querySelector('iframe')) return;"
            "const f = document.createElement('iframe'); f.src = %r; document.body.append(f); });</script>"
            % (self.other.origin + "/frame/print"))
        eventually(lambda: self.site.requests() == ["/"], what="the web app's page to load")
        request_close(self.session, window)
        eventually(lambda: self.visible_windows(process.pid) == set(), what="the window to hide")
        self.assertIsNone(process.poll(), "the app quit instead of hiding")
        eventually(self.prints, what="the frame in the hidden page to call print()")
        self.watch(process.pid, set(), "hidden")
        self.assert_one_refusal_logged(log_path)


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
