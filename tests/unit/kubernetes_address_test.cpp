// Finding the pod from inside the cluster: the API server from the service
// environment, the namespace file, POD_NAME, each refusal naming what is missing; and the
// grace period check against the drain timeout. Pure functions, inputs handed in.
#include <catch2/catch.hpp>

#include "src/kubernetes/grace_period_check.hpp"
#include "src/kubernetes/in_cluster_address.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

const environment_map pod_environment{{"KUBERNETES_SERVICE_HOST", "10.96.0.1"},
                                      {"KUBERNETES_SERVICE_PORT", "443"},
                                      {"POD_NAME", "runner-7d9f-abcde"}};

}  // namespace

TEST_CASE("the pod is found as client-go's InClusterConfig finds it", "[kubernetes]") {
  kubernetes_settings settings;
  const auto found = find_in_cluster(settings, pod_environment, std::string{"ci\n"});
  REQUIRE(found.error == "");
  CHECK(found.address->api_url == "https://10.96.0.1:443");
  CHECK(found.address->pod_namespace == "ci");
  CHECK(found.address->pod_name == "runner-7d9f-abcde");
  CHECK(found.address->token_file == "/var/run/secrets/kubernetes.io/serviceaccount/token");
  CHECK(found.address->ca_file == "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt");
  auto ipv6 = pod_environment;
  ipv6["KUBERNETES_SERVICE_HOST"] = "fd00::1";
  CHECK(find_in_cluster(settings, ipv6, "ci").address->api_url == "https://[fd00::1]:443");
  settings.pod_name = "set-here";
  settings.pod_namespace = "other";
  settings.api_url = "https://127.0.0.1:6443/";
  const auto set = find_in_cluster(settings, {}, std::nullopt);
  REQUIRE(set.address);
  CHECK(set.address->api_url == "https://127.0.0.1:6443");
  CHECK(set.address->pod_name == "set-here");
}

TEST_CASE("a pod without what it needs is refused by name", "[kubernetes]") {
  kubernetes_settings settings;
  CHECK_THAT(find_in_cluster(settings, {}, "ci").error, Catch::Contains("KUBERNETES_SERVICE_HOST"));
  CHECK_THAT(find_in_cluster(settings, pod_environment, std::nullopt).error,
             Catch::Contains("serviceaccount/namespace"));
  auto no_name = pod_environment;
  no_name.erase("POD_NAME");
  CHECK_THAT(find_in_cluster(settings, no_name, "ci").error, Catch::Contains("POD_NAME"));
  auto bad_name = pod_environment;
  bad_name["POD_NAME"] = "../secrets";
  CHECK_THAT(find_in_cluster(settings, bad_name, "ci").error, Catch::Contains("not a pod name"));
  CHECK(is_object_name("a.b-c"));
  CHECK_FALSE(is_object_name("-a"));
  CHECK_FALSE(is_object_name("A"));
}

TEST_CASE("a grace period shorter than the drain timeout is warned about", "[kubernetes]") {
  const auto longer = check_grace_period(R"({"spec":{"terminationGracePeriodSeconds":3900}})",
                                         std::chrono::milliseconds{1h});
  CHECK(longer.grace_period == 3900s);
  CHECK(longer.warning.empty());
  const auto shorter = check_grace_period(R"({"spec":{"terminationGracePeriodSeconds":60}})",
                                          std::chrono::milliseconds{1h});
  CHECK_THAT(shorter.warning, Catch::Contains("(60 s) is shorter than drain.timeout (3600 s)"));
  // The API's default of 30 s when the field is absent; no drain timeout at all is warned too.
  const auto absent = check_grace_period(R"({"spec":{}})", std::nullopt);
  CHECK(absent.grace_period == 30s);
  CHECK_THAT(absent.warning, Catch::Contains("no timeout"));
  CHECK_FALSE(check_grace_period("not json", std::nullopt).grace_period);
}
