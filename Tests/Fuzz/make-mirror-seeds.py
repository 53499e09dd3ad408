#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz-mirror target: Mirror calls serialized
by libdbus itself (dbus_message_marshal), with valid and invalid dictionaries.

    python3 Tests/Fuzz/make-mirror-seeds.py [OUTPUT_DIRECTORY]

The default output is Tests/Fuzz/corpus/mirror next to this script. Only the
standard library and the system's libdbus-1.so.3 (through ctypes) are used,
and the output is the same on every run: fixed serials, senders and times.

Every seed carries the string CANARY somewhere (in the token above all), so
that the fuzzer can check that no refusal ever quotes what the caller sent.
The times are around the fuzzer's fixed "now", 2026-11-29T21:41:00Z.
"""

import ctypes
import ctypes.util
import os
import sys

# MARK: libdbus through ctypes

_library = ctypes.util.find_library("dbus-1") or "libdbus-1.so.3"
dbus = ctypes.CDLL(_library)
dbus.dbus_message_new_method_call.restype = ctypes.c_void_p
dbus.dbus_message_new_method_call.argtypes = [ctypes.c_char_p] * 4
dbus.dbus_message_new_signal.restype = ctypes.c_void_p
dbus.dbus_message_new_signal.argtypes = [ctypes.c_char_p] * 3
dbus.dbus_message_set_serial.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
dbus.dbus_message_set_sender.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
dbus.dbus_message_set_sender.restype = ctypes.c_uint32
dbus.dbus_message_iter_init_append.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
dbus.dbus_message_iter_open_container.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p]
dbus.dbus_message_iter_open_container.restype = ctypes.c_uint32
dbus.dbus_message_iter_close_container.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
dbus.dbus_message_iter_close_container.restype = ctypes.c_uint32
dbus.dbus_message_iter_append_basic.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
dbus.dbus_message_iter_append_basic.restype = ctypes.c_uint32
dbus.dbus_message_marshal.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int)]
dbus.dbus_message_marshal.restype = ctypes.c_uint32
dbus.dbus_free.argtypes = [ctypes.c_void_p]
dbus.dbus_message_unref.argtypes = [ctypes.c_void_p]

# DBusMessageIter is a public struct of a few pointers and ints; a larger
# buffer is always enough.
ITERATOR_SIZE = 256


# MARK: Values

class Basic:
    """A basic D-Bus value: its type code and a ctypes value to point at."""

    types = {
        "y": ctypes.c_uint8, "b": ctypes.c_uint32, "n": ctypes.c_int16, "q": ctypes.c_uint16,
        "i": ctypes.c_int32, "u": ctypes.c_uint32, "x": ctypes.c_int64, "t": ctypes.c_uint64,
        "d": ctypes.c_double, "h": ctypes.c_int, "s": ctypes.c_char_p, "o": ctypes.c_char_p, "g": ctypes.c_char_p,
    }

    def __init__(self, code, value):
        self.code = code
        self.value = value

    def signature(self):
        return self.code

    def append(self, iterator):
        value = self.value.encode() if isinstance(self.value, str) else self.value
        box = self.types[self.code](value)
        if not dbus.dbus_message_iter_append_basic(iterator, ord(self.code), ctypes.byref(box)):
            raise RuntimeError("libdbus refused a %s value" % self.code)


def S(text): return Basic("s", text)
def X(number): return Basic("x", number)
def I(number): return Basic("i", number)
def U(number): return Basic("u", number)
def B(flag): return Basic("b", 1 if flag else 0)
def O(path): return Basic("o", path)


class Container:
    def __init__(self, code, element_signature, children):
        self.code = code
        self.element_signature = element_signature
        self.children = children

    def signature(self):
        if self.code == "a":
            return "a" + self.element_signature
        if self.code == "v":
            return "v"
        if self.code == "r":
            return "(" + "".join(child.signature() for child in self.children) + ")"
        return "{" + "".join(child.signature() for child in self.children) + "}"

    def append(self, iterator):
        contained = {"a": self.element_signature, "v": self.children[0].signature() if self.code == "v" else None}
        sub = ctypes.create_string_buffer(ITERATOR_SIZE)
        code = {"a": "a", "v": "v", "r": "r", "e": "e"}[self.code]
        signature = contained.get(self.code)
        if not dbus.dbus_message_iter_open_container(iterator, ord(code), signature.encode() if signature else None, sub):
            raise RuntimeError("libdbus refused a container")
        for child in self.children:
            child.append(sub)
        if not dbus.dbus_message_iter_close_container(iterator, sub):
            raise RuntimeError("libdbus could not close a container")


def V(value): return Container("v", None, [value])
def A(element_signature, values): return Container("a", element_signature, values)
def E(key, value): return Container("e", None, [key, value])
def R(*fields): return Container("r", None, list(fields))
def vardict(entries): return A("{sv}", [E(S(key), V(value)) for key, value in entries])


def marshal(arguments, kind="call", member="Mirror"):
    """The bytes of a message as it arrives from the bus."""
    if kind == "call":
        message = dbus.dbus_message_new_method_call(
            b"com.dreamsforlittles.SleepTimers1", b"/com/dreamsforlittles/SleepTimers1",
            b"com.dreamsforlittles.SleepTimers1", member.encode())
    else:
        message = dbus.dbus_message_new_signal(
            b"/com/dreamsforlittles/SleepTimers1", b"com.dreamsforlittles.SleepTimers1", member.encode())
    if not message:
        raise RuntimeError("libdbus could not make a message")
    try:
        dbus.dbus_message_set_serial(message, 7)
        if not dbus.dbus_message_set_sender(message, b":1.42"):
            raise RuntimeError("libdbus could not set the sender")
        iterator = ctypes.create_string_buffer(ITERATOR_SIZE)
        dbus.dbus_message_iter_init_append(message, iterator)
        for argument in arguments:
            argument.append(iterator)
        data = ctypes.c_void_p()
        length = ctypes.c_int()
        if not dbus.dbus_message_marshal(message, ctypes.byref(data), ctypes.byref(length)):
            raise RuntimeError("libdbus could not marshal the message")
        try:
            return ctypes.string_at(data, length.value)
        finally:
            dbus.dbus_free(data)
    finally:
        dbus.dbus_message_unref(message)


# MARK: The seeds

NOW = 1_795_988_460_000  # 2026-11-29T21:41:00Z
MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
CANARY = "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"


def timer(**changes):
    """The documented example, with keys changed (None removes one)."""
    entries = [
        ("timer_id", S("3f2504e0-4f89-41d3-9a0c-0305e82c3301")),
        ("api_origin", S("https://api.dreamsforlittles.example")),
        ("user_id", S("9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f")),
        ("family_subject_id", S("c56a4180-65aa-42ec-a945-5fd21dec0538")),
        ("baby_id", S("7d444840-9dc0-11d1-b245-5ffdce74fad2")),
        ("baby_name", S("Maya")),
        ("activity_type", S("sleep")),
        ("actor_mode", S("self")),
        ("started_at_ms", X(NOW - 83 * MINUTE)),
        ("timezone", S("Europe/Berlin")),
        ("action_token", S(CANARY)),
        ("token_expires_at_ms", X(NOW + 12 * HOUR)),
        ("revision", X(3)),
    ]
    result = []
    for key, value in entries:
        if key in changes:
            if changes[key] is not None:
                result.append((key, changes.pop(key)))
            else:
                changes.pop(key)
        else:
            result.append((key, value))
    result.extend(changes.items())
    return result


def seeds():
    yield "valid", [vardict(timer())]
    yield "valid-without-revision", [vardict(timer(revision=None))]
    yield "valid-upper-case-ids-and-default-port", [vardict(timer(
        timer_id=S("3F2504E0-4F89-41D3-9A0C-0305E82C3301"), baby_id=S("7D444840-9DC0-11D1-B245-5FFDCE74FAD2"),
        api_origin=S("https://API.DreamsForLittles.example:443")))]
    yield "valid-unicode-name", [vardict(timer(baby_name=S("Zoë 🌙 Ōkami-李")))]
    yield "valid-64-combined-characters", [vardict(timer(baby_name=S("e\u0301" * 64)))]
    yield "valid-utc-jwt-like-but-not-json", [vardict(timer(
        timezone=S("UTC"), action_token=S("dflnat.CANARYq8Zr2mXv.0Lw9sT4kP1nB7cY3")))]
    yield "valid-at-the-edges", [vardict(timer(
        started_at_ms=X(NOW - 48 * HOUR), token_expires_at_ms=X(NOW + 30 * DAY), revision=X(2**63 - 1),
        timezone=S("America/Argentina/Buenos_Aires")))]
    yield "name-65-characters", [vardict(timer(baby_name=S("M" * 65)))]
    yield "name-257-scalars", [vardict(timer(baby_name=S("a" + "\u0301" * 256)))]
    yield "name-bidi-override", [vardict(timer(baby_name=S("Maya\u202eCANARY")))]
    yield "name-line-break", [vardict(timer(baby_name=S("Maya\nCANARY")))]
    yield "name-blank", [vardict(timer(baby_name=S(" \u3000\t")))]
    yield "activity-breastfeeding", [vardict(timer(activity_type=S("breastfeeding")))]
    yield "activity-unknown", [vardict(timer(activity_type=S("CANARY_feeding")))]
    yield "actor-coach", [vardict(timer(actor_mode=S("coach")))]
    yield "token-jwt", [vardict(timer(action_token=S(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.CANARY_dozjgNryP4J3jVmNHl0w5N")))]
    yield "token-too-short", [vardict(timer(action_token=S("CANARY_x")))]
    yield "token-forbidden-characters", [vardict(timer(action_token=S("dflnat CANARY with spaces 0123456789")))]
    yield "token-too-long", [vardict(timer(action_token=S("CANARY" + "x" * 1020)))]
    yield "token-empty", [vardict(timer(action_token=S(""), baby_name=S("CANARY")))]
    yield "origin-not-allowed", [vardict(timer(api_origin=S("https://evil.example")))]
    yield "origin-plain-http", [vardict(timer(api_origin=S("http://api.dreamsforlittles.example")))]
    yield "origin-with-path", [vardict(timer(api_origin=S("https://api.dreamsforlittles.example/CANARY")))]
    yield "origin-ipv6-loopback", [vardict(timer(api_origin=S("http://[::1]:8443")))]
    yield "token-expired", [vardict(timer(token_expires_at_ms=X(NOW)))]
    yield "token-expiry-too-far", [vardict(timer(token_expires_at_ms=X(NOW + 30 * DAY + 1)))]
    yield "started-in-the-future", [vardict(timer(started_at_ms=X(NOW + 5 * MINUTE + 1)))]
    yield "started-too-long-ago", [vardict(timer(started_at_ms=X(NOW - 48 * HOUR - 1)))]
    yield "times-at-int64-extremes", [vardict(timer(started_at_ms=X(-2**63), token_expires_at_ms=X(2**63 - 1)))]
    yield "timezone-unknown", [vardict(timer(timezone=S("Mars/CANARY")))]
    yield "timezone-traversal", [vardict(timer(timezone=S("../../etc/CANARY")))]
    yield "revision-negative", [vardict(timer(revision=X(-1)))]
    yield "id-not-a-uuid", [vardict(timer(timer_id=S("not-a-uuid-CANARY")))]
    yield "key-missing", [vardict(timer(timezone=None))]
    yield "key-unknown-canary-as-key", [vardict(timer(CANARY=S("blue")))]
    yield "key-unknown-canary-as-value", [vardict(timer(colour=S("CANARY")))]
    yield "key-twice", [A("{sv}", [E(S(key), V(value)) for key, value in timer()] + [E(S("baby_name"), V(S("Leo")))])]
    yield "key-wrong-type", [vardict(timer(started_at_ms=I(5), revision=U(3)))]
    yield "key-variant-in-variant", [vardict(timer(baby_name=V(S("Maya"))))]
    yield "token-as-number", [vardict(timer(action_token=X(1)))]
    yield "token-missing", [vardict(timer(action_token=None))]
    yield "token-in-a-struct", [vardict(timer(action_token=R(S(CANARY), B(True))))]
    yield "dictionary-of-strings", [A("{ss}", [E(S(key), S("CANARY")) for key in ("timer_id", "baby_name")])]
    yield "array-of-strings", [A("s", [S(CANARY), S("x")])]
    yield "two-arguments", [vardict(timer()), S(CANARY)]
    yield "no-arguments", []
    yield "nested-arrays", [A("a{sv}", [vardict(timer()), vardict([("CANARY", O("/a/b"))])])]
    yield "signal-with-the-dictionary", ("signal", "TimerChanged", [vardict(timer())])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus", "mirror")
    os.makedirs(output, exist_ok=True)
    count = 0
    for name, spec in seeds():
        if isinstance(spec, tuple):
            kind, member, arguments = spec
            data = marshal(arguments, kind="signal", member=member)
        else:
            data = marshal(spec)
        with open(os.path.join(output, name + ".dbus"), "wb") as file:
            file.write(data)
        count += 1
    print("wrote %d seeds to %s" % (count, output))


if __name__ == "__main__":
    main()
