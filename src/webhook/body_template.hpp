#pragma once
// A webhook body written by the operator as a Mustache template (kainjow's mustache.hpp,
// Debian's libkainjow-mustache-dev), so that chat services (Slack, Microsoft Teams) can be
// posted to directly, without a relay. The body is JSON, sent as application/json, so the
// escaping is JSON's, not Mustache's usual HTML:
//
//   {{name}}      the value escaped for the inside of a JSON string: quotes, backslashes,
//                 line breaks and control characters become JSON escapes. Write it between
//                 quotes: "text": "{{reason}}".
//   {{{name}}}    the value as it is (for a template that builds something other than a
//                 string from it; a reason from an API caller can then break the JSON).
//   {{#slack}}...{{/slack}}
//                 renders the inside as usual, then replaces &, < and > with &amp;, &lt; and
//                 &gt;, as Slack asks of message text: a reason cannot mention @channel or
//                 forge a link.
//
// A template is checked when the config is read: it must parse, and render to JSON for
// every event with sample values that carry quotes, line breaks and angle brackets.

#include <optional>
#include <string>
#include <string_view>

#include "src/webhook/notification_values.hpp"

namespace runwarden {

// Nullopt when `text` parses and renders to JSON for every event; otherwise why not.
std::optional<std::string> body_template_problem(const std::string& text);

// The body for `values`. `text` passed body_template_problem; should rendering still fail
// (a bug), the result names the failure instead of sending half a body.
std::string render_body(const std::string& text, const notification_values& values);

// The text of a value as it goes inside a JSON string, without the quotes.
std::string json_string_content(std::string_view value);

}  // namespace runwarden
