// See metrics_publisher_actor.hpp. One tick per interval, armed again by each tick, so a slow
// answer never bunches ticks up; at most one PutMetricData and one group lookup in flight.
#include "actors/metrics_publisher/metrics_publisher_actor.hpp"

#include <utility>
#include <vector>

#include "src/aws/autoscaling_answers.hpp"
#include "src/aws/cloudwatch_requests.hpp"
#include "src/logging/logging.hpp"
#include "src/scaling/job_slots.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using publisher_pointer =
    metrics_publisher_implementation::stateful_pointer<metrics_publisher_state>;

// Busy and total: the datums of one point in time.
constexpr std::uint64_t datums_per_point = 2;
// The client tries each attempt with its own timeout; past the budget plus this margin its
// answer is given up as lost (and the next tick may send again).
constexpr std::chrono::seconds client_answer_margin{15};

bool throttling(const autoscaling_failure& failure) {
  return failure.code == "Throttling" || failure.code == "ThrottlingException" ||
         failure.code == "RequestLimitExceeded";
}

publish_outcome outcome_of(const autoscaling_outcome& outcome) {
  if (outcome.succeeded) return publish_outcome::sent;
  if (throttling(outcome.failure)) return publish_outcome::throttled;
  switch (outcome.failure.kind) {
    case autoscaling_failure_kind::access_denied:
    case autoscaling_failure_kind::credentials_rejected:
    case autoscaling_failure_kind::failed:
      return publish_outcome::rejected;
    default:
      return publish_outcome::failed;
  }
}

// Counts the point; a failure is logged when it is not the same as the last outcome, so a
// CloudWatch that stays unreachable costs one line, not one per interval.
void settle(publisher_pointer self, publish_outcome outcome, const std::string& why) {
  auto& state = self->state;
  if (state.wiring.observer) state.wiring.observer(outcome, datums_per_point);
  if (state.last_outcome != outcome) {
    if (outcome == publish_outcome::sent)
      warden_logger()->info("cloudwatch: job slots of group {} are published to {} every {}s",
                            *state.group_name, state.wiring.metric_namespace,
                            state.wiring.interval.count() / 1000.0);
    else
      warden_logger()->warn("cloudwatch: a job slots point was dropped ({}): {}", label_of(outcome),
                            why);
  }
  state.last_outcome = outcome;
}

void find_group(publisher_pointer self) {
  auto& state = self->state;
  if (state.group_name || state.finding_group) return;
  state.finding_group = true;
  const auto budget = state.wiring.interval;
  self->request(state.wiring.autoscaling_client, budget + client_answer_margin,
                identity_atom::value)
      .then(
          [=](const instance_identity& identity) {
            const auto id = identity.instance_id;
            self->request(self->state.wiring.autoscaling_client, budget + client_answer_margin,
                          autoscaling_call_atom::value, describe_auto_scaling_instances({id}),
                          budget)
                .then(
                    [=](const autoscaling_outcome& outcome) {
                      self->state.finding_group = false;
                      if (!outcome.succeeded) return;  // the client logged it
                      auto answer = parse_describe_auto_scaling_instances(outcome.body);
                      if (!answer.error.empty() || answer.items.empty()) {
                        warden_logger()->warn(
                            "cloudwatch: instance {} is in no Auto Scaling "
                            "group {}",
                            id, answer.error);
                        return;
                      }
                      self->state.group_name = answer.items.front().group_name;
                    },
                    [=](caf::error&) { self->state.finding_group = false; });
          },
          [=](caf::error&) { self->state.finding_group = false; });
}

std::vector<metric_datum> datums_of(const metrics_publisher_state& state, job_slots slots) {
  const auto now = state.wiring.wall_clock();
  const std::vector<std::pair<std::string, std::string>> dimensions{
      {std::string{group_dimension}, *state.group_name}};
  return {{std::string{job_slots_busy_metric}, dimensions, now, slots.busy},
          {std::string{job_slots_total_metric}, dimensions, now, slots.total}};
}

void publish(publisher_pointer self) {
  auto& state = self->state;
  const auto slots = job_slots_of(state.status, state.jobs_running, state.wiring.capacity);
  if (!slots) return;  // nothing to count: no point
  if (state.call_in_flight)
    return settle(self, publish_outcome::overlapped, "the previous point is still being sent");
  if (!state.group_name) {
    find_group(self);
    return settle(self, publish_outcome::failed,
                  "this instance's Auto Scaling group is not "
                  "known yet");
  }
  state.call_in_flight = true;
  const auto budget = state.wiring.interval;
  self->request(state.wiring.cloudwatch_client, budget + client_answer_margin,
                autoscaling_call_atom::value,
                put_metric_data(state.wiring.metric_namespace, datums_of(state, *slots)), budget)
      .then(
          [=](const autoscaling_outcome& outcome) {
            self->state.call_in_flight = false;
            settle(self, outcome_of(outcome), outcome.failure.description);
          },
          [=](caf::error& error) {
            self->state.call_in_flight = false;
            settle(self, publish_outcome::failed,
                   "no answer from the CloudWatch client: " + self->system().render(error));
          });
}

}  // namespace

metrics_publisher_implementation::behavior_type metrics_publisher_behavior(
    publisher_pointer self, metrics_publisher_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.interval >= std::chrono::seconds{1} && wiring.capacity > 0);
  auto& state = self->state;
  state.wiring = std::move(wiring);
  self->send(state.wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  self->delayed_send(self, state.wiring.interval, metrics_publisher_tick_atom::value);
  find_group(self);  // now, so that the first point has its dimension
  return {
      [=](const warden_snapshot& snapshot) {
        auto& state = self->state;
        state.status = snapshot.status;
        state.jobs_running = snapshot.jobs_running;
        if (!state.group_name && !snapshot.auto_scaling_group.empty())
          state.group_name = snapshot.auto_scaling_group;
        if (snapshot.status == warden_status::gone) state.stopped = true;
      },
      [=](metrics_publisher_tick_atom) {
        if (self->state.stopped) return;
        self->delayed_send(self, self->state.wiring.interval, metrics_publisher_tick_atom::value);
        publish(self);
      },
      [=](refused_atom) {
        warden_logger()->error(
            "cloudwatch: the warden refused the status subscription; no "
            "job slots are published");
      },
  };
}

}  // namespace runwarden
