"""Tools for the hostile, load and soak tests: a session bus with the limits
of a desktop's real session bus, a raw D-Bus client that writes messages
byte by byte (so that it can send what libdbus would refuse to build), the
agent's bus connections, and what /proc says about a process."""

import os
import socket
import struct
import time

import dbus
import dbus.bus
import dbus.lowlevel
import dbus.mainloop

from harness import BUS_NAME, INTERFACE, OBJECT_PATH, PATIENCE
from session import Session, with_bus_limits

# The limits of Debian's /usr/share/dbus-1/session.conf: a desktop's session
# bus allows 50,000 pending calls per connection and messages of up to 1 GB,
# where dbus-daemon's built-in defaults (the test bus of session.Session)
# allow 128 pending calls and 32 MiB. A flood or a huge message is only a
# test of the agent when the bus lets it through.
SESSION_LIMITS = """  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_incoming_unix_fds">250000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_outgoing_unix_fds">250000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="max_completed_connections">100000</limit>
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_replies_per_connection">50000</limit>
</busconfig>
"""


def session_with_desktop_limits():
    """A session.Session whose bus has the session bus limits of a desktop."""
    return Session(bus_config=with_bus_limits(SESSION_LIMITS))


# ---------------------------------------------------------------------------
# What /proc says about a process: proc_accounting's, kept importable from
# here for the tests that take it from here.

from proc_accounting import children_by_parent, descriptors, process_tree, rss_kib  # noqa: E402,F401


def state_size(state_dir):
    """Bytes of the agent's store: the database with its WAL and shared memory."""
    total = {}
    for suffix in ("", "-wal", "-shm"):
        path = os.path.join(state_dir, "sleep-timers.sqlite3" + suffix)
        total[suffix or "db"] = os.path.getsize(path) if os.path.exists(path) else 0
    return total


def crash_signs(log):
    """Lines of an agent's stderr that mean it crashed or broke an invariant."""
    markers = ("Fatal error", "fatalError", "Segmentation", "Illegal instruction", "Trace/breakpoint",
               "Assertion failed", "Precondition failed", "Stack dump", "Abort", "CRITICAL", "<0>", "<1>", "<2>")
    return [line for line in log.splitlines() if any(marker in line for marker in markers)]


# ---------------------------------------------------------------------------
# The bus itself.

def private_connection(session):
    """A connection of its own to the session's bus, outside any main loop:
    what a test does with it never runs inside another test's loop."""
    return dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"], mainloop=dbus.mainloop.NULL_MAIN_LOOP)


def bus_daemon(bus):
    return dbus.Interface(bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus"), "org.freedesktop.DBus")


def connections_of(bus, pid):
    """The unique names on the bus whose process is `pid`: every connection
    of that process, whatever library made it."""
    daemon = bus_daemon(bus)
    names = []
    for name in daemon.ListNames():
        if not name.startswith(":"):
            continue
        try:
            if int(daemon.GetConnectionUnixProcessID(name)) == pid:
                names.append(str(name))
        except dbus.exceptions.DBusException:
            pass  # gone since ListNames
    return sorted(names)


def owner_pid(bus, name):
    return int(bus_daemon(bus).GetConnectionUnixProcessID(name))


def call(bus, member, signature=None, *args, interface=INTERFACE, path=OBJECT_PATH, destination=BUS_NAME,
         timeout=PATIENCE):
    """One method call with an explicit signature, as a hostile client
    writes it; returns the reply's arguments or raises DBusException."""
    message = dbus.lowlevel.MethodCallMessage(destination, path, interface, member)
    if signature is not None:
        message.append(*args, signature=signature)
    return bus.send_message_with_reply_and_block(message, timeout).get_args_list()


# ---------------------------------------------------------------------------
# A raw client: D-Bus messages written byte by byte (little-endian), for
# what libdbus itself refuses to build, such as strings that are not UTF-8.

class Body:
    """A message body under construction, with D-Bus alignment."""

    def __init__(self):
        self.data = bytearray()
        self.signature = ""

    def _align(self, boundary):
        self.data += b"\0" * (-len(self.data) % boundary)

    def _string(self, raw):
        self._align(4)
        self.data += struct.pack("<I", len(raw)) + raw + b"\0"

    def _signature(self, raw):
        self.data += struct.pack("<B", len(raw)) + raw + b"\0"

    def string(self, raw):
        """A string of raw bytes (valid UTF-8 or not)."""
        self._string(raw)
        self.signature += "s"
        return self

    def string_array(self, items):
        self._align(4)
        start = len(self.data)
        self.data += b"\0\0\0\0"
        begin = len(self.data)
        for raw in items:
            self._string(raw)
        self.data[start:start + 4] = struct.pack("<I", len(self.data) - begin)
        self.signature += "as"
        return self

    def vardict(self, entries):
        """An a{sv} from (key bytes, value) pairs, in order and repeats
        allowed; a value is bytes (type s) or an int (type x)."""
        self._align(4)
        start = len(self.data)
        self.data += b"\0\0\0\0"
        self._align(8)
        begin = len(self.data)
        for key, value in entries:
            self._align(8)
            self._string(key)
            if isinstance(value, int):
                self._signature(b"x")
                self._align(8)
                self.data += struct.pack("<q", value)
            else:
                self._signature(b"s")
                self._string(value)
        self.data[start:start + 4] = struct.pack("<I", len(self.data) - begin)
        self.signature += "a{sv}"
        return self


def _message(kind, serial, fields, body=b""):
    header = bytearray()
    for code, type_code, value in fields:
        header += b"\0" * (-len(header) % 8)
        header += struct.pack("<B", code) + struct.pack("<B", 1) + type_code + b"\0"
        if type_code == b"g":
            header += struct.pack("<B", len(value)) + value + b"\0"
        elif type_code == b"u":
            header += b"\0" * (-len(header) % 4) + struct.pack("<I", value)
        else:
            header += b"\0" * (-len(header) % 4) + struct.pack("<I", len(value)) + value + b"\0"
    fixed = struct.pack("<cBBBIII", b"l", kind, 0, 1, len(body), serial, len(header))
    message = fixed + bytes(header)
    return message + b"\0" * (-len(message) % 8) + bytes(body)


class RawBusConnection:
    """A connection to the bus over its Unix socket, without libdbus."""

    def __init__(self, address):
        options = dict(part.split("=", 1) for part in address.split(":", 1)[1].split(","))
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(PATIENCE)
        self.socket.connect(options["path"])
        self.buffer = b""
        self.socket.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
        while b"\r\n" not in self.buffer:
            self._receive()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        if not line.startswith(b"OK "):
            raise RuntimeError("the bus refused the authentication: %r" % line)
        self.socket.sendall(b"BEGIN\r\n")
        self.serial = 0
        hello = self.send_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
        kind, _, body = self.reply_to(hello)
        self.unique_name = body[4:4 + struct.unpack("<I", body[:4])[0]].decode()

    def _receive(self):
        chunk = self.socket.recv(1 << 16)
        if not chunk:
            raise EOFError("the bus closed the connection")
        self.buffer += chunk

    def send_call(self, destination, path, interface, member, body=None):
        self.serial += 1
        fields = [(1, b"o", path.encode()), (2, b"s", interface.encode()), (3, b"s", member.encode()),
                  (6, b"s", destination.encode())]
        if body is not None and body.signature:
            fields.append((8, b"g", body.signature.encode()))
        self.socket.sendall(_message(1, self.serial, fields, body.data if body is not None else b""))
        return self.serial

    def call_agent(self, member, body=None, interface=INTERFACE):
        return self.send_call(BUS_NAME, OBJECT_PATH, interface, member, body)

    def reply_to(self, serial):
        """(kind, error name, body) of the reply to `serial`: kind 2 for a
        method return, 3 for an error. Raises EOFError when the bus closes the
        connection first, socket.timeout after PATIENCE."""
        while True:
            while len(self.buffer) < 16:
                self._receive()
            body_length, _, fields_length = struct.unpack("<III", self.buffer[4:16])
            header_end = 16 + fields_length + (-(16 + fields_length) % 8)
            while len(self.buffer) < header_end + body_length:
                self._receive()
            kind = self.buffer[1]
            fields = self._fields(self.buffer[16:16 + fields_length])
            body = self.buffer[header_end:header_end + body_length]
            self.buffer = self.buffer[header_end + body_length:]
            if kind in (2, 3) and fields.get(5) == serial:
                return kind, fields.get(4), body

    @staticmethod
    def _fields(data):
        fields = {}
        offset = 0
        while offset < len(data):
            offset += -offset % 8
            code = data[offset]
            signature_length = data[offset + 1]
            type_code = data[offset + 2:offset + 2 + signature_length]
            offset += 3 + signature_length
            if type_code == b"u":
                offset += -offset % 4
                fields[code] = struct.unpack("<I", data[offset:offset + 4])[0]
                offset += 4
            elif type_code == b"g":
                length = data[offset]
                fields[code] = data[offset + 1:offset + 1 + length].decode()
                offset += 2 + length
            else:
                offset += -offset % 4
                length = struct.unpack("<I", data[offset:offset + 4])[0]
                fields[code] = data[offset + 4:offset + 4 + length].decode()
                offset += 5 + length
        return fields

    def wait_closed(self, timeout=PATIENCE):
        """True once the bus has closed the connection (reading and dropping
        whatever it sent before)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self._receive()
                self.buffer = b""
            except (EOFError, ConnectionResetError):
                return True
            except socket.timeout:
                break
        return False

    def close(self):
        self.socket.close()


def error_text(body):
    """The message of an error reply's body (its first argument, a string)."""
    if len(body) < 4:
        return ""
    return body[4:4 + struct.unpack("<I", body[:4])[0]].decode(errors="replace")
