#!/usr/bin/python3
"""A fake Google Compute Engine metadata server on 127.0.0.1 for the Google Cloud watcher.

It follows Google's documentation of the server ("View and query VM metadata",
https://cloud.google.com/compute/docs/metadata/querying-metadata, with its sections on
required headers, ETags and waiting for changes; "Detect if a VM was preempted"; "Query
metadata server for maintenance event notices"):
  - every request must carry "Metadata-Flavor: Google" and must not carry X-Forwarded-For,
    or it gets 403; every answer carries "Metadata-Flavor: Google" and an ETag (a hash of
    the value) and is text;
  - ?wait_for_change=true hangs until the value's ETag differs from last_etag (at once when
    it already does; with no last_etag, until the next change), or until timeout_sec
    seconds have passed, then answers with the value as it is;
  - keys served: instance/preempted (FALSE or TRUE), instance/maintenance-event (NONE,
    MIGRATE_ON_HOST_MAINTENANCE, TERMINATE_ON_HOST_MAINTENANCE), instance/id,
    instance/name, instance/zone ("projects/NUMBER/zones/ZONE") and, for an instance of a
    managed instance group, instance/attributes/created-by; anything else is 404.

Output, on stdout: the port on the first line, then one JSON line per answered request
({"path", "query": {name: value}, "status", "flavor": the request's header was right,
"waited": seconds it hung}) and one {"ack": N} line per command. A hanging request is
written when it is answered. Commands come on stdin, one JSON object per line, applied in
order:
    preempted          the value of instance/preempted
    maintenance_event  the value of instance/maintenance-event
    created_by         the value of instance/attributes/created-by, or null for 404
    flavor             false: answer without "Metadata-Flavor: Google" (a stranger, such
                       as a proxy), true again: as the server does
    status             answer every request with this status (null: normal again)
The server stops when stdin closes, so it never outlives the test that started it.
"""

import hashlib
import http.server
import json
import sys
import threading
import time
import urllib.parse

PREFIX = "/computeMetadata/v1/"


class World:
    changed = threading.Condition()
    values = {
        "instance/preempted": "FALSE",
        "instance/maintenance-event": "NONE",
        "instance/id": "4520031799277581759",
        "instance/name": "runner-mig-x7k2",
        "instance/zone": "projects/123456789012/zones/europe-west1-b",
        "instance/attributes/created-by":
            "projects/123456789012/zones/europe-west1-b/instanceGroupManagers/runners",
    }
    flavor = True
    status = None


OUTPUT_LOCK = threading.Lock()  # request threads and the command loop share stdout


def emit(record):
    with OUTPUT_LOCK:
        print(json.dumps(record), flush=True)


def etag_of(value):
    return hashlib.sha256(("%r" % (value,)).encode()).hexdigest()[:16]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        key = url.path[len(PREFIX):] if url.path.startswith(PREFIX) else None
        flavored = self.headers.get("Metadata-Flavor") == "Google"
        started = time.monotonic()
        if not flavored or "X-Forwarded-For" in self.headers:
            status, value = 403, "Missing Metadata-Flavor:Google header.\n"
        else:
            status, value = self.read(key, query)
        waited = round(time.monotonic() - started, 3)
        emit({"path": url.path, "query": query, "status": status, "flavor": flavored,
              "waited": waited})
        body = ("" if value is None else value).encode()
        self.send_response(status)
        if World.flavor:
            self.send_header("Metadata-Flavor", "Google")
        if status == 200:
            self.send_header("ETag", etag_of(value))
        self.send_header("Content-Type", "application/text")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read(self, key, query):
        with World.changed:
            if World.status is not None:
                return World.status, "error\n"
            if key is None or World.values.get(key) is None:
                return 404, "not found\n"
            if query.get("wait_for_change") == "true":
                deadline = time.monotonic() + float(query.get("timeout_sec", "3600"))
                last = query.get("last_etag", etag_of(World.values.get(key)))
                while etag_of(World.values.get(key)) == last:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    World.changed.wait(left)
                if World.values.get(key) is None:
                    return 404, "not found\n"
            return 200, World.values[key]

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def apply(command):
    with World.changed:
        for name, key in (("preempted", "instance/preempted"),
                          ("maintenance_event", "instance/maintenance-event"),
                          ("created_by", "instance/attributes/created-by")):
            if name in command:
                World.values[key] = command[name]
        if "flavor" in command:
            World.flavor = bool(command["flavor"])
        if "status" in command:
            World.status = command["status"]
        World.changed.notify_all()


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for number, line in enumerate(sys.stdin, start=1):
        if line.strip():
            apply(json.loads(line))
            emit({"ack": number})
    server.shutdown()


if __name__ == "__main__":
    main()
