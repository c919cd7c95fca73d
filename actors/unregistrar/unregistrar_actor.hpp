#pragma once
// The unregistrar: one actor per drain phase that removes every configured runner from its
// CI server (a list of GitLab runners, or one GitHub runner) through the HTTP port. Per
// runner:
//
//   gitlab:  read config.toml, DELETE ----------------> done | wait, start over
//                               --403, token rotated---> DELETE again at once
//   github:  list page 1..n --found--> DELETE -------> done | wait, start over
//                           --absent-------------------> done (already gone)
//
// What an answer means and how long to wait are pure decisions in src/unregister/; the
// actor only sends, waits with delayed_send to itself (virtual time in tests), logs, and
// reports each runner's progress to its listener (messages/unregister_messages.hpp). Every
// attempt starts from the beginning, so a GitHub runner's id is looked up afresh, and a
// restarted unregistrar simply starts over: a second DELETE answered 404 or 403 counts as
// done, which is what makes the phase idempotent. A runner that is done is never asked for
// again; answers that no attempt waits for (stale ids) are dropped.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/unregister_messages.hpp"
#include "src/unregister/gitlab_token_source.hpp"
#include "src/unregister/retry_schedule.hpp"
#include "src/unregister/unregister_outcome.hpp"
#include "src/unregister/unregister_target.hpp"

namespace runwarden {

struct unregistrar_wiring {
  http_port_actor http_port;
  unregistrar_listener_actor listener;
  std::vector<unregister_target> targets;  // at least one
  unregister_retry_limits limits;
  std::chrono::milliseconds timeout{std::chrono::seconds{30}};  // per request
  std::uint64_t random_seed = 0;
  // The wall clock, only to read rate-limit reset times (epoch seconds); tests fake it.
  std::function<std::chrono::system_clock::time_point()> clock = [] {
    return std::chrono::system_clock::now();
  };
  std::string user_agent = "runwarden";
  // Told the outcome of every attempt (for /metrics); may be empty.
  std::function<void(outcome_kind)> attempt_observer = {};
  // Reads a GitLab runner's token again from gitlab-runner's config.toml, before each
  // attempt and after a 403 (src/unregister/token_rotation.hpp); empty: tokens are never
  // read again (tests, the simulation). Production: read_gitlab_token.
  std::function<token_reading(const gitlab_token_source&)> read_token = {};
};

struct runner_progress {
  unregister_target target;
  runner_unregister_status status;
  std::uint64_t waiting_for = 0;         // id of the request in flight; 0 when none
  std::uint32_t page = 1;                // github: the list page asked for
  bool deleting = false;                 // github: the request in flight is the DELETE
  std::uint32_t rotations_in_a_row = 0;  // gitlab: at most rotated_retries_max
};

struct unregistrar_state {
  static inline const char* name = "unregistrar";
  unregistrar_wiring wiring;
  std::uint64_t random_state = 0;
  std::uint64_t next_id = 1;
  std::vector<runner_progress> runners;  // in the order of wiring.targets
};

// The unregistrar as it runs: besides its peers' interface, its HTTP port's answers.
using unregistrar_implementation = unregistrar_actor::extend_with<http_requester_actor>;

unregistrar_implementation::behavior_type unregistrar_behavior(
    unregistrar_implementation::stateful_pointer<unregistrar_state> self,
    unregistrar_wiring wiring);

}  // namespace runwarden
