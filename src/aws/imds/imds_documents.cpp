// See imds_documents.hpp. Every document is an object of strings; one reader fetches a
// required string field and words its absence the same way for each page.
#include "src/aws/imds/imds_documents.hpp"

#include <nlohmann/json.hpp>

#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

struct object_parse {
  json object;
  std::string error;
};

object_parse parse_object(std::string_view page, std::string_view body) {
  json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded())
    return {{}, std::string{page} + " is not JSON (an error page from a proxy?)"};
  if (!parsed.is_object()) return {{}, std::string{page} + " is JSON but not an object"};
  return {std::move(parsed), {}};
}

// The string field `name`, or nullopt with `error` saying why.
std::optional<std::string> string_field(const json& object, std::string_view page, const char* name,
                                        std::string& error) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    error = std::string{page} + " has no \"" + name + "\" string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::optional<wall_time> time_field(const json& object, std::string_view page, const char* name,
                                    std::string& error) {
  const auto text = string_field(object, page, name, error);
  if (!text) return std::nullopt;
  const auto time = parse_rfc3339(*text);
  if (!time) error = std::string{page} + " \"" + name + "\" is not an RFC 3339 time";
  return time;
}

}  // namespace

spot_action_parse parse_spot_instance_action(std::string_view body) {
  auto parsed = parse_object("spot instance-action", body);
  if (!parsed.error.empty()) return {std::nullopt, std::move(parsed.error)};
  std::string error;
  auto action = string_field(parsed.object, "spot instance-action", "action", error);
  if (!action) return {std::nullopt, std::move(error)};
  const auto time = time_field(parsed.object, "spot instance-action", "time", error);
  if (!time) return {std::nullopt, std::move(error)};
  return {spot_instance_action{std::move(*action), *time}, {}};
}

rebalance_parse parse_rebalance_recommendation(std::string_view body) {
  auto parsed = parse_object("rebalance recommendation", body);
  if (!parsed.error.empty()) return {std::nullopt, std::move(parsed.error)};
  std::string error;
  const auto time = time_field(parsed.object, "rebalance recommendation", "noticeTime", error);
  if (!time) return {std::nullopt, std::move(error)};
  return {*time, {}};
}

identity_parse parse_instance_identity(std::string_view body) {
  constexpr std::string_view page = "instance identity document";
  auto parsed = parse_object(page, body);
  if (!parsed.error.empty()) return {std::nullopt, std::move(parsed.error)};
  std::string error;
  auto instance_id = string_field(parsed.object, page, "instanceId", error);
  auto region = instance_id ? string_field(parsed.object, page, "region", error) : std::nullopt;
  auto account_id = region ? string_field(parsed.object, page, "accountId", error) : std::nullopt;
  if (!account_id) return {std::nullopt, std::move(error)};
  return {instance_identity{std::move(*instance_id), std::move(*region), std::move(*account_id)},
          {}};
}

}  // namespace runwarden
