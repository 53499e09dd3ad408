"""The names and signatures the Python helpers keep of the D-Bus API agree
with the shipped introspection file, as the Swift contract module's do
(Tests/SleepTimersAPITests). Needs no bus: it reads files only."""

import os
import unittest
import xml.etree.ElementTree as ElementTree

import dbus_client
import harness
import test_hostile_callers

XML = os.path.join(harness.REPO, "Sources", "SleepTimersService", "com.dreamsforlittles.SleepTimers1.xml")
KEYS_ANNOTATION = harness.INTERFACE + ".DictionaryKeys"


def interface():
    root = ElementTree.parse(XML).getroot()
    found = root.findall("interface")
    assert len(found) == 1, "the file declares one interface"
    return found[0]


def dictionary_keys(member, argument):
    """{key: (type, required)} from an argument's DictionaryKeys annotation."""
    arg = member.find("arg[@name='%s']" % argument)
    value = arg.find("annotation[@name='%s']" % KEYS_ANNOTATION).get("value")
    keys = {}
    for item in value.split():
        key, kind = item.split(":")
        keys[key] = (kind.rstrip("?"), not kind.endswith("?"))
    return keys


class ContractTests(unittest.TestCase):
    def setUp(self):
        self.interface = interface()
        with open(XML) as handle:
            self.text = " ".join(handle.read().split())

    def test_bus_name_interface_and_object_path(self):
        self.assertEqual(self.interface.get("name"), harness.INTERFACE)
        # The bus name is under the app id; the interface keeps its own.
        self.assertEqual(harness.BUS_NAME, "com.dreamsforlittles.DreamsForLittles.SleepTimers1")
        self.assertEqual(harness.INTERFACE, "com.dreamsforlittles.SleepTimers1")
        self.assertIn("owns the name %s on the session bus" % harness.BUS_NAME, self.text)
        self.assertIn("serves this interface at %s." % harness.OBJECT_PATH, self.text)

    def test_method_signatures_of_the_hostile_caller_tests(self):
        ours = {name: signature for name, (where, signature) in test_hostile_callers.METHODS.items()
                if where == harness.INTERFACE}
        shipped = {method.get("name"): "".join(arg.get("type") for arg in method.findall("arg")
                                                if arg.get("direction", "in") == "in")
                   for method in self.interface.findall("method")}
        self.assertEqual(ours, shipped)

    def test_error_names(self):
        value = self.interface.find("annotation[@name='%s.ErrorNames']" % harness.INTERFACE).get("value")
        shipped = {harness.ERROR + name for name in value.split()}
        documented = {name for name in test_hostile_callers.DOCUMENTED_ERRORS if name.startswith(harness.ERROR)}
        self.assertEqual(documented, shipped)

    def test_the_mirror_dictionary_of_the_harness(self):
        keys = dictionary_keys(self.interface.find("method[@name='Mirror']"), "timer")
        sent = harness.timer_dict()
        self.assertTrue(set(sent) <= set(keys), set(sent) - set(keys))
        self.assertEqual({key for key, (_, required) in keys.items() if required}, set(sent) - {"action_token", "revision"})
        self.assertEqual(dbus_client.INT64_KEYS, {key for key, (kind, _) in keys.items() if kind == "x"})

    def test_list_and_timer_changed_share_their_keys(self):
        listed = dictionary_keys(self.interface.find("method[@name='List']"), "timers")
        changed = dictionary_keys(self.interface.find("signal[@name='TimerChanged']"), "timer")
        self.assertEqual(listed, changed)
        self.assertNotIn("action_token", listed)


if __name__ == "__main__":
    unittest.main()
