#include "meeple/ai/evaluator.h"

#include <bit>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "meeple/input.h"
#include "weight_files.h"

namespace meeple {

extern const char* const kShippedWeights;  // ai/weights/*.json as one JSON array, embedded at build time

namespace {

// The rules as they matter to an evaluator: without the player count.
std::string describe(const Rules& rules) {
  Rules r = rules;
  r.players = 2;
  std::string text = r.to_string().substr(std::string("players=2").size());
  return text.empty() ? "the base game (default options)" : "'" + text.substr(1) + "'";
}

std::string feature_list() {
  std::string out;
  for (const char* n : kFeatureNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

PlayerValues turn_end_points(const Evaluator& evaluator, const State& state) {
  const int turn_player = state.turn_player();
  const auto finish = [&](const auto& self, const State& s) -> PlayerValues {
    if (s.is_terminal()) return points_of(s);
    if (s.is_chance() || s.turn_player() != turn_player) return evaluator.evaluate(s);
    ActionList actions;
    s.legal_actions(actions);
    const int me = s.current_player();
    PlayerValues best{};
    double best_margin = -std::numeric_limits<double>::infinity();
    for (Action a : actions) {
      State next = s;
      next.apply(a);
      const PlayerValues v = self(self, next);
      if (const double m = margin(v, me, s.num_players()); m > best_margin) {
        best_margin = m;
        best = v;
      }
    }
    return best;
  };
  return finish(finish, state);
}

PlayerValues leaf_points(const Evaluator& evaluator, const State& state) {
  switch (state.phase()) {
    case Phase::kDraw:
    case Phase::kPlace: return evaluator.evaluate(state);
    default: return turn_end_points(evaluator, state);
  }
}

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

std::string rules_mismatch(const std::string& what, const std::optional<Rules>& trained_on, const Rules& rules) {
  if (!trained_on) return "";
  bool fits = trained_on->expansions == rules.expansions;
  for (int i = 0; i < kNumOptions; ++i) {
    const uint8_t owner = option_specs()[i].expansion;
    if ((owner == 0 || (rules.expansions & owner)) && trained_on->options[i] != rules.options[i]) fits = false;
  }
  if (fits) return "";
  return what + " was fitted to " + describe(*trained_on) + ", not to this game: " + describe(rules);
}

bool FittedEvaluator::fits(const Rules& rules) const { return rules_mismatch("", trained_on_, rules).empty(); }

void FittedEvaluator::check_rules(const Rules& rules) const {
  if (const std::string why = rules_mismatch("evaluator '" + excerpt(name_) + "'", trained_on_, rules); !why.empty())
    throw std::invalid_argument(why + "; fit weights to these rules (python -m meeple train), or use the default "
                                "evaluator 'trained'");
}

PlayerValues MlpEvaluator::evaluate(const State& state) const {
  std::array<float, kFeatureBufferSize> buffer;
  extract_features(state, buffer);
  const int n = state.num_players();
  using Rows = Eigen::Matrix<float, Eigen::Dynamic, kNumFeatures, Eigen::RowMajor, kMaxPlayers, kNumFeatures>;
  const Eigen::Map<const Rows> features(buffer.data(), n, kNumFeatures);
  const Eigen::Matrix<float, 1, kNumFeatures> total = features.colwise().sum();
  SmallMlp::Columns<kMaxPlayers> x(kNumFeatures, n);  // one column per seat: its row minus the mean of the others'
  for (int p = 0; p < n; ++p)
    x.col(p) = (features.row(p) - (total - features.row(p)) / static_cast<float>(n - 1)).transpose();
  const auto y = mlp_.forward<kMaxPlayers>(x);
  PlayerValues out{};
  for (int p = 0; p < n; ++p) out[p] = y[p] * static_cast<float>(n - 1) / static_cast<float>(n);
  return out;
}

namespace {

// The parts every weight file has: format, kind, name, rules, and the features in file order.
struct WeightFile {
  nlohmann::json j;
  std::string source;
  std::array<int, kNumFeatures> column{};  // feature index -> position in the file's lists
  std::optional<Rules> rules;

  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(excerpt(source) + ": " + what); }

  WeightFile(std::string_view text, std::string src) : source(std::move(src)) {
    try {
      j = parse_json(text);
    } catch (const std::invalid_argument& e) {
      fail(std::string("not JSON: ") + e.what());
    }
    if (!j.is_object()) fail("expected an object with format, kind and features");
    for (const char* key : {"format", "kind", "name"})
      if (j.contains(key) && !j[key].is_string()) fail(std::string(key) + " must be a string");
    if (j.value("format", "") != "meeple-evaluator/1") fail("format must be \"meeple-evaluator/1\"");
    if (!j.contains("features") || !j["features"].is_array()) fail("needs an array \"features\"");
    const auto& names = j["features"];
    column.fill(-1);
    for (size_t i = 0; i < names.size(); ++i) {
      if (!names[i].is_string()) fail("features[" + std::to_string(i) + "] is not a string");
      const std::string name = names[i].get<std::string>();
      int index = -1;
      for (int f = 0; f < kNumFeatures; ++f)
        if (name == kFeatureNames[f]) index = f;
      if (index < 0) fail("unknown feature '" + excerpt(name) + "'; the features are: " + feature_list());
      if (column[static_cast<size_t>(index)] >= 0) fail("feature '" + name + "' is given twice");
      column[static_cast<size_t>(index)] = static_cast<int>(i);
    }
    for (int f = 0; f < kNumFeatures; ++f)
      if (column[static_cast<size_t>(f)] < 0) fail(std::string("no weight for feature '") + kFeatureNames[f] + "'");
    rules = rules_from_json(j, [&](const std::string& what) { fail(what); });
  }

  std::string kind() const { return j.value("kind", ""); }
  std::string name() const { return j.value("name", source); }

  // A list of numbers, one per feature in file order, as a vector in feature order.
  Eigen::VectorXf per_feature(const nlohmann::json& list, const std::string& what) const {
    if (!list.is_array() || list.size() != kNumFeatures)
      fail(what + " must be a list of " + std::to_string(kNumFeatures) + " numbers, one per feature");
    Eigen::VectorXf out(kNumFeatures);
    for (int f = 0; f < kNumFeatures; ++f) {
      const size_t at = static_cast<size_t>(column[static_cast<size_t>(f)]);
      out[f] = number_of(list[at], what + "[" + std::to_string(at) + "]", [&](const std::string& why) { fail(why); });
    }
    return out;
  }
};

nlohmann::json header(const FittedEvaluator& e, const char* kind) {
  nlohmann::json j;
  j["format"] = "meeple-evaluator/1";
  j["kind"] = kind;
  j["name"] = e.name();
  if (e.trained_on()) j["rules"] = e.trained_on()->to_string();
  j["features"] = kFeatureNames;
  return j;
}

LinearEvaluator linear_of(const WeightFile& file) {
  if (!file.j.contains("weights")) file.fail("needs an array \"weights\"");
  const auto& w = file.j["weights"];
  if (w.is_array() && w.size() != kNumFeatures)
    file.fail(std::to_string(kNumFeatures) + " feature names but " + std::to_string(w.size()) + " weights");
  return LinearEvaluator(file.per_feature(w, "weights"), file.name(), file.rules);
}

MlpEvaluator mlp_of(const WeightFile& file) {
  const Fail fail = [&](const std::string& what) { file.fail(what); };
  // The first layer's rows are per feature, in the file's feature order.
  auto layers = layers_from_json(file.j, fail, [&](const nlohmann::json& row, const std::string& what) { return file.per_feature(row, what); });
  try {
    return MlpEvaluator(std::move(layers), file.name(), file.rules);
  } catch (const std::invalid_argument& e) {
    file.fail(e.what());
  }
}


}  // namespace

LinearEvaluator LinearEvaluator::from_json(std::string_view text, const std::string& source) {
  const WeightFile file(text, source);
  if (file.kind() != "linear") file.fail("kind must be \"linear\" here, not \"" + excerpt(file.kind()) + "\"");
  return linear_of(file);
}


std::string LinearEvaluator::to_json() const {
  nlohmann::json j = header(*this, "linear");
  j["weights"] = std::vector<float>(weights_.data(), weights_.data() + kNumFeatures);
  return j.dump(1);
}

MlpEvaluator MlpEvaluator::from_json(std::string_view text, const std::string& source) {
  const WeightFile file(text, source);
  if (file.kind() != "mlp") file.fail("kind must be \"mlp\" here, not \"" + excerpt(file.kind()) + "\"");
  return mlp_of(file);
}

std::string MlpEvaluator::to_json() const {
  nlohmann::json j = header(*this, "mlp");
  j["layers"] = layers_to_json(layers());
  return j.dump(1);
}

std::shared_ptr<const FittedEvaluator> evaluator_from_json(std::string_view text, const std::string& source) {
  const WeightFile file(text, source);
  if (file.kind() == "linear") return std::make_shared<LinearEvaluator>(linear_of(file));
  if (file.kind() == "mlp") return std::make_shared<MlpEvaluator>(mlp_of(file));
  file.fail("kind must be \"linear\" or \"mlp\", not \"" + excerpt(file.kind()) + "\"");
}

std::shared_ptr<const FittedEvaluator> load_evaluator(const std::string& path) {
  return evaluator_from_json(read_text(path, "evaluator weights"), path);
}

std::array<uint8_t, 1 << kNumExpansions> covering_sets(const std::vector<int>& trained) {
  std::array<uint8_t, 1 << kNumExpansions> out{};
  for (int mask = 0; mask < (1 << kNumExpansions); ++mask) {
    int best = -1;
    for (size_t i = 0; i < trained.size(); ++i) {
      if ((trained[i] & mask) != mask) continue;
      if (best < 0 || std::popcount(static_cast<unsigned>(trained[i])) <
                          std::popcount(static_cast<unsigned>(trained[static_cast<size_t>(best)])))
        best = static_cast<int>(i);
    }
    if (best < 0) throw std::logic_error("the shipped weights must include a set for all expansions together");
    out[static_cast<size_t>(mask)] = static_cast<uint8_t>(best);
  }
  return out;
}

TrainedEvaluator::TrainedEvaluator() : ShippedSets(read_shipped<FittedEvaluator>(kShippedWeights, "shipped weights", evaluator_from_json)) {}

std::shared_ptr<const Evaluator> make_evaluator(const std::string& spec) {
  static const auto trained = std::make_shared<const TrainedEvaluator>();  // parsed once
  if (spec == "trained") return trained;
  if (spec == "endnow") return std::make_shared<EndNowEvaluator>();
  if (spec == "handtuned") return std::make_shared<LinearEvaluator>(LinearEvaluator::hand_tuned());
  if (spec.ends_with(".json")) return load_evaluator(spec);
  throw std::invalid_argument("unknown evaluator '" + excerpt(spec) + "'; evaluators are " + kEvaluatorSpecHelp);
}

}  // namespace meeple
