#pragma once
// How full a file system is, as df reports it: the blocks in use over the blocks a normal
// user could have (used + available; the root reserve left out), in whole percent rounded
// up. The retirement's disk threshold ([runner] recycle_disk_path) reads it.

#include <cstdint>
#include <optional>
#include <string>

namespace runwarden {

// Nothing when the path cannot be read (statvfs failed): unknown, never "empty".
std::optional<std::uint32_t> disk_used_percent(const std::string& path);

}  // namespace runwarden
