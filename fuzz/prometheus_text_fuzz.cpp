// libFuzzer target for the Prometheus text parser (scripts/fuzz.sh builds and runs it). Any
// input must give exactly a page or an error, never a crash, a hang or undefined behaviour,
// and what it gives must keep the parser's promises: families named once, never empty, labels
// sorted and unique, label values valid UTF-8, errors on a line the input has. The load
// derivation runs on every page too, since it reads whatever the parser lets through.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "fuzz/fuzz_promise.hpp"
#include "src/scrape/exposition_parser.hpp"
#include "src/scrape/gitlab_runner_load.hpp"
#include "src/scrape/utf8_validity.hpp"

namespace {

using namespace runwarden;
using fuzz::require;

void check_page(const scraped_page& page) {
  std::set<std::string_view> names;
  for (const scraped_family& family : page.families) {
    require(names.insert(family.name).second);
    require(!family.samples.empty());
    for (const scraped_sample& sample : family.samples) {
      require(sample.name.starts_with(family.name));
      for (std::size_t i = 0; i < sample.labels.size(); ++i) {
        require(is_valid_utf8(sample.labels[i].value));
        if (i > 0) require(sample.labels[i - 1].name < sample.labels[i].name);
      }
    }
  }
  const gitlab_runner_load load = derive_gitlab_runner_load(page);
  if (load.capacity && load.concurrent) require(*load.capacity <= *load.concurrent);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const exposition_result result = parse_exposition_text(text);
  if (result.page) {
    check_page(*result.page);
    return 0;
  }
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  require(result.error.line >= 1 && result.error.line <= lines + 1);
  require(!result.error.message.empty());
  return 0;
}
