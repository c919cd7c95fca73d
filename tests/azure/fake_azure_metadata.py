#!/usr/bin/python3
"""A fake Azure Instance Metadata Service on 127.0.0.1 for the Azure watcher.

It follows Microsoft's documentation: "Azure Instance Metadata Service for Linux VMs"
(https://learn.microsoft.com/azure/virtual-machines/instance-metadata-service: every request
must carry "Metadata: true" and an api-version, and must not carry X-Forwarded-For, or it
gets 400 with a JSON error) and "Azure Metadata Service: Scheduled Events for Linux VMs"
(https://learn.microsoft.com/azure/virtual-machines/linux/scheduled-events, api-version
2020-07-01):
  - GET /metadata/instance/compute answers the VM's compute metadata (name, resourceId,
    vmScaleSetName, ...);
  - GET /metadata/scheduledevents answers {"DocumentIncarnation": N, "Events": [...]}, N
    growing whenever the events change; each event has EventId, EventType, ResourceType,
    Resources, EventStatus (Scheduled, Started), NotBefore (RFC 1123, "" once started),
    Description, EventSource and DurationInSeconds;
  - POST /metadata/scheduledevents with {"StartRequests": [{"EventId": ...}]} approves the
    events named: each moves to Started with NotBefore "" (a new incarnation), and an
    EventId that is not in the document makes the POST fail with 400.

Output, on stdout: the port on the first line, then one JSON line per request ({"method",
"path", "query": {name: value}, "status", "metadata": the header was right, "body": the
POST's JSON body or null}) and one {"ack": N} line per command. Commands come on stdin, one
JSON object per line, applied in order:
    events   the list of events (each an object as above; NotBefore may be given as
             "in_seconds": S, turned into the RFC 1123 time S seconds from now)
    compute  the compute metadata object
    status   answer every request with this status (null: normal again)
The server stops when stdin closes, so it never outlives the test that started it.
"""

import email.utils
import http.server
import json
import sys
import threading
import time
import urllib.parse

EVENTS_PATH = "/metadata/scheduledevents"
COMPUTE_PATH = "/metadata/instance/compute"


class World:
    lock = threading.Lock()
    incarnation = 1
    events = []
    compute = {
        "azEnvironment": "AzurePublicCloud",
        "location": "westeurope",
        "name": "runners_3",
        "resourceId": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ci/"
                      "providers/Microsoft.Compute/virtualMachineScaleSets/runners/"
                      "virtualMachines/3",
        "vmId": "02aab8a4-74ef-476e-8182-f6d2ba4166a6",
        "vmScaleSetName": "runners",
    }
    status = None


OUTPUT_LOCK = threading.Lock()  # request threads and the command loop share stdout


def emit(record):
    with OUTPUT_LOCK:
        print(json.dumps(record), flush=True)


def rfc1123(seconds_from_now):
    return email.utils.formatdate(time.time() + seconds_from_now, usegmt=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_request(self, method):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length) if length else b""
        metadata = self.headers.get("Metadata") == "true"
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode(errors="replace")
        with World.lock:
            status, answer = self.answer_for(method, url.path, query, metadata, body)
            emit({"method": method, "path": url.path, "query": query, "status": status,
                  "metadata": metadata, "body": body})
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer_for(self, method, path, query, metadata, body):
        if not metadata or "X-Forwarded-For" in self.headers:
            return 400, {"error": "Bad request. Required metadata header not specified"}
        if "api-version" not in query:
            return 400, {"error": "Bad request. api-version was not specified in the request"}
        if World.status is not None:
            return World.status, {"error": "fault"}
        if path == COMPUTE_PATH and method == "GET":
            return 200, World.compute
        if path != EVENTS_PATH:
            return 404, {"error": "Not found"}
        if method == "GET":
            return 200, {"DocumentIncarnation": World.incarnation, "Events": World.events}
        return self.approve(body)

    def approve(self, body):
        try:
            ids = [request["EventId"] for request in body["StartRequests"]]
        except (TypeError, KeyError):
            return 400, {"error": "Bad request. StartRequests expected"}
        known = {event["EventId"]: event for event in World.events}
        if not ids or any(event_id not in known for event_id in ids):
            return 400, {"error": "Bad request. Unknown EventId"}
        for event_id in ids:
            known[event_id]["EventStatus"] = "Started"
            known[event_id]["NotBefore"] = ""
        World.incarnation += 1
        return 200, {}

    def do_GET(self):
        self.handle_request("GET")

    def do_POST(self):
        self.handle_request("POST")

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def apply(command):
    with World.lock:
        if "events" in command:
            events = []
            for event in command["events"]:
                event = dict(event)
                if "in_seconds" in event:
                    event["NotBefore"] = rfc1123(event.pop("in_seconds"))
                events.append(event)
            World.events = events
            World.incarnation += 1
        if "compute" in command:
            World.compute = command["compute"]
        if "status" in command:
            World.status = command["status"]


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
