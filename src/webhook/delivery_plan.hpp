#pragma once
// What one notification sends where: the configured webhook for every event (a POST of the
// JSON body, with the operator's own headers) and, at gone only, the shutdown callback as
// gitlab-runner's wrapper sends it (helpers/runner_wrapper/api/shutdown_callback.go): its own
// method (GET when empty), its own headers and no body, so no Content-Type unless the caller gave
// one; runwarden adds only its User-Agent. Only the configured webhook is signed: a callback's URL
// comes from an API caller, and handing that caller a signed body would let it replay the body to
// the operator's own receiver. Callbacks that cannot be sent safely (bad URL, bad method, a header
// that could smuggle a line break) are rejected here, each with a reason that names at most the
// scheme and host.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"
#include "src/util/http_exchange.hpp"
#include "src/webhook/webhook_target.hpp"

namespace runwarden {

struct planned_delivery {
  webhook_target target;
  std::string method;
  http_header_list headers;
  std::string body;  // empty for a callback
  bool is_callback = false;
};

struct delivery_plan {
  std::vector<planned_delivery> deliveries;  // the webhook first, then callbacks in order
  std::vector<std::string> rejected;         // one reason per callback left out
};

struct plan_inputs {
  notification_kind kind = notification_kind::drain_started;
  const std::vector<shutdown_callback>& callbacks;
  const std::optional<webhook_target>& webhook;  // nullopt: no webhook configured
  std::string_view secret;                       // empty: unsigned
  std::string_view body;
  std::string_view version;
  http_header_list webhook_headers = {};  // the operator's, checked at config load
};

delivery_plan plan_deliveries(const plan_inputs& inputs);

}  // namespace runwarden
