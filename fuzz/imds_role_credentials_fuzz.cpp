// libFuzzer target for the instance role's credentials document and the role listing.
// Any body gives credentials or an error, and an error never quotes the secret key or the
// session token, whatever else the document got wrong.
#include <nlohmann/json.hpp>

#include "fuzz/fuzz_promise.hpp"
#include "src/aws/imds_role_credentials.hpp"

namespace {

// The document's secrets, when the body is JSON that has them as strings long enough to
// be recognised in a message (a one-letter "secret" appears in any English error).
std::vector<std::string> secrets_in(std::string_view body) {
  std::vector<std::string> secrets;
  const auto document = nlohmann::json::parse(body, nullptr, false);
  if (!document.is_object()) return secrets;
  for (const char* key : {"SecretAccessKey", "Token"}) {
    const auto field = document.find(key);
    if (field != document.end() && field->is_string() &&
        field->get_ref<const std::string&>().size() >= 8)
      secrets.push_back(field->get<std::string>());
  }
  return secrets;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view body = fuzz::as_text(data, size);
  const role_credentials_parse parsed = parse_role_credentials(body);
  fuzz::require(parsed.role.has_value() == parsed.error.empty());
  for (const std::string& secret : secrets_in(body))
    fuzz::require(parsed.error.find(secret) == std::string::npos);
  if (const auto name = first_role_name(body)) {
    fuzz::require(!name->empty());
    fuzz::require(name->find_first_of("\r\n") == std::string::npos);
  }
  return 0;
}
