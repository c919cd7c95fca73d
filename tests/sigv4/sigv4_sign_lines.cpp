// The project's SigV4 signer behind a line protocol, for the botocore cross-check
// (botocore_crosscheck.py): each input line is one JSON request, each output line the
// canonical request, string to sign and Authorization the signer made of it. Test-only.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "src/aws/sigv4_signer.hpp"
#include "src/util/sha256_digest.hpp"

namespace {

using namespace runwarden;

// "20150830T123600Z" -> the instant it names (UTC).
std::chrono::system_clock::time_point parse_amz_date(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (std::sscanf(text.c_str(), "%4d%2d%2dT%2d%2d%2dZ", &year, &month, &day, &hour, &minute,
                  &second) != 6)
    throw std::invalid_argument{"bad time " + text};
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  return std::chrono::sys_days{date} + std::chrono::hours{hour} + std::chrono::minutes{minute} +
         std::chrono::seconds{second};
}

nlohmann::json sign_line(const nlohmann::json& input) {
  sigv4_request request;
  request.method = input.at("method").get<std::string>();
  request.path = input.at("path").get<std::string>();
  request.query = input.at("query").get<query_parameter_list>();
  request.headers = input.at("headers").get<header_list>();
  request.payload_hash = input.at("unsigned_payload").get<bool>()
                             ? std::string{unsigned_payload_hash}
                             : sha256_hex(input.at("body").get<std::string>());
  aws_credentials credentials{input.at("access_key").get<std::string>(),
                              secret_text{input.at("secret_key").get<std::string>()}, std::nullopt};
  if (!input.at("session_token").is_null())
    credentials.session_token = secret_text{input.at("session_token").get<std::string>()};
  const sigv4_scope scope{input.at("region").get<std::string>(),
                          input.at("service").get<std::string>()};
  const auto signature =
      sign_sigv4(request, credentials, scope, parse_amz_date(input.at("time").get<std::string>()));
  return {{"canonical_request", signature.canonical_request},
          {"string_to_sign", signature.string_to_sign},
          {"authorization", signature.authorization}};
}

}  // namespace

int main() {
  for (std::string line; std::getline(std::cin, line);) {
    std::cout << sign_line(nlohmann::json::parse(line)).dump() << '\n' << std::flush;
  }
  return 0;
}
