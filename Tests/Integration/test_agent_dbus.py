"""dfl-sleep-agent on a private session bus, driven by foreign clients:
python3-dbus and gdbus, as other apps would drive it."""

import json
import os
import signal
import subprocess
import time
import unittest
import xml.etree.ElementTree as ElementTree

import dbus

from dbus_client import Client, typed
from harness import (AGENT, ERROR, INTERFACE, ORIGIN, PATIENCE, AgentProcess, AgentTestCase, gdbus_call, now_ms,
                     timer_dict)

JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjoxOTAwMDAwMDAwfQ."
       "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")


class ClientTestCase(AgentTestCase):
    def setUp(self):
        super().setUp()
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def assertRefused(self, error_name, call, *args):
        with self.assertRaises(dbus.exceptions.DBusException) as raised:
            call(*args)
        self.assertEqual(raised.exception.get_dbus_name(), error_name, raised.exception.get_dbus_message())
        message = raised.exception.get_dbus_message()
        self.assertTrue(message and message[0].isalpha(), "a refusal must say why: %r" % message)
        return message


class MethodTests(ClientTestCase):
    def test_mirror_then_list_shows_display_data_only(self):
        timer = timer_dict(baby_name="Zoë <b>&</b>")
        self.client.mirror(timer)
        [listed] = self.client.list()
        self.assertEqual(listed["timer_id"], timer["timer_id"])
        self.assertEqual(listed["baby_name"], "Zoë <b>&</b>")
        self.assertEqual(listed["api_origin"], timer["api_origin"])
        self.assertEqual(listed["family_subject_id"], timer["family_subject_id"])
        self.assertEqual(listed["baby_id"], timer["baby_id"])
        self.assertEqual(listed["started_at_ms"], timer["started_at_ms"])
        self.assertEqual(listed["timezone"], "Europe/Berlin")
        self.assertEqual(listed["state"], "running")
        self.assertIs(listed["can_complete"], True)
        self.assertEqual(listed["deep_link"], "dreamsforlittles://families/%s/babies/%s/track/sleep?timer=%s" % (
            timer["family_subject_id"], timer["baby_id"], timer["timer_id"]))
        self.assertIn(listed["notification"], ("shown", "dismissed", "unavailable"))
        self.assertEqual(set(listed), {"timer_id", "api_origin", "family_subject_id", "baby_id", "baby_name",
                                       "started_at_ms", "timezone", "state", "can_complete", "deep_link",
                                       "notification"})

    def test_list_never_contains_the_token(self):
        timer = timer_dict()
        self.client.mirror(timer)
        reply = gdbus_call(self.session, "List").stdout
        self.assertIn(timer["timer_id"], reply)
        self.assertNotIn("CANARY", reply)
        self.assertNotIn("CANARY", json.dumps(self.client.list()))
        self.assertNotIn("CANARY", self.agent.log())

    def test_a_lower_revision_is_ignored(self):
        timer = timer_dict(revision=5, baby_name="Five")
        self.client.mirror(timer)
        self.client.mirror(dict(timer, revision=4, baby_name="Four"))
        self.assertEqual(self.client.list()[0]["baby_name"], "Five")
        self.client.mirror(dict(timer, revision=6, baby_name="Six"))
        self.assertEqual(self.client.list()[0]["baby_name"], "Six")

    def test_remove(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.assertIs(bool(self.client.timers.Remove(timer["timer_id"])), True)
        self.assertIs(bool(self.client.timers.Remove(timer["timer_id"])), False)
        self.assertEqual(self.client.list(), [])

    def test_reconcile_drops_the_scopes_timers_not_running(self):
        keep, drop = timer_dict(), timer_dict(baby_id="8d444840-9dc0-11d1-b245-5ffdce74fad2")
        other_family = timer_dict(family_subject_id="d56a4180-65aa-42ec-a945-5fd21dec0539")
        for timer in (keep, drop, other_family):
            self.client.mirror(timer)
        removed = self.client.timers.Reconcile(keep["api_origin"], keep["user_id"], keep["family_subject_id"],
                                               dbus.Array([keep["timer_id"]], signature="s"))
        self.assertEqual(int(removed), 1)
        self.assertEqual(sorted(t["timer_id"] for t in self.client.list()),
                         sorted([keep["timer_id"], other_family["timer_id"]]))

    def test_purge_one_family_and_every_family(self):
        first, second = timer_dict(), timer_dict(family_subject_id="d56a4180-65aa-42ec-a945-5fd21dec0539")
        self.client.mirror(first)
        self.client.mirror(second)
        self.assertEqual(int(self.client.timers.Purge(first["api_origin"], first["user_id"], first["family_subject_id"])), 1)
        self.assertEqual([t["timer_id"] for t in self.client.list()], [second["timer_id"]])
        self.client.mirror(first)
        self.assertEqual(int(self.client.timers.Purge(first["api_origin"], first["user_id"], "")), 2)
        self.assertEqual(self.client.list(), [])

    def test_complete_is_recorded_before_the_reply(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.assertEqual(str(self.client.timers.Complete(timer["timer_id"], dbus.Int64(0))), "queued")
        [listed] = self.client.list()
        self.assertEqual(listed["state"], "saving")
        self.assertIs(listed["can_complete"], False)
        self.assertEqual(int(self.client.properties.Get(INTERFACE, "PendingCompletions")), 1)

    def test_open_starts_the_opener_with_the_deep_link(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.client.timers.Open(timer["timer_id"])
        expected = self.client.list()[0]["deep_link"]
        deadline = time.monotonic() + PATIENCE
        while expected not in self.session.opened_urls() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.session.opened_urls(), [expected])

    def test_gdbus_can_mirror_and_complete(self):
        timer = timer_dict()
        argument = "{%s}" % ", ".join(
            "'%s': <%s>" % (key, ("int64 %d" % value) if isinstance(value, int) else "'%s'" % value)
            for key, value in timer.items())
        gdbus_call(self.session, "Mirror", argument)
        self.assertIn(timer["timer_id"], gdbus_call(self.session, "List").stdout)
        reply = gdbus_call(self.session, "Complete", timer["timer_id"], "0").stdout
        self.assertEqual(reply.strip(), "('queued',)")


class ErrorTests(ClientTestCase):
    def test_every_domain_error_has_its_name(self):
        cases = [
            ("NotSleep", timer_dict(activity_type="breastfeeding")),
            ("NotSelfMode", timer_dict(actor_mode="coach")),
            ("BearerTokenRefused", timer_dict(action_token=JWT)),
            ("OriginNotAllowed", timer_dict(api_origin="https://evil.example")),
            ("OriginNotAllowed", timer_dict(api_origin="http://api.dreamsforlittles.example")),
            ("TokenExpired", timer_dict(token_expires_at_ms=now_ms() - 1000)),
            ("InvalidArgument", timer_dict(timer_id="not-a-uuid")),
            ("InvalidArgument", timer_dict(baby_name="x" * 65)),
            ("InvalidArgument", timer_dict(baby_name="\u202eayaM")),
            ("InvalidArgument", timer_dict(started_at_ms=now_ms() + 3600 * 1000)),
            ("InvalidArgument", timer_dict(started_at_ms=now_ms() - 49 * 3600 * 1000)),
            ("InvalidArgument", timer_dict(timezone="Mars/Base")),
        ]
        for name, timer in cases:
            with self.subTest(name=name, timer=timer):
                message = self.assertRefused(ERROR + name, self.client.mirror, timer)
                self.assertNotIn("CANARY", message)
        self.assertEqual(self.client.list(), [])

    def test_missing_unknown_and_mistyped_keys(self):
        timer = timer_dict()
        del timer["baby_name"]
        self.assertIn("baby_name", self.assertRefused(ERROR + "InvalidArgument", self.client.mirror, timer))
        self.assertIn("colour", self.assertRefused(ERROR + "InvalidArgument", self.client.mirror,
                                                   dict(timer_dict(), colour="blue")))
        mistyped = dbus.Dictionary({k: typed(k, v) for k, v in timer_dict().items()}, signature="sv")
        mistyped["started_at_ms"] = dbus.String("yesterday")
        message = self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Mirror, mistyped)
        self.assertIn("started_at_ms", message)

    def test_unknown_timer_and_cannot_complete(self):
        unknown = "00000000-0000-4000-8000-000000000999"
        self.assertRefused(ERROR + "UnknownTimer", self.client.timers.Complete, unknown, dbus.Int64(0))
        self.assertRefused(ERROR + "UnknownTimer", self.client.timers.Open, unknown)
        timer = timer_dict()
        self.client.mirror(timer)
        self.client.timers.Complete(timer["timer_id"], dbus.Int64(0))
        self.assertRefused(ERROR + "CannotComplete", self.client.timers.Complete, timer["timer_id"], dbus.Int64(0))

    def test_completion_times_are_checked(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.assertIn("before", self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Complete,
                                                   timer["timer_id"], dbus.Int64(timer["started_at_ms"] - 1)))
        self.assertIn("future", self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Complete,
                                                   timer["timer_id"], dbus.Int64(now_ms() + 3600 * 1000)))
        self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Complete, timer["timer_id"], dbus.Int64(-5))
        self.assertEqual(self.client.list()[0]["state"], "running")

    def test_malformed_ids_in_every_method(self):
        self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Remove, "x")
        self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Reconcile, "https://api.dreamsforlittles.example",
                           "nope", "c56a4180-65aa-42ec-a945-5fd21dec0538", dbus.Array([], signature="s"))
        self.assertRefused(ERROR + "InvalidArgument", self.client.timers.Reconcile, "https://api.dreamsforlittles.example",
                           "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f", "c56a4180-65aa-42ec-a945-5fd21dec0538",
                           dbus.Array(["bad"], signature="s"))
        self.assertRefused(ERROR + "OriginNotAllowed", self.client.timers.Purge, "ftp://x", "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f", "")

    def test_wrong_signatures_and_unknown_methods_get_the_standard_errors(self):
        self.assertRefused("org.freedesktop.DBus.Error.InvalidArgs", self.client.timers.Mirror, "a string")
        self.assertRefused("org.freedesktop.DBus.Error.InvalidArgs", self.client.timers.Remove, dbus.Int32(4))
        self.assertRefused("org.freedesktop.DBus.Error.InvalidArgs", self.client.timers.Complete, "x")
        self.assertRefused("org.freedesktop.DBus.Error.UnknownMethod", self.client.timers.Explode)
        other = dbus.Interface(self.client.proxy, "com.example.Nothing")
        self.assertRefused("org.freedesktop.DBus.Error.UnknownInterface", other.Anything)

    def test_the_agent_keeps_serving_after_refusals(self):
        for _ in range(20):
            with self.assertRaises(dbus.exceptions.DBusException):
                self.client.mirror(timer_dict(activity_type="pumping"))
        self.client.mirror(timer_dict())
        self.assertEqual(len(self.client.list()), 1)


class SignalAndPropertyTests(ClientTestCase):
    def test_mirror_signals_timer_changed_then_properties_changed(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.assertTrue(self.client.wait_for(lambda: len(self.client.signals) >= 2))
        (first, [changed]), (second, [interface, properties, invalidated]) = self.client.signals[:2]
        self.assertEqual(first, "TimerChanged")
        self.assertEqual(changed["timer_id"], timer["timer_id"])
        self.assertEqual(changed["state"], "running")
        self.assertNotIn("CANARY", json.dumps(changed))
        self.assertEqual(second, "PropertiesChanged")
        self.assertEqual((interface, properties, invalidated), (INTERFACE, {"RunningCount": 1}, []))

    def test_complete_signals_saving_and_pending_count(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.client.timers.Complete(timer["timer_id"], dbus.Int64(0))
        self.assertTrue(self.client.wait_for(lambda: len(self.client.signals) >= 4))
        member, args = self.client.signals[2]
        self.assertEqual((member, args[0]["state"]), ("TimerChanged", "saving"))
        self.assertEqual(self.client.signals[3], ("PropertiesChanged", [INTERFACE, {"PendingCompletions": 1}, []]))

    def test_removal_reasons(self):
        removed, reconciled, purged = timer_dict(), timer_dict(), timer_dict()
        for timer in (removed, reconciled, purged):
            self.client.mirror(timer)
        self.client.timers.Remove(removed["timer_id"])
        self.client.timers.Reconcile(reconciled["api_origin"], reconciled["user_id"], reconciled["family_subject_id"],
                                     dbus.Array([purged["timer_id"]], signature="s"))
        self.client.timers.Purge(purged["api_origin"], purged["user_id"], "")
        self.assertTrue(self.client.wait_for(lambda: self.client.members().count("TimerRemoved") == 3))
        removals = [args for member, args in self.client.signals if member == "TimerRemoved"]
        self.assertEqual(removals, [[removed["timer_id"], "removed"], [reconciled["timer_id"], "reconciled"],
                                    [purged["timer_id"], "purged"]])
        self.assertEqual(self.client.signals[-1], ("PropertiesChanged", [INTERFACE, {"RunningCount": 0}, []]))

    def test_properties(self):
        everything = {str(k): v for k, v in self.client.properties.GetAll(INTERFACE).items()}
        self.assertEqual(set(everything),
                         {"Version", "RunningCount", "PendingCompletions", "NotificationServer", "AllowedOrigins"})
        self.assertEqual([str(origin) for origin in everything["AllowedOrigins"]], [ORIGIN, "http://127.0.0.1:1"])
        self.assertRegex(str(everything["Version"]), r"^\d+\.\d+\.\d+$")
        self.client.mirror(timer_dict())
        self.assertEqual(int(self.client.properties.Get(INTERFACE, "RunningCount")), 1)
        self.assertRefused("org.freedesktop.DBus.Error.PropertyReadOnly",
                           lambda: self.client.properties.Set(INTERFACE, "RunningCount", dbus.UInt32(9), signature="ssv"))
        self.assertRefused("org.freedesktop.DBus.Error.UnknownProperty", self.client.properties.Get, INTERFACE, "Colour")
        self.assertRefused("org.freedesktop.DBus.Error.UnknownInterface", self.client.properties.GetAll, "com.example.X")

    def test_introspection_and_peer(self):
        xml = gdbus_call(self.session, "Introspect", interface="org.freedesktop.DBus.Introspectable").stdout
        xml = eval(xml)[0]  # gdbus prints a GVariant tuple of one string
        root = ElementTree.fromstring(xml)
        interfaces = {node.get("name") for node in root.findall("interface")}
        self.assertTrue({INTERFACE, "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
                         "org.freedesktop.DBus.Peer"} <= interfaces)
        ours = root.find("interface[@name='%s']" % INTERFACE)
        self.assertEqual({m.get("name") for m in ours.findall("method")},
                         {"Mirror", "Remove", "Reconcile", "Purge", "List", "Complete", "Open", "CompleteRunning",
                          "OpenRunning"})
        self.assertEqual({s.get("name") for s in ours.findall("signal")},
                         {"TimerChanged", "TimerRemoved", "CompletionFinished", "TokenExpiring"})
        peer = dbus.Interface(self.client.proxy, "org.freedesktop.DBus.Peer")
        peer.Ping()
        self.assertEqual(len(str(peer.GetMachineId())), 32)
        parent = subprocess.run(["gdbus", "introspect", "--session", "--dest", "com.dreamsforlittles.DreamsForLittles.SleepTimers1",
                                 "--object-path", "/com/dreamsforlittles"], env=self.session.env,
                                capture_output=True, text=True, timeout=PATIENCE)
        self.assertIn("SleepTimers1", parent.stdout)

    def test_the_installed_interface_file_matches_introspection(self):
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "..", "Sources", "SleepTimersService", "com.dreamsforlittles.SleepTimers1.xml")
        shipped = ElementTree.parse(path).getroot().find("interface")
        live = ElementTree.fromstring(eval(gdbus_call(
            self.session, "Introspect", interface="org.freedesktop.DBus.Introspectable").stdout)[0])
        served = live.find("interface[@name='%s']" % INTERFACE)
        shipped.tail = served.tail = None
        self.assertEqual(ElementTree.tostring(shipped), ElementTree.tostring(served))


class LifecycleTests(AgentTestCase):
    start_agent = False

    def test_ready_then_stopping_on_sigterm_with_exit_zero_and_the_name_released(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        self.assertTrue(client.bus.name_has_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1"))
        self.assertEqual(agent.terminate(signal.SIGTERM), 0)
        self.assertFalse(client.bus.name_has_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1"))

    def test_sigint_also_exits_cleanly(self):
        agent = AgentProcess(self.session)
        notify = agent.notify
        agent.process.send_signal(signal.SIGINT)
        self.assertIn("STOPPING=1", notify.receive())
        self.assertEqual(agent.process.wait(PATIENCE), 0)

    def test_a_second_instance_is_refused(self):
        first = AgentProcess(self.session)
        second = subprocess.run([AGENT], env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        # The store's lock refuses it before the bus name would.
        self.assertEqual(second.returncode, 75)
        self.assertIn("Another dfl-sleep-agent, process %d, holds the timer store" % first.pid, second.stderr)
        self.assertTrue(second.stderr.startswith("<"), "log lines carry journald priorities")
        client = Client(self.session)
        self.addCleanup(client.close)
        self.assertEqual(client.list(), [])
        self.assertEqual(first.process.poll(), None)

    def test_state_is_kept_across_a_restart(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        timer = timer_dict()
        client.mirror(timer)
        client.timers.Complete(timer["timer_id"], dbus.Int64(0))
        client.close()
        self.assertEqual(agent.terminate(), 0)
        AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        [listed] = client.list()
        self.assertEqual((listed["timer_id"], listed["state"]), (timer["timer_id"], "saving"))
        self.assertEqual(int(client.properties.Get(INTERFACE, "PendingCompletions")), 1)

    def test_a_timer_older_than_any_sleep_is_dropped_at_start_with_a_signal(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        forgotten = timer_dict(started_at_ms=now_ms() - 48 * 3600 * 1000 + 1500)
        lasting = timer_dict()
        client.mirror(forgotten)
        client.mirror(lasting)
        agent.terminate()
        time.sleep(2)
        client.signals.clear()
        AgentProcess(self.session)
        self.assertTrue(client.wait_for(lambda: "TimerRemoved" in client.members()))
        self.assertIn(("TimerRemoved", [forgotten["timer_id"], "expired"]), client.signals)
        self.assertEqual([t["timer_id"] for t in client.list()], [lasting["timer_id"]])

    def test_a_token_running_out_keeps_the_sleep_listed_for_the_app_to_finish(self):
        AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        timer = timer_dict(token_expires_at_ms=now_ms() + 1000)
        client.mirror(timer)
        self.assertTrue(client.wait_for(lambda: any(
            member == "TimerChanged" and args[0]["state"] == "token-expired" for member, args in client.signals)))
        [listed] = client.list()
        self.assertEqual((listed["timer_id"], listed["state"], listed["can_complete"]),
                         (timer["timer_id"], "token-expired", False))
        self.assertNotIn("TimerRemoved", client.members())
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            client.timers.Complete(timer["timer_id"], dbus.Int64(0))
        self.assertEqual(refused.exception.get_dbus_name(), ERROR + "CannotComplete")

    def test_a_token_about_to_expire_is_announced_for_renewal(self):
        AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        expires = now_ms() + 10 * 60 * 1000
        timer = timer_dict(token_expires_at_ms=expires)
        client.mirror(timer)
        self.assertTrue(client.wait_for(lambda: "TokenExpiring" in client.members()))
        self.assertEqual([args for member, args in client.signals if member == "TokenExpiring"],
                         [[timer["timer_id"], expires]])

    def test_the_renewal_lead_comes_from_the_configuration(self):
        with open(os.path.join(self.session.config_dir, "sleep-agent.conf")) as handle:
            self.session.write_config(handle.read() + "\n[timers]\nrenew-before-expiry-minutes=60\n")
        AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        # 50 minutes ahead: not yet due with the default half hour, due with an hour.
        expires = now_ms() + 50 * 60 * 1000
        timer = timer_dict(token_expires_at_ms=expires)
        client.mirror(timer)
        self.assertTrue(client.wait_for(lambda: "TokenExpiring" in client.members()))
        self.assertEqual([args for member, args in client.signals if member == "TokenExpiring"],
                         [[timer["timer_id"], expires]])

    def test_a_bad_timers_setting_is_named(self):
        self.session.write_config("[timers]\nmax-token-lifetime-hours=2\nrenew-before-expiry-minutes=180\n")
        result = subprocess.run([AGENT], env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(result.returncode, 78)
        self.assertIn("sleep-agent.conf:3: [timers] renew-before-expiry-minutes: renew-before-expiry-minutes (180) "
                      "must be shorter than max-token-lifetime-hours (2 h)", result.stderr)

    def test_a_bad_configuration_file_is_named(self):
        self.session.write_config("[notifications]\nlive-elapsed=sometimes\n")
        result = subprocess.run([AGENT], env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(result.returncode, 78)
        self.assertIn("sleep-agent.conf:2: [notifications] live-elapsed", result.stderr)

    def run_refused_agent(self):
        """The agent started with the session's configuration, expected to
        refuse it: (exit code, stderr, peak resident memory in kB).

        GNU time starts it and reports its ru_maxrss (what VmHWM shows while
        a process lives), which counts the memory of the process it was
        forked from: this process would count, time's own is small."""
        peak_file = os.path.join(self.session.root, "agent-peak-kb")
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak_file, AGENT], env=self.session.env,
                                capture_output=True, text=True, timeout=PATIENCE)
        with open(peak_file) as handle:
            peak_kb = int(handle.read().split()[-1])
        return result.returncode, result.stderr, peak_kb

    def config_path(self):
        return os.path.join(self.session.config_dir, "sleep-agent.conf")

    def test_a_configuration_of_200_mb_is_refused_without_being_read(self):
        with open(self.config_path(), "wb") as handle:
            handle.write(b"[platform]\n")
            for _ in range(200):
                handle.write(b"# " + b"x" * (1024 * 1024 - 3) + b"\n")
        code, stderr, peak_kb = self.run_refused_agent()
        self.assertEqual(code, 78)
        self.assertIn("sleep-agent.conf: is larger than 64 KiB", stderr)
        self.assertLess(peak_kb, 50 * 1024, "the agent read the whole file")

    def test_a_symbolically_linked_configuration_is_refused_in_words(self):
        target = os.path.join(self.session.root, "elsewhere.conf")
        with open(target, "w") as handle:
            handle.write("[notifications]\nlive-elapsed=on\n")
        os.unlink(self.config_path())
        os.symlink(target, self.config_path())
        code, stderr, _ = self.run_refused_agent()
        self.assertEqual(code, 78)
        self.assertIn("sleep-agent.conf: is a symbolic link, which is not followed; put the file itself there", stderr)

    def test_a_fifo_as_configuration_is_refused_without_waiting_for_a_writer(self):
        os.unlink(self.config_path())
        os.mkfifo(self.config_path())
        result = subprocess.run([AGENT], env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(result.returncode, 78)
        self.assertIn("sleep-agent.conf: is not a regular file", result.stderr)

    def test_usage(self):
        self.assertEqual(subprocess.run([AGENT, "--bogus"], capture_output=True, timeout=PATIENCE).returncode, 64)
        help_text = subprocess.run([AGENT, "--help"], capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(help_text.returncode, 0)
        self.assertIn("Usage: dfl-sleep-agent", help_text.stdout)


if __name__ == "__main__":
    unittest.main()
