// Every case of the AWS SigV4 test suite (tests/data/sigv4), none skipped: each .req file is
// parsed as the raw HTTP request it is (request line, headers with folded continuation lines,
// body), signed, and the canonical request, string to sign and Authorization header are
// compared byte for byte with the suite's .creq, .sts and .authz. As in botocore's harness,
// the session token a case signs with is the one its expected canonical request shows.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "src/aws/sigv4_signer.hpp"
#include "src/util/sha256_digest.hpp"
#include "tests/common/file_bytes.hpp"

namespace {

namespace fs = std::filesystem;
using namespace runwarden;
using runwarden::testing::file_bytes;

const fs::path suite_root = fs::path{RUNWARDEN_TEST_DATA_DIR} / "sigv4" / "aws4_testsuite";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream{text};
  for (std::string line; std::getline(stream, line);) {
    if (line.ends_with('\r')) line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// "GET /example space/?a=b HTTP/1.1": the target is everything between the first and the
// last space, since the suite puts a raw space into one path.
sigv4_request parse_raw_request(const std::string& raw) {
  const auto lines = lines_of(raw);
  REQUIRE(!lines.empty());
  const auto& request_line = lines.front();
  const auto first_space = request_line.find(' ');
  const auto last_space = request_line.rfind(' ');
  REQUIRE(first_space < last_space);
  sigv4_request request;
  request.method = request_line.substr(0, first_space);
  const auto target = request_line.substr(first_space + 1, last_space - first_space - 1);
  const auto question = target.find('?');
  request.path = target.substr(0, question);
  if (question != std::string::npos)
    request.query = parse_query_string(target.substr(question + 1));

  std::size_t index = 1;
  for (; index < lines.size() && !lines[index].empty(); ++index) {
    const auto& line = lines[index];
    if (line.front() == ' ' || line.front() == '\t') {
      REQUIRE(!request.headers.empty());
      request.headers.back().second += " " + line;
      continue;
    }
    const auto colon = line.find(':');
    REQUIRE(colon != std::string::npos);
    request.headers.emplace_back(line.substr(0, colon), line.substr(colon + 1));
  }
  std::string body;
  for (++index; index < lines.size(); ++index) body += (body.empty() ? "" : "\n") + lines[index];
  request.payload_hash = sha256_hex(body);
  return request;
}

std::optional<secret_text> token_in(const std::string& canonical_request) {
  constexpr std::string_view prefix = "x-amz-security-token:";
  for (const auto& line : lines_of(canonical_request))
    if (line.starts_with(prefix)) return secret_text{line.substr(prefix.size())};
  return std::nullopt;
}

std::vector<fs::path> case_directories() {
  std::vector<fs::path> cases;
  for (const auto& entry : fs::recursive_directory_iterator{suite_root}) {
    if (entry.path().extension() == ".req") cases.push_back(entry.path().parent_path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

}  // namespace

TEST_CASE("every case of the AWS SigV4 test suite signs as the suite says", "[sigv4]") {
  const auto cases = case_directories();
  // The suite as shipped has 34 cases; fewer means the copy in tests/data lost some.
  REQUIRE(cases.size() == 34);
  const sigv4_scope scope{"us-east-1", "service"};
  const auto time = std::chrono::sys_days{std::chrono::year{2015} / 8 / 30} +
                    std::chrono::hours{12} + std::chrono::minutes{36};
  for (const auto& directory : cases) {
    const auto stem = directory / directory.filename();
    DYNAMIC_SECTION(fs::relative(directory, suite_root).string()) {
      const auto expected_canonical = file_bytes(stem.string() + ".creq");
      const aws_credentials credentials{"AKIDEXAMPLE",
                                        secret_text{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"},
                                        token_in(expected_canonical)};
      const auto request = parse_raw_request(file_bytes(stem.string() + ".req"));
      const auto signature = sign_sigv4(request, credentials, scope, time);
      CHECK(signature.canonical_request == expected_canonical);
      CHECK(signature.string_to_sign == file_bytes(stem.string() + ".sts"));
      CHECK(signature.authorization == file_bytes(stem.string() + ".authz"));
    }
  }
}
