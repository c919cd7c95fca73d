#pragma once
// How the journal's writes are going, as /metrics shows it: healthy while every entry the
// warden made is on disk; while the disk refuses (full, or turned read-only) the entries
// wait in memory and are written again, in order, once it takes them.

#include <cstdint>

namespace runwarden {

struct journal_health {
  bool healthy = true;  // every entry so far is written
  std::uint64_t write_failures_total = 0;
  std::uint64_t unrecorded_entries = 0;  // made by the warden, not yet on disk
  friend bool operator==(const journal_health&, const journal_health&) = default;
};

}  // namespace runwarden
