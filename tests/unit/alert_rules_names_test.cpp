// The shipped alerting rules (config/alerts/runwarden.rules.yml) may only name metrics
// runwarden serves: every runwarden_* name in their expressions must be a family of a fresh
// registry, so that renaming a metric without its rule fails here, not in production where
// the alert would just stay silent. promtool tests the rules' logic (CTest alert_rules_test).
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

#include "src/telemetry/metrics_registry.hpp"

TEST_CASE("the alerting rules name only metrics runwarden serves", "[metrics]") {
  std::ifstream file{RUNWARDEN_TEST_DATA_DIR "/../../config/alerts/runwarden.rules.yml"};
  REQUIRE(file);
  const std::string rules{std::istreambuf_iterator<char>{file}, {}};
  std::set<std::string> served;
  const runwarden::metrics_registry registry{"1.2.3", std::chrono::system_clock::now()};
  for (const auto& family : registry.collect()) served.insert(family.name);
  const std::regex expression_line{R"(expr: (.*))"};
  const std::regex metric_name{R"(runwarden_[a-z_]+)"};
  std::size_t names = 0;
  for (std::sregex_iterator line{rules.begin(), rules.end(), expression_line}, end; line != end;
       ++line) {
    const std::string expression = (*line)[1];
    for (std::sregex_iterator name{expression.begin(), expression.end(), metric_name};
         name != std::sregex_iterator{}; ++name) {
      CAPTURE(expression);
      CHECK(served.count(name->str()) == 1);
      ++names;
    }
  }
  CHECK(names >= 6);
}
