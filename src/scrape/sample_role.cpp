// See sample_role.hpp.
#include "src/scrape/sample_role.hpp"

#include "src/scrape/exposition_number.hpp"
#include "src/scrape/quoted_text.hpp"

namespace runwarden {
namespace {

// The problem with the float label `name` that `kind` samples need, or nullopt.
std::optional<std::string> check_float_label(const scraped_sample& sample, std::string_view name,
                                             std::string_view kind) {
  const std::optional<std::string_view> text = label_value(sample, name);
  if (!text)
    return std::string{kind} + " sample " + quoted(sample.name) + " has no '" + std::string{name} +
           "' label";
  if (!parse_sample_value(*text))
    return "expected float as value for '" + std::string{name} + "' label, got " + quoted(*text);
  return std::nullopt;
}

std::optional<std::string> check_histogram(const scraped_family& family, sample_role role,
                                           const scraped_sample& sample) {
  switch (role) {
    case sample_role::plain:
      return "histogram " + quoted(family.name) + " has sample " + quoted(sample.name) +
             " without a _bucket, _sum or _count suffix";
    case sample_role::bucket:
      if (auto problem = check_float_label(sample, "le", "histogram bucket")) return problem;
      if (sample.value < 0)
        return "negative bucket population for histogram " + quoted(family.name);
      return std::nullopt;
    case sample_role::count:
      if (sample.value < 0) return "negative count for histogram " + quoted(family.name);
      return std::nullopt;
    case sample_role::sum:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> check_summary(const scraped_family& family, sample_role role,
                                         const scraped_sample& sample) {
  switch (role) {
    case sample_role::plain:
      return check_float_label(sample, "quantile", "summary quantile");
    case sample_role::count:
      if (sample.value < 0) return "negative count for summary " + quoted(family.name);
      return std::nullopt;
    case sample_role::bucket:  // a summary never resolves x_bucket to x (see family_assembler)
    case sample_role::sum:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_sample_role(const scraped_family& family, sample_role role,
                                             const scraped_sample& sample) {
  switch (family.type) {
    case scraped_type::histogram:
      return check_histogram(family, role, sample);
    case scraped_type::summary:
      return check_summary(family, role, sample);
    case scraped_type::counter:
    case scraped_type::gauge:
    case scraped_type::untyped:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace runwarden
