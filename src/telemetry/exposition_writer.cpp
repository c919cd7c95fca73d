// See exposition_writer.hpp. The format: https://prometheus.io/docs/instrumenting/
// exposition_formats/ (text format 0.0.4). Names are checked by assertion: they are chosen
// in this code base, never taken from input, so a bad one is a bug.
#include "src/telemetry/exposition_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

bool valid_name(std::string_view name, bool colon_allowed) {
  if (name.empty()) return false;
  for (std::size_t index = 0; index < name.size(); ++index) {
    const char c = name[index];
    const bool letter =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon_allowed && c == ':');
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && index > 0)) return false;
  }
  return true;
}

void write_labels(std::string& out, const label_set& labels, const metric_label* extra) {
  if (labels.empty() && extra == nullptr) return;
  out += '{';
  bool first = true;
  const auto write_one = [&](const metric_label& label) {
    RUNWARDEN_ASSERT(valid_name(label.name, false) && !label.name.starts_with("__"));
    if (!first) out += ',';
    first = false;
    out += label.name;
    out += "=\"";
    out += escape_label_value(label.value);
    out += '"';
  };
  for (const auto& label : labels) write_one(label);
  if (extra != nullptr) write_one(*extra);
  out += '}';
}

void write_line(std::string& out, std::string_view name, const label_set& labels,
                const metric_label* extra, double value) {
  out += name;
  write_labels(out, labels, extra);
  out += ' ';
  out += format_sample_value(value);
  out += '\n';
}

void write_histogram(std::string& out, const std::string& name, const histogram_sample& sample) {
  const auto& histogram = sample.histogram;
  RUNWARDEN_ASSERT(histogram.bucket_counts.size() == histogram.upper_bounds.size());
  const std::string bucket_name = name + "_bucket";
  std::uint64_t cumulative = 0;
  for (std::size_t index = 0; index < histogram.upper_bounds.size(); ++index) {
    cumulative += histogram.bucket_counts[index];
    const metric_label le{"le", format_sample_value(histogram.upper_bounds[index])};
    write_line(out, bucket_name, sample.labels, &le, static_cast<double>(cumulative));
  }
  RUNWARDEN_ASSERT(cumulative <= histogram.count);
  const metric_label infinity{"le", "+Inf"};
  write_line(out, bucket_name, sample.labels, &infinity, static_cast<double>(histogram.count));
  write_line(out, name + "_sum", sample.labels, nullptr, histogram.sum);
  write_line(out, name + "_count", sample.labels, nullptr, static_cast<double>(histogram.count));
}

std::string_view type_name(metric_type type) {
  switch (type) {
    case metric_type::counter:
      return "counter";
    case metric_type::gauge:
      return "gauge";
    case metric_type::histogram:
      return "histogram";
  }
  return "untyped";
}

}  // namespace

std::string format_sample_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Shortest round-trip form: 0.1 stays "0.1", 3.0 prints "3", 1e21 prints "1e+21".
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  RUNWARDEN_ASSERT(error == std::errc{});
  return std::string(buffer.data(), end);
}

std::string escape_label_value(std::string_view value) {
  std::string result;
  result.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      result += "\\\\";
    } else if (c == '"') {
      result += "\\\"";
    } else if (c == '\n') {
      result += "\\n";
    } else {
      result += c;
    }
  }
  return result;
}

std::string escape_help(std::string_view help) {
  std::string result;
  result.reserve(help.size());
  for (const char c : help) {
    if (c == '\\') {
      result += "\\\\";
    } else if (c == '\n') {
      result += "\\n";
    } else {
      result += c;
    }
  }
  return result;
}

std::string write_exposition(std::span<const metric_family> families) {
  std::string out;
  for (const auto& family : families) {
    RUNWARDEN_ASSERT(valid_name(family.name, true));
    RUNWARDEN_ASSERT(family.type == metric_type::histogram || family.histograms.empty());
    RUNWARDEN_ASSERT(family.type != metric_type::histogram || family.samples.empty());
    out += "# HELP " + family.name + ' ' + escape_help(family.help) + '\n';
    out += "# TYPE " + family.name + ' ' + std::string{type_name(family.type)} + '\n';
    for (const auto& sample : family.samples)
      write_line(out, family.name, sample.labels, nullptr, sample.value);
    for (const auto& sample : family.histograms) write_histogram(out, family.name, sample);
  }
  return out;
}

}  // namespace runwarden
