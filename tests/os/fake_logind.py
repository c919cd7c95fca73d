#!/usr/bin/python3
"""A fake of systemd-logind's inhibitor locks on a private D-Bus bus, for runwarden's tests.

Run with Debian's /usr/bin/python3, which has python3-dbus and python3-gi. Usage:
fake_logind.py BUS_ADDRESS. It owns org.freedesktop.login1 on that bus and serves
org.freedesktop.login1.Manager.Inhibit(s what, s who, s why, s mode) -> h at
/org/freedesktop/login1, as logind's D-Bus API documents it (org.freedesktop.login1(5),
"Inhibit()"; systemd 252's src/login/logind-dbus.c, method_inhibit()): `what` is a
colon-separated list of shutdown, sleep, idle, handle-power-key, handle-suspend-key,
handle-hibernate-key, handle-lid-switch; `mode` is block or delay, and delay is refused
for anything but shutdown and sleep; both answer org.freedesktop.DBus.Error.InvalidArgs
otherwise. As logind does, it answers with the write end of a pipe (logind's is a FIFO)
and keeps the read end: the lock ends when the reader sees the hang-up, that is when the
caller and every process that inherited a copy have closed it. It also sends the
Manager's signal PrepareForShutdown(b start) when told to, as logind does when a shutdown is
asked for, before it waits for the delay locks.

Output, on stdout, one JSON object per line: {"ready": true} once it owns the name, then
{"event": "inhibit", "id": N, "what", "who", "why", "mode"} per lock taken (the caller's
uid as "uid") and {"event": "released", "id": N} when that lock's descriptor is closed.
Commands come on stdin, one JSON object per line: {"prepare_for_shutdown": true | false}
sends the signal with that argument, answered {"ack": N} (N counts the commands). It ends
when stdin closes, so it never outlives the test that started it.
"""

import json
import os
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.login1"
PATH = "/org/freedesktop/login1"
INTERFACE = "org.freedesktop.login1.Manager"
WHATS = {"shutdown", "sleep", "idle", "handle-power-key", "handle-suspend-key",
         "handle-hibernate-key", "handle-lid-switch"}


class InvalidArgs(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.InvalidArgs"


def emit(record):
    print(json.dumps(record), flush=True)


class Manager(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.bus = bus
        self.next_id = 1

    @dbus.service.method(INTERFACE, in_signature="ssss", out_signature="h",
                         sender_keyword="sender")
    def Inhibit(self, what, who, why, mode, sender=None):  # noqa: N802 - the D-Bus name
        whats = str(what).split(":")
        if not all(w in WHATS for w in whats):
            raise InvalidArgs("Invalid what specification %s" % what)
        if mode not in ("block", "delay"):
            raise InvalidArgs("Invalid mode specification %s" % mode)
        if mode == "delay" and not set(whats) <= {"shutdown", "sleep"}:
            raise InvalidArgs("Delay inhibitors only supported for shutdown and sleep")
        lock = self.next_id
        self.next_id += 1
        reader, writer = os.pipe()
        uid = self.bus.get_unix_user(sender)
        emit({"event": "inhibit", "id": lock, "what": str(what), "who": str(who),
              "why": str(why), "mode": str(mode), "uid": int(uid)})

        def hung_up(fd, condition):
            emit({"event": "released", "id": lock})
            os.close(fd)
            return False

        GLib.io_add_watch(reader, GLib.PRIORITY_DEFAULT, GLib.IO_HUP | GLib.IO_ERR, hung_up)
        answer = dbus.types.UnixFd(writer)  # holds a dup until the reply is sent and freed
        os.close(writer)
        return answer

    @dbus.service.signal(INTERFACE, signature="b")
    def PrepareForShutdown(self, start):  # noqa: N802 - the D-Bus name
        pass


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    manager = Manager(bus)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    loop = GLib.MainLoop()

    pending = {"text": "", "commands": 0}

    def on_stdin(fd, condition):
        data = os.read(fd, 4096) if condition & GLib.IO_IN else b""
        if not data:
            loop.quit()
            return False
        pending["text"] += data.decode()
        while "\n" in pending["text"]:
            line, pending["text"] = pending["text"].split("\n", 1)
            if not line.strip():
                continue
            command = json.loads(line)
            pending["commands"] += 1
            if "prepare_for_shutdown" in command:
                manager.PrepareForShutdown(dbus.Boolean(command["prepare_for_shutdown"]))
            emit({"ack": pending["commands"]})
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT,
                      GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_stdin)
    emit({"ready": True})
    loop.run()
    del manager, name


if __name__ == "__main__":
    main()
