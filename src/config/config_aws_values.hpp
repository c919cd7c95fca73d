#pragma once
// Readers for the [aws] table's keys whose values are more than a type and a range.
// The lifecycle watcher reads them. config_schema.cpp binds them to their rows.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_aws_provider(config_value& value);
bool read_aws_imds_endpoint(config_value& value);
bool read_aws_poll_interval(config_value& value);
bool read_aws_drain_states(config_value& value);
bool read_aws_rebalance(config_value& value);
bool read_aws_scheduled_events_interval(config_value& value);
bool read_aws_spot_poll_interval(config_value& value);
// A duration below the two minutes of a spot notice.
bool read_aws_spot_safety_margin(config_value& value);
// One row per event code of [aws.scheduled_events]: "drain", "drain_ahead" or "log".
bool read_scheduled_instance_stop(config_value& value);
bool read_scheduled_instance_retirement(config_value& value);
bool read_scheduled_instance_reboot(config_value& value);
bool read_scheduled_system_reboot(config_value& value);
bool read_scheduled_system_maintenance(config_value& value);
bool read_scheduled_other_codes(config_value& value);
// A drain_ahead that starts after its own deadline would only force the runner.
void check_scheduled_event_keys(config_reader& reader);

}  // namespace runwarden
