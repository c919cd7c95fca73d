#!/usr/bin/python3
"""A fake Kubernetes API server for runwarden's pod annotator: GET and PATCH of one pod, over
TLS on loopback, with a bearer token check.

Checked against the Kubernetes API reference (v1.31, "Pod v1 core": "patch partially update
the specified Pod", PATCH /api/v1/namespaces/{namespace}/pods/{name}, and "read the specified
Pod"), the API concepts page ("Patch": application/merge-patch+json is RFC 7386, in which null
deletes a key; a PATCH with another media type is refused with 415 Unsupported Media Type),
and the meta/v1 Status object the API server answers errors with (kind Status, status
Failure, reason Conflict for 409, TooManyRequests for 429 with a Retry-After header,
Unauthorized for 401, NotFound for 404). Annotation values must be strings (ObjectMeta), so
a non-string value is refused with 422 Invalid, as the API server's validation does.

Usage: fake_kube_api.py SCENARIO_JSON. SCENARIO: {"cert", "key": PEM files of the server's
certificate; "tokens_file": a file holding the token(s) accepted, one a line, read again at
every request (so a test rotates it); "pod": the pod object (metadata.name, namespace);
"patch_answers": a list of statuses for the first PATCHes in order (409, 429 or 500 are
answered as faults, without applying; null applies)}. Prints its port, then one JSON line
per request on stdout: method, path, content type, whether the token was accepted, the body
parsed, the status answered, and the pod's annotations after it. Ends when stdin closes.
"""

import copy
import json
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

scenario = json.loads(sys.argv[1])
lock = threading.Lock()
pod = copy.deepcopy(scenario["pod"])
pod.setdefault("metadata", {}).setdefault("annotations", {})
pod["metadata"]["resourceVersion"] = "1"
patch_answers = list(scenario.get("patch_answers", []))
PATCH_TYPES = ("application/json-patch+json", "application/merge-patch+json",
               "application/strategic-merge-patch+json", "application/apply-patch+yaml")
REASONS = {401: "Unauthorized", 404: "NotFound", 409: "Conflict", 415: "UnsupportedMediaType",
           422: "Invalid", 429: "TooManyRequests", 500: "InternalError"}


def merge_patch(target, patch):
    """RFC 7386, section 2: MergePatch(Target, Patch)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = merge_patch(result.get(name), value)
    return result


def status_body(code, message):
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": REASONS.get(code, "Unknown"), "code": code}


def accepted_tokens():
    with open(scenario["tokens_file"]) as f:
        return {line.strip() for line in f if line.strip()}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def record(self, entry):
        entry["annotations"] = dict(pod["metadata"]["annotations"])
        print(json.dumps(entry), flush=True)

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        authorization = self.headers.get("Authorization", "")
        token_ok = authorization.startswith("Bearer ") and \
            authorization[len("Bearer "):] in accepted_tokens()
        content_type = self.headers.get("Content-Type")
        entry = {"method": method, "path": self.path, "content_type": content_type,
                 "token_ok": token_ok, "body": json.loads(raw) if raw else None,
                 "user_agent": self.headers.get("User-Agent")}
        meta = pod["metadata"]
        own_path = "/api/v1/namespaces/%s/pods/%s" % (meta["namespace"], meta["name"])
        with lock:
            code, body, headers = self.decide(method, own_path, token_ok, content_type,
                                              entry["body"])
            entry["status"] = code
            self.record(entry)
        self.answer(code, body, headers)

    def decide(self, method, own_path, token_ok, content_type, patch):
        if not token_ok:
            return 401, status_body(401, "Unauthorized"), ()
        if self.path != own_path:
            return 404, status_body(404, "pods not found"), ()
        if method == "GET":
            return 200, pod, ()
        if content_type not in PATCH_TYPES:
            return 415, status_body(415, "the body of the request was in an unknown format"), ()
        if content_type != "application/merge-patch+json":
            return 415, status_body(415, "this fake applies merge patches only"), ()
        fault = patch_answers.pop(0) if patch_answers else None
        if fault == 409:
            return 409, status_body(409, "Operation cannot be fulfilled on pods: the object "
                                         "has been modified"), ()
        if fault == 429:
            return 429, status_body(429, "Too many requests"), (("Retry-After", "1"),)
        if fault:
            return fault, status_body(fault, "fault"), ()
        patched = merge_patch(pod, patch)
        annotations = patched.get("metadata", {}).get("annotations", {})
        if any(not isinstance(v, str) for v in annotations.values()):
            return 422, status_body(422, "annotation values must be strings"), ()
        pod.clear()
        pod.update(patched)
        meta = pod["metadata"]
        meta.setdefault("annotations", {})
        meta["resourceVersion"] = str(int(meta.get("resourceVersion", "1")) + 1)
        return 200, pod, ()

    def do_GET(self):
        self.handle_any("GET")

    def do_PATCH(self):
        self.handle_any("PATCH")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(scenario["cert"], scenario["key"])
server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()
server.shutdown()
