// See pod_annotator_actor.hpp.
#include "actors/pod_annotator/pod_annotator_actor.hpp"

#include <utility>

#include "src/kubernetes/grace_period_check.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

using annotator_pointer = pod_annotator_implementation::stateful_pointer<pod_annotator_state>;

// A pod object is a few kB; a megabyte of one is a fault.
constexpr std::size_t pod_bytes_max = 1024 * 1024;

instant now_of(annotator_pointer self) {
  return std::chrono::duration_cast<duration>(self->clock().now().time_since_epoch());
}

void feed(annotator_pointer self, const pod_annotation_event& event);

// Sends a request to the pod's own path; false when the token cannot be read.
bool send_to_pod(annotator_pointer self, std::uint64_t id, std::string method, std::string body) {
  auto& state = self->state;
  const auto& address = state.wiring.address;
  const auto token = state.wiring.read_token(address.token_file);
  if (!token || token->empty()) return false;
  http_header_list headers{{"Authorization", "Bearer " + *token}, {"Accept", "application/json"}};
  if (method == "PATCH") headers.emplace_back("Content-Type", merge_patch_content_type);
  self->send(
      state.wiring.http_port,
      http_request{.id = id,
                   .method = std::move(method),
                   .url = address.api_url + pod_path(address.pod_namespace, address.pod_name),
                   .headers = std::move(headers),
                   .body = std::move(body),
                   .timeout = state.wiring.request_timeout,
                   .max_response_bytes = pod_bytes_max,
                   .ca_file = address.ca_file});
  return true;
}

void carry_out(annotator_pointer self, const pod_annotation_effect& effect) {
  if (const auto* note = std::get_if<note_pod_patch>(&effect)) {
    switch (note->level) {
      case report_level::debug:
        warden_logger()->debug("{}", note->text);
        break;
      case report_level::info:
        warden_logger()->info("{}", note->text);
        break;
      case report_level::warning:
        warden_logger()->warn("{}", note->text);
        break;
      case report_level::error:
        warden_logger()->error("{}", note->text);
        break;
    }
    return;
  }
  const auto& patch = std::get<send_pod_patch>(effect);
  auto& state = self->state;
  const auto id = state.next_request_id++;
  state.patch_request = id;
  if (!send_to_pod(self, id, "PATCH", patch.body)) {
    state.patch_request.reset();
    feed(self, patch_answered{
                   std::nullopt, std::nullopt,
                   "cannot read the service account token " + state.wiring.address.token_file});
  }
}

void arm(annotator_pointer self, std::optional<instant> wake_at) {
  if (!wake_at) return;
  auto& armed = self->state.wake_armed_for;
  if (armed && *armed <= *wake_at) return;  // that one fires first and the machine re-arms
  armed = *wake_at;
  self->delayed_send(self, *wake_at - now_of(self), pod_patch_wake_atom::value);
}

void feed(annotator_pointer self, const pod_annotation_event& event) {
  auto result = step(self->state.machine, event, now_of(self));
  if (result.outcome && self->state.wiring.patch_observer)
    self->state.wiring.patch_observer(*result.outcome);
  for (const auto& effect : result.effects) carry_out(self, effect);
  arm(self, result.wake_at);
}

std::optional<std::chrono::seconds> retry_after_of(const http_response& response) {
  for (const auto& [name, value] : response.headers) {
    if (name != "retry-after") continue;
    try {
      const long long seconds = std::stoll(value);
      if (seconds >= 0) return std::chrono::seconds{seconds};
    } catch (const std::exception&) {
      return std::nullopt;  // an HTTP date: the machine's own backoff applies
    }
  }
  return std::nullopt;
}

void warn_on_grace_period(annotator_pointer self, const http_response& response) {
  if (response.status_code != 200) {
    warden_logger()->warn("kubernetes: cannot read the pod {} to check its grace period: {}",
                          self->state.wiring.address.pod_name,
                          response.status_code ? "HTTP " + std::to_string(*response.status_code)
                                               : response.transport_error);
    return;
  }
  const auto finding = check_grace_period(response.body, self->state.wiring.drain_timeout);
  if (!finding.warning.empty()) warden_logger()->warn("{}", finding.warning);
}

void answered(annotator_pointer self, const http_response& response) {
  auto& state = self->state;
  if (state.pod_request == response.id) {
    state.pod_request.reset();
    return warn_on_grace_period(self, response);
  }
  if (state.patch_request != response.id) return;  // an answer from before a restart
  state.patch_request.reset();
  std::string detail = response.transport_error;
  if (response.status_code && (*response.status_code < 200 || *response.status_code >= 300))
    detail = response.body.substr(0, 200);  // the API's Status message, never our token
  feed(self, patch_answered{response.status_code, retry_after_of(response), std::move(detail)});
}

}  // namespace

pod_annotator_implementation::behavior_type pod_annotator_behavior(annotator_pointer self,
                                                                   pod_annotator_wiring wiring) {
  auto& state = self->state;
  state.machine.policy = wiring.policy;
  state.wiring = std::move(wiring);
  const auto& address = state.wiring.address;
  warden_logger()->info("kubernetes: annotating pod {}/{} through {}", address.pod_namespace,
                        address.pod_name, address.api_url);
  const auto id = state.next_request_id++;
  if (send_to_pod(self, id, "GET", {}))
    state.pod_request = id;
  else
    warden_logger()->warn("kubernetes: cannot read the service account token {}",
                          address.token_file);
  self->send(state.wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  return {
      [=](const warden_snapshot& snapshot) {
        feed(self, load_seen{snapshot.status, snapshot.jobs_running});
      },
      [=](const http_response& response) { answered(self, response); },
      [=](pod_patch_wake_atom) {
        auto& armed = self->state.wake_armed_for;
        if (armed && *armed <= now_of(self)) armed.reset();
        feed(self, patch_timer_fired{});
      },
      [=](refused_atom) {
        warden_logger()->error(
            "kubernetes: the warden refused the status subscription; the "
            "pod's annotations follow nothing");
      },
  };
}

}  // namespace runwarden
