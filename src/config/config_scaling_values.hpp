#pragma once
// The [scaling] table: one reader per key, bound to its row in config_schema.cpp,
// and the checks that span keys: a step larger than the ceiling, scaling without the AWS
// lifecycle provider that drains an instance giving itself up.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_scaling_enabled(config_value& value);
bool read_scaling_capacity(config_value& value);
bool read_scaling_window(config_value& value);
bool read_scaling_dip_tolerance(config_value& value);
bool read_scaling_step(config_value& value);
bool read_scaling_ceiling(config_value& value);
bool read_scaling_idle_threshold(config_value& value);
bool read_scaling_cooldown(config_value& value);
bool read_scaling_honor_cooldown(config_value& value);
bool read_scaling_jitter(config_value& value);
bool read_scaling_protect_while_busy(config_value& value);
bool read_scaling_protection_release(config_value& value);
bool read_scaling_protection_interval_min(config_value& value);
bool read_scaling_retry_initial(config_value& value);
bool read_scaling_retry_max(config_value& value);

// Every check across the scaling keys, once each key has been read on its own.
void check_scaling_keys(config_reader& reader);

}  // namespace runwarden
