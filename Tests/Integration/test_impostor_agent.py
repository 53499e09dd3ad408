"""Whatever owns the agent's bus name while no agent does answers the app's
List: here an impostor whose one timer has a 1 MiB baby's name full of
control characters. The app holds List to the agent's own Mirror rules, so
that timer is neither announced nor keeps the app running hidden: the real
app, started in the background by D-Bus activation as the agent starts it,
quits within its grace; with its window shown, the impostor's "saved" is
not said (on Debian 12, GTK 4.8 announces nothing at all; Debian 13's GTK
is where the listener would hear it)."""

import time

import dbus

from app_harness import AppTestCase, session_app_pids
from atspi_session import AccessibilityBus
from harness import PATIENCE, eventually
from impostor_agent import Impostor
from test_app_accessible import QUIET_SECONDS
from proc_accounting import alive
from test_background import GRACE_SECONDS, application_actions, install_app_service
from test_desktop_app import ProcessHandle


class ImpostorTests(AccessibilityBus, AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        self.start_accessibility_bus()
        # No agent: it stopped, or has not started yet.
        self.agent.terminate()
        self.impostor = Impostor(self.session)
        install_app_service(self.session)

    def test_the_hidden_app_started_in_the_background_quits_within_its_grace(self):
        application_actions(self.session).ActivateAction("background", dbus.Array([], signature="v"), {})
        eventually(lambda: len(session_app_pids(self.session)) == 1, what="the app to start in the background")
        [pid] = session_app_pids(self.session)
        self.session.processes.append(ProcessHandle(pid))
        eventually(lambda: self.impostor.lists(), what="the app to ask for the list")
        eventually(lambda: not alive(pid), timeout=GRACE_SECONDS + PATIENCE,
                   what="the hidden app to quit within its grace (%d s) after the impostor's List" % GRACE_SECONDS)

    def test_a_shown_window_announces_nothing_of_the_impostors_save(self):
        app = self.start_app()
        eventually(lambda: len(app.windows()) == 1, what="the app's window")
        listener = self.listen(app.pid)
        eventually(lambda: self.impostor.lists(), what="the app to ask for the list")
        self.impostor.say_saved()
        time.sleep(QUIET_SECONDS)
        self.assertEqual(listener.collect(), [])
        self.assertTrue(alive(app.pid))
        self.assertNotIn("\x1b[2J", app.log())
