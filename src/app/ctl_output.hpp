#pragma once
// How `runwarden ctl` prints a status: a few labelled lines for people (`status`), one line
// per change while watching (`status --watch`, `shutdown --wait`), or one JSON object per
// status (`--json`) for scripts. Elapsed times and the time left to the deadline are taken
// against the status's own observed_at, runwarden's clock, so a skewed client clock does
// not distort them.

#include <nlohmann/json.hpp>

#include <string>

#include "runwarden/v1/warden.pb.h"

namespace runwarden {

std::string status_text(const v1::StatusResponse& status);
std::string change_line(const v1::StatusResponse& status);
nlohmann::json status_json(const v1::StatusResponse& status);

}  // namespace runwarden
