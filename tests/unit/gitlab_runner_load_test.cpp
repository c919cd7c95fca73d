// gitlab-runner's load from its /metrics page: the constructed sample page (families and
// labels as the runner's source defines them), then hand-made pages for each rule: the idle
// series, a missing family meaning "unknown", limits of 0 meaning none, the process state.
#include "src/scrape/gitlab_runner_load.hpp"
#include "tests/common/file_bytes.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "src/scrape/exposition_parser.hpp"

namespace {

using namespace runwarden;
using runwarden::testing::file_bytes;

gitlab_runner_load load_of(std::string_view text) {
  const exposition_result result = parse_exposition_text(text);
  INFO(describe(result.error));
  REQUIRE(result.page);
  return derive_gitlab_runner_load(*result.page);
}

constexpr std::string_view idle_runner =
    "# TYPE gitlab_runner_concurrent gauge\n"
    "gitlab_runner_concurrent 10\n"
    "# TYPE gitlab_runner_jobs gauge\n"
    "gitlab_runner_jobs{executor_stage=\"\",runner=\"abc\",runner_name=\"a\",stage=\"\","
    "state=\"\",system_id=\"s_1\"} 0\n"
    "# TYPE gitlab_runner_limit gauge\n"
    "gitlab_runner_limit{runner=\"abc\",runner_name=\"a\",system_id=\"s_1\"} 3\n"
    "gitlab_runner_limit{runner=\"def\",runner_name=\"b\",system_id=\"s_1\"} 4\n";

}  // namespace

TEST_CASE("the sample page: three running jobs of four, no limit", "[metrics][gitlab_runner]") {
  const gitlab_runner_load load =
      load_of(file_bytes(RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/metrics_sample_constructed.prom"));
  CHECK(load.running_jobs == 3u);
  CHECK(load.concurrent == 4u);
  REQUIRE(load.limits.size() == 1);
  CHECK(load.limits[0].runner == "xP9sK2mQa");
  CHECK(load.limits[0].runner_name == "ci-docker-01");
  CHECK(load.limits[0].system_id == "s_0e6850b2bce1");
  CHECK(load.limits[0].jobs_max == 0);
  CHECK(load.capacity == 4u);
  CHECK_FALSE(load.process_state);
  CHECK(load.problems.empty());
}

TEST_CASE("a 19.x page in a graceful shutdown: its process state, two jobs left",
          "[metrics][gitlab_runner]") {
  const gitlab_runner_load load =
      load_of(file_bytes(RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/metrics_19x_constructed.prom"));
  CHECK(load.process_state == gitlab_runner_state::graceful_shutdown);
  CHECK(load.process_state_text == "graceful-shutdown");
  CHECK(load.running_jobs == 2u);
  CHECK(load.capacity == 4u);
  REQUIRE(load.limits.size() == 1);
  CHECK(load.limits[0].system_id == "r_AbCdEfGh1234");
  CHECK(load.problems.empty());
}

TEST_CASE("an idle runner has zero jobs, and limits on every entry bound the capacity",
          "[metrics][gitlab_runner]") {
  const gitlab_runner_load load = load_of(idle_runner);
  CHECK(load.running_jobs == 0u);
  CHECK(load.capacity == 7u);  // 3 + 4, below concurrent 10
}

TEST_CASE("a page without gitlab_runner_jobs leaves the job count unknown, not zero",
          "[metrics][gitlab_runner]") {
  const gitlab_runner_load load = load_of("gitlab_runner_concurrent 2\ngo_goroutines 8\n");
  CHECK_FALSE(load.running_jobs);
  CHECK(load.concurrent == 2u);
  CHECK(load.capacity == 2u);
  const gitlab_runner_load empty = load_of("");
  CHECK_FALSE(empty.running_jobs);
  CHECK_FALSE(empty.capacity);
}

TEST_CASE("limits alone bound the capacity when concurrent is missing",
          "[metrics][gitlab_runner]") {
  const gitlab_runner_load load =
      load_of("gitlab_runner_limit{runner=\"a\"} 2\ngitlab_runner_limit{runner=\"b\"} 5\n");
  CHECK(load.capacity == 7u);
  const gitlab_runner_load unlimited =
      load_of("gitlab_runner_limit{runner=\"a\"} 2\ngitlab_runner_limit{runner=\"b\"} 0\n");
  CHECK_FALSE(unlimited.capacity);
}

TEST_CASE("values that are no count make their figure unknown and are named",
          "[metrics][gitlab_runner]") {
  const gitlab_runner_load load = load_of(
      "gitlab_runner_jobs{state=\"running\"} 2\n"
      "gitlab_runner_jobs{state=\"x\"} NaN\n"
      "gitlab_runner_concurrent -1\n"
      "gitlab_runner_limit{runner=\"a\"} 1.5\n"
      "gitlab_runner_limit{runner=\"b\"} 1\n");
  CHECK_FALSE(load.running_jobs);
  CHECK_FALSE(load.concurrent);
  CHECK_FALSE(load.capacity);  // a sum over "b" alone would understate it
  CHECK(load.problems.size() == 3);
  CHECK(load.problems[0].starts_with("gitlab_runner_jobs has nan"));
}

TEST_CASE("the process state comes from the series with value 1", "[metrics][gitlab_runner]") {
  const gitlab_runner_load load = load_of(
      "gitlab_runner_process_state_info{state=\"running\"} 0\n"
      "gitlab_runner_process_state_info{state=\"graceful-shutdown\"} 1\n");
  CHECK(load.process_state == gitlab_runner_state::graceful_shutdown);
  CHECK(load.process_state_text == "graceful-shutdown");
  const gitlab_runner_load unknown =
      load_of("gitlab_runner_process_state_info{state=\"hibernating\"} 1\n");
  CHECK(unknown.process_state == gitlab_runner_state::other);
  CHECK(unknown.process_state_text == "hibernating");
}
