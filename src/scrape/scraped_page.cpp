// See scraped_page.hpp.
#include "src/scrape/scraped_page.hpp"

#include <algorithm>

namespace runwarden {

std::string_view name_of(scraped_type type) {
  switch (type) {
    case scraped_type::counter:
      return "counter";
    case scraped_type::gauge:
      return "gauge";
    case scraped_type::histogram:
      return "histogram";
    case scraped_type::summary:
      return "summary";
    case scraped_type::untyped:
      return "untyped";
  }
  return "untyped";
}

const scraped_family* find_family(const scraped_page& page, std::string_view name) {
  const auto found =
      std::find_if(page.families.begin(), page.families.end(),
                   [name](const scraped_family& family) { return family.name == name; });
  return found == page.families.end() ? nullptr : &*found;
}

std::optional<std::string_view> label_value(const scraped_sample& sample, std::string_view name) {
  for (const scraped_label& label : sample.labels)
    if (label.name == name) return label.value;
  return std::nullopt;
}

}  // namespace runwarden
