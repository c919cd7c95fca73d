#pragma once
// A strict parser for Prometheus text exposition format 0.0.4, the format of every runner's
// /metrics: HELP and TYPE lines, comments, samples with escaped label values ('\\', '\"',
// '\n'), NaN and +Inf/-Inf, optional int64 millisecond timestamps; counters, gauges, untyped,
// histograms and summaries. It follows the format's reference parser (Go's expfmt), whose
// conformance cases are in tests/data/prometheus, including its error words.
//
// All or nothing: a page with any fault gives one error naming its line and no samples at
// all, so a half-read page never updates what runwarden believes about its runner. Pure:
// the page comes in as text, nothing is read or logged here.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "src/scrape/scraped_page.hpp"

namespace runwarden {

struct exposition_error {
  std::size_t line = 0;  // 1-based
  std::string message;   // "unexpected end of input stream", "expected float as value, ..."
};

// "line 3: unexpected end of input stream"
std::string describe(const exposition_error& error);

struct exposition_result {
  std::optional<scraped_page> page;  // set exactly when the page is well-formed
  exposition_error error;            // meaningful exactly when page is empty
};

exposition_result parse_exposition_text(std::string_view text);

}  // namespace runwarden
