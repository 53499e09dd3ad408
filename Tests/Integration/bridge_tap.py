#!/usr/bin/python3
"""Stands between the desktop app and the real dfl-webview-bridge, as
DFL_WEBVIEW_BRIDGE: every line the app writes is appended to the file named
by DFL_BRIDGE_TAP and passed on unchanged to the bridge, whose stdout and
stderr are the app's own. It ends when the bridge ends, with its status, so
the app sees what it would see of the bridge itself."""

import os
import subprocess
import sys
import threading

BRIDGE = os.environ["DFL_BRIDGE_TAP_BRIDGE"]


def main():
    bridge = subprocess.Popen([BRIDGE], stdin=subprocess.PIPE)

    def relay():
        with open(os.environ["DFL_BRIDGE_TAP"], "ab", buffering=0) as record:
            for line in sys.stdin.buffer:
                record.write(line)
                try:
                    bridge.stdin.write(line)
                    bridge.stdin.flush()
                except BrokenPipeError:
                    return
        bridge.stdin.close()

    threading.Thread(target=relay, daemon=True).start()
    status = bridge.wait()
    os._exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
