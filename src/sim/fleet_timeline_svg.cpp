// Draws a fleet_timeline as one self-contained SVG: a time axis on top, a lane per instance
// (marks, lifecycle band, runner band, job rows), then a capacity panel and a legend. The
// text is written by hand with one-decimal numbers, so a timeline always gives the same
// bytes. Lanes are measured first, since the time grid runs down through all of them.

#include "src/sim/fleet_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>

namespace runwarden {

namespace {

// Sizes in SVG user units. The plot is 1016 wide: an hour gets ~17 units a minute.
constexpr double svg_width = 1200;
constexpr double gutter_width = 160;  // room for "i-0123456789abcdef0" in 11 px monospace
constexpr double plot_width = svg_width - gutter_width - 24;
constexpr double axis_y = 44;
constexpr double lanes_top = 52;
// Within a lane: marks on top, then the two bands, then the job rows.
constexpr double mark_centre = 6;
constexpr double band_height = 6;
constexpr double jobs_top = 28;
constexpr double job_pitch = 5;
constexpr std::size_t job_rows_max = 8;  // more rows squeeze into the height of eight
constexpr double lane_padding = 6;
constexpr double min_bar_width = 1;  // instants stay visible and hoverable
constexpr double panel_gap = 20;
constexpr double panel_height = 110;
constexpr double legend_gap = 24;
constexpr double legend_row = 18;
constexpr double legend_column = 145;
constexpr std::size_t legend_per_row = 8;
constexpr double max_ticks = 15;

constexpr std::string_view light_grey = "#d9d9d9";
constexpr std::string_view neutral = "#a1887f";  // states and marks the renderer doesn't know
constexpr std::string_view job_colour = "#3f51b5";
constexpr std::string_view killed_colour = "#e53935";
constexpr std::string_view desired_colour = "#5e35b1";
constexpr std::string_view limit_colour = "#9575cd";
constexpr std::string_view queued_colour = "#00897b";

// legend is empty for a state that shares the key of the one before it.
struct state_colour {
  std::string_view state, colour, legend;
};

constexpr std::array<state_colour, 8> lifecycle_colours{{
    {"Pending", light_grey, "Pending(:Wait)"},
    {"Pending:Wait", light_grey, ""},
    {"Pending:Proceed", light_grey, ""},
    {"InService", "#43a047", "InService"},
    {"Terminating:Wait", "#fb8c00", "Terminating:Wait"},
    {"Terminating", "#e65100", "Terminating(:Proceed)"},
    {"Terminating:Proceed", "#e65100", ""},
    {"Terminated", "#9e9e9e", "Terminated"},
}};

constexpr std::array<state_colour, 3> runner_colours{{
    {"running", "#1e88e5", "runner running"},
    {"draining", "#ffb300", "runner draining"},
    {"exited", light_grey, "runner exited"},
}};

// The two bands of a lane: which states they show, where, and how their tooltips start.
struct band_style {
  std::string_view name;
  std::span<const state_colour> colours;
  std::string_view tooltip_prefix;
  double top;
};

constexpr band_style lifecycle_band{"lifecycle", lifecycle_colours, "", 13};
constexpr band_style runner_band{"runner", runner_colours, "runner ", 20};

// A glyph is a path relative to its centre, so marks and legend keys are drawn alike.
struct mark_glyph {
  std::string_view name, shape, fill, stroke, stroke_width;
};

constexpr std::string_view cross = "m-3 -3l6 6m0 -6l-6 6";

constexpr std::array<mark_glyph, 9> mark_glyphs{{
    {"drain_started", "m-4 -4h8l-4 8z", "#ffb300", "#6d4c00", "0.5"},
    {"heartbeat", "m0 -3v6", "none", "#616161", "1"},
    {"completed", "m0 -4l4 4l-4 4l-4 -4z", "#2e7d32", "none", "0"},
    {"unregistered", "m-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0", "none", "#37474f", "1.2"},
    {"gone", "m-1.5 -4.5h3v9h-3z", "#212121", "none", "0"},
    {"spot_notice", "m1 -5l-4 6h3l-1 4l4 -6h-3z", "#d32f2f", "none", "0"},
    {"hook_timed_out", cross, "none", "#d32f2f", "2"},
    {"job_killed", cross, "none", "#8b0000", "1.5"},
    {"runwarden_crash", "m0 -5l1.5 3.5h3.5l-3 2l1 4l-3 -2.5l-3 2.5l1 -4l-3 -2h3.5z", "#6a1b9a",
     "none", "0"},
}};

constexpr mark_glyph unknown_glyph{"", "m-2 0a2 2 0 1 0 4 0a2 2 0 1 0 -4 0", neutral, "none", "0"};

template <typename... Args>
void emit(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// XML 1.0 cannot carry control characters other than tab and line ends, not even escaped.
bool is_unwritable(char character) {
  return static_cast<unsigned char>(character) < 0x20 && character != '\t' && character != '\n' &&
         character != '\r';
}

std::string xml_escaped(std::string_view text) {
  std::string escaped;
  for (const char character : text) {
    switch (character) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      default:
        escaped += is_unwritable(character) ? '?' : character;
    }
  }
  return escaped;
}

std::string clock_text(double seconds) {
  const auto whole = static_cast<long long>(std::floor(std::max(seconds, 0.0)));
  if (whole < 3600) return fmt::format("{:02}:{:02}", whole / 60, whole % 60);
  return fmt::format("{}:{:02}:{:02}", whole / 3600, whole / 60 % 60, whole % 60);
}

// "from → to", where an open end is the run's end.
std::string interval_text(double from, std::optional<double> to, double duration) {
  const std::string end = to ? clock_text(*to) : clock_text(duration) + " (still at the end)";
  return fmt::format("{} → {}", clock_text(from), end);
}

std::string_view colour_of(std::span<const state_colour> table, std::string_view state) {
  const auto found = std::ranges::find(table, state, &state_colour::state);
  return found == table.end() ? neutral : found->colour;
}

const mark_glyph& glyph_of(std::string_view kind) {
  const auto found = std::ranges::find(mark_glyphs, kind, &mark_glyph::name);
  return found == mark_glyphs.end() ? unknown_glyph : *found;
}

// The first of 10 s ... 1 day that needs at most max_ticks ticks; whole days past that.
double tick_step(double duration) {
  constexpr std::array<double, 15> steps{10,   15,   30,   60,    120,   300,   600,  900,
                                         1800, 3600, 7200, 10800, 21600, 43200, 86400};
  for (const double step : steps) {
    if (duration / step <= max_ticks) return step;
  }
  return std::ceil(duration / max_ticks / 86400) * 86400;
}

// 1, 2 or 5 times a power of ten, so that the panel has at most five value lines.
long long value_step(long long top) {
  for (long long scale = 1;; scale *= 10) {
    for (const long long factor : {1, 2, 5}) {
      if (top <= 5 * factor * scale) return factor * scale;
    }
  }
}

struct placed_job {
  const timeline_job* job;
  std::size_t row;  // counted from the top of the lane's job rows
};

struct lane_layout {
  double top = 0;
  double row_pitch = job_pitch;
  std::size_t rows = 0;
  std::vector<placed_job> jobs;

  double height() const { return jobs_top + row_pitch * static_cast<double>(rows) + lane_padding; }
};

// Each job, in start order, takes the first row that is free by its start.
void place_jobs(lane_layout& lane, const std::vector<timeline_job>& jobs, double duration) {
  for (const timeline_job& job : jobs) lane.jobs.push_back({&job, 0});
  std::stable_sort(lane.jobs.begin(), lane.jobs.end(), [](const auto& a, const auto& b) {
    return std::pair{a.job->start, a.job->id} < std::pair{b.job->start, b.job->id};
  });
  std::vector<double> row_free_at;
  for (placed_job& entry : lane.jobs) {
    const auto free = std::find_if(row_free_at.begin(), row_free_at.end(),
                                   [&](double at) { return at <= entry.job->start; });
    entry.row = static_cast<std::size_t>(free - row_free_at.begin());
    if (free == row_free_at.end()) row_free_at.emplace_back();
    row_free_at[entry.row] = entry.job->end.value_or(duration);
  }
  lane.rows = row_free_at.size();
  if (lane.rows > job_rows_max) lane.row_pitch = job_pitch * job_rows_max / lane.rows;
}

struct layout {
  double duration = 0;
  std::vector<lane_layout> lanes;
  double panel_top = 0;
  long long value_top = 1;

  double x(double at) const {
    return duration > 0 ? gutter_width + std::clamp(at, 0.0, duration) / duration * plot_width
                        : gutter_width;
  }
  double y(double value) const {
    return panel_top + panel_height * (1 - std::max(value, 0.0) / static_cast<double>(value_top));
  }
};

// The panel's top value: the highest sample or group limit, rounded up to a value line.
long long panel_top_value(const fleet_timeline& timeline) {
  int highest = std::max({1, timeline.group_min, timeline.group_max});
  for (const auto* samples : {&timeline.desired_capacity, &timeline.queued_jobs}) {
    for (const timeline_sample& sample : *samples) highest = std::max(highest, sample.value);
  }
  const long long step = value_step(highest);
  return (highest + step - 1) / step * step;
}

layout measure(const fleet_timeline& timeline) {
  layout measured;
  // A negative or non-finite duration draws as an empty run instead of being divided by.
  measured.duration = std::isfinite(timeline.duration) ? std::max(timeline.duration, 0.0) : 0;
  double next_top = lanes_top;
  for (const timeline_lane& lane : timeline.lanes) {
    lane_layout& placed = measured.lanes.emplace_back();
    placed.top = next_top;
    place_jobs(placed, lane.jobs, measured.duration);
    next_top += placed.height();
  }
  measured.panel_top = next_top + panel_gap;
  measured.value_top = panel_top_value(timeline);
  return measured;
}

void write_glyph(std::string& out, const mark_glyph& glyph, std::string_view role, double x,
                 double y, std::string_view tooltip) {
  emit(out, R"(<path class="{}" data-kind="{}" d="M{:.1f} {:.1f}{}" fill="{}" stroke="{}")", role,
       xml_escaped(glyph.name), x, y, glyph.shape, glyph.fill, glyph.stroke);
  emit(out,
       R"( stroke-width="{}"><title>{}</title></path>)"
       "\n",
       glyph.stroke_width, xml_escaped(tooltip));
}

void write_band(std::string& out, const layout& at, const std::vector<timeline_span>& spans,
                const band_style& band, double lane_top) {
  for (const timeline_span& span : spans) {
    const double left = at.x(span.from);
    const double width = std::max(at.x(span.to.value_or(at.duration)) - left, min_bar_width);
    emit(out, R"(<rect class="{}" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}">)",
         band.name, left, lane_top + band.top, width, band_height,
         colour_of(band.colours, span.state));
    emit(out, "<title>{}{} {}</title></rect>\n", band.tooltip_prefix, xml_escaped(span.state),
         interval_text(span.from, span.to, at.duration));
  }
}

void write_job(std::string& out, const layout& at, const lane_layout& lane,
               const placed_job& entry) {
  const timeline_job& job = *entry.job;
  const double left = at.x(job.start);
  const double right = std::max(at.x(job.end.value_or(at.duration)), left + min_bar_width);
  const double y = lane.top + jobs_top + lane.row_pitch * static_cast<double>(entry.row);
  const std::string tooltip =
      fmt::format("job {}: {}{}", job.id, interval_text(job.start, job.end, at.duration),
                  job.killed ? ", killed" : "");
  emit(out, R"(<rect class="job{}" data-job="{}" x="{:.1f}" y="{:.1f}" width="{:.1f}")",
       job.killed ? " killed" : "", job.id, left, y, right - left);
  emit(out,
       R"( height="{:.1f}" fill="{}"><title>{}</title></rect>)"
       "\n",
       lane.row_pitch * 0.8, job.killed ? killed_colour : job_colour, xml_escaped(tooltip));
  if (job.killed) {
    write_glyph(out, glyph_of("job_killed"), "mark", right, y + lane.row_pitch * 0.4, tooltip);
  }
}

void write_lane(std::string& out, const layout& at, const timeline_lane& lane,
                const lane_layout& placed, std::size_t index) {
  const std::string instance = xml_escaped(lane.instance_id);
  emit(out,
       R"(<g class="lane" id="lane-{}" data-instance="{}">)"
       "\n",
       index, instance);
  // Every other lane is shaded so that twenty stay easy to follow; translucent, so that the
  // time grid shows through.
  if (index % 2 == 1) {
    emit(out,
         R"(<rect x="0" y="{:.1f}" width="{}" height="{:.1f}" fill-opacity="0.04"/>)"
         "\n",
         placed.top, svg_width, placed.height());
  }
  emit(out, R"(<text class="lane-label" x="{}" y="{:.1f}" text-anchor="end")", gutter_width - 8,
       placed.top + runner_band.top + 2);
  emit(out,
       R"( font-family="monospace">{}</text>)"
       "\n",
       instance);
  write_band(out, at, lane.lifecycle, lifecycle_band, placed.top);
  write_band(out, at, lane.runner, runner_band, placed.top);
  for (const placed_job& job : placed.jobs) write_job(out, at, placed, job);
  for (const timeline_mark& mark : lane.marks) {
    write_glyph(out, glyph_of(mark.kind), "mark", at.x(mark.at), placed.top + mark_centre,
                fmt::format("{} at {}", mark.kind, clock_text(mark.at)));
  }
  out += "</g>\n";
}

void write_time_axis(std::string& out, const layout& at) {
  const double step = tick_step(at.duration);
  const auto last = static_cast<long long>(at.duration / step);
  emit(out,
       R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#616161"/>)"
       "\n",
       gutter_width, axis_y, gutter_width + plot_width, axis_y);
  for (long long tick = 0; tick <= last; ++tick) {
    const double x = at.x(static_cast<double>(tick) * step);
    emit(out,
         R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2:.1f}" stroke="#e0e0e0"/>)"
         "\n",
         x, axis_y, at.panel_top + panel_height);
    emit(out,
         R"(<text class="tick" x="{:.1f}" y="{}" text-anchor="middle">{}</text>)"
         "\n",
         x, axis_y - 5, clock_text(static_cast<double>(tick) * step));
  }
}

// Each sample's value holds until the next sample, the last one until the run's end.
void write_step_line(std::string& out, const layout& at,
                     const std::vector<timeline_sample>& samples, std::string_view role,
                     std::string_view name, std::string_view colour) {
  if (samples.empty()) return;
  std::string path;
  int highest = samples.front().value;
  for (const timeline_sample& sample : samples) {
    const double x = at.x(sample.at);
    const double y = at.y(sample.value);
    path +=
        path.empty() ? fmt::format("M{:.1f} {:.1f}", x, y) : fmt::format("H{:.1f}V{:.1f}", x, y);
    highest = std::max(highest, sample.value);
  }
  emit(path, "H{:.1f}", at.x(at.duration));
  emit(out, R"(<path class="{}" d="{}" fill="none" stroke="{}" stroke-width="1.5">)", role, path,
       colour);
  emit(out, "<title>{}: highest {}, last {}</title></path>\n", name, highest, samples.back().value);
}

void write_capacity_panel(std::string& out, const layout& at, const fleet_timeline& timeline) {
  emit(out,
       R"(<text x="8" y="{:.1f}" font-weight="bold">capacity and queue</text>)"
       "\n",
       at.panel_top + 10);
  const long long step = value_step(at.value_top);
  for (long long value = 0; value <= at.value_top; value += step) {
    const double y = at.y(static_cast<double>(value));
    emit(out,
         R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#eeeeee"/>)"
         "\n",
         gutter_width, y, gutter_width + plot_width, y);
    emit(out,
         R"(<text class="value" x="{}" y="{:.1f}" text-anchor="end">{}</text>)"
         "\n",
         gutter_width - 6, y + 4, value);
  }
  for (const auto& [limit, value] :
       {std::pair{"min", timeline.group_min}, std::pair{"max", timeline.group_max}}) {
    emit(out, R"(<line class="group-{0}" x1="{1}" y1="{2:.1f}" x2="{3}" y2="{2:.1f}" stroke="{4}")",
         limit, gutter_width, at.y(value), gutter_width + plot_width, limit_colour);
    emit(out,
         R"( stroke-dasharray="5 3"><title>group {} {}</title></line>)"
         "\n",
         limit, value);
  }
  write_step_line(out, at, timeline.desired_capacity, "desired-capacity", "desired capacity",
                  desired_colour);
  write_step_line(out, at, timeline.queued_jobs, "queued-jobs", "queued jobs", queued_colour);
}

// The legend's keys are glyphs too: state swatches, jobs, the panel's lines, then the marks.
// Returns the legend's bottom, which is the picture's.
double write_legend(std::string& out, double top) {
  constexpr std::string_view swatch = "m-6 -3h12v6h-12z";
  std::vector<mark_glyph> keys;
  for (const band_style* band : {&lifecycle_band, &runner_band}) {
    for (const state_colour& entry : band->colours) {
      if (!entry.legend.empty()) keys.push_back({entry.legend, swatch, entry.colour, "none", "0"});
    }
  }
  keys.push_back({"other state", swatch, neutral, "none", "0"});
  keys.push_back({"job", swatch, job_colour, "none", "0"});
  keys.push_back({"killed job", swatch, killed_colour, "none", "0"});
  keys.push_back({"desired capacity", "m-7 0h14", "none", desired_colour, "1.5"});
  keys.push_back({"group min / max", "m-7 0h4m3 0h4m3 0h4", "none", limit_colour, "1.5"});
  keys.push_back({"queued jobs", "m-7 0h14", "none", queued_colour, "1.5"});
  keys.insert(keys.end(), mark_glyphs.begin(), mark_glyphs.end());
  for (std::size_t slot = 0; slot < keys.size(); ++slot) {
    const double x = 12 + legend_column * static_cast<double>(slot % legend_per_row);
    const double y = top + legend_row * static_cast<double>(slot / legend_per_row);
    write_glyph(out, keys[slot], "key", x + 7, y, keys[slot].name);
    emit(out,
         R"(<text x="{:.1f}" y="{:.1f}">{}</text>)"
         "\n",
         x + 18, y + 4, keys[slot].name);
  }
  const std::size_t rows = (keys.size() + legend_per_row - 1) / legend_per_row;
  return top + legend_row * static_cast<double>(rows);
}

}  // namespace

std::string render_timeline_svg(const fleet_timeline& timeline) {
  const layout at = measure(timeline);
  // The body is written first: the legend's length sets the picture's height.
  std::string body;
  emit(body,
       R"(<text class="heading" x="8" y="20" font-size="14" font-weight="bold">{}</text>)"
       "\n",
       xml_escaped(timeline.title));
  write_time_axis(body, at);
  for (std::size_t index = 0; index < timeline.lanes.size(); ++index) {
    write_lane(body, at, timeline.lanes[index], at.lanes[index], index);
  }
  write_capacity_panel(body, at, timeline);
  const double height =
      std::ceil(write_legend(body, at.panel_top + panel_height + legend_gap) + legend_row / 2);

  std::string out = R"(<?xml version="1.0" encoding="UTF-8"?>)"
                    "\n";
  emit(out,
       R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}")"
       R"( viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="11">)"
       "\n",
       svg_width, height);
  emit(out, "<title>{}</title>\n", xml_escaped(timeline.title));
  emit(out,
       R"(<rect width="{}" height="{}" fill="#ffffff"/>)"
       "\n",
       svg_width, height);
  return out + body + "</svg>\n";
}

}  // namespace runwarden
