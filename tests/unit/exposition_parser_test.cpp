// The exposition parser on hand-written pages: what each kind of line yields (names, sorted
// labels, unescaped values, special floats, timestamps, family types and help), how the
// family rules group histogram and summary samples, and that a fault anywhere gives one
// error with its line and no page at all.
#include "src/scrape/exposition_parser.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "src/scrape/exposition_number.hpp"
#include "src/scrape/utf8_validity.hpp"

namespace {

using namespace runwarden;

scraped_page parsed(std::string_view text) {
  exposition_result result = parse_exposition_text(text);
  INFO(describe(result.error));
  REQUIRE(result.page);
  return std::move(*result.page);
}

std::string error_of(std::string_view text) {
  const exposition_result result = parse_exposition_text(text);
  REQUIRE_FALSE(result.page);
  return describe(result.error);
}

}  // namespace

TEST_CASE("a sample line yields its name, sorted unescaped labels, value and timestamp",
          "[metrics][parser]") {
  const scraped_page page = parsed(
      "# HELP files_open Open \\\\ files\\n now.\n"
      "# TYPE files_open gauge\n"
      "files_open{path=\"C:\\\\DIR\",error=\"a \\\"b\\\"\\nc\",empty=\"\"} 1.5e3 -1700000000000\n");
  REQUIRE(page.families.size() == 1);
  const scraped_family& family = page.families[0];
  CHECK(family.name == "files_open");
  CHECK(family.type == scraped_type::gauge);
  CHECK(family.help == "Open \\ files\n now.");
  REQUIRE(family.samples.size() == 1);
  const scraped_sample& sample = family.samples[0];
  CHECK(sample.name == "files_open");
  CHECK(sample.labels ==
        std::vector<scraped_label>{{"empty", ""}, {"error", "a \"b\"\nc"}, {"path", "C:\\DIR"}});
  CHECK(sample.value == 1500);
  CHECK(sample.timestamp_ms == -1700000000000);
}

TEST_CASE("special values and number forms follow the reference parser", "[metrics][parser]") {
  CHECK(std::isnan(*parse_sample_value("NaN")));
  CHECK(std::isnan(*parse_sample_value("nan")));
  CHECK(*parse_sample_value("+Inf") == std::numeric_limits<double>::infinity());
  CHECK(*parse_sample_value("-Inf") == -std::numeric_limits<double>::infinity());
  CHECK(*parse_sample_value("Infinity") == std::numeric_limits<double>::infinity());
  CHECK(*parse_sample_value("08") == 8);
  CHECK(*parse_sample_value(".5") == 0.5);
  CHECK(*parse_sample_value("1.") == 1);
  CHECK(*parse_sample_value("+2E-2") == 0.02);
  CHECK(*parse_sample_value("5e-324") > 0);  // the smallest subnormal Go can print
  for (const char* refused : {"", "+", "-", ".", "e5", "1e", "1e+", "0x10", "1_000", "+NaN",
                              "nan(1)", "1e400", "1e-400", "Inf2", "1,5", "--1", " 1"})
    CHECK_FALSE(parse_sample_value(refused));
  CHECK(parse_timestamp("+15") == 15);
  CHECK(parse_timestamp("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
  for (const char* refused : {"", "+", "-", "+-1", "1.0", "1e3", "9223372036854775808", "0x1"})
    CHECK_FALSE(parse_timestamp(refused));
}

TEST_CASE("histogram and summary samples join their family by suffix", "[metrics][parser]") {
  const scraped_page page = parsed(
      "# TYPE latency_seconds histogram\n"
      "latency_seconds_bucket{le=\"0.5\",path=\"/\"} 3\n"
      "latency_seconds_bucket{path=\"/\",le=\"+Inf\"} 4\n"
      "latency_seconds_sum{path=\"/\"} 1.25\n"
      "latency_seconds_count{path=\"/\"} 4\n"
      "# TYPE rpc summary\n"
      "rpc{quantile=\"0.99\"} 0.3\n"
      "rpc_sum 9\n"
      "rpc_count 30\n"
      "rpc_bucket 1\n");
  REQUIRE(page.families.size() == 3);
  CHECK(page.families[0].type == scraped_type::histogram);
  CHECK(page.families[0].samples.size() == 4);
  CHECK(page.families[0].samples[1].labels ==
        std::vector<scraped_label>{{"le", "+Inf"}, {"path", "/"}});
  CHECK(page.families[1].name == "rpc");
  CHECK(page.families[1].samples.size() == 3);
  CHECK(page.families[2].name == "rpc_bucket");  // summaries have no buckets
  CHECK(page.families[2].type == scraped_type::untyped);
  CHECK(find_family(page, "latency_seconds_sum") == nullptr);
}

TEST_CASE("families keep first-mention order, and HELP or TYPE alone makes none",
          "[metrics][parser]") {
  const scraped_page page = parsed(
      "# HELP ghost Never sampled.\n"
      "b 1\n"
      "# a comment\n"
      "a{x=\"1\"} 2\n"
      "b{y=\"2\"} 3\n"
      "  \t\n"
      "#\n");
  REQUIRE(page.families.size() == 2);
  CHECK(page.families[0].name == "b");
  CHECK(page.families[0].samples.size() == 2);
  CHECK(page.families[1].name == "a");
  CHECK(find_family(page, "ghost") == nullptr);
}

TEST_CASE("a faulty page gives one error naming its line and no samples", "[metrics][parser]") {
  CHECK(error_of("ok 1\nok 2\nbad{ 3\n") == "line 3: invalid label name for metric \"bad\"");
  CHECK(error_of("ok 1\nlast 2") == "line 2: unexpected end of input stream");
  CHECK(error_of("ok 1\n# HELP last text") == "line 2: unexpected end of input stream");
  CHECK(error_of("x{a=\"1\",a=\"2\"} 1\n") ==
        "line 1: duplicate label names for metric \"x\": \"a\"");
  CHECK(error_of("x 1 \n") == "line 1: expected integer as timestamp, got \"\"");
  CHECK(error_of("x 1\r\n") == "line 1: expected float as value, got \"1\\x0d\"");
  CHECK(error_of("# HELP x bad \\t escape\n") ==
        "line 1: invalid escape sequence '\\t' in HELP text");
  CHECK(error_of("# TYPE x Counter\n").starts_with("line 1: unknown metric type \"Counter\""));
  CHECK(error_of("# TYPE h histogram\nh 1\n") ==
        "line 2: histogram \"h\" has sample \"h\" without a _bucket, _sum or _count suffix");
  CHECK(error_of("# TYPE h histogram\nh_bucket 1\n") ==
        "line 2: histogram bucket sample \"h_bucket\" has no 'le' label");
  CHECK(error_of("# TYPE s summary\ns 1\n") ==
        "line 2: summary quantile sample \"s\" has no 'quantile' label");
  CHECK(error_of("# TYPE s summary\ns_count -1\n") == "line 2: negative count for summary \"s\"");
}

TEST_CASE("error messages quote page content safely and briefly", "[metrics][parser]") {
  const std::string long_value(500, 'v');
  const std::string message = error_of("x " + long_value + "\n");
  CHECK(message.size() < 150);
  CHECK(message.ends_with("vvv\"..."));
  CHECK(error_of("x{a=\"\xff\"} 1\n") == "line 1: invalid label value \"\\xff\"");
}

TEST_CASE("label values must be well-formed UTF-8", "[metrics][parser]") {
  CHECK(is_valid_utf8("plain ascii"));
  CHECK(is_valid_utf8("Bj\xc3\xb6rn \xe4\xbd\xa0 \xf0\x9f\x98\x80"));
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // a UTF-16 surrogate
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xe4\xbd"));          // cut short
  CHECK_FALSE(is_valid_utf8("\x80"));              // a stray continuation byte
}
