#!/usr/bin/python3
"""A generic runner whose jobs a test sets, for the pod annotator's end-to-end test.

Usage: busy_idle_runner.py PORT JOBS_FILE. Serves /metrics on 127.0.0.1:PORT with one
gitlab_runner_jobs series (the family runwarden's scrape reads the job count from,
src/scrape/gitlab_runner_load.hpp) whose value is the number in JOBS_FILE, read at every
scrape. On SIGTERM (the generic kind's graceful signal) it stops taking jobs and exits 0 once
JOBS_FILE says 0, as a runner draining its last job would.
"""

import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, jobs_file = int(sys.argv[1]), sys.argv[2]
draining = threading.Event()


def jobs():
    try:
        with open(jobs_file) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


class Metrics(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        page = ("# TYPE gitlab_runner_jobs gauge\n"
                'gitlab_runner_jobs{runner="e2e",state="running"} %d\n' % jobs()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)


signal.signal(signal.SIGTERM, lambda *_: draining.set())
server = ThreadingHTTPServer(("127.0.0.1", port), Metrics)
threading.Thread(target=server.serve_forever, daemon=True).start()
while not (draining.is_set() and jobs() == 0):
    time.sleep(0.05)
sys.exit(0)
