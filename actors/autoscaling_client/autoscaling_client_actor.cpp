// See autoscaling_client_actor.hpp. Every HTTP request carries a fresh id and a continuation
// kept under it; the port answers each request exactly once, so each continuation runs once.
#include "actors/autoscaling_client/autoscaling_client_actor.hpp"

#include <utility>

#include "src/aws/autoscaling_http_request.hpp"
#include "src/aws/credentials_refresh.hpp"
#include "src/aws/imds/imds_documents.hpp"
#include "src/aws/imds_role_credentials.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

using client_pointer =
    autoscaling_client_implementation::stateful_pointer<autoscaling_client_state>;
using body_handler = std::function<void(const std::string& body, const std::string& problem)>;

// Auto Scaling answers are small; a page of DescribeAutoScalingGroups is the largest.
constexpr std::size_t answer_bytes_max = 1024 * 1024;
constexpr std::size_t imds_bytes_max = 16 * 1024;
constexpr double retry_jitter = 0.5;

instant now_of(client_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

void send(client_pointer self, http_request request,
          std::function<void(const http_response&)> on_answer) {
  auto& state = self->state;
  request.id = state.next_id++;
  state.answers_awaited.emplace(request.id, std::move(on_answer));
  self->send(state.wiring.http_port, std::move(request));
}

void on_http_response(client_pointer self, const http_response& response) {
  auto& awaited = self->state.answers_awaited;
  const auto found = awaited.find(response.id);
  if (found == awaited.end()) return;
  auto on_answer = std::move(found->second);
  awaited.erase(found);
  on_answer(response);
}

std::string problem_of(const http_response& response, std::string_view what) {
  if (!response.status_code) return std::string{what} + ": no answer: " + response.transport_error;
  return std::string{what} + ": HTTP " + std::to_string(*response.status_code);
}

// IMDSv2: a token first when none is usable (dropped on 401, then fetched once more).
void with_imds_token(client_pointer self, std::function<void(const std::string&)> next) {
  auto& state = self->state;
  if (state.token.usable(now_of(self))) return next({});
  const auto asked = imds_token_ttl_max;
  http_request put{.method = "PUT",
                   .url = state.wiring.imds_endpoint + std::string{imds_token_path},
                   .headers = {{std::string{imds_token_ttl_header}, std::to_string(asked.count())}},
                   .timeout = state.wiring.attempt_timeout,
                   .max_response_bytes = imds_bytes_max};
  send(self, std::move(put), [=](const http_response& response) {
    if (response.status_code != 200) return next(problem_of(response, "the IMDSv2 token"));
    std::optional<std::string> ttl;
    for (const auto& [name, value] : response.headers)
      if (name == "x-aws-ec2-metadata-token-ttl-seconds") ttl = value;
    auto accepted = accept_imds_token(response.body, ttl, asked);
    if (!accepted.token) return next("the IMDSv2 token: " + accepted.error);
    self->state.token.store(std::move(*accepted.token), accepted.ttl, now_of(self));
    next({});
  });
}

void imds_read(client_pointer self, const std::string& path, body_handler done,
               bool token_refetched = false) {
  with_imds_token(self, [=](const std::string& problem) {
    if (!problem.empty()) return done({}, problem);
    auto& state = self->state;
    const auto token = state.token.usable(now_of(self));
    http_request get{.method = "GET",
                     .url = state.wiring.imds_endpoint + path,
                     .headers = {{std::string{imds_token_header}, std::string{token.value_or("")}}},
                     .timeout = state.wiring.attempt_timeout,
                     .max_response_bytes = imds_bytes_max};
    send(self, std::move(get), [=](const http_response& response) {
      if (response.status_code == 401 && !token_refetched) {
        self->state.token.drop();
        return imds_read(self, path, done, true);
      }
      if (response.status_code != 200) return done({}, problem_of(response, path));
      done(response.body, {});
    });
  });
}

// Runs `waiter` once the value is there; the first waiter starts the fetch, later ones queue.
bool join_waiters(std::vector<readiness_waiter>& waiters, readiness_waiter waiter) {
  waiters.push_back(std::move(waiter));
  return waiters.size() == 1;
}

void release_waiters(std::vector<readiness_waiter>& waiters, const std::string& problem) {
  auto released = std::move(waiters);
  waiters.clear();
  for (const auto& waiter : released) waiter(problem);
}

void with_identity(client_pointer self, readiness_waiter next) {
  auto& state = self->state;
  if (state.identity) return next({});
  if (!join_waiters(state.identity_waiters, std::move(next))) return;
  imds_read(self, std::string{imds_identity_path},
            [=](const std::string& body, const std::string& problem) {
              auto& state = self->state;
              if (!problem.empty()) return release_waiters(state.identity_waiters, problem);
              auto parsed = parse_instance_identity(body);
              if (parsed.identity) state.identity = std::move(parsed.identity);
              release_waiters(state.identity_waiters, parsed.error);
            });
}

void store_role_credentials(client_pointer self, const std::string& body) {
  auto& state = self->state;
  auto parsed = parse_role_credentials(body);
  if (!parsed.role) return release_waiters(state.credentials_waiters, parsed.error);
  const auto review =
      review_fetched_credentials(parsed.role->expiration, state.wiring.wall_clock());
  if (!review.skew_error.empty())
    warden_logger()->error("{}: {}", state.wiring.service.log_name, review.skew_error);
  state.role_credentials = std::move(parsed.role->credentials);
  state.role_refresh_at = review.next_refresh;
  release_waiters(state.credentials_waiters, {});
}

void with_credentials(client_pointer self, readiness_waiter next) {
  auto& state = self->state;
  if (state.wiring.fixed_credentials) return next({});
  if (state.role_credentials && state.wiring.wall_clock() < state.role_refresh_at) return next({});
  if (!join_waiters(state.credentials_waiters, std::move(next))) return;
  const std::string list{imds_role_list_path};
  imds_read(self, list, [=](const std::string& listing, const std::string& problem) {
    auto& waiters = self->state.credentials_waiters;
    if (!problem.empty()) return release_waiters(waiters, "the instance role: " + problem);
    const auto role = first_role_name(listing);
    if (!role)
      return release_waiters(waiters, "the instance has no instance profile (" + list +
                                          " names no role) and no other credentials are set");
    imds_read(self, list + *role, [=](const std::string& body, const std::string& problem) {
      if (!problem.empty())
        return release_waiters(self->state.credentials_waiters, "the instance role: " + problem);
      store_role_credentials(self, body);
    });
  });
}

// Region, endpoint and credentials, in that order: the region may need the identity.
void prepare(client_pointer self, readiness_waiter next) {
  auto& state = self->state;
  if (!state.wiring.region && !state.identity)
    return with_identity(self, [=](const std::string& problem) {
      if (!problem.empty()) return next("the region (from the identity document): " + problem);
      prepare(self, next);
    });
  if (!state.endpoint) {
    const auto region = state.wiring.region ? *state.wiring.region : state.identity->region;
    auto resolved = resolve_query_endpoint(state.wiring.environment, region, state.wiring.service);
    if (!resolved.endpoint) return next(resolved.error);
    warden_logger()->info("{}: calls go to {} ({})", state.wiring.service.log_name,
                          resolved.endpoint->url, resolved.endpoint->source);
    state.endpoint = std::move(resolved.endpoint);
  }
  with_credentials(self, std::move(next));
}

const aws_credentials& current_credentials(client_pointer self) {
  auto& state = self->state;
  return state.wiring.fixed_credentials ? *state.wiring.fixed_credentials : *state.role_credentials;
}

autoscaling_outcome outcome_of(const pending_autoscaling_call& call, autoscaling_failure failure) {
  return {call.call.action, false, {}, std::move(failure), call.attempts};
}

void finish(client_pointer self, std::uint64_t id, autoscaling_outcome outcome) {
  auto& calls = self->state.calls;
  const auto found = calls.find(id);
  if (found == calls.end()) return;
  found->second->promise.deliver(std::move(outcome));
  calls.erase(found);
}

// After a failed attempt: again after a backoff while the budget lasts, else the failure.
void after_failure(client_pointer self, std::uint64_t id, autoscaling_failure failure) {
  auto& state = self->state;
  auto& call = *state.calls.at(id);
  if (failure.kind == autoscaling_failure_kind::credentials_rejected)
    state.role_credentials.reset();  // fixed credentials stay wrong: retrying cannot help
  const bool retryable = failure.kind == autoscaling_failure_kind::retry_with_backoff ||
                         (failure.kind == autoscaling_failure_kind::credentials_rejected &&
                          !state.wiring.fixed_credentials);
  const auto wait =
      capped_backoff(state.wiring.retry_initial, state.wiring.retry_max, call.attempts,
                     retry_jitter, next_unit_random(state.random_state));
  if (!retryable || now_of(self) + wait > call.deadline) {
    const auto level = failure.kind == autoscaling_failure_kind::access_denied
                           ? spdlog::level::err
                           : spdlog::level::warn;
    if (failure.kind != autoscaling_failure_kind::already_done)
      warden_logger()->log(level, "{}: {} (attempt {})", state.wiring.service.log_name,
                           failure.description, call.attempts);
    return finish(self, id, outcome_of(call, std::move(failure)));
  }
  warden_logger()->warn("{}: {} (attempt {}); again in {} ms", state.wiring.service.log_name,
                        failure.description, call.attempts,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  self->delayed_send(self, wait, call_retry_atom::value, id);
}

void attempt(client_pointer self, std::uint64_t id) {
  prepare(self, [=](const std::string& problem) {
    auto& state = self->state;
    auto& call = *state.calls.at(id);
    if (!problem.empty()) {
      ++call.attempts;
      return after_failure(
          self, id,
          {autoscaling_failure_kind::retry_with_backoff, {}, call.call.action + ": " + problem});
    }
    const auto region = state.wiring.region ? *state.wiring.region : state.identity->region;
    auto signed_request =
        sign_autoscaling_call(call.call, *state.endpoint, current_credentials(self), region,
                              state.wiring.wall_clock(), state.wiring.service.signing_name);
    http_request request{.method = std::move(signed_request.method),
                         .url = std::move(signed_request.url),
                         .headers = std::move(signed_request.headers),
                         .body = std::move(signed_request.body),
                         .timeout = state.wiring.attempt_timeout,
                         .max_response_bytes = answer_bytes_max};
    send(self, std::move(request), [=](const http_response& response) {
      auto& call = *self->state.calls.at(id);
      ++call.attempts;
      const auto status = response.status_code.value_or(0);
      if (status >= 200 && status <= 299)
        return finish(self, id, {call.call.action, true, response.body, {}, call.attempts});
      if (!response.status_code)
        return after_failure(self, id,
                             {autoscaling_failure_kind::retry_with_backoff,
                              {},
                              call.call.action + ": no answer: " + response.transport_error});
      after_failure(self, id, classify_autoscaling_failure(call.call, status, response.body));
    });
  });
}

}  // namespace

autoscaling_client_implementation::behavior_type autoscaling_client_behavior(
    client_pointer self, autoscaling_client_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.http_port);
  auto& state = self->state;
  state.random_state = wiring.random_seed;
  state.wiring = std::move(wiring);
  return {
      [=](autoscaling_call_atom, autoscaling_call& call,
          std::chrono::milliseconds budget) -> caf::result<autoscaling_outcome> {
        auto pending = std::make_shared<pending_autoscaling_call>();
        pending->call = std::move(call);
        pending->promise = self->make_response_promise<autoscaling_outcome>();
        pending->deadline = now_of(self) + budget;
        const auto id = self->state.next_id++;
        self->state.calls.emplace(id, pending);
        attempt(self, id);
        return pending->promise;
      },
      [=](call_retry_atom, std::uint64_t id) {
        if (self->state.calls.contains(id)) attempt(self, id);
      },
      [=](identity_atom) -> caf::result<instance_identity> {
        auto promise = self->make_response_promise<instance_identity>();
        with_identity(self, [=](const std::string& problem) mutable {
          if (problem.empty())
            promise.deliver(*self->state.identity);
          else
            promise.deliver(
                caf::make_error(caf::sec::runtime_error, "the instance identity: " + problem));
        });
        return promise;
      },
      [=](const http_response& response) { on_http_response(self, response); },
  };
}

}  // namespace runwarden
