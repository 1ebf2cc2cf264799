// Policy networks: a prior over the legal actions of any decision, for guided search (PUCT).
//
// Every action is described by the same fixed vector of numbers (its action features), whatever the phase
// or expansion: what kind of decision it is, the feature it puts a figure on, and how it changes the
// chooser's and the others' scores and board (read from the position after it). A small network maps each
// action's vector to a logit, and the prior is their softmax over the legal actions. So one network serves
// placements, deploys, the abbey, the Count, wagons and barns alike, and a prior can never go to an action
// that is not legal.
//
// The features describe a placement with the deploys it opens (the best free city, road and building on
// the placed tile, the features it joins), because search values a placement by the turn it starts, not
// by the half-made move.
//
// Networks are trained on MCTS visit counts by python -m meeple train-policy (bindings/python/meeple/
// policy.py) and read from weight files:
//   {"format": "meeple-policy/1", "name": "...", "rules": "players=2 ...",   // rules: optional
//    "action_features": ["bias", "pass", ...],
//    "layers": [{"weights": [[...] per output], "bias": [...]}, ...]}  // tanh between, the last 1 output
// Networks are immutable after loading and evaluate on the stack: one instance serves every search thread.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "meeple/ai/evaluator.h"
#include "meeple/ai/mlp.h"
#include "meeple/state.h"

namespace meeple {

enum ActionFeatureIndex : int {
  kActBias,            // 1
  kActPass,            // decline the decision
  kActPlace,           // place the drawn tile
  kActAbbey,           // place the abbey
  kActFollower,        // a follower onto the tile just placed
  kActSpecial,         // the mayor, the wagon or the barn onto the tile just placed
  kActMove,            // a figure sent elsewhere: into a Count quarter, out of one, a wagon moving on
  kActCity,            // the figure goes to a city (a Count deploy: the castle quarter, which sends to cities)
  kActRoad,            // ... a road (blacksmith)
  kActField,           // ... a field (market)
  kActBuilding,        // ... a cloister or shrine (cathedral)
  kActTargetSize,      // that feature's tiles and pennants / 10
  kActTargetOpen,      // its open edges / 4
  kActScoreGain,       // the chooser's points scored by the action / 10
  kActOthersScoreGain, // the best other seat's / 10
  kActBoardGain,       // change of the chooser's final-scoring points if the game ended now / 10
  kActOthersBoardGain, // ... of the best other seat's / 10
  kActSupplyChange,    // change of the chooser's followers in supply
  kActFreeCity,        // placements: the largest city on the placed tile with no figure (tiles + pennants) / 10
  kActFreeRoad,        // ... road / 10
  kActFreeBuilding,    // ... cloister or shrine with no figure: placed tiles around it / 8
  kActJoinsOwn,        // ... features of the placed tile where the chooser has figures
  kActJoinsOthers,     // ... where only others have figures
  kActCompletesOwn,    // ... features it completes that the chooser leads: tiles / 10
  kActCompletesOthers, // ... that only others lead: tiles / 10
  kActNeighbours,      // ... placed tiles among the 8 around the cell / 8
  kActTilesLeft,       // fraction of the tiles still to come
  kActSupply,          // the chooser's followers in supply / 7
  kNumActionFeatures,
};

inline constexpr std::array<const char*, kNumActionFeatures> kActionFeatureNames = {
    "bias", "pass", "place", "abbey", "follower", "special", "move", "city", "road", "field", "building",
    "target_size", "target_open", "score_gain", "others_score_gain", "board_gain", "others_board_gain",
    "supply_change", "free_city", "free_road", "free_building", "joins_own", "joins_others", "completes_own",
    "completes_others", "neighbours", "tiles_left", "supply",
};

// Writes one row of kNumActionFeatures per action of `actions` (legal at `state`, a decision node) into
// `out` (at least actions.size * kNumActionFeatures floats). Allocates nothing.
void extract_action_features(const State& state, const ActionList& actions, std::span<float> out);

// A prior over the legal actions of a decision.
class Policy {
 public:
  virtual ~Policy() = default;
  // The prior of each action of `actions` (legal at `state`, a decision node): positive, summing to 1.
  virtual void priors(const State& state, const ActionList& actions, std::span<float> out) const = 0;
  virtual std::string name() const = 0;
  // Throws std::invalid_argument when the policy was trained on other rules (as evaluators do).
  virtual void check_rules(const Rules&) const {}
};

class PolicyNet : public Policy {
 public:
  static constexpr int kMaxWidth = SmallMlp::kMaxWidth;  // widest hidden layer
  using Layer = SmallMlp::Layer;
  // Throws std::invalid_argument when the layer shapes do not chain from kNumActionFeatures inputs to 1.
  PolicyNet(std::vector<Layer> layers, std::string name, std::optional<Rules> trained_on)
      : mlp_(std::move(layers), kNumActionFeatures), name_(std::move(name)), trained_on_(std::move(trained_on)) {}
  static PolicyNet from_json(std::string_view text, const std::string& source);
  std::string to_json() const;

  void priors(const State& state, const ActionList& actions, std::span<float> out) const override;
  // The logit of one action from its features (kNumActionFeatures of them): what priors() computes for a
  // batch of actions at once, one at a time (the reference the tests compare priors() with).
  float logit(std::span<const float> features) const;

  std::string name() const override { return name_; }
  const std::optional<Rules>& trained_on() const { return trained_on_; }
  void check_rules(const Rules& rules) const override;
  const std::vector<Layer>& layers() const { return mlp_.layers(); }

 private:
  static_assert(kNumActionFeatures <= kMaxWidth);
  SmallMlp mlp_;
  std::string name_;
  std::optional<Rules> trained_on_;
};

// Reads a policy weight file; errors (std::invalid_argument) name the file and what is wrong.
std::shared_ptr<const PolicyNet> load_policy(const std::string& path);

// The networks shipped with meeple (ai/weights/policy-*.json, trained by experiments/train_policies.sh):
// the default priors. Each decision gets the network for its game's expansions, chosen as the shipped
// evaluator weights are (ShippedSets).
class TrainedPolicy : public Policy, public ShippedSets<PolicyNet> {
 public:
  TrainedPolicy();
  void priors(const State& state, const ActionList& actions, std::span<float> out) const override {
    weights_for(state.rules().expansions)->priors(state, actions, out);
  }
  std::string name() const override { return "trained"; }
};

// The prior before trained networks: a softmax of each action's one-ply margin (the evaluator's estimate
// of the chooser minus the best other seat right after the action), at a temperature in points.
class OnePlyPolicy : public Policy {
 public:
  OnePlyPolicy(std::shared_ptr<const Evaluator> evaluator, double temperature)
      : evaluator_(std::move(evaluator)), temperature_(temperature) {}
  void priors(const State& state, const ActionList& actions, std::span<float> out) const override;
  std::string name() const override { return "oneply"; }
  void check_rules(const Rules& rules) const override { evaluator_->check_rules(rules); }

 private:
  std::shared_ptr<const Evaluator> evaluator_;
  double temperature_;
};

// Policy specs: "trained" (the shipped networks) or a weight file "FILE.json".
std::shared_ptr<const Policy> make_policy(const std::string& spec);

}  // namespace meeple
