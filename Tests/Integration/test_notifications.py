"""The agent's notifications on real notification servers under Xvfb:
xfce4-notifyd (real buttons, broadcast signals) and dunst (no buttons,
signals only to the poster), with the reference platform behind Complete.
A recording server on the same bus checks exact content and timing."""

import json
import os
import signal
import subprocess
import time
import unittest

import dbus

from dbus_client import Client
from desktop import BusMonitor, Display, Dunst, RecordingServer, XfceNotifyd, icon_pixels, xdotool, wait_for_name
from display_text import elapsed_minutes
from harness import (ARTIFACTS, DEMO_FAMILY, INTERFACE, LEO, PATIENCE, AgentProcess, PlatformTestCase, Session,
                     eventually, iso_ms, next_minute_ms, read_until, sleep_until_ms, timer_dict)



class DesktopTestCase(PlatformTestCase):
    server_class = None

    def setUp(self):
        super().setUp()
        self.display = Display(self.session)
        self.server = self.server_class(self.session)
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def start_timer(self, baby_name="Maya", baby=None):
        timer_id, reply = self.platform.start_sleep(**({"baby": baby} if baby else {}))
        token = self.platform.mirror(self.client, timer_id, reply, baby_name=baby_name, **({"baby": baby} if baby else {}))
        return timer_id, token

    def timer(self, timer_id):
        return next((t for t in self.client.list() if t["timer_id"] == timer_id), None)

    def screenshot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        return self.display.screenshot(self.session, os.path.join(ARTIFACTS, name))

    def assertCompletedOnce(self, timer_id):
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual(activity["timerId"], timer_id)
        self.assertEqual(activity["source"], "native")
        eventually(lambda: self.timer(timer_id) is None, what="the timer to leave the list")
        self.assertTrue(self.client.wait_for(lambda: ("CompletionFinished", [timer_id, "created", activity["id"]])
                                             in self.client.signals))
        time.sleep(0.5)
        self.assertEqual(len(self.platform.activities()), 1)


class XfceTests(DesktopTestCase):
    server_class = XfceNotifyd

    def popups(self):
        return xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()

    def press(self, window, tabs):
        """Invokes the action at position `tabs` of the popup's buttons: the
        first has the focus, Tab moves on, Return invokes."""
        xdotool(self.session, "windowfocus", "--sync", window)
        for _ in range(tabs):
            xdotool(self.session, "key", "--window", window, "Tab")
        xdotool(self.session, "key", "--window", window, "Return")

    def geometry(self, window):
        return {key: int(value) for key, value in (line.split("=") for line in
                xdotool(self.session, "getwindowgeometry", "--shell", window).stdout.split()) if key in "XYWIDTHEIGHT"}

    def click_body(self, window):
        geometry = self.geometry(window)
        xdotool(self.session, "mousemove", str(geometry["X"] + 20), str(geometry["Y"] + 12))
        xdotool(self.session, "click", "1")

    def test_the_popup_shows_the_apps_icon(self):
        """The icon named in Notify is found in the session's hicolor theme,
        as the package installs it: the popup draws its navy, where a
        missing-icon picture would be grey and red."""
        self.start_timer()
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        window = self.popups()[0]
        geometry = self.geometry(window)
        popup = "%dx%d+%d+%d" % (geometry["WIDTH"], geometry["HEIGHT"], geometry["X"], geometry["Y"])
        # The popup fades in: the screen is read until the icon is drawn
        # (the last screenshot stays at `shot`).
        shot = os.path.join(ARTIFACTS, "xfce4-notifyd-icon.png")
        read_until(lambda: icon_pixels(self.screenshot("xfce4-notifyd-icon.png"), popup), lambda navy: navy > 400,
                   "the popup to draw over 400 pixels of the icon's navy")
        # The README's picture of the notification.
        subprocess.run(["convert", shot, "-crop", popup, "+repage",
                        os.path.join(ARTIFACTS, "notification-xfce4-notifyd.png")], check=True, timeout=PATIENCE)

    def test_complete_gives_exactly_one_activity(self):
        timer_id, _ = self.start_timer()
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        self.screenshot("xfce4-notifyd-running.png")
        self.press(self.popups()[0], tabs=1)
        self.assertCompletedOnce(timer_id)
        self.screenshot("xfce4-notifyd-saved.png")

    def test_the_default_action_opens_the_deep_link(self):
        timer_id, _ = self.start_timer()
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        self.press(self.popups()[0], tabs=0)
        eventually(lambda: self.session.opened_urls(), what="the opener to run")
        self.assertEqual(self.session.opened_urls(), [self.timer(timer_id)["deep_link"]])
        self.assertEqual(self.platform.activities(), [])

    def test_replace_in_place_keeps_the_id(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, baby_name="Maya")
        eventually(lambda: len(monitor.notify_calls()) == 1 and "id" in monitor.notify_calls()[0], what="the first Notify")
        reply["timer"]["revision"] += 1
        self.platform.mirror(self.client, timer_id, reply, baby_name="Maya Rose")
        eventually(lambda: len(monitor.notify_calls()) == 2 and "id" in monitor.notify_calls()[1], what="the update")
        first, second = monitor.notify_calls()
        self.assertEqual(first["replaces_id"], 0)
        self.assertEqual(second["replaces_id"], first["id"])
        self.assertEqual(second["id"], first["id"])
        self.assertEqual(second["summary"], "Maya Rose is asleep")
        self.assertEqual(len(self.popups()), 1)

    def test_dismissal_is_honoured_until_the_timer_changes(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply)
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        self.click_body(self.popups()[0])
        eventually(lambda: self.timer(timer_id)["notification"] == "dismissed", what="the dismissal")
        self.assertEqual(self.popups(), [])
        self.platform.mirror(self.client, timer_id, reply)  # the same state again: stays away
        time.sleep(1)
        self.assertEqual(self.popups(), [])
        self.assertEqual(self.timer(timer_id)["state"], "running")
        reply["timer"]["revision"] += 1
        self.platform.mirror(self.client, timer_id, reply)  # changed: shown again
        eventually(lambda: len(self.popups()) == 1, what="the popup to return")
        self.assertEqual(self.timer(timer_id)["notification"], "shown")

    def test_a_name_with_markup_is_sent_as_plain_summary_text(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        self.start_timer(baby_name="<b>Leo</b> & Co")
        eventually(lambda: monitor.notify_calls(), what="Notify")
        self.assertEqual(monitor.notify_calls()[0]["summary"], "<b>Leo</b> & Co is asleep")
        self.screenshot("xfce4-notifyd-markup-name.png")

    def test_a_restarted_server_gets_every_notification_again(self):
        first, _ = self.start_timer()
        second, _ = self.start_timer(baby_name="Leo", baby=LEO)
        eventually(lambda: len(self.popups()) == 2, what="two popups")
        self.server.stop()
        eventually(lambda: self.client.properties.Get(INTERFACE, "NotificationServer") == "", what="no server")
        self.assertEqual({t["notification"] for t in self.client.list()}, {"unavailable"})
        self.server = XfceNotifyd(self.session)
        eventually(lambda: len(self.popups()) == 2, what="the popups to return")
        self.assertEqual({t["notification"] for t in self.client.list()}, {"shown"})
        self.assertIn("Xfce Notify Daemon", str(self.client.properties.Get(INTERFACE, "NotificationServer")))


class DunstTests(DesktopTestCase):
    server_class = Dunst

    def test_complete_through_the_context_menu(self):
        timer_id, _ = self.start_timer()
        eventually(lambda: self.timer(timer_id)["notification"] == "shown", what="the notification")
        self.screenshot("dunst-running.png")
        self.server.invoke("complete")
        self.assertCompletedOnce(timer_id)

    def test_a_name_with_markup_shows_literally(self):
        timer_id, _ = self.start_timer(baby_name="<b>Leo</b> & Co")
        eventually(lambda: self.timer(timer_id)["notification"] == "shown", what="the notification")
        self.server.close_all()
        eventually(lambda: self.server.history(), what="dunst's history")
        [shown] = self.server.history()
        # dunst's own rendering of what it displayed: the name escaped, so shown as typed.
        self.assertIn("&lt;b&gt;Leo&lt;/b&gt; &amp; Co is asleep", shown["message"])
        eventually(lambda: self.timer(timer_id)["notification"] == "dismissed", what="the dismissal")


class DunstBridgeTests(DesktopTestCase):
    """Through the WebView bridge, as the app hands a timer over."""

    server_class = Dunst

    def test_a_name_the_desktop_cannot_show_is_shown_cleaned_and_shortened(self):
        from test_webview_bridge import Bridge, sleep_timer
        bridge = Bridge(self.session)
        self.addCleanup(lambda: bridge.process.poll() is None and bridge.close())
        parent = self.platform.parent
        bridge.result("session.set", {"apiOrigin": self.platform.origin, "userId": parent["id"],
                                      "accessToken": parent["accessToken"],
                                      "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        name = "\u202eMaya\nRose " + "z" * 189
        self.assertEqual(len(name), 200)
        timer = sleep_timer(name=name)
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": timer})["native"]["reason"], "mirrored")
        saved = self.platform.process.control_json("GET", "/control/timers")["timers"]
        self.assertEqual([(t["id"], t["status"]) for t in saved], [(timer["id"], "running")])
        eventually(lambda: self.timer(timer["id"])["notification"] == "shown", what="the notification")
        self.server.close_all()
        eventually(lambda: self.server.history(), what="dunst's history")
        [shown] = self.server.history()
        cleaned = "Maya Rose " + "z" * 53 + "\u2026"
        self.assertEqual(shown["summary"], cleaned + " is asleep")
        self.assertNotIn("\u202e", json.dumps(shown, ensure_ascii=False))


class RecordedTestCase(PlatformTestCase):
    """Exact content, on a server that records every call."""

    capabilities = ("actions", "body", "body-markup", "persistence")
    server_name = "recorder"
    server_version = "1.0"
    refuse_repeats = False
    extra_config = ""

    def setUp(self):
        super().setUp()
        self.server = RecordingServer(self.session, self.capabilities, self.server_name, self.refuse_repeats,
                                      self.server_version)
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.control = dbus.Interface(
            self.client.bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
            "com.dreamsforlittles.Test.Notifications")

    def notifies(self, summary_part=""):
        return [n for n in self.server.notifies() if summary_part in n["summary"]]

    def wait_notifies(self, count, summary_part="", timeout=PATIENCE):
        self.assertTrue(self.server.wait_for(lambda calls: len(self.notifies(summary_part)) >= count, timeout),
                        "expected %d Notify calls, got %r" % (count, self.server.notifies()))
        return self.notifies(summary_part)

    def start_timer(self, **kwargs):
        timer_id, reply = self.platform.start_sleep(**{k: v for k, v in kwargs.items() if k in ("baby", "started_ago_s")})
        token = self.platform.mirror(self.client, timer_id, reply, baby_name=kwargs.get("baby_name", "Maya"),
                                     **({"baby": kwargs["baby"]} if "baby" in kwargs else {}))
        return timer_id, token, reply


class ActionIconTests(RecordedTestCase):
    """A server offering action-icons still gets Complete in words: the
    servers that offer it (xfce4-notifyd) draw the icon alone, without the
    label, beside "Open" in words."""

    capabilities = ("actions", "action-icons", "body", "persistence")

    def test_complete_is_a_word_with_no_action_icons_hint(self):
        self.start_timer()
        [notify] = self.wait_notifies(1)
        self.assertEqual(notify["actions"], ["default", "Open", "complete", "Complete"])
        self.assertNotIn("action-icons", notify["hints"])
        self.control.Invoke(notify["id"], "complete", "")
        self.platform.wait_for_activities(1)


class ContentTests(RecordedTestCase):
    def test_a_running_timer(self):
        self.start_timer(baby_name="Zoë")
        [notify] = self.wait_notifies(1)
        self.assertEqual(notify["app_name"], "Dreams for Littles")
        self.assertEqual(notify["app_icon"], "com.dreamsforlittles.DreamsForLittles")
        self.assertEqual(notify["hints"]["urgency"], 1)
        self.assertNotIn("action-icons", notify["hints"])
        self.assertEqual(notify["summary"], "Zoë is asleep")
        self.assertRegex(notify["body"], r"^Asleep since \d\d:\d\d · 1 h 23 min$")
        self.assertEqual(notify["actions"], ["default", "Open", "complete", "Complete"])
        self.assertEqual(notify["expire_timeout"], 0)
        self.assertEqual(notify["hints"]["desktop-entry"], "com.dreamsforlittles.DreamsForLittles.SleepAgent")
        self.assertEqual(notify["hints"]["category"], "x-dreamsforlittles.sleep-timer")
        self.assertIs(notify["hints"]["resident"], True)
        self.assertIs(notify["hints"]["suppress-sound"], True)
        self.assertNotIn("transient", notify["hints"])

    def test_saving_then_saved_then_closed(self):
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        self.control.Invoke(notify["id"], "complete", "")
        self.platform.wait_for_activities(1)
        self.assertTrue(self.server.wait_for(
            lambda calls: any(n["body"].startswith("Sleep saved") for n in self.server.notifies())))
        bodies = [n["body"] for n in self.notifies("'s sleep")]
        self.assertEqual(bodies[0], "Saving…")
        self.assertEqual(self.notifies("'s sleep")[0]["actions"], [])
        self.assertRegex(bodies[-1], r"^Sleep saved · 1 h 2[34] min$")
        last = self.notifies("'s sleep")[-1]
        self.assertIs(last["hints"]["transient"], True)
        self.assertEqual(last["hints"]["urgency"], 0)
        self.assertEqual(last["expire_timeout"], 6000)
        self.assertTrue(all(n["id"] == notify["id"] for n in self.server.notifies()))

    def test_a_refused_token_shows_open_the_app(self):
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        self.platform.process.control_json("POST", "/control/tokens/expire", {"timerId": timer_id})
        self.control.Invoke(notify["id"], "complete", "")
        self.assertTrue(self.server.wait_for(lambda calls: any("Couldn" in n["body"] for n in self.server.notifies())))
        failed = [n for n in self.server.notifies() if "Couldn" in n["body"]][-1]
        self.assertEqual(failed["body"], "Couldn&#39;t save. Open the app to finish")
        self.assertEqual(failed["actions"], ["default", "Open"])
        self.assertEqual(self.platform.activities(), [])
        [listed] = self.client.list()
        self.assertEqual(listed["state"], "needs-app")

    def test_several_babies_one_notification_each(self):
        self.start_timer(baby_name="Maya")
        self.start_timer(baby_name="Leo", baby=LEO)
        self.wait_notifies(2)
        ids = {n["id"] for n in self.server.notifies()}
        self.assertEqual(len(ids), 2)
        self.assertEqual({n["summary"] for n in self.server.notifies()}, {"Maya is asleep", "Leo is asleep"})

    def test_the_elapsed_time_updates_on_the_minute_of_the_start(self):
        # Started 5 s short of a whole minute ago: the next minute begins in
        # 5 s, or, if the first show came after that on a loaded machine, a
        # minute later (hence the longer wait).
        _, _, reply = self.start_timer(started_ago_s=5 * 60 - 5)
        first = self.wait_notifies(1)[0]
        shown = elapsed_minutes(first["body"])
        self.assertIn(shown, (4, 5), first["body"])
        update = self.wait_notifies(2, timeout=PATIENCE + 60)[1]
        self.assertEqual(elapsed_minutes(update["body"]), shown + 1, update["body"])
        self.assertEqual(update["replaces_id"], first["id"])
        # Not before the next minute began: woken by the boundary, not early.
        next_minute_ms = iso_ms(reply["timer"]["startedAt"]) + (shown + 1) * 60 * 1000
        self.assertGreaterEqual(update["ns"] // 1_000_000, next_minute_ms)

    def test_dismissal_keeps_the_timer(self):
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        self.control.Dismiss(notify["id"])
        self.assertTrue(self.client.wait_for(lambda: (self.client.list() or [{}])[0].get("notification") == "dismissed"))
        self.assertEqual(self.client.list()[0]["state"], "running")
        self.assertEqual(self.client.list()[0]["can_complete"], True)

    def test_a_forged_action_from_another_connection_is_ignored(self):
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        forger = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(forger.close)
        signal = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                             "ActionInvoked")
        signal.append(dbus.UInt32(notify["id"]), "complete", signature="us")
        forger.send_message(signal)
        closed = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                             "NotificationClosed")
        closed.append(dbus.UInt32(notify["id"]), dbus.UInt32(2), signature="uu")
        forger.send_message(closed)
        time.sleep(1)
        [listed] = self.client.list()
        self.assertEqual((listed["state"], listed["notification"]), ("running", "shown"))
        self.assertEqual(self.platform.requests()[-1]["method"], "PUT")

    def test_the_activation_token_reaches_the_opener(self):
        with open(os.path.join(self.session.config_dir, "sleep-agent.conf")) as handle:
            self.session.write_config(handle.read())
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        with open(self.session.opener_path(), "w") as handle:
            handle.write('#!/bin/sh\nprintf "%%s %%s\\n" "$XDG_ACTIVATION_TOKEN" "$1" >> "%s"\n'
                         % os.path.join(self.session.root, "opened-urls"))
        self.control.Invoke(notify["id"], "default", "activation-token-42")
        deadline = time.monotonic() + PATIENCE
        while not self.session.opened_urls() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.session.opened_urls()[:2], ["activation-token-42", self.client.list()[0]["deep_link"]])

    def test_a_restarted_server_gets_the_notifications_again(self):
        self.start_timer()
        self.wait_notifies(1)
        self.server.stop()
        wait_for_name(self.session, "org.freedesktop.Notifications", present=False)
        self.assertTrue(self.client.wait_for(
            lambda: str(self.client.properties.Get(INTERFACE, "NotificationServer")) == ""))
        replacement = RecordingServer(self.session, self.capabilities, "second")
        self.assertTrue(replacement.wait_for(lambda calls: any(c["method"] == "Notify" for c in calls)))
        [notify] = replacement.notifies()
        self.assertEqual(notify["replaces_id"], 0)
        self.assertEqual(notify["summary"], "Maya is asleep")


class LeftNotificationTests(RecordedTestCase):
    """An agent killed after a timer left its store, before it closed the
    timer's notification (DFL_TEST_CRASH_AT=after-removal-commit): the
    next agent takes the notification away at its start, and the old
    Complete, pressed anyway, sends nothing to the platform."""

    def close_calls(self):
        return [c["id"] for c in self.server.calls() if c["method"] == "CloseNotification"]

    def test_a_killed_agent_leaves_no_complete_for_a_timer_it_no_longer_holds(self):
        timer_id, token, _ = self.start_timer()
        self.wait_notifies(1)
        self.agent.terminate()
        crashing = AgentProcess(self.session, extra_env={"DFL_TEST_CRASH_AT": "after-removal-commit"})
        with self.assertRaises(dbus.exceptions.DBusException):
            self.client.timers.Remove(timer_id, timeout=PATIENCE)
        self.assertEqual(crashing.process.wait(PATIENCE), -signal.SIGKILL)
        left = self.server.notifies()[-1]
        self.assertEqual(left["actions"], ["default", "Open", "complete", "Complete"])
        self.assertEqual(self.close_calls(), [], "the killed agent closed nothing")

        restarted = AgentProcess(self.session)
        self.assertTrue(self.server.wait_for(lambda calls: left["id"] in self.close_calls()),
                        "the restarted agent to close the notification it left: %r" % self.server.calls())
        self.assertEqual(self.client.list(), [])
        # Withdrawn, so forgotten: a second start closes nothing more.
        eventually(lambda: "Took away the notification an earlier run left for timer %s" % timer_id in restarted.log(),
                   what="the agent to forget the notification it took away")
        logs = [crashing.log(), restarted.log()]
        restarted.terminate()
        again = AgentProcess(self.session)
        self.control.Invoke(left["id"], "complete", "")
        # Nothing comes of the old Complete: a moment for it to arrive.
        time.sleep(1)
        self.assertEqual(self.close_calls(), [left["id"]])
        self.assertEqual([r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]], [])
        self.assertEqual(self.platform.activities(), [])
        for log in logs + [again.log()]:
            self.assertNotIn(token, log)


class RefusedNotifyTests(RecordedTestCase):
    """A server that answers Notify with an error, as Plasma does for a
    notification identical to one it took within a second
    (ExcessNotificationGeneration)."""

    server_name = "Plasma"
    refuse_repeats = True
    # Half a minute waited for the notification to be offered again: it
    # runs in the lane beside the workers (parallel.py), not in one of them.
    mostly_waits = True

    def test_an_error_reply_is_logged_and_the_notification_offered_again_later(self):
        self.control.RefuseNext(1)
        timer_id, _, _ = self.start_timer()
        self.assertTrue(self.server.wait_for(lambda calls: any(c["method"] == "Refused" for c in calls)))
        eventually(lambda: "ExcessNotificationGeneration" in self.agent.log(), what="the refusal in the agent's log")
        self.assertIn("Could not show the notification of timer %s" % timer_id, self.agent.log())
        self.assertEqual(self.client.list()[0]["notification"], "unavailable")
        # Offered again after a while (30 s), and taken.
        [notify] = self.wait_notifies(1, timeout=PATIENCE + 30)
        self.assertEqual(notify["summary"], "Maya is asleep")
        eventually(lambda: self.client.list()[0]["notification"] == "shown", what="the notification shown")

    def test_a_notification_shown_again_at_once_waits_its_second_and_is_taken(self):
        # A click, then the server closes the notification (as xfce4-notifyd
        # does after any action): it is shown again with the same text, which
        # Plasma would refuse within a second of the first.
        self.start_timer()
        [first] = self.wait_notifies(1)
        self.control.Invoke(first["id"], "default", "")
        self.control.Dismiss(first["id"])
        [_, again] = self.wait_notifies(2)
        self.assertEqual((again["summary"], again["body"]), (first["summary"], first["body"]))
        self.assertEqual([c for c in self.server.calls() if c["method"] == "Refused"], [])
        eventually(lambda: self.client.list()[0]["notification"] == "shown", what="the notification shown")


class NoActionsTests(RecordedTestCase):
    capabilities = ("body",)

    def test_the_body_says_to_open_the_app_and_complete_stays_on_the_bus(self):
        timer_id, _, _ = self.start_timer()
        [notify] = self.wait_notifies(1)
        self.assertEqual(notify["actions"], [])
        self.assertTrue(notify["body"].endswith("\nOpen the app to complete it."), notify["body"])
        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(0))), "queued")
        self.platform.wait_for_activities(1)


class GnomeShellTests(RecordedTestCase):
    server_name = "gnome-shell"

    def test_no_live_updates_on_a_server_that_alerts_on_every_update(self):
        # The text here has no elapsed minutes ("Asleep since 21:14"): the
        # boundary waited out is the first one after the notification came.
        _, _, reply = self.start_timer(started_ago_s=5 * 60 - 5)
        shown_ms = self.wait_notifies(1)[0]["ns"] // 1_000_000
        started_ms = iso_ms(reply["timer"]["startedAt"])
        sleep_until_ms(next_minute_ms(started_ms, shown_ms) + 2000)
        self.assertEqual(len(self.notifies()), 1)


class Gnome48UrgencyTests(RecordedTestCase):
    """GNOME Shell 46 and later pop a replaced notification up again unless
    the urgency it held was low (48 decides before it takes the new one), and
    a new notification unless its own is: only the first show pops up."""

    server_name = "gnome-shell"
    server_version = "48.7"

    def pops_up(self):
        """Each Notify, by GNOME 48's rule: whether it popped a banner up."""
        held = {}
        pops = []
        for call in self.server.calls():
            if call["method"] == "CloseNotification":
                held.pop(call["id"], None)
            elif call["method"] == "Notify":
                before = held.get(call["replaces_id"])
                pops.append(before != 0 if before is not None else call["hints"]["urgency"] != 0)
                held.pop(call["replaces_id"], None)
                held[call["id"]] = call["hints"]["urgency"]
        return pops

    def test_saving_and_saved_pop_up_no_banner_after_the_first(self):
        self.start_timer()
        [notify] = self.wait_notifies(1)
        self.assertEqual(notify["hints"]["urgency"], 1)
        self.control.Invoke(notify["id"], "complete", "")
        self.platform.wait_for_activities(1)
        self.assertTrue(self.server.wait_for(lambda calls: any(n["body"].startswith("Sleep saved") for n in self.notifies())))
        self.assertEqual([n["body"].split(" ")[0] for n in self.notifies()], ["Asleep", "Saving…", "Sleep"])
        self.assertEqual(self.pops_up(), [True, False, False], self.server.calls())


class GnomeShellLiveOnTests(RecordedTestCase):
    server_name = "gnome-shell"
    extra_config = "\n[notifications]\nlive-elapsed=on\n"

    def test_live_updates_when_the_configuration_says_on(self):
        # The minute boundary 5 s after the start; a first show that comes
        # after it on a loaded machine leaves the update a minute away.
        self.start_timer(started_ago_s=5 * 60 - 5)
        first = self.wait_notifies(1)[0]
        shown = elapsed_minutes(first["body"])
        self.assertIn(shown, (4, 5), first["body"])
        update = self.wait_notifies(2, timeout=PATIENCE + 60)[1]
        self.assertEqual(elapsed_minutes(update["body"]), shown + 1, update["body"])


class NoServerTests(unittest.TestCase):
    def test_the_api_works_without_a_notification_server(self):
        session = Session()
        self.addCleanup(session.close)
        AgentProcess(session)
        client = Client(session)
        self.addCleanup(client.close)
        client.mirror(timer_dict())
        self.assertEqual(str(client.properties.Get(INTERFACE, "NotificationServer")), "")
        self.assertEqual(client.list()[0]["notification"], "unavailable")


if __name__ == "__main__":
    unittest.main()
