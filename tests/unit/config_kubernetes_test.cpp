// The [kubernetes] table: each key's good values, the shipped file's defaults,
// and refusals naming file, line and key, as the other config tests pin them.
#include <catch2/catch.hpp>

#include "src/config/config_file.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

config_result parse(const std::string& text) { return parse_config_text(text, "test.toml"); }

}  // namespace

TEST_CASE("[kubernetes] keys take their good values", "[config][kubernetes]") {
  const auto result = parse(R"([kubernetes]
enabled = true
pod_name = "runner-0"
namespace = "ci"
service_account_directory = "/tmp/sa"
api_url = "https://127.0.0.1:6443"
idle_deletion_cost = -5
idle_hold_off = "2m"
patch_attempts = 3
retry_initial = "1s"
retry_max = "10s"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& kubernetes = result.config->kubernetes;
  CHECK(kubernetes.enabled);
  CHECK(kubernetes.pod_name == "runner-0");
  CHECK(kubernetes.pod_namespace == "ci");
  CHECK(kubernetes.service_account_directory == "/tmp/sa");
  CHECK(kubernetes.api_url == "https://127.0.0.1:6443");
  CHECK(kubernetes.policy.idle_deletion_cost == -5);
  CHECK(kubernetes.policy.idle_hold_off == 2min);
  CHECK(kubernetes.policy.attempts_max == 3u);
  CHECK(kubernetes.policy.retry_initial == 1s);
  CHECK(kubernetes.policy.retry_max == 10s);
}

TEST_CASE("the shipped [kubernetes] table sets the defaults", "[config][kubernetes]") {
  const auto result = load_config_file(RUNWARDEN_TEST_DATA_DIR "/../../config/runwarden.toml");
  REQUIRE(result.config);
  const kubernetes_settings defaults;
  const auto& shipped = result.config->kubernetes;
  CHECK(shipped.enabled == defaults.enabled);
  CHECK(shipped.pod_name == defaults.pod_name);
  CHECK(shipped.pod_namespace == defaults.pod_namespace);
  CHECK(shipped.service_account_directory == defaults.service_account_directory);
  CHECK(shipped.api_url == defaults.api_url);
  CHECK(shipped.policy.idle_deletion_cost == defaults.policy.idle_deletion_cost);
  CHECK(shipped.policy.idle_hold_off == defaults.policy.idle_hold_off);
  CHECK(shipped.policy.attempts_max == defaults.policy.attempts_max);
  CHECK(shipped.policy.retry_initial == defaults.policy.retry_initial);
  CHECK(shipped.policy.retry_max == defaults.policy.retry_max);
}

TEST_CASE("[kubernetes] refusals name file, line and key", "[config][kubernetes]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> rows{
      {"[kubernetes]\napi_url = \"http://10.0.0.1\"",
       {"test.toml:2: kubernetes.api_url: the API server is reached over https:// only"}},
      {"[kubernetes]\npatch_attempts = 0",
       {"test.toml:2: kubernetes.patch_attempts: 0 is not between 1 and 100"}},
      {"[kubernetes]\nretry_initial = \"1m\"\nretry_max = \"1s\"",
       {"test.toml:2: kubernetes.retry_initial: 1m is longer than kubernetes.retry_max (1s)"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    const auto result = parse(text);
    CHECK_FALSE(result.config);
    CHECK(result.errors == errors);
  }
}
