// See azure_watcher_actor.hpp. Every request carries a fresh id; an answer whose id is not
// one awaited (a stale one) is dropped, so one answer is never used twice.
#include "actors/azure_watcher/azure_watcher_actor.hpp"

#include "messages/warden_messages.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/rfc3339_time.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

using watcher_pointer = azure_watcher_implementation::stateful_pointer<azure_watcher_state>;

constexpr int http_ok = 200;
constexpr std::size_t azure_response_bytes_max = 64 * 1024;
constexpr std::chrono::milliseconds request_timeout{std::chrono::seconds{5}};
// "Expect a delayed response in your first call of up to two minutes" (Scheduled Events).
constexpr std::chrono::milliseconds first_events_timeout{std::chrono::minutes{2}};
constexpr std::chrono::milliseconds backoff_initial{std::chrono::milliseconds{500}};
constexpr std::chrono::milliseconds backoff_max{std::chrono::seconds{30}};

instant now_of(watcher_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

void log_report(const watch_report& report) {
  auto logger = warden_logger();
  switch (report.level) {
    case report_level::debug:
      logger->debug("Azure watcher: {}", report.text);
      break;
    case report_level::info:
      logger->info("Azure watcher: {}", report.text);
      break;
    case report_level::warning:
      logger->warn("Azure watcher: {}", report.text);
      break;
    case report_level::error:
      logger->error("Azure watcher: {}", report.text);
      break;
  }
}

std::uint64_t send(watcher_pointer self, std::string method, std::string_view path,
                   std::string body, std::chrono::milliseconds timeout) {
  auto& state = self->state;
  const auto id = state.next_id++;
  self->send(state.wiring.http_port, http_request{id,
                                                  std::move(method),
                                                  state.wiring.endpoint + std::string{path},
                                                  {{std::string{azure_metadata_header}, "true"}},
                                                  std::move(body),
                                                  timeout,
                                                  {},
                                                  azure_response_bytes_max});
  return id;
}

std::chrono::nanoseconds backoff(watcher_pointer self, std::uint32_t failures) {
  return capped_backoff(backoff_initial, backoff_max, failures, 0.2,
                        next_unit_random(self->state.random_state));
}

void send_approval(watcher_pointer self) {
  auto& state = self->state;
  ++state.approval_attempts;
  state.approval_waiting = send(self, "POST", azure_scheduled_events_path,
                                azure_start_requests_body({state.approving}), request_timeout);
}

// The warden hears of a drain first, then of the event its wind-down approves.
void tell(watcher_pointer self, azure_watch_outcome outcome) {
  auto& state = self->state;
  for (const auto& report : outcome.reports) log_report(report);
  for (std::size_t index = 0; index < outcome.triggers.size(); ++index) {
    auto& trigger = outcome.triggers[index];
    const auto& approval = outcome.approvals[index];
    warden_logger()->warn("Azure watcher: drain called for by {}: {}; asks for the deadline {}",
                          trigger_token(trigger.source), trigger.reason,
                          format_rfc3339_utc(trigger.deadline.value_or(wall_time{})));
    self->send(state.wiring.listener, std::move(trigger));
    const auto until =
        std::chrono::duration_cast<duration>(approval.not_before - state.wiring.wall_clock());
    lifecycle_action action{.hook_name = approval.event_id,
                            .heartbeat_timeout = duration::zero(),
                            .expires_at = now_of(self) + until,
                            .wind_down_reserve = duration::zero()};
    self->send(state.wiring.listener, lifecycle_action_pending{std::move(action)});
  }
}

void on_compute(watcher_pointer self, const http_response& response) {
  auto& state = self->state;
  auto parsed =
      response.status_code == http_ok ? parse_azure_compute(response.body) : azure_compute_parse{};
  if (!parsed.compute) {
    const auto why = !response.status_code ? "no answer: " + response.transport_error
                     : response.status_code != http_ok
                         ? "HTTP " + std::to_string(*response.status_code)
                         : parsed.error;
    if (state.compute_failures++ == 0)
      warden_logger()->warn("Azure watcher: instance metadata: {}; asking again", why);
    self->delayed_send(self, backoff(self, state.compute_failures), azure_retry_atom::value);
    return;
  }
  const auto& compute = *parsed.compute;
  warden_logger()->info("Azure watcher: virtual machine {}{}; resource {}", compute.name,
                        compute.scale_set.empty() ? "" : " of scale set " + compute.scale_set,
                        compute.resource_id);
  state.watch.emplace(state.wiring.policy, compute.name);
  self->send(self, azure_poll_atom::value);
}

void on_approval(watcher_pointer self, const http_response& response) {
  auto& state = self->state;
  state.approval_waiting = 0;
  const bool approved = response.status_code == http_ok;
  if (!approved && state.approval_attempts < azure_approval_attempts_max) {
    self->delayed_send(self, backoff(self, state.approval_attempts), azure_retry_atom::value);
    return;
  }
  const auto detail =
      "Azure event " + state.approving +
      (approved ? " approved (StartRequests)"
                : " not approved after " + std::to_string(state.approval_attempts) + " attempts");
  state.approving.clear();
  self->send(state.wiring.listener, lifecycle_action_completed{approved, detail});
}

void on_response(watcher_pointer self, http_response& response) {
  auto& state = self->state;
  if (response.id == 0) return;
  const auto code = response.status_code.value_or(0);
  if (state.wiring.answered && ((code >= 200 && code < 300) || code == 404))
    state.wiring.answered();
  if (response.id == state.approval_waiting) {
    on_approval(self, response);
  } else if (response.id == state.read_waiting) {
    state.read_waiting = 0;
    if (!state.watch) {
      on_compute(self, response);
      return;
    }
    state.first_events_read = false;
    const imds_answer answer{response.status_code, std::move(response.body),
                             std::move(response.transport_error), std::move(response.headers)};
    tell(self, state.watch->on_document(answer, state.wiring.wall_clock()));
  }
}

}  // namespace

azure_watcher_implementation::behavior_type azure_watcher_behavior(watcher_pointer self,
                                                                   azure_watcher_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.http_port && wiring.listener && wiring.poll_interval.count() > 0);
  auto& state = self->state;
  state.random_state = wiring.random_seed;
  state.wiring = std::move(wiring);
  self->monitor(state.wiring.http_port);
  self->set_down_handler([=](const caf::down_msg& down) {
    if (down.source == self->state.wiring.http_port.address()) self->quit(down.reason);
  });
  state.read_waiting = send(self, "GET", azure_compute_path, {}, request_timeout);
  return {
      [=](azure_poll_atom) {
        auto& state = self->state;
        self->delayed_send(self, state.wiring.poll_interval, azure_poll_atom::value);
        if (state.read_waiting != 0) return;  // one read at a time; a tick may be skipped
        state.read_waiting = send(self, "GET", azure_scheduled_events_path, {},
                                  state.first_events_read ? first_events_timeout : request_timeout);
      },
      [=](azure_retry_atom) {
        auto& state = self->state;
        if (!state.watch && state.read_waiting == 0) {
          state.read_waiting = send(self, "GET", azure_compute_path, {}, request_timeout);
        } else if (!state.approving.empty() && state.approval_waiting == 0) {
          send_approval(self);
        }
      },
      // The warden's wind-down: the runner is gone and unregistered; approve the event.
      [=](complete_atom, const std::string& event_id, lifecycle_result) {
        auto& state = self->state;
        if (state.approving == event_id) return;  // already under way
        state.approving = event_id;
        state.approval_attempts = 0;
        if (state.approval_waiting == 0) send_approval(self);
      },
      [=](heartbeat_atom, const std::string&) {},  // Azure takes none
      // Only AWS's transitions call for a lookup; Azure's events come from its own reads.
      [=](const lifecycle_trigger&) {},
      [=](http_response& response) { on_response(self, response); },
  };
}

}  // namespace runwarden
