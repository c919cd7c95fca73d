// [scaling] as `runwarden run` plans it: off by default, the configured capacity, else
// gitlab-runner's own bounds from its config.toml (read by the gathering, instance_inputs),
// and a clear refusal when neither says how many jobs the runner takes.
#include <catch2/catch.hpp>

#include "src/assembly/instance_inputs.hpp"
#include "src/assembly/scaling_plan.hpp"

namespace {

using namespace runwarden;

settings enabled() {
  settings config;
  config.scaling.enabled = true;
  return config;
}

// The plan from gathered inputs, as instance_planning makes it.
scaling_plan_result plan_gathered(const settings& config) {
  const auto gathered = gather_instance_inputs(config, {});
  REQUIRE(gathered.inputs);
  const auto& gitlab_runner = gathered.inputs->gitlab_runner;
  return plan_scaling(config, gitlab_runner ? &*gitlab_runner : nullptr);
}

}  // namespace

TEST_CASE("scaling left off plans nothing", "[scaling]") {
  const auto plan = plan_scaling(settings{});
  CHECK_FALSE(plan.policy);
  CHECK(plan.error.empty());
}

TEST_CASE("the configured capacity wins over gitlab-runner's", "[scaling]") {
  auto config = enabled();
  config.scaling.capacity = 7;
  config.runner.gitlab_config = RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/config_dir/config.toml";
  const auto plan = plan_gathered(config);
  REQUIRE(plan.policy);
  CHECK(plan.policy->capacity == 7u);
}

TEST_CASE("without a configured capacity, gitlab-runner's concurrent and limits give it",
          "[scaling]") {
  auto config = enabled();
  config.scaling.policy.step = 3;
  config.runner.gitlab_config = RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/config_dir/config.toml";
  const auto plan = plan_gathered(config);
  INFO(plan.error);
  REQUIRE(plan.policy);
  CHECK(plan.policy->capacity == 4u);  // concurrent 4; one entry has no limit
  CHECK(plan.policy->step == 3);
}

TEST_CASE("an entry without a token adds no slots, as gitlab-runner skips it", "[scaling]") {
  auto config = enabled();
  config.runner.gitlab_config =
      RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/config_token_skipped/config.toml";
  const auto plan = plan_gathered(config);
  INFO(plan.error);
  REQUIRE(plan.policy);
  CHECK(plan.policy->capacity == 2u);  // the one entry that runs has limit 2, not concurrent 8
}

TEST_CASE("no capacity and no gitlab-runner config is refused by name", "[scaling]") {
  const auto plan = plan_scaling(enabled());
  CHECK_FALSE(plan.policy);
  CHECK(plan.error ==
        "scaling: the runner's capacity is unknown: set scaling.capacity, or "
        "runner.gitlab_config (--gitlab-config) for gitlab-runner's concurrent and limits");
}

TEST_CASE("a broken gitlab-runner config is refused with its own errors", "[scaling]") {
  auto config = enabled();
  config.runner.gitlab_config = RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/config_broken.toml";
  const auto gathered = gather_instance_inputs(config, {});
  CHECK_FALSE(gathered.inputs);
  CHECK_THAT(gathered.error, Catch::Contains("config_broken.toml"));
}
