#pragma once
// The [scaling] keys for publishing the runner's job slots for the group's own
// target-tracking policy (publish, publish_interval, publish_namespace), and who decides the
// group's capacity (scaler: runwarden's built-in scaler, or the group's policies with
// runwarden keeping only scale-in protection). One reader per key, bound to its row in
// config_schema.cpp, and the checks that span keys.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_scaling_publish(config_value& value);
bool read_scaling_publish_interval(config_value& value);
bool read_scaling_publish_namespace(config_value& value);
bool read_scaling_scaler(config_value& value);

// publish needs the AWS provider; scaler = "group" means nothing without scaling.enabled.
void check_publish_keys(config_reader& reader);

}  // namespace runwarden
