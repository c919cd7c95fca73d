#pragma once
// Between the drain machine's types and the journal's protobuf records
// (messages/runwarden/journal/v1/journal.proto). The round trip is exact: decoding what
// was encoded gives back equal events, configs and entries. Decoding checks what protobuf
// cannot: a oneof that is set, enum values this version knows.

#include <stdexcept>
#include <string>
#include <string_view>

#include "runwarden/journal/v1/journal.pb.h"
#include "src/journal/journal_entry.hpp"

namespace runwarden {

// A record whose payload is not a valid version 1 record.
class journal_format_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

journal::v1::Event encode_event(const drain_event& event);
drain_event decode_event(const journal::v1::Event& message);  // throws journal_format_error

journal::v1::DrainConfig encode_config(const drain_config& config);
drain_config decode_config(const journal::v1::DrainConfig& message);  // throws likewise

// One record's payload, serialized; and back (throws journal_format_error).
std::string encode_record(const journal_record& record);
journal_record decode_record(std::string_view payload);

}  // namespace runwarden
