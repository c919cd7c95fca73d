// See restart_decision.hpp.
#include "src/supervision/restart_decision.hpp"

#include <algorithm>
#include <cmath>

#include "src/util/assert.hpp"

namespace runwarden {

bool exit_calls_for_restart(restart_type type, const exit_status& status) {
  switch (type) {
    case restart_type::permanent:
      return true;
    case restart_type::transient:
      return !status.normal();
    case restart_type::temporary:
      return false;
  }
  return false;
}

duration backoff_delay(const restart_settings& settings, std::size_t restarts_in_window,
                       double unit_random) {
  RUNWARDEN_ASSERT(unit_random >= 0.0 && unit_random < 1.0);
  RUNWARDEN_ASSERT(settings.jitter >= 0.0 && settings.jitter <= 1.0);
  const auto initial = std::chrono::duration_cast<duration>(settings.backoff_initial);
  const auto maximum = std::chrono::duration_cast<duration>(settings.backoff_max);
  // Doubling past 2^32 cannot matter: the cap is reached long before.
  const auto exponent = std::min<std::size_t>(restarts_in_window, 32);
  const double uncapped = static_cast<double>(initial.count()) * std::ldexp(1.0, int(exponent));
  const double capped = std::min(uncapped, static_cast<double>(maximum.count()));
  const double jittered = capped * (1.0 - settings.jitter * unit_random);
  const auto delay = duration{static_cast<duration::rep>(jittered)};
  RUNWARDEN_ASSERT(delay <= maximum || maximum < initial);
  return delay;
}

void forget_restarts_outside_window(std::vector<instant>& restarts, duration window, instant now) {
  std::erase_if(restarts, [&](instant at) { return now - at >= window; });
}

bool restart_budget_allows_one_more(const restart_settings& settings,
                                    const std::vector<instant>& restarts_in_window) {
  return restarts_in_window.size() < settings.budget_restarts_max;
}

}  // namespace runwarden
