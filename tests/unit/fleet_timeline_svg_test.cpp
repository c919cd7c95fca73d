// The timeline SVG is parsed back with pugixml: it must be well-formed XML whatever the
// input, and its structure (lanes, job rows, colours, tooltips, ticks) is checked through
// the classes and data attributes the renderer writes.

#include "src/sim/fleet_timeline.hpp"

#include <catch2/catch.hpp>
#include <pugixml.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>

namespace {

using namespace runwarden;

// Holds the text, because pugixml's document points into what it parsed.
struct parsed_svg {
  std::string text;
  pugi::xml_document document;
  pugi::xml_parse_result result;

  explicit parsed_svg(std::string svg)
      : text(std::move(svg)), result(document.load_string(text.c_str())) {}

  pugi::xml_node root() const { return document.child("svg"); }
  pugi::xpath_node_set all(const char* query) const { return document.select_nodes(query); }
  pugi::xml_node one(const char* query) const { return document.select_node(query).node(); }
};

timeline_lane draining_lane() {
  timeline_lane lane;
  lane.instance_id = "i-0aaa";
  lane.lifecycle = {{0, 20, "Pending"},
                    {20, 400, "InService"},
                    {400, 460, "Terminating:Wait"},
                    {460, std::nullopt, "Terminated"}};
  lane.runner = {{25, 400, "running"}, {400, 450, "draining"}, {450, std::nullopt, "exited"}};
  // 1 and 2 overlap; 3 starts after 1 has ended; 17 starts after 2 has ended, while 3 runs.
  lane.jobs = {
      {1, 30, 200, false}, {2, 60, 250, false}, {3, 210, 300, false}, {17, 260, 420, true}};
  lane.marks = {{400, "drain_started"}, {420, "job_killed"}, {430, "heartbeat"},
                {450, "unregistered"},  {460, "completed"},  {470, "gone"}};
  return lane;
}

timeline_lane spot_lane() {
  timeline_lane lane;
  lane.instance_id = "i-0bbb";
  lane.lifecycle = {{100, 130, "Pending"}, {130, std::nullopt, "InService"}};
  lane.runner = {{140, std::nullopt, "running"}};
  lane.jobs = {{4, 150, std::nullopt, false}};
  lane.marks = {{500, "spot_notice"}, {560, "hook_timed_out"}};
  return lane;
}

fleet_timeline small_timeline() {
  fleet_timeline timeline;
  timeline.duration = 600;
  timeline.title = "two runners, seed 7";
  timeline.lanes = {draining_lane(), spot_lane()};
  timeline.desired_capacity = {{0, 1}, {90, 2}, {400, 1}};
  timeline.queued_jobs = {{0, 0}, {50, 2}, {300, 0}};
  timeline.group_min = 1;
  timeline.group_max = 4;
  return timeline;
}

double job_y(const parsed_svg& svg, int id) {
  const std::string query = "//rect[@data-job='" + std::to_string(id) + "']";
  return svg.one(query.c_str()).attribute("y").as_double();
}

bool is_finite_number(const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return end != text && *end == '\0' && std::isfinite(value);
}

}  // namespace

TEST_CASE("A small timeline renders as well-formed SVG with a size and a view box",
          "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  REQUIRE(svg.result);
  const pugi::xml_node root = svg.root();
  REQUIRE(root);
  const std::string width = root.attribute("width").value();
  const std::string height = root.attribute("height").value();
  CHECK(width == "1200");
  CHECK(std::atoi(height.c_str()) > 0);
  CHECK(std::string{root.attribute("viewBox").value()} == "0 0 " + width + " " + height);
  CHECK(std::string{root.child("title").text().get()} == "two runners, seed 7");
}

TEST_CASE("Each instance gets one lane with one label", "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  const auto labels = svg.all("//g[@class='lane']/text[@class='lane-label']");
  REQUIRE(labels.size() == 2);
  CHECK(std::string{labels[0].node().text().get()} == "i-0aaa");
  CHECK(std::string{labels[1].node().text().get()} == "i-0bbb");
}

TEST_CASE("A killed job is drawn in the killed colour with a tooltip naming it",
          "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  const pugi::xml_node killed = svg.one("//rect[@data-job='17']");
  REQUIRE(killed);
  CHECK(std::string{killed.attribute("class").value()} == "job killed");
  CHECK(std::string{killed.attribute("fill").value()} == "#e53935");
  const std::string tooltip = killed.child("title").text().get();
  CHECK(tooltip == "job 17: 04:20 → 07:00, killed");
  CHECK(std::string{svg.one("//rect[@data-job='1']").attribute("fill").value()} != "#e53935");
  // The marker at the bar's end, besides the job_killed mark the lane recorded.
  CHECK(svg.all("//g[@id='lane-0']/path[@data-kind='job_killed']").size() == 2);
}

TEST_CASE("Overlapping jobs land in different rows and a job takes the first free row",
          "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  CHECK(job_y(svg, 1) < job_y(svg, 2));
  CHECK(job_y(svg, 3) == job_y(svg, 1));
  CHECK(job_y(svg, 17) == job_y(svg, 2));
}

TEST_CASE("More than eight overlapping jobs squeeze into the height of eight rows",
          "[sim][timeline]") {
  fleet_timeline timeline;
  timeline.duration = 600;
  timeline.lanes.push_back({"i-busy", {}, {}, {}, {}});
  for (std::uint64_t id = 1; id <= 12; ++id) {
    timeline.lanes[0].jobs.push_back({id, static_cast<double>(id), 500, false});
  }
  const parsed_svg svg{render_timeline_svg(timeline)};
  REQUIRE(svg.result);
  std::set<double> rows;
  for (int id = 1; id <= 12; ++id) rows.insert(job_y(svg, id));
  CHECK(rows.size() == 12);
  CHECK(*rows.rbegin() - *rows.begin() < 8 * 5);
}

TEST_CASE("Lifecycle and runner states get their colours, unknown states a neutral one",
          "[sim][timeline]") {
  fleet_timeline timeline = small_timeline();
  timeline.lanes[1].lifecycle.push_back({590, std::nullopt, "Standby"});
  const parsed_svg svg{render_timeline_svg(timeline)};
  const auto fill_of = [&](const char* query) {
    return std::string{svg.one(query).attribute("fill").value()};
  };
  CHECK(fill_of("//rect[@class='lifecycle'][title='Pending 00:00 → 00:20']") == "#d9d9d9");
  CHECK(fill_of("//rect[@class='lifecycle'][title='InService 00:20 → 06:40']") == "#43a047");
  CHECK(fill_of("//rect[@class='lifecycle'][title='Terminating:Wait 06:40 → 07:40']") == "#fb8c00");
  CHECK(fill_of("//rect[@class='lifecycle'][starts-with(title, 'Terminated')]") == "#9e9e9e");
  CHECK(fill_of("//rect[@class='lifecycle'][starts-with(title, 'Standby')]") == "#a1887f");
  CHECK(fill_of("//rect[@class='runner'][starts-with(title, 'runner draining')]") == "#ffb300");
}

TEST_CASE("Spans and jobs still open at the end reach the end of the run", "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  const pugi::xml_node terminated =
      svg.one("//rect[@class='lifecycle'][starts-with(title, 'Terminated')]");
  CHECK(std::string{terminated.child("title").text().get()} ==
        "Terminated 07:40 → 10:00 (still at the end)");
  const pugi::xml_node open_job = svg.one("//rect[@data-job='4']");
  const double right =
      open_job.attribute("x").as_double() + open_job.attribute("width").as_double();
  CHECK(right ==
        Approx(terminated.attribute("x").as_double() + terminated.attribute("width").as_double()));
}

TEST_CASE("Every mark gets a glyph with a tooltip saying what and when", "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  CHECK(svg.all("//g[@class='lane']/path[@class='mark']").size() == 9);
  const pugi::xml_node spot = svg.one("//g[@id='lane-1']/path[@data-kind='spot_notice']");
  CHECK(std::string{spot.child("title").text().get()} == "spot_notice at 08:20");
}

TEST_CASE("The capacity panel draws step lines between dashed group limits", "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(small_timeline())};
  const pugi::xml_node desired = svg.one("//path[@class='desired-capacity']");
  REQUIRE(desired);
  CHECK(std::string{desired.attribute("d").value()}.starts_with("M160.0 "));
  CHECK(svg.one("//path[@class='queued-jobs']"));
  for (const char* limit : {"//line[@class='group-min']", "//line[@class='group-max']"}) {
    CHECK(std::string{svg.one(limit).attribute("stroke-dasharray").value()} == "5 3");
  }
  CHECK(std::string{svg.one("//line[@class='group-max']").child("title").text().get()} ==
        "group max 4");
}

TEST_CASE("An hour-long run gets a tick every five minutes", "[sim][timeline]") {
  fleet_timeline timeline;
  timeline.duration = 3600;
  const parsed_svg svg{render_timeline_svg(timeline)};
  const auto ticks = svg.all("//text[@class='tick']");
  REQUIRE(ticks.size() == 13);
  CHECK(std::string{ticks[0].node().text().get()} == "00:00");
  CHECK(std::string{ticks[1].node().text().get()} == "05:00");
  CHECK(std::string{ticks[12].node().text().get()} == "1:00:00");
}

TEST_CASE("The same timeline always renders to the same bytes", "[sim][timeline]") {
  const fleet_timeline timeline = small_timeline();
  const std::string first = render_timeline_svg(timeline);
  CHECK(render_timeline_svg(timeline) == first);
  CHECK(render_timeline_svg(small_timeline()) == first);
}

TEST_CASE("An empty timeline renders a valid SVG", "[sim][timeline]") {
  const parsed_svg svg{render_timeline_svg(fleet_timeline{})};
  REQUIRE(svg.result);
  REQUIRE(svg.root());
  CHECK(svg.all("//g[@class='lane']").empty());
  CHECK(svg.all("//text[@class='tick']").size() == 1);
}

TEST_CASE("A run of no duration with open spans writes only finite numbers", "[sim][timeline]") {
  fleet_timeline timeline = small_timeline();
  timeline.duration = 0;
  const parsed_svg svg{render_timeline_svg(timeline)};
  REQUIRE(svg.result);
  for (const char* name : {"x", "y", "width", "height", "x1", "y1", "x2", "y2"}) {
    for (const pugi::xpath_node& node : svg.all((std::string{"//*[@"} + name + "]").c_str())) {
      INFO(name << " of <" << node.node().name() << ">");
      CHECK(is_finite_number(node.node().attribute(name).value()));
    }
  }
}

TEST_CASE("XML special characters in the title and instance ids are escaped", "[sim][timeline]") {
  fleet_timeline timeline = small_timeline();
  timeline.title = R"(spot <"refresh"> & 'drain')";
  timeline.lanes[0].instance_id = R"(i-<&>"')";
  const parsed_svg svg{render_timeline_svg(timeline)};
  REQUIRE(svg.result);
  CHECK(std::string{svg.root().child("title").text().get()} == timeline.title);
  CHECK(std::string{svg.one("//text[@class='heading']").text().get()} == timeline.title);
  const pugi::xml_node lane = svg.one("//g[@id='lane-0']");
  CHECK(std::string{lane.attribute("data-instance").value()} == R"(i-<&>"')");
  CHECK(std::string{lane.child("text").text().get()} == R"(i-<&>"')");
}
