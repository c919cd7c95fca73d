#pragma once
// Readers for the [aws] table's keys whose values are more than a type and a range (issue 6:
// the lifecycle watcher). config_schema.cpp binds them to their rows.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_aws_provider(config_value& value);
bool read_aws_imds_endpoint(config_value& value);
bool read_aws_poll_interval(config_value& value);
bool read_aws_drain_states(config_value& value);
bool read_aws_rebalance(config_value& value);

}  // namespace runwarden
