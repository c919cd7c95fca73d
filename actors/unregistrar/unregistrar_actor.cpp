// See unregistrar_actor.hpp.
#include "actors/unregistrar/unregistrar_actor.hpp"

#include "actors/unregistrar/gitlab_token_refresh.hpp"
#include "src/logging/logging.hpp"
#include "src/unregister/github_unregistration.hpp"
#include "src/unregister/gitlab_unregistration.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using unregistrar_pointer = unregistrar_implementation::stateful_pointer<unregistrar_state>;

void report(unregistrar_pointer self, const runner_progress& runner) {
  self->send(self->state.wiring.listener, runner.status);
}

void send_request(unregistrar_pointer self, runner_progress& runner, http_request request) {
  auto& state = self->state;
  request.id = state.next_id++;
  request.timeout = state.wiring.timeout;
  runner.waiting_for = request.id;
  self->send(state.wiring.http_port, std::move(request));
}

// Every attempt starts from the beginning: a GitHub runner's id may have changed meanwhile.
void start_attempt(unregistrar_pointer self, runner_progress& runner) {
  RUNWARDEN_ASSERT(runner.waiting_for == 0);
  const auto& user_agent = self->state.wiring.user_agent;
  if (const auto* gitlab = std::get_if<gitlab_runner>(&runner.target)) {
    refresh_before_attempt(self->state.wiring, runner);
    send_request(self, runner, gitlab_unregister_request(*gitlab));
    return;
  }
  runner.page = 1;
  runner.deleting = false;
  send_request(self, runner,
               github_lookup_request(std::get<github_runner>(runner.target), 1, user_agent));
}

void log_outcome(const runner_progress& runner, outcome_kind kind) {
  const auto& status = runner.status;
  const auto logger = warden_logger();
  if (status.state == unregister_state::failed || kind == outcome_kind::refused) {
    logger->error("unregistering {}: attempt {}: {}", status.runner, status.attempts,
                  status.detail);
  } else if (kind == outcome_kind::unregistered) {
    logger->info("unregistered {}: {}", status.runner, status.detail);
  } else if (kind == outcome_kind::already_gone) {
    logger->warn("{} counts as unregistered: {}", status.runner, status.detail);
  } else {
    logger->warn("unregistering {}: attempt {}: {}", status.runner, status.attempts, status.detail);
  }
}

void finish_if_all_concluded(unregistrar_pointer self) {
  auto& runners = self->state.runners;
  unregister_finished finished;
  for (const auto& runner : runners) {
    const auto state = runner.status.state;
    if (state != unregister_state::done && state != unregister_state::failed) return;
    finished.runners.push_back(runner.status);
  }
  self->send(self->state.wiring.listener, std::move(finished));
  self->quit();
}

void conclude_attempt(unregistrar_pointer self, std::size_t index,
                      const unregister_outcome& outcome) {
  auto& state = self->state;
  auto& runner = state.runners[index];
  runner.waiting_for = 0;
  runner.rotations_in_a_row = 0;
  auto& status = runner.status;
  ++status.attempts;
  if (state.wiring.attempt_observer) state.wiring.attempt_observer(outcome.kind);
  const auto decision = decide_after_outcome(state.wiring.limits, outcome, status.attempts,
                                             state.wiring.clock(), state.random_state);
  status.detail = decision.report;
  status.next_attempt_in.reset();
  switch (decision.verdict) {
    case unregister_verdict::done:
      status.state = unregister_state::done;
      status.how = outcome.kind == outcome_kind::unregistered ? unregister_how::unregistered
                                                              : unregister_how::already_gone;
      break;
    case unregister_verdict::give_up:
      status.state = unregister_state::failed;
      break;
    case unregister_verdict::retry:
      status.state = unregister_state::retrying;
      status.next_attempt_in = decision.delay;
      self->delayed_send(self, decision.delay, unregister_retry_atom::value,
                         static_cast<std::uint64_t>(index));
      break;
  }
  log_outcome(runner, outcome.kind);
  report(self, runner);
  finish_if_all_concluded(self);
}

void on_github_answer(unregistrar_pointer self, std::size_t index, const http_response& answer) {
  auto& runner = self->state.runners[index];
  const auto& github = std::get<github_runner>(runner.target);
  if (runner.deleting) {
    conclude_attempt(self, index, classify_github_delete(github, answer));
    return;
  }
  const auto lookup = classify_github_lookup(github, answer, runner.page);
  runner.waiting_for = 0;
  const auto& user_agent = self->state.wiring.user_agent;
  switch (lookup.kind) {
    case github_lookup_kind::found:
      runner.deleting = true;
      send_request(self, runner, github_delete_request(github, lookup.runner_id, user_agent));
      return;
    case github_lookup_kind::next_page:
      ++runner.page;
      send_request(self, runner, github_lookup_request(github, runner.page, user_agent));
      return;
    case github_lookup_kind::failed:
      conclude_attempt(self, index, lookup.outcome);
      return;
  }
}

// A 403 is judged against config.toml read again: a rotated token is tried again at once.
void on_gitlab_answer(unregistrar_pointer self, std::size_t index, const http_response& answer) {
  auto& runner = self->state.runners[index];
  if (gitlab_refused_token(answer)) {
    if (auto step = step_after_refusal(self->state.wiring, runner, answer)) {
      if (!step->try_again_now) return conclude_attempt(self, index, step->outcome);
      runner.waiting_for = 0;
      return start_attempt(self, runner);
    }
  }
  conclude_attempt(self, index,
                   classify_gitlab_answer(std::get<gitlab_runner>(runner.target), answer));
}

void on_response(unregistrar_pointer self, const http_response& answer) {
  auto& runners = self->state.runners;
  if (answer.id == 0) return;
  for (std::size_t index = 0; index < runners.size(); ++index) {
    auto& runner = runners[index];
    if (runner.waiting_for != answer.id) continue;
    if (std::holds_alternative<gitlab_runner>(runner.target))
      on_gitlab_answer(self, index, answer);
    else
      on_github_answer(self, index, answer);
    return;
  }
}

void on_retry(unregistrar_pointer self, std::uint64_t index) {
  auto& runners = self->state.runners;
  if (index >= runners.size()) return;
  auto& runner = runners[index];
  if (runner.status.state != unregister_state::retrying || runner.waiting_for != 0) return;
  start_attempt(self, runner);
}

}  // namespace

unregistrar_implementation::behavior_type unregistrar_behavior(unregistrar_pointer self,
                                                               unregistrar_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.http_port);
  RUNWARDEN_ASSERT(wiring.listener);
  RUNWARDEN_ASSERT(!wiring.targets.empty());
  auto& state = self->state;
  state.random_state = wiring.random_seed;
  for (auto& target : wiring.targets) {
    runner_unregister_status status;
    status.runner = label_of(target);
    state.runners.push_back(runner_progress{std::move(target), std::move(status), 0, 1, false});
  }
  state.wiring = std::move(wiring);
  state.wiring.targets.clear();  // moved into runners; one copy of each token is enough
  // Without its port nothing can be unregistered; exiting lets the supervisor restart both.
  self->monitor(state.wiring.http_port);
  self->set_down_handler([=](const caf::down_msg& down) {
    if (down.source == self->state.wiring.http_port.address())
      self->quit(caf::make_error(caf::sec::runtime_error, "the HTTP port is gone"));
  });
  for (auto& runner : state.runners) {
    report(self, runner);
    start_attempt(self, runner);
  }
  return {
      [=](const http_response& answer) { on_response(self, answer); },
      [=](unregister_retry_atom, std::uint64_t index) { on_retry(self, index); },
  };
}

}  // namespace runwarden
