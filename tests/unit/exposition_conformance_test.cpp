// Every conformance case of the format's reference parser (tests/data/prometheus), driven by
// its manifest so that a case added there is asserted here without a code change. Cases in
// format 0.0.4 must parse, or fail on the same line with a message that starts with the
// reference parser's words. Cases that use newer syntax (quoted UTF-8 names, the
// gaugehistogram type) must be refused, since runwarden's parser is strictly 0.0.4, and
// refused on the line where that syntax first appears.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "src/scrape/exposition_parser.hpp"
#include "tests/common/file_bytes.hpp"

namespace {

using namespace runwarden;
using runwarden::testing::file_bytes;

const std::string cases_directory = RUNWARDEN_TEST_DATA_DIR "/prometheus/text_parse_cases/";

// "text format parsing error in line 3: unexpected end ..." -> "line 3: unexpected end ..."
std::string without_go_prefix(const std::string& message) {
  const std::string prefix = "text format parsing error in ";
  REQUIRE(message.starts_with(prefix));
  return message.substr(prefix.size());
}

// The line a newer-syntax case first uses that syntax on: the first line with a quote in
// a name position or the gaugehistogram type.
std::size_t first_newer_syntax_line(const std::string& page) {
  std::istringstream lines{page};
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number)
    if (line.find("{\"") != std::string::npos || line.find("# HELP \"") != std::string::npos ||
        line.find("# TYPE \"") != std::string::npos ||
        line.find(" gaugehistogram") != std::string::npos ||
        line.find(" gauge_histogram") != std::string::npos)
      return number;
  return 0;
}

}  // namespace

TEST_CASE("every reference conformance case parses or fails as its manifest says",
          "[metrics][conformance]") {
  const auto manifest = nlohmann::json::parse(file_bytes(cases_directory + "manifest.json"));
  REQUIRE(manifest.size() == 65);
  std::size_t parsed = 0;
  std::size_t refused = 0;
  for (const auto& entry : manifest) {
    const std::string file = entry.at("file");
    const std::string expect = entry.at("expect");
    const bool classic = entry.at("classic_0_0_4");
    const std::string page = file_bytes(cases_directory + file);
    const exposition_result result = parse_exposition_text(page);
    INFO(file << ": " << entry.value("comment", "") << " -> "
              << (result.page ? "parsed" : describe(result.error)));
    if (classic && expect == "ok") {
      CHECK(result.page);
      parsed += result.page ? 1 : 0;
      continue;
    }
    CHECK_FALSE(result.page);
    refused += result.page ? 0 : 1;
    if (result.page) continue;
    if (classic) {
      CHECK_THAT(describe(result.error),
                 Catch::StartsWith(without_go_prefix(entry.at("errLegacy_prefix"))));
    } else if (expect == "ok") {
      CHECK(result.error.line == first_newer_syntax_line(page));
    } else {
      const std::string expected = without_go_prefix(entry.at("errLegacy_prefix"));
      CHECK_THAT(expected, Catch::StartsWith("line " + std::to_string(result.error.line) + ":"));
    }
  }
  CHECK(parsed == 8);
  CHECK(refused == 57);
}
