#pragma once
// Readers for the [cloud] table, which cloud's warnings the lifecycle watcher
// follows, and for the keys of [azure] and [gcp] that are more than a type and a range
// (the [aws] ones live in config_aws_values). config_schema.cpp binds them to their rows.

#include "src/config/config_reader.hpp"

namespace runwarden {

bool read_cloud_provider(config_value& value);
bool read_azure_metadata_endpoint(config_value& value);
bool read_azure_poll_interval(config_value& value);
// "log" or "drain", for the Reboot and Redeploy events.
bool read_azure_reboot(config_value& value);
bool read_azure_redeploy(config_value& value);
bool read_gcp_metadata_endpoint(config_value& value);
// Whole seconds, since the server takes timeout_sec in seconds.
bool read_gcp_wait_timeout(config_value& value);
// [cloud] provider and the older [aws] provider name the same setting: only one may be set.
void check_cloud_provider_keys(config_reader& reader);

}  // namespace runwarden
