// core/io/metrics_json.h — Metrics as JSON and back, for the training worker's messages to the
// page (web/worker/) and anything else that moves a held-out evaluation between processes.
// The field names are `lookback train --json`'s.
#pragma once
#include <nlohmann/json.hpp>

#include "data/metrics.h"

namespace lb {

nlohmann::json metrics_to_json(const Metrics& metrics);
// Throws std::invalid_argument naming the field that is missing or of the wrong kind.
Metrics metrics_from_json(const nlohmann::json& json);

}  // namespace lb
