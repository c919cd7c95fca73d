#pragma once
// Replay: a journal's entries fed through a fresh drain machine built from the header's
// config. Pure and deterministic, so the same journal gives the same text byte for byte:
//
//   #1 at=0ns warden_started
//     spawn_runner
//   #2 at=5000000ns runner_spawned pid=41
//     change_status starting->running
//
// Alongside, each event's replayed effects are compared with those the live run recorded;
// the first difference is kept (replay --check reports it).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/journal/journal_entry.hpp"

namespace runwarden {

struct replay_difference {
  std::uint64_t sequence = 0;
  std::size_t effect_index = 0;         // the first effect that differs
  std::optional<std::string> recorded;  // nullopt: the live run had fewer effects
  std::optional<std::string> replayed;  // nullopt: the replay has fewer effects
};

struct replay_result {
  std::string text;
  std::optional<replay_difference> first_difference;
};

replay_result replay_journal(const journal_header& header,
                             const std::vector<journal_entry>& entries);

// "entry 7, effect 2: recorded 'x', replayed 'y'"
std::string describe(const replay_difference& difference);

}  // namespace runwarden
