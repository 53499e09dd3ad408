"""The panel indicator (org.kde.StatusNotifierItem with a com.canonical.dbusmenu
menu) against a StatusNotifierWatcher and host written from the
specifications (sni_panel.py) on the session's private bus, with the
reference platform behind the menu's Complete."""

import os
import time

import dbus

import unittest

from dbus_client import Client
from desktop import RecordingServer, SpecPanel, wait_for_name
from display_text import elapsed_minutes
from harness import (LEO, MAYA, PATIENCE, AgentProcess, PlatformTestCase, Session, eventually, iso_ms, now_ms,
                     sleep_until_ms, switches_by_thread, timer_dict, voluntary_switches, wait_until_settled)

ITEM = "org.kde.StatusNotifierItem"
MENU = "com.canonical.dbusmenu"


def labels(layout):
    """The labels of a GetLayout answer's entries, "—" for a separator."""
    return [child[1].get("label", "—") for child in layout[2]]


class IndicatorTestCase(PlatformTestCase):
    """The agent with a spec-level panel (started first unless `panel_first`
    is false) and the reference platform."""

    panel_first = True

    def setUp(self):
        super().setUp()
        self.panel = SpecPanel(self.session) if self.panel_first else None
        self.start_agent()

    @property
    def item_name(self):
        return "org.kde.StatusNotifierItem-%d-1" % self.agent.pid

    @property
    def key(self):
        return self.item_name + "/StatusNotifierItem"

    def new_sleep(self, baby=MAYA, name="Maya", started_ago_s=83 * 60):
        timer_id, reply = self.platform.start_sleep(baby=baby, started_ago_s=started_ago_s)
        self.platform.mirror(self.client, timer_id, reply, baby_name=name, baby=baby)
        return timer_id, reply

    def latest(self, kind, predicate=lambda entry: True, panel=None, what=None, timeout=PATIENCE):
        """Waits for an event of `kind` about our item that satisfies
        `predicate`, and returns the latest such."""
        panel = panel or self.panel
        return panel.wait_for(
            lambda events: [e for e in events if e["event"] == kind and e.get("key") == self.key and predicate(e)][-1:],
            what or kind, timeout)[0]

    def first_tooltip(self):
        """The tooltip's text as the panel first read it."""
        first = self.panel.wait_for(
            lambda events: [e for e in events if e["event"] == "properties" and e.get("key") == self.key][:1],
            "the item's properties")[0]
        return first["properties"]["ToolTip"][3]

    def layout_with(self, label, panel=None):
        return self.latest("layout", lambda e: label in labels(e["layout"]), panel, "a menu with %r" % label)

    def item_name_owned(self):
        return self.client.bus.name_has_owner(self.item_name)


class PublishingTests(IndicatorTestCase):
    def test_no_item_until_a_timer_runs_then_the_panel_reads_it_all(self):
        time.sleep(0.5)
        self.assertEqual(self.panel.events("register"), [])
        self.assertFalse(self.item_name_owned())
        self.new_sleep()
        [registration] = self.panel.wait_for(lambda events: [e for e in events if e["event"] == "register"])
        self.assertEqual(registration["service"], self.item_name)
        self.assertEqual(registration["sender"], self.client.bus.get_name_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1"))
        properties = self.latest("properties")["properties"]
        self.assertEqual(properties["Id"], "com.dreamsforlittles.DreamsForLittles.SleepAgent")
        self.assertEqual(properties["Category"], "ApplicationStatus")
        self.assertEqual(properties["Status"], "Active")
        self.assertEqual(properties["Title"], "Maya asleep")
        self.assertEqual(properties["IconName"], "com.dreamsforlittles.DreamsForLittles")
        self.assertEqual(properties["Menu"], "/MenuBar")
        self.assertIs(properties["ItemIsMenu"], False)
        icon, pixmaps, title, description = properties["ToolTip"]
        self.assertEqual((icon, pixmaps, title), ("com.dreamsforlittles.DreamsForLittles", [], "Dreams for Littles"))
        self.assertRegex(description, r"^Maya asleep · 1 h 2[34] min$")
        layout = self.latest("layout")["layout"]
        self.assertEqual(layout[0], 0)
        self.assertEqual(layout[1], {"children-display": "submenu"})
        self.assertEqual(labels(layout), ["Complete Maya's sleep", "Open Maya's sleep", "—", "Open Dreams for Littles"])

    def test_the_item_goes_when_the_last_timer_ends(self):
        first, _ = self.new_sleep()
        second, _ = self.new_sleep(baby=LEO, name="Leo")
        self.layout_with("Open Leo's sleep")
        self.client.timers.Remove(first)
        self.layout_with("Complete Leo's sleep")
        self.assertTrue(self.item_name_owned())
        self.client.timers.Remove(second)
        self.panel.wait_for(lambda events: [e for e in events if e["event"] == "unregister" and e["key"] == self.key],
                            "the item to go")
        self.assertFalse(self.item_name_owned())
        self.assertEqual(self.panel.state(), {})

    def test_a_timer_after_the_last_one_ended_shows_the_item_again(self):
        first, _ = self.new_sleep()
        self.latest("layout")
        self.client.timers.Remove(first)
        self.panel.wait_for(lambda events: [e for e in events if e["event"] == "unregister"], "the item to go")
        self.new_sleep(baby=LEO, name="Leo")
        self.panel.wait_for(lambda events: len([e for e in events if e["event"] == "register"]) == 2, "a second registration")
        self.layout_with("Complete Leo's sleep")

    def test_it_registers_again_after_the_watcher_restarts(self):
        self.new_sleep()
        self.latest("layout")
        self.panel.stop()
        wait_for_name(self.session, "org.kde.StatusNotifierWatcher", present=False)
        replacement = SpecPanel(self.session)
        self.addCleanup(replacement.stop)
        [registration] = replacement.wait_for(lambda events: [e for e in events if e["event"] == "register"])
        self.assertEqual(registration["service"], self.item_name)
        self.assertEqual(self.layout_with("Complete Maya's sleep", panel=replacement)["key"], self.key)
        self.assertEqual(self.latest("properties", panel=replacement)["properties"]["Status"], "Active")

    def test_the_properties_answer_as_the_specifications_type_them(self):
        self.new_sleep()
        self.latest("layout")
        item = self.client.bus.get_object(self.item_name, "/StatusNotifierItem", introspect=False)
        properties = dbus.Interface(item, "org.freedesktop.DBus.Properties")
        tooltip = properties.Get(ITEM, "ToolTip")
        self.assertEqual([type(field) for field in tooltip], [dbus.String, dbus.Array, dbus.String, dbus.String])
        self.assertEqual(tooltip[1].signature, "(iiay)")
        self.assertIsInstance(properties.Get(ITEM, "WindowId"), dbus.Int32)
        self.assertIsInstance(properties.Get(ITEM, "Menu"), dbus.ObjectPath)
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            properties.Set(ITEM, "Status", dbus.String("Passive", variant_level=1))
        self.assertEqual(refused.exception.get_dbus_name(), "org.freedesktop.DBus.Error.PropertyReadOnly")
        menu = dbus.Interface(self.client.bus.get_object(self.item_name, "/MenuBar", introspect=False),
                              "org.freedesktop.DBus.Properties")
        self.assertEqual(menu.Get(MENU, "Version"), 3)
        for path, interface in (("/StatusNotifierItem", ITEM), ("/MenuBar", MENU)):
            xml = dbus.Interface(self.client.bus.get_object(self.item_name, path, introspect=False),
                                 "org.freedesktop.DBus.Introspectable").Introspect()
            self.assertIn('<interface name="%s">' % interface, xml)


class LateWatcherTests(IndicatorTestCase):
    panel_first = False

    def test_a_watcher_arriving_while_a_timer_runs_gets_the_item(self):
        self.new_sleep()
        time.sleep(0.5)
        self.assertFalse(self.item_name_owned())
        self.panel = SpecPanel(self.session)
        self.addCleanup(self.panel.stop)
        [registration] = self.panel.wait_for(lambda events: [e for e in events if e["event"] == "register"])
        self.assertEqual(registration["service"], self.item_name)
        self.layout_with("Complete Maya's sleep")


class SignalTests(IndicatorTestCase):
    def test_the_tooltip_changes_on_the_minute_boundary_with_new_tooltip(self):
        # Started 5 s short of five whole minutes ago: the next minute turns
        # in 5 s, or, if the panel first read the item after that, a minute
        # later (hence the longer waits).
        _, reply = self.new_sleep(started_ago_s=5 * 60 - 5)
        shown = elapsed_minutes(self.first_tooltip())
        self.assertIn(shown, (4, 5), "the minutes shown of a sleep started 4 min 55 s ago")
        signal = self.latest("signal", lambda e: e["member"] == "NewToolTip", what="NewToolTip",
                             timeout=PATIENCE + 60)
        updated = self.latest("properties", lambda e: elapsed_minutes(e["properties"]["ToolTip"][3]) == shown + 1,
                              what="the tooltip read again")
        self.assertGreaterEqual(updated["ns"], signal["ns"])
        # Not before the next minute began: woken by the boundary, not early.
        self.assertGreaterEqual(signal["ns"] // 1_000_000,
                                iso_ms(reply["timer"]["startedAt"]) + (shown + 1) * 60 * 1000)
        self.assertEqual([e["member"] for e in self.panel.events("signal") if e["interface"] == ITEM], ["NewToolTip"])

    def test_layout_updated_when_timers_change(self):
        self.new_sleep()
        first = self.latest("layout")
        self.new_sleep(baby=LEO, name="Leo", started_ago_s=20 * 60)
        signal = self.latest("signal", lambda e: e["member"] == "LayoutUpdated", what="LayoutUpdated")
        revision, parent = signal["args"]
        self.assertEqual(parent, 0)
        self.assertGreater(revision, first["revision"])
        second = self.layout_with("Complete Leo's sleep")
        self.assertEqual(second["revision"], revision)
        self.assertEqual(labels(second["layout"]), [
            "Complete Maya's sleep", "Open Maya's sleep", "Complete Leo's sleep", "Open Leo's sleep", "—",
            "Open Dreams for Littles"])
        # Maya's entries kept their ids: only Leo's are new.
        self.assertEqual([c[0] for c in second["layout"][2][:2]], [c[0] for c in first["layout"][2][:2]])
        members = [e["member"] for e in self.panel.events("signal") if e["interface"] == ITEM]
        self.assertEqual(members, ["NewTitle", "NewToolTip"])
        self.assertEqual(self.latest("properties", lambda e: "Leo" in e["properties"]["Title"])["properties"]["Title"],
                         "Maya asleep, Leo asleep")

    def test_a_menu_opening_needs_no_update(self):
        self.new_sleep()
        self.latest("layout")
        self.assertEqual(self.panel.call_menu("AboutToShow", "i", 0), {"reply": [False]})
        self.assertEqual(self.panel.call_menu("AboutToShowGroup", "ai", [0, 9999]), {"reply": [[], [9999]]})
        self.assertEqual(self.panel.call_menu("AboutToShow", "i", 9999)["error"], "org.freedesktop.DBus.Error.InvalidArgs")
        self.assertEqual(self.panel.call_menu("GetProperty", "is", 2, "label"), {"reply": ["Open Dreams for Littles"]})
        [(root, root_properties), *_] = self.panel.call_menu("GetGroupProperties", "aias", [], ["label"])["reply"][0]
        self.assertEqual((root, root_properties), (0, {}))
        self.assertEqual(self.panel.call_menu("GetLayout", "iias", 9999, -1, [])["error"],
                         "org.freedesktop.DBus.Error.InvalidArgs")


class AlwaysTests(IndicatorTestCase):
    extra_config = "\n[indicator]\nshow=always\n"

    def test_a_passive_item_without_timers_says_new_status(self):
        properties = self.latest("properties")["properties"]
        self.assertEqual((properties["Status"], properties["Title"]), ("Passive", "Dreams for Littles"))
        self.assertEqual(labels(self.latest("layout")["layout"]), ["Open Dreams for Littles"])
        timer_id, _ = self.new_sleep()
        signal = self.latest("signal", lambda e: e["member"] == "NewStatus", what="NewStatus")
        self.assertEqual(signal["args"], ["Active"])
        self.client.timers.Remove(timer_id)
        self.latest("signal", lambda e: e["member"] == "NewStatus" and e["args"] == ["Passive"], what="NewStatus Passive")
        self.assertEqual(self.panel.events("unregister"), [])


class NeverTests(IndicatorTestCase):
    extra_config = "\n[indicator]\nshow=never\n"

    def test_no_item_and_no_objects(self):
        self.new_sleep()
        time.sleep(0.5)
        self.assertEqual(self.panel.events("register"), [])
        self.assertFalse(self.item_name_owned())
        owner = self.client.bus.get_name_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1")
        with self.assertRaises(dbus.exceptions.DBusException):
            dbus.Interface(self.client.bus.get_object(owner, "/StatusNotifierItem", introspect=False),
                           "org.freedesktop.DBus.Properties").GetAll(ITEM)


class MenuActionTests(IndicatorTestCase):
    def test_complete_from_the_menu_creates_exactly_one_activity(self):
        timer_id, _ = self.new_sleep()
        complete = self.panel.id_of("Complete Maya's sleep")
        self.assertEqual(self.panel.click(complete), {"reply": [[]]})
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        saved = self.layout_with("Maya's sleep saved · 1 h 23 min")
        self.assertEqual(labels(saved["layout"]), ["Maya's sleep saved · 1 h 23 min", "—", "Open Dreams for Littles"])
        # The same click again reaches nothing: its entry is gone.
        again = self.panel.click(complete)
        self.assertEqual(again["error"], "org.freedesktop.DBus.Error.InvalidArgs")
        # The saved moment passes, and with it the last timer: the item goes.
        self.panel.wait_for(lambda events: [e for e in events if e["event"] == "unregister"], "the item to go")
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.assertEqual(len(self.platform.activities()), 1)

    def test_a_double_click_in_one_event_group_completes_once(self):
        timer_id, _ = self.new_sleep()
        complete = self.panel.id_of("Complete Maya's sleep")
        # The first click changes the menu; the second finds its entry gone.
        self.assertEqual(self.panel.control.ClickGroup([complete, complete]), '{"reply": [[%d]]}' % complete)
        self.platform.wait_for_activities(1)
        time.sleep(1)
        self.assertEqual(len(self.activities_of(timer_id)), 1)

    def test_complete_through_event_too(self):
        timer_id, _ = self.new_sleep()
        self.assertEqual(self.panel.click("Complete Maya's sleep", method="Event"), {"reply": []})
        self.platform.wait_for_activities(1)
        self.layout_with("Maya's sleep saved · 1 h 23 min")

    def test_the_menu_shows_saving_until_the_platform_answers(self):
        self.new_sleep()
        self.latest("layout")
        self.platform.fault(route="complete", mode="latency", ms=3000, count=1)
        self.panel.click("Complete Maya's sleep")
        saving = self.layout_with("Saving Maya's sleep…")
        self.assertEqual(labels(saving["layout"])[:2], ["Saving Maya's sleep…", "Open Maya's sleep"])
        self.assertEqual(saving["layout"][2][0][1]["enabled"], False)
        self.layout_with("Maya's sleep saved · 1 h 23 min")
        self.assertEqual(len(self.platform.activities()), 1)

    def test_the_menu_says_it_will_save_when_back_online(self):
        self.new_sleep()
        self.latest("layout")
        self.platform.stop()
        self.panel.click("Complete Maya's sleep")
        waiting = self.layout_with("Maya's sleep will save when you are back online")
        self.assertEqual(labels(waiting["layout"])[1], "Open Maya's sleep")

    def test_a_refused_token_shows_couldnt_save(self):
        timer_id, _ = self.new_sleep()
        self.platform.process.control_json("POST", "/control/tokens/expire", {"timerId": timer_id})
        self.panel.click("Complete Maya's sleep")
        failed = self.layout_with("Couldn't save Maya's sleep. Open the app to finish")
        self.assertEqual(labels(failed["layout"])[1], "Open Maya's sleep")
        self.assertEqual(self.platform.activities(), [])

    def test_open_a_timer_and_the_app(self):
        timer_id, _ = self.new_sleep()
        self.assertEqual(self.panel.click("Open Maya's sleep"), {"reply": [[]]})
        eventually(lambda: self.session.opened_urls(), what="the opener to run")
        self.assertEqual(self.session.opened_urls(), [self.timer(timer_id)["deep_link"]])
        self.panel.click("Open Dreams for Littles")
        eventually(lambda: len(self.session.opened_urls()) == 2, what="the opener to run again")
        self.assertEqual(self.session.opened_urls()[1], "dreamsforlittles://")
        self.assertEqual(self.platform.activities(), [])

    def test_activate_opens_the_latest_timer_with_the_hosts_activation_token(self):
        with open(self.session.opener_path(), "w") as handle:
            handle.write('#!/bin/sh\nprintf "%%s %%s\\n" "$XDG_ACTIVATION_TOKEN" "$1" >> "%s"\n'
                         % os.path.join(self.session.root, "opened-urls"))
        self.new_sleep(started_ago_s=90 * 60)
        leo, _ = self.new_sleep(baby=LEO, name="Leo", started_ago_s=10 * 60)
        self.layout_with("Open Leo's sleep")
        self.assertEqual(self.panel.call_item("ProvideXdgActivationToken", "s", "activation-token-42"), {"reply": []})
        self.assertEqual(self.panel.call_item("Activate", "ii", 10, 10), {"reply": []})
        eventually(lambda: self.session.opened_urls(), what="the opener to run")
        self.assertEqual(self.session.opened_urls(), ["activation-token-42", self.timer(leo)["deep_link"]])

    def test_a_stale_menu_id_gets_nothing_done(self):
        maya, _ = self.new_sleep()
        open_maya = self.panel.id_of("Open Maya's sleep")
        complete_maya = self.panel.id_of("Complete Maya's sleep")
        self.client.timers.Remove(maya)
        self.panel.wait_for(lambda events: [e for e in events if e["event"] == "unregister"], "the item to go")
        leo, _ = self.new_sleep(baby=LEO, name="Leo")
        self.layout_with("Complete Leo's sleep")
        for menu_id in (open_maya, complete_maya):
            for method in ("Event", "EventGroup"):
                result = self.panel.click(menu_id, method=method)
                self.assertEqual(result.get("error"), "org.freedesktop.DBus.Error.InvalidArgs", result)
        time.sleep(0.5)
        self.assertEqual(self.session.opened_urls(), [])
        self.assertEqual(self.state(leo), "running")
        self.assertEqual(self.platform.activities(), [])


class HostTests(IndicatorTestCase):
    panel_first = False

    def test_no_minute_refresh_while_no_host_shows_items(self):
        self.panel = SpecPanel(self.session, no_host=True)
        self.addCleanup(self.panel.stop)
        # The boundary waited out is the one after the minute the item first
        # showed: normally 5 s after the start, a minute later on a machine
        # so loaded that the item was first read after that.
        _, reply = self.new_sleep(started_ago_s=5 * 60 - 5)
        self.latest("layout")
        shown = elapsed_minutes(self.first_tooltip())
        self.assertIn(shown, (4, 5), "the minutes shown of a sleep started 4 min 55 s ago")
        sleep_until_ms(iso_ms(reply["timer"]["startedAt"]) + (shown + 1) * 60 * 1000 + 2000)
        self.assertEqual([e for e in self.panel.events("signal") if e["member"] == "NewToolTip"], [])
        self.panel.control.SetHostRegistered(True)
        self.latest("signal", lambda e: e["member"] == "NewToolTip", what="NewToolTip once a host is back")
        self.latest("properties", lambda e: elapsed_minutes(e["properties"]["ToolTip"][3]) == shown + 1,
                    what="the new tooltip")


class WakeUpTests(unittest.TestCase):
    """What the indicator costs: wake-ups of the agent, counted as the
    voluntary context switches of its threads (each is the process going to
    sleep again after something woke it). No notification server runs, so
    every wake-up counted is for the indicator or for nothing."""

    # Minutes of counting wake-ups, asleep: it runs in the lane beside the
    # workers (parallel.py), not in one of them.
    mostly_waits = True

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)

    def wait_for_three_in_the_menu(self, panel):
        """A quiet panel reads the menu once, when the item appears, which
        may be before the three timers are in it: the test reads it itself,
        before anything is counted."""
        panel.wait_for(lambda events: any(e["event"] == "layout" for e in events), "the item's menu")
        eventually(lambda: len(panel.call_menu("GetLayout", "iias", 0, -1, [])["reply"][1][2]) == 8,
                   what="three timers in the menu")

    def test_no_host_and_no_timer_never_wakes_the_agent(self):
        agent = AgentProcess(self.session)
        wait_until_settled(agent.pid)
        before = switches_by_thread(agent.pid)
        time.sleep(60)
        after = switches_by_thread(agent.pid)
        woke = {thread: count - before.get(thread, 0) for thread, count in after.items() if count != before.get(thread, 0)}
        # GSettings is read when the first timer is shown: an agent with no
        # timer has no dconf worker thread to wake.
        self.assertEqual([thread for thread in after if thread.endswith(" dconf worker")], [],
                         "GSettings was loaded with no timer to show")
        self.assertEqual(woke, {}, "threads that woke in an idle minute (switches); threads that ended: %s"
                         % sorted(set(before) - set(after)))

    def test_a_host_and_three_timers_wake_the_agent_once_per_minute_boundary(self):
        # A panel that records signals without reading anything back, so
        # that the host's own calls wake nothing.
        panel = SpecPanel(self.session, quiet=True)
        self.addCleanup(panel.stop)
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        # Three timers whose minutes turn 6, 9 and 12 s from now.
        now = now_ms()
        for index, name in enumerate(("Maya", "Leo", "Zoë")):
            client.mirror(timer_dict(baby_name=name, started_at_ms=now - (10 + index) * 60_000 + 6_000 + 3_000 * index))
        self.wait_for_three_in_the_menu(panel)
        time.sleep(0.5)
        before = voluntary_switches(agent.pid)
        since = time.time_ns()

        def tooltips(events):
            return [e for e in events if e.get("member") == "NewToolTip" and e["ns"] > since]

        # A slow setup may have passed a boundary or two before the count
        # began: the three counted are then the next ones, up to a minute on.
        panel.wait_for(lambda events: len(tooltips(events)) >= 3, "three minute boundaries", timeout=PATIENCE + 60)
        time.sleep(1.5)
        woken = voluntary_switches(agent.pid) - before
        boundaries = len(tooltips(panel.events()))
        print("\n%d wake-up(s) of the agent for %d minute boundaries (a host, three timers)" % (woken, boundaries))
        self.assertEqual(boundaries, 3)
        self.assertEqual(woken, boundaries)

    def test_one_wake_up_of_the_loop_per_boundary_serves_notifications_and_indicator(self):
        server = RecordingServer(self.session)
        self.addCleanup(server.stop)
        panel = SpecPanel(self.session, quiet=True)
        self.addCleanup(panel.stop)
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        # Three babies asleep since the same second, whose minute turns 8 s from now.
        start = now_ms() - 10 * 60_000 + 8_000
        for name in ("Maya", "Leo", "Zoë"):
            client.mirror(timer_dict(baby_name=name, started_at_ms=start))
        self.wait_for_three_in_the_menu(panel)
        def notifies(calls):
            return [c for c in calls if c["method"] == "Notify"]

        self.assertTrue(server.wait_for(lambda calls: len(notifies(calls)) >= 3))

        def one_boundary():
            """The wake-ups of the loop and of all threads for the next
            boundary: its three Notify calls and its tooltip."""
            time.sleep(0.5)
            loop_before = voluntary_switches(agent.pid, main_thread_only=True)
            all_before = voluntary_switches(agent.pid)
            since = time.time_ns()
            sent = len(notifies(server.calls()))
            # The next boundary is at most a minute away.
            self.assertTrue(server.wait_for(lambda calls: len(notifies(calls)) >= sent + 3, timeout=PATIENCE + 60),
                            "three notifications moved on")
            panel.wait_for(lambda events: [e for e in events if e.get("member") == "NewToolTip" and e["ns"] > since],
                           "the tooltip moved on", timeout=PATIENCE + 60)
            time.sleep(1.5)
            return (voluntary_switches(agent.pid, main_thread_only=True) - loop_before,
                    voluntary_switches(agent.pid) - all_before)

        # The boundary wakes the loop once. The servers' answers to its
        # Notify calls are messages too: on a loaded machine they may come
        # after the loop has gone to sleep and wake it again, so the least
        # of up to three boundaries is what the design costs. Three timers
        # served apart would never come to one.
        trials = []
        while len(trials) < 3 and (not trials or trials[-1][0] != 1):
            trials.append(one_boundary())
        for loop_woken, all_woken in trials:
            print("\n%d wake-up(s) of the agent's loop, %d of all its threads, for one minute boundary of three "
                  "timers with notifications and the indicator" % (loop_woken, all_woken))
        self.assertEqual(min(loop_woken for loop_woken, _ in trials), 1, trials)


if __name__ == "__main__":
    unittest.main()
