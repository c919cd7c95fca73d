// See exposition_parser.hpp. One pass over the page, byte by byte, like the reference
// parser's state machine: each line is a comment, a HELP or TYPE line, a sample or blank.
// Runs of plain bytes are taken as string_views into the page; strings are built only for
// what the result keeps (names, label values, help), and label values without escapes are
// copied in one piece. Running out of input anywhere but at the start of a line is the
// reference parser's "unexpected end of input stream": every line must end in '\n'.
#include "src/scrape/exposition_parser.hpp"

#include <algorithm>
#include <utility>

#include "src/scrape/exposition_names.hpp"
#include "src/scrape/exposition_number.hpp"
#include "src/scrape/family_assembler.hpp"
#include "src/scrape/quoted_text.hpp"
#include "src/scrape/text_cursor.hpp"
#include "src/scrape/utf8_validity.hpp"

namespace runwarden {
namespace {

// The reference parser's words for a page that stops where more was due, such as a last
// line without its '\n'.
constexpr std::string_view end_of_input = "unexpected end of input stream";

std::string found(char byte) { return "found " + quoted(std::string_view{&byte, 1}); }

// Names in double quotes, alone or first in braces, are the UTF-8 syntax of later formats;
// say so rather than only "invalid".
std::string invalid_name(std::string_view what, char next) {
  std::string message{what};
  if (next == '"' || next == '{') message += " (quoted names are newer than text format 0.0.4)";
  return message;
}

std::string invalid_escape(char byte, std::string_view where) {
  const bool printable = byte > ' ' && byte < 0x7f;
  return "invalid escape sequence " +
         (printable ? "'\\" + std::string(1, byte) + "'" : "'\\' then " + quoted({&byte, 1})) +
         " in " + std::string{where};
}

class page_parser {
 public:
  explicit page_parser(std::string_view text) : cursor_{text} {}

  exposition_result run() {
    for (;;) {
      cursor_.skip_blanks();
      if (cursor_.at_end()) break;
      const char first = cursor_.peek();
      if (first == '\n') {
        cursor_.next_line();
        continue;
      }
      const bool parsed = first == '#' ? comment_line() : sample_line();
      if (!parsed) return {std::nullopt, std::move(error_)};
    }
    return {std::move(families_).finish(), {}};
  }

 private:
  bool fail(std::string message) {
    error_ = exposition_error{cursor_.line(), std::move(message)};
    return false;
  }

  // True (with the error set) when the input ends where more was due.
  bool ended() {
    if (!cursor_.at_end()) return false;
    fail(std::string{end_of_input});
    return true;
  }

  // Moves onto the line's '\n'; false (with the error set) when the input ends first.
  bool reach_newline() {
    if (cursor_.skip_to_newline()) return true;
    return fail(std::string{end_of_input});
  }

  // True when the line ends here; moves onto the next line.
  bool line_ended() {
    if (cursor_.peek() != '\n') return false;
    cursor_.next_line();
    return true;
  }

  bool comment_line();
  bool help_or_type_line(std::string_view keyword);
  bool help_text(std::string& help);
  bool sample_line();
  bool labels(std::string_view metric_name, scraped_sample& sample);
  bool label_value(std::string& value);
  bool value_and_timestamp(scraped_sample& sample);

  text_cursor cursor_;
  family_assembler families_;
  exposition_error error_;
  std::size_t last_label_count_ = 0;
};

// "# anything", "# HELP name text", "# TYPE name type".
bool page_parser::comment_line() {
  cursor_.advance();
  cursor_.skip_blanks();
  if (ended()) return false;
  if (line_ended()) return true;
  const std::string_view keyword = cursor_.take_token();
  if (ended()) return false;
  if (line_ended()) return true;
  if (keyword == "HELP" || keyword == "TYPE") return help_or_type_line(keyword);
  if (!reach_newline()) return false;
  cursor_.next_line();
  return true;
}

// A HELP or TYPE line without a name, or with a name and nothing after it, says nothing and
// is no error (the reference parser agrees).
bool page_parser::help_or_type_line(std::string_view keyword) {
  cursor_.skip_blanks();
  if (ended()) return false;
  const std::string_view name = take_metric_name(cursor_);
  if (ended()) return false;
  if (line_ended()) return true;
  if (!is_blank(cursor_.peek()))
    return fail(invalid_name("invalid metric name in comment", cursor_.peek()));
  const std::size_t family = families_.family_for(name).index;
  cursor_.skip_blanks();
  if (ended()) return false;
  if (line_ended()) return true;
  std::optional<std::string> problem;
  if (keyword == "HELP") {
    std::string help;
    if (!help_text(help)) return false;
    problem = families_.declare_help(family, std::move(help));
  } else {
    const char* start = cursor_.position();
    if (!reach_newline()) return false;
    problem = families_.declare_type(family,
                                     {start, static_cast<std::size_t>(cursor_.position() - start)});
  }
  if (problem) return fail(std::move(*problem));
  cursor_.next_line();
  return true;
}

// The rest of a HELP line, unescaping '\\', '\n' and '\"'; stops on the line's '\n'.
bool page_parser::help_text(std::string& help) {
  for (;;) {
    if (ended()) return false;
    const char byte = cursor_.peek();
    if (byte == '\n') return true;
    cursor_.advance();
    if (byte != '\\') {
      help += byte;
      continue;
    }
    if (ended()) return false;
    const char escaped = cursor_.peek();
    if (escaped != '\\' && escaped != 'n' && escaped != '"')
      return fail(invalid_escape(escaped, "HELP text"));
    help += escaped == 'n' ? '\n' : escaped;
    cursor_.advance();
  }
}

// name [{labels}] value [timestamp]
bool page_parser::sample_line() {
  const std::string_view name = take_metric_name(cursor_);
  if (name.empty()) return fail(invalid_name("invalid metric name", cursor_.peek()));
  const family_ref family = families_.family_for(name);
  scraped_sample sample;
  sample.name.assign(name);
  cursor_.skip_blanks();
  if (ended()) return false;
  if (cursor_.peek() == '{') {
    cursor_.advance();
    // Lines of a page mostly carry as many labels as the line before: one allocation.
    sample.labels.reserve(std::max<std::size_t>(last_label_count_, 1));
    if (!labels(name, sample)) return false;
  }
  last_label_count_ = sample.labels.size();
  if (!value_and_timestamp(sample)) return false;
  if (auto problem = families_.add_sample(family, std::move(sample)))
    return fail(std::move(*problem));
  cursor_.next_line();
  return true;
}

// After '{': name="value" pairs separated by ',' (one trailing ',' allowed), up to '}'.
bool page_parser::labels(std::string_view metric_name, scraped_sample& sample) {
  for (;;) {
    cursor_.skip_blanks();
    if (ended()) return false;
    if (cursor_.peek() == '}') break;
    const std::string_view name = take_label_name(cursor_);
    if (name.empty())
      return fail(
          invalid_name("invalid label name for metric " + quoted(metric_name), cursor_.peek()));
    cursor_.skip_blanks();
    if (ended()) return false;
    if (cursor_.peek() != '=')
      return fail("expected '=' after label name, " + found(cursor_.peek()));
    if (name == "__name__") return fail("label name \"__name__\" is reserved");
    cursor_.advance();
    cursor_.skip_blanks();
    if (ended()) return false;
    if (cursor_.peek() != '"')
      return fail("expected '\"' at start of label value, " + found(cursor_.peek()));
    cursor_.advance();
    scraped_label& label = sample.labels.emplace_back();
    label.name.assign(name);
    if (!label_value(label.value)) return false;
    cursor_.skip_blanks();
    if (ended()) return false;
    if (cursor_.peek() == '}') break;
    if (cursor_.peek() != ',')
      return fail("unexpected end of label value " + quoted(label.value) +
                  ": expected ',' or '}', " + found(cursor_.peek()));
    cursor_.advance();
  }
  cursor_.advance();
  std::sort(
      sample.labels.begin(), sample.labels.end(),
      [](const scraped_label& left, const scraped_label& right) { return left.name < right.name; });
  const auto twin = std::adjacent_find(sample.labels.begin(), sample.labels.end(),
                                       [](const scraped_label& left, const scraped_label& right) {
                                         return left.name == right.name;
                                       });
  if (twin != sample.labels.end())
    return fail("duplicate label names for metric " + quoted(metric_name) + ": " +
                quoted(twin->name));
  return true;
}

// After the opening '"': the value up to the closing '"', unescaping '\\', '\"' and '\n'.
bool page_parser::label_value(std::string& value) {
  // A plain loop: find_first_of would call memchr once per byte of the value.
  const char* start = cursor_.position();
  const std::size_t left = cursor_.left();
  std::size_t plain = 0;
  while (plain < left && start[plain] != '"' && start[plain] != '\\' && start[plain] != '\n')
    ++plain;
  if (plain < left && start[plain] == '"') {
    value.assign(cursor_.take(plain));  // no escapes: the common case, copied in one piece
    cursor_.advance();
  } else {
    for (;;) {
      if (ended()) return false;
      const char byte = cursor_.peek();
      if (byte == '"') break;
      if (byte == '\n')
        return fail("label value " + quoted(value) + " contains unescaped new-line");
      cursor_.advance();
      if (byte != '\\') {
        value += byte;
        continue;
      }
      if (ended()) return false;
      const char escaped = cursor_.peek();
      if (escaped != '\\' && escaped != 'n' && escaped != '"')
        return fail(invalid_escape(escaped, "label value"));
      value += escaped == 'n' ? '\n' : escaped;
      cursor_.advance();
    }
    cursor_.advance();
  }
  if (!is_valid_utf8(value)) return fail("invalid label value " + quoted(value));
  return true;
}

// The value, then an optional timestamp; stops on the line's '\n'.
bool page_parser::value_and_timestamp(scraped_sample& sample) {
  cursor_.skip_blanks();
  if (ended()) return false;
  const std::string_view value_text = cursor_.take_token();
  if (ended()) return false;
  const std::optional<double> value = parse_sample_value(value_text);
  if (!value) return fail("expected float as value, got " + quoted(value_text));
  sample.value = *value;
  if (cursor_.peek() == '\n') return true;
  cursor_.skip_blanks();
  if (ended()) return false;
  const std::string_view timestamp_text = cursor_.take_token();
  if (ended()) return false;
  sample.timestamp_ms = parse_timestamp(timestamp_text);
  if (!sample.timestamp_ms)
    return fail("expected integer as timestamp, got " + quoted(timestamp_text));
  if (cursor_.peek() == '\n') return true;
  const char* start = cursor_.position();
  if (!reach_newline()) return false;
  return fail("spurious string after timestamp: " +
              quoted({start, static_cast<std::size_t>(cursor_.position() - start)}));
}

}  // namespace

std::string describe(const exposition_error& error) {
  return "line " + std::to_string(error.line) + ": " + error.message;
}

exposition_result parse_exposition_text(std::string_view text) { return page_parser{text}.run(); }

}  // namespace runwarden
