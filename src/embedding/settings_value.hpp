#pragma once
// What a public embedded::config holds: runwarden's own settings value, checked in full.

#include "runwarden/config.hpp"
#include "src/config/settings.hpp"

namespace runwarden::embedded {

struct config::settings_value {
  settings checked;
  log_sink sink = {};  // empty: runwarden's lines go to stderr, as [log] says
};

}  // namespace runwarden::embedded
