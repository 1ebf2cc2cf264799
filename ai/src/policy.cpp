#include "meeple/ai/policy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "meeple/ai/evaluator.h"
#include "meeple/input.h"
#include "meeple/tiles.h"
#include "weight_files.h"

namespace meeple {

extern const char* const kShippedPolicies;  // ai/weights/policy-*.json as one JSON array, embedded at build time

namespace {

// What every action of one decision is compared against: the position before it.
struct Before {
  explicit Before(const State& s) : me(s.current_player()), players(s.num_players()), if_ended(s.final_scores_if_ended_now()) {
    for (int p = 0; p < players; ++p) score[p] = s.score(p);
    supply = s.followers_in_supply(me);
    tiles_left = static_cast<float>(s.tiles_left()) / static_cast<float>(std::max(1, s.tiles_left() + s.num_tiles()));
  }
  int me, players;
  std::array<int, kMaxPlayers> if_ended;
  std::array<int, kMaxPlayers> score{};
  int supply;
  float tiles_left;
};

// The feature kinds a Count quarter sends followers to (C6): castle cities, market fields, blacksmith
// roads, cathedral buildings.
constexpr ActionFeatureIndex kQuarterTarget[kNumQuarters] = {kActCity, kActField, kActRoad, kActBuilding};

ActionFeatureIndex target_of(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::kCity: return kActCity;
    case SegmentKind::kRoad: return kActRoad;
    case SegmentKind::kField: return kActField;
    default: return kActBuilding;
  }
}

// The feature a figure goes to, as the state before the action describes it.
void describe_target(const State& s, int node, float* row) {
  const FeatureInfo info = s.feature(node);
  row[target_of(info.kind)] = 1;
  row[kActTargetSize] = static_cast<float>(info.tiles + info.pennants) / 10.0f;
  row[kActTargetOpen] = static_cast<float>(info.open_edges) / 4.0f;
}

// A placement's tile as it lies on the board after it: the deploys it opens and the features it joins.
void describe_placed_tile(const State& next, int me, float* row) {
  const int t = next.last_tile();
  if (t < 0) return;
  const PlacedTile& pt = next.tile(t);
  const TileType& type = TileCatalog::get()[pt.type];
  std::array<int, kMaxSegments> seen{};
  int distinct = 0;
  row[kActNeighbours] = static_cast<float>(pt.around) / 8.0f;
  for (int seg = 0; seg < type.num_segments; ++seg) {
    const int node = next.node(t, seg);
    const int root = next.feature_root(node);
    if (std::find(seen.begin(), seen.begin() + distinct, root) != seen.begin() + distinct) continue;
    seen[distinct++] = root;
    const FeatureInfo info = next.feature(node);
    if (info.kind == SegmentKind::kRiver) continue;
    const int best = *std::max_element(info.followers.begin(), info.followers.begin() + next.num_players());
    const float size = static_cast<float>(info.tiles + info.pennants) / 10.0f;
    if (best == 0) {
      if (info.complete) continue;
      if (info.kind == SegmentKind::kCity) row[kActFreeCity] = std::max(row[kActFreeCity], size);
      if (info.kind == SegmentKind::kRoad) row[kActFreeRoad] = std::max(row[kActFreeRoad], size);
      if (info.kind == SegmentKind::kCloister || info.kind == SegmentKind::kShrine)
        row[kActFreeBuilding] = std::max(row[kActFreeBuilding], static_cast<float>(pt.around) / 8.0f);
      continue;
    }
    const bool mine = info.followers[me] > 0;
    row[mine ? kActJoinsOwn : kActJoinsOthers] += 1;
    if (info.complete) row[info.followers[me] == best ? kActCompletesOwn : kActCompletesOthers] += static_cast<float>(info.tiles) / 10.0f;
  }
}

float best_other(const std::array<int, kMaxPlayers>& v, int me, int players) {
  int best = -1 << 30;
  for (int p = 0; p < players; ++p)
    if (p != me) best = std::max(best, v[p]);
  return static_cast<float>(best);
}

void describe_action(const State& s, const Before& before, Action a, float* row) {
  std::fill(row, row + kNumActionFeatures, 0.0f);
  row[kActBias] = 1;
  row[kActTilesLeft] = before.tiles_left;
  row[kActSupply] = static_cast<float>(before.supply) / 7.0f;
  switch (a.kind()) {
    case Action::kPass: row[kActPass] = 1; break;
    case Action::kPlace: row[kActPlace] = 1; break;
    case Action::kAbbey: row[kActAbbey] = 1; break;
    case Action::kDeploy:
      if (a.figure() == Figure::kBarn) {
        row[kActSpecial] = 1;
        row[kActField] = 1;
      } else {
        row[a.figure() == Figure::kFollower ? kActFollower : kActSpecial] = 1;
        describe_target(s, s.node(s.last_tile(), a.segment()), row);
      }
      break;
    case Action::kCountDeploy:
      row[kActMove] = 1;
      row[kQuarterTarget[a.quarter()]] = 1;
      break;
    case Action::kRedeploy:
    case Action::kWagon:
      row[kActMove] = 1;
      describe_target(s, a.node(), row);
      break;
    default: break;
  }
  State next = s;
  next.apply(a);
  const int me = before.me, n = before.players;
  if (a.kind() == Action::kPlace) describe_placed_tile(next, me, row);
  row[kActSupplyChange] = static_cast<float>(next.followers_in_supply(me) - before.supply);
  std::array<int, kMaxPlayers> score{};
  for (int p = 0; p < n; ++p) score[p] = next.score(p);
  const auto if_ended = next.final_scores_if_ended_now();
  std::array<int, kMaxPlayers> board{}, board_before{};
  for (int p = 0; p < n; ++p) {
    board[p] = if_ended[p] - score[p];
    board_before[p] = before.if_ended[p] - before.score[p];
  }
  row[kActScoreGain] = static_cast<float>(score[me] - before.score[me]) / 10.0f;
  row[kActOthersScoreGain] = (best_other(score, me, n) - best_other(before.score, me, n)) / 10.0f;
  row[kActBoardGain] = static_cast<float>(board[me] - board_before[me]) / 10.0f;
  row[kActOthersBoardGain] = (best_other(board, me, n) - best_other(board_before, me, n)) / 10.0f;
}

// Logits to probabilities, in place.
void softmax(std::span<float> x) {
  const float best = *std::max_element(x.begin(), x.end());
  float sum = 0;
  for (float& v : x) sum += (v = std::exp(v - best));
  for (float& v : x) v /= sum;
}


}  // namespace

void extract_action_features(const State& state, const ActionList& actions, std::span<float> out) {
  if (static_cast<int>(out.size()) < actions.size * kNumActionFeatures)
    throw std::invalid_argument("extract_action_features: the buffer is too small for the actions");
  const Before before(state);
  for (int i = 0; i < actions.size; ++i) describe_action(state, before, actions[i], out.data() + i * kNumActionFeatures);
}

float PolicyNet::logit(std::span<const float> features) const {
  return mlp_.forward<1>(Eigen::Map<const Eigen::Matrix<float, kNumActionFeatures, 1>>(features.data()))[0];
}

void PolicyNet::priors(const State& state, const ActionList& actions, std::span<float> out) const {
  const Before before(state);
  // The network sees the actions a batch at a time, one column each: a matrix product costs much less per
  // action than a matrix-vector product per action.
  constexpr int kBatch = 32;
  for (int first = 0; first < actions.size; first += kBatch) {
    const int columns = std::min(kBatch, actions.size - first);
    SmallMlp::Columns<kBatch> x(kNumActionFeatures, columns);
    for (int c = 0; c < columns; ++c) describe_action(state, before, actions[first + c], x.col(c).data());
    const auto logits = mlp_.forward<kBatch>(x);
    for (int c = 0; c < columns; ++c) out[static_cast<size_t>(first + c)] = logits[c];
  }
  softmax(out.first(static_cast<size_t>(actions.size)));
}

void OnePlyPolicy::priors(const State& state, const ActionList& actions, std::span<float> out) const {
  const int me = state.current_player();
  for (int i = 0; i < actions.size; ++i) {
    State next = state;
    next.apply(actions[i]);
    out[static_cast<size_t>(i)] = static_cast<float>(margin(evaluator_->evaluate(next), me, state.num_players()) / temperature_);
  }
  softmax(out.first(static_cast<size_t>(actions.size)));
}

void PolicyNet::check_rules(const Rules& rules) const {
  if (const std::string why = rules_mismatch("policy '" + excerpt(name_) + "'", trained_on_, rules); !why.empty())
    throw std::invalid_argument(why + "; train a policy for these rules (python -m meeple train-policy)");
}

PolicyNet PolicyNet::from_json(std::string_view text, const std::string& source) {
  const Fail fail = [&](const std::string& what) { throw std::invalid_argument(excerpt(source) + ": " + what); };
  nlohmann::json j;
  try {
    j = parse_json(text);
  } catch (const std::invalid_argument& e) {
    fail(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || j.value("format", nlohmann::json()) != "meeple-policy/1")
    fail("not a policy weight file: expected an object with \"format\": \"meeple-policy/1\"");
  if (j.contains("name") && !j["name"].is_string()) fail("name must be a string");
  std::vector<std::string> names(kActionFeatureNames.begin(), kActionFeatureNames.end());
  if (!j.contains("action_features") || j["action_features"] != nlohmann::json(names)) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    fail("its action_features are not this meeple's (" + list + ", in this order); train the policy again");
  }
  const std::optional<Rules> rules = rules_from_json(j, fail);
  auto layers = layers_from_json(j, fail, [&](const nlohmann::json& row, const std::string& what) { return numbers_of(row, what, fail); });
  try {
    return PolicyNet(std::move(layers), j.value("name", source), rules);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  throw std::logic_error("unreachable");
}

std::string PolicyNet::to_json() const {
  nlohmann::json j;
  j["format"] = "meeple-policy/1";
  j["name"] = name_;
  if (trained_on_) j["rules"] = trained_on_->to_string();
  j["action_features"] = kActionFeatureNames;
  j["layers"] = layers_to_json(layers());
  return j.dump(1);
}

std::shared_ptr<const PolicyNet> load_policy(const std::string& path) {
  return std::make_shared<const PolicyNet>(PolicyNet::from_json(read_text(path, "policy weights"), path));
}

TrainedPolicy::TrainedPolicy()
    : ShippedSets(read_shipped<PolicyNet>(kShippedPolicies, "shipped policy", [](const std::string& text, const std::string& source) {
        return std::make_shared<const PolicyNet>(PolicyNet::from_json(text, source));
      })) {}

std::shared_ptr<const Policy> make_policy(const std::string& spec) {
  static const auto trained = std::make_shared<const TrainedPolicy>();  // parsed once
  if (spec == "trained") return trained;
  if (spec.ends_with(".json")) return load_policy(spec);
  throw std::invalid_argument("unknown policy '" + excerpt(spec) + "'; policies are trained (the shipped networks) or a weight file FILE.json");
}

}  // namespace meeple
