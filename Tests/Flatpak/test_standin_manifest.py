"""The stand-in publishes the branches the manifest names, so the manifest
is built as it is."""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))

import standin_manifest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "..", "..", "packaging", "flatpak", "com.dreamsforlittles.DreamsForLittles.yml")
STANDIN = os.path.join(HERE, "standin.sh")


def standin(command):
    return subprocess.run([STANDIN, command], capture_output=True, text=True, check=True).stdout.strip()


class StandinManifestTest(unittest.TestCase):
    def setUp(self):
        with open(MANIFEST, encoding="utf-8") as file:
            self.lines = file.readlines()

    def test_the_manifest_names_flathubs_gnome_51(self):
        self.assertEqual(standin_manifest.runtime_version(self.lines), "51")

    def test_the_standin_publishes_the_manifests_branches(self):
        self.assertEqual(standin("branch"), "51")
        self.assertEqual(standin("extension-branch"), "26.08")
        standin_manifest.check_branch(self.lines, standin("branch"))

    def test_another_branch_is_refused(self):
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.check_branch(self.lines, "50")

    def test_a_manifest_without_one_runtime_version_is_refused(self):
        without = [line for line in self.lines if not line.startswith("runtime-version:")]
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.runtime_version(without)
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.runtime_version(self.lines + ["runtime-version: '49'\n"])

    def test_the_manifest_puts_the_extensions_bin_and_lib_on_the_paths(self):
        standin_manifest.check_extension_paths(self.lines)

    def test_a_manifest_without_the_extensions_library_path_is_refused(self):
        without = [line for line in self.lines if "prepend-ld-library-path" not in line]
        with self.assertRaisesRegex(standin_manifest.ManifestError, "prepend-ld-library-path"):
            standin_manifest.check_extension_paths(without)


if __name__ == "__main__":
    unittest.main()
