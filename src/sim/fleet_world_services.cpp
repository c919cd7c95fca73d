// The services an instance's runwarden talks to, as the fleet world plays them: its
// instance metadata (IMDSv2, Azure's or Google's), its runner's metrics page, GitLab's or
// GitHub's runner API and the Auto Scaling API, each behind the scenario's faults (latency,
// errors, throttling, busy answers, lost answers) while they last.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "src/sim/autoscaling_service.hpp"
#include "src/sim/azure_metadata_service.hpp"
#include "src/sim/fleet_world.hpp"
#include "src/sim/gcp_metadata_service.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

constexpr std::string_view imds_host = "http://imds.sim";
constexpr std::string_view metrics_host = "http://runner.sim";
constexpr std::string_view gitlab_host = "http://gitlab.sim";
constexpr std::string_view github_host = "http://github.sim";
constexpr std::string_view autoscaling_host = "http://autoscaling.sim";
constexpr std::string_view github_runners_path = "/repos/sim/fleet/actions/runners";

http_response status(int code, std::string body = {}) {
  return {.status_code = code, .body = std::move(body)};
}

std::string metrics_page(const sim_runner& runner, std::uint32_t concurrency) {
  return fmt::format(
      "# TYPE gitlab_runner_jobs gauge\n"
      "gitlab_runner_jobs{{executor_stage=\"step_script\",runner=\"sim\","
      "stage=\"build\",state=\"running\"}} {}\n"
      "# TYPE gitlab_runner_concurrent gauge\ngitlab_runner_concurrent {}\n",
      runner.jobs.size(), concurrency);
}

http_response github_busy(const sim_instance& instance) {
  return status(422, fmt::format("{{\"message\":\"Bad request - Runner \\\"{}\\\" is still "
                                 "running a job\\\"\",\"documentation_url\":"
                                 "\"https://docs.github.com/rest\"}}",
                                 instance.id));
}

// The runner's registration deleted: 204, as both GitLab and GitHub answer.
http_response unregister(sim_instance& instance, sim_seconds now) {
  instance.registered = false;
  instance.unregistered_at = now;
  instance.lane.marks.push_back({now, "unregistered"});
  return status(204);
}

std::string_view service_of(std::string_view url) {
  return url.starts_with(imds_host)            ? "imds"
         : url.starts_with(metrics_host)       ? "metrics"
         : url.starts_with(gitlab_host)        ? "gitlab"
         : url.starts_with(github_host)        ? "github"
         : url.starts_with(autoscaling_host)   ? "autoscaling"
         : url.starts_with(sim_azure_endpoint) ? "azure"
         : url.starts_with(sim_gcp_endpoint)   ? "gcp"
                                               : "unknown";
}

// The instance metadata services, each cloud's: their faults are faults.imds_error_rate's.
bool is_metadata(std::string_view service) {
  return service == "imds" || service == "azure" || service == "gcp";
}

// The API call a request is, for the books ("CompleteLifecycleAction", "GitLab DELETE");
// empty for instance metadata and metrics, which are polled rather than called.
std::string api_call_of(const http_request& request) {
  if (request.url.starts_with(autoscaling_host)) return autoscaling_action(request.body);
  if (request.url.starts_with(gitlab_host)) return "GitLab " + request.method;
  if (request.url.starts_with(github_host))
    return "GitHub " + request.method + (request.method == "GET" ? " runners" : "");
  if (request.url.starts_with(sim_azure_endpoint) && request.method == "POST")
    return "Azure StartRequests";
  return {};
}

// An answer a client retries: lost, 5xx, throttled, rate-limited or busy.
bool asks_for_retry(const world_answer& answer) {
  if (!answer.response || !answer.response->status_code) return true;
  const int code = *answer.response->status_code;
  return code >= 500 || code == 429 || code == 422 ||
         answer.response->body.find("<Code>Throttling</Code>") != std::string::npos;
}

}  // namespace

std::chrono::system_clock::time_point sim_wall_time(sim_seconds at) {
  // The simulation's wall clock starts at a fixed date, so spot notices print the same.
  return std::chrono::sys_days{std::chrono::year{2026} / 1 / 1} +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(
             std::chrono::duration<double>{at});
}

world_answer fleet_world::answer(std::size_t index, const http_request& request, sim_seconds now,
                                 held_responder later) {
  auto result = serve(index, request, now, later);
  const auto call = api_call_of(request);
  if (call.empty()) return result;
  ++books_.api_calls[call];
  auto& retry_due = retry_due_[{index, call}];
  if (retry_due) ++books_.retries[call];
  retry_due = asks_for_retry(result);
  return result;
}

// While faults last: a delay on every answer but the metrics page, and some requests lost
// (on the way there, or on the way back after the service acted on them), failed,
// throttled or refused as busy. A Google metadata read waiting for a change is held.
world_answer fleet_world::serve(std::size_t index, const http_request& request, sim_seconds now,
                                const held_responder& later) {
  const auto service = service_of(request.url);
  if (!faulty(now) || service == "metrics") return serve_healthy(index, request, now, later, {});
  auto& instance = instances_[index];
  const auto& faults = scenario_.faults;
  const std::chrono::milliseconds delay{
      static_cast<std::int64_t>(draw() * static_cast<double>(faults.latency_max.count()))};
  if (draw() < faults.drop_rate) {
    if (draw() < 0.5) {
      ++books_.faults["dropped"];
    } else {
      ++books_.faults["answer_lost"];
      (void)respond(index, service, request, now);
    }
    return {std::nullopt, delay};
  }
  const double error_rate = is_metadata(service) ? faults.imds_error_rate : faults.api_error_rate;
  if (draw() < error_rate) {
    ++books_.faults["5xx"];
    return {status(503, "<html><body>Service Unavailable</body></html>"), delay};
  }
  if (service == "autoscaling" && draw() < faults.throttle_rate) {
    ++books_.faults["throttled"];
    return {status(400,
                   "<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code>"
                   "<Message>Rate exceeded</Message></Error></ErrorResponse>"),
            delay};
  }
  if (service == "gitlab" && draw() < faults.busy_rate) {
    ++books_.faults["429"];
    return {status(429, "{\"message\":\"429 Too Many Requests\"}"), delay};
  }
  if (service == "github" && request.method == "DELETE" && draw() < faults.busy_rate) {
    ++books_.faults["422"];
    return {github_busy(instance), delay};
  }
  return serve_healthy(index, request, now, later, delay);
}

world_answer fleet_world::serve_healthy(std::size_t index, const http_request& request,
                                        sim_seconds now, const held_responder& later,
                                        std::chrono::milliseconds delay) {
  const auto service = service_of(request.url);
  if (service == "gcp" && gcp_metadata_service{*this}.hold(index, request, now, later))
    return {std::nullopt, delay, true};
  return {respond(index, service, request, now), delay};
}

http_response fleet_world::respond(std::size_t index, std::string_view service,
                                   const http_request& request, sim_seconds now) {
  auto& instance = instances_[index];
  if (service == "azure") return azure_metadata_service{*this}.answer(index, request, now);
  if (service == "gcp") return gcp_metadata_service{*this}.answer(index, request);
  if (service == "imds") {
    const auto path = std::string_view{request.url}.substr(imds_host.size());
    if (path == "/latest/api/token") {
      auto answer = status(200, "sim-token");
      answer.headers = {{"x-aws-ec2-metadata-token-ttl-seconds", "21600"}};
      return answer;
    }
    if (path == "/latest/meta-data/autoscaling/target-lifecycle-state")
      return instance.target_state.empty() ? status(404) : status(200, instance.target_state);
    if (path == "/latest/meta-data/spot/instance-action" && instance.spot_reclaim_at)
      return status(200, fmt::format("{{\"action\": \"terminate\", \"time\": \"{}\"}}",
                                     format_rfc3339_utc(sim_wall_time(*instance.spot_reclaim_at))));
    if (path == "/latest/dynamic/instance-identity/document")
      return status(200, fmt::format("{{\"instanceId\": \"{}\", \"region\": \"sim-1\", "
                                     "\"accountId\": \"000000000000\"}}",
                                     instance.id));
    return status(404);
  }
  if (service == "metrics")
    return instance.runner.alive ? status(200, metrics_page(instance.runner, scenario_.concurrency))
                                 : http_response{.transport_error = "Connection refused"};
  if (service == "gitlab")
    return instance.registered ? unregister(instance, now)
                               : status(404, "{\"message\":\"404 Not Found\"}");
  if (service == "github") return github_answer(instance, request, now);
  if (service == "autoscaling") return autoscaling_service{*this}.answer(request.body, now);
  return http_response{.transport_error = "Could not resolve host"};
}

// GitHub's runner API for the repository sim/fleet: the list by name, and the DELETE that
// GitHub refuses with 422 while it still counts the runner busy.
http_response fleet_world::github_answer(sim_instance& instance, const http_request& request,
                                         sim_seconds now) {
  const auto path = std::string_view{request.url}.substr(github_host.size());
  const auto runner_id = static_cast<std::int64_t>(index_of(instance.id).value_or(0)) + 1;
  if (request.method == "GET" && path.starts_with(std::string{github_runners_path} + "?")) {
    nlohmann::json runners = nlohmann::json::array();
    if (instance.registered)
      runners.push_back({{"id", runner_id},
                         {"name", instance.id},
                         {"os", "linux"},
                         {"status", instance.runner.alive ? "online" : "offline"},
                         {"busy", instance.github_counts_busy(now)},
                         {"labels", nlohmann::json::array()}});
    return status(200,
                  nlohmann::json{{"total_count", runners.size()}, {"runners", runners}}.dump());
  }
  if (request.method == "DELETE" && instance.registered &&
      path == fmt::format("{}/{}", github_runners_path, runner_id))
    return instance.github_counts_busy(now) ? github_busy(instance) : unregister(instance, now);
  return status(404, "{\"message\":\"Not Found\"}");
}

}  // namespace runwarden
