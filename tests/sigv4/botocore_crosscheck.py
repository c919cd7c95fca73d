#!/usr/bin/python3
"""Cross-checks runwarden's SigV4 signer against botocore's on seeded random requests.

Method: one seed drives a generator of requests meant to hit the corners of SigV4 (methods,
paths with dot segments, doubled slashes, spaces, reserved and non-ASCII characters; query
parameters with duplicate names, empty values, unicode and reserved characters; headers
with mixed-case and repeated names and runs of spaces and tabs; bodies, session tokens,
unsigned payloads). Every request goes to the project's signer (sigv4_sign_lines, one JSON
line each) and to botocore's SigV4Auth through sigv4_oracle.sign. The canonical request,
string to sign and Authorization must match exactly; each mismatch prints the request and
both answers. The last line reads "N passed, N failed".

Needs Debian's python3-botocore: run with /usr/bin/python3.
Usage: botocore_crosscheck.py SIGNER_BINARY [--seed N] [--count N]
"""
import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sigv4_oracle  # noqa: E402  (botocore behind a frozen clock)

PATH_SEGMENTS = ["example", "a", "b", "Zz09", ".", "..", "", "with space", "$delete", "%41",
                 "%2F", "a+b", "x=y", "a&b", "semi;colon", "col:on", "at@", "bang!",
                 "quote'", "(paren)", "star*", "com,ma", "tilde~", "ሴ", "é", "日本", "-._~"]
QUERY_NAMES = ["Param", "Param1", "param1", "Action", "a", "", "ሴ", "with space", "x/y",
               "a+b", "k=v", "%41", "Z"]
QUERY_VALUES = ["", "value", "Value1", "value2", "with space", "ሴ", "é", "a&b", "a=b",
                "x/y", "+", "%", "%2F", "~-._", "日本語", "1"]
HEADER_NAMES = ["My-Header1", "my-header1", "MY-HEADER2", "X-Custom", "Content-Type",
                "X-Amz-Target", "Accept", "x-a"]
HEADER_WORDS = ["value1", "VALUE", '"a', 'b"', "é", "ሴ", "a,b", "x;y", "application/json",
                "charset=utf-8", "="]
BODIES = ["", "Param1=value1", "Action=CompleteLifecycleAction&Version=2011-01-01",
          '{"json": true}', "ünïcödé body ሴ", "line one\nline two\n"]
REGIONS = ["us-east-1", "eu-central-1", "ap-southeast-2"]
SERVICES = ["service", "autoscaling", "ec2"]
METHODS = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH"]


def random_path(rng):
    segments = [rng.choice(PATH_SEGMENTS) for _ in range(rng.randint(0, 5))]
    path = "/" + "/".join(segments)
    if rng.random() < 0.3:
        path += "/"
    if rng.random() < 0.1:
        path = "/" + path  # a doubled leading slash
    return path


def random_header_value(rng):
    spaces = lambda: rng.choice(["", " ", "  ", "\t", " \t  "])
    words = [rng.choice(HEADER_WORDS) for _ in range(rng.randint(1, 4))]
    inner = "".join(word + rng.choice([" ", "   ", "\t", " \t "]) for word in words[:-1])
    return spaces() + inner + words[-1] + spaces()


def random_request(rng):
    host = rng.choice(["example.amazonaws.com", "autoscaling.us-east-1.amazonaws.com",
                       "localhost:8443"])
    headers = [["Host", host]]
    for _ in range(rng.randint(0, 5)):
        headers.append([rng.choice(HEADER_NAMES), random_header_value(rng)])
    rng.shuffle(headers)
    unsigned_payload = rng.random() < 0.1
    if unsigned_payload:
        headers.append(["X-Amz-Content-SHA256", "UNSIGNED-PAYLOAD"])
    return {
        "method": rng.choice(METHODS),
        "host": host,
        "path": random_path(rng),
        "query": [[rng.choice(QUERY_NAMES), rng.choice(QUERY_VALUES)]
                  for _ in range(rng.choice([0, 0, 1, 2, 3, 5]))],
        "headers": headers,
        "body": rng.choice(BODIES),
        "unsigned_payload": unsigned_payload,
        "access_key": rng.choice(["AKIDEXAMPLE", "ASIAEXAMPLE123"]),
        "secret_key": rng.choice(["wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "s3cr3t+/="]),
        "session_token": rng.choice([None, None, "FwoGZXIvYXdzEJr//////////wEaDEXAMPLE=="]),
        "region": rng.choice(REGIONS),
        "service": rng.choice(SERVICES),
        "time": "%04d%02d%02dT%02d%02d%02dZ" % (
            rng.randint(2015, 2030), rng.randint(1, 12), rng.randint(1, 28),
            rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)),
    }


def botocore_answer(request):
    headers = [(name, value) for name, value in request["headers"]
               if name != "X-Amz-Content-SHA256"]
    return sigv4_oracle.sign(
        request["method"], "https://" + request["host"] + request["path"],
        request["body"].encode("utf-8"), headers, request["time"], request["access_key"],
        request["secret_key"], request["session_token"], request["region"],
        request["service"], params=[tuple(pair) for pair in request["query"]] or None,
        unsigned_payload=request["unsigned_payload"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("signer")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--count", type=int, default=400)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    requests = [random_request(rng) for _ in range(arguments.count)]
    lines = "".join(json.dumps(request) + "\n" for request in requests)
    signed = subprocess.run([arguments.signer], input=lines, capture_output=True, text=True,
                            check=True, timeout=120).stdout.splitlines()
    if len(signed) != len(requests):
        print("the signer answered %d of %d requests" % (len(signed), len(requests)))
        return 1
    passed = failed = 0
    for request, line in zip(requests, signed):
        ours = json.loads(line)
        theirs = botocore_answer(request)
        keys = ["canonical_request", "string_to_sign", "authorization"]
        if all(ours[key] == theirs[key] for key in keys):
            passed += 1
            continue
        failed += 1
        print("MISMATCH for request (seed %d):" % arguments.seed)
        print(json.dumps(request, ensure_ascii=False, indent=2))
        for key in keys:
            if ours[key] != theirs[key]:
                print("  %s, runwarden:\n%s\n  %s, botocore:\n%s" % (key, ours[key], key,
                                                                     theirs[key]))
    print("botocore %s, seed %d" % (sigv4_oracle.botocore.__version__, arguments.seed))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
