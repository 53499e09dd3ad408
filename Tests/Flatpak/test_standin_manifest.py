"""The stand-in's copy of the manifest differs in runtime-version only."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))

import standin_manifest  # noqa: E402

MANIFEST = os.path.join(os.path.dirname(__file__), "..", "..", "packaging", "flatpak",
                        "com.dreamsforlittles.DreamsForLittles.yml")


class StandinManifestTest(unittest.TestCase):
    def setUp(self):
        with open(MANIFEST, encoding="utf-8") as file:
            self.lines = file.readlines()

    def test_the_copy_names_the_branch_and_nothing_else_changes(self):
        copy = standin_manifest.standin_lines(self.lines, "standin-debian13")
        standin_manifest.check_only_branch_differs(self.lines, copy)
        changed = [(old, new) for old, new in zip(self.lines, copy) if old != new]
        self.assertEqual(changed, [("runtime-version: '50'\n", "runtime-version: standin-debian13\n")])

    def test_another_difference_is_refused(self):
        copy = standin_manifest.standin_lines(self.lines, "standin-debian13")
        copy.append("  - --socket=session-bus\n")
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.check_only_branch_differs(self.lines, copy)

    def test_a_manifest_without_one_runtime_version_is_refused(self):
        without = [line for line in self.lines if not line.startswith("runtime-version:")]
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.standin_lines(without, "standin-debian13")
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.standin_lines(self.lines + ["runtime-version: '49'\n"], "standin-debian13")

    def test_a_branch_must_be_a_name(self):
        with self.assertRaises(standin_manifest.ManifestError):
            standin_manifest.standin_lines(self.lines, "50\nsdk: other")


if __name__ == "__main__":
    unittest.main()
