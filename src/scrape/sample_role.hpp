#pragma once
// The rules for samples of histograms and summaries. A histogram `x` has samples x_bucket
// (each with an `le` label holding a float), x_sum and x_count; a summary `x` has samples x
// (each with a `quantile` label holding a float), x_sum and x_count. Counts and bucket
// populations cannot be negative. Counters, gauges and untyped families take any sample.

#include <cstdint>
#include <optional>
#include <string>

#include "src/scrape/scraped_page.hpp"

namespace runwarden {

// What a sample is to its family, from the suffix its name adds to the family's name.
enum class sample_role : std::uint8_t { plain, bucket, sum, count };

// The problem with `sample` in `family`, worded for an error message, or nullopt.
std::optional<std::string> check_sample_role(const scraped_family& family, sample_role role,
                                             const scraped_sample& sample);

}  // namespace runwarden
