#pragma once
// What a journal holds, in the drain machine's own types: one header (who made the journal
// and the machine's configuration) and then one entry per input, with the effects the live
// run produced for it as their canonical text.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct journal_header {
  std::string created_by;            // "runwarden 0.1.0"
  std::int64_t created_unix_ns = 0;  // wall-clock time of creation, for people
  drain_config config;
};

struct journal_entry {
  std::uint64_t sequence = 0;  // 1, 2, 3, ... without gaps
  instant at{0};
  drain_event event;
  std::vector<std::string> effects;  // to_string(drain_effect), in the order returned
};

using journal_record = std::variant<journal_header, journal_entry>;

}  // namespace runwarden
