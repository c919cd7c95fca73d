#!/usr/bin/python3
"""A real HTTP/1.1 server on 127.0.0.1 with keep-alive, for the plain HTTP client's tests.

It prints its port on the first line of stdout, then one JSON line per request it reads
(method, path, the client's port, which names the connection, headers, body) and one line
{"closed": PORT} once it closed a connection. What it answers depends on the path:
/hang-up answers 200 and then closes the connection without saying so (as a server whose
keep-alive timeout ran out does), a path starting with /drop closes the connection without
an answer the first time it is asked for (as a server closing an idle connection just as the
request arrives), /silent never answers, /big answers 1000 bytes,
/redirect answers 302 to /hello, everything else 200 "hello". It stops when stdin closes,
so it never outlives the test that started it.
"""

import http.server
import json
import sys
import threading

stopping = threading.Event()
print_lock = threading.Lock()
dropped = set()


def say(record):
    with print_lock:
        try:
            print(json.dumps(record), flush=True)
        except BrokenPipeError:
            pass  # the test is over and stopped reading


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        say({"method": self.command, "path": self.path, "connection": self.client_address[1],
             "headers": {name.lower(): value for name, value in self.headers.items()},
             "body": body.decode("utf-8", "replace")})
        if self.path == "/silent":
            stopping.wait()
            self.close_connection = True
            return
        if self.path.startswith("/drop") and self.path not in dropped:
            dropped.add(self.path)
            self.close_connection = True
            return
        status, answer, extra = 200, b"hello", []
        if self.path == "/big":
            answer = b"x" * 1000
        elif self.path == "/redirect":
            status, extra = 302, [("Location", "/hello")]
        self.send_response(status)
        for name, value in extra + [("Content-Length", str(len(answer))),
                                    ("X-Mixed-Case", "Kept")]:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(answer)
        if self.path == "/hang-up":
            self.close_connection = True

    do_GET = do_PUT = do_POST = do_HEAD = handle_any

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client resetting a connection (a body cut short) is part of the tests

    def process_request_thread(self, request, client_address):
        super().process_request_thread(request, client_address)  # closes the connection
        say({"closed": client_address[1]})


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    # A short poll interval: shutdown() waits for it, and every test case stops a server.
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    sys.stdin.read()
    stopping.set()
    server.shutdown()


if __name__ == "__main__":
    main()
