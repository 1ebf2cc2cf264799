#include "meeple/ai/evaluator.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace meeple {
namespace {

std::string expansion_list(int mask) {
  std::string out;
  for (int i = 0; i < kNumExpansions; ++i)
    if (mask & (1 << i)) out += (out.empty() ? "" : ",") + std::string(expansion_name(static_cast<Expansion>(1 << i)));
  return out.empty() ? "base game only" : out;
}

std::string feature_list() {
  std::string out;
  for (const char* n : kFeatureNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

PlayerValues EndNowEvaluator::evaluate(const State& state) const {
  const auto scores = state.final_scores_if_ended_now();
  PlayerValues out{};
  for (int p = 0; p < state.num_players(); ++p) out[p] = scores[p];
  return out;
}

LinearEvaluator LinearEvaluator::hand_tuned() {
  Weights w = Weights::Zero();
  w[kFeatScore] = 1.0f;
  w[kFeatBoardPoints] = 1.0f;
  w[kFeatCityCompletion] = 0.8f;
  w[kFeatCloisterCompletion] = 0.7f;
  w[kFeatSupplyLeft] = 3.0f;
  w[kFeatReturningLeft] = 2.0f;
  w[kFeatStuck] = -0.5f;
  w[kFeatFarmersLeft] = 2.0f;
  w[kFeatSharedLeads] = -0.5f;
  w[kFeatSpecialLeft] = 2.0f;
  return LinearEvaluator(w, "heuristic");
}

PlayerValues LinearEvaluator::evaluate(const State& state) const {
  std::array<float, kFeatureBufferSize> buffer;
  extract_features(state, buffer);
  // Fixed maximum size: no heap allocation.
  using Rows = Eigen::Matrix<float, Eigen::Dynamic, kNumFeatures, Eigen::RowMajor, kMaxPlayers, kNumFeatures>;
  const Eigen::Map<const Rows> features(buffer.data(), state.num_players(), kNumFeatures);
  const Eigen::Matrix<float, Eigen::Dynamic, 1, 0, kMaxPlayers, 1> values = features * weights_;
  PlayerValues out{};
  for (int p = 0; p < state.num_players(); ++p) out[p] = values[p];
  return out;
}

void LinearEvaluator::check_rules(const Rules& rules) const {
  if (expansions_ >= 0 && expansions_ != rules.expansions)
    throw std::invalid_argument("evaluator '" + name_ + "' was trained for " + expansion_list(expansions_) +
                                ", not for this game's " + expansion_list(rules.expansions) +
                                "; use weights trained for these rules, or the hand-tuned 'heuristic'");
}

LinearEvaluator LinearEvaluator::from_json(std::string_view text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(source + ": not JSON: " + e.what());
  }
  auto fail = [&](const std::string& what) { throw std::invalid_argument(source + ": " + what); };
  if (!j.is_object()) fail("expected an object with format, kind, features and weights");
  if (j.value("format", "") != "meeple-evaluator/1") fail("format must be \"meeple-evaluator/1\"");
  if (j.value("kind", "") != "linear") fail("kind must be \"linear\" (the only evaluator kind with weights so far)");
  if (!j.contains("features") || !j["features"].is_array() || !j.contains("weights") || !j["weights"].is_array())
    fail("needs arrays \"features\" and \"weights\"");
  const auto& names = j["features"];
  const auto& values = j["weights"];
  if (names.size() != values.size())
    fail(std::to_string(names.size()) + " feature names but " + std::to_string(values.size()) + " weights");
  Weights w = Weights::Zero();
  std::array<bool, kNumFeatures> given{};
  for (size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string()) fail("features[" + std::to_string(i) + "] is not a string");
    if (!values[i].is_number()) fail("weights[" + std::to_string(i) + "] is not a number");
    const std::string name = names[i].get<std::string>();
    int index = -1;
    for (int f = 0; f < kNumFeatures; ++f)
      if (name == kFeatureNames[f]) index = f;
    if (index < 0) fail("unknown feature '" + name + "'; the features are: " + feature_list());
    if (given[index]) fail("feature '" + name + "' is given twice");
    given[index] = true;
    w[index] = values[i].get<float>();
  }
  for (int f = 0; f < kNumFeatures; ++f)
    if (!given[f]) fail(std::string("no weight for feature '") + kFeatureNames[f] + "'");
  int expansions = -1;
  if (j.contains("expansions")) {
    if (!j["expansions"].is_array()) fail("expansions must be a list of expansion names");
    Rules r;
    for (const auto& e : j["expansions"]) {
      if (!e.is_string()) fail("expansions must be a list of expansion names");
      try {
        r.add_expansion(e.get<std::string>());
      } catch (const std::invalid_argument& err) {
        fail(err.what());
      }
    }
    expansions = r.expansions;
  }
  return LinearEvaluator(w, j.value("name", source), expansions);
}

LinearEvaluator LinearEvaluator::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read evaluator weights '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return from_json(text.str(), path);
}

std::string LinearEvaluator::to_json() const {
  nlohmann::json j;
  j["format"] = "meeple-evaluator/1";
  j["kind"] = "linear";
  j["name"] = name_;
  if (expansions_ >= 0) {
    nlohmann::json list = nlohmann::json::array();
    for (int i = 0; i < kNumExpansions; ++i)
      if (expansions_ & (1 << i)) list.push_back(expansion_name(static_cast<Expansion>(1 << i)));
    j["expansions"] = list;
  }
  j["features"] = kFeatureNames;
  j["weights"] = std::vector<float>(weights_.data(), weights_.data() + kNumFeatures);
  return j.dump(1);
}

std::shared_ptr<const Evaluator> make_evaluator(const std::string& spec) {
  if (spec == "endnow") return std::make_shared<EndNowEvaluator>();
  if (spec == "heuristic") return std::make_shared<LinearEvaluator>(LinearEvaluator::hand_tuned());
  if (spec.ends_with(".json")) return std::make_shared<LinearEvaluator>(LinearEvaluator::load(spec));
  throw std::invalid_argument("unknown evaluator '" + spec + "'; evaluators are endnow, heuristic, or a weight file FILE.json");
}

}  // namespace meeple
