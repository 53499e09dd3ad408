"""logind on a private system bus, as far as the agent follows it: the name
org.freedesktop.login1 and its PrepareForSleep signal, sent before a
suspend (true) and after the resume (false)."""

import dbus
import dbus.lowlevel

from harness import SystemBus

NAME = "org.freedesktop.login1"
PATH = "/org/freedesktop/login1"
MANAGER = "org.freedesktop.login1.Manager"


class FakeLogind(SystemBus):
    """A second private bus standing in for the system bus (given to the
    agent through DBUS_SYSTEM_BUS_ADDRESS), where the test owns logind's
    name and announces suspends as logind does."""

    def __init__(self, session):
        super().__init__(session)
        if self.connection.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
            raise RuntimeError("could not own %s on the private system bus" % NAME)

    def prepare_for_sleep(self, starting):
        """PrepareForSleep(true) before a suspend, (false) after the resume."""
        message = dbus.lowlevel.SignalMessage(PATH, MANAGER, "PrepareForSleep")
        message.append(dbus.Boolean(starting), signature="b")
        self.connection.send_message(message)
        self.connection.flush()
