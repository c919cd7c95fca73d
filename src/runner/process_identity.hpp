#pragma once
// Which process a pid named, beyond the pid: its start time (in clock ticks since boot,
// /proc/PID/stat field 22) and the boot it started in (/proc/sys/kernel/random/boot_id). A
// pid is reused once its process is reaped, and every pid after a reboot; a journal names
// the runner by pid, so the journal records this too, and nothing a journal names is
// adopted or signalled before the process behind the pid is proved to be this one.

#include <cstdint>
#include <string>

namespace runwarden {

struct process_identity {
  std::uint64_t start_time_ticks = 0;
  std::string boot_id;  // empty: not recorded (a journal from before, a keeper's runner)
  bool recorded() const { return !boot_id.empty(); }
  friend bool operator==(const process_identity&, const process_identity&) = default;
};

}  // namespace runwarden
