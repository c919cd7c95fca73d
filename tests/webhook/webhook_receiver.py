#!/usr/bin/python3
"""A real HTTP server on 127.0.0.1 for the webhook integration test.

It prints its port on the first line of stdout, then one JSON line per request it receives:
method, path, headers, body, and whether the X-Runwarden-Signature header verifies with
Python's own hmac module under the secret file's key (null when there is no header). The
status it answers depends on the path: /flaky answers 500 twice and then 200, /missing 404,
/slow 200 but only after SLOW_ANSWER_SECONDS, everything else 200. It stops when stdin
closes, so it never outlives the test that started it.
"""

import hashlib
import hmac
import http.server
import json
import sys
import threading
import time

FLAKY_FAILURES = 2
SLOW_ANSWER_SECONDS = 3


def read_secret(path):
    if not path:
        return None
    with open(path, "rb") as secret_file:
        secret = secret_file.read()
    return secret[:-1] if secret.endswith(b"\n") else secret


class Receiver(http.server.BaseHTTPRequestHandler):
    secret = None
    lock = threading.Lock()
    flaky_seen = 0

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        record = {
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
            "signature_ok": self.signature_ok(body),
        }
        with Receiver.lock:
            status = self.status_for(self.path)
            print(json.dumps(record), flush=True)
        if self.path.startswith("/slow"):
            time.sleep(SLOW_ANSWER_SECONDS)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def signature_ok(self, body):
        header = self.headers.get("X-Runwarden-Signature")
        if header is None or Receiver.secret is None:
            return None
        expected = "sha256=" + hmac.new(Receiver.secret, body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(header, expected)

    @staticmethod
    def status_for(path):
        if path.startswith("/flaky"):
            Receiver.flaky_seen += 1
            return 500 if Receiver.flaky_seen <= FLAKY_FAILURES else 200
        if path.startswith("/missing"):
            return 404
        return 200

    do_POST = handle_any
    do_PUT = handle_any
    do_PATCH = handle_any
    do_GET = handle_any  # a shutdown callback without a method, as gitlab-runner sends it

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def main():
    Receiver.secret = read_secret(sys.argv[1] if len(sys.argv) > 1 else "")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
