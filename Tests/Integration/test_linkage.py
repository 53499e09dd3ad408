"""What the three programs load: none of them Foundation (whose ICU data
alone is megabytes), and only the agent libnotify. Reads the binaries only;
needs no bus."""

import os
import subprocess
import unittest

from harness import BUILD

PROGRAMS = ("dfl-sleep-agent", "dfl-sleepctl", "dfl-webview-bridge")


def libraries(program):
    result = subprocess.run(["ldd", os.path.join(BUILD, program)], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in result.stdout.splitlines() if line.strip()]


class LinkageTests(unittest.TestCase):
    def test_no_program_loads_foundation(self):
        for program in PROGRAMS:
            with self.subTest(program=program):
                self.assertEqual([name for name in libraries(program) if "Foundation" in name], [])

    def test_only_the_agent_loads_libnotify(self):
        self.assertTrue(any(name.startswith("libnotify.") for name in libraries("dfl-sleep-agent")))
        for program in ("dfl-sleepctl", "dfl-webview-bridge"):
            with self.subTest(program=program):
                self.assertEqual([name for name in libraries(program) if name.startswith("libnotify.")], [])


if __name__ == "__main__":
    unittest.main()
