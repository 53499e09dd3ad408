"""GNOME Shell's StatusNotifierItem host: the AppIndicator extension
(Debian's gnome-shell-extension-appindicator, Ubuntu's default), enabled in
the session's settings before the Shell starts, as a user's choice is. The
extension owns org.kde.StatusNotifierWatcher itself and puts each item in
the top bar as a PanelMenu.Button in `Main.panel.statusArea`, keyed
"appindicator-<item>", with its dbusmenu as a PopupMenu; the tests read and
click both through the Shell (gnome_shell.GnomeShell.ask, and a pointer)."""

import json
import os
import shutil
import subprocess

from harness import PATIENCE

UUID = "ubuntu-appindicators@ubuntu.com"
EXTENSION_DIR = "/usr/share/gnome-shell/extensions/" + UUID
PACKAGE = "gnome-shell-extension-appindicator"
DCONF_SERVICE = "/usr/share/dbus-1/services/ca.desrt.dconf.service"
# The extension's states (misc/extensionUtils.js, ExtensionState.ACTIVE).
ACTIVE = 1

# The extension's panel items: their key, the item's Id and Title, whether
# the button is shown, its place on the stage, whether the pointer is on it,
# whether its menu is open and done moving, and its menu's entries (label,
# place, whether the pointer is on it).
ITEMS = """
Object.entries(Main.panel.statusArea).filter(([key, button]) => key.startsWith('appindicator-') && button)
    .map(([key, button]) => {
        const place = actor => {
            const [x, y] = actor.get_transformed_position();
            const [width, height] = actor.get_transformed_size();
            return [x, y, width, height];
        };
        const menu = button.menu;
        return {key, id: button._indicator ? button._indicator.id : null,
                title: button._indicator ? button._indicator.title : null,
                visible: button.visible && button.mapped, box: place(button), hover: button.hover,
                menuOpen: !!menu.isOpen,
                menuSettled: !!menu.isOpen && menu.actor.opacity === 255 && !menu.actor.get_transition('opacity'),
                entries: menu._getMenuItems().filter(i => i.label)
                    .map(i => ({label: i.label.text, box: place(i), hover: i.hover}))};
    })
"""


def enable(session):
    """Turns the extension on in the session's dconf database, through the
    dconf service the private bus starts, before the Shell reads it."""
    if not os.path.isdir(EXTENSION_DIR):
        raise AssertionError("GNOME Shell's AppIndicator extension is needed (%s is missing): apt-get install %s"
                             % (EXTENSION_DIR, PACKAGE))
    if not os.path.exists(DCONF_SERVICE):
        raise AssertionError("the dconf service is needed for the Shell's settings: apt-get install dconf-service")
    shutil.copy(DCONF_SERVICE, session.services)
    setting = subprocess.run(["gsettings", "set", "org.gnome.shell", "enabled-extensions", json.dumps([UUID])],
                             env=session.env, capture_output=True, text=True, timeout=PATIENCE)
    if setting.returncode != 0:
        raise AssertionError("gsettings could not enable %s: %s" % (UUID, setting.stderr))


def state(shell):
    """The extension's state in the Shell, and its error if it failed."""
    return shell.ask("(() => { const e = Main.extensionManager.lookup(%s);"
                     " return e ? [e.state, e.error ? String(e.error) : ''] : null; })()" % json.dumps(UUID))


def items(shell):
    return shell.ask(ITEMS)


def item(shell, item_id):
    """The panel item whose StatusNotifierItem Id is `item_id`, or None."""
    return next((i for i in items(shell) if i["id"] == item_id), None)


def shown(found):
    """Whether an item (from item()) is on screen, with its place known."""
    return bool(found and found["visible"] and None not in found["box"])
