#!/usr/bin/python3
"""What another process of the same user can take from a program: started
as that user, it runs the program as its own child (so even a kernel that
lets a process trace only its descendants would let it), waits for READY=1
on NOTIFY_SOCKET, then tries what a debugger or a memory scraper would:
PTRACE_ATTACH, and reading /proc/PID/environ. Prints a JSON summary on
standard output and stops the program.

Usage: ptrace_reader.py PROGRAM [ARGUMENT...]"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import uuid

from patience import PATIENCE

PTRACE_ATTACH = 16
PTRACE_DETACH = 17

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = (ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p)


def attach(pid):
    """"attached", or the errno name PTRACE_ATTACH was refused with."""
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) != 0:
        return os.strerror(ctypes.get_errno())
    os.waitpid(pid, 0)  # the stop the attach causes
    libc.ptrace(PTRACE_DETACH, pid, None, None)
    return "attached"


def read_environ(pid):
    """"read", or why /proc/PID/environ could not be read."""
    try:
        with open("/proc/%d/environ" % pid, "rb") as handle:
            handle.read()
        return "read"
    except OSError as error:
        return error.strerror


def main(program):
    notify_path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "reader-notify-%s" % uuid.uuid4().hex[:8])
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(PATIENCE)
    child = subprocess.Popen(program, env=dict(os.environ, NOTIFY_SOCKET=notify_path),
                             stdout=subprocess.DEVNULL, stderr=sys.stderr)
    summary = {"uid": os.getuid(), "pid": child.pid}
    try:
        message = notify.recv(4096).decode()
        summary["ready"] = "READY=1" in message
        summary["environ"] = read_environ(child.pid)
        summary["attach"] = attach(child.pid)
    except socket.timeout:
        summary["ready"] = False
    finally:
        child.send_signal(signal.SIGTERM)
        summary["status"] = child.wait(PATIENCE)
        notify.close()
        os.unlink(notify_path)
    print(json.dumps(summary))


if __name__ == "__main__":
    main(sys.argv[1:])
