"""The AWS side of the end-to-end tests: the fake instance metadata service and the fake
Auto Scaling endpoint (tests/aws/), each a subprocess speaking JSON lines, and the
environment and config that point runwarden at them."""

import json
import os
import queue
import subprocess
import threading

from drain_world import HERE

FAKE_IMDS = os.path.join(HERE, "..", "aws", "fake_imds.py")
FAKE_AUTOSCALING = os.path.join(HERE, "..", "aws", "fake_autoscaling.py")
INSTANCE_ID = "i-0fake0imds0test00"  # fake_imds.py's identity document
REGION = "eu-west-1"
ACCESS_KEY, SECRET_KEY, SESSION_TOKEN = "ASIAE2ETEST", "e2e-secret-key", "e2e-session-token"


class JsonLinesFake:
    """A fake server: its port on stdout's first line, then JSON lines; commands on stdin."""

    def __init__(self, argv):
        self.process = subprocess.Popen(["/usr/bin/python3"] + argv, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())
        self.lines = []
        self.acks = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            entry = json.loads(line)
            self.lines.append(entry)
            if "ack" in entry:
                self.acks.put(entry)

    def command(self, **keys):
        self.process.stdin.write(json.dumps(keys) + "\n")
        self.process.stdin.flush()
        ack = self.acks.get(timeout=10)
        assert "error" not in ack, ack
        return ack

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        self.reader.join(timeout=5)
        self.process.stdout.close()


class AwsWorld:
    def __init__(self, heartbeat_timeout, launching=False, retain=False, global_timeout=600):
        """`launching`: the instance starts in Pending:Wait with a launch hook to answer.
        `retain`: the group's instance lifecycle policy retains an instance whose terminate
        hook is abandoned (Terminating:Retained). `global_timeout`: the terminate hook's."""
        self.imds = JsonLinesFake([FAKE_IMDS])
        hooks = [{"name": "drain-runner", "transition": "terminating",
                  "heartbeat_timeout": heartbeat_timeout, "global_timeout": global_timeout,
                  "default_result": "ABANDON"}]
        if launching:
            hooks.append({"name": "warm-up", "transition": "launching",
                          "heartbeat_timeout": heartbeat_timeout, "global_timeout": 600,
                          "default_result": "ABANDON"})
        instance = {"id": INSTANCE_ID, "state": "Pending:Wait" if launching else "InService"}
        group = {"name": "runners", "min": 0, "max": 4, "desired": 1,
                 "instances": [instance], "hooks": hooks}
        if retain:
            group["instance_lifecycle_policy"] = {
                "RetentionTriggers": {"TerminateHookAbandon": "retain"}}
        scenario = {"region": REGION, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
                    "session_token": SESSION_TOKEN, "groups": [group]}
        self.autoscaling = JsonLinesFake([FAKE_AUTOSCALING, json.dumps(scenario)])

    def config(self, poll_interval="200ms", extra=""):
        return ('\n[cloud]\nprovider = "aws"\n[aws]\nimds_endpoint = "http://127.0.0.1:%d"\n'
                'poll_interval = "%s"\n%s' % (self.imds.port, poll_interval, extra))

    def environment(self):
        env = dict(os.environ)
        for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ENDPOINT_URL"):
            env.pop(name, None)
        env.update({"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
                    "AWS_SESSION_TOKEN": SESSION_TOKEN,
                    "AWS_ENDPOINT_URL_AUTO_SCALING": "http://127.0.0.1:%d" % self.autoscaling.port})
        return env

    def autoscaling_state(self):
        before = len(self.autoscaling.lines)
        self.autoscaling.command(state=True)
        return next(l["state"] for l in self.autoscaling.lines[before:] if "state" in l)

    def autoscaling_requests(self):
        return [l for l in self.autoscaling.lines if "action" in l]

    def close(self):
        self.imds.close()
        self.autoscaling.close()
