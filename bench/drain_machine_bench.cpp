// How many drain machine steps per second: the cost of every decision runwarden makes, and
// the bound on how fast replay and the simulation can go.
#include <benchmark/benchmark.h>

#include <csignal>

#include "src/drain/drain_machine.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

drain_config bench_config() {
  return drain_config{
      .graceful_signal = SIGQUIT,
      .forceful_signal = SIGTERM,
      .restart = restart_settings{.type = restart_type::permanent, .budget_restarts_max = 1000000},
      .drain_timeout = 1h,
      .kill_timeout = 10s,
      .random_seed = 1};
}

// A whole life: start, crash and restart, drain, deadline, kill, exit.
void drain_life_cycle(benchmark::State& state) {
  std::int64_t steps = 0;
  for (auto _ : state) {
    drain_machine machine{bench_config()};
    instant now{0};
    auto effects = machine.step(warden_started{}, now);
    effects = machine.step(runner_spawned{100}, now);
    effects = machine.step(runner_exited{100, exit_status{false, 1}}, now += 1s);
    const auto restart = std::get<arm_timer>(effects.front());
    effects = machine.step(timer_fired{restart.kind, restart.id}, restart.at);
    effects = machine.step(runner_spawned{101}, now = restart.at);
    effects =
        machine.step(shutdown_requested{.source = trigger_source::signal_terminate}, now += 1s);
    effects = machine.step(runner_exited{101, exit_status{false, 0}}, now += 1s);
    benchmark::DoNotOptimize(effects);
    steps += 7;
  }
  state.SetItemsProcessed(steps);
}
BENCHMARK(drain_life_cycle);

}  // namespace

BENCHMARK_MAIN();
