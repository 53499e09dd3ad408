"""The Flatpak manifest as Flathub's rules want it, and the copy Flathub
builds (packaging/flatpak/flathub-manifest.py): the same manifest but for
its source, a tagged commit of the public repository.

    python3 -m unittest discover -s scripts/tests -v
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]

APP_ID = "com.dreamsforlittles.DreamsForLittles"
FLATPAK = REPO_ROOT / "packaging" / "flatpak"
MANIFEST = FLATPAK / (APP_ID + ".yml")
GENERATOR = FLATPAK / "flathub-manifest.py"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
# The folders of /app/share that Flatpak exports to the desktop, where every
# file must be named after the app id.
EXPORTED = ("share/applications", "share/icons", "share/dbus-1/services", "share/metainfo")

spec = importlib.util.spec_from_file_location("flathub_manifest", GENERATOR)
flathub_manifest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(flathub_manifest)


def read_lines():
    with open(MANIFEST, encoding="utf-8") as file:
        return file.readlines()


def installed_paths(commands):
    """The paths under ${FLATPAK_DEST} that the build-commands write a file
    to: install's -t DIRECTORY and its files, install's SOURCE DEST, and
    msgfmt's --output-file."""
    paths = []
    for command in commands:
        words = shlex.split(command.replace("${FLATPAK_DEST}", "/app"))
        if words[:1] == ["install"]:
            arguments = [word for word in words[1:] if not word.startswith("-")]
            if "-t" in words:
                directory = words[words.index("-t") + 1]
                paths += [os.path.join(directory, os.path.basename(source))
                          for source in arguments if source != directory]
            else:
                paths.append(arguments[-1])
        elif words[:1] == ["msgfmt"]:
            paths += [word.split("=", 1)[1] for word in words if word.startswith("--output-file=")]
    return [path for path in paths if path.startswith("/app/")]


class ManifestRulesTest(unittest.TestCase):
    def setUp(self):
        self.manifest = yaml.safe_load("".join(read_lines()))

    def test_the_app_id_and_gnome_51(self):
        self.assertEqual(self.manifest["app-id"], APP_ID)
        self.assertEqual((self.manifest["runtime"], self.manifest["runtime-version"], self.manifest["sdk"]),
                         ("org.gnome.Platform", "51", "org.gnome.Sdk"))
        self.assertEqual(self.manifest["sdk-extensions"], ["org.freedesktop.Sdk.Extension.swift6"])

    def test_no_own_name(self):
        # Flathub gives a new app no exception for a bus name outside its id.
        self.assertEqual([arg for arg in self.manifest["finish-args"] if arg.startswith("--own-name")], [])

    def test_every_exported_file_is_named_after_the_app_id(self):
        commands = [command for module in self.manifest["modules"] for command in module["build-commands"]]
        paths = installed_paths(commands)
        exported = [path for path in paths if path.startswith(tuple("/app/" + folder + "/" for folder in EXPORTED))]
        # The desktop entry, the metainfo, three icons, two D-Bus services.
        self.assertEqual(len(exported), 7, exported)
        for path in exported:
            with self.subTest(path=path):
                self.assertTrue(os.path.basename(path).startswith(APP_ID), path)

    def test_the_reading_of_the_build_commands_sees_a_file_of_another_name(self):
        self.assertEqual(installed_paths([
            "install -Dm644 -t ${FLATPAK_DEST}/share/dbus-1/services packaging/dbus/org.example.Other.service",
            "msgfmt --desktop --template=a.desktop -d po --output-file=${FLATPAK_DEST}/share/applications/b.desktop",
            "install -Dm755 .build/release/x ${FLATPAK_DEST}/bin/x"]),
            ["/app/share/dbus-1/services/org.example.Other.service", "/app/share/applications/b.desktop", "/app/bin/x"])

    def test_the_licence_is_where_flathub_looks(self):
        commands = [command for module in self.manifest["modules"] for command in module["build-commands"]]
        self.assertIn("/app/share/licenses/%s/LICENSE" % APP_ID, installed_paths(commands))
        self.assertTrue((REPO_ROOT / "LICENSE").is_file())

    def test_only_x86_64_is_built_on_flathub(self):
        with open(FLATPAK / "flathub.json", encoding="utf-8") as file:
            self.assertEqual(json.load(file), {"only-arches": ["x86_64"]})


class FlathubManifestTest(unittest.TestCase):
    def test_the_copy_is_the_manifest_but_for_its_source(self):
        lines = read_lines()
        copy = flathub_manifest.flathub_lines(lines, "v0.1.0", COMMIT)
        original, generated = yaml.safe_load("".join(lines)), yaml.safe_load("".join(copy))
        sources = [module.pop("sources") for module in generated["modules"]]
        self.assertEqual(sources, [[{"type": "git", "url": flathub_manifest.PUBLIC_REPOSITORY,
                                     "tag": "v0.1.0", "commit": COMMIT}]])
        self.assertEqual([module.pop("sources")[0]["type"] for module in original["modules"]], ["dir"])
        self.assertEqual(generated, original)
        # Line for line too, outside the sources block.
        start, end, _ = flathub_manifest.sources_block(lines)
        start_copy, end_copy, _ = flathub_manifest.sources_block(copy)
        self.assertEqual(lines[:start], copy[:start_copy])
        self.assertEqual(lines[end:], copy[end_copy:])

    def test_the_public_repository_is_named_in_the_generator_only(self):
        self.assertTrue(flathub_manifest.PUBLIC_REPOSITORY.startswith("https://"))
        elsewhere = [str(path.relative_to(REPO_ROOT)) for path in (REPO_ROOT / "packaging").rglob("*")
                     if path.is_file() and path != GENERATOR
                     and flathub_manifest.PUBLIC_REPOSITORY in path.read_text(encoding="utf-8", errors="replace")]
        self.assertEqual(elsewhere, [])

    def test_a_bad_tag_or_commit_is_refused(self):
        lines = read_lines()
        for tag, commit in (("0.1.0", COMMIT), ("v0.1.0\nsdk: x", COMMIT), ("v0.1.0", "0123abc"),
                            ("v0.1.0", COMMIT.upper())):
            with self.subTest(tag=tag, commit=commit):
                with self.assertRaises(flathub_manifest.ManifestError):
                    flathub_manifest.flathub_lines(lines, tag, commit)

    def test_a_manifest_without_its_one_dir_source_is_refused(self):
        lines = read_lines()
        copy = flathub_manifest.flathub_lines(lines, "v0.1.0", COMMIT)
        with self.assertRaises(flathub_manifest.ManifestError):
            flathub_manifest.flathub_lines(copy, "v0.1.0", COMMIT)
        with self.assertRaises(flathub_manifest.ManifestError):
            flathub_manifest.flathub_lines(lines + ["  - name: other\n", "    sources:\n"], "v0.1.0", COMMIT)

    def test_the_command_writes_the_copy(self):
        with tempfile.TemporaryDirectory() as directory:
            output = os.path.join(directory, APP_ID + ".yml")
            done = subprocess.run([sys.executable, str(GENERATOR), "--tag", "v0.1.0", "--commit", COMMIT,
                                   "--output", output], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(output, encoding="utf-8") as file:
                self.assertEqual(file.readlines(), flathub_manifest.flathub_lines(read_lines(), "v0.1.0", COMMIT))
            done = subprocess.run([sys.executable, str(GENERATOR), "--tag", "latest", "--commit", COMMIT],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 1)
            self.assertIn("not a release tag", done.stderr)


if __name__ == "__main__":
    unittest.main()
