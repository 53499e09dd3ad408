#!/usr/bin/python3
"""A panel for tests, written from the StatusNotifierItem and dbusmenu
specifications: it owns org.kde.StatusNotifierWatcher (the watcher) and
shows the registered items itself (the host), reading their properties and
menu as hosts do, again after every signal. Everything it sees is appended
to a JSON-lines file with its arrival time (ns since the epoch).

What a person does (open the menu, click an entry, click the icon) is asked
of it through its com.dreamsforlittles.Test.Panel interface; each answer is
JSON text. With --quiet it records signals but reads nothing back, so the
only wake-ups of an item are its own."""

import argparse
import json
import signal
import time

import dbus
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from dbus_client import plain

WATCHER = "org.kde.StatusNotifierWatcher"
WATCHER_PATH = "/StatusNotifierWatcher"
ITEM = "org.kde.StatusNotifierItem"
MENU = "com.canonical.dbusmenu"
PROPERTIES = "org.freedesktop.DBus.Properties"
CONTROL = "com.dreamsforlittles.Test.Panel"


class Item:
    """A registered item as the host knows it."""

    def __init__(self, key, name, path):
        self.key = key
        self.name = name
        self.path = path
        self.properties = {}
        self.layout = None
        self.revision = None
        self.receivers = []
        self.owner_watch = None


class Panel(dbus.service.Object):
    def __init__(self, bus, record, host_registered, quiet):
        super().__init__(bus, WATCHER_PATH)
        self.bus = bus
        self.record = open(record, "a", buffering=1)
        self.host_registered = host_registered
        self.quiet = quiet
        self.items = {}

    def log(self, **entry):
        entry["ns"] = time.time_ns()
        self.record.write(json.dumps(entry) + "\n")

    # The watcher.

    @dbus.service.method(WATCHER, in_signature="s", out_signature="", sender_keyword="sender")
    def RegisterStatusNotifierItem(self, service, sender=None):
        service = str(service)
        name, path = (str(sender), service) if service.startswith("/") else (service, "/StatusNotifierItem")
        key = name + path
        self.log(event="register", service=service, sender=str(sender), key=key)
        if key in self.items:
            self.forget(key)
        item = Item(key, name, path)
        self.items[key] = item
        item.owner_watch = self.bus.watch_name_owner(name, lambda owner, key=key: self.owner_changed(key, owner))
        self.StatusNotifierItemRegistered(key)
        self.show(item)

    @dbus.service.method(WATCHER, in_signature="s", out_signature="")
    def RegisterStatusNotifierHost(self, service):
        pass

    @dbus.service.signal(WATCHER, signature="s")
    def StatusNotifierItemRegistered(self, key):
        pass

    @dbus.service.signal(WATCHER, signature="s")
    def StatusNotifierItemUnregistered(self, key):
        pass

    @dbus.service.signal(WATCHER, signature="")
    def StatusNotifierHostRegistered(self):
        pass

    @dbus.service.signal(WATCHER, signature="")
    def StatusNotifierHostUnregistered(self):
        pass

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[str(name)]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"RegisteredStatusNotifierItems": dbus.Array(list(self.items), signature="s"),
                "IsStatusNotifierHostRegistered": dbus.Boolean(self.host_registered),
                "ProtocolVersion": dbus.Int32(0)}

    def owner_changed(self, key, owner):
        if owner == "" and key in self.items:
            self.log(event="unregister", key=key)
            self.forget(key)
            self.StatusNotifierItemUnregistered(key)

    def forget(self, key):
        item = self.items.pop(key)
        for receiver in item.receivers:
            receiver.remove()
        if item.owner_watch:
            item.owner_watch.cancel()

    # The host.

    def show(self, item):
        for interface, handler in ((ITEM, self.item_signal), (MENU, self.menu_signal)):
            item.receivers.append(self.bus.add_signal_receiver(
                lambda *args, member=None, path=None, handler=handler, item=item: handler(item, member, path, args),
                bus_name=item.name, dbus_interface=interface, member_keyword="member", path_keyword="path"))
        self.read_properties(item)

    def read_properties(self, item):
        proxy = self.bus.get_object(item.name, item.path, introspect=False)
        proxy.GetAll(ITEM, dbus_interface=PROPERTIES,
                     reply_handler=lambda values: self.got_properties(item, values),
                     error_handler=lambda error: self.log(event="error", call="GetAll", key=item.key,
                                                          error=error.get_dbus_name()))

    def got_properties(self, item, values):
        item.properties = plain(values)
        self.log(event="properties", key=item.key, properties=item.properties)
        menu = item.properties.get("Menu")
        if menu and item.layout is None:
            self.read_layout(item)

    def read_layout(self, item):
        proxy = self.bus.get_object(item.name, item.properties["Menu"], introspect=False)
        proxy.GetLayout(dbus.Int32(0), dbus.Int32(-1), dbus.Array([], signature="s"), dbus_interface=MENU,
                        reply_handler=lambda revision, layout: self.got_layout(item, revision, layout),
                        error_handler=lambda error: self.log(event="error", call="GetLayout", key=item.key,
                                                             error=error.get_dbus_name()))

    def got_layout(self, item, revision, layout):
        item.revision = int(revision)
        item.layout = plain(layout)
        self.log(event="layout", key=item.key, revision=item.revision, layout=item.layout)

    def item_signal(self, item, member, path, args):
        if path != item.path:
            return
        self.log(event="signal", key=item.key, interface=ITEM, member=str(member), args=[plain(a) for a in args])
        if not self.quiet:
            self.read_properties(item)

    def menu_signal(self, item, member, path, args):
        if path != item.properties.get("Menu"):
            return
        self.log(event="signal", key=item.key, interface=MENU, member=str(member), args=[plain(a) for a in args])
        if member == "LayoutUpdated" and not self.quiet:
            self.read_layout(item)
        elif member == "ItemsPropertiesUpdated" and item.layout is not None:
            self.apply_properties(item, plain(args[0]), plain(args[1]))

    def apply_properties(self, item, updated, removed):
        """ItemsPropertiesUpdated applied to the menu the host holds."""
        children = {child[0]: child for child in item.layout[2]}
        for menu_id, properties in updated:
            if menu_id in children:
                children[menu_id][1].update(properties)
        for menu_id, names in removed:
            for name in names:
                children.get(menu_id, [0, {}])[1].pop(name, None)
        self.log(event="layout", key=item.key, revision=item.revision, layout=item.layout, source="properties")

    # What a person does, on request of the test. Calls wait for their
    # answer: the test asks one thing at a time.

    def only_item(self):
        [item] = self.items.values()
        return item

    def call(self, item, path, interface, member, signature, *args):
        message = dbus.lowlevel.MethodCallMessage(item.name, path, interface, member)
        if signature:
            message.append(*args, signature=signature)
        try:
            reply = self.bus.send_message_with_reply_and_block(message, 30000)
            return {"reply": [plain(a) for a in reply.get_args_list()]}
        except dbus.exceptions.DBusException as error:
            return {"error": error.get_dbus_name(), "message": error.get_dbus_message()}

    def id_of(self, item, label):
        for child in (item.layout or [0, {}, []])[2]:
            if child[1].get("label") == label:
                return child[0]
        raise ValueError("no menu entry %r in %r" % (label, item.layout))

    @dbus.service.method(CONTROL, in_signature="", out_signature="s")
    def State(self):
        return json.dumps({key: {"name": i.name, "path": i.path, "properties": i.properties, "layout": i.layout,
                                 "revision": i.revision} for key, i in self.items.items()})

    @dbus.service.method(CONTROL, in_signature="s", out_signature="i")
    def IdOf(self, label):
        return self.id_of(self.only_item(), str(label))

    @dbus.service.method(CONTROL, in_signature="iss", out_signature="s")
    def Click(self, menu_id, method, event):
        """Sends `event` (normally "clicked") to the entry `menu_id` with
        Event or EventGroup, as libdbusmenu's clients do."""
        item = self.only_item()
        menu = item.properties["Menu"]
        data = dbus.Int32(0, variant_level=1)
        timestamp = dbus.UInt32(int(time.time()) & 0xFFFFFFFF)
        if method == "Event":
            result = self.call(item, menu, MENU, "Event", "isvu", dbus.Int32(menu_id), str(event), data, timestamp)
        else:
            result = self.call(item, menu, MENU, "EventGroup", "a(isvu)",
                               dbus.Array([(dbus.Int32(menu_id), str(event), data, timestamp)], signature="(isvu)"))
        self.log(event="click", id=int(menu_id), method=str(method), result=result)
        return json.dumps(result)

    @dbus.service.method(CONTROL, in_signature="ai", out_signature="s")
    def ClickGroup(self, ids):
        """One EventGroup with a click on each of `ids`."""
        item = self.only_item()
        events = dbus.Array([(dbus.Int32(i), "clicked", dbus.Int32(0, variant_level=1), dbus.UInt32(0)) for i in ids],
                            signature="(isvu)")
        return json.dumps(self.call(item, item.properties["Menu"], MENU, "EventGroup", "a(isvu)", events))

    @dbus.service.method(CONTROL, in_signature="ss", out_signature="s")
    def CallMenu(self, member, arguments):
        """Any menu method with JSON arguments: [signature, values...]."""
        item = self.only_item()
        signature, *values = json.loads(arguments)
        return json.dumps(self.call(item, item.properties["Menu"], MENU, str(member), signature, *values))

    @dbus.service.method(CONTROL, in_signature="ss", out_signature="s")
    def CallItem(self, member, arguments):
        item = self.only_item()
        signature, *values = json.loads(arguments)
        return json.dumps(self.call(item, item.path, ITEM, str(member), signature, *values))

    @dbus.service.method(CONTROL, in_signature="b", out_signature="")
    def SetHostRegistered(self, registered):
        self.host_registered = bool(registered)
        self.log(event="host", registered=self.host_registered)
        if registered:
            self.StatusNotifierHostRegistered()
        else:
            self.StatusNotifierHostUnregistered()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    parser.add_argument("--no-host", action="store_true", help="IsStatusNotifierHostRegistered is false")
    parser.add_argument("--quiet", action="store_true", help="read nothing back after a signal")
    args = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    panel = Panel(bus, args.record, not args.no_host, args.quiet)
    name = dbus.service.BusName(WATCHER, bus, do_not_queue=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    del name, panel


if __name__ == "__main__":
    main()
