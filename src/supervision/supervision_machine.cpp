// See supervision_machine.hpp. Every child status is written out for every event, no-ops
// included, so that a status the code did not foresee trips an assertion instead of being
// silently misread.
#include "src/supervision/supervision_machine.hpp"

#include "src/util/assert.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

bool wants_restart(restart_type type, child_exit exit) {
  switch (type) {
    case restart_type::permanent:
      return true;
    case restart_type::transient:
      return exit == child_exit::abnormal;
    case restart_type::temporary:
      return false;
  }
  return false;
}

}  // namespace

std::string_view to_string(child_status status) {
  switch (status) {
    case child_status::waiting_to_start:
      return "waiting_to_start";
    case child_status::running:
      return "running";
    case child_status::stopping:
      return "stopping";
    case child_status::ended:
      return "ended";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

supervision_machine::supervision_machine(supervisor_flags flags, std::vector<child_spec> children)
    : flags_(flags),
      children_(std::move(children)),
      statuses_(children_.size(), child_status::waiting_to_start),
      restart_after_stop_(children_.size(), false) {
  RUNWARDEN_ASSERT(!check_supervisor_spec(flags_, children_));
}

std::vector<supervision_effect> supervision_machine::step(const supervision_event& event,
                                                          instant now) {
  std::vector<supervision_effect> effects;
  std::visit(
      [&](const auto& e) {
        using event_type = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<event_type, supervisor_started>) {
          // settle() below starts every child, in order.
          RUNWARDEN_ASSERT(phase_ == phase::not_started);
          phase_ = phase::running;
        } else if constexpr (std::is_same_v<event_type, child_went_down>) {
          on_went_down(e, now, effects);
        } else if constexpr (std::is_same_v<event_type, supervisor_stop_requested>) {
          // A second request, or one after giving up, changes nothing.
          if (phase_ == phase::running || phase_ == phase::not_started) stop_all(effects);
        }
      },
      event);
  settle(effects);
  return effects;
}

void supervision_machine::on_went_down(const child_went_down& down, instant now,
                                       std::vector<supervision_effect>& effects) {
  RUNWARDEN_ASSERT(down.child < children_.size());
  RUNWARDEN_ASSERT(phase_ == phase::running || phase_ == phase::stopping_all);
  auto& status = statuses_[down.child];
  switch (status) {
    case child_status::stopping:
      status =
          restart_after_stop_[down.child] ? child_status::waiting_to_start : child_status::ended;
      return;
    case child_status::running:
      on_unexpected_exit(down, now, effects);
      return;
    case child_status::waiting_to_start:
    case child_status::ended:
      RUNWARDEN_ASSERT(false && "a child that is not running cannot go down");
      return;
  }
}

void supervision_machine::on_unexpected_exit(const child_went_down& down, instant now,
                                             std::vector<supervision_effect>& effects) {
  // While stopping all, every child is stopping or ended: none can exit unexpectedly.
  RUNWARDEN_ASSERT(phase_ == phase::running);
  const auto& spec = children_[down.child];
  if (!wants_restart(spec.restart, down.exit)) {
    statuses_[down.child] = child_status::ended;
    return;
  }
  restarts_.push_back(now);
  while (now - restarts_.front() >= flags_.restart_window) restarts_.pop_front();
  if (restarts_.size() > flags_.restarts_max) {
    statuses_[down.child] = child_status::ended;
    gave_up_ = true;
    give_up_reason_ = "child \"" + spec.id + "\" went down once more than the " +
                      std::to_string(flags_.restarts_max) + " restart(s) allowed within " +
                      format_duration(std::chrono::duration_cast<std::chrono::milliseconds>(
                          flags_.restart_window));
    stop_all(effects);
    return;
  }
  RUNWARDEN_ASSERT(restarts_.size() <= flags_.restarts_max);
  statuses_[down.child] = child_status::waiting_to_start;
  stop_group(down.child, effects);
}

// The siblings that restart with `exited`, stopped in reverse start order. Like OTP, a group
// restart also brings back a non-temporary sibling that had ended (a transient one that
// exited normally); a temporary child is never started again.
void supervision_machine::stop_group(std::size_t exited, std::vector<supervision_effect>& effects) {
  std::size_t first = 0;
  switch (flags_.strategy) {
    case restart_strategy::one_for_one:
      return;
    case restart_strategy::one_for_all:
      first = 0;
      break;
    case restart_strategy::rest_for_one:
      first = exited + 1;
      break;
  }
  for (std::size_t child = children_.size(); child-- > first;) {
    if (child == exited) continue;
    const bool restart = children_[child].restart != restart_type::temporary;
    switch (statuses_[child]) {
      case child_status::running:
        stop(child, restart, effects);
        break;
      case child_status::stopping:
        restart_after_stop_[child] = restart;
        break;
      case child_status::ended:
        if (restart) statuses_[child] = child_status::waiting_to_start;
        break;
      case child_status::waiting_to_start:
        break;  // already to be started
    }
  }
}

void supervision_machine::stop_all(std::vector<supervision_effect>& effects) {
  phase_ = phase::stopping_all;
  for (std::size_t child = children_.size(); child-- > 0;) {
    switch (statuses_[child]) {
      case child_status::running:
        stop(child, false, effects);
        break;
      case child_status::stopping:
        restart_after_stop_[child] = false;
        break;
      case child_status::waiting_to_start:
        statuses_[child] = child_status::ended;
        break;
      case child_status::ended:
        break;
    }
  }
}

void supervision_machine::stop(std::size_t child, bool restart_after,
                               std::vector<supervision_effect>& effects) {
  RUNWARDEN_ASSERT(statuses_[child] == child_status::running);
  statuses_[child] = child_status::stopping;
  restart_after_stop_[child] = restart_after;
  effects.push_back(stop_child{child, children_[child].shutdown_timeout});
}

// Starts whatever waits once no stop is outstanding (so that a restarted child never meets
// the old incarnation of a sibling), or quits once every child is down.
void supervision_machine::settle(std::vector<supervision_effect>& effects) {
  auto any = [&](child_status wanted) {
    for (const auto status : statuses_)
      if (status == wanted) return true;
    return false;
  };
  if (phase_ == phase::stopping_all) {
    if (any(child_status::running) || any(child_status::stopping)) return;
    phase_ = phase::done;
    effects.push_back(quit_supervisor{gave_up_, give_up_reason_});
    return;
  }
  if (phase_ != phase::running || any(child_status::stopping)) return;
  for (std::size_t child = 0; child < children_.size(); ++child) {
    if (statuses_[child] != child_status::waiting_to_start) continue;
    statuses_[child] = child_status::running;
    effects.push_back(start_child{child});
  }
}

}  // namespace runwarden
