#!/usr/bin/python3
"""Fake GitLab and GitHub runner APIs on 127.0.0.1 for the unregistration test.

Usage: fake_ci_api.py SCENARIO_JSON. The scenario names the tokens the fake accepts, the
registered runners, and faults per route, served in order before the route behaves:

  {"gitlab_token": "...", "system_id": "...", "github_token": "...",
   "github_runner": {"id": 77, "name": "box-1", "busy_calls": 2},
   "faults": {"gitlab_delete": [FAULT, ...], "github_list": [...], "github_delete": [...]}}

A FAULT is {"status": 500}, optionally with "headers" and "body", {"html": 502} for an HTML
error page, or {"slow": SECONDS} to answer 204 only after that long (past the client's
timeout). Without faults the routes behave like the real APIs: GitLab's DELETE
/api/v4/runners/managers removes the manager for the right token and system id (204), and
answers 404 once it is gone and 403 for a token it does not know; GitHub's list needs the
right bearer token (401 otherwise), and DELETE answers 422 "still running a job" for
busy_calls calls, then 204, then 404.

GitLab's token routes behave as its API documentation (doc/api/runners.md: "Reset runner's
authentication token by using the current token", "Verify authentication for a registered
runner") and its source (lib/api/ci/runner.rb: authenticate_runner! answers 403 for a token
it does not accept; DELETE /runners/managers answers 404 for an unknown system id) say, and
as gitlab-runner calls them (network/gitlab.go resetToken expects 201):
POST /api/v4/runners/reset_authentication_token with the current token answers 201 with a
new token (`rotated_token` from the scenario, else a made-up one) and its expiry, and from
then on the old token is refused with 403 everywhere; POST /api/v4/runners/verify answers
200 for the current token, 403 otherwise. Both take a form body or JSON, as GitLab does.

The port goes to stdout first, then one JSON line per request (method, path, headers, body,
the status answered, whether it was a fault, a monotonic time). It stops when stdin closes.
"""

import http.server
import json
import sys
import threading
import time
import urllib.parse

HTML_PAGE = "<!DOCTYPE html><html><head><title>Bad Gateway</title></head><body>nginx</body></html>"


class FakeApi(http.server.BaseHTTPRequestHandler):
    scenario = {}
    lock = threading.Lock()
    manager_registered = True
    rotations = 0
    github_registered = True

    def do_GET(self):
        self.handle_any()

    def do_DELETE(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        with FakeApi.lock:
            route = self.route()
            fault = self.next_fault(route)
            if fault is None:
                status, headers, answer = self.behave(route, body)
            elif "slow" in fault:
                status, headers, answer = 204, {}, ""
            elif "html" in fault:
                status, headers, answer = fault["html"], {"Content-Type": "text/html"}, HTML_PAGE
            else:
                status = fault["status"]
                headers, answer = fault.get("headers", {}), fault.get("body", "")
            record = {"method": self.command, "path": self.path, "route": route, "body": body,
                      "headers": {k.lower(): v for k, v in self.headers.items()},
                      "status": status, "fault": fault is not None, "time": time.monotonic()}
            print(json.dumps(record), flush=True)
        if fault is not None and "slow" in fault:
            time.sleep(fault["slow"])
        data = answer.encode()
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting: what a slow answer is for

    def route(self):
        path = urllib.parse.urlparse(self.path).path
        if path == "/api/v4/runners/managers" and self.command == "DELETE":
            return "gitlab_delete"
        if path == "/api/v4/runners/reset_authentication_token" and self.command == "POST":
            return "gitlab_reset_token"
        if path == "/api/v4/runners/verify" and self.command == "POST":
            return "gitlab_verify"
        if path.endswith("/actions/runners") and self.command == "GET":
            return "github_list"
        if "/actions/runners/" in path and self.command == "DELETE":
            return "github_delete"
        return "unknown"

    def next_fault(self, route):
        faults = FakeApi.scenario.get("faults", {}).get(route, [])
        return faults.pop(0) if faults else None

    def form(self, body):
        """The request's parameters, from a JSON body or a form body, as Grape reads both."""
        if self.headers.get("Content-Type", "").startswith("application/json"):
            try:
                return {k: [str(v)] for k, v in json.loads(body or "{}").items()}
            except ValueError:
                return {}
        return urllib.parse.parse_qs(body)

    def behave_token_route(self, route, form):
        scenario = FakeApi.scenario
        if form.get("token") != [scenario.get("gitlab_token")]:
            return 403, {}, json.dumps({"message": "403 Forbidden"})
        if route == "gitlab_verify":
            return 200, {}, json.dumps({"id": 12345, "token": scenario["gitlab_token"],
                                        "token_expires_at": None})
        FakeApi.rotations += 1
        scenario["gitlab_token"] = scenario.get("rotated_token") or (
            "glrt-fake-rotated-%d" % FakeApi.rotations)
        return 201, {}, json.dumps({"token": scenario["gitlab_token"],
                                    "token_expires_at": "2027-01-01T00:00:00.000Z"})

    def behave(self, route, body):
        scenario = FakeApi.scenario
        if route in ("gitlab_reset_token", "gitlab_verify"):
            return self.behave_token_route(route, self.form(body))
        if route == "gitlab_delete":
            form = self.form(body)
            if form.get("token") != [scenario.get("gitlab_token")]:
                return 403, {}, json.dumps({"message": "403 Forbidden"})
            known = form.get("system_id") == [scenario.get("system_id")]
            if not known or not FakeApi.manager_registered:
                return 404, {}, json.dumps({"message": "404 Not Found"})
            FakeApi.manager_registered = False
            return 204, {}, ""
        if route.startswith("github"):
            if self.headers.get("Authorization") != "Bearer " + scenario.get("github_token", ""):
                return 401, {}, json.dumps({"message": "Bad credentials"})
            runner = scenario["github_runner"]
            if route == "github_list":
                name = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).get("name")
                listed = [runner] if FakeApi.github_registered and name == [runner["name"]] else []
                shown = [{"id": r["id"], "name": r["name"], "busy": r.get("busy_calls", 0) > 0}
                         for r in listed]
                return 200, {}, json.dumps({"total_count": len(shown), "runners": shown})
            if not FakeApi.github_registered or not self.path.endswith("/%d" % runner["id"]):
                return 404, {}, json.dumps({"message": "Not Found"})
            if runner.get("busy_calls", 0) > 0:
                runner["busy_calls"] -= 1
                return 422, {}, json.dumps({"message": "Bad request - Runner \"%s\" is still "
                                                       "running a job\"" % runner["name"]})
            FakeApi.github_registered = False
            return 204, {}, ""
        return 404, {}, ""

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def main():
    FakeApi.scenario = json.loads(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeApi)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
