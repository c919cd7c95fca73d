// See delivery_plan.hpp. What a header may hold is header_rules.hpp's to say.
#include "src/webhook/delivery_plan.hpp"

#include <algorithm>
#include <cctype>

#include "src/webhook/body_signature.hpp"
#include "src/webhook/header_rules.hpp"

namespace runwarden {

namespace {

std::pair<std::string, std::string> user_agent(std::string_view version) {
  return {"User-Agent", "runwarden/" + std::string{version}};
}

// Headers the operator or a caller chose replace runwarden's of the same name, and are
// otherwise added in order.
http_header_list merged(http_header_list base, const http_header_list& chosen) {
  for (const auto& header : chosen) {
    std::erase_if(base, [&](const auto& old) { return same_header_name(old.first, header.first); });
    base.push_back(header);
  }
  return base;
}

// A caller's callback headers as Go's net/http sends them, since gitlab-runner's wrapper
// does (helpers/runner_wrapper/api/shutdown_callback.go: req.Header.Add for each, then
// http.DefaultClient.Do): names in canonical form (textproto.CanonicalMIMEHeaderKey), and
// none of those the request writer takes from the request itself (net/http's
// reqWriteExcludeHeader: Host, Content-Length, Transfer-Encoding, Trailer), so no header can
// smuggle a second request or reframe this one. An empty value is dropped: libcurl reads
// "Name:" as "remove that header", so an empty Host would change what is sent.
http_header_list as_go_sends(const http_header_list& headers) {
  http_header_list sent;
  for (auto [name, value] : headers) {
    bool word_start = true;
    for (char& c : name) {
      c = static_cast<char>(word_start ? std::toupper(static_cast<unsigned char>(c))
                                       : std::tolower(static_cast<unsigned char>(c)));
      word_start = c == '-';
    }
    const bool excluded = name == "Host" || name == "Content-Length" ||
                          name == "Transfer-Encoding" || name == "Trailer";
    if (!excluded && !value.empty()) sent.emplace_back(std::move(name), std::move(value));
  }
  return sent;
}

// The reason a callback cannot be sent, or nullopt.
std::optional<std::string> callback_problem(const shutdown_callback& callback,
                                            const target_parse_result& parsed) {
  if (!parsed.target) return "callback refused: " + parsed.error;
  const auto where = " (" + parsed.target->label() + ")";
  if (!callback.method.empty() && !is_header_token(callback.method))
    return "callback refused: the method is not a valid HTTP method" + where;
  for (const auto& [name, value] : callback.headers) {
    if (!is_header_token(name) || !is_safe_header_value(value))
      return "callback refused: a header name or value is malformed" + where;
  }
  return std::nullopt;
}

}  // namespace

delivery_plan plan_deliveries(const plan_inputs& inputs) {
  delivery_plan plan;
  if (inputs.webhook) {
    auto headers = merged({{"Content-Type", "application/json"}, user_agent(inputs.version)},
                          inputs.webhook_headers);
    if (!inputs.secret.empty())
      headers.emplace_back(signature_header_name,
                           signature_header_value(inputs.secret, inputs.body));
    plan.deliveries.push_back(
        {*inputs.webhook, "POST", std::move(headers), std::string{inputs.body}, false});
  }
  if (inputs.kind != notification_kind::gone) return plan;
  for (const auto& callback : inputs.callbacks) {
    const auto parsed = parse_webhook_target(callback.url);
    if (auto problem = callback_problem(callback, parsed)) {
      plan.rejected.push_back(std::move(*problem));
      continue;
    }
    // Go's http.NewRequest reads an empty method as GET.
    const auto method = callback.method.empty() ? std::string{"GET"} : callback.method;
    plan.deliveries.push_back({*parsed.target,
                               method,
                               merged({user_agent(inputs.version)}, as_go_sends(callback.headers)),
                               {},
                               true});
  }
  return plan;
}

}  // namespace runwarden
