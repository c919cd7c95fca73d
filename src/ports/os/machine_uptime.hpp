#pragma once
// How long this machine has been up: the kernel's boot clock (CLOCK_BOOTTIME, which counts
// time suspended too, as /proc/uptime does). It is what an operator means by an instance's
// uptime, and it goes on across restarts of runwarden, so the retirement's uptime bound
// ([runner] recycle_after_uptime) counts from it. In a container it is the host's uptime,
// since the kernel is shared.

#include <chrono>
#include <optional>

namespace runwarden {

// Nothing when the clock cannot be read.
std::optional<std::chrono::milliseconds> machine_uptime();

}  // namespace runwarden
