"""A process's output read in a thread, so that a test waits for a line to appear (an
observed change, bounded only against hangs) instead of sleeping."""

import threading

WAIT_S = 90


class LogReader:
    def __init__(self, stream, wait_s=WAIT_S):
        self.lines, self.changed, self.wait_s = [], threading.Condition(), wait_s
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def wait_for(self, text):
        """True once a line holds `text`; False if none did within the wait."""
        with self.changed:
            return self.changed.wait_for(lambda: any(text in l for l in self.lines), self.wait_s)

    def expect(self, text):
        assert self.wait_for(text), "no log line with %r:\n%s" % (text, self.text()[-6000:])

    def text(self):
        with self.changed:
            return "".join(self.lines)
