#pragma once
// What the embedding tests share, from a host's side: a state directory of the test's own,
// the demo runner's config, and the status stream a host actor receives, awaited without a
// sleep and bounded.

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "runwarden/config.hpp"
#include "runwarden/instance.hpp"

namespace runwarden::embedded::testing {

inline constexpr std::chrono::seconds status_wait_max{60};

// A state directory of the test's own, removed at the end.
struct scratch_directory {
  std::filesystem::path path;
  scratch_directory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "runwarden-embedded-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~scratch_directory() { std::filesystem::remove_all(path); }
};

// The demo runner on `state`, with `extra` TOML after the [journal] table.
inline config demo_config(const scratch_directory& state, const std::string& extra = {}) {
  auto loaded = config::from_toml("[runner]\nkind = \"gitlab\"\n[journal]\nstate_directory = \"" +
                                      state.path.string() + "\"\n" + extra,
                                  {DEMO_RUNNER_BINARY, "--concurrency", "1", "--job-seconds", "1"});
  REQUIRE(loaded.errors.empty());
  return *loaded.config;
}

// The statuses a host actor receives, until one matches `until`.
inline std::vector<status> statuses_until(caf::scoped_actor& host, bool (*until)(const status&)) {
  std::vector<status> seen;
  bool waiting = true;
  host->receive_while(waiting)(
      [&](const status& next) {
        seen.push_back(next);
        waiting = !until(next);
      },
      caf::after(status_wait_max) >>
          [&] { FAIL("no status for " << status_wait_max.count() << "s after " << seen.size()); });
  return seen;
}

inline bool runner_runs(const status& s) {
  return s.state == instance_state::running && s.runner_pid.has_value();
}
inline bool gone(const status& s) { return s.state == instance_state::gone; }

// runwarden's log lines as a host's sink receives them (config::set_log_sink).
struct captured_log {
  struct line {
    log_level level;
    std::string logger;
    std::string text;
  };
  std::mutex mutex;
  std::vector<line> lines;

  static log_sink sink_into(const std::shared_ptr<captured_log>& log) {
    return [log](const log_line& each) {
      const std::lock_guard lock{log->mutex};
      log->lines.push_back({each.level, std::string{each.logger}, std::string{each.text}});
    };
  }
  std::vector<line> copy() {
    const std::lock_guard lock{mutex};
    return lines;
  }
  bool any(const std::string& part) {
    const auto all = copy();
    return std::any_of(all.begin(), all.end(),
                       [&](const line& each) { return each.text.find(part) != std::string::npos; });
  }
};

}  // namespace runwarden::embedded::testing
