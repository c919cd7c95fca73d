#pragma once
// The machine's whole life, in the [runner] table: after_exit, on_give_up, the recycling
// bounds, the idle bound and how a retired instance ends. One reader per key, bound to its
// row in config_schema.cpp, and the checks that span keys (an idle bound only means something
// for a one-job runner; a disk threshold needs its path and the path its threshold).

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_runner_after_exit(config_value& value);
bool read_runner_on_give_up(config_value& value);
bool read_runner_recycle_after_jobs(config_value& value);
bool read_runner_recycle_after_uptime(config_value& value);
bool read_runner_recycle_disk_path(config_value& value);
bool read_runner_recycle_disk_percent(config_value& value);
bool read_runner_idle_retire_after(config_value& value);
bool read_runner_retire_command(config_value& value);
bool read_runner_retire_decrement_capacity(config_value& value);

// Every check across the retirement keys, once each key has been read on its own.
void check_retirement_keys(config_reader& reader);

}  // namespace runwarden
