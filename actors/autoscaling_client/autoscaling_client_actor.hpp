#pragma once
// The Auto Scaling client (messages/autoscaling_messages.hpp): the one actor that talks to
// the Auto Scaling API, for the lifecycle hooks and the scaler alike. It owns what every
// call needs and nothing a call decides:
//   - the instance identity (IMDSv2 identity document), read once, for the region when none
//     is configured and for callers that name this instance;
//   - credentials: fixed ones from the environment or the shared file, else the instance
//     role's, fetched through IMDSv2 and fetched again before they expire or when AWS
//     rejects them;
//   - the endpoint, the SigV4 signature, and retries within each call's budget.
// Requests to the metadata service and to Auto Scaling go through its HTTP port; waits are
// delayed_send to itself, so under the test coordinator everything runs in virtual time.
// The wall clock it signs with comes in through the wiring (a signature carries the time).
// The same client serves any Query service: the wiring names which (aws_query_service.hpp),
// and an instance runs one client for Auto Scaling and, when it publishes metrics, one for
// CloudWatch.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "messages/autoscaling_messages.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/aws/autoscaling_endpoint.hpp"
#include "src/aws/aws_credentials.hpp"
#include "src/aws/imds/imds_token_cache.hpp"

namespace runwarden {

struct autoscaling_client_wiring {
  http_port_actor http_port;
  std::string imds_endpoint;                         // for the identity and the instance role
  std::optional<aws_credentials> fixed_credentials;  // nullopt: the instance role's
  std::optional<std::string> region;                 // nullopt: the identity document's
  environment_map environment;                       // endpoint overrides (autoscaling_endpoint)
  aws_query_service service = autoscaling_query_service;
  std::chrono::milliseconds attempt_timeout{std::chrono::seconds{10}};
  std::chrono::milliseconds retry_initial{std::chrono::milliseconds{500}};
  std::chrono::milliseconds retry_max{std::chrono::seconds{20}};
  std::uint64_t random_seed = 0;
  std::function<std::chrono::system_clock::time_point()> wall_clock = [] {
    return std::chrono::system_clock::now();
  };
};

// One call under way, across its attempts.
struct pending_autoscaling_call {
  autoscaling_call call;
  caf::typed_response_promise<autoscaling_outcome> promise;
  instant deadline{0};
  std::uint32_t attempts = 0;
};

// Something that waits for the identity or the credentials: told "" when ready, else why not.
using readiness_waiter = std::function<void(const std::string& problem)>;

struct autoscaling_client_state {
  static inline const char* name = "autoscaling_client";
  autoscaling_client_wiring wiring;
  std::uint64_t next_id = 1;
  std::map<std::uint64_t, std::function<void(const http_response&)>> answers_awaited;
  std::map<std::uint64_t, std::shared_ptr<pending_autoscaling_call>> calls;
  imds_token_cache token;
  std::optional<instance_identity> identity;
  std::vector<readiness_waiter> identity_waiters;  // non-empty while the document is read
  std::optional<aws_credentials> role_credentials;
  std::chrono::system_clock::time_point role_refresh_at{};
  std::vector<readiness_waiter> credentials_waiters;  // non-empty while the role is read
  std::optional<autoscaling_endpoint> endpoint;
  std::uint64_t random_state = 0;
};

// The client as it runs: besides its callers' interface, the answers of its HTTP port and
// (call_retry_atom, call id), which it sends itself when a call's next attempt is due.
using call_retry_atom = caf::atom_constant<caf::atom("asgretry")>;
using autoscaling_client_implementation =
    autoscaling_client_actor::extend<caf::reacts_to<http_response>,
                                     caf::reacts_to<call_retry_atom, std::uint64_t>>;

autoscaling_client_implementation::behavior_type autoscaling_client_behavior(
    autoscaling_client_implementation::stateful_pointer<autoscaling_client_state> self,
    autoscaling_client_wiring wiring);

}  // namespace runwarden
