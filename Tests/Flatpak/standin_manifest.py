#!/usr/bin/env python3
"""Checks that the Flatpak manifest builds as it is on the stand-in runtime.

    standin_manifest.py MANIFEST BRANCH

The stand-in (Tests/Flatpak/standin.sh) publishes Flathub's branch names,
so the manifest is built unchanged: its one runtime-version must name
BRANCH, the stand-in's. The swift6 extension's branch is not in the
manifest: flatpak-builder takes it from the SDK's extension point, which
the stand-in SDK sets as the GNOME SDK of that branch does.

The manifest's build-options must also put the extension's bin on PATH
and its lib on the library path, as Flathub's swift6 extension asks: the
stand-in's extension carries there the libraries its toolchain links that
the SDK lacks, and without them swift fails to start in the middle of the
build.
"""

import re
import sys

RUNTIME_VERSION = re.compile(r"""^runtime-version:\s*['"]?([^'"\s]+)['"]?\s*$""")
# The build options the swift6 extension needs: option, value.
EXTENSION_PATHS = (("append-path", "/usr/lib/sdk/swift6/bin"),
                   ("prepend-ld-library-path", "/usr/lib/sdk/swift6/lib"))


class ManifestError(Exception):
    """The manifest does not name the stand-in's branch."""


def runtime_version(lines: list[str]) -> str:
    """The manifest's one top-level runtime-version."""
    found = [match.group(1) for match in map(RUNTIME_VERSION.match, lines) if match]
    if len(found) != 1:
        raise ManifestError(f"the manifest has {len(found)} top-level runtime-version lines, not one")
    return found[0]


def check_branch(lines: list[str], branch: str) -> None:
    """Raises unless the manifest's runtime-version is branch."""
    version = runtime_version(lines)
    if version != branch:
        raise ManifestError(f"the manifest's runtime-version is {version!r}, the stand-in's branch {branch!r}: "
                            "change the stand-in's branch in Tests/Flatpak/standin.sh with the manifest")


def check_extension_paths(lines: list[str]) -> None:
    """Raises unless the manifest's build-options put the swift6
    extension's bin and lib on the build's paths."""
    for option, value in EXTENSION_PATHS:
        line = re.compile(r"""^\s+%s:\s*['"]?%s['"]?\s*$""" % (re.escape(option), re.escape(value)))
        if not any(map(line.match, lines)):
            raise ManifestError(f"the manifest's build-options lack '{option}: {value}', which the swift6 "
                                "extension needs (its toolchain's programs and their libraries are there)")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: standin_manifest.py MANIFEST BRANCH", file=sys.stderr)
        return 64
    manifest, branch = argv[1:]
    with open(manifest, encoding="utf-8") as file:
        lines = file.readlines()
    try:
        check_branch(lines, branch)
        check_extension_paths(lines)
    except ManifestError as error:
        print(f"standin_manifest: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
