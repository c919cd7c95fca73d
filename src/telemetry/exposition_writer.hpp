#pragma once
// The Prometheus text exposition format, version 0.0.4, written by hand because it is small
// and exact: a HELP and a TYPE line per family, label values escaped, histograms as
// cumulative _bucket series ending in le="+Inf" followed by _sum and _count, and numbers
// printed in the shortest form that parses back to the same double.

#include <span>
#include <string>
#include <string_view>

#include "src/telemetry/metric_family.hpp"

namespace runwarden {

inline constexpr std::string_view exposition_content_type =
    "text/plain; version=0.0.4; charset=utf-8";

std::string write_exposition(std::span<const metric_family> families);

// The pieces, exposed for their tests.
std::string format_sample_value(double value);
std::string escape_label_value(std::string_view value);
std::string escape_help(std::string_view help);

}  // namespace runwarden
