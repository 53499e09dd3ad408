"""The desktops' searches the agent answers: GNOME Shell's search provider
(org.gnome.Shell.SearchProvider2) and KRunner's runner (org.kde.krunner1),
on the agent's connection under its own name, against the reference
platform over TLS, with a recording notification server on the bus."""

import time
import unittest
import uuid

import dbus

from dbus_client import plain
from harness import BUS_NAME, LEO, PATIENCE, eventually
import test_notifications

GNOME_PATH = "/com/dreamsforlittles/DreamsForLittles/SearchProvider"
GNOME = "org.gnome.Shell.SearchProvider2"
KRUNNER_PATH = "/com/dreamsforlittles/DreamsForLittles/KRunner"
KRUNNER = "org.kde.krunner1"
ERROR = "com.dreamsforlittles.SleepTimers1.Error."


def plain_all(value):
    """`plain`, structures (KRunner's matches and actions) as lists too."""
    if isinstance(value, (dbus.Struct, dbus.Array, list, tuple)):
        return [plain_all(v) for v in value]
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain_all(v) for k, v in value.items()}
    if isinstance(value, dbus.Double):
        return float(value)
    return plain(value)


class SearchProviderTests(test_notifications.RecordedTestCase):
    def setUp(self):
        super().setUp()
        self.replies = []
        # GNOME Shell calls without starting anything (AutoStart=false):
        # the agent is already running, as the harness started it.
        gnome = self.client.bus.get_object(BUS_NAME, GNOME_PATH, introspect=False)
        self.gnome = dbus.Interface(gnome, GNOME)
        runner = self.client.bus.get_object(BUS_NAME, KRUNNER_PATH, introspect=False)
        self.runner = dbus.Interface(runner, KRUNNER)

    def call(self, method, *args):
        """A call whose reply is kept, to look for the token in every one."""
        reply = plain_all(method(*args))
        self.replies.append(repr(reply))
        return reply

    def refusal(self, method, *args):
        with self.assertRaises(dbus.DBusException) as raised:
            method(*args)
        self.replies.append(raised.exception.get_dbus_message())
        return raised.exception

    def assert_no_token(self, token):
        self.assertTrue(self.replies)
        for reply in self.replies:
            self.assertNotIn(token, reply)
        self.assertNotIn(token, self.agent.log())

    def opened(self, count=1):
        eventually(lambda: len(self.session.opened_urls()) >= count, PATIENCE,
                   "%d opened link(s); the agent's log:\n%s" % (count, self.agent.log()))
        return self.session.opened_urls()

    # GNOME Shell

    def test_gnome_finds_the_running_sleep_by_name_and_by_a_search_word(self):
        timer_id, token, _ = self.start_timer()
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["maya"]), [timer_id])
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["sleep"]), [timer_id])
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["Ma", "asl"]), [timer_id])
        self.assertEqual(self.call(self.gnome.GetSubsearchResultSet, [timer_id], ["maya"]), [timer_id])
        [meta] = self.call(self.gnome.GetResultMetas, [timer_id])
        self.assertEqual(meta, {"id": timer_id, "name": "Maya asleep", "description": "1 h 23 min",
                                "gicon": "com.dreamsforlittles.DreamsForLittles"})
        self.assert_no_token(token)

    def test_gnome_finds_nothing_for_an_unrelated_term_or_one_letter(self):
        _, token, _ = self.start_timer()
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["firefox"]), [])
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["m"]), [])
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, dbus.Array([], signature="s")), [])
        self.assertEqual(self.call(self.gnome.GetSubsearchResultSet, ["not-an-id"], ["maya"]), [])
        self.assert_no_token(token)

    def test_gnome_finds_nothing_with_no_timer(self):
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["sleep"]), [])
        self.assertEqual(self.call(self.gnome.GetResultMetas, [str(uuid.uuid4())]), [])

    def test_gnome_finds_every_running_sleep_in_the_list_order(self):
        first, _, _ = self.start_timer()
        second, _, _ = self.start_timer(baby=LEO, baby_name="Léo")
        listed = [t["timer_id"] for t in self.client.list()]
        self.assertEqual(sorted(listed), sorted([first, second]))
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["sleep"]), listed)
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["leo"]), [second])
        metas = self.call(self.gnome.GetResultMetas, [second, first])
        self.assertEqual([m["name"] for m in metas], ["Léo asleep", "Maya asleep"])

    def test_gnome_activating_a_result_opens_its_route(self):
        timer_id, token, _ = self.start_timer()
        self.call(self.gnome.ActivateResult, timer_id, ["maya"], dbus.UInt32(0))
        self.assertEqual(self.opened(), [self.client.list()[0]["deep_link"]])
        self.assert_no_token(token)

    def test_gnome_launch_search_opens_the_app_at_its_start(self):
        self.start_timer()
        self.call(self.gnome.LaunchSearch, ["maya"], dbus.UInt32(0))
        [home] = self.opened()
        self.assertEqual(home, self.client.list()[0]["deep_link"].split("://", 1)[0] + "://")

    def test_gnome_refuses_an_unknown_result_and_wrong_arguments_and_changes_nothing(self):
        timer_id, token, _ = self.start_timer()
        before = self.client.list()
        unknown = self.refusal(self.gnome.ActivateResult, str(uuid.uuid4()), ["maya"], dbus.UInt32(0))
        self.assertEqual(unknown.get_dbus_name(), ERROR + "UnknownTimer")
        malformed = self.refusal(self.gnome.ActivateResult, "maya", ["maya"], dbus.UInt32(0))
        self.assertEqual(malformed.get_dbus_name(), ERROR + "InvalidArgument")
        wrong = self.refusal(self.gnome.GetInitialResultSet, "maya")
        self.assertEqual(wrong.get_dbus_name(), "org.freedesktop.DBus.Error.InvalidArgs")
        time.sleep(0.5)
        self.assertEqual(self.session.opened_urls(), [])
        self.assertEqual(self.client.list(), before)
        self.assert_no_token(token)

    def test_activations_share_the_callers_allowance_of_opens(self):
        """ActivateResult and KRunner's Run open as the bus's Open does: a
        burst of three for a caller, then one a second."""
        timer_id, _, _ = self.start_timer()
        started = time.monotonic()
        for _ in range(20):
            self.gnome.ActivateResult(timer_id, ["maya"], dbus.UInt32(0))
            self.runner.Run(timer_id, "")
        # Answered in order on one connection: every call before has been handled.
        self.gnome.GetInitialResultSet(["maya"])
        elapsed = time.monotonic() - started
        self.opened()
        time.sleep(1)
        count = len(self.session.opened_urls())
        # One more for each second the calls took, and one for the caller's
        # identification answered after the last of them.
        self.assertLessEqual(count, 3 + int(elapsed) + 1, "%d opens for 40 calls in %.1f s" % (count, elapsed))
        self.assertIn("Refused Open from", self.agent.log())

    # KRunner

    def test_krunner_matches_the_sleep_with_its_complete_action(self):
        timer_id, token, _ = self.start_timer()
        self.assertEqual(self.call(self.runner.Actions), [["complete", "Complete", "dialog-ok-apply"]])
        [match] = self.call(self.runner.Match, "maya")
        self.assertEqual(match, [timer_id, "Maya asleep", "com.dreamsforlittles.DreamsForLittles", 100, 1.0,
                                 {"subtext": "1 h 23 min", "actions": ["complete"]}])
        [partial] = self.call(self.runner.Match, "may sle")
        self.assertEqual(partial[3:5], [70, 0.7])
        self.assertEqual(self.call(self.runner.Match, "firefox"), [])
        self.assertEqual(self.call(self.runner.Match, "m"), [])
        self.call(self.runner.Teardown)
        self.assert_no_token(token)

    def test_krunner_complete_makes_exactly_one_activity_when_run_three_times(self):
        timer_id, token, _ = self.start_timer()
        self.call(self.runner.Run, timer_id, "complete")
        for _ in range(2):
            again = self.refusal(self.runner.Run, timer_id, "complete")
            self.assertIn(again.get_dbus_name(), (ERROR + "CannotComplete", ERROR + "UnknownTimer"))
        self.platform.wait_for_activities(1)
        time.sleep(1)
        self.assertEqual([a["timerId"] for a in self.platform.activities()], [timer_id])
        # A completed Sleep is found no more.
        self.assertEqual(self.call(self.runner.Match, "maya"), [])
        self.assertEqual(self.call(self.gnome.GetInitialResultSet, ["maya"]), [])
        self.assert_no_token(token)

    def test_krunner_default_action_opens_the_route(self):
        timer_id, _, _ = self.start_timer()
        self.call(self.runner.Run, timer_id, "")
        self.assertEqual(self.opened(), [self.client.list()[0]["deep_link"]])

    def test_krunner_refuses_a_bogus_match_or_action_and_changes_nothing(self):
        timer_id, token, _ = self.start_timer()
        before = self.client.list()
        for match_id, action, error in [(str(uuid.uuid4()), "complete", "UnknownTimer"),
                                        ("maya", "complete", "InvalidArgument"),
                                        (str(uuid.uuid4()), "", "UnknownTimer"),
                                        (timer_id, "delete", "InvalidArgument")]:
            refused = self.refusal(self.runner.Run, match_id, action)
            self.assertEqual(refused.get_dbus_name(), ERROR + error, (match_id, action))
        time.sleep(1)
        self.assertEqual(self.platform.activities(), [])
        self.assertEqual(self.session.opened_urls(), [])
        self.assertEqual(self.client.list(), before)
        self.assert_no_token(token)


if __name__ == "__main__":
    unittest.main()
