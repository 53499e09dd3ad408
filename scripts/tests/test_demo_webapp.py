"""Tests of the demo web app the reference platform serves with --webapp
(scripts/demo_webapp.py): its files and routes over TLS, the demo sign-in,
and what it refuses.

    python3 -m unittest discover -s scripts/tests -v
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import unittest
import uuid

from platform_harness import REPO_ROOT, SERVER_SCRIPT, PlatformProcess, make_certs

WEBAPP = REPO_ROOT / "webapp" / "demo"
FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"


class DemoWebAppTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.certificates = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.certificates.cleanup)
        certs = make_certs(cls.certificates.name)
        cls.platform = PlatformProcess(certs=certs, fixtures="demo", extra_args=("--webapp", str(WEBAPP))).start()
        cls.addClassCleanup(cls.platform.stop)

    def get(self, path: str):
        return self.platform.api("GET", path, headers={"Accept": "*/*"})

    def test_the_start_page_and_the_sleep_route_are_the_same_page_with_a_content_security_policy(self):
        start = self.get("/")
        route = self.get(f"/families/{FAMILY}/babies/b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21/track/sleep?timer=x")
        self.assertEqual((start.status, route.status), (200, 200))
        self.assertEqual(start.body, route.body)
        self.assertEqual(start.headers["Content-Type"], "text/html; charset=utf-8")
        self.assertIn("default-src 'self'", start.headers["Content-Security-Policy"])
        self.assertNotIn(b"<script>", start.body, "an inline script would be refused by the page's own policy")

    def test_the_page_imports_the_real_client_from_the_repository(self):
        client = self.get("/demo/client/dfl-webview-bridge-client.mjs")
        self.assertEqual(client.status, 200)
        self.assertEqual(client.body, (REPO_ROOT / "Sources" / "WebViewBridgeJS" / "dfl-webview-bridge-client.mjs").read_bytes())
        self.assertEqual(client.headers["Content-Type"], "text/javascript; charset=utf-8")
        self.assertIn(b"/demo/client/dfl-webview-bridge-client.mjs", self.get("/demo/app.mjs").body)

    def test_files_outside_the_web_app_are_not_served(self):
        for path in ("/demo/../reference_platform.py", "/demo/%2e%2e/reference_platform.py", "/demo/client/../../README.md",
                     "/demo/no-such-file.css", "/demo/"):
            self.assertEqual(self.get(path).status, 404, path)

    def test_the_change_feed_answers_a_waiting_page_when_a_timer_changes(self):
        """The stand-in for the platform's realtime updates: a page waiting on
        the version it has seen hears the next one when a timer is upserted."""
        seen = self.get("/demo/timer-changes/-1")
        self.assertEqual(seen.status, 200)
        self.assertEqual(seen.headers["Cache-Control"], "no-store")
        version = seen.json["version"]
        answers = []
        waiting = threading.Thread(target=lambda: answers.append(self.get("/demo/timer-changes/%d" % version)))
        waiting.start()
        parent = self.platform.api("POST", "/demo/sign-in", {"as": "parent"}).json
        body = {"familySubjectId": FAMILY, "babyId": parent["babies"][0]["id"], "activityType": "sleep",
                "startedAt": "2026-01-01T19:00:00Z", "timezone": "UTC", "details": {}, "note": None}
        upserted = self.platform.api("PUT", "/active-timers/%s" % uuid.uuid4(), body, token=parent["accessToken"])
        self.assertIn(upserted.status, (200, 201), upserted.body)
        waiting.join(timeout=60)
        self.assertEqual(len(answers), 1, "the waiting request was not answered")
        self.assertEqual(answers[0].status, 200)
        self.assertGreater(answers[0].json["version"], version)

    def test_the_change_feed_takes_only_a_version(self):
        for path in ("/demo/timer-changes/", "/demo/timer-changes/x", "/demo/timer-changes/-2",
                     "/demo/timer-changes/1/2"):
            self.assertEqual(self.get(path).status, 404, path)

    def test_the_demo_sign_in_gives_the_parent_and_the_coach_of_the_demo_family(self):
        parent = self.platform.api("POST", "/demo/sign-in", {"as": "parent"})
        coach = self.platform.api("POST", "/demo/sign-in", {"as": "coach"})
        self.assertEqual((parent.status, coach.status), (200, 200))
        self.assertEqual((parent.json["mode"], coach.json["mode"]), ("self", "coach"))
        self.assertEqual(parent.json["familySubjectId"], FAMILY)
        self.assertEqual([baby["name"] for baby in parent.json["babies"]], ["Maya", "Leo"])
        summary = self.platform.api("GET", f"/active-timers?familySubjectId={FAMILY}", token=parent.json["accessToken"])
        self.assertEqual(summary.status, 200)
        self.assertEqual(self.platform.api("POST", "/demo/sign-in", {"as": "admin"}).status, 400)

    def test_the_pages_load_event_is_kept_in_the_request_log(self):
        self.assertEqual(self.platform.api("POST", "/demo/events", raw=b"loaded").status, 204)
        events = [r for r in self.platform.control_json("GET", "/control/requests")["requests"]
                  if r["path"] == "/demo/events"]
        self.assertTrue(events and events[-1]["arrivalNs"] > 0)

    def test_without_webapp_the_api_has_no_pages(self):
        with tempfile.TemporaryDirectory() as directory:
            plain = PlatformProcess(certs=make_certs(directory), fixtures="demo").start()
            try:
                self.assertEqual(plain.api("GET", "/", headers={"Accept": "*/*"}).status, 404)
            finally:
                plain.stop()

    def test_webapp_needs_the_demo_fixtures(self):
        result = subprocess.run([sys.executable, str(SERVER_SCRIPT), "--webapp", str(WEBAPP)], capture_output=True,
                                text=True, timeout=30)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--webapp needs --fixtures demo", result.stderr)


if __name__ == "__main__":
    unittest.main()
