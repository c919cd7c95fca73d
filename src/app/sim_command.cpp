// See sim_command.hpp.
#include "src/app/sim_command.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "src/app/seed_arguments.hpp"
#include "src/sim/fleet_run.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

struct sim_options {
  std::string scenario;
  std::optional<std::string> seed;  // N
  std::string seeds;                // "A..B"
  std::string report = "text";
  std::string journal;
  std::string journal_instance;
  std::string timeline;
  std::string log_level = "off";
};

bool write_file(const std::string& path, const std::string& content) {
  std::ofstream file{path, std::ios::binary | std::ios::trunc};
  file << content;
  return static_cast<bool>(file);
}

std::string repro(const sim_options& options, std::uint64_t seed) {
  return fmt::format("runwarden sim {} --seed {}", options.scenario, seed);
}

int run_one(const sim_options& options, const fleet_scenario& scenario, std::uint64_t seed) {
  const auto result = run_fleet(scenario, {.seed = seed,
                                           .journal_file = options.journal,
                                           .journal_instance = options.journal_instance,
                                           .log_level = options.log_level});
  std::cout << (options.report == "json" ? report_json(result.report) : report_text(result.report));
  if (!result.error.empty()) {
    std::cerr << "runwarden sim: " << result.error << '\n';
    return exit_cant_create;
  }
  if (!options.timeline.empty() &&
      !write_file(options.timeline, render_timeline_svg(result.timeline))) {
    std::cerr << "runwarden sim: cannot write " << options.timeline << '\n';
    return exit_cant_create;
  }
  std::cout << std::flush;
  if (result.report.violations.empty()) return 0;
  std::cerr << "runwarden sim: invariant broken; repeat with: " << repro(options, seed) << '\n';
  return 1;
}

// One line per seed: a short text line, or with --report json the seed's whole report as
// one JSON object; then a summary line (JSON too with --report json).
void print_seed(const sim_options& options, const fleet_report& report) {
  if (options.report == "json") {
    std::cout << report_json_line(report);
    return;
  }
  std::uint64_t killed = 0;
  for (const auto& [why, count] : report.jobs_killed) killed += count;
  std::cout << fmt::format("seed {}: {} jobs finished, {} killed, {} drains, {} completions, {}\n",
                           report.seed, report.jobs_finished, killed, report.drains_gone,
                           report.lifecycle_completed,
                           report.violations.empty() ? "ok" : "VIOLATION");
  if (report.violations.empty()) return;
  for (const auto& v : report.violations)
    std::cout << fmt::format("  {} at {:.0f}s: {}\n", v.invariant, v.at, v.detail);
  std::cout << "  repeat with: " << repro(options, report.seed) << '\n';
}

void print_summary(const sim_options& options, std::uint64_t first, std::uint64_t last,
                   const std::vector<std::uint64_t>& broken) {
  if (options.report == "json") {
    const nlohmann::ordered_json summary{{"summary",
                                          {{"scenario", options.scenario},
                                           {"first_seed", first},
                                           {"last_seed", last},
                                           {"seeds", last - first + 1},
                                           {"broken", broken.size()},
                                           {"broken_seeds", broken}}}};
    std::cout << summary.dump() << '\n';
    return;
  }
  std::cout << fmt::format("{} seeds, {} with a broken invariant\n", last - first + 1,
                           broken.size());
}

int run_range(const sim_options& options, const fleet_scenario& scenario, std::uint64_t first,
              std::uint64_t last) {
  std::vector<std::uint64_t> broken;
  // Counted up to `last` inclusive without passing it: last may be the largest seed.
  for (auto seed = first;; ++seed) {
    const auto result = run_fleet(scenario, {.seed = seed});
    print_seed(options, result.report);
    if (!result.report.violations.empty()) {
      broken.push_back(seed);
      if (options.report == "json")
        std::cerr << "runwarden sim: invariant broken; repeat with: " << repro(options, seed)
                  << '\n';
    }
    if (seed == last) break;
  }
  print_summary(options, first, last, broken);
  return broken.empty() ? 0 : 1;
}

int run_sim(const sim_options& options) {
  if (!options.seeds.empty() && (!options.journal.empty() || !options.timeline.empty())) {
    std::cerr << "runwarden sim: --journal and --timeline need a single --seed\n";
    return exit_usage;
  }
  const auto range = options.seeds.empty() ? std::nullopt : parse_seed_range(options.seeds);
  if (!options.seeds.empty() && !range) {
    std::cerr << "runwarden sim: --seeds wants A..B, " << seed_rule_text << " with A <= B, got \""
              << options.seeds << "\"\n";
    return exit_usage;
  }
  const auto seed = options.seed ? parse_seed(*options.seed) : std::optional<std::uint64_t>{1};
  if (!seed) {
    std::cerr << "runwarden sim: --seed wants one of the " << seed_rule_text << ", got \""
              << *options.seed << "\"\n";
    return exit_usage;
  }
  const auto read = read_fleet_scenario(options.scenario);
  if (!read.scenario) {
    for (const auto& error : read.errors) std::cerr << "runwarden sim: " << error << '\n';
    return exit_config;
  }
  if (range) return run_range(options, *read.scenario, range->first, range->second);
  return run_one(options, *read.scenario, *seed);
}

}  // namespace

sim_command add_sim_command(CLI::App& app) {
  auto options = std::make_shared<sim_options>();
  auto* sim = app.add_subcommand("sim", "run a whole fleet in a deterministic simulation");
  sim->add_option("SCENARIO", options->scenario, "scenario file (see config/scenarios)")
      ->required();
  auto* seed = sim->add_option("--seed", options->seed, "the seed to run (default 1)");
  sim->add_option("--seeds", options->seeds, "a range of seeds, A..B")->excludes(seed);
  sim->add_option("--report", options->report, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  auto* journal = sim->add_option("--journal", options->journal,
                                  "write one instance's journal here (runwarden replay reads it)");
  sim->add_option("--journal-instance", options->journal_instance,
                  "whose journal --journal writes, e.g. i-000003 (default: the first instance)")
      ->needs(journal);
  sim->add_option("--timeline", options->timeline, "draw the run as an SVG here");
  sim->add_option("--log-level", options->log_level,
                  "runwarden's own log of every instance, on stderr (default off)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  return {[sim] { return sim->parsed(); }, [options] { return run_sim(*options); }};
}

}  // namespace runwarden
