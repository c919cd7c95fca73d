// See gcp_watcher_actor.hpp. Every request carries a fresh id; an answer whose id is not the
// one awaited on its key (a stale one) is dropped, so one answer is never used twice.
#include "actors/gcp_watcher/gcp_watcher_actor.hpp"

#include <algorithm>

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

using watcher_pointer = gcp_watcher_implementation::stateful_pointer<gcp_watcher_state>;

void log_report(const watch_report& report) {
  auto logger = warden_logger();
  switch (report.level) {
    case report_level::debug:
      logger->debug("Google Cloud watcher: {}", report.text);
      break;
    case report_level::info:
      logger->info("Google Cloud watcher: {}", report.text);
      break;
    case report_level::warning:
      logger->warn("Google Cloud watcher: {}", report.text);
      break;
    case report_level::error:
      logger->error("Google Cloud watcher: {}", report.text);
      break;
  }
}

bool is_preempted(watcher_pointer self, const gcp_watched_key& key) {
  return &key == &self->state.preempted;
}

const http_port_actor& port_of(watcher_pointer self, const gcp_watched_key& key) {
  return is_preempted(self, key) ? self->state.wiring.preempted_port
                                 : self->state.wiring.maintenance_port;
}

std::uint64_t send_request(watcher_pointer self, const http_port_actor& port,
                           metadata_request request) {
  const auto id = self->state.next_id++;
  self->send(port, http_request{id,
                                "GET",
                                std::move(request.url),
                                std::move(request.headers),
                                {},
                                request.timeout,
                                {},
                                gcp_value_bytes_max});
  return id;
}

void send(watcher_pointer self, gcp_watched_key& key, metadata_request request) {
  RUNWARDEN_ASSERT(key.waiting_for == 0);
  key.waiting_for = send_request(self, port_of(self, key), std::move(request));
}

void tell(watcher_pointer self, watch_outcome outcome) {
  for (const auto& report : outcome.reports) log_report(report);
  if (!outcome.trigger) return;
  const auto& trigger = *outcome.trigger;
  warden_logger()->warn(
      "Google Cloud watcher: drain called for by {}: {}; asks for the deadline {}",
      trigger_token(trigger.source), trigger.reason,
      format_rfc3339_utc(trigger.deadline.value_or(wall_time{})));
  self->send(self->state.wiring.listener, std::move(*outcome.trigger));
}

void on_key_answer(watcher_pointer self, gcp_watched_key& key, const imds_answer& answer) {
  key.waiting_for = 0;
  auto step = key.watch->answer_arrived(answer);
  for (const auto& report : step.reports) log_report(report);
  auto& state = self->state;
  if (step.changed_value) {
    const auto now = state.wiring.wall_clock();
    tell(self, is_preempted(self, key)
                   ? state.notices->on_preempted(*step.changed_value, now)
                   : state.notices->on_maintenance_event(*step.changed_value, now));
  }
  if (step.request) {
    send(self, key, std::move(*step.request));
  } else {
    RUNWARDEN_ASSERT(step.retry_after);
    self->delayed_send(
        self, *step.retry_after, gcp_retry_atom::value,
        std::string{is_preempted(self, key) ? gcp_preempted_key : gcp_maintenance_event_key});
  }
}

// The identity keys are read once each, one after the other, before the maintenance key's
// wait takes its port; a key that does not answer is left out of the log line.
void read_next_identity_key(watcher_pointer self) {
  auto& state = self->state;
  if (state.identity_key == std::size(gcp_identity_keys)) {
    warden_logger()->info("Google Cloud watcher: {}", describe(state.identity));
    send(self, state.maintenance, state.maintenance.watch->start());
    return;
  }
  const auto key = gcp_identity_keys[state.identity_key];
  state.identity_waiting =
      send_request(self, state.wiring.maintenance_port,
                   {state.wiring.endpoint + std::string{gcp_metadata_path} + std::string{key},
                    {{std::string{gcp_flavor_header}, std::string{gcp_flavor}}},
                    std::chrono::seconds{2}});
}

void on_identity_answer(watcher_pointer self, const http_response& response) {
  auto& state = self->state;
  state.identity_waiting = 0;
  std::string value;
  const bool flavored =
      std::any_of(response.headers.begin(), response.headers.end(), [](const auto& header) {
        return header.first == "metadata-flavor" && header.second == gcp_flavor;
      });
  if (response.status_code == 200 && flavored) value = response.body;
  switch (state.identity_key++) {
    case 0:
      state.identity.instance_id = std::move(value);
      break;
    case 1:
      state.identity.name = std::move(value);
      break;
    case 2:
      state.identity.zone_path = std::move(value);
      break;
    default:
      state.identity.created_by = std::move(value);
      break;
  }
  read_next_identity_key(self);
}

void on_response(watcher_pointer self, http_response& response) {
  auto& state = self->state;
  if (response.id == 0) return;
  const auto code = response.status_code.value_or(0);
  if (state.wiring.answered && ((code >= 200 && code < 300) || code == 404))
    state.wiring.answered();
  if (response.id == state.identity_waiting) {
    on_identity_answer(self, response);
    return;
  }
  imds_answer answer{response.status_code, std::move(response.body),
                     std::move(response.transport_error), std::move(response.headers)};
  if (response.id == state.preempted.waiting_for) {
    on_key_answer(self, state.preempted, answer);
  } else if (response.id == state.maintenance.waiting_for) {
    on_key_answer(self, state.maintenance, answer);
  }
}

metadata_key_watch_config key_config(const gcp_watcher_wiring& wiring, std::string_view key,
                                     std::uint64_t seed) {
  return {.endpoint = wiring.endpoint,
          .key = std::string{key},
          .wait_timeout = wiring.wait_timeout,
          .random_seed = seed};
}

}  // namespace

gcp_watcher_implementation::behavior_type gcp_watcher_behavior(watcher_pointer self,
                                                               gcp_watcher_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.preempted_port && wiring.maintenance_port && wiring.listener);
  auto& state = self->state;
  state.preempted.watch.emplace(key_config(wiring, gcp_preempted_key, wiring.random_seed));
  state.maintenance.watch.emplace(
      key_config(wiring, gcp_maintenance_event_key, wiring.random_seed + 1));
  state.notices.emplace(wiring.notices);
  state.wiring = std::move(wiring);
  for (const auto& port : {state.wiring.preempted_port, state.wiring.maintenance_port})
    self->monitor(port);
  self->set_down_handler([=](const caf::down_msg& down) {
    const auto& ports = self->state.wiring;
    if (down.source == ports.preempted_port.address() ||
        down.source == ports.maintenance_port.address())
      self->quit(down.reason);
  });
  // The preemption key first: of the two notices it leaves the least time.
  send(self, state.preempted, state.preempted.watch->start());
  read_next_identity_key(self);
  return {
      [=](gcp_retry_atom, const std::string& key) {
        auto& watched = key == gcp_preempted_key ? self->state.preempted : self->state.maintenance;
        send(self, watched, watched.watch->retry_due());
      },
      [=](http_response& response) { on_response(self, response); },
  };
}

}  // namespace runwarden
