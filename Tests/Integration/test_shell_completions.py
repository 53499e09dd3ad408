"""The bash, zsh and fish completions of dfl-sleepctl (packaging/completion)
against the real dfl-sleepctl and a running agent: each shell offers the
commands and options that dfl-sleepctl's own help names, and the ids of
the timers the agent mirrors."""

import os
import re
import shutil
import subprocess
import unittest

from dbus_client import Client
from harness import PATIENCE, REPO, SLEEPCTL, AgentTestCase, timer_dict

COMPLETION = os.path.join(REPO, "packaging", "completion")
ZSH_COMPLETE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zsh_complete.zsh")
SHELLS = ("bash", "zsh", "fish")
# The Debian package that brings each shell (and bash's completion library).
PACKAGES = {"bash": "bash-completion", "zsh": "zsh", "fish": "fish"}
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

BASH_DRIVER = r"""
source /usr/share/bash-completion/bash_completion
source "$COMPLETION/dfl-sleepctl"
COMP_LINE=$1; COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_dfl_sleepctl dfl-sleepctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf "%s\n" "${COMPREPLY[@]}"
"""


def require(shell):
    """A missing shell is a failure that names its Debian package."""
    present = shutil.which(shell) is not None
    if shell == "bash":
        present = present and os.path.exists("/usr/share/bash-completion/bash_completion")
    if not present:
        raise AssertionError("%s is needed for this test: apt-get install %s" % (shell, PACKAGES[shell]))


class Offers:
    """What a shell offers for a command line: the words, and the
    descriptions beside them where the shell shows some."""

    def __init__(self, words, descriptions):
        self.words = words
        self.descriptions = descriptions


class ShellCompletionTests(AgentTestCase):
    def setUp(self):
        super().setUp()
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        # The completions call dfl-sleepctl by name: the one just built.
        bin_dir = os.path.join(self.session.root, "bin")
        os.makedirs(bin_dir)
        os.symlink(SLEEPCTL, os.path.join(bin_dir, "dfl-sleepctl"))
        self.env = dict(self.session.env, PATH=bin_dir + os.pathsep + self.session.env["PATH"],
                        COMPLETION=COMPLETION, TERM="dumb")

    def offers(self, shell, line):
        require(shell)
        if shell == "bash":
            command = ["bash", "-c", BASH_DRIVER, "bash", line]
        elif shell == "zsh":
            command = ["zsh", "-f", ZSH_COMPLETE, COMPLETION, line]
        else:
            command = ["fish", "--no-config", "-c",
                       "source $COMPLETION/dfl-sleepctl.fish; complete -C%s" % shell_quote(line)]
        result = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(result.returncode, 0, "%s completing %r: %s" % (shell, line, result.stderr))
        words, descriptions = set(), {}
        for output in result.stdout.splitlines():
            if not output:
                continue
            if shell == "zsh" and output.startswith("shown: "):
                word, _, description = output[len("shown: "):].partition(" -- ")
                descriptions[word.strip()] = description.strip()
            elif shell == "fish":
                word, _, description = output.partition("\t")
                words.add(word)
                if description:
                    descriptions[word] = description
            else:
                words.add(output)
        return Offers(words, descriptions)

    def help_of(self, *topic):
        result = subprocess.run([SLEEPCTL, "help", *topic], env=self.env, capture_output=True, text=True,
                                timeout=PATIENCE)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def commands(self):
        """The commands dfl-sleepctl's own help lists."""
        usage = self.help_of()
        section = usage[usage.index("Commands:"):usage.index("Exit status")]
        return set(re.findall(r"^  ([a-z]+)\b", section, re.MULTILINE))

    def options_of(self, command):
        """The options a command's own usage lines name, and --help."""
        usage = [line for line in self.help_of(command).splitlines() if line.startswith("Usage:")]
        return set(re.findall(r"--[a-z]+", " ".join(usage))) | {"--help"}

    def test_each_shell_offers_the_commands_that_dfl_sleepctl_has(self):
        commands = self.commands()
        self.assertEqual(commands, {"list", "complete", "open", "watch", "status", "help"})
        for shell in SHELLS:
            with self.subTest(shell=shell):
                offered = self.offers(shell, "dfl-sleepctl ").words
                self.assertEqual({w for w in offered if not w.startswith("-")}, commands)
                self.assertIn("--help", self.offers(shell, "dfl-sleepctl -").words)
                self.assertEqual(self.offers(shell, "dfl-sleepctl help ").words, commands)

    def test_each_shell_offers_the_options_each_command_has(self):
        timer = timer_dict()
        self.client.mirror(timer)
        lines = {
            "list": "dfl-sleepctl list -",
            "status": "dfl-sleepctl status -",
            "watch": "dfl-sleepctl watch -",
            "open": "dfl-sleepctl open -",
            "complete": "dfl-sleepctl complete -",
        }
        for shell in SHELLS:
            for command, line in lines.items():
                with self.subTest(shell=shell, command=command):
                    self.assertEqual(self.offers(shell, line).words, self.options_of(command))

    def test_each_shell_offers_the_ids_of_the_timers_the_agent_mirrors(self):
        maya, noa = timer_dict(baby_name="Maya"), timer_dict(baby_name="Noa")
        self.client.mirror(maya)
        self.client.mirror(noa)
        ids = {maya["timer_id"], noa["timer_id"]}
        for shell in SHELLS:
            for command in ("complete", "open"):
                with self.subTest(shell=shell, command=command):
                    offers = self.offers(shell, "dfl-sleepctl %s " % command)
                    self.assertEqual(offers.words | set(offers.descriptions), ids)
                    if shell != "bash":
                        # zsh and fish show the baby's name beside the id.
                        self.assertEqual(offers.descriptions,
                                         {maya["timer_id"]: "Maya", noa["timer_id"]: "Noa"})
                    # One id is enough: no second one after it.
                    self.assertEqual(self.offers(shell, "dfl-sleepctl %s %s " % (command, maya["timer_id"])).words
                                     - {"--help", "--at"}, set())

    def test_running_takes_no_timer_id_and_an_id_takes_no_running(self):
        timer = timer_dict()
        self.client.mirror(timer)
        for shell in SHELLS:
            for command in ("complete", "open"):
                with self.subTest(shell=shell, command=command):
                    self.assertEqual(self.offers(shell, "dfl-sleepctl %s --running " % command).words - {"--help"},
                                     set())
                    self.assertEqual(self.offers(shell, "dfl-sleepctl %s --running -" % command).words, {"--help"})
                    after_id = self.offers(shell, "dfl-sleepctl %s %s -" % (command, timer["timer_id"])).words
                    self.assertNotIn("--running", after_id)
                    self.assertIn("--help", after_id)

    def test_each_shell_offers_now_and_this_moment_after_at(self):
        timer = timer_dict()
        self.client.mirror(timer)
        for shell in SHELLS:
            with self.subTest(shell=shell):
                words = self.offers(shell, "dfl-sleepctl complete %s --at " % timer["timer_id"]).words
                self.assertIn("now", words)
                [moment] = words - {"now"}
                self.assertRegex(moment, ISO_TIME)
                # --at is not offered twice.
                self.assertNotIn("--at", self.offers(shell, "dfl-sleepctl complete --at now -").words)

    def test_without_an_agent_no_id_is_offered_and_nothing_is_printed(self):
        self.agent.terminate()
        # The private bus has no activation file: nothing answers.
        for shell in SHELLS:
            with self.subTest(shell=shell):
                offers = self.offers(shell, "dfl-sleepctl open ")
                self.assertEqual((offers.words - {"--help"}, offers.descriptions), (set(), {}))

    def test_the_completion_files_parse(self):
        for shell, path, check in (
            ("bash", "dfl-sleepctl", ["bash", "-n"]),
            ("zsh", "_dfl-sleepctl", ["zsh", "-n"]),
            ("fish", "dfl-sleepctl.fish", ["fish", "--no-execute"]),
        ):
            with self.subTest(shell=shell):
                require(shell)
                result = subprocess.run(check + [os.path.join(COMPLETION, path)], capture_output=True, text=True,
                                        timeout=PATIENCE)
                self.assertEqual((result.returncode, result.stderr), (0, ""))


def shell_quote(text):
    """A fish single-quoted string."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


if __name__ == "__main__":
    unittest.main()
