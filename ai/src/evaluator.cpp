#include "meeple/ai/evaluator.h"

#include <bit>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace meeple {

extern const char* const kShippedWeights;  // ai/weights/*.json as one JSON array, embedded at build time

namespace {

// The rules as they matter to an evaluator: without the player count.
std::string describe(const Rules& rules) {
  Rules r = rules;
  r.players = 2;
  std::string text = r.to_string().substr(std::string("players=2").size());
  return text.empty() ? "the base game with default options" : "'" + text.substr(1) + "'";
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
  return LinearEvaluator(w, "handtuned");
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

bool LinearEvaluator::fits(const Rules& rules) const {
  if (!trained_on_) return true;
  if (trained_on_->expansions != rules.expansions) return false;
  for (int i = 0; i < kNumOptions; ++i) {
    const uint8_t owner = option_specs()[i].expansion;
    if ((owner == 0 || (rules.expansions & owner)) && trained_on_->options[i] != rules.options[i]) return false;
  }
  return true;
}

void LinearEvaluator::check_rules(const Rules& rules) const {
  if (!fits(rules))
    throw std::invalid_argument("evaluator '" + name_ + "' was fitted to " + describe(*trained_on_) + ", not to this game's " +
                                describe(rules) + "; fit weights to these rules (python -m meeple train), or use the "
                                "default evaluator 'trained'");
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
  std::optional<Rules> trained_on;
  if (j.contains("rules")) {
    if (!j["rules"].is_string()) fail("rules must be a string such as \"players=2 expansions=river2\"");
    try {
      trained_on = Rules::parse(j["rules"].get<std::string>());
    } catch (const std::invalid_argument& err) {
      fail(std::string("rules: ") + err.what());
    }
  }
  return LinearEvaluator(w, j.value("name", source), trained_on);
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
  if (trained_on_) j["rules"] = trained_on_->to_string();
  j["features"] = kFeatureNames;
  j["weights"] = std::vector<float>(weights_.data(), weights_.data() + kNumFeatures);
  return j.dump(1);
}

TrainedEvaluator::TrainedEvaluator() {
  const auto files = nlohmann::json::parse(kShippedWeights);
  for (size_t i = 0; i < files.size(); ++i) {
    sets_.push_back(LinearEvaluator::from_json(files[i].dump(), "shipped weights #" + std::to_string(i)));
    if (!sets_.back().trained_on()) throw std::logic_error("shipped weights must name their rules");
  }
  for (int mask = 0; mask < (1 << kNumExpansions); ++mask) {
    int best = -1;
    for (size_t i = 0; i < sets_.size(); ++i) {
      const int trained = sets_[i].trained_on()->expansions;
      if ((trained & mask) != mask) continue;
      if (best < 0 || std::popcount(static_cast<unsigned>(trained)) <
                          std::popcount(static_cast<unsigned>(sets_[static_cast<size_t>(best)].trained_on()->expansions)))
        best = static_cast<int>(i);
    }
    if (best < 0) throw std::logic_error("the shipped weights must include a set for all expansions together");
    for_expansions_[static_cast<size_t>(mask)] = static_cast<uint8_t>(best);
  }
}

std::shared_ptr<const Evaluator> make_evaluator(const std::string& spec) {
  static const auto trained = std::make_shared<const TrainedEvaluator>();  // parsed once
  if (spec == "trained") return trained;
  if (spec == "endnow") return std::make_shared<EndNowEvaluator>();
  if (spec == "handtuned") return std::make_shared<LinearEvaluator>(LinearEvaluator::hand_tuned());
  if (spec.ends_with(".json")) return std::make_shared<LinearEvaluator>(LinearEvaluator::load(spec));
  throw std::invalid_argument("unknown evaluator '" + spec + "'; evaluators are " + kEvaluatorSpecHelp);
}

}  // namespace meeple
