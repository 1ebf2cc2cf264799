#include "meeple/ai/mlp.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "meeple/input.h"
#include "weight_files.h"

namespace meeple {

SmallMlp::SmallMlp(std::vector<Layer> layers, int inputs) : layers_(std::move(layers)) {
  if (layers_.empty()) throw std::invalid_argument("a network needs at least one layer");
  if (layers_.size() > kMaxLayers)
    throw std::invalid_argument("a network has at most " + std::to_string(kMaxLayers) + " layers, not " + std::to_string(layers_.size()));
  for (size_t i = 0; i < layers_.size(); ++i) {
    const Layer& l = layers_[i];
    const bool last = i + 1 == layers_.size();
    if (l.weights.cols() != inputs || l.bias.size() != l.weights.rows() || (last && l.weights.rows() != 1) ||
        (!last && (l.weights.rows() < 1 || l.weights.rows() > kMaxWidth)))
      throw std::invalid_argument("layer " + std::to_string(i) + " has " + std::to_string(l.weights.rows()) + "x" +
                                  std::to_string(l.weights.cols()) + " weights and " + std::to_string(l.bias.size()) +
                                  " biases; expected " + std::to_string(inputs) + " inputs, " +
                                  (last ? std::string("1 output (the last layer)")
                                        : "1 to " + std::to_string(kMaxWidth) + " outputs, as many biases"));
    if (!l.weights.allFinite() || !l.bias.allFinite())
      throw std::invalid_argument("layer " + std::to_string(i) + " has a weight that is not a finite number");
    inputs = static_cast<int>(l.weights.rows());
  }
  for (const Layer& l : layers_) fixed_.push_back({l.weights, l.bias});
}

Eigen::VectorXf numbers_of(const nlohmann::json& list, const std::string& what, const Fail& fail) {
  if (!list.is_array()) fail(what + " must be a list of numbers");
  Eigen::VectorXf out(static_cast<Eigen::Index>(list.size()));
  for (size_t i = 0; i < list.size(); ++i) out[static_cast<Eigen::Index>(i)] = number_of(list[i], what + "[" + std::to_string(i) + "]", fail);
  return out;
}

float number_of(const nlohmann::json& v, const std::string& what, const Fail& fail) {
  if (!v.is_number()) fail(what + " is not a number");
  // A double beyond a float's range has no float value (converting it is undefined behaviour).
  const double x = v.get<double>();
  if (!(std::abs(x) <= std::numeric_limits<float>::max())) fail(what + " is " + excerpt_json(v) + ", beyond a 32-bit float");
  return static_cast<float>(x);
}

std::vector<SmallMlp::Layer> layers_from_json(
    const nlohmann::json& j, const Fail& fail,
    const std::function<Eigen::VectorXf(const nlohmann::json& row, const std::string& what)>& first_row) {
  if (!j.contains("layers") || !j["layers"].is_array() || j["layers"].empty())
    fail("needs a non-empty array \"layers\" of {\"weights\": [[...] per output], \"bias\": [...]}");
  if (j["layers"].size() > SmallMlp::kMaxLayers)  // before reading them
    fail("has " + std::to_string(j["layers"].size()) + " layers; a network has at most " + std::to_string(SmallMlp::kMaxLayers));
  std::vector<SmallMlp::Layer> layers;
  for (size_t i = 0; i < j["layers"].size(); ++i) {
    const auto& l = j["layers"][i];
    const std::string at = "layers[" + std::to_string(i) + "]";
    if (!l.is_object() || !l.contains("weights") || !l["weights"].is_array() || !l.contains("bias"))
      fail(at + " needs \"weights\" (a list of rows, one per output) and \"bias\"");
    SmallMlp::Layer layer;
    layer.bias = numbers_of(l["bias"], at + ".bias", fail);
    const auto& rows = l["weights"];
    for (size_t r = 0; r < rows.size(); ++r) {
      const std::string what = at + ".weights[" + std::to_string(r) + "]";
      const Eigen::VectorXf row = i == 0 ? first_row(rows[r], what) : numbers_of(rows[r], what, fail);
      if (r == 0) layer.weights.resize(static_cast<Eigen::Index>(rows.size()), row.size());
      if (row.size() != layer.weights.cols()) fail(at + ".weights rows differ in length");
      layer.weights.row(static_cast<Eigen::Index>(r)) = row.transpose();
    }
    layers.push_back(std::move(layer));
  }
  return layers;
}

nlohmann::json layers_to_json(const std::vector<SmallMlp::Layer>& layers) {
  nlohmann::json out = nlohmann::json::array();
  for (const SmallMlp::Layer& l : layers) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < l.weights.rows(); ++r) {
      const Eigen::VectorXf row = l.weights.row(r).transpose();
      rows.push_back(std::vector<float>(row.data(), row.data() + row.size()));
    }
    out.push_back({{"weights", rows}, {"bias", std::vector<float>(l.bias.data(), l.bias.data() + l.bias.size())}});
  }
  return out;
}

std::string read_text(const std::string& path, const std::string& what) {
  return InputFile(path, what).read_all(kMaxWeightFileBytes);
}

std::optional<Rules> rules_from_json(const nlohmann::json& j, const Fail& fail) {
  if (!j.contains("rules")) return std::nullopt;
  if (!j["rules"].is_string()) fail("rules must be a string such as \"players=2 expansions=river2\"");
  try {
    return Rules::parse(j["rules"].get<std::string>());
  } catch (const std::invalid_argument& e) {
    fail(std::string("rules: ") + e.what());
  }
  return std::nullopt;
}

}  // namespace meeple
