#!/usr/bin/python3
"""A fake Amazon CloudWatch endpoint on 127.0.0.1 for runwarden's tests: PutMetricData only.

Checked against: the CloudWatch API reference, PutMetricData and Common Errors
(docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricData.html,
CommonErrors.html), and botocore's service model cloudwatch/2010-08-01 (Debian's
python3-botocore), which gives the Query protocol, the input shape and the error codes.

Run with Debian's /usr/bin/python3, which has botocore. It speaks the Query protocol, API
2010-08-01, as AWS does: POST of a form-encoded body (Action=PutMetricData&Version=...&
Namespace=...&MetricData.member.N.MetricName=...), answered 200 with
<PutMetricDataResponse><ResponseMetadata><RequestId> (the operation has no output), or with
the error envelope <ErrorResponse><Error><Type><Code><Message></Error><RequestId>.

Every request's SigV4 signature is checked with botocore's signer, signing name "monitoring"
(query_wire.py, shared with fake_autoscaling.py): no Authorization header answers 403
MissingAuthenticationToken, an unknown key or session token 403 InvalidClientTokenId, a wrong
signature 403 SignatureDoesNotMatch. The form is read back into the operation's input by
botocore's own shapes (MetricData.member.N.Dimensions.member.M.Name, ...) and checked with
botocore's ParamValidator: a required member missing answers 400 MissingParameter, any other
violation 400 InvalidParameterValue. The API reference's rules beyond the model are checked
too: a namespace starting with "AWS/", StorageResolution other than 1 or 60, Value and Values
together, a Unit outside the model's list, a non-finite value, a timestamp more than two
weeks old or two hours ahead, more than 1000 datums: 400 InvalidParameterValue (Value and
Values together: InvalidParameterCombination). An Action other than PutMetricData: 400
InvalidAction.

The scenario is argv[1], JSON: {"region", "access_key", "secret_key", "session_token": null
or text, "faults" ({}): [fault, ...]}. A fault answers one PutMetricData, in order, after the
signature check:
    {"status": 400, "code": "Throttling", "message": "Rate exceeded"}  the error envelope
    {"html": 502}      an HTML error page with that status
    {"drop": true}     the connection closes without an answer
    {"delay": 0.5}     sleep that many seconds, then answer normally (a hang: a long delay)
Output, on stdout: the port on the first line, then one JSON line per request {"action",
"status" (null when dropped), "signature": "valid" | "bad" | "missing", "params": the form
parameters, "fault": its kind when one was used, "datums": the accepted datums as
{"namespace", "name", "dimensions": {name: value}, "value", "unit", "resolution",
"timestamp"} (only on 200)}; a {"event": "delaying", "seconds"} line when a delay of a
second or more starts; one {"ack": N} line per command. Commands on stdin, one JSON
object per line: {"faults": [fault, ...]} appends to the queue. Authorization and the
security token are never printed. The server stops when stdin closes.
"""

import datetime
import http.server
import json
import math
import os
import sys
import threading

import botocore.session
from botocore.validate import ParamValidator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from query_wire import ApiError  # noqa: E402 - found through the path above
import query_wire  # noqa: E402

NAMESPACE = "http://monitoring.amazonaws.com/doc/2010-08-01/"
MODEL = botocore.session.get_session().get_service_model("cloudwatch")
OPERATION = MODEL.operation_model("PutMetricData")
OUTPUT_LOCK = threading.Lock()
DATUMS_MAX = 1000
PAST_MAX = datetime.timedelta(weeks=2)
FUTURE_MAX = datetime.timedelta(hours=2)


class World:
    lock = threading.Lock()
    scenario = {}
    faults = []


def emit(record):
    with OUTPUT_LOCK:
        print(json.dumps(record), flush=True)


def invalid(message):
    return ApiError(400, "InvalidParameterValue", message)


# The form, read back into the input by the model's shapes, as botocore's query serializer
# flattens it (a list's members under "<name>.member.<n>", from 1).

def unflatten(shape, params, prefix, used):
    if shape.type_name == "structure":
        value = {}
        for name, member in shape.members.items():
            found = unflatten(member, params, prefix + name if not prefix else
                              "%s.%s" % (prefix, name), used)
            if found is not None:
                value[name] = found
        return value or None
    if shape.type_name == "list":
        items, number = [], 1
        while any(key == "%s.member.%d" % (prefix, number) or
                  key.startswith("%s.member.%d." % (prefix, number)) for key in params):
            items.append(unflatten(shape.member, params, "%s.member.%d" % (prefix, number), used))
            number += 1
        return items or None
    if prefix not in params:
        return None
    used.add(prefix)
    text = params[prefix]
    try:
        if shape.type_name == "double":
            return float(text)
        if shape.type_name == "integer":
            return int(text)
        if shape.type_name == "boolean":
            return {"true": True, "false": False}[text]
    except (ValueError, KeyError):
        raise invalid("Invalid value %r for parameter %s" % (text, prefix)) from None
    return text  # strings and timestamps (ISO 8601 text, which the validator accepts)


def read_input(params):
    used = {"Action", "Version"}
    value = unflatten(OPERATION.input_shape, params, "", used) or {}
    return value, sorted(set(params) - used)


def check_model(value):
    report = ParamValidator().validate(value, OPERATION.input_shape)
    if not report.has_errors():
        return
    errors = report._errors  # [(type, name, details)]; the text is report.generate_report()
    code = ("MissingParameter" if all(kind == "missing required field" for kind, _, _ in errors)
            else "InvalidParameterValue")
    raise ApiError(400, code, report.generate_report())


def parse_time(text):
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def check_reference(value, now):
    """The API reference's rules that the model does not carry."""
    if value["Namespace"].startswith("AWS/"):
        raise invalid("The value AWS/ for parameter Namespace is invalid.")
    datums = value["MetricData"]
    if len(datums) > DATUMS_MAX:
        raise invalid("The collection MetricData must not have a size greater than 1000.")
    units = MODEL.shape_for("StandardUnit").enum
    for index, datum in enumerate(datums, start=1):
        where = "MetricData.member.%d" % index
        if "Value" in datum and "Values" in datum:
            raise ApiError(400, "InvalidParameterCombination",
                           "The parameters %s.Value and %s.Values are mutually exclusive and "
                           "you have specified both." % (where, where))
        if "Value" in datum and not math.isfinite(datum["Value"]):
            raise invalid("The value for parameter %s.Value is not a finite number." % where)
        if datum.get("StorageResolution", 60) not in (1, 60):
            raise invalid("The value %s for parameter %s.StorageResolution is invalid: valid "
                          "values are 1 and 60." % (datum["StorageResolution"], where))
        if "Unit" in datum and datum["Unit"] not in units:
            raise invalid("The value %s for parameter %s.Unit is invalid." % (datum["Unit"],
                                                                             where))
        if "Timestamp" in datum:
            try:
                moment = parse_time(datum["Timestamp"])
            except ValueError:
                raise invalid("The parameter %s.Timestamp must be ISO 8601." % where) from None
            if not now - PAST_MAX <= moment <= now + FUTURE_MAX:
                raise invalid("The parameter %s.Timestamp must specify a time no more than "
                              "two weeks in the past and no more than two hours in the future."
                              % where)


def accepted_datums(value):
    return [{"namespace": value["Namespace"], "name": d["MetricName"],
             "dimensions": {x["Name"]: x["Value"] for x in d.get("Dimensions", [])},
             "value": d.get("Value"), "unit": d.get("Unit"),
             "resolution": d.get("StorageResolution", 60), "timestamp": d.get("Timestamp")}
            for d in value["MetricData"]]


def put_metric_data(params):
    """The accepted datums, or raises the ApiError to answer."""
    value, unknown = read_input(params)
    if unknown:
        raise invalid("Unknown parameter(s): %s" % ", ".join(unknown))
    check_model(value)
    check_reference(value, datetime.datetime.now(datetime.timezone.utc))
    return accepted_datums(value)


# The wire.

def success_body(request_id):
    return ('<?xml version="1.0"?>\n<PutMetricDataResponse xmlns="%s"><ResponseMetadata>'
            '<RequestId>%s</RequestId></ResponseMetadata></PutMetricDataResponse>'
            % (NAMESPACE, request_id))


def next_fault(action):
    with World.lock:
        return World.faults.pop(0) if World.faults and action == "PutMetricData" else {}


class Handler(query_wire.QueryHandler):
    signing_name, namespace = "monitoring", NAMESPACE
    log_error_code = announce_delays = True

    def scenario(self):
        return World.scenario

    def next_fault(self, action):
        return next_fault(action)

    def call(self, action, params, log, request_id):
        if action != "PutMetricData" or params.get("Version") != "2010-08-01":
            raise ApiError(400, "InvalidAction", "Could not find operation %s for version %s"
                           % (action, params.get("Version")))
        log["datums"] = put_metric_data(params)
        return success_body(request_id)

    def emit(self, record):
        emit(record)


def main():
    World.scenario = json.loads(sys.argv[1])
    World.faults = list(World.scenario.get("faults", []))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True  # a hanging answer never holds the exit up
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for number, line in enumerate(sys.stdin, start=1):
        if line.strip():
            command = json.loads(line)
            with World.lock:
                World.faults.extend(command.get("faults", []))
            emit({"ack": number})
    server.shutdown()


if __name__ == "__main__":
    main()
