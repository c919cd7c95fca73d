// See process_identity_probe.hpp. /proc/PID/stat is "pid (comm) state ppid ...": comm may
// hold spaces and parentheses, so the fields are counted from the last ')'.
#include "src/ports/os/process_identity_probe.hpp"

#include <fstream>
#include <sstream>

namespace runwarden {

namespace {

std::optional<std::string> boot_id() {
  std::ifstream file{"/proc/sys/kernel/random/boot_id"};
  std::string id;
  if (!std::getline(file, id) || id.empty()) return std::nullopt;
  return id;
}

std::optional<std::uint64_t> start_time_ticks(pid_t pid) {
  std::ifstream file{"/proc/" + std::to_string(pid) + "/stat"};
  std::string stat;
  if (!std::getline(file, stat)) return std::nullopt;
  const auto comm_end = stat.rfind(')');
  if (comm_end == std::string::npos) return std::nullopt;
  std::istringstream fields{stat.substr(comm_end + 1)};
  std::string field;
  // The first field after comm is field 3 (state); starttime is field 22.
  for (int number = 3; number < 22; ++number)
    if (!(fields >> field)) return std::nullopt;
  std::uint64_t ticks = 0;
  if (!(fields >> ticks)) return std::nullopt;
  return ticks;
}

}  // namespace

std::optional<process_identity> read_process_identity(pid_t pid) {
  const auto ticks = start_time_ticks(pid);
  const auto boot = boot_id();
  if (!ticks || !boot) return std::nullopt;
  return process_identity{*ticks, *boot};
}

std::string identity_problem(pid_t pid, const process_identity& recorded) {
  if (!recorded.recorded())
    return "the journal records no start time and boot for it, so nothing proves it is the "
           "runner";
  const auto live = read_process_identity(pid);
  if (!live) return "no such process can be read in /proc";
  if (live->boot_id != recorded.boot_id)
    return "the journal's runner started in boot " + recorded.boot_id + ", this is boot " +
           live->boot_id;
  if (live->start_time_ticks != recorded.start_time_ticks)
    return "it started at tick " + std::to_string(live->start_time_ticks) +
           " since boot, the journal's runner at tick " + std::to_string(recorded.start_time_ticks);
  return {};
}

}  // namespace runwarden
