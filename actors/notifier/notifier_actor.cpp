// See notifier_actor.hpp. Every lookup and request carries a fresh id; an answer whose id no
// delivery waits for (a stale one) is dropped, which is what keeps one answer from being
// counted twice.
#include "actors/notifier/notifier_actor.hpp"

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/webhook/address_policy.hpp"
#include "src/webhook/body_template.hpp"
#include "src/webhook/delivery_plan.hpp"
#include "src/webhook/header_rules.hpp"
#include "src/webhook/notification_body.hpp"

namespace runwarden {

namespace {

using notifier_pointer = notifier_implementation::stateful_pointer<notifier_state>;
using delivery_iterator = std::map<std::uint64_t, delivery>::iterator;

std::string describe(const delivery& d) {
  return std::string{d.is_callback ? "callback" : "webhook"} + " " +
         std::string{to_string(d.kind)} + " to " + d.target.label();
}

// The delivery waiting for this answer; id 0 is never issued (it marks "waiting for none").
delivery_iterator waiting_for(notifier_pointer self, std::uint64_t answer_id) {
  auto& deliveries = self->state.deliveries;
  if (answer_id == 0) return deliveries.end();
  for (auto it = deliveries.begin(); it != deliveries.end(); ++it)
    if (it->second.waiting_for == answer_id) return it;
  return deliveries.end();
}

// One delivery (or the notify itself, while it adds deliveries) fewer to wait for.
void release(notifier_pointer self, std::uint64_t notification) {
  auto& notifications = self->state.notifications;
  const auto it = notifications.find(notification);
  RUNWARDEN_ASSERT(it != notifications.end() && it->second.deliveries_open > 0);
  if (--it->second.deliveries_open > 0) return;
  if (it->second.requester) self->send(it->second.requester, it->second.settled);
  notifications.erase(it);
}

void finish(notifier_pointer self, delivery_iterator it, bool delivered, const std::string& why) {
  auto& state = self->state;
  const auto& d = it->second;
  const auto notification = d.notification;
  if (delivered) {
    warden_logger()->info("{} delivered after {} attempt(s): {}", describe(d), d.attempts, why);
  } else {
    warden_logger()->warn("{} not delivered after {} attempt(s): {}", describe(d), d.attempts, why);
  }
  if (state.wiring.observer) state.wiring.observer(d.kind, delivered, d.attempts);
  state.deliveries.erase(it);
  release(self, notification);
  if (!state.deliveries.empty()) return;
  for (auto& waiter : state.flush_waiters) waiter.deliver(caf::ok_atom::value);
  state.flush_waiters.clear();
}

void send_request(notifier_pointer self, delivery_iterator it,
                  const std::vector<std::string>& addresses) {
  auto& state = self->state;
  auto& d = it->second;
  if (auto refusal = check_target_addresses(d.target, addresses, state.wiring.allow_link_local)) {
    finish(self, it, false, *refusal);
    return;
  }
  ++d.attempts;
  d.waiting_for = state.next_id++;
  warden_logger()->debug("{}: attempt {}, headers {}", describe(d), d.attempts,
                         loggable_headers(d.headers));
  http_request request{d.waiting_for,
                       d.method,
                       d.target.url,
                       d.headers,
                       d.body,
                       state.wiring.timeout,
                       pins_for(d.target, addresses)};
  request.environment_proxy = state.wiring.environment_proxy;
  self->send(state.wiring.http_port, std::move(request));
}

void start_attempt(notifier_pointer self, delivery_iterator it) {
  auto& state = self->state;
  auto& d = it->second;
  RUNWARDEN_ASSERT(d.waiting_for == 0);
  if (d.target.host_is_address) {
    send_request(self, it, {d.target.host});
    return;
  }
  d.waiting_for = state.next_id++;
  self->send(state.wiring.http_port,
             host_lookup{d.waiting_for, d.target.host, state.wiring.timeout});
}

// After an attempt that got an answer or failed on the way: done, or wait and try again.
void conclude_attempt(notifier_pointer self, delivery_iterator it, std::optional<int> status,
                      const std::string& failure) {
  auto& state = self->state;
  auto& d = it->second;
  d.waiting_for = 0;
  const auto decision =
      decide_after_attempt(state.wiring.limits, d.attempts, status, state.random_state);
  const auto why = failure.empty() ? decision.why : failure + " (" + decision.why + ")";
  if (decision.verdict != delivery_verdict::retry) {
    finish(self, it, decision.verdict == delivery_verdict::delivered, why);
    return;
  }
  const auto delay_ms = std::chrono::duration_cast<std::chrono::milliseconds>(decision.delay);
  warden_logger()->info("{}: attempt {} failed: {}; next in {} ms", describe(d), d.attempts, why,
                        delay_ms.count());
  self->delayed_send(self, decision.delay, delivery_retry_atom::value, it->first);
}

void on_lookup(notifier_pointer self, const host_lookup_result& result) {
  const auto it = waiting_for(self, result.id);
  if (it == self->state.deliveries.end()) return;
  if (result.addresses.empty()) {
    // A failed lookup spends an attempt: the budget must bound a name that never resolves.
    ++it->second.attempts;
    conclude_attempt(self, it, std::nullopt, "host lookup failed: " + result.error);
    return;
  }
  it->second.waiting_for = 0;
  send_request(self, it, result.addresses);
}

void on_response(notifier_pointer self, const http_response& response) {
  const auto it = waiting_for(self, response.id);
  if (it == self->state.deliveries.end()) return;
  conclude_attempt(self, it, response.status_code, response.transport_error);
}

std::string body_for(const notifier_wiring& wiring, notification_kind kind,
                     const warden_snapshot& snapshot) {
  const auto wall_now = wiring.clock();
  const auto chosen = wiring.templates.find(kind);
  if (chosen == wiring.templates.end())
    return notification_body(kind, snapshot, wall_now, wiring.version);
  return render_body(chosen->second,
                     values_of(kind, snapshot, wall_now, wiring.runner, wiring.version));
}

void on_notify(notifier_pointer self, notification_kind kind,
               const std::vector<shutdown_callback>& callbacks, const warden_snapshot& snapshot) {
  auto& state = self->state;
  const auto& wiring = state.wiring;
  const auto body = body_for(wiring, kind, snapshot);
  auto plan = plan_deliveries({.kind = kind,
                               .callbacks = callbacks,
                               .webhook = wiring.webhook,
                               .secret = wiring.secret,
                               .body = body,
                               .version = wiring.version,
                               .webhook_headers = wiring.headers});
  for (const auto& rejected : plan.rejected) {
    warden_logger()->warn("{}", rejected);
    if (wiring.observer) wiring.observer(kind, false, 0);
  }
  // The notify holds itself open while it adds deliveries, since one may finish at once.
  const auto notification = state.next_id++;
  const auto requester = caf::actor_cast<notification_requester_actor>(self->current_sender());
  state.notifications.emplace(notification,
                              open_notification{{kind, snapshot.version}, requester, 1});
  for (auto& planned : plan.deliveries) {
    if (state.deliveries.size() >= pending_deliveries_max) {
      warden_logger()->error("{} {} to {} dropped: {} deliveries already pending", to_string(kind),
                             planned.is_callback ? "callback" : "webhook", planned.target.label(),
                             pending_deliveries_max);
      if (wiring.observer) wiring.observer(kind, false, 0);
      continue;
    }
    const auto id = state.next_id++;
    auto [it, inserted] = state.deliveries.emplace(
        id, delivery{kind, std::move(planned.target), std::move(planned.method),
                     std::move(planned.headers), std::move(planned.body), planned.is_callback, 0, 0,
                     notification});
    RUNWARDEN_ASSERT(inserted);
    ++state.notifications[notification].deliveries_open;
    start_attempt(self, it);
  }
  release(self, notification);
}

caf::result<caf::ok_atom> on_flush(notifier_pointer self) {
  auto& state = self->state;
  if (state.deliveries.empty()) return caf::ok_atom::value;
  if (state.flush_waiters.size() >= flush_waiters_max)
    return caf::make_error(caf::sec::runtime_error, "too many flush requests waiting");
  state.flush_waiters.push_back(self->make_response_promise<caf::ok_atom>());
  return state.flush_waiters.back();
}

// Without its port the notifier can deliver nothing more; giving up lets flush answer.
void on_port_down(notifier_pointer self, const caf::down_msg& down) {
  if (down.source != self->state.wiring.http_port.address()) return;
  while (!self->state.deliveries.empty())
    finish(self, self->state.deliveries.begin(), false, "the HTTP port is gone");
}

}  // namespace

notifier_implementation::behavior_type notifier_behavior(notifier_pointer self,
                                                         notifier_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.http_port);
  RUNWARDEN_ASSERT(wiring.limits.attempts_max >= 1);
  self->state.random_state = wiring.random_seed;
  self->state.wiring = std::move(wiring);
  self->monitor(self->state.wiring.http_port);
  self->set_down_handler([=](const caf::down_msg& down) { on_port_down(self, down); });
  return {
      [=](notify_atom, notification_kind kind, const std::vector<shutdown_callback>& callbacks,
          const warden_snapshot& snapshot) { on_notify(self, kind, callbacks, snapshot); },
      [=](const host_lookup_result& result) { on_lookup(self, result); },
      [=](const http_response& response) { on_response(self, response); },
      [=](delivery_retry_atom, std::uint64_t id) {
        const auto it = self->state.deliveries.find(id);
        if (it != self->state.deliveries.end() && it->second.waiting_for == 0)
          start_attempt(self, it);
      },
      [=](flush_atom) { return on_flush(self); },
  };
}

}  // namespace runwarden
