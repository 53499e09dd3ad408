#!/usr/bin/env python3
"""Writes the manifest Flathub builds, from the one kept here.

    flathub-manifest.py --tag v0.1.0 --commit SHA [--output FILE]

The manifest beside this script builds the checkout it sits in (a `dir`
source). Flathub builds a tagged commit of the public repository instead:
the copy written here is the same manifest, line for line, but for its
module's `sources`, which become one `git` source with the repository's
URL, the tag and the tag's commit (flatpak-builder checks that the tag
names that commit). It goes to the app's repository on Flathub as
com.dreamsforlittles.DreamsForLittles.yml, beside flathub.json.
"""

import argparse
import os
import re
import sys

# The project's public repository. The one line a release owner confirms
# before the first submission (packaging/flatpak/FLATHUB.md).
PUBLIC_REPOSITORY = "https://github.com/dreamsforlittles/desktop"

HERE = os.path.dirname(os.path.abspath(__file__))
APP_ID = "com.dreamsforlittles.DreamsForLittles"
MANIFEST = os.path.join(HERE, APP_ID + ".yml")

SOURCES = re.compile(r"^(?P<indent> +)sources:\s*$")
TAG = re.compile(r"v[0-9]+(\.[0-9]+)*")
COMMIT = re.compile(r"[0-9a-f]{40}")


class ManifestError(Exception):
    """The manifest or the arguments cannot make Flathub's copy."""


def sources_block(lines):
    """The first and past-the-end index of the one `sources:` block's
    entries: the lines after `sources:` that are indented deeper than it,
    or blank, or comments."""
    found = [index for index, line in enumerate(lines) if SOURCES.match(line)]
    if len(found) != 1:
        raise ManifestError(f"the manifest has {len(found)} sources blocks, not one")
    start = found[0] + 1
    indent = len(SOURCES.match(lines[found[0]]).group("indent"))
    end = start
    while end < len(lines):
        line = lines[end]
        if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
            break
        end += 1
    return start, end, indent


def flathub_lines(lines, tag, commit, url=PUBLIC_REPOSITORY):
    """The manifest's lines with its local `dir` source replaced by a `git`
    source at tag and commit."""
    if not TAG.fullmatch(tag):
        raise ManifestError(f"not a release tag (vX.Y.Z): {tag!r}")
    if not COMMIT.fullmatch(commit):
        raise ManifestError(f"not a full commit id (40 lowercase hex digits): {commit!r}")
    if not url.startswith("https://"):
        raise ManifestError(f"not an https URL: {url!r}")
    start, end, indent = sources_block(lines)
    entries = [line.strip() for line in lines[start:end]]
    if entries.count("- type: dir") != 1 or "path: ../.." not in entries or \
            sum(entry.startswith("- type:") for entry in entries) != 1:
        raise ManifestError("the sources block is not the one local dir source of the checkout")
    pad = " " * (indent + 2)
    source = [
        f"{pad}# The tagged commit of the public repository.\n",
        f"{pad}- type: git\n",
        f"{pad}  url: {url}\n",
        f"{pad}  tag: {tag}\n",
        f"{pad}  commit: {commit}\n",
    ]
    return lines[:start] + source + lines[end:]


def main(argv):
    parser = argparse.ArgumentParser(description="The manifest Flathub builds, from " + os.path.basename(MANIFEST))
    parser.add_argument("--tag", required=True, help="the release's tag, e.g. v0.1.0")
    parser.add_argument("--commit", required=True, help="the full id of the commit the tag names")
    parser.add_argument("--manifest", default=MANIFEST, help=argparse.SUPPRESS)
    parser.add_argument("--output", help="the file to write (default: standard output)")
    arguments = parser.parse_args(argv[1:])
    with open(arguments.manifest, encoding="utf-8") as file:
        lines = file.readlines()
    try:
        copy = flathub_lines(lines, arguments.tag, arguments.commit)
    except ManifestError as error:
        print(f"flathub-manifest: {error}", file=sys.stderr)
        return 1
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as file:
            file.writelines(copy)
    else:
        sys.stdout.writelines(copy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
