// See metrics_poller_actor.hpp.
#include "actors/metrics_poller/metrics_poller_actor.hpp"

#include <algorithm>
#include <limits>

#include "messages/warden_messages.hpp"
#include "src/logging/logging.hpp"
#include "src/scrape/runner_scrape.hpp"

namespace runwarden {

namespace {

using poller_pointer = metrics_poller_implementation::stateful_pointer<metrics_poller_state>;

// Runners count jobs in 64 bits; the drain machine in 32. No runner runs four billion.
std::optional<std::uint32_t> narrowed(std::optional<std::uint64_t> jobs) {
  if (!jobs) return std::nullopt;
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(*jobs, std::numeric_limits<std::uint32_t>::max()));
}

void scrape(poller_pointer self) {
  auto& state = self->state;
  const auto id = state.next_request_id++;
  state.in_flight = id;
  self->send(state.wiring.http_port,
             http_request{.id = id,
                          .method = "GET",
                          .url = state.wiring.url,
                          .headers = {{"Accept", "text/plain; version=0.0.4"}},
                          .timeout = state.wiring.timeout,
                          // A runner's page is a few kB; ten MB of it is a fault, not load.
                          .max_response_bytes = 4 * 1024 * 1024});
}

void tell(poller_pointer self, runner_load_observed load) {
  auto& state = self->state;
  if (state.told == load) return;
  state.told = load;
  self->send(state.wiring.listener, std::move(load));
}

void judge(poller_pointer self, const http_response& response) {
  auto& state = self->state;
  const auto scraped = judge_runner_scrape(response, state.wiring.url);
  if (!scraped.load) {
    if (scraped.error != state.last_error) warden_logger()->warn("{}", scraped.error);
    state.last_error = scraped.error;
    tell(self, {});  // unknown, and the runner's state with it
    return;
  }
  if (!state.last_error.empty()) warden_logger()->info("the runner's metrics answer again");
  state.last_error.clear();
  state.answered = true;
  for (const auto& problem : scraped.load->problems)
    warden_logger()->debug("runner metrics: {}", problem);
  tell(self, {narrowed(scraped.load->running_jobs), scraped.load->process_state_text});
}

// Quick tries until the runner first answers (it listens a moment after it starts), then
// the interval.
std::chrono::milliseconds next_wait(metrics_poller_state& state) {
  const auto interval = state.draining && state.wiring.interval_draining
                            ? *state.wiring.interval_draining
                            : state.wiring.interval;
  if (state.answered || state.quick_retries >= first_answer_retries_max ||
      interval <= first_answer_retry)
    return interval;
  ++state.quick_retries;
  return first_answer_retry;
}

void schedule_poll(poller_pointer self) {
  auto& state = self->state;
  self->delayed_send(self, next_wait(state), scrape_due_atom::value, ++state.poll_generation);
}

// A drain just began: scrape now (unless one is under way, whose answer schedules the next
// at the draining interval), and forget the poll scheduled at the longer interval.
void follow(poller_pointer self, const warden_snapshot& snapshot) {
  auto& state = self->state;
  const bool draining = snapshot.status == warden_status::shutting_down;
  if (draining == state.draining) return;
  state.draining = draining;
  if (!draining || state.in_flight) return;
  ++state.poll_generation;
  scrape(self);
}

}  // namespace

metrics_poller_implementation::behavior_type metrics_poller_behavior(poller_pointer self,
                                                                     metrics_poller_wiring wiring) {
  self->state.wiring = std::move(wiring);
  if (self->state.wiring.interval_draining && self->state.wiring.listener)
    self->send(self->state.wiring.listener, subscribe_atom::value, status_subscriber_actor{self});
  scrape(self);
  return {
      [=](const http_response& response) {
        auto& state = self->state;
        if (state.in_flight != response.id) return;  // an answer from before a restart
        state.in_flight.reset();
        judge(self, response);
        schedule_poll(self);
      },
      [=](scrape_due_atom, std::uint64_t generation) {
        if (generation == self->state.poll_generation) scrape(self);
      },
      [=](const warden_snapshot& snapshot) { follow(self, snapshot); },
      // Past the warden's subscriber limit the poller keeps its one interval.
      [=](refused_atom) {},
  };
}

}  // namespace runwarden
