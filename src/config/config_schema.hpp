#pragma once
// The config file's format: which tables and keys exist, what each accepts, and how keys
// must agree with each other. config_file.cpp parses text and flags into a TOML document;
// this decides what the document means.

#include <toml++/toml.h>

#include <string_view>

#include "src/config/config_file.hpp"
#include "src/config/config_reader.hpp"

namespace runwarden {

// Reads `root` on top of `base`, each key through its row of the schema, then checks the
// keys against each other. `source_name` and `labels` say whom messages blame.
config_result read_config(const toml::table& root, std::string_view source_name, settings base,
                          config_labels labels = {});

}  // namespace runwarden
