#pragma once
// Gathers parsed lines into families, with the format's rules for which family a name belongs
// to and for HELP and TYPE lines:
// - a name is its own family if one exists; else x_sum and x_count belong to a summary or
//   histogram x, and x_bucket to a histogram x; else it starts a new family;
// - a family has at most one HELP and one TYPE line, and TYPE comes before its samples (a
//   family whose first sample comes without a TYPE line is untyped);
// - samples of a family may be spread over the page; families that end up without samples
//   (a HELP or TYPE line alone) are dropped.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/scrape/sample_role.hpp"
#include "src/scrape/scraped_page.hpp"

namespace runwarden {

struct family_ref {
  std::size_t index = 0;
  sample_role role = sample_role::plain;
};

class family_assembler {
 public:
  // The family `name` belongs to, created (without type) when there is none.
  family_ref family_for(std::string_view name);

  // Each returns the problem, worded for an error message, or nullopt.
  std::optional<std::string> declare_help(std::size_t index, std::string help);
  std::optional<std::string> declare_type(std::size_t index, std::string_view type_word);
  std::optional<std::string> add_sample(family_ref family, scraped_sample sample);

  scraped_page finish() &&;

 private:
  struct slot {
    scraped_family family;
    bool help_declared = false;
    bool type_fixed = false;  // by a TYPE line or by the first sample
  };
  struct name_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };

  std::optional<family_ref> find_with_suffix(std::string_view name) const;

  std::vector<slot> slots_;
  std::unordered_map<std::string, std::size_t, name_hash, std::equal_to<>> index_by_name_;
  // Consecutive lines nearly always name the same family; a name's family never changes
  // once found, so the last answer is kept.
  std::string last_name_;
  std::optional<family_ref> last_ref_;
};

}  // namespace runwarden
