// See delivery_plan.hpp. Header names follow RFC 9110's token rule; values may hold any
// visible text but no CR, LF or NUL, which would end the header line early.
#include "src/webhook/delivery_plan.hpp"

#include <algorithm>
#include <cctype>

#include "src/webhook/body_signature.hpp"

namespace runwarden {

namespace {

bool is_token(std::string_view text) {
  constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           extra.find(c) != std::string_view::npos;
  });
}

bool is_safe_header_value(std::string_view text) {
  return text.find_first_of(std::string_view{"\r\n\0", 3}) == std::string_view::npos;
}

bool same_name(std::string_view left, std::string_view right) {
  return std::equal(left.begin(), left.end(), right.begin(), right.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

std::pair<std::string, std::string> user_agent(std::string_view version) {
  return {"User-Agent", "runwarden/" + std::string{version}};
}

// A callback's headers replace runwarden's of the same name, and are otherwise added in order.
http_header_list merged(http_header_list base, const shutdown_callback& callback) {
  for (const auto& [name, value] : callback.headers) {
    std::erase_if(base, [&](const auto& header) { return same_name(header.first, name); });
    base.emplace_back(name, value);
  }
  return base;
}

// The reason a callback cannot be sent, or nullopt.
std::optional<std::string> callback_problem(const shutdown_callback& callback,
                                            const target_parse_result& parsed) {
  if (!parsed.target) return "callback refused: " + parsed.error;
  const auto where = " (" + parsed.target->label() + ")";
  if (!callback.method.empty() && !is_token(callback.method))
    return "callback refused: the method is not a valid HTTP method" + where;
  for (const auto& [name, value] : callback.headers) {
    if (!is_token(name) || !is_safe_header_value(value))
      return "callback refused: a header name or value is malformed" + where;
  }
  return std::nullopt;
}

}  // namespace

delivery_plan plan_deliveries(const plan_inputs& inputs) {
  delivery_plan plan;
  if (inputs.webhook) {
    http_header_list headers{{"Content-Type", "application/json"}, user_agent(inputs.version)};
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
    plan.deliveries.push_back({*parsed.target, method,
                               merged({user_agent(inputs.version)}, callback), {}, true});
  }
  return plan;
}

}  // namespace runwarden
