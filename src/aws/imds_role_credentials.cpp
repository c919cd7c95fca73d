// See imds_role_credentials.hpp.
#include "src/aws/imds_role_credentials.hpp"

#include <nlohmann/json.hpp>

#include "src/util/rfc3339_time.hpp"

namespace runwarden {

namespace {

constexpr std::string_view document = "the instance role credentials document";

std::optional<std::string> text_field(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  if (found == object.end() || !found->is_string() || found->get<std::string>().empty())
    return std::nullopt;
  return found->get<std::string>();
}

std::string missing(const char* name) {
  return std::string{document} + " has no " + name + " (or it is not a non-empty string)";
}

}  // namespace

role_credentials_parse parse_role_credentials(std::string_view body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded())
    return {std::nullopt, std::string{document} + " is not valid JSON (" +
                              std::to_string(body.size()) + " bytes)"};
  if (!json.is_object()) return {std::nullopt, std::string{document} + " is not a JSON object"};
  const auto code = text_field(json, "Code");
  if (code && *code != "Success")
    return {std::nullopt, std::string{document} + " reports Code " + *code + ", not Success"};
  const auto key_id = text_field(json, "AccessKeyId");
  const auto secret = text_field(json, "SecretAccessKey");
  const auto token = text_field(json, "Token");
  const auto expiration_text = text_field(json, "Expiration");
  if (!key_id) return {std::nullopt, missing("AccessKeyId")};
  if (!secret) return {std::nullopt, missing("SecretAccessKey")};
  if (!token) return {std::nullopt, missing("Token")};
  if (!expiration_text) return {std::nullopt, missing("Expiration")};
  const auto expiration = parse_rfc3339(*expiration_text);
  if (!expiration)
    return {std::nullopt, std::string{document} +
                              " has an Expiration that is not an RFC 3339 "
                              "time: " +
                              *expiration_text};
  return {role_credentials{{*key_id, secret_text{*secret}, secret_text{*token}}, *expiration}, {}};
}

std::optional<std::string> first_role_name(std::string_view listing) {
  const auto end = listing.find_first_of("\r\n");
  const auto name = listing.substr(0, end);
  if (name.empty()) return std::nullopt;
  return std::string{name};
}

}  // namespace runwarden
