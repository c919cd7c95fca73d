#!/usr/bin/python3
"""tests/aws/fake_imds.py answering each request in one write; otherwise unchanged (same
output, commands and pages).

The tests' fake, like any http.server handler, writes the status line and headers in one
send(2) and the body in a second. Over a kept-alive connection (runwarden reuses its IMDS
connection; curl's one request per connection does not) that meets Nagle's algorithm on the
server and a delayed ACK on the client: the body waits for the ACK of the headers, about
40 ms, on many requests. A buffered writer (flushed once the handler returns, by
BaseHTTPRequestHandler) sends the whole answer at once, as real servers do, so the
measurements see runwarden and not that stall; bench/measure_reaction.py shows both.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "aws"))
import fake_imds  # noqa: E402 - found through the path above

fake_imds.Handler.wbufsize = -1  # io's default buffer size instead of unbuffered writes

if __name__ == "__main__":
    fake_imds.main()
