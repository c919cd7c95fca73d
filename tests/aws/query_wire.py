"""What every fake AWS Query protocol endpoint of runwarden's tests shares (fake_autoscaling.py,
fake_cloudwatch.py): the SigV4 check with botocore's signer (tests/sigv4/sigv4_oracle.py,
clock frozen at the request's X-Amz-Date), the error envelope, and the dispatch of one POST
(QueryHandler): signature, the scripted fault, the call, the log line and the answer.

Checked against: botocore's signer (SigV4Auth, Debian's python3-botocore) for signatures; the
AWS Query protocol error shape, <ErrorResponse><Error><Type><Code><Message></Error>
<RequestId>, as botocore's QueryParser reads it, with the messages AWS sends for a missing,
unknown or wrong signature (MissingAuthenticationToken, InvalidClientTokenId,
SignatureDoesNotMatch, all 403).
"""

import html
import http.server
import os
import re
import sys
import threading
import time
import uuid
from urllib.parse import parse_qsl
from xml.sax.saxutils import escape

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sigv4"))
import sigv4_oracle  # noqa: E402 - found through the path above

AUTHORIZATION = re.compile(r"AWS4-HMAC-SHA256 Credential=([^/,]*)/[^,]*, "
                           r"SignedHeaders=([^,]*), Signature=")
BAD_TOKEN = "The security token included in the request is invalid."
BAD_SIGNATURE = ("The request signature we calculated does not match the signature you "
                 "provided. Check your AWS Secret Access Key and signing method. Consult "
                 "the service documentation for details.")
SIGN_LOCK = threading.Lock()  # the oracle freezes botocore's clock module-wide


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def authenticate(scenario, headers, path, body, signing_name):
    """("valid" | "bad" | "missing", the ApiError to answer or None). `scenario` holds
    region, access_key, secret_key and session_token (None: none expected)."""
    authorization = headers.get("Authorization")
    if authorization is None:
        return "missing", ApiError(403, "MissingAuthenticationToken",
                                   "Request is missing Authentication Token")
    match = AUTHORIZATION.match(authorization)
    if (match is None or match[1] != scenario["access_key"]
            or headers.get("X-Amz-Security-Token") != scenario.get("session_token")):
        return "bad", ApiError(403, "InvalidClientTokenId", BAD_TOKEN)
    signed = [(name, headers.get(name)) for name in match[2].split(";")]
    expected = None
    if all(value is not None for _, value in signed):
        try:
            with SIGN_LOCK:
                expected = sigv4_oracle.sign(
                    "POST", "http://%s%s" % (headers.get("Host"), path), body, signed,
                    headers.get("X-Amz-Date", ""), scenario["access_key"],
                    scenario["secret_key"], scenario.get("session_token"),
                    scenario["region"], signing_name)["authorization"]
        except ValueError:  # no or malformed X-Amz-Date
            pass
    if expected != authorization:
        return "bad", ApiError(403, "SignatureDoesNotMatch", BAD_SIGNATURE)
    return "valid", None


def error_body(namespace, error, request_id):
    return ('<?xml version="1.0"?>\n<ErrorResponse xmlns="%s"><Error><Type>%s</Type>'
            '<Code>%s</Code><Message>%s</Message></Error><RequestId>%s</RequestId>'
            '</ErrorResponse>' % (namespace, "Sender" if error.status < 500 else "Receiver",
                                  escape(error.code), escape(error.message), request_id))


# A scripted fault: {"status", "code", "message"} (the error envelope), or one of these.
FAULT_KINDS = ("delay", "drop", "html")


def html_page(status):
    """The HTML error page a load balancer in front of an AWS endpoint sends."""
    title = "%d %s" % (status, http.HTTPStatus(status).phrase)
    return ("<html>\r\n<head><title>%s</title></head>\r\n<body>\r\n<center><h1>%s</h1></center>"
            "\r\n</body>\r\n</html>\r\n" % (html.escape(title), html.escape(title)))


class QueryHandler(http.server.BaseHTTPRequestHandler):
    """One POST of the Query protocol, as both fakes answer it: the signature checked, then the
    next scripted fault for the action (a delay, a dropped connection, an HTML page or an
    error envelope), else the service's own call; one JSON log line per request. A fake
    subclasses it and fills in what differs:

        signing_name, namespace   SigV4's service name, the answers' XML namespace
        log_fields                fields each log line starts with
        log_error_code            log an error's code as "error"
        announce_delays           emit {"event": "delaying", "seconds"} before a delay of 1 s+
        scenario()                the region, keys and session token expected
        next_fault(action)        the fault to use, {} for none (only once signed right)
        call(action, params, log, request_id)  the 200 answer's text, or raises ApiError
        emit(record)              prints one JSON line
    """

    protocol_version = "HTTP/1.1"
    signing_name = namespace = ""
    log_fields = {}
    log_error_code = False
    announce_delays = False

    def answer(self, status, body, content_type, request_id):
        data = body.encode()
        self.send_response(status)
        self.send_header("x-amzn-RequestId", request_id)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        params = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        action = params.get("Action")
        signature, error = authenticate(self.scenario(), self.headers, self.path, body,
                                        self.signing_name)
        log = dict(self.log_fields, action=action, status=None, signature=signature,
                   params=params)
        fault = self.next_fault(action) if error is None else {}
        if fault:
            log["fault"] = fault.get("code") or next(k for k in FAULT_KINDS if k in fault)
        if self.announce_delays and fault.get("delay", 0) >= 1:  # a test may act meanwhile
            self.emit({"event": "delaying", "seconds": fault["delay"]})
        time.sleep(fault.get("delay", 0))
        request_id = str(uuid.uuid4())
        if fault.get("drop"):
            self.emit(log)
            self.close_connection = True
            return
        if "html" in fault:
            log["status"] = fault["html"]
            self.emit(log)
            self.answer(fault["html"], html_page(fault["html"]), "text/html", request_id)
            return
        if "status" in fault:
            error = ApiError(fault["status"], fault["code"], fault.get("message", ""))
        try:
            if error is not None:
                raise error
            log["status"], text = 200, self.call(action, params, log, request_id)
        except ApiError as failure:
            log["status"] = failure.status
            if self.log_error_code:
                log["error"] = failure.code
            text = error_body(self.namespace, failure, request_id)
        self.emit(log)
        self.answer(log["status"], text, "text/xml", request_id)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass
