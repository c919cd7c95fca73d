#pragma once
// What a fleet simulation run records for people to look at: per instance, its lifecycle
// and runner states over time, its jobs, its drain and the lifecycle calls; for the fleet,
// the desired capacity and the job queue. Times are virtual seconds from the start of the
// run. The simulation fills it; render_timeline_svg draws it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace runwarden {

// A span of one state: [from, to), to unset while the state lasts at the run's end.
struct timeline_span {
  double from = 0;
  std::optional<double> to;
  std::string state;  // "Pending", "InService", "Terminating:Wait", "Terminated"; or the
                      // runner's "running", "draining", "exited"
};

struct timeline_job {
  std::uint64_t id = 0;
  double start = 0;
  std::optional<double> end;
  bool killed = false;  // ended by a kill, not by finishing
};

struct timeline_mark {
  double at = 0;
  std::string kind;  // "drain_started", "heartbeat", "completed", "unregistered", "gone",
                     // "spot_notice", "hook_timed_out", "job_killed"
};

struct timeline_lane {
  std::string instance_id;
  std::vector<timeline_span> lifecycle;  // the instance's Auto Scaling lifecycle state
  std::vector<timeline_span> runner;     // the runner process
  std::vector<timeline_job> jobs;
  std::vector<timeline_mark> marks;
};

struct timeline_sample {
  double at = 0;
  int value = 0;
};

struct fleet_timeline {
  double duration = 0;                            // the run's length, seconds
  std::vector<timeline_lane> lanes;               // in launch order
  std::vector<timeline_sample> desired_capacity;  // one sample per change
  std::vector<timeline_sample> queued_jobs;       // one sample per change
  int group_min = 0;
  int group_max = 0;
  std::string title;  // scenario name and seed
};

// A self-contained SVG document, readable for 20 instances over an hour.
std::string render_timeline_svg(const fleet_timeline& timeline);

}  // namespace runwarden
