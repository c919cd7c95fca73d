// See family_assembler.hpp.
#include "src/scrape/family_assembler.hpp"

#include <array>
#include <utility>

#include "src/scrape/quoted_text.hpp"
#include "src/util/assert.hpp"

namespace runwarden {
namespace {

struct suffix_rule {
  std::string_view suffix;
  sample_role role;
  bool for_summary;
};

constexpr std::array<suffix_rule, 3> suffix_rules{{
    {"_count", sample_role::count, true},
    {"_sum", sample_role::sum, true},
    {"_bucket", sample_role::bucket, false},
}};

std::optional<scraped_type> type_named(std::string_view word) {
  for (const scraped_type type :
       {scraped_type::counter, scraped_type::gauge, scraped_type::histogram, scraped_type::summary,
        scraped_type::untyped})
    if (name_of(type) == word) return type;
  return std::nullopt;
}

}  // namespace

std::optional<family_ref> family_assembler::find_with_suffix(std::string_view name) const {
  for (const suffix_rule& rule : suffix_rules) {
    if (name.size() <= rule.suffix.size() || !name.ends_with(rule.suffix)) continue;
    const auto base = index_by_name_.find(name.substr(0, name.size() - rule.suffix.size()));
    if (base == index_by_name_.end()) return std::nullopt;
    const scraped_type type = slots_[base->second].family.type;
    const bool fits =
        type == scraped_type::histogram || (rule.for_summary && type == scraped_type::summary);
    if (!fits) return std::nullopt;
    return family_ref{base->second, rule.role};
  }
  return std::nullopt;
}

family_ref family_assembler::family_for(std::string_view name) {
  if (last_ref_ && name == last_name_) return *last_ref_;
  family_ref found;
  if (const auto exact = index_by_name_.find(name); exact != index_by_name_.end()) {
    found = family_ref{exact->second, sample_role::plain};
  } else if (const auto with_suffix = find_with_suffix(name)) {
    found = *with_suffix;
  } else {
    found = family_ref{slots_.size(), sample_role::plain};
    slots_.push_back(slot{scraped_family{std::string{name}, scraped_type::untyped, {}, {}}});
    index_by_name_.emplace(std::string{name}, found.index);
  }
  last_name_.assign(name);
  last_ref_ = found;
  return found;
}

std::optional<std::string> family_assembler::declare_help(std::size_t index, std::string help) {
  RUNWARDEN_ASSERT(index < slots_.size());
  slot& target = slots_[index];
  if (target.help_declared) return "second HELP line for metric name " + quoted(target.family.name);
  target.help_declared = true;
  target.family.help = std::move(help);
  return std::nullopt;
}

std::optional<std::string> family_assembler::declare_type(std::size_t index,
                                                          std::string_view type_word) {
  RUNWARDEN_ASSERT(index < slots_.size());
  slot& target = slots_[index];
  if (target.type_fixed)
    return "second TYPE line for metric name " + quoted(target.family.name) +
           ", or TYPE reported after samples";
  const std::optional<scraped_type> type = type_named(type_word);
  if (!type)
    return "unknown metric type " + quoted(type_word) +
           " (text format 0.0.4 knows counter, gauge, histogram, summary and untyped)";
  target.type_fixed = true;
  target.family.type = *type;
  return std::nullopt;
}

std::optional<std::string> family_assembler::add_sample(family_ref family, scraped_sample sample) {
  RUNWARDEN_ASSERT(family.index < slots_.size());
  slot& target = slots_[family.index];
  target.type_fixed = true;
  if (auto problem = check_sample_role(target.family, family.role, sample)) return problem;
  target.family.samples.push_back(std::move(sample));
  return std::nullopt;
}

scraped_page family_assembler::finish() && {
  scraped_page page;
  page.families.reserve(slots_.size());
  for (slot& each : slots_)
    if (!each.family.samples.empty()) page.families.push_back(std::move(each.family));
  return page;
}

}  // namespace runwarden
