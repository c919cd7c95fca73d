// See scheduled_events.hpp. Every field is a string; one reader fetches a required one and
// words its absence the same way for each, naming the event by its position.
#include "src/aws/imds/scheduled_events.hpp"

#include <nlohmann/json.hpp>

#include "src/util/gmt_date.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

constexpr std::string_view page = "scheduled events";

std::string where(std::size_t index) {
  return std::string{page} + " [" + std::to_string(index) + "]";
}

std::optional<std::string> text_field(const json& event, std::size_t index, const char* name,
                                      std::string& error) {
  const auto it = event.find(name);
  if (it == event.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    error = where(index) + " has no \"" + name + "\" string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::optional<wall_time> date_field(const json& event, std::size_t index, const char* name,
                                    std::string& error) {
  const auto text = text_field(event, index, name, error);
  if (!text) return std::nullopt;
  const auto time = parse_gmt_date(*text);
  if (!time)
    error = where(index) + " \"" + name + "\" is not a date such as \"21 Jan 2019 09:00:43 GMT\"";
  return time;
}

std::optional<scheduled_event_state> state_of(std::string_view text) {
  for (const auto state : {scheduled_event_state::active, scheduled_event_state::canceled,
                           scheduled_event_state::completed})
    if (to_string(state) == text) return state;
  return std::nullopt;
}

std::optional<scheduled_event> read_event(const json& event, std::size_t index,
                                          std::string& error) {
  if (!event.is_object()) {
    error = where(index) + " is not an object";
    return std::nullopt;
  }
  scheduled_event read;
  auto id = text_field(event, index, "EventId", error);
  auto code = id ? text_field(event, index, "Code", error) : std::nullopt;
  auto state_text = code ? text_field(event, index, "State", error) : std::nullopt;
  if (!state_text) return std::nullopt;
  const auto state = state_of(*state_text);
  if (!state) {
    error = where(index) + " \"State\" is neither active, canceled nor completed";
    return std::nullopt;
  }
  const auto not_before = date_field(event, index, "NotBefore", error);
  if (!not_before) return std::nullopt;
  if (event.contains("NotAfter")) {
    read.not_after = date_field(event, index, "NotAfter", error);
    if (!read.not_after) return std::nullopt;
  }
  if (const auto it = event.find("Description"); it != event.end() && it->is_string())
    read.description = it->get<std::string>();
  read.event_id = std::move(*id);
  read.code = std::move(*code);
  read.state = *state;
  read.not_before = *not_before;
  return read;
}

}  // namespace

std::string_view to_string(scheduled_event_state state) {
  switch (state) {
    case scheduled_event_state::active:
      return "active";
    case scheduled_event_state::canceled:
      return "canceled";
    case scheduled_event_state::completed:
      return "completed";
  }
  return "unknown";
}

scheduled_events_parse parse_scheduled_events(std::string_view body) {
  const json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded())
    return {std::nullopt, std::string{page} + " is not JSON (an error page from a proxy?)"};
  if (!parsed.is_array()) return {std::nullopt, std::string{page} + " is JSON but not a list"};
  if (parsed.size() > scheduled_events_max)
    return {std::nullopt, std::string{page} + " lists " + std::to_string(parsed.size()) +
                              " events, more than " + std::to_string(scheduled_events_max)};
  std::vector<scheduled_event> events;
  for (std::size_t index = 0; index < parsed.size(); ++index) {
    std::string error;
    auto event = read_event(parsed[index], index, error);
    if (!event) return {std::nullopt, std::move(error)};
    events.push_back(std::move(*event));
  }
  return {std::move(events), {}};
}

}  // namespace runwarden
