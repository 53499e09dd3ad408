#!/usr/bin/python3
"""Starts what the WebView bridge needs and keeps it running until its
standard input closes: the reference platform over TLS, a private session
bus, and dfl-sleep-agent configured for that platform. Prints one JSON line
with what a client needs: the environment to start dfl-webview-bridge with,
the platform's origin and control URL, and the demo users' ids and access
tokens. Used by the JavaScript client's tests (node --test)."""

import json
import os
import sys

from harness import AgentProcess, Platform, Session


def main():
    session = Session()
    try:
        platform = Platform(session)
        platform.configure()
        AgentProcess(session)
        env = dict(session.env)
        print(json.dumps({
            "env": env,
            "apiOrigin": platform.origin,
            "control": platform.process.ready["control"],
            "familySubjectId": "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10",
            "babies": {"Maya": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21", "Leo": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d22"},
            "parent": {"id": platform.parent["id"], "accessToken": platform.parent["accessToken"]},
            "coach": {"id": platform.coach["id"], "accessToken": platform.coach["accessToken"]},
            "bridge": os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                   ".build", "debug", "dfl-webview-bridge") if "DFL_BUILD_DIR" not in os.environ
            else os.path.join(os.environ["DFL_BUILD_DIR"], "dfl-webview-bridge"),
        }), flush=True)
        sys.stdin.read()
        platform.stop()
    finally:
        session.close()


if __name__ == "__main__":
    main()
