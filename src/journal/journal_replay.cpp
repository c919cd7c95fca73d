// See journal_replay.hpp.
#include "src/journal/journal_replay.hpp"

#include <algorithm>

#include "src/drain/drain_effect_text.hpp"
#include "src/drain/drain_event_text.hpp"

namespace runwarden {

namespace {

std::optional<replay_difference> compare(const journal_entry& entry,
                                         const std::vector<std::string>& replayed) {
  const auto& recorded = entry.effects;
  const auto [left, right] =
      std::mismatch(recorded.begin(), recorded.end(), replayed.begin(), replayed.end());
  if (left == recorded.end() && right == replayed.end()) return std::nullopt;
  return replay_difference{
      .sequence = entry.sequence,
      .effect_index = static_cast<std::size_t>(left - recorded.begin()),
      .recorded = left == recorded.end() ? std::nullopt : std::optional{*left},
      .replayed = right == replayed.end() ? std::nullopt : std::optional{*right}};
}

std::string quoted_or_none(const std::optional<std::string>& effect) {
  return effect ? "'" + *effect + "'" : std::string{"nothing"};
}

}  // namespace

replay_result replay_journal(const journal_header& header,
                             const std::vector<journal_entry>& entries) {
  drain_machine machine{header.config};
  replay_result result;
  for (const auto& entry : entries) {
    result.text += "#" + std::to_string(entry.sequence) +
                   " at=" + std::to_string(entry.at.count()) + "ns " + to_string(entry.event) +
                   "\n";
    std::vector<std::string> replayed;
    for (const auto& effect : machine.step(entry.event, entry.at)) {
      replayed.push_back(to_string(effect));
      result.text += "  " + replayed.back() + "\n";
    }
    if (!result.first_difference) result.first_difference = compare(entry, replayed);
  }
  return result;
}

std::string describe(const replay_difference& difference) {
  return "entry " + std::to_string(difference.sequence) + ", effect " +
         std::to_string(difference.effect_index + 1) + ": recorded " +
         quoted_or_none(difference.recorded) + ", replayed " + quoted_or_none(difference.replayed);
}

}  // namespace runwarden
