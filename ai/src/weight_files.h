// What evaluator weight files and policy files share: reading them, their rules, and SmallMlp layers
// ([{"weights": [[...] one row per output], "bias": [...]}, ...]).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meeple/ai/mlp.h"
#include "meeple/rules.h"

namespace meeple {

// Throws through `fail` (which names the file) saying what is wrong.
using Fail = std::function<void(const std::string& what)>;

// A JSON number as a float (finite, within a float's range); `what` names it in errors.
float number_of(const nlohmann::json& v, const std::string& what, const Fail& fail);

// A JSON list of numbers; `what` names it in errors.
Eigen::VectorXf numbers_of(const nlohmann::json& list, const std::string& what, const Fail& fail);

// The layers of `j["layers"]`; a row of the first layer is read by `first_row` (a weight file may give
// its inputs in its own order), the others as plain lists of numbers.
std::vector<SmallMlp::Layer> layers_from_json(
    const nlohmann::json& j, const Fail& fail,
    const std::function<Eigen::VectorXf(const nlohmann::json& row, const std::string& what)>& first_row);

nlohmann::json layers_to_json(const std::vector<SmallMlp::Layer>& layers);

// The text of a regular file of at most kMaxWeightFileBytes (meeple/input.h); std::invalid_argument
// "cannot read `what` 'path': why" otherwise.
std::string read_text(const std::string& path, const std::string& what);

// j["rules"] parsed, or none when absent.
std::optional<Rules> rules_from_json(const nlohmann::json& j, const Fail& fail);

// The files of a JSON array of weight files (the shipped ones, embedded at build time), each read by
// `read(text, source)`; `source` is "`what` #index".
template <typename Weights, typename Read>
std::vector<std::shared_ptr<const Weights>> read_shipped(const char* array, const std::string& what, Read read) {
  const auto files = nlohmann::json::parse(array);
  std::vector<std::shared_ptr<const Weights>> out;
  for (size_t i = 0; i < files.size(); ++i) out.push_back(read(files[i].dump(), what + " #" + std::to_string(i)));
  return out;
}

}  // namespace meeple
