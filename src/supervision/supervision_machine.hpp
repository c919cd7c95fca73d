#pragma once
// The decisions of a supervisor of runwarden's own actors, with Erlang/OTP's semantics and
// no CAF in sight: given "child X went down, normally or not, at time t", which siblings
// to stop (in reverse start order), which children to start again (in start order, once
// every stop has completed), or whether to give up (stop every child in reverse order,
// then quit with a failure so that the level above acts). "Now" is always an argument.
//
// Each child moves through
//
//   waiting_to_start --start_child--> running --went down, to restart--> waiting_to_start
//          ^                             |     --went down, not to restart--> ended
//          |                         stop_child
//          |                             v
//          +----went down, to restart-- stopping --went down, not to restart--> ended
//
// and the supervisor through running -> stopping_all (stop requested, or gave up) -> done.
// A child that fails to start is reported as going down abnormally right after its start,
// so that the restart intensity bounds a child that can never start.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <variant>
#include <vector>

#include "src/supervision/supervisor_spec.hpp"

namespace runwarden {

enum class child_exit : std::uint8_t { normal, abnormal };
enum class child_status : std::uint8_t { waiting_to_start, running, stopping, ended };

std::string_view to_string(child_status status);

// Events, by child index in start order.
struct supervisor_started {};
struct child_went_down {
  std::size_t child = 0;
  child_exit exit = child_exit::abnormal;
};
struct supervisor_stop_requested {};
using supervision_event =
    std::variant<supervisor_started, child_went_down, supervisor_stop_requested>;

// Effects, carried out in the order given.
struct start_child {
  std::size_t child = 0;
  friend bool operator==(const start_child&, const start_child&) = default;
};
// Stop gracefully, and kill once shutdown_timeout has passed without the child going down.
struct stop_child {
  std::size_t child = 0;
  duration shutdown_timeout{};
  friend bool operator==(const stop_child&, const stop_child&) = default;
};
// Every child is down. gave_up: the restart intensity was exceeded, reason says by whom.
struct quit_supervisor {
  bool gave_up = false;
  std::string reason;
  friend bool operator==(const quit_supervisor&, const quit_supervisor&) = default;
};
using supervision_effect = std::variant<start_child, stop_child, quit_supervisor>;

class supervision_machine {
 public:
  // The spec must pass check_supervisor_spec.
  supervision_machine(supervisor_flags flags, std::vector<child_spec> children);

  std::vector<supervision_effect> step(const supervision_event& event, instant now);

  const std::vector<child_spec>& children() const { return children_; }
  child_status status_of(std::size_t child) const { return statuses_.at(child); }
  // Restarts that count against the intensity as of the last exit.
  std::size_t restarts_in_window() const { return restarts_.size(); }
  bool done() const { return phase_ == phase::done; }

 private:
  enum class phase : std::uint8_t { not_started, running, stopping_all, done };

  void on_went_down(const child_went_down& down, instant now,
                    std::vector<supervision_effect>& effects);
  void on_unexpected_exit(const child_went_down& down, instant now,
                          std::vector<supervision_effect>& effects);
  void stop_group(std::size_t exited, std::vector<supervision_effect>& effects);
  void stop_all(std::vector<supervision_effect>& effects);
  void stop(std::size_t child, bool restart_after, std::vector<supervision_effect>& effects);
  void settle(std::vector<supervision_effect>& effects);

  supervisor_flags flags_;
  std::vector<child_spec> children_;
  std::vector<child_status> statuses_;
  std::vector<bool> restart_after_stop_;  // meaningful while stopping
  std::deque<instant> restarts_;          // at most flags_.restarts_max + 1
  phase phase_ = phase::not_started;
  bool gave_up_ = false;
  std::string give_up_reason_;
};

}  // namespace runwarden
