"""The base classes of the integration tests, by what a test needs:

- AgentTestCase: a private session with the agent running (or, with
  `start_agent = False`, started by the test): the agent's own calls,
  limits and store.
- PlatformTestCase: a session, the reference platform with the demo family
  and the agent configured for it; `start_agent()` and `new_timer()`:
  completions, the platform's answers and faults.
- app_harness.AppTestCase (a PlatformTestCase-like session under Xvfb with
  the app, its bridge and a notification server): the desktop app.

Desktop tests (GNOME Shell, Plasma, XFCE, a panel) build on these with the
helpers of desktop.py, gnome_shell.py and sni_panel.py."""

import unittest

from processes import AgentProcess
from reference_platform import MAYA, Platform
from session import Session


class PlatformTestCase(unittest.TestCase):
    """A session with the reference platform, the agent configured for it
    (plus `extra_config`, more lines of sleep-agent.conf)."""

    extra_config = ""
    # The platform's environment (None: the tests' own).
    platform_env = None
    # False: the platform speaks plain http on loopback.
    platform_tls = True

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.platform = Platform(self.session, env=self.platform_env, tls=self.platform_tls)
        self.addCleanup(self.platform.stop)
        self.platform.configure(self.extra_config)
        self.agent = None
        self.client = None

    def start_agent(self, **env):
        """The agent (again), and a python3-dbus client that follows it."""
        from dbus_client import Client
        self.agent = AgentProcess(self.session, extra_env=env)
        if self.client is None:
            self.client = Client(self.session)
            self.addCleanup(self.client.close)
        return self.agent

    def new_timer(self, baby=MAYA):
        """A Sleep timer started on the platform and mirrored with its token:
        (timer id, token, the platform's reply)."""
        timer_id, reply = self.platform.start_sleep(baby=baby)
        token = self.platform.mirror(self.client, timer_id, reply, baby=baby)
        return timer_id, token, reply

    def timer(self, timer_id):
        return next((t for t in self.client.list() if t["timer_id"] == timer_id), None)

    def state(self, timer_id):
        return (self.timer(timer_id) or {}).get("state")

    def activities_of(self, timer_id):
        return [a for a in self.platform.activities() if a["timerId"] == timer_id]


class AgentTestCase(unittest.TestCase):
    """A session with a running agent for each test."""

    start_agent = True

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        if self.start_agent:
            self.agent = AgentProcess(self.session)
