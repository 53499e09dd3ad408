#!/usr/bin/env python3
"""Writes the copy of the Flatpak manifest that builds on the stand-in runtime.

    standin_manifest.py MANIFEST OUTPUT BRANCH

The copy differs from MANIFEST in one line only, runtime-version, which
names BRANCH (the stand-in's, Tests/Flatpak/standin.sh). The swift6
extension's branch is not in the manifest: flatpak-builder takes it from the
SDK's extension point, which the stand-in SDK sets to its own branch. The
check below refuses a copy that differs in anything else, and an OUTPUT
from which the manifest's relative source path would name another
directory than it does from MANIFEST's own place.
"""

import difflib
import os
import re
import sys

RUNTIME_VERSION = re.compile(r"^runtime-version:\s*(\S+)\s*$")


class ManifestError(Exception):
    """The manifest cannot be turned into the stand-in's copy."""


def standin_lines(lines: list[str], branch: str) -> list[str]:
    """The manifest's lines with runtime-version set to branch."""
    if not re.fullmatch(r"[A-Za-z0-9._-]+", branch):
        raise ManifestError(f"not a branch name: {branch!r}")
    found = [index for index, line in enumerate(lines) if RUNTIME_VERSION.match(line)]
    if len(found) != 1:
        raise ManifestError(f"the manifest has {len(found)} top-level runtime-version lines, not one")
    copy = list(lines)
    copy[found[0]] = f"runtime-version: {branch}\n"
    return copy


def check_only_branch_differs(original: list[str], copy: list[str]) -> None:
    """Raises unless the two differ in the runtime-version line alone."""
    changed = [line for line in difflib.unified_diff(original, copy, n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    if len(changed) != 2 or not all(RUNTIME_VERSION.match(line[1:]) for line in changed):
        raise ManifestError("the copy differs from the manifest in more than runtime-version:\n" + "".join(changed))


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print("usage: standin_manifest.py MANIFEST OUTPUT BRANCH", file=sys.stderr)
        return 64
    manifest, output, branch = argv[1:]
    # The manifest's dir source is "../..": the copy must sit as deep below
    # the checkout as the manifest does.
    if os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(output)), "../..")) != \
            os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(manifest)), "../..")):
        print(f"standin_manifest: {output} is not two folders below the checkout, as {manifest} is",
              file=sys.stderr)
        return 1
    with open(manifest, encoding="utf-8") as file:
        original = file.readlines()
    try:
        copy = standin_lines(original, branch)
        check_only_branch_differs(original, copy)
    except ManifestError as error:
        print(f"standin_manifest: {error}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w", encoding="utf-8") as file:
        file.writelines(copy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
