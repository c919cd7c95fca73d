// libFuzzer target for the reader of gitlab-runner's config.toml (the file is the
// runner's, so anything an operator or a tool wrote may be in it). Any text gives a config
// or errors naming the file; a config's listen_address, if any, goes on to metrics_url, and
// the same bytes are tried as a .runner_system_id file.
#include <string>

#include "fuzz/fuzz_promise.hpp"
#include "src/runner/gitlab_runner_config.hpp"
#include "src/util/time_bounds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view text = fuzz::as_text(data, size);
  const gitlab_runner_config_result result = parse_gitlab_runner_config(text, "config.toml");
  fuzz::require(result.config.has_value() == result.errors.empty());
  for (const std::string& error : result.errors) fuzz::require(error.starts_with("config.toml:"));
  if (result.config) {
    fuzz::require(result.config->concurrent >= 0);
    fuzz::require(result.config->shutdown_timeout.count() > 0 &&
                  result.config->shutdown_timeout <= duration_max);
    for (const gitlab_runner_entry& runner : result.config->runners)
      fuzz::require(runner.jobs_max >= 0);
    if (result.config->listen_address) {
      const auto url = metrics_url(*result.config->listen_address);
      if (url) fuzz::require(url->starts_with("http://") && url->ends_with("/metrics"));
    }
  }
  if (const auto system_id = parse_system_id(text))
    fuzz::require(system_id->size() == 14 &&
                  (system_id->starts_with("s_") || system_id->starts_with("r_")));
  return 0;
}
