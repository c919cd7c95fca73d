#pragma once
// The keeper's clocks: systemd's watchdog, which the keeper pings from its own loop; the
// warden's, which the warden must ping (WATCHDOG=1 through the keeper) within an interval or
// be killed and started again; and the backoff between a warden's end and the next start.

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace runwarden {

class keeper_timing {
 public:
  using clock = std::chrono::steady_clock;
  // A warden that ran this long had started well: its end is no crash loop.
  static constexpr std::chrono::seconds stable_after{60};
  // Without systemd's WatchdogSec=, the warden is still watched, at this interval.
  static constexpr std::chrono::seconds default_warden_interval{60};
  // Never shorter: a warden killed for a late ping is restarted, and a short WatchdogSec= on
  // a loaded machine would turn slowness into a restart loop. systemd hears the keeper.
  static constexpr std::chrono::seconds warden_interval_min{10};
  // A warden starting up (cloud detection with its timeouts, the journal, the first
  // snapshot) gets at least this long for its first ping.
  static constexpr std::chrono::seconds first_ping_min{60};
  static constexpr std::chrono::milliseconds first_restart_delay{100};
  static constexpr std::chrono::seconds restart_delay_max{30};
  // Failed starts in a row after which a keeper with no runner to keep gives up.
  static constexpr int failed_starts_max = 5;

  keeper_timing();

  // systemd's watchdog: when the next ping is due (max() without one), and whether it is due
  // now (then the one after is scheduled).
  clock::time_point next_systemd_ping(clock::time_point now) const;
  bool systemd_ping_due(clock::time_point now);

  std::chrono::microseconds warden_interval() const { return warden_interval_; }
  long long warden_interval_us() const { return warden_interval_.count(); }
  long long warden_interval_s() const {
    return std::chrono::duration_cast<std::chrono::seconds>(warden_interval_).count();
  }
  std::chrono::microseconds first_ping_within() const {
    return std::max<std::chrono::microseconds>(2 * warden_interval_, first_ping_min);
  }

  // The wait before the next start, longer each time (counted as a failed start).
  std::chrono::milliseconds restart_delay();
  void reset_backoff() { failed_starts_ = 0; }
  bool gave_up() const { return failed_starts_ >= failed_starts_max; }

 private:
  std::chrono::microseconds systemd_interval_{0};
  clock::time_point next_systemd_ping_{};
  std::chrono::microseconds warden_interval_{default_warden_interval};
  int failed_starts_ = 0;
};

}  // namespace runwarden
