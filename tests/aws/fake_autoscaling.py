#!/usr/bin/python3
"""A fake EC2 Auto Scaling endpoint on 127.0.0.1 for runwarden's tests.

Run with Debian's /usr/bin/python3, which has botocore. It speaks the Query protocol,
API 2011-01-01, as AWS does: POST of a form-encoded body (Action=...&Version=...), answered
with <ActionResponse><ActionResult>...</ActionResult><ResponseMetadata>... (the Result
element is left out for actions the service model gives no output, and is empty,
<ActionResult/>, when the output has no members), or with the error envelope
<ErrorResponse><Error><Type><Code><Message></Error><RequestId>. Result members are written
from botocore's service model, so their names and order are AWS's.

Every request's SigV4 signature is checked with botocore's signer (tests/sigv4/
sigv4_oracle.py, clock frozen at the request's X-Amz-Date), over exactly the headers the
client listed in SignedHeaders: no Authorization header answers 403
MissingAuthenticationToken; an unknown access key, or a session token (X-Amz-Security-Token)
other than the scenario's, 403 InvalidClientTokenId; a wrong signature 403
SignatureDoesNotMatch. The request's age is not checked (AWS refuses over 5 minutes).
Required members missing answer 400 ValidationError; actions other than the nine below
(the ones runwarden calls), 400 InvalidAction. HonorCooldown is accepted and ignored.

The scenario is argv[1], JSON (optional keys with their defaults in parentheses):
    {"region", "access_key", "secret_key", "session_token": null or text,
     "groups": [{"name", "min", "max", "desired", "availability_zone" (region + "a"),
                 "launch_template" (none: a name to answer in LaunchTemplate),
                 "instances": [{"id", "state" ("InService"), "protected" (false),
                                "type" ("t3.micro")}],
                 "hooks": [{"name", "transition": "terminating" | "launching",
                            "heartbeat_timeout" (3600), "global_timeout" (100 heartbeat
                            timeouts, at most 172800), "default_result" ("ABANDON")}],
                 "instance_lifecycle_policy" (none): {"RetentionTriggers":
                            {"TerminateHookAbandon": "retain" | "terminate"}}}],
     "faults" ({}): {"<Action>": [fault, ...]}}
Timeouts are seconds and may be floats (1.5) so tests run quickly: DescribeLifecycleHooks
answers them rounded up to integers, the fake times actions with the float, on the
monotonic clock. An instance in Pending:Wait or Terminating:Wait at start has an active
action for each hook of its transition, started at server start. A lifecycle action ends
when completed, at its heartbeat deadline (now + HeartbeatTimeout at start and at each
heartbeat, never past start + GlobalTimeout), or with ABANDON on any of the instance's
actions. When its last action ends a terminating instance goes to Terminating:Proceed; a
launching one to InService (CONTINUE) or Terminating (ABANDON).

Instance retention, as the user guide's "Control instance retention with instance lifecycle
policies" and "Manage retained instances" and the API reference's RetentionTriggers describe
it: in a group whose policy has TerminateHookAbandon "retain", a terminate action ended with
ABANDON (CompleteLifecycleAction ABANDON, a timeout with default result ABANDON, the global
timeout) leaves the instance Terminating:Retained instead (the fake skips the Proceed that
AWS passes through). A retained instance stays until TerminateInstanceInAutoScalingGroup,
which sends it on to Terminating:Proceed without running its hooks again.
DescribeAutoScalingGroups answers the group's policy as InstanceLifecyclePolicy, as given.

A fault answers one call of its action, in order, after the signature check:
    {"status": 400, "code": "Throttling", "message": "Rate exceeded"}  the error envelope
    {"html": 502}      an HTML error page with that status, as a load balancer sends
    {"drop": true}     the connection closes without an answer
    {"delay": 0.5}     sleep that many seconds, then answer normally

Output, on stdout: the port on the first line, then one JSON line per request
{"method", "action", "status" (null when dropped), "signature": "valid" | "bad" |
"missing", "params": the form parameters, "fault": its kind when one was used}; one
{"event": "hook_timed_out", "instance", "hook", "result": the default result} line per
action timing out; one {"ack": N} line per command ({"ack": N, "error": text} when it
could not be applied). Authorization and the security token are never printed.
Commands come on stdin, one JSON object per line, each with its keys applied in this order:
    faults     {"<Action>": [fault, ...]}, appended to the queues
    launch     an instance id: added to "group" (default the first group) in Pending:Wait
               with an action per launching hook (InService when the group has none)
    terminate  an instance id: Terminating:Wait with an action per terminating hook
               (Terminating when none), as the group's scale-in does; the desired
               capacity is left as it is
    abandon    an instance id: its active actions end with ABANDON, as another tool's
               CompleteLifecycleAction ABANDON ends them
    state      any value: prints {"state": {"groups", "instances", "actions" (active, with
               token and seconds left), "heartbeats" [{instance, hook, accepted, refused}],
               "completions" [{instance, hook, result, accepted}], "timeouts",
               "health_changes" [{instance, health, respect_grace_period}]}}
The server stops when stdin closes, so it never outlives the test that started it.
"""

import datetime
import http.server
import json
import math
import os
import sys
import threading
import time
import uuid
from xml.sax.saxutils import escape

import botocore.session

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from query_wire import ApiError  # noqa: E402 - found through the path above
import query_wire  # noqa: E402

NAMESPACE = "http://autoscaling.amazonaws.com/doc/2011-01-01/"
MODEL = botocore.session.get_session().get_service_model("autoscaling")
TRANSITIONS = {"terminating": "autoscaling:EC2_INSTANCE_TERMINATING",
               "launching": "autoscaling:EC2_INSTANCE_LAUNCHING"}
WAIT_STATE = {"terminating": "Terminating:Wait", "launching": "Pending:Wait"}
NO_HOOK_STATE = {"terminating": "Terminating", "launching": "InService"}
AFTER_ACTIONS = {("terminating", "CONTINUE"): "Terminating:Proceed",
                 ("terminating", "ABANDON"): "Terminating:Proceed",
                 ("launching", "CONTINUE"): "InService",
                 ("launching", "ABANDON"): "Terminating"}
OUTPUT_LOCK = threading.Lock()  # request threads, the timer and the command loop share stdout


def validation_error(message):
    return ApiError(400, "ValidationError", message)


class World:
    lock = threading.Lock()
    scenario = {}
    started = datetime.datetime.now(datetime.timezone.utc)
    groups = {}       # name -> {"name", "min", "max", "desired", "az", "launch_template", "hooks"}
    instances = {}    # id -> {"id", "group", "state", "protected", "type"}
    actions = {}      # (instance id, hook name) -> {"kind", "token", "start", "deadline"}
    faults = {}       # action -> queued faults
    heartbeats = {}   # (instance id, hook name) -> [accepted, refused]
    completions = []
    timeouts = []
    health_changes = []  # SetInstanceHealth calls accepted


def emit(record):
    with OUTPUT_LOCK:
        print(json.dumps(record), flush=True)


# The world's state changes, always under World.lock.

def load(scenario, now):
    World.scenario = scenario
    World.faults = {action: list(answers) for action, answers in scenario.get("faults", {}).items()}
    for group in scenario["groups"]:
        hooks = {}
        for hook in group.get("hooks", []):
            heartbeat = float(hook.get("heartbeat_timeout", 3600))
            hooks[hook["name"]] = {
                "name": hook["name"], "kind": hook["transition"],
                "heartbeat_timeout": heartbeat,
                "global_timeout": float(hook.get("global_timeout", min(100 * heartbeat, 172800))),
                "default_result": hook.get("default_result", "ABANDON")}
        World.groups[group["name"]] = {
            "name": group["name"], "min": group["min"], "max": group["max"],
            "desired": group["desired"], "hooks": hooks,
            "az": group.get("availability_zone", scenario["region"] + "a"),
            "launch_template": group.get("launch_template"),
            "policy": group.get("instance_lifecycle_policy"),
            "retain": group.get("instance_lifecycle_policy", {}).get("RetentionTriggers", {})
                           .get("TerminateHookAbandon") == "retain"}
        for instance in group.get("instances", []):
            add_instance(instance["id"], group["name"], instance.get("state", "InService"),
                         instance.get("protected", False), instance.get("type", "t3.micro"))
            waiting_for = {state: kind for kind, state in WAIT_STATE.items()}
            if instance.get("state") in waiting_for:
                begin(World.instances[instance["id"]], waiting_for[instance["state"]], now)


def add_instance(instance_id, group_name, state, protected=False, instance_type="t3.micro"):
    if instance_id in World.instances:
        raise ValueError("instance %s exists already" % instance_id)
    World.instances[instance_id] = {"id": instance_id, "group": group_name, "state": state,
                                    "protected": protected, "type": instance_type,
                                    "health": "Healthy"}


def begin(instance, kind, now):
    """Starts an action for each of the group's hooks of this transition; the instance's
    earlier actions (a launch cut short by a termination) end without a result."""
    for key in [key for key in World.actions if key[0] == instance["id"]]:
        del World.actions[key]
    hooks = [hook for hook in World.groups[instance["group"]]["hooks"].values()
             if hook["kind"] == kind]
    for hook in hooks:
        World.actions[(instance["id"], hook["name"])] = {
            "kind": kind, "token": str(uuid.uuid4()), "start": now,
            "deadline": min(hook["heartbeat_timeout"], hook["global_timeout"]) + now}
    instance["state"] = WAIT_STATE[kind] if hooks else NO_HOOK_STATE[kind]


def end_action(key, result):
    """Ends an action; ABANDON ends the instance's others too. The last one moves it on."""
    instance_id = key[0]
    kind = World.actions.pop(key)["kind"]
    if result == "ABANDON":
        for other in [k for k in World.actions if k[0] == instance_id]:
            del World.actions[other]
    if not any(k[0] == instance_id for k in World.actions):
        instance = World.instances[instance_id]
        retained = (kind == "terminating" and result == "ABANDON"
                    and World.groups[instance["group"]]["retain"])
        instance["state"] = "Terminating:Retained" if retained else AFTER_ACTIONS[(kind, result)]


def hook_of(key):
    instance_id, hook_name = key
    return World.groups[World.instances[instance_id]["group"]]["hooks"][hook_name]


def expire(now):
    for key in [k for k, action in World.actions.items() if action["deadline"] <= now]:
        result = hook_of(key)["default_result"]
        World.timeouts.append({"instance": key[0], "hook": key[1], "result": result})
        emit({"event": "hook_timed_out", "instance": key[0], "hook": key[1], "result": result})
        end_action(key, result)


def snapshot(now):
    return {
        "groups": [{"name": g["name"], "min": g["min"], "max": g["max"], "desired": g["desired"],
                    "instances": [i["id"] for i in World.instances.values()
                                  if i["group"] == g["name"]]} for g in World.groups.values()],
        "instances": list(World.instances.values()),
        "actions": [{"instance": key[0], "hook": key[1], "token": action["token"],
                     "seconds_left": round(action["deadline"] - now, 3)}
                    for key, action in World.actions.items()],
        "heartbeats": [{"instance": key[0], "hook": key[1], "accepted": counts[0],
                        "refused": counts[1]} for key, counts in World.heartbeats.items()],
        "completions": World.completions,
        "timeouts": World.timeouts,
        "health_changes": World.health_changes,
    }


# The actions: each takes the form parameters and the time, returns the result members.

def members(params, name):
    values, number = [], 1
    while "%s.member.%d" % (name, number) in params:
        values.append(params["%s.member.%d" % (name, number)])
        number += 1
    return values


def group_named(name):
    if name not in World.groups:
        raise validation_error("AutoScalingGroup name not found - AutoScalingGroup %s not found"
                               % name)
    return World.groups[name]


def instance_fields(instance, health):
    group = World.groups[instance["group"]]
    fields = {"InstanceId": instance["id"], "InstanceType": instance["type"],
              "AvailabilityZone": group["az"], "LifecycleState": instance["state"],
              "HealthStatus": health, "ProtectedFromScaleIn": instance["protected"]}
    if group["launch_template"]:
        fields["LaunchTemplate"] = {"LaunchTemplateId": "lt-0fa4e0000000000000",
                                    "LaunchTemplateName": group["launch_template"],
                                    "Version": "1"}
    return fields


def describe_auto_scaling_instances(params, now):
    ids = members(params, "InstanceIds") or list(World.instances)
    found = [World.instances[i] for i in ids if i in World.instances]
    # AWS writes the health in capitals here and capitalized in DescribeAutoScalingGroups.
    return {"AutoScalingInstances": [dict(instance_fields(i, i["health"].upper()),
                                          AutoScalingGroupName=i["group"]) for i in found]}


def describe_lifecycle_hooks(params, now):
    group = World.groups.get(params["AutoScalingGroupName"])  # unknown: no hooks
    wanted = members(params, "LifecycleHookNames")
    hooks = [h for h in (group["hooks"].values() if group else [])
             if not wanted or h["name"] in wanted]
    return {"LifecycleHooks": [{
        "LifecycleHookName": h["name"], "AutoScalingGroupName": group["name"],
        "LifecycleTransition": TRANSITIONS[h["kind"]],
        "HeartbeatTimeout": math.ceil(h["heartbeat_timeout"]),
        "GlobalTimeout": math.ceil(h["global_timeout"]),
        "DefaultResult": h["default_result"]} for h in hooks]}


def describe_auto_scaling_groups(params, now):
    names = members(params, "AutoScalingGroupNames") or list(World.groups)
    groups = [World.groups[name] for name in names if name in World.groups]
    return {"AutoScalingGroups": [group_fields(g) for g in groups]}


def group_fields(g):
    fields = {
        "AutoScalingGroupName": g["name"], "MinSize": g["min"], "MaxSize": g["max"],
        "DesiredCapacity": g["desired"], "DefaultCooldown": 300, "AvailabilityZones": [g["az"]],
        "HealthCheckType": "EC2",
        "Instances": [instance_fields(i, i["health"]) for i in World.instances.values()
                      if i["group"] == g["name"]],
        "CreatedTime": World.started}
    # The last member of AutoScalingGroup in botocore's model (1.43), so written last.
    if g["policy"] is not None:
        fields["InstanceLifecyclePolicy"] = g["policy"]
    return fields


def find_action(params):
    """The active action the call names, by token or by instance, hook and group."""
    hook, group = params["LifecycleHookName"], params["AutoScalingGroupName"]
    if "LifecycleActionToken" in params:
        key = next((k for k, a in World.actions.items()
                    if a["token"] == params["LifecycleActionToken"]), None)
        missing = "token " + params["LifecycleActionToken"]
    else:
        key = (params.get("InstanceId"), hook)
        missing = "instance ID %s" % params.get("InstanceId")
    if (key not in World.actions or key[1] != hook
            or World.instances[key[0]]["group"] != group):
        raise validation_error("No active Lifecycle Action found with " + missing)
    return key


def record_lifecycle_action_heartbeat(params, now):
    try:
        key = find_action(params)
    except ApiError:
        heartbeat_counts((params.get("InstanceId"), params["LifecycleHookName"]))[1] += 1
        raise
    heartbeat_counts(key)[0] += 1
    action, hook = World.actions[key], hook_of(key)
    action["deadline"] = min(now + hook["heartbeat_timeout"],
                             action["start"] + hook["global_timeout"])
    return {}


def heartbeat_counts(key):
    return World.heartbeats.setdefault(key, [0, 0])


def complete_lifecycle_action(params, now):
    result = params["LifecycleActionResult"]
    record = {"instance": params.get("InstanceId"), "hook": params["LifecycleHookName"],
              "result": result, "accepted": False}
    World.completions.append(record)
    if result not in ("CONTINUE", "ABANDON"):
        raise validation_error("Invalid LifecycleActionResult %s: CONTINUE or ABANDON" % result)
    key = find_action(params)
    record.update(instance=key[0], accepted=True)
    end_action(key, result)
    return {}


def set_desired_capacity(params, now):
    group = group_named(params["AutoScalingGroupName"])
    desired = int(params["DesiredCapacity"])
    message = "New SetDesiredCapacity value %d is %s value %d for the AutoScalingGroup."
    if desired > group["max"]:
        raise validation_error(message % (desired, "above max", group["max"]))
    if desired < group["min"]:
        raise validation_error(message % (desired, "below min", group["min"]))
    group["desired"] = desired


def terminate_instance_in_auto_scaling_group(params, now):
    instance = World.instances.get(params["InstanceId"])
    if instance is None:
        raise validation_error("Instance Id not found - No managed instance found for "
                               "instance ID: %s" % params["InstanceId"])
    group = World.groups[instance["group"]]
    cause = ("At %s instance %s was taken out of service in response to a user request"
             % (iso8601(datetime.datetime.now(datetime.timezone.utc)), instance["id"]))
    if params["ShouldDecrementDesiredCapacity"] == "true":
        if group["desired"] <= group["min"]:
            raise validation_error(
                "Currently, desiredSize equals minSize (%d). Terminating instance without "
                "replacement will violate group's min size constraint. Either set "
                "shouldDecrementDesiredCapacity flag to false or lower group's min size."
                % group["min"])
        group["desired"] -= 1
        cause += ", shrinking the capacity from %d to %d" % (group["desired"] + 1,
                                                            group["desired"])
    if instance["state"] == "Terminating:Retained":
        instance["state"] = "Terminating:Proceed"  # its hooks ran already
    elif not instance["state"].startswith("Terminating"):
        begin(instance, "terminating", now)
    return {"Activity": {
        "ActivityId": str(uuid.uuid4()), "AutoScalingGroupName": group["name"],
        "Description": "Terminating EC2 instance: " + instance["id"], "Cause": cause + ".",
        "StartTime": datetime.datetime.now(datetime.timezone.utc),
        "StatusCode": "InProgress", "Progress": 0}}


def set_instance_health(params, now):
    """SetInstanceHealth (API reference: HealthStatus "Healthy" or "Unhealthy", no output;
    ShouldRespectGracePeriod optional). An instance set Unhealthy is replaced as the group's
    health checks do it: it starts terminating (its terminate hooks run) and the desired
    capacity stays, so that a new instance takes its place. The grace period is not modelled:
    runwarden always sends ShouldRespectGracePeriod=false."""
    instance_id = params["InstanceId"]
    if not 1 <= len(instance_id) <= 19:
        raise validation_error("1 validation error detected: Value '%s' at 'instanceId' failed "
                               "to satisfy constraint: Member must have length less than or "
                               "equal to 19" % instance_id)
    instance = World.instances.get(instance_id)
    if instance is None:
        raise validation_error("Instance Id not found - No managed instance found for "
                               "instance ID: %s" % instance_id)
    health = params["HealthStatus"]
    if health not in ("Healthy", "Unhealthy"):
        raise validation_error("Valid values for HealthStatus are Healthy and Unhealthy, got "
                               "%s" % health)
    World.health_changes.append({"instance": instance_id, "health": health,
                                 "respect_grace_period": params.get("ShouldRespectGracePeriod")})
    instance["health"] = health
    if health == "Unhealthy" and not instance["state"].startswith("Terminating"):
        begin(instance, "terminating", now)
    return {}


def set_instance_protection(params, now):
    group = group_named(params["AutoScalingGroupName"])
    ids = members(params, "InstanceIds")
    for instance_id in ids:
        if World.instances.get(instance_id, {}).get("group") != group["name"]:
            raise validation_error("The instance %s is not part of Auto Scaling group %s."
                                   % (instance_id, group["name"]))
    for instance_id in ids:
        World.instances[instance_id]["protected"] = params["ProtectedFromScaleIn"] == "true"
    return {}


# Action name -> function: describe_lifecycle_hooks answers DescribeLifecycleHooks.
ACTIONS = {f.__name__.title().replace("_", ""): f for f in (
    describe_auto_scaling_instances, describe_lifecycle_hooks, describe_auto_scaling_groups,
    record_lifecycle_action_heartbeat, complete_lifecycle_action, set_desired_capacity,
    terminate_instance_in_auto_scaling_group, set_instance_protection, set_instance_health)}


def check_required(action, params):
    missing = [name for name in MODEL.operation_model(action).input_shape.required_members
               if not any(key == name or key.startswith(name + ".") for key in params)]
    if missing:
        raise validation_error("%d validation error%s detected: %s" % (
            len(missing), "s" if len(missing) > 1 else "",
            "; ".join("Value null at '%s' failed to satisfy constraint: Member must not be null"
                      % (name[0].lower() + name[1:]) for name in missing)))


# The wire.

def iso8601(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def unmodelled_xml(value):
    """A member newer than the installed botocore's model (Debian's lacks
    InstanceLifecyclePolicy: structures of strings, RetentionTriggers -> TerminateHookAbandon
    in botocore 1.43's), written as the Query protocol writes structures and strings."""
    if isinstance(value, dict):
        return "".join("<%s>%s</%s>" % (name, unmodelled_xml(member), name)
                       for name, member in value.items())
    return escape(str(value))


def to_xml(shape, value):
    if shape.type_name == "structure":
        return "".join("<%s>%s</%s>" % (
            name, to_xml(shape.members[name], member) if name in shape.members
            else unmodelled_xml(member), name) for name, member in value.items())
    if shape.type_name == "list":
        return "".join("<member>%s</member>" % to_xml(shape.member, item) for item in value)
    if shape.type_name == "boolean":
        return "true" if value else "false"
    if shape.type_name == "timestamp":
        return iso8601(value)
    return escape(str(value))


def success_body(action, result, request_id):
    output = MODEL.operation_model(action).output_shape
    if output is None:
        inner = ""
    elif result:
        inner = "<{0}Result>{1}</{0}Result>".format(action, to_xml(output, result))
    else:
        inner = "<%sResult/>" % action
    return ('<?xml version="1.0"?>\n<{0}Response xmlns="{1}">{2}<ResponseMetadata><RequestId>'
            '{3}</RequestId></ResponseMetadata></{0}Response>'.format(
                action, NAMESPACE, inner, request_id))


def next_fault(action):
    with World.lock:
        queue = World.faults.get(action)
        return queue.pop(0) if queue else {}


class Handler(query_wire.QueryHandler):
    signing_name, namespace = "autoscaling", NAMESPACE
    log_fields = {"method": "POST"}

    def scenario(self):
        return World.scenario

    def next_fault(self, action):
        return next_fault(action)

    def call(self, action, params, log, request_id):
        with World.lock:
            now = time.monotonic()
            expire(now)
            if action not in ACTIONS:
                raise ApiError(400, "InvalidAction", "Could not find operation %s for "
                               "version %s" % (action, params.get("Version")))
            check_required(action, params)
            return success_body(action, ACTIONS[action](params, now), request_id)

    def emit(self, record):
        emit(record)


def apply(command):
    with World.lock:
        now = time.monotonic()
        expire(now)
        for action, answers in command.get("faults", {}).items():
            World.faults.setdefault(action, []).extend(answers)
        if "launch" in command:
            group = command.get("group", next(iter(World.groups)))
            add_instance(command["launch"], group_named(group)["name"], "Pending")
            begin(World.instances[command["launch"]], "launching", now)
        if "terminate" in command:
            begin(World.instances[command["terminate"]], "terminating", now)
        if "abandon" in command:
            keys = [k for k in World.actions if k[0] == command["abandon"]]
            if not keys:
                raise ValueError("no active action for instance %s" % command["abandon"])
            end_action(keys[0], "ABANDON")
        if "state" in command:
            emit({"state": snapshot(now)})


def tick():
    while True:
        time.sleep(0.05)
        with World.lock:
            expire(time.monotonic())


def main():
    with World.lock:
        load(json.loads(sys.argv[1]), time.monotonic())
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Thread(target=tick, daemon=True).start()
    for number, line in enumerate(sys.stdin, start=1):
        if line.strip():
            try:
                apply(json.loads(line))
                emit({"ack": number})
            except (KeyError, ValueError, ApiError) as failure:
                emit({"ack": number, "error": "%s: %s" % (type(failure).__name__, failure)})
    server.shutdown()


if __name__ == "__main__":
    main()
