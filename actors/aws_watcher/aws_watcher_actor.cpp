// See aws_watcher_actor.hpp. Every request carries a fresh id; an answer whose id is
// not the one awaited (a stale one) is dropped, so one answer is never used twice.
#include "actors/aws_watcher/aws_watcher_actor.hpp"

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

using watcher_pointer = aws_watcher_implementation::stateful_pointer<aws_watcher_state>;

instant now_of(watcher_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

void log_report(const watch_report& report) {
  auto logger = warden_logger();
  switch (report.level) {
    case report_level::debug:
      logger->debug("lifecycle watcher: {}", report.text);
      break;
    case report_level::info:
      logger->info("lifecycle watcher: {}", report.text);
      break;
    case report_level::warning:
      logger->warn("lifecycle watcher: {}", report.text);
      break;
    case report_level::error:
      logger->error("lifecycle watcher: {}", report.text);
      break;
  }
}

// The deadline logged is the one asked for; the drain says which one it applies (an earlier
// one, from the journal or the drain timeout, stands).
void send_trigger(watcher_pointer self, lifecycle_trigger trigger) {
  warden_logger()->warn("lifecycle watcher: drain called for by {}: {}{}",
                        trigger_token(trigger.source), trigger.reason,
                        trigger.deadline
                            ? "; asks for the deadline " + format_rfc3339_utc(*trigger.deadline)
                            : std::string{});
  self->send(self->state.wiring.listener, std::move(trigger));
}

// Triggers and reports go out now; a drain due later gets one timer, not one per read.
void apply(watcher_pointer self, scheduled_watch_outcome outcome) {
  auto& state = self->state;
  for (auto& report : outcome.reports) log_report(report);
  for (auto& trigger : outcome.triggers) send_trigger(self, std::move(trigger));
  if (!outcome.next_due || outcome.next_due == state.scheduled_due_armed) return;
  state.scheduled_due_armed = outcome.next_due;
  const auto now = state.wiring.wall_clock();
  const auto delay = *outcome.next_due > now ? *outcome.next_due - now : wall_time::duration{};
  self->delayed_send(self, delay, scheduled_due_atom::value);
}

void carry_out(watcher_pointer self, std::vector<poller_effect> effects) {
  auto& state = self->state;
  for (auto& effect : effects) {
    if (auto* request = std::get_if<imds_request>(&effect)) {
      RUNWARDEN_ASSERT(state.waiting_for == 0);
      state.waiting_for = state.next_id++;
      self->send(state.wiring.http_port, http_request{state.waiting_for,
                                                      std::move(request->method),
                                                      std::move(request->url),
                                                      std::move(request->headers),
                                                      {},
                                                      request->timeout,
                                                      {},
                                                      request->max_response_bytes});
    } else if (const auto* wait = std::get_if<retry_after>(&effect)) {
      self->delayed_send(self, wait->delay, imds_retry_atom::value);
    } else if (auto* trigger = std::get_if<lifecycle_trigger>(&effect)) {
      send_trigger(self, std::move(*trigger));
    } else if (auto* read = std::get_if<scheduled_events_read>(&effect)) {
      apply(self, state.scheduled_events->on_page(read->answer, state.wiring.wall_clock()));
    } else if (auto* identity = std::get_if<instance_identity>(&effect)) {
      self->send(state.wiring.listener, std::move(*identity));  // the warden logs it, once
    } else {
      log_report(std::get<watch_report>(effect));
    }
  }
}

void on_response(watcher_pointer self, http_response& response) {
  auto& state = self->state;
  if (response.id == 0 || response.id != state.waiting_for) return;
  state.waiting_for = 0;
  const auto code = response.status_code.value_or(0);
  if (state.wiring.answered && ((code >= 200 && code < 300) || code == 404))
    state.wiring.answered();
  imds_answer answer{response.status_code, std::move(response.body),
                     std::move(response.transport_error), std::move(response.headers)};
  carry_out(self, state.poller->answer_arrived(answer, now_of(self)));
}

}  // namespace

aws_watcher_implementation::behavior_type aws_watcher_behavior(watcher_pointer self,
                                                               aws_watcher_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.http_port);
  RUNWARDEN_ASSERT(wiring.listener);
  RUNWARDEN_ASSERT(wiring.poll_interval.count() > 0);
  auto& state = self->state;
  state.poller.emplace(wiring.poller);
  state.scheduled_events.emplace(wiring.scheduled_events);
  state.wiring = std::move(wiring);
  self->monitor(state.wiring.http_port);
  self->set_down_handler([=](const caf::down_msg& down) {
    if (down.source == self->state.wiring.http_port.address()) self->quit(down.reason);
  });
  self->send(self, imds_poll_atom::value);
  return {
      [=](imds_poll_atom) {
        self->delayed_send(self, self->state.wiring.poll_interval, imds_poll_atom::value);
        carry_out(self, self->state.poller->poll_due(now_of(self)));
      },
      [=](imds_retry_atom) { carry_out(self, self->state.poller->retry_due(now_of(self))); },
      [=](scheduled_due_atom) {
        auto& state = self->state;
        state.scheduled_due_armed.reset();
        apply(self, state.scheduled_events->due(state.wiring.wall_clock()));
      },
      [=](http_response& response) { on_response(self, response); },
  };
}

}  // namespace runwarden
