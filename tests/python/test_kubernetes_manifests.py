#!/usr/bin/python3
"""The example manifests under config/kubernetes/ (issue 34), checked against Kubernetes' own
object schemas as Debian's python3-kubernetes (22.6, the official client) carries them.

No OpenAPI validator is packaged here (kubeconform, python3-openapi-schema-validator: none;
python3-jsonschema has no Kubernetes schemas to check against), so the check is a round trip
through the client's generated models: each document is deserialised into its kind's model
(V1Deployment, V1Role, ...) with client-side validation on, which refuses a missing required
field and a value of the wrong type, then serialised again; the result must equal the
document, so that a misspelt or misplaced key, which the models silently drop, fails too.
Then what the manifests promise: the Role grants only get and patch on pods, the pod has
POD_NAME from the downward API, runwarden as entrypoint, the preStop drain, and a grace
period longer than the configured drain timeout.

  /usr/bin/python3 tests/python/test_kubernetes_manifests.py
"""

import json
import os
import tomllib
import unittest

import yaml
from kubernetes import client

MANIFESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config",
                         "kubernetes")
MODELS = {("v1", "ServiceAccount"): "V1ServiceAccount", ("v1", "ConfigMap"): "V1ConfigMap",
          ("rbac.authorization.k8s.io/v1", "Role"): "V1Role",
          ("rbac.authorization.k8s.io/v1", "RoleBinding"): "V1RoleBinding",
          ("apps/v1", "Deployment"): "V1Deployment"}


class Answer:
    """What ApiClient.deserialize reads: an HTTP answer's body."""

    def __init__(self, data):
        self.data = data


def documents():
    found = []
    for name in sorted(os.listdir(MANIFESTS)):
        if name.endswith(".yaml"):
            with open(os.path.join(MANIFESTS, name)) as f:
                found += [(name, doc) for doc in yaml.safe_load_all(f) if doc]
    return found


def round_trip(document):
    configuration = client.Configuration()
    configuration.client_side_validation = True
    api = client.ApiClient(configuration)
    model = MODELS[(document["apiVersion"], document["kind"])]
    obj = api.deserialize(Answer(json.dumps(document)), model)
    return api.sanitize_for_serialization(obj)


def duration_seconds(text):
    units = {"s": 1, "m": 60, "h": 3600}
    return int(text[:-1]) * units[text[-1]]


class Manifests(unittest.TestCase):
    def test_every_document_round_trips_through_its_model(self):
        docs = documents()
        self.assertEqual(sorted(d["kind"] for _, d in docs),
                         ["ConfigMap", "Deployment", "Role", "RoleBinding", "ServiceAccount"])
        for name, document in docs:
            with self.subTest(file=name, kind=document["kind"]):
                self.assertEqual(round_trip(document), document)

    def test_a_model_refuses_what_the_schema_refuses(self):
        # The check is only worth something if it can fail: a required field left out, a
        # misspelt key.
        role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                "metadata": {"name": "r"}, "rules": [{"resources": ["pods"]}]}
        with self.assertRaises(ValueError):
            round_trip(role)  # verbs is required
        deployment = next(d for _, d in documents() if d["kind"] == "Deployment")
        misspelt = yaml.safe_load(yaml.safe_dump(deployment))
        misspelt["spec"]["template"]["spec"]["terminationGracePeriod"] = 10
        self.assertNotEqual(round_trip(misspelt), misspelt)

    def test_what_the_manifests_promise(self):
        docs = {d["kind"]: d for _, d in documents()}
        self.assertEqual(docs["Role"]["rules"],
                         [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "patch"]}])
        pod = docs["Deployment"]["spec"]["template"]["spec"]
        self.assertEqual(pod["serviceAccountName"], docs["ServiceAccount"]["metadata"]["name"])
        container = pod["containers"][0]
        self.assertEqual(container["command"][:2], ["runwarden", "run"])
        self.assertEqual(container["command"][-1], "--")
        self.assertIn({"name": "POD_NAME",
                       "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                      container["env"])
        pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
        self.assertEqual(pre_stop[:3], ["runwarden", "ctl", "shutdown"])
        self.assertIn("--wait", pre_stop)
        settings = tomllib.loads(docs["ConfigMap"]["data"]["runwarden.toml"])
        self.assertTrue(settings["kubernetes"]["enabled"])
        self.assertGreater(pod["terminationGracePeriodSeconds"],
                           duration_seconds(settings["drain"]["timeout"]))


if __name__ == "__main__":
    unittest.main()
