#!/usr/bin/python3
"""A fake EC2 instance metadata service (IMDSv2) on 127.0.0.1 for the watcher's tests.

It speaks the wire protocol the way EC2 does: PUT /latest/api/token with an
X-aws-ec2-metadata-token-ttl-seconds header from 1 to 21600 hands out a token (400
without a valid TTL); every GET must carry a live token in X-aws-ec2-metadata-token or
gets 401; pages that do not exist (yet) answer 404 with an HTML body.

Output, on stdout: the port on the first line, then one JSON line per request
({"method", "path", "status", "token": "none" | "valid" | "bad" | "expired"}) and one
{"ack": N} line per command. Commands come on stdin, one JSON object per line, applied in
order, each with its keys:
    lifecycle_state   text of target-lifecycle-state (any text: unknown values, HTML), or
                      null for 404
    spot_action       body of spot/instance-action (any text: malformed JSON), or null
    rebalance         body of events/recommendations/rebalance, or null
    scheduled_events  body of events/maintenance/scheduled (a JSON list of events as the
                      AWS user guide's "View scheduled events" shows them: NotBefore, Code,
                      Description, EventId, NotAfter, State), or null
    token_ttl_max     the longest TTL granted, in seconds (shorter TTLs test expiry)
    revoke_tokens     true: every token handed out so far stops working
    token_status      answer the next token PUTs with this status (null: normal again)
    hang              true: every request from now on is read and then held without an
                      answer (as a wedged metadata service does, not refusing anything)
                      until the client gives up and closes its connection, or until
                      "hang": false, after which held requests are answered as usual
    connections       any value: prints {"connections": {"open", "open_max", "held",
                      "held_max", "abandoned"}}: client connections open now and at most so
                      far, requests held now and at most, and held requests whose client
                      closed its connection without an answer
    role              the instance role, {"name", "access_key", "secret_key", "token",
                      "expiration"}: iam/security-credentials/ lists its name and
                      iam/security-credentials/<name> serves its credentials as EC2 does
                      ({"Code": "Success", "LastUpdated", "Type": "AWS-HMAC", "AccessKeyId",
                      "SecretAccessKey", "Token", "Expiration"}); null (the start): no role,
                      both pages 404
The server stops when stdin closes, so it never outlives the test that started it.
"""

import http.server
import json
import secrets
import socket
import sys
import threading
import time

NOT_FOUND = (b'<?xml version="1.0" encoding="iso-8859-1"?>\n'
             b'<html><head><title>404 - Not Found</title></head>'
             b'<body><h1>404 - Not Found</h1></body></html>\n')
IDENTITY = {
    "accountId": "123456789012",
    "architecture": "x86_64",
    "availabilityZone": "eu-west-1a",
    "imageId": "ami-0123456789abcdef0",
    "instanceId": "i-0fake0imds0test00",
    "instanceType": "t3.micro",
    "pendingTime": "2024-01-01T00:00:00Z",
    "privateIp": "10.0.0.1",
    "region": "eu-west-1",
    "version": "2017-09-30",
}
TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds"
TOKEN_HEADER = "X-aws-ec2-metadata-token"
ROLE_LIST = "/latest/meta-data/iam/security-credentials/"


class World:
    lock = threading.Lock()
    pages = {
        "/latest/meta-data/autoscaling/target-lifecycle-state": None,
        "/latest/meta-data/spot/instance-action": None,
        "/latest/meta-data/events/recommendations/rebalance": None,
        "/latest/meta-data/events/maintenance/scheduled": None,
        "/latest/dynamic/instance-identity/document": json.dumps(IDENTITY, indent=2),
    }
    tokens = {}  # token -> expiry (monotonic seconds)
    token_ttl_max = 21600
    token_status = None


class Hang:
    """The hang command's state, and the connections and held requests it counts. A
    connection its client closed counts no more from that moment, even before its thread
    has noticed: each count looks at the sockets themselves."""
    changed = threading.Condition()
    on = False
    connections, held = set(), set()
    open_max = held_max = abandoned = 0

    @staticmethod
    def live(sockets):
        return sum(1 for s in sockets if not closed_by_peer(s))

    @classmethod
    def counts(cls):
        with cls.changed:
            return {"open": cls.live(cls.connections), "open_max": cls.open_max,
                    "held": cls.live(cls.held), "held_max": cls.held_max,
                    "abandoned": cls.abandoned}


def closed_by_peer(connection):
    try:
        return connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False  # open, nothing sent
    except OSError:
        return True


COMMAND_PAGES = {
    "lifecycle_state": "/latest/meta-data/autoscaling/target-lifecycle-state",
    "spot_action": "/latest/meta-data/spot/instance-action",
    "rebalance": "/latest/meta-data/events/recommendations/rebalance",
    "scheduled_events": "/latest/meta-data/events/maintenance/scheduled",
}


OUTPUT_LOCK = threading.Lock()  # request threads and the command loop share stdout


def emit(record):
    with OUTPUT_LOCK:
        print(json.dumps(record), flush=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    HANG_CHECK_S = 0.05  # how often a held request looks whether its client gave up

    def setup(self):
        super().setup()
        with Hang.changed:
            Hang.connections.add(self.connection)
            Hang.open_max = max(Hang.open_max, Hang.live(Hang.connections))

    def finish(self):
        try:
            super().finish()
        finally:
            with Hang.changed:
                Hang.connections.discard(self.connection)

    def abandoned_while_held(self):
        """Holds the request while the service hangs; True when the client closed its
        connection meanwhile (nothing is answered then), False once the hang is over."""
        with Hang.changed:
            if not Hang.on:
                return False
            Hang.held.add(self.connection)
            Hang.held_max = max(Hang.held_max, Hang.live(Hang.held))
        try:
            while True:
                with Hang.changed:
                    if not Hang.on:
                        return False
                    Hang.changed.wait(self.HANG_CHECK_S)
                if closed_by_peer(self.connection):
                    with Hang.changed:
                        Hang.abandoned += 1
                    emit({"method": self.command, "path": self.path, "status": None,
                          "held": "abandoned"})
                    self.close_connection = True
                    return True
        finally:
            with Hang.changed:
                Hang.held.discard(self.connection)

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length:
            self.rfile.read(length)
        if self.abandoned_while_held():
            return
        with World.lock:
            status, body, headers = self.token_answer()
            emit({"method": "PUT", "path": self.path, "status": status, "token": "none"})
        self.answer(status, body, headers)

    def token_answer(self):
        if self.path != "/latest/api/token":
            return 403, b"", ()
        if World.token_status is not None:
            return World.token_status, b"<html>error</html>", ()
        try:
            ttl = int(self.headers.get(TTL_HEADER, ""))
        except ValueError:
            ttl = 0
        if not 1 <= ttl <= 21600:
            return 400, b"", ()
        ttl = min(ttl, World.token_ttl_max)
        token = secrets.token_urlsafe(42)
        World.tokens[token] = time.monotonic() + ttl
        return 200, token.encode(), ((TTL_HEADER, str(ttl)),)

    def do_GET(self):
        if self.abandoned_while_held():
            return
        with World.lock:
            token_state = self.token_state()
            if token_state != "valid":
                status, body = 401, b""
            else:
                page = World.pages.get(self.path)
                status, body = (404, NOT_FOUND) if page is None else (200, page.encode())
            emit({"method": "GET", "path": self.path, "status": status, "token": token_state})
        self.answer(status, body, (("Content-Type", "text/plain"),))

    def token_state(self):
        token = self.headers.get(TOKEN_HEADER)
        if token is None:
            return "none"
        expiry = World.tokens.get(token)
        if expiry is None:
            return "bad"
        return "valid" if time.monotonic() < expiry else "expired"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def apply(command):
    with World.lock:
        for key, page in COMMAND_PAGES.items():
            if key in command:
                World.pages[page] = command[key]
        if "token_ttl_max" in command:
            World.token_ttl_max = int(command["token_ttl_max"])
        if command.get("revoke_tokens"):
            World.tokens.clear()
        if "token_status" in command:
            World.token_status = command["token_status"]
        if "role" in command:
            set_role(command["role"])
    if "hang" in command:
        with Hang.changed:
            Hang.on = bool(command["hang"])
            Hang.changed.notify_all()
    if "connections" in command:
        emit({"connections": Hang.counts()})


def set_role(role):
    for path in [path for path in World.pages if path.startswith(ROLE_LIST)]:
        del World.pages[path]
    if role is not None:
        World.pages[ROLE_LIST] = role["name"]
        World.pages[ROLE_LIST + role["name"]] = json.dumps({
            "Code": "Success",
            "LastUpdated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "Type": "AWS-HMAC",
            "AccessKeyId": role["access_key"],
            "SecretAccessKey": role["secret_key"],
            "Token": role["token"],
            "Expiration": role["expiration"],
        }, indent=2, separators=(",", " : "))


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for number, line in enumerate(sys.stdin, start=1):
        if line.strip():
            apply(json.loads(line))
            emit({"ack": number})
    server.shutdown()


if __name__ == "__main__":
    main()
