"""Where the agent's and the bridge's requests go is theirs to decide: with
every proxy variable pointing at a recording proxy and SSLKEYLOGFILE set,
the agent's completion and the bridge's upsert go straight to the platform,
the proxy sees nothing and no key log is written; the proxy of
`[platform] proxy=` is used, and only for https."""

import os
import unittest

import dbus

from harness import DEMO_FAMILY, PlatformTestCase, eventually
from recording_network import RecordingProxy
from test_webview_bridge import Bridge, sleep_timer

PROXY_VARIABLES = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy")


class NetworkEnvironmentTestCase(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.proxy = RecordingProxy()
        self.addCleanup(self.proxy.close)
        self.key_log = os.path.join(self.session.root, "tls-keys.log")

    def hostile_environment(self):
        """What any process of the user can put into the session's
        environment."""
        environment = {name: self.proxy.url for name in PROXY_VARIABLES}
        environment["SSLKEYLOGFILE"] = self.key_log
        return environment

    def complete(self, timer_id):
        """Completes a timer and waits until it is done, or until the proxy
        has been sent something (then it would never be done)."""
        self.client.timers.Complete(timer_id, dbus.Int64(0))
        eventually(lambda: self.timer(timer_id) is None or self.proxy.requests(), what="the completion")

    def start_bridge(self, environment=None):
        self.session.env.update(environment or {})
        bridge = Bridge(self.session)
        self.addCleanup(lambda: bridge.process.poll() is None and bridge.close())
        bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": self.platform.parent["id"],
            "accessToken": self.platform.parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        return bridge

    def upsert(self, bridge):
        """A Sleep timer upserted (and mirrored) through the bridge."""
        timer = sleep_timer()
        answer = bridge.call("sleepTimer.upsert", {"timer": timer})
        self.assertNotIn("error", answer, "the upsert failed (the proxy saw %r)" % self.proxy.requests())
        self.assertEqual(answer["result"]["native"], {"mirrored": True, "reason": "mirrored"})
        return timer["id"]


class ProxyVariablesTests(NetworkEnvironmentTestCase):
    def test_the_agents_completion_ignores_the_proxy_variables_and_writes_no_key_log(self):
        self.start_agent(**self.hostile_environment())
        timer_id, token, _ = self.new_timer()
        self.complete(timer_id)
        self.assertEqual(self.proxy.requests(), [], "the completion went through the environment's proxy")
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.assertFalse(os.path.exists(self.key_log), "the agent wrote its TLS secrets to SSLKEYLOGFILE")
        log = self.agent.log()
        self.assertIn("Ignored http_proxy, HTTP_PROXY, https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, SSLKEYLOGFILE", log)
        self.assertNotIn(self.proxy.url, log)

    def test_sslkeylogfile_alone_makes_no_key_log(self):
        self.start_agent(SSLKEYLOGFILE=self.key_log)
        timer_id, _, _ = self.new_timer()
        self.complete(timer_id)
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.assertFalse(os.path.exists(self.key_log), "the agent wrote its TLS secrets to SSLKEYLOGFILE")

    def test_the_bridges_upsert_ignores_the_proxy_variables_and_writes_no_key_log(self):
        self.start_agent()
        bridge = self.start_bridge(self.hostile_environment())
        timer_id = self.upsert(bridge)
        self.assertEqual(self.proxy.requests(), [], "the upsert went through the environment's proxy")
        self.assertEqual([r["path"] for r in self.platform.requests() if r["method"] == "PUT"],
                         ["/active-timers/" + timer_id])
        self.assertFalse(os.path.exists(self.key_log), "the bridge wrote its TLS secrets to SSLKEYLOGFILE")
        self.assertNotIn(self.platform.parent["accessToken"], bridge.log())

    def test_a_configured_proxy_is_used_for_the_agent_and_the_bridge_whatever_no_proxy_says(self):
        self.platform.configure(platform_extra="proxy=%s\n" % self.proxy.url)
        bypass = {"no_proxy": "*", "NO_PROXY": "*"}
        self.start_agent(**bypass)
        timer_id, _, _ = self.new_timer()
        self.complete(timer_id)
        eventually(lambda: self.timer(timer_id) is None, what="the completion through the proxy")
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        target = "CONNECT %s HTTP/1.1" % self.platform.origin[len("https://"):]
        self.assertEqual(self.proxy.requests(), [target])
        bridge = self.start_bridge(bypass)
        self.upsert(bridge)
        self.assertEqual(self.proxy.requests(), [target, target])
        # The proxy saw a tunnel, nothing inside it.
        self.assertNotIn(b"actionToken", self.proxy.received())


class PlainHTTPProxyTests(NetworkEnvironmentTestCase):
    """A plain http platform on loopback, which the agent allows: through a
    proxy, its requests would hand the token over in clear."""

    platform_tls = False

    def test_http_proxy_never_sees_a_plain_http_completion(self):
        self.start_agent(**self.hostile_environment())
        timer_id, token, _ = self.new_timer()
        self.complete(timer_id)
        self.assertNotIn(token.encode(), self.proxy.received(), "the token went to the proxy in clear")
        self.assertEqual(self.proxy.requests(), [])
        self.assertEqual(len(self.activities_of(timer_id)), 1)

    def test_a_configured_proxy_is_not_used_for_plain_http(self):
        self.platform.configure(platform_extra="proxy=%s\n" % self.proxy.url)
        self.start_agent()
        timer_id, _, _ = self.new_timer()
        self.complete(timer_id)
        self.assertEqual(self.proxy.requests(), [])
        self.assertEqual(len(self.activities_of(timer_id)), 1)


if __name__ == "__main__":
    unittest.main()
