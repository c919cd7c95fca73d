// See fleet_scenario.hpp. Each key has one reader; the table of readers is the list of
// keys, so an unknown key is simply one not in it.
#include "src/sim/fleet_scenario.hpp"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <toml++/toml.h>

#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

class reader {
 public:
  reader(std::string file, fleet_scenario& scenario) : file_(std::move(file)), s_(scenario) {}

  void refuse(const toml::node& node, const std::string& key, const std::string& problem) {
    errors_.push_back(fmt::format("{}:{}: {}: {}", file_, node.source().begin.line, key, problem));
  }

  template <class number>
  void number_in(const toml::node& node, const std::string& key, number& target, double low,
                 double high) {
    std::optional<double> value;
    if (const auto* integer = node.as_integer()) value = static_cast<double>(integer->get());
    if (const auto* floating = node.as_floating_point()) value = floating->get();
    if (!value) return refuse(node, key, "expected a number");
    if (*value < low || *value > high)
      return refuse(node, key, fmt::format("{} is not between {} and {}", *value, low, high));
    target = static_cast<number>(*value);
  }

  template <class span>
  void duration(const toml::node& node, const std::string& key, span& target, bool zero_ok) {
    const auto* text = node.as_string();
    if (!text) return refuse(node, key, "expected a duration such as \"90s\" or \"1h\"");
    const auto parsed = parse_duration(text->get());
    if (!parsed.value) return refuse(node, key, parsed.error);
    if (!zero_ok && parsed.value->count() == 0)
      return refuse(node, key, "must be greater than zero");
    target = std::chrono::duration_cast<span>(*parsed.value);
  }

  void flag(const toml::node& node, const std::string& key, bool& target) {
    if (const auto* value = node.as_boolean())
      target = value->get();
    else
      refuse(node, key, "expected true or false");
  }

  void bursts(const toml::node& node, const std::string& key) {
    const auto* array = node.as_array();
    if (!array) return refuse(node, key, "expected an array of { at = \"10m\", jobs = 50 }");
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto element_key = fmt::format("{}[{}]", key, i);
      const auto* table = (*array)[i].as_table();
      if (!table || !table->contains("at") || !table->contains("jobs"))
        return refuse((*array)[i], element_key, "expected { at = \"10m\", jobs = 50 }");
      job_burst burst;
      duration(*table->get("at"), element_key + ".at", burst.at, true);
      number_in(*table->get("jobs"), element_key + ".jobs", burst.jobs, 1, 100000);
      s_.bursts.push_back(burst);
    }
  }

  void capacity_changes(const toml::node& node, const std::string& key) {
    const auto* array = node.as_array();
    if (!array) return refuse(node, key, "expected an array of { at = \"20m\", desired = 6 }");
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto element_key = fmt::format("{}[{}]", key, i);
      const auto* table = (*array)[i].as_table();
      if (!table || !table->contains("at") || !table->contains("desired"))
        return refuse((*array)[i], element_key, "expected { at = \"20m\", desired = 6 }");
      capacity_change change;
      duration(*table->get("at"), element_key + ".at", change.at, true);
      number_in(*table->get("desired"), element_key + ".desired", change.desired, 0, 500);
      s_.capacity_changes.push_back(change);
    }
  }

  void cloud(const toml::node& node, const std::string& key) {
    const auto* text = node.as_string();
    if (text && text->get() == "aws")
      s_.cloud = fleet_cloud::aws;
    else if (text && text->get() == "azure")
      s_.cloud = fleet_cloud::azure;
    else if (text && text->get() == "gcp")
      s_.cloud = fleet_cloud::gcp;
    else
      refuse(node, key, "expected \"aws\", \"azure\" or \"gcp\"");
  }

  void scaler(const toml::node& node, const std::string& key) {
    const auto* text = node.as_string();
    if (text && text->get() == "none")
      s_.scaler = group_scaler::none;
    else if (text && text->get() == "target-tracking")
      s_.scaler = group_scaler::target_tracking;
    else
      refuse(node, key, "expected \"none\" or \"target-tracking\"");
  }

  // A high-resolution metric's period, as target tracking takes them.
  void metric_period(const toml::node& node, const std::string& key) {
    std::chrono::seconds period{0};
    duration(node, key, period, false);
    if (period.count() == 0) return;
    if (period.count() != 10 && period.count() != 20 && period.count() != 30 &&
        period.count() != 60)
      return refuse(node, key, "must be 10s, 20s, 30s or 60s, as target tracking allows");
    s_.target_tracking.metric_period = period;
  }

  void after_exit(const toml::node& node, const std::string& key) {
    const auto* text = node.as_string();
    if (text && text->get() == "restart")
      s_.after_exit = after_exit_action::restart;
    else if (text && text->get() == "retire")
      s_.after_exit = after_exit_action::retire;
    else
      refuse(node, key, "expected \"restart\" or \"retire\"");
  }

  void on_give_up(const toml::node& node, const std::string& key) {
    const auto* text = node.as_string();
    const std::string word = text ? text->get() : std::string{};
    if (word == "exit")
      s_.on_give_up = give_up_choice::exit;
    else if (word == "unhealthy")
      s_.on_give_up = give_up_choice::unhealthy;
    else if (word == "retire")
      s_.on_give_up = give_up_choice::retire;
    else
      refuse(node, key, "expected \"exit\", \"unhealthy\" or \"retire\"");
  }

  using key_reader = std::function<void(const toml::node&, const std::string&)>;

  std::map<std::string, key_reader> readers() {
    auto& f = s_.faults;
    auto& tt = s_.target_tracking;
    return {
        {"name",
         [&](const toml::node& n, const std::string& k) {
           if (const auto* text = n.as_string())
             s_.name = text->get();
           else
             refuse(n, k, "expected a string");
         }},
        {"duration", [&](const auto& n, const auto& k) { duration(n, k, s_.duration, false); }},
        {"group.min", [&](const auto& n, const auto& k) { number_in(n, k, s_.min_size, 0, 500); }},
        {"group.max", [&](const auto& n, const auto& k) { number_in(n, k, s_.max_size, 1, 500); }},
        {"group.desired",
         [&](const auto& n, const auto& k) { number_in(n, k, s_.desired, 0, 500); }},
        {"group.boot_time",
         [&](const auto& n, const auto& k) { duration(n, k, s_.boot_time, true); }},
        {"group.heartbeat_timeout",
         [&](const auto& n, const auto& k) { duration(n, k, s_.heartbeat_timeout, false); }},
        {"group.global_timeout",
         [&](const auto& n, const auto& k) { duration(n, k, s_.global_timeout, false); }},
        {"group.launch_hook", [&](const auto& n, const auto& k) { flag(n, k, s_.launch_hook); }},
        {"group.cloud", [&](const auto& n, const auto& k) { cloud(n, k); }},
        {"group.terminate_notification",
         [&](const auto& n, const auto& k) { duration(n, k, s_.terminate_notification, false); }},
        {"group.spot_share",
         [&](const auto& n, const auto& k) { number_in(n, k, s_.spot_share, 0, 1); }},
        {"group.shutdown_period",
         [&](const auto& n, const auto& k) { duration(n, k, s_.shutdown_period, false); }},
        {"group.scaler", [&](const auto& n, const auto& k) { scaler(n, k); }},
        {"target_tracking.target_value",
         [&](const auto& n, const auto& k) { number_in(n, k, tt.target_value, 1, 100); }},
        {"target_tracking.instance_warmup",
         [&](const auto& n, const auto& k) { duration(n, k, tt.instance_warmup, true); }},
        {"target_tracking.metric_period",
         [&](const auto& n, const auto& k) { metric_period(n, k); }},
        {"target_tracking.disable_scale_in",
         [&](const auto& n, const auto& k) { flag(n, k, tt.disable_scale_in); }},
        {"runner.concurrency",
         [&](const auto& n, const auto& k) { number_in(n, k, s_.concurrency, 1, 1000); }},
        {"runner.poll_interval",
         [&](const auto& n, const auto& k) { duration(n, k, s_.poll_interval, false); }},
        {"runner.scaling", [&](const auto& n, const auto& k) { flag(n, k, s_.scaling); }},
        {"runner.api",
         [&](const toml::node& n, const std::string& k) {
           const auto* text = n.as_string();
           if (text && text->get() == "gitlab")
             s_.api = runner_api::gitlab;
           else if (text && text->get() == "github")
             s_.api = runner_api::github;
           else
             refuse(n, k, "expected \"gitlab\" or \"github\"");
         }},
        {"runner.one_job", [&](const auto& n, const auto& k) { flag(n, k, s_.one_job); }},
        {"runner.job_hooks", [&](const auto& n, const auto& k) { flag(n, k, s_.job_hooks); }},
        {"runner.after_exit", [&](const auto& n, const auto& k) { after_exit(n, k); }},
        {"runner.idle_retire_after",
         [&](const auto& n, const auto& k) {
           std::chrono::seconds after{0};
           duration(n, k, after, false);
           s_.idle_retire_after = after;
         }},
        {"runner.on_give_up", [&](const auto& n, const auto& k) { on_give_up(n, k); }},
        {"runner.recycle_after_jobs",
         [&](const auto& n, const auto& k) {
           std::uint32_t jobs = 0;
           number_in(n, k, jobs, 1, 1000000);
           s_.recycle_after_jobs = jobs;
         }},
        {"load.jobs_per_minute",
         [&](const auto& n, const auto& k) { number_in(n, k, s_.jobs_per_minute, 0, 100000); }},
        {"load.bursts", [&](const auto& n, const auto& k) { bursts(n, k); }},
        {"load.job_duration_min",
         [&](const auto& n, const auto& k) { duration(n, k, s_.job_duration_min, false); }},
        {"load.job_duration_max",
         [&](const auto& n, const auto& k) { duration(n, k, s_.job_duration_max, false); }},
        {"events.instance_refresh_at",
         [&](const auto& n, const auto& k) {
           std::chrono::seconds at{0};
           duration(n, k, at, true);
           s_.instance_refresh_at = at;
         }},
        {"events.capacity_changes", [&](const auto& n, const auto& k) { capacity_changes(n, k); }},
        {"events.spot_interruptions_per_hour",
         [&](const auto& n, const auto& k) {
           number_in(n, k, s_.spot_interruptions_per_hour, 0, 1000);
         }},
        {"faults.api_error_rate",
         [&](const auto& n, const auto& k) { number_in(n, k, f.api_error_rate, 0, 0.9); }},
        {"faults.throttle_rate",
         [&](const auto& n, const auto& k) { number_in(n, k, f.throttle_rate, 0, 0.9); }},
        {"faults.busy_rate",
         [&](const auto& n, const auto& k) { number_in(n, k, f.busy_rate, 0, 0.9); }},
        {"faults.drop_rate",
         [&](const auto& n, const auto& k) { number_in(n, k, f.drop_rate, 0, 0.5); }},
        {"faults.imds_error_rate",
         [&](const auto& n, const auto& k) { number_in(n, k, f.imds_error_rate, 0, 0.9); }},
        {"faults.latency_max",
         [&](const auto& n, const auto& k) { duration(n, k, f.latency_max, true); }},
        {"faults.runner_crashes_per_hour",
         [&](const auto& n, const auto& k) { number_in(n, k, f.runner_crashes_per_hour, 0, 100); }},
        {"faults.runwarden_crashes_per_hour",
         [&](const auto& n, const auto& k) {
           number_in(n, k, f.runwarden_crashes_per_hour, 0, 100);
         }},
        {"faults.runwarden_restart_after",
         [&](const auto& n, const auto& k) { duration(n, k, f.runwarden_restart_after, false); }},
        {"faults.until",
         [&](const auto& n, const auto& k) {
           std::chrono::seconds until{0};
           duration(n, k, until, true);
           f.faults_until = until;
         }},
    };
  }

  void read(const toml::table& root) {
    const auto known = readers();
    for (const auto& [name, node] : root) {
      const std::string key{name.str()};
      if (const auto* table = node.as_table()) {
        for (const auto& [inner_name, inner] : *table) {
          const auto inner_key = key + "." + std::string{inner_name.str()};
          apply(known, inner_key, inner);
        }
      } else {
        apply(known, key, node);
      }
    }
  }

  void check_together(const toml::table& root) {
    if (!errors_.empty()) return;
    const auto at = [&](const char* key) -> const toml::node& {
      const auto* node = root.at_path(key).node();
      return node ? *node : static_cast<const toml::node&>(root);
    };
    if (s_.min_size > s_.max_size) refuse(at("group.min"), "group.min", "is above group.max");
    if (s_.api == runner_api::github && s_.concurrency != 1)
      refuse(at("runner.concurrency"), "runner.concurrency",
             "must be 1 with runner.api = \"github\": an Actions runner runs one job at a time");
    if (s_.desired < s_.min_size || s_.desired > s_.max_size)
      refuse(at("group.desired"), "group.desired", "must be within [group.min, group.max]");
    if (s_.job_duration_min > s_.job_duration_max)
      refuse(at("load.job_duration_min"), "load.job_duration_min",
             "is above load.job_duration_max");
    for (std::size_t i = 0; i < s_.capacity_changes.size(); ++i)
      if (s_.capacity_changes[i].desired < s_.min_size ||
          s_.capacity_changes[i].desired > s_.max_size) {
        const auto key = fmt::format("events.capacity_changes[{}].desired", i);
        refuse(at("events.capacity_changes"), key, "must be within [group.min, group.max]");
      }
    check_cloud(root, at);
    check_scaler(root, at);
    check_retirement(root, at);
  }

  // A one-job runner runs one job at a time; a retirement ends the instance through the
  // Auto Scaling API (the simulated runwardens have no retire_command to run).
  template <class locate>
  void check_retirement(const toml::table& root, const locate& at) {
    if (s_.one_job && s_.concurrency != 1)
      refuse(at("runner.concurrency"), "runner.concurrency",
             "must be 1 with runner.one_job: a one-job runner takes one job");
    if (s_.cloud != fleet_cloud::aws)
      for (const char* key :
           {"runner.after_exit", "runner.on_give_up", "runner.recycle_after_jobs"})
        if (root.at_path(key).node())
          refuse(at(key), key,
                 "only with group.cloud = \"aws\": the instance end calls Auto Scaling");
    if (s_.idle_retire_after && s_.after_exit != after_exit_action::retire)
      refuse(at("runner.idle_retire_after"), "runner.idle_retire_after",
             "only with runner.after_exit = \"retire\"");
  }

  // The group's target tracking decides capacity alone: runwarden's own scaler would fight
  // it, and it needs the Auto Scaling group it is a policy of.
  template <class locate>
  void check_scaler(const toml::table& root, const locate& at) {
    if (s_.scaler == group_scaler::none) {
      if (root.at_path("target_tracking").node())
        refuse(at("target_tracking"), "target_tracking",
               "only with group.scaler = \"target-tracking\"");
      return;
    }
    if (s_.cloud != fleet_cloud::aws)
      refuse(at("group.scaler"), "group.scaler",
             "\"target-tracking\" only with group.cloud = \"aws\"");
    if (s_.scaling)
      refuse(at("runner.scaling"), "runner.scaling",
             "not with group.scaler = \"target-tracking\": runwarden keeps only scale-in "
             "protection while busy, the group's policy sets the capacity");
    if (s_.api == runner_api::github)
      refuse(at("runner.api"), "runner.api",
             "not with group.scaler = \"target-tracking\": an Actions runner has no metrics "
             "page, so runwarden publishes no job slots for it");
  }

  // Each cloud's own keys, and what another cloud does not have: Azure and Google Cloud
  // groups have no lifecycle hooks, and the scaler speaks the Auto Scaling API.
  template <class locate>
  void check_cloud(const toml::table& root, const locate& at) {
    const auto given = [&](const char* key) { return root.at_path(key).node() != nullptr; };
    const std::pair<const char*, fleet_cloud> own_keys[] = {
        {"group.terminate_notification", fleet_cloud::azure},
        {"group.spot_share", fleet_cloud::azure},
        {"group.shutdown_period", fleet_cloud::gcp}};
    for (const auto& [key, cloud] : own_keys)
      if (given(key) && s_.cloud != cloud)
        refuse(at(key), key,
               fmt::format("only with group.cloud = \"{}\"",
                           cloud == fleet_cloud::azure ? "azure" : "gcp"));
    if (s_.cloud == fleet_cloud::aws) return;
    for (const char* key :
         {"group.launch_hook", "group.heartbeat_timeout", "group.global_timeout", "runner.scaling"})
      if (given(key))
        refuse(at(key), key,
               "only with group.cloud = \"aws\": Auto Scaling lifecycle hooks "
               "and the scaler's Auto Scaling API");
    s_.launch_hook = false;
    if (s_.cloud == fleet_cloud::gcp) {
      if (given("runner.poll_interval"))
        refuse(at("runner.poll_interval"), "runner.poll_interval",
               "not with group.cloud = \"gcp\": Google's metadata reads wait for a change");
      const auto period = s_.shutdown_period;
      if (period < std::chrono::seconds{30} || period > std::chrono::hours{1})
        refuse(at("group.shutdown_period"), "group.shutdown_period",
               "must be between 30s and 1h (90s on demand; graceful shutdown allows up to 1h)");
      return;
    }
    if (given("events.instance_refresh_at"))
      refuse(at("events.instance_refresh_at"), "events.instance_refresh_at",
             "not with group.cloud = \"azure\": a scale set upgrades its VMs in place; use "
             "events.capacity_changes");
    if (s_.terminate_notification < std::chrono::minutes{5} ||
        s_.terminate_notification > std::chrono::minutes{15})
      refuse(at("group.terminate_notification"), "group.terminate_notification",
             "must be between 5m and 15m, as a scale set's notBeforeTimeout is");
    if (s_.spot_interruptions_per_hour > 0 && s_.spot_share == 0)
      refuse(at("events.spot_interruptions_per_hour"), "events.spot_interruptions_per_hour",
             "needs group.spot_share above 0: Azure evicts only Spot VMs");
  }

  std::vector<std::string> errors_;

 private:
  void apply(const std::map<std::string, key_reader>& known, const std::string& key,
             const toml::node& node) {
    const auto found = known.find(key);
    if (found == known.end()) return refuse(node, key, "unknown key");
    found->second(node, key);
  }

  std::string file_;
  fleet_scenario& s_;
};

}  // namespace

scenario_read parse_fleet_scenario(const std::string& text, const std::string& file_name) {
  toml::table root;
  try {
    root = toml::parse(text, file_name);
  } catch (const toml::parse_error& error) {
    return {std::nullopt,
            {fmt::format("{}:{}: {}", file_name, error.source().begin.line, error.description())}};
  }
  fleet_scenario scenario;
  reader read{file_name, scenario};
  read.read(root);
  read.check_together(root);
  if (!read.errors_.empty()) return {std::nullopt, std::move(read.errors_)};
  return {std::move(scenario), {}};
}

scenario_read read_fleet_scenario(const std::string& path) {
  std::ifstream file{path, std::ios::binary};
  if (!file) return {std::nullopt, {path + ": cannot be read"}};
  std::ostringstream text;
  text << file.rdbuf();
  return parse_fleet_scenario(text.str(), path);
}

}  // namespace runwarden
