#!/usr/bin/python3
"""runwarden's own pod says when it is busy (issue 34), end to end, with real processes.

runwarden supervises busy_idle_runner.py (a generic runner whose job count the test sets)
with [kubernetes] enabled, against fake_kube_api.py: TLS on loopback with a CA this test
makes with openssl, a bearer token checked at every request, merge patch semantics, and a
409 and a 429 injected. The test moves the runner from busy to idle (after a short
idle_hold_off) to busy and then drains runwarden with SIGTERM, and reads the fake's record
of each request as it arrives: busy sets
karpenter.sh/do-not-disrupt and safe-to-evict=false (after one 409, retried), idle removes
them and sets the pod-deletion-cost (after one 429, retried after its Retry-After), and the
drain drops every annotation runwarden set. The service account token is rotated midway,
and the fake accepts only the new one from then on. /metrics counts the patches by outcome;
the log warns that the pod's grace period is shorter than the drain timeout and never
shows the token.

Cross-check: Debian's python3-kubernetes client (the official client, 22.6) sends the same
three patches, built as V1Pod models, to the same fake; the bodies it sends (parsed) and its
content type must equal runwarden's. That client picks strategic merge for a dict body by
default; a merge patch is chosen with its default Content-Type header, which its ApiClient
applies over the operation's choice.

  RUNWARDEN_BINARY=build/runwarden /usr/bin/python3 tests/e2e/test_kubernetes_pod_annotations.py
"""

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from drain_world import RUNWARDEN, WAIT_S, free_port  # noqa: E402

FAKE_API = os.path.join(HERE, "fake_kube_api.py")
RUNNER = os.path.join(HERE, "busy_idle_runner.py")
DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt"
SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict"
DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
TOKENS = ("first-token-5b1e", "rotated-token-c94d")
MERGE_PATCH = "application/merge-patch+json"


def make_tls(directory):
    """A CA and a server certificate for 127.0.0.1 signed by it; returns (ca, cert, key)."""
    ca_key, ca = os.path.join(directory, "ca.key"), os.path.join(directory, "ca.crt")
    key, csr = os.path.join(directory, "server.key"), os.path.join(directory, "server.csr")
    cert, ext = os.path.join(directory, "server.crt"), os.path.join(directory, "san.ext")
    quiet = {"check": True, "capture_output": True}
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    ca_key, "-out", ca, "-days", "1", "-subj", "/CN=e2e kubernetes CA"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out",
                    csr, "-subj", "/CN=kubernetes"], **quiet)
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:kubernetes.default.svc\n")
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
                    "-CAcreateserial", "-out", cert, "-days", "1", "-extfile", ext], **quiet)
    return ca, cert, key


class FakeApi:
    """fake_kube_api.py, its record read as it arrives."""

    def __init__(self, scenario):
        self.process = subprocess.Popen(["/usr/bin/python3", FAKE_API, json.dumps(scenario)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())
        self.url = "https://127.0.0.1:%d" % self.port
        self.calls = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.calls.put(json.loads(line))

    def next_call(self):
        call = self.calls.get(timeout=WAIT_S)
        self.seen.append(call)
        return call

    def next_patch(self):
        while True:
            call = self.next_call()
            if call["method"] == "PATCH":
                return call

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


def annotations_of(role):
    """The patch of each role, as the pod annotator's documentation states it."""
    if role == "busy":
        return {DO_NOT_DISRUPT: "true", SAFE_TO_EVICT: "false", DELETION_COST: None}
    if role == "idle":
        return {DO_NOT_DISRUPT: None, SAFE_TO_EVICT: None, DELETION_COST: "-100"}
    return {DO_NOT_DISRUPT: None, SAFE_TO_EVICT: None, DELETION_COST: None}


class PodAnnotations(unittest.TestCase):
    def setUp(self):
        self.assertTrue(RUNWARDEN, "RUNWARDEN_BINARY is not set")
        self.dir = tempfile.mkdtemp(prefix="runwarden-kube-")
        self.ca, cert, key = make_tls(self.dir)
        self.account = os.path.join(self.dir, "serviceaccount")
        os.mkdir(self.account)
        shutil.copy(self.ca, os.path.join(self.account, "ca.crt"))
        self.write(os.path.join(self.account, "namespace"), "ci\n")
        self.write(os.path.join(self.account, "token"), TOKENS[0])
        self.tokens_file = os.path.join(self.dir, "accepted-tokens")
        self.write(self.tokens_file, TOKENS[0] + "\n")
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "runner-0", "namespace": "ci",
                            "annotations": {"team": "ci"}},
               "spec": {"terminationGracePeriodSeconds": 60,
                        "containers": [{"name": "runner", "image": "runner:1"}]}}
        self.api = FakeApi({"cert": cert, "key": key, "tokens_file": self.tokens_file,
                            "pod": pod, "patch_answers": [409, None, 429]})
        self.jobs_file = os.path.join(self.dir, "jobs")
        self.write(self.jobs_file, "2")
        self.http_port = free_port()
        self.log_path = os.path.join(self.dir, "runwarden.log")
        self.warden = None

    def tearDown(self):
        if self.warden and self.warden.poll() is None:
            self.warden.kill()
            self.warden.wait()
        self.api.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @staticmethod
    def write(path, text):
        with open(path + ".new", "w") as f:
            f.write(text)
        os.replace(path + ".new", path)  # as the kubelet swaps a projected token: atomically

    def start_runwarden(self):
        metrics_port = free_port()
        config = os.path.join(self.dir, "runwarden.toml")
        self.write(config, (
            '[runner]\nkind = "generic"\nmetrics_url = "http://127.0.0.1:%d/metrics"\n'
            'metrics_interval = "100ms"\n\n[drain]\ntimeout = "1h"\n\n'
            '[kubernetes]\nenabled = true\nservice_account_directory = "%s"\n'
            'retry_initial = "100ms"\nretry_max = "1s"\nidle_hold_off = "200ms"\n')
            % (metrics_port, self.account))
        env = dict(os.environ, KUBERNETES_SERVICE_HOST="127.0.0.1",
                   KUBERNETES_SERVICE_PORT=str(self.api.port), POD_NAME="runner-0")
        with open(self.log_path, "w") as log:
            self.warden = subprocess.Popen(
                [RUNWARDEN, "run", "--config", config, "--grpc-listen",
                 "unix://" + os.path.join(self.dir, "control.sock"), "--http-listen",
                 "127.0.0.1:%d" % self.http_port, "--state-dir",
                 os.path.join(self.dir, "state"), "--", "/usr/bin/python3", RUNNER,
                 str(metrics_port), self.jobs_file],
                stdout=log, stderr=subprocess.STDOUT, env=env)

    def expect_patch(self, role, status):
        call = self.api.next_patch()
        self.assertEqual(call["path"], "/api/v1/namespaces/ci/pods/runner-0")
        self.assertEqual(call["content_type"], MERGE_PATCH)
        self.assertTrue(call["token_ok"], call)
        self.assertEqual(call["body"], {"metadata": {"annotations": annotations_of(role)}})
        self.assertEqual(call["status"], status, call)
        return call

    def metrics(self):
        url = "http://127.0.0.1:%d/metrics" % self.http_port
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.read().decode()

    def test_busy_idle_drain(self):
        self.start_runwarden()
        first = self.api.next_call()
        self.assertEqual((first["method"], first["status"]), ("GET", 200))
        # Busy: a 409 first, then the same patch again.
        self.expect_patch("busy", 409)
        busy = self.expect_patch("busy", 200)
        self.assertEqual(busy["annotations"],
                         {"team": "ci", DO_NOT_DISRUPT: "true", SAFE_TO_EVICT: "false"})
        # The kubelet rotates the token; the old one is refused from now on.
        self.write(os.path.join(self.account, "token"), TOKENS[1])
        self.write(self.tokens_file, TOKENS[1] + "\n")
        self.write(self.jobs_file, "0")
        self.expect_patch("idle", 429)
        idle = self.expect_patch("idle", 200)
        self.assertEqual(idle["annotations"], {"team": "ci", DELETION_COST: "-100"})
        self.write(self.jobs_file, "1")
        self.expect_patch("busy", 200)
        self.warden.send_signal(signal.SIGTERM)
        released = self.expect_patch("released", 200)
        self.assertEqual(released["annotations"], {"team": "ci"})
        # The fake records a patch before runwarden reads its answer: wait for the count.
        deadline = time.monotonic() + WAIT_S
        text = self.metrics()
        while 'pod_patches_total{outcome="applied"} 4' not in text and \
                time.monotonic() < deadline:
            time.sleep(0.05)
            text = self.metrics()
        for outcome, count in (("applied", 4), ("conflict", 1), ("throttled", 1),
                               ("failed", 0), ("refused", 0)):
            self.assertIn('runwarden_kubernetes_pod_patches_total{outcome="%s"} %d'
                          % (outcome, count), text)
        self.write(self.jobs_file, "0")
        self.assertEqual(self.warden.wait(timeout=WAIT_S), 0)
        with open(self.log_path) as f:
            log = f.read()
        self.assertIn("terminationGracePeriodSeconds (60 s) is shorter than drain.timeout", log)
        for token in TOKENS:
            self.assertNotIn(token, log)
        self.assertFalse([c for c in self.api.seen if not c["token_ok"]])
        self.cross_check([c for c in self.api.seen if c["method"] == "PATCH"])

    def cross_check(self, runwarden_patches):
        """The official client's patches, sent to the same fake, equal runwarden's."""
        from kubernetes import client
        configuration = client.Configuration()
        configuration.host = self.api.url
        configuration.ssl_ca_cert = self.ca
        configuration.api_key = {"authorization": TOKENS[1]}
        configuration.api_key_prefix = {"authorization": "Bearer"}
        api_client = client.ApiClient(configuration)
        api_client.set_default_header("Content-Type", MERGE_PATCH)
        core = client.CoreV1Api(api_client)
        for role in ("busy", "idle", "released"):
            body = client.V1Pod(metadata=client.V1ObjectMeta(annotations=annotations_of(role)))
            core.patch_namespaced_pod("runner-0", "ci", body)
            official = self.api.next_patch()
            ours = next(p for p in runwarden_patches
                        if p["body"]["metadata"]["annotations"] == annotations_of(role))
            self.assertEqual(official["body"], ours["body"], role)
            self.assertEqual(official["content_type"], ours["content_type"], role)
            self.assertEqual(official["path"], ours["path"], role)


if __name__ == "__main__":
    unittest.main()
