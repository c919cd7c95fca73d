// See body_template.hpp. nlohmann-json does the JSON escaping (invalid UTF-8 is replaced, not
// thrown on) and the check that a rendering is JSON; kainjow's mustache does the rest.
#include "src/webhook/body_template.hpp"

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

namespace runwarden {

namespace {

using json = nlohmann::json;
namespace mustache = kainjow::mustache;

std::string slack_escaped(const std::string& text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

mustache::data data_of(const notification_values& values) {
  mustache::data data;
  for (const auto& [name, text] : values) data.set(name, text);
  data.set("slack",
           mustache::lambda2{[](const std::string& inside, const mustache::renderer& render) {
             return slack_escaped(render(inside, false));
           }});
  return data;
}

struct rendering {
  std::string body;
  std::string error;  // set when the template could not be parsed or rendered
};

rendering render(const std::string& text, const notification_values& values) {
  mustache::mustache parsed{text};
  if (!parsed.is_valid()) return {{}, parsed.error_message()};
  parsed.set_custom_escape([](const std::string& value) { return json_string_content(value); });
  auto body = parsed.render(data_of(values));
  if (!parsed.is_valid()) return {{}, parsed.error_message()};
  return {std::move(body), {}};
}

// Values that try every escape: quotes, a backslash, line breaks, a tab, angle brackets.
notification_values sample_values(notification_kind kind) {
  const std::string awkward = "say \"stop\" \\ now\r\nline two\t<!channel> & co";
  notification_values values{
      {"event", std::string{to_string(kind)}},
      {"is_" + std::string{to_string(kind)}, "true"},
      {"headline", "runner ci-7 on i-0abc: " + awkward},
      {"state", "shutting_down"},
      {"phase", "draining"},
      {"time", "2026-01-02T03:04:05.000Z"},
      {"runwarden_version", "0.1.0"},
      {"reason", awkward},
      {"trigger", "control_api"},
      {"instance_id", "i-0abc"},
      {"auto_scaling_group", "ci-runners"},
      {"hook_name", "drain-hook"},
      {"runner_name", awkward},
      {"runner_kind", "gitlab"},
      {"jobs_left", "2"},
      {"deadline", "2026-01-02T03:14:05.000Z"},
      {"exit_code", "0"},
  };
  return values;
}

}  // namespace

std::string json_string_content(std::string_view value) {
  const auto quoted = json(std::string{value}).dump(-1, ' ', false, json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

std::optional<std::string> body_template_problem(const std::string& text) {
  {
    const mustache::mustache parsed{text};
    if (!parsed.is_valid()) return "is not a valid Mustache template: " + parsed.error_message();
  }
  for (const auto kind : all_notification_kinds) {
    const auto result = render(text, sample_values(kind));
    if (!result.error.empty())
      return "cannot be rendered for " + std::string{to_string(kind)} + ": " + result.error;
    try {
      const json parsed = json::parse(result.body);  // for the parser's message on failure
    } catch (const json::parse_error& error) {
      return "does not render to JSON for " + std::string{to_string(kind)} +
             " (sample values with quotes and line breaks): " + error.what();
    }
  }
  return std::nullopt;
}

std::string render_body(const std::string& text, const notification_values& values) {
  auto result = render(text, values);
  if (!result.error.empty())
    return json{{"error", "the webhook template could not be rendered: " + result.error}}.dump(
        -1, ' ', false, json::error_handler_t::replace);
  return std::move(result.body);
}

}  // namespace runwarden
