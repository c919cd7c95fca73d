#pragma once
// The id of every worker of a runwarden instance under its supervisor, in the tree's start
// order, in one place. The tree (src/assembly/instance_tree.cpp) gives each its start,
// restart, shutdown and what its supervisor giving up means, row by row; no worker knows its
// own id. They sit here, below the actors, for the one actor that must tell incarnations
// apart: the warden hears a child_incarnation from each supervisor and takes the notifier's,
// the unregistration step's and the lifecycle client's (the hooks actor's, or the Azure
// watcher's) by their ids.

#include <string_view>

namespace runwarden::child_id {

inline constexpr std::string_view unregistration = "unregistration";
inline constexpr std::string_view notifier = "notifier";
inline constexpr std::string_view metrics_poller = "metrics_poller";
inline constexpr std::string_view aws_watcher = "aws_watcher";
inline constexpr std::string_view azure_watcher = "azure_watcher";
inline constexpr std::string_view gcp_watcher = "gcp_watcher";
inline constexpr std::string_view lifecycle_hooks = "lifecycle_hooks";
inline constexpr std::string_view scaler = "scaler";
inline constexpr std::string_view metrics_publisher = "metrics_publisher";
inline constexpr std::string_view pod_annotator = "pod_annotator";

}  // namespace runwarden::child_id
