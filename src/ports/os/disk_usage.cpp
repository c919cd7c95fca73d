// See disk_usage.hpp.
#include "src/ports/os/disk_usage.hpp"

#include <sys/statvfs.h>

namespace runwarden {

std::optional<std::uint32_t> disk_used_percent(const std::string& path) {
  struct statvfs stats {};
  if (::statvfs(path.c_str(), &stats) != 0) return std::nullopt;
  const auto used = static_cast<std::uint64_t>(stats.f_blocks - stats.f_bfree);
  const auto usable = used + static_cast<std::uint64_t>(stats.f_bavail);
  if (usable == 0) return std::nullopt;
  return static_cast<std::uint32_t>((used * 100 + usable - 1) / usable);
}

}  // namespace runwarden
