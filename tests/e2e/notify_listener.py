"""systemd's end of NOTIFY_SOCKET (sd_notify(3)) for tests: an AF_UNIX SOCK_DGRAM socket
that collects every datagram in order with its sender's pid (SO_PASSCRED, as systemd reads
it to enforce NotifyAccess=), and lets a test wait for a line to arrive."""

import os
import socket
import struct
import threading


class NotifyListener:
    """systemd's end of NOTIFY_SOCKET: every datagram, in order, with its sender's pid."""

    def __init__(self, directory, wait_s):
        self.wait_s = wait_s
        self.path = os.path.join(directory, "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.datagrams = []  # (pid, [lines])
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        credentials_size = struct.calcsize("3i")
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(credentials_size))
            except OSError:
                return
            if not data:  # close() shut the socket down
                return
            pid = None
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("3i", payload[:credentials_size])[0]
            with self.changed:
                self.datagrams.append((pid, data.decode().split("\n")))
                self.changed.notify_all()

    def lines(self):
        with self.changed:
            return [line for _, lines in self.datagrams for line in lines]

    def wait_for_line(self, line):
        with self.changed:
            found = self.changed.wait_for(
                lambda: any(line in lines for _, lines in self.datagrams), timeout=self.wait_s)
        assert found, "never received %r; got %r" % (line, self.lines())

    def close(self):
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.thread.join()
