"""The panel item registered by object path, as inside a Flatpak (where
every process id is 2 and no org.kde.StatusNotifierItem-* name may be
owned): the xfce4-panel tests of test_indicator_xfce run again with the
agent forced to that registration by DFL_PANEL_REGISTRATION=path. The
watcher of xfce4-panel 4.18 pairs the path with the agent's unique name."""

import time
import unittest

import dbus

from desktop import xdotool
from harness import eventually
from test_indicator_xfce import XfcePanelTests


class ObjectPathPanelTests(XfcePanelTests):
    def start_agent(self, **env):
        agent = super().start_agent(DFL_PANEL_REGISTRATION="path", **env)
        self.unique_name = self.client.bus.get_name_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1")
        return agent

    @property
    def key(self):
        return "%s/StatusNotifierItem" % self.unique_name

    def status(self):
        item = self.client.bus.get_object(self.unique_name, "/StatusNotifierItem", introspect=False)
        return str(dbus.Interface(item, "org.freedesktop.DBus.Properties").Get("org.kde.StatusNotifierItem", "Status"))

    def test_the_indicator_shows_a_sleep_completes_it_from_the_menu_and_goes(self):
        """As test_indicator_xfce's, but the end: no call takes an item
        registered by path off the watcher (it goes when the agent leaves
        the bus), so when the last sleep ends it turns Passive."""
        time.sleep(1)
        self.assertIsNone(self.icon())
        self.assertEqual(self.registered(), [])

        timer_id = self.new_sleep()
        x, y = self.wait_for_icon()
        self.assertEqual(self.registered(), [self.key])
        self.assertNotIn("org.kde.StatusNotifierItem-", self.monitor.text())

        xdotool(self.session, "mousemove", str(x), str(y))
        self.wait_to_read("Dreams for Littles", "Maya asleep")
        xdotool(self.session, "click", "3")
        self.wait_to_read("Complete Maya's sleep", "Open Maya's sleep", "Open Dreams for Littles")
        xdotool(self.session, "key", "Down")
        time.sleep(0.3)
        self.screenshot("xfce4-panel-menu-by-path.png")
        xdotool(self.session, "key", "Return")

        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        eventually(lambda: self.status() == "Passive", what="the item to turn Passive")
        self.assertEqual(self.registered(), [self.key])
        time.sleep(0.5)
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertEqual(self.client.list(), [])
        # xfce4-panel hides a Passive item.
        eventually(lambda: self.icon() is None, what="xfce4-panel to hide the Passive item")

        # The next sleep makes it Active again, under the same registration.
        self.new_sleep()
        self.wait_for_icon()
        self.assertEqual(self.status(), "Active")
        self.assertEqual(self.registered(), [self.key])

        # The agent leaving the bus takes the item off the watcher.
        self.agent.terminate()
        eventually(lambda: self.registered() == [], what="the item to leave the watcher with the agent")


del XfcePanelTests

if __name__ == "__main__":
    unittest.main()
