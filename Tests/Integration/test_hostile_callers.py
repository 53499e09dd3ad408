"""Hostile clients of com.dreamsforlittles.SleepTimers1: wrong signatures,
empty and huge strings, bytes that are not UTF-8, bad dictionaries, huge
messages, descriptors of the wrong kind, a flood, forged notification
signals and an impostor owning the name. The agent never crashes, never
stalls its other callers, and answers each bad call with a documented error
that says why in a sentence, without repeating what was sent."""

import json
import os
import socket
import subprocess
import time
import unittest
import uuid

import dbus
import dbus.bus
import dbus.lowlevel

import bus_probe
from bus_probe import Body, RawBusConnection, call, connections_of, crash_signs, owner_pid
from proc_accounting import descriptors
from dbus_client import Client, typed
from desktop import NOTIFICATIONS, RecordingServer
from harness import (BUS_NAME, ERROR, INTERFACE, OBJECT_PATH, ORIGIN, USER_ID, FAMILY_ID, PATIENCE,
                     AgentProcess, Session, canary_token, timer_dict)

HERE = os.path.dirname(os.path.abspath(__file__))
PROPERTIES = "org.freedesktop.DBus.Properties"
INTROSPECTABLE = "org.freedesktop.DBus.Introspectable"
STANDARD = "org.freedesktop.DBus.Error."

# docs/dbus-api.md, "Errors".
DOCUMENTED_ERRORS = {ERROR + name for name in (
    "InvalidArgument", "NotSleep", "NotSelfMode", "BearerTokenRefused", "OriginNotAllowed", "TokenExpired",
    "UnknownTimer", "CannotComplete", "StorageFailed", "TooManyTimers", "StoreInUse")} | {STANDARD + name for name in (
        "UnknownMethod", "UnknownInterface", "UnknownProperty", "PropertyReadOnly", "InvalidArgs")}
# What the agent answers a message with more values than it unpacks (not in
# the table of docs/dbus-api.md).
LIMITS_EXCEEDED = STANDARD + "LimitsExceeded"

MEBIBYTE = 1 << 20
# The signature of every method the object serves.
METHODS = {
    "Mirror": (INTERFACE, "a{sv}"), "Remove": (INTERFACE, "s"), "Reconcile": (INTERFACE, "sssas"),
    "Purge": (INTERFACE, "sss"), "List": (INTERFACE, ""), "Complete": (INTERFACE, "sx"), "Open": (INTERFACE, "s"),
    "CompleteRunning": (INTERFACE, ""), "OpenRunning": (INTERFACE, ""),
    "Get": (PROPERTIES, "ss"), "GetAll": (PROPERTIES, "s"), "Set": (PROPERTIES, "ssv"),
    "Introspect": (INTROSPECTABLE, ""),
}
UNKNOWN_ID = "00000000-0000-4000-8000-000000000999"


def sample_arguments(signature, descriptor):
    """Arguments of the given signature, for calls of the wrong one."""
    samples = {
        "": (), "s": ("a",), "i": (dbus.Int32(4),), "x": (dbus.Int64(4),), "u": (dbus.UInt32(4),),
        "b": (True,), "d": (1.5,), "y": (dbus.Byte(7),), "o": (dbus.ObjectPath("/x"),),
        "g": (dbus.Signature("s"),), "ss": ("a", "b"), "sss": ("a", "b", "c"), "sx": ("a", dbus.Int64(0)),
        "xs": (dbus.Int64(0), "a"), "ssv": ("a", "b", "c"), "ssss": ("a", "b", "c", "d"),
        "as": (dbus.Array(["a"], signature="s"),), "ay": (dbus.ByteArray(b"abc"),),
        "a{sv}": (dbus.Dictionary({"timer_id": "a"}, signature="sv"),),
        "a{ss}": (dbus.Dictionary({"timer_id": "a"}, signature="ss"),),
        "aa{sv}": (dbus.Array([], signature="a{sv}"),), "(ss)": (dbus.Struct(("a", "b"), signature="ss"),),
        "v": (dbus.String("a", variant_level=1),), "sssas": ("a", "b", "c", dbus.Array([], signature="s")),
        "sssass": ("a", "b", "c", dbus.Array([], signature="s"), "d"),
        "h": (dbus.types.UnixFd(descriptor),),
    }
    return samples[signature]


class HostileTestCase(unittest.TestCase):
    """An agent on a bus with a desktop's session limits, and a client."""

    def session(self):
        return bus_probe.session_with_desktop_limits()

    def setUp(self):
        self.session = self.session()
        self.addCleanup(self.session.close)
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.bus = self.client.bus
        self.canary = canary_token()

    def refuse(self, member, signature=None, *args, interface=None, allowed=None, timeout=PATIENCE):
        """Calls and expects a refusal; returns (name, message)."""
        interface = interface or METHODS.get(member, (INTERFACE,))[0]
        accepted = "%s(%s) was accepted" % (member, signature)
        with self.assertRaises(dbus.exceptions.DBusException, msg=accepted) as raised:
            call(self.bus, member, signature, *args, interface=interface, timeout=timeout)
        name, message = raised.exception.get_dbus_name(), raised.exception.get_dbus_message() or ""
        self.assertTrue(name in (allowed or DOCUMENTED_ERRORS),
                        "%s(%s): %s: %s" % (member, signature, name, message[:300]))
        self.assertTrue(message and message[0].isalpha(),
                        "%s(%s): the error says no sentence: %r" % (member, signature, message[:300]))
        return name, message

    def assertStillServing(self):
        """Same process, owning the name, answering Ping and List, and no
        sign of a crash in its log."""
        self.assertIsNone(self.agent.process.poll(), "the agent exited:\n" + self.agent.log()[-3000:])
        self.assertEqual(owner_pid(self.bus, BUS_NAME), self.agent.pid)
        call(self.bus, "Ping", interface="org.freedesktop.DBus.Peer")
        self.assertIsInstance(self.client.list(), list)
        self.assertEqual(crash_signs(self.agent.log()), [])


class SignatureTests(HostileTestCase):
    def test_every_method_refuses_every_wrong_signature(self):
        read_end, write_end = os.pipe()
        self.addCleanup(os.close, read_end)
        self.addCleanup(os.close, write_end)
        before = len(descriptors(self.agent.pid))
        signatures = ["", "s", "i", "x", "u", "b", "d", "y", "o", "g", "ss", "sss", "sx", "xs", "ssv", "ssss", "as",
                      "ay", "a{sv}", "a{ss}", "aa{sv}", "(ss)", "v", "sssas", "sssass", "h"]
        accepted = []
        for member, (interface, right) in METHODS.items():
            for signature in signatures:
                if signature == right:
                    continue
                try:
                    call(self.bus, member, signature, *sample_arguments(signature, read_end), interface=interface)
                    accepted.append("%s(%s)" % (member, signature))
                    continue
                except dbus.exceptions.DBusException as error:
                    name, message = error.get_dbus_name(), error.get_dbus_message() or ""
                with self.subTest(member=member, signature=signature):
                    self.assertEqual(name, STANDARD + "InvalidArgs", message)
                    self.assertTrue(message[:1].isalpha(), message)
        # Without an interface, a call goes to the agent's own interface.
        for member, signature, arguments in (("Complete", "s", ("x",)), ("Remove", "i", (dbus.Int32(1),))):
            message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, None, member)
            message.append(*arguments, signature=signature)
            with self.assertRaises(dbus.exceptions.DBusException) as raised:
                self.bus.send_message_with_reply_and_block(message, PATIENCE)
            self.assertEqual(raised.exception.get_dbus_name(), STANDARD + "InvalidArgs")
        # The descriptors sent in the wrong place were all closed again.
        self.client.list()
        self.client.list()
        self.assertLessEqual(len(descriptors(self.agent.pid)), before + 1, descriptors(self.agent.pid))
        self.assertStillServing()
        self.assertEqual(accepted, [], "calls of a wrong signature were answered as if right")

    def test_unknown_methods_interfaces_and_objects(self):
        self.assertEqual(self.refuse("Explode", interface=INTERFACE)[0], STANDARD + "UnknownMethod")
        self.assertEqual(self.refuse("Explode", interface=PROPERTIES)[0], STANDARD + "UnknownMethod")
        self.assertEqual(self.refuse("Explode", interface=INTROSPECTABLE)[0], STANDARD + "UnknownMethod")
        self.assertEqual(self.refuse("List", interface="com.example.Nothing")[0], STANDARD + "UnknownInterface")
        for path in ("/", "/com/dreamsforlittles", "/com/dreamsforlittles/SleepTimers1/child", "/x"):
            with self.subTest(path=path):
                with self.assertRaises(dbus.exceptions.DBusException) as raised:
                    call(self.bus, "List", path=path)
                self.assertIn(raised.exception.get_dbus_name(),
                              {STANDARD + "UnknownMethod", STANDARD + "UnknownObject"})
        self.assertStillServing()


class StringTests(HostileTestCase):
    def arguments_with(self, member, value):
        """Every way to put `value` into one string argument of `member`,
        the others valid: [(what, signature, arguments)]."""
        valid = {
            "Remove": ("s", [UNKNOWN_ID]), "Open": ("s", [UNKNOWN_ID]),
            "Complete": ("sx", [UNKNOWN_ID, dbus.Int64(0)]),
            "Purge": ("sss", [ORIGIN, USER_ID, FAMILY_ID]),
            "Reconcile": ("sssas", [ORIGIN, USER_ID, FAMILY_ID, dbus.Array([UNKNOWN_ID], signature="s")]),
            "Get": ("ss", [INTERFACE, "Version"]), "GetAll": ("s", [INTERFACE]),
            "Set": ("ssv", [INTERFACE, "Version", dbus.String("9.9.9", variant_level=1)]),
        }
        signature, arguments = valid[member]
        cases = []
        for index, argument in enumerate(arguments):
            if isinstance(argument, str):
                changed = list(arguments)
                changed[index] = value
                cases.append(("argument %d" % index, signature, changed))
        if member == "Reconcile":
            cases.append(("running_timer_ids", signature,
                          arguments[:3] + [dbus.Array([UNKNOWN_ID, value], signature="s")]))
        if member == "Set":
            cases.append(("the value", signature, arguments[:2] + [dbus.String(value, variant_level=1)]))
        return cases

    # The calls an empty string leaves valid: Purge of every family of the
    # user (documented), and GetAll of the empty interface (the standard's
    # "all interfaces").
    EMPTY_IS_VALID = {("Purge", "argument 2"), ("GetAll", "argument 0")}

    def test_empty_strings_in_every_string_argument(self):
        for member in ("Remove", "Open", "Complete", "Purge", "Reconcile", "Get", "GetAll", "Set"):
            for what, signature, arguments in self.arguments_with(member, ""):
                with self.subTest(member=member, argument=what):
                    if (member, what) in self.EMPTY_IS_VALID:
                        call(self.bus, member, signature, *arguments, interface=METHODS[member][0])
                    else:
                        self.refuse(member, signature, *arguments)
        self.assertStillServing()

    def test_mebibyte_strings_in_every_string_argument(self):
        huge = self.canary + "x" * MEBIBYTE
        for member in ("Remove", "Open", "Complete", "Purge", "Reconcile", "Get", "GetAll", "Set"):
            for what, signature, arguments in self.arguments_with(member, huge):
                with self.subTest(member=member, argument=what):
                    self.refuse(member, signature, *arguments)
        mirror = {key: typed(key, value) for key, value in timer_dict().items()}
        for key, value in list(mirror.items()):
            if isinstance(value, str):
                with self.subTest(member="Mirror", key=key):
                    self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(mirror, **{key: huge}), signature="sv"))
        with self.subTest(member="Mirror", key="a huge key"):
            self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(mirror, **{huge: "x"}), signature="sv"))
        self.assertEqual(self.client.list(), [])
        self.assertStillServing()

    def test_no_error_repeats_what_was_sent(self):
        """A value sent in the wrong place, a token among them, is never
        echoed (the agent's own rule for unknown Mirror keys), and no answer
        grows with what was sent."""
        huge = self.canary + "x" * MEBIBYTE
        for member in ("Remove", "Open", "Complete", "Purge", "Reconcile", "Get", "GetAll", "Set"):
            for value in (self.canary, huge):
                for what, signature, arguments in self.arguments_with(member, value):
                    with self.subTest(member=member, argument=what, length=len(value)):
                        name, message = self.refuse(member, signature, *arguments)
                        self.assertFalse(self.canary in message, "%s repeats %s: %r" % (name, what, message[:160]))
                        self.assertLessEqual(len(message), 1024, "%s answered %d characters: %r" % (
                            name, len(message), message[:160]))
        mirror = {key: typed(key, value) for key, value in timer_dict().items()}
        # Each value invalid for its key, and holding the canary.
        for key, short in (("timer_id", self.canary), ("api_origin", self.canary), ("user_id", self.canary),
                           ("timezone", self.canary), ("activity_type", self.canary), ("actor_mode", self.canary),
                           ("baby_name", self.canary * 2), ("action_token", self.canary * 30)):
            for value in (short, huge):
                with self.subTest(member="Mirror", key=key, length=len(value)):
                    _, message = self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(mirror, **{key: value}),
                                                                                signature="sv"))
                    self.assertFalse(self.canary in message, "Mirror repeats %s: %r" % (key, message[:160]))
                    self.assertLessEqual(len(message), 1024, message[:160])
        self.assertFalse(self.canary in self.agent.log(), "the agent logged what was sent")
        self.assertStillServing()

    def test_bytes_that_are_not_utf8_never_reach_the_agent(self):
        """libdbus will not build such a message; written by hand, the bus
        refuses it and drops the sender. Either way the agent never sees it
        and keeps answering."""
        not_utf8 = [b"\xff\xfe", b"caf\xe9", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                    b"a\x00b"]
        for raw in not_utf8:
            with self.subTest(raw=raw):
                message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "Remove")
                with self.assertRaises((UnicodeError, ValueError, TypeError)):
                    message.append(raw, signature="s")
                connection = RawBusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
                self.addCleanup(connection.close)
                serial = connection.call_agent("Remove", Body().string(raw))
                with self.assertRaises(EOFError, msg="the bus passed a string that is not UTF-8 on"):
                    connection.reply_to(serial)
                self.assertNotIn(connection.unique_name + ":", self.agent.log(),
                                 "the agent saw the message of %s" % connection.unique_name)
                self.assertStillServing()
        # Control: the same raw client with valid UTF-8 gets the agent's answer.
        connection = RawBusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(connection.close)
        kind, name, body = connection.reply_to(connection.call_agent("Remove", Body().string("caf\u00e9".encode())))
        self.assertEqual((kind, name), (3, ERROR + "InvalidArgument"), bus_probe.error_text(body))

    def test_valid_but_unusual_unicode_is_refused_with_a_sentence(self):
        """Noncharacters, the last code point and bidirectional controls are
        valid UTF-8 that the bus passes on."""
        strange = ["\ufffe", "\uffff", "\ufdd0", "\U0010ffff", "\u202e", "\u200b",
                   "\U0001f476" * 64, "a\u0301" * 40]
        connection = RawBusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(connection.close)
        for text in strange:
            with self.subTest(text=text.encode("unicode_escape")):
                kind, name, body = connection.reply_to(connection.call_agent("Remove", Body().string(text.encode())))
                self.assertEqual((kind, name), (3, ERROR + "InvalidArgument"))
                timer = [(key.encode(), value if isinstance(value, int) else value.encode())
                         for key, value in timer_dict(baby_name=text).items()]
                kind, name, body = connection.reply_to(connection.call_agent("Mirror", Body().vardict(timer)))
                if kind == 3:
                    self.assertIn(name, DOCUMENTED_ERRORS)
                    self.assertTrue(bus_probe.error_text(body)[:1].isalpha())
        listed = self.client.list()
        for timer in listed:
            self.assertIn(timer["baby_name"], strange)
        self.assertStillServing()


class DictionaryTests(HostileTestCase):
    def mirror_raw(self, entries):
        connection = RawBusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(connection.close)
        return connection.reply_to(connection.call_agent("Mirror", Body().vardict(entries)))

    def timer_entries(self, **overrides):
        return [(key.encode(), value if isinstance(value, int) else value.encode())
                for key, value in timer_dict(action_token=self.canary, **overrides).items()]

    def test_unknown_missing_duplicate_and_mistyped_keys(self):
        valid = {key: typed(key, value) for key, value in timer_dict(action_token=self.canary).items()}
        for key in ("colour", "Timer_ID", "timer_id ", self.canary, "", "x" * 33, "\u00e9t\u00e9"):
            with self.subTest(unknown=key):
                _, message = self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(valid, **{key: "x"}), signature="sv"))
                self.assertNotIn(self.canary, message)
        required = [key for key in valid if key not in ("action_token", "revision")]
        for key in required:
            with self.subTest(missing=key):
                name, message = self.refuse("Mirror", "a{sv}", dbus.Dictionary(
                    {k: v for k, v in valid.items() if k != key}, signature="sv"))
                self.assertEqual(name, ERROR + "InvalidArgument")
                self.assertIn(key, message)
        for key in required + ["action_token", "revision"]:
            with self.subTest(duplicate=key):
                entries = self.timer_entries()
                entries += [entry for entry in entries if entry[0] == key.encode()]
                kind, name, body = self.mirror_raw(entries)
                self.assertEqual((kind, name), (3, ERROR + "InvalidArgument"), bus_probe.error_text(body))
                self.assertIn("twice", bus_probe.error_text(body))
                self.assertNotIn(self.canary, bus_probe.error_text(body))
        wrong_types = {
            "timer_id": dbus.Int64(5), "started_at_ms": "yesterday", "token_expires_at_ms": dbus.Int32(5),
            "revision": dbus.UInt64(5), "baby_name": dbus.ByteArray(b"Maya"), "action_token": dbus.Int64(1),
            "action_token_fd": self.canary, "timezone": dbus.Array(["Europe/Berlin"], signature="s"),
            "api_origin": dbus.String(ORIGIN, variant_level=2), "actor_mode": dbus.Boolean(True),
        }
        for key, value in wrong_types.items():
            with self.subTest(mistyped=key):
                name, message = self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(valid, **{key: value}),
                                                                                signature="sv"))
                self.assertEqual(name, ERROR + "InvalidArgument")
                self.assertNotIn(self.canary, message)
        self.assertEqual(self.refuse("Mirror", "a{sv}", dbus.Dictionary({}, signature="sv"))[0],
                         ERROR + "InvalidArgument")
        self.assertEqual(self.client.list(), [])
        self.assertStillServing()

    def test_extreme_numbers(self):
        extremes = [-(2 ** 63), -1, 0, 2 ** 63 - 1]
        for key in ("started_at_ms", "token_expires_at_ms", "revision"):
            for number in extremes:
                with self.subTest(key=key, number=number):
                    timer = timer_dict(**{key: number})
                    if key == "revision" and number >= 0:
                        self.client.mirror(timer)  # a revision may be any non-negative number
                    else:
                        self.refuse("Mirror", "a{sv}", dbus.Dictionary(
                            {k: typed(k, v) for k, v in timer.items()}, signature="sv"))
        timer = timer_dict()
        self.client.mirror(timer)
        for number in extremes:
            with self.subTest(complete_at=number):
                if number == 0:
                    continue
                self.refuse("Complete", "sx", timer["timer_id"], dbus.Int64(number))
        self.assertEqual({t["state"] for t in self.client.list()}, {"running"})
        self.assertStillServing()

    def test_a_mirror_of_100000_entries(self):
        distinct = dbus.Dictionary({"key%d" % n: "v" for n in range(100000)}, signature="sv")
        name, _ = self.refuse("Mirror", "a{sv}", distinct, allowed={LIMITS_EXCEEDED, ERROR + "InvalidArgument"})
        entries = self.timer_entries()
        entries += [(b"timer_id", str(uuid.uuid4()).encode())] * 100000
        kind, name, body = self.mirror_raw(entries)
        self.assertEqual(kind, 3)
        self.assertIn(name, {LIMITS_EXCEEDED, ERROR + "InvalidArgument"})
        self.assertTrue(bus_probe.error_text(body)[:1].isalpha())
        # Within the limit: refused for what it holds, not for its size.
        many = dbus.Dictionary({"key%d" % n: "v" for n in range(20000)}, signature="sv")
        self.assertEqual(self.refuse("Mirror", "a{sv}", many)[0], ERROR + "InvalidArgument")
        self.assertEqual(self.client.list(), [])
        self.assertStillServing()

    def test_a_reconcile_with_a_huge_array(self):
        ids = dbus.Array([str(uuid.UUID(int=n)) for n in range(200000)], signature="s")
        self.refuse("Reconcile", "sssas", ORIGIN, USER_ID, FAMILY_ID, ids,
                    allowed={LIMITS_EXCEEDED, ERROR + "InvalidArgument"})
        # 36 MiB in nine strings: more than dbus-daemon's default message
        # size, less than a desktop session bus allows.
        big = dbus.Array([self.canary + "x" * (4 * MEBIBYTE)] * 9, signature="s")
        name, message = self.refuse("Reconcile", "sssas", ORIGIN, USER_ID, FAMILY_ID, big,
                                    allowed={LIMITS_EXCEEDED, ERROR + "InvalidArgument"})
        self.assertNotIn(self.canary, message)
        self.assertStillServing()


class TooLargeForTheBusTests(HostileTestCase):
    """On a bus with dbus-daemon's default limits (32 MiB a message), the bus
    refuses the message and drops the sender: a clear error for the caller,
    and the agent never sees it."""

    def session(self):
        return Session()

    def test_the_bus_refuses_a_message_over_its_limit(self):
        sender = bus_probe.private_connection(self.session)
        self.addCleanup(sender.close)
        big = dbus.Array(["x" * (4 * MEBIBYTE)] * 9, signature="s")
        with self.assertRaises(dbus.exceptions.DBusException) as raised:
            call(sender, "Reconcile", "sssas", ORIGIN, USER_ID, FAMILY_ID, big)
        self.assertIn(raised.exception.get_dbus_name(),
                      {STANDARD + "Disconnected", STANDARD + "NoReply", LIMITS_EXCEEDED})
        self.assertNotIn("Reconcile", self.agent.log())
        self.assertStillServing()


class DescriptorTests(HostileTestCase):
    def assertDescriptorsBackTo(self, before):
        """The agent holds the descriptors of the message it handles until
        the next one: after two plain calls, no more than before remain."""
        self.client.list()
        self.client.list()
        after = descriptors(self.agent.pid)
        self.assertLessEqual(len(after), len(before) + 1, "descriptors leak: %r then %r" % (before, after))

    def mirror_with(self, descriptor):
        timer = {key: typed(key, value) for key, value in timer_dict(action_token=None).items()}
        timer["action_token_fd"] = dbus.types.UnixFd(descriptor)
        return self.refuse("Mirror", "a{sv}", dbus.Dictionary(timer, signature="sv"))

    def test_descriptors_of_the_wrong_kind_are_refused_without_blocking(self):
        kinds = {}
        left, right = socket.socketpair()
        self.addCleanup(left.close)
        self.addCleanup(right.close)
        kinds["a socket"] = left.fileno()
        for path in ("/dev/zero", "/dev/null", "/dev/urandom", "/"):
            kinds[path] = os.open(path, os.O_RDONLY)
            self.addCleanup(os.close, kinds[path])
        silent_read, silent_write = os.pipe()  # the writer stays open and never writes
        self.addCleanup(os.close, silent_read)
        self.addCleanup(os.close, silent_write)
        kinds["a pipe whose writer never writes"] = silent_read
        kinds["the write end of a pipe"] = silent_write
        fifo = os.path.join(self.session.root, "fifo")
        os.mkfifo(fifo)
        kinds["a FIFO without a writer"] = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.addCleanup(os.close, kinds["a FIFO without a writer"])
        empty_read, empty_write = os.pipe()
        os.close(empty_write)
        kinds["an empty closed pipe"] = empty_read
        self.addCleanup(os.close, empty_read)
        long_read, long_write = os.pipe()
        os.write(long_write, b"t" * 60000)  # longer than any token, writer still open
        kinds["a pipe holding 60 kB"] = long_read
        self.addCleanup(os.close, long_read)
        self.addCleanup(os.close, long_write)
        kinds["/proc/self/status"] = os.open("/proc/self/status", os.O_RDONLY)
        self.addCleanup(os.close, kinds["/proc/self/status"])
        kinds["an eventfd"] = os.eventfd(0)
        self.addCleanup(os.close, kinds["an eventfd"])

        # Served once each (warming up whatever the agent opens lazily),
        # then the descriptors it holds are counted, then 20 more rounds.
        for what, descriptor in kinds.items():
            with self.subTest(kind=what):
                name, _ = self.mirror_with(descriptor)
                self.assertEqual(name, ERROR + "InvalidArgument")
        before = descriptors(self.agent.pid)
        for _ in range(20):
            for descriptor in kinds.values():
                self.mirror_with(descriptor)
        self.assertDescriptorsBackTo(before)
        self.assertEqual(self.client.list(), [])
        self.assertStillServing()

    def test_the_callers_descriptor_is_left_as_it_was(self):
        """The agent reads the token without blocking, but must not switch
        the caller's own open file (shared with the agent's duplicate) to
        non-blocking mode."""
        read_end, write_end = os.pipe()
        self.addCleanup(os.close, read_end)
        self.addCleanup(os.close, write_end)
        self.mirror_with(read_end)
        self.assertTrue(os.get_blocking(read_end), "the agent made the caller's pipe non-blocking")

    def test_many_descriptors_in_one_call(self):
        read_end, write_end = os.pipe()
        self.addCleanup(os.close, read_end)
        self.addCleanup(os.close, write_end)
        before = descriptors(self.agent.pid)
        entries = {key: typed(key, value) for key, value in timer_dict(action_token=None).items()}
        message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "Reconcile")
        message.append(ORIGIN, USER_ID, FAMILY_ID, dbus.Array([UNKNOWN_ID], signature="s"),
                       dbus.Array([dbus.types.UnixFd(read_end)] * 12, signature="h"), signature="sssasah")
        with self.assertRaises(dbus.exceptions.DBusException) as raised:
            self.bus.send_message_with_reply_and_block(message, PATIENCE)
        self.assertEqual(raised.exception.get_dbus_name(), STANDARD + "InvalidArgs")
        entries["action_token_fd"] = dbus.types.UnixFd(read_end)
        extra = {"extra%d" % n: dbus.types.UnixFd(read_end) for n in range(10)}
        for _ in range(10):
            self.refuse("Mirror", "a{sv}", dbus.Dictionary(dict(entries, **extra), signature="sv"))
        self.assertDescriptorsBackTo(before)
        self.assertStillServing()


class FloodTests(HostileTestCase):
    def test_a_flood_from_one_connection_does_not_starve_another_client(self):
        marker = str(uuid.uuid4())
        worker = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(HERE, "flood_worker.py"), "--address",
             self.session.env["DBUS_SESSION_BUS_ADDRESS"], "--count", "5000", "--timer-id", marker,
             "--canary", self.canary],
            stdout=subprocess.PIPE, text=True, env=dict(self.session.env, PYTHONPATH=HERE))
        self.session.processes.append(worker)
        self.assertEqual(worker.stdout.readline().strip(), "connected")
        # The other client asks again and again until the flood is answered;
        # each List has the usual bounded wait.
        seen = []
        deadline = time.monotonic() + 10 * PATIENCE
        while worker.poll() is None and time.monotonic() < deadline:
            names = [t["baby_name"] for t in self.client.list() if t["timer_id"] == marker]
            seen.append(names[0] if names else None)
        summary = json.loads(worker.stdout.readline())
        worker.wait(PATIENCE)
        self.assertEqual((summary["sent"], summary["replies"]), (5000, 5000), summary)
        self.assertEqual(summary["marker_failures"], [])
        self.assertEqual(summary["ok"], summary["markers"])
        self.assertTrue(set(summary["errors"]) <= DOCUMENTED_ERRORS, summary["errors"])
        self.assertEqual(summary["unclear"], [])
        # Answered during the flood: after its first call, before its last.
        during = [name for name in seen if name not in (None, "Flood 4999")]
        self.assertTrue(during, "no List was answered while the flood was in progress: %r" % seen[-20:])
        self.assertEqual(self.client.list()[0]["baby_name"], "Flood 4999")
        self.assertStillServing()

    def test_a_client_that_never_reads_its_replies_or_leaves_mid_flood(self):
        for _ in range(3):
            self.client.mirror(timer_dict())
        silent = bus_probe.private_connection(self.session)
        for _ in range(3000):
            silent.send_message_with_reply(dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "List"),
                                           lambda reply: None, PATIENCE)
        silent.flush()
        # Never read; the others are served all the same.
        for _ in range(20):
            self.assertEqual(len(self.client.list()), 3)
        silent.close()
        leaver = RawBusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        for _ in range(3000):
            leaver.call_agent("Complete", Body().string(UNKNOWN_ID.encode()).string(b"x"))
        leaver.close()
        self.assertEqual(len(self.client.list()), 3)
        self.assertStillServing()


class ForgedSignalTests(unittest.TestCase):
    """Only the owner of org.freedesktop.Notifications speaks for the
    notifications: signals of the same names from any other connection,
    broadcast or addressed to the agent's own connections, change nothing."""

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        # The opener records the activation token it was given, if any, too.
        opener = self.session.opener_path()
        with open(opener, "w") as handle:
            handle.write('#!/bin/sh\nprintf "%%s %%s\\n" "$XDG_ACTIVATION_TOKEN" "$1" >> "%s"\n'
                         % os.path.join(self.session.root, "opened-urls"))
        os.chmod(opener, 0o755)
        self.server = RecordingServer(self.session)
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.timer = timer_dict()
        self.client.mirror(self.timer)
        self.assertTrue(self.server.wait_for(lambda calls: any(c["method"] == "Notify" for c in calls)))
        self.notification = self.server.notifies()[-1]["id"]
        self.assertTrue(self.client.wait_for(lambda: self.listed()["notification"] == "shown"))
        self.forger = bus_probe.private_connection(self.session)
        self.addCleanup(self.forger.close)
        self.control = dbus.Interface(self.client.bus.get_object(NOTIFICATIONS, "/org/freedesktop/Notifications"),
                                      "com.dreamsforlittles.Test.Notifications")

    def listed(self):
        [timer] = self.client.list()
        return timer

    def forge(self, member, signature, *args, destination=None, path="/org/freedesktop/Notifications",
              interface=NOTIFICATIONS):
        message = dbus.lowlevel.SignalMessage(path, interface, member)
        message.append(*args, signature=signature)
        if destination:
            message.set_destination(destination)
        self.forger.send_message(message)

    def forge_everything(self, destinations):
        notification = dbus.UInt32(self.notification)
        owner = self.client.bus.get_name_owner(NOTIFICATIONS)
        for destination in [None] + destinations:
            self.forge("ActivationToken", "us", notification, "forged-activation", destination=destination)
            self.forge("ActionInvoked", "us", notification, "default", destination=destination)
            self.forge("ActionInvoked", "us", notification, "complete", destination=destination)
            self.forge("NotificationClosed", "uu", notification, dbus.UInt32(2), destination=destination)
            self.forge("NameOwnerChanged", "sss", NOTIFICATIONS, owner, "", destination=destination,
                       path="/org/freedesktop/DBus", interface="org.freedesktop.DBus")
        self.forger.flush()
        # A round trip to each of the agent's connections: the forged
        # messages, sent before, have reached them.
        for name in destinations:
            call(self.forger, "Ping", interface="org.freedesktop.DBus.Peer", destination=name, path="/")
        call(self.forger, "List", destination=BUS_NAME)

    def assertNothingHappened(self):
        # What the real server does after the forgeries goes through the same
        # connections behind them: once its effect is seen, the forgeries
        # have been handled (and ignored).
        self.control.Invoke(dbus.UInt32(self.notification), "default", "")
        deadline = time.monotonic() + PATIENCE
        while not self.session.opened_urls() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        listed = self.listed()
        self.assertEqual(self.session.opened_urls(), [listed["deep_link"]],
                         "a forged action opened the app, or a forged activation token was used")
        self.assertEqual((listed["state"], listed["notification"]), ("running", "shown"))
        self.assertEqual(int(self.client.properties.Get(INTERFACE, "PendingCompletions")), 0)
        self.assertNotEqual(str(self.client.properties.Get(INTERFACE, "NotificationServer")), "")
        self.assertEqual([c for c in self.server.calls() if c["method"] == "CloseNotification"], [])
        # The real server's Complete still works: the forgeries were heard
        # on a live path, and ignored.
        self.control.Invoke(dbus.UInt32(self.notification), "complete", "")
        self.assertTrue(self.client.wait_for(lambda: self.listed()["state"] == "saving"))

    def test_broadcast_forgeries_are_ignored(self):
        self.forge_everything([])
        self.assertNothingHappened()

    def test_forgeries_addressed_to_each_of_the_agents_connections_are_ignored(self):
        connections = connections_of(self.forger, self.agent.pid)
        # The agent's own libdbus connection and libnotify's GDBus one.
        self.assertGreaterEqual(len(connections), 2, connections)
        self.assertIn(self.server.notifies()[-1]["sender"], connections)
        self.forge_everything(connections)
        self.assertNothingHappened()
        self.assertIsNone(self.agent.process.poll())


class ImpostorTests(unittest.TestCase):
    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)

    def impostor(self, flags):
        connection = bus_probe.private_connection(self.session)
        self.addCleanup(connection.close)
        self.assertEqual(connection.request_name(BUS_NAME, flags), dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER)
        return connection

    def check_refused(self, impostor):
        agent = AgentProcess(self.session, wait=False)
        status = agent.process.wait(PATIENCE)
        self.assertNotEqual(status, 0)
        log = agent.log()
        self.assertIn("already owns %s" % BUS_NAME, log)
        self.assertEqual(crash_signs(log), [])
        self.assertEqual(impostor.get_name_owner(BUS_NAME), impostor.get_unique_name())
        agent.notify.socket.settimeout(0.5)
        try:
            message = agent.notify.receive()
        except socket.timeout:
            message = ""
        self.assertNotIn("READY=1", message)

    def test_an_impostor_owning_the_name_keeps_it_and_the_agent_exits_saying_so(self):
        self.check_refused(self.impostor(dbus.bus.NAME_FLAG_DO_NOT_QUEUE))

    def test_an_impostor_that_allows_replacement_is_not_replaced(self):
        self.check_refused(self.impostor(dbus.bus.NAME_FLAG_ALLOW_REPLACEMENT))


if __name__ == "__main__":
    unittest.main()
