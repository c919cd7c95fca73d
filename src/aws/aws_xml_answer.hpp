#pragma once
// Loading an AWS Query protocol answer (XML) with pugixml before anyone reads fields from it.
// What comes back is not always XML from AWS: a proxy's HTML error page, a body cut off by a
// timeout or a size cap, an empty 5xx. Each gets an error that says which, naming the
// action, so an operator sees "an HTML page" instead of a parser's offset.

#include <optional>
#include <string>
#include <string_view>

#include <pugixml.hpp>

namespace runwarden {

struct xml_answer {
  pugi::xml_document document;
  std::string error;  // empty when document holds the answer
};

// `what` names the answer in errors: "the DescribeLifecycleHooks answer".
void load_xml_answer(std::string_view body, std::string_view what, xml_answer& answer);

// The text of child `name` of `parent`; nullopt when there is no such element.
std::optional<std::string> child_text(const pugi::xml_node& parent, const char* name);

}  // namespace runwarden
