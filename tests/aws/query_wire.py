"""What every fake AWS Query protocol endpoint of runwarden's tests shares (fake_autoscaling.py,
fake_cloudwatch.py): the SigV4 check with botocore's signer (tests/sigv4/sigv4_oracle.py,
clock frozen at the request's X-Amz-Date) and the error envelope.

Checked against: botocore's signer (SigV4Auth, Debian's python3-botocore) for signatures; the
AWS Query protocol error shape, <ErrorResponse><Error><Type><Code><Message></Error>
<RequestId>, as botocore's QueryParser reads it, with the messages AWS sends for a missing,
unknown or wrong signature (MissingAuthenticationToken, InvalidClientTokenId,
SignatureDoesNotMatch, all 403).
"""

import os
import re
import sys
import threading
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
