// Planning [kubernetes]: disabled, nothing is read or started whatever the
// environment says; enabled, a pod without what it needs is refused before the runner
// starts, and a pod with it gets a wiring whose token is read at each call.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "src/assembly/pod_annotator_plan.hpp"

namespace {

using namespace runwarden;

const environment_map in_a_pod{{"KUBERNETES_SERVICE_HOST", "127.0.0.1"},
                               {"KUBERNETES_SERVICE_PORT", "6443"},
                               {"POD_NAME", "runner-0"}};

}  // namespace

TEST_CASE("a disabled [kubernetes] plans nothing, even inside a pod", "[kubernetes]") {
  settings config;
  config.kubernetes.service_account_directory = "/nonexistent/serviceaccount";
  const auto planned = plan_pod_annotator(
      config, in_a_pod, std::nullopt,
      std::make_shared<metrics_registry>("test", std::chrono::system_clock::now()));
  CHECK_FALSE(planned.wiring);
  CHECK(planned.error.empty());
}

TEST_CASE("an enabled [kubernetes] finds the pod or says what is missing", "[kubernetes]") {
  const auto directory = std::filesystem::temp_directory_path() / "runwarden-sa-plan-test";
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  settings config;
  config.kubernetes.enabled = true;
  config.kubernetes.service_account_directory = directory.string();
  const auto metrics = std::make_shared<metrics_registry>("test", std::chrono::system_clock::now());
  CHECK_THAT(plan_pod_annotator(config, in_a_pod, std::nullopt, metrics).error,
             Catch::Contains("/namespace; set kubernetes.namespace"));
  std::ofstream{directory / "token"} << "a-token\n";
  const auto planned = plan_pod_annotator(config, in_a_pod, std::string{"ci\n"}, metrics);
  REQUIRE(planned.wiring);
  CHECK(planned.wiring->address.pod_namespace == "ci");
  CHECK(planned.wiring->address.api_url == "https://127.0.0.1:6443");
  CHECK(planned.wiring->read_token(planned.wiring->address.token_file) == "a-token");
  std::ofstream{directory / "token"} << "rotated\n";
  CHECK(planned.wiring->read_token(planned.wiring->address.token_file) == "rotated");
  std::filesystem::remove_all(directory);
}
