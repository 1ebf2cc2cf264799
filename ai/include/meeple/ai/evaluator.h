// Evaluators: an estimate of every player's final score in a position, for search leaves and one-ply
// players. Estimates are points, so players turn them into rewards the same way as real scores (the
// margin over the best opponent).
//
// Evaluators are immutable after construction and keep scratch space on the stack: one instance serves
// any number of search threads.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "meeple/ai/features.h"
#include "meeple/ai/mlp.h"
#include "meeple/state.h"

namespace meeple {

using PlayerValues = std::array<double, kMaxPlayers>;

// What players maximise: seat `me`'s value minus the best other seat's.
inline double margin(const PlayerValues& v, int me, int players) {
  double best_other = -1e300;
  for (int p = 0; p < players; ++p)
    if (p != me) best_other = std::max(best_other, v[p]);
  return v[me] - best_other;
}

// The points so far of every seat (the final scores once the game is over).
inline PlayerValues points_of(const State& s) {
  PlayerValues v{};
  for (int p = 0; p < s.num_players(); ++p) v[p] = s.score(p);
  return v;
}

// Empty when weights fitted to `trained_on` (none: any rules) fit a game of `rules`; otherwise why not,
// naming `what` (say "evaluator 'x'"). Weights fit other rules of the same expansions and the same
// values of the options that matter to them; the player count may differ.
std::string rules_mismatch(const std::string& what, const std::optional<Rules>& trained_on, const Rules& rules);

// For every set of expansions (a bit mask), the index of the smallest of `trained` (the expansions each
// shipped weight set was fitted to) containing it: what a game of those expansions is played with. Throws
// std::logic_error unless some set holds every expansion.
std::array<uint8_t, 1 << kNumExpansions> covering_sets(const std::vector<int>& trained);

// Weights shipped with meeple (ai/weights/, embedded in the library), one set per expansion set it was
// fitted to, and the set a game is played with: the one fitted to its expansions, or that of the smallest
// shipped set containing them (all expansions together at worst). The shipped evaluator and the shipped
// policy are both this, over FittedEvaluator and PolicyNet.
template <typename Weights>
class ShippedSets {
 public:
  // Each set must name its rules (trained_on()), and one must hold every expansion: std::logic_error.
  explicit ShippedSets(std::vector<std::shared_ptr<const Weights>> sets) : sets_(std::move(sets)) {
    std::vector<int> trained;
    for (const auto& set : sets_) {
      if (!set->trained_on()) throw std::logic_error("shipped weights must name their rules");
      trained.push_back(set->trained_on()->expansions);
    }
    for_expansions_ = covering_sets(trained);
  }
  // The weights used for games with these expansions (a bit mask).
  const std::shared_ptr<const Weights>& weights_for(int expansions) const { return sets_[for_expansions_[expansions]]; }
  const std::vector<std::shared_ptr<const Weights>>& sets() const { return sets_; }

 private:
  std::vector<std::shared_ptr<const Weights>> sets_;
  std::array<uint8_t, 1 << kNumExpansions> for_expansions_{};
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Estimated final score of each of the state's players (entries past num_players() are 0).
  virtual PlayerValues evaluate(const State& state) const = 0;
  virtual std::string name() const = 0;
  // Throws std::invalid_argument when the evaluator was fitted to other rules than `rules`.
  virtual void check_rules(const Rules&) const {}
};

// The evaluator's points at the end of the turn in progress (`state`'s turn player's), its remaining
// decisions (a deploy after a placement, the Count's or a wagon's move) each taken by its decider as the
// one-ply heuristic would: what search values a leaf by, and the base a network's value corrects
// (network.h). The turn ends at the next draw, or where another player's turn starts (the abbey round); a
// finished game gives its scores, a tile draw the evaluator's points as they stand.
PlayerValues turn_end_points(const Evaluator& evaluator, const State& state);

// The evaluator's points for a search leaf at `state`, as search without a network values one (the default
// chance=sample, finish_turn): a tile draw, or a tile in hand (a leaf reached by the draw), the points as
// they stand, the tile unread; any other decision the end of its turn (turn_end_points); a finished game
// its scores. What a network with a value base (network.h) corrects.
PlayerValues leaf_points(const Evaluator& evaluator, const State& state);

// The scores if the game ended now: points so far plus final scoring of the board. What the greedy player
// maximises; the cheapest evaluator.
class EndNowEvaluator : public Evaluator {
 public:
  PlayerValues evaluate(const State& state) const override;
  std::string name() const override { return "endnow"; }
};

// An evaluator whose parameters come from a weight file (JSON) fitted to some rules by python -m meeple
// train. Weight files name every feature, so a file written for another feature set is refused rather than
// misread, and say which rules they were fitted to:
//   {"format": "meeple-evaluator/1", "kind": "linear" or "mlp", "name": "trained-base",
//    "rules": "players=2 expansions=river2,king_robber",   // omitted: fits any rules
//    "features": ["bias", "score", ...], ...the kind's parameters...}
// Weights fitted to some rules are refused for others: other expansions, or another value of an option
// that matters in the game (one of the base game or of its expansions). The player count may differ:
// the features already account for it.
class FittedEvaluator : public Evaluator {
 public:
  FittedEvaluator(std::string name, std::optional<Rules> trained_on)
      : name_(std::move(name)), trained_on_(std::move(trained_on)) {}
  std::string name() const override { return name_; }
  // The rules the weights were fitted to; none: any rules.
  const std::optional<Rules>& trained_on() const { return trained_on_; }
  bool fits(const Rules& rules) const;
  void check_rules(const Rules& rules) const override;
  virtual std::string to_json() const = 0;

 protected:
  std::string name_;
  std::optional<Rules> trained_on_;
};

// Reads a weight file of any kind; `source` names it in errors (std::invalid_argument, saying what is
// wrong).
std::shared_ptr<const FittedEvaluator> evaluator_from_json(std::string_view text, const std::string& source);
std::shared_ptr<const FittedEvaluator> load_evaluator(const std::string& path);

// A weighted sum of the features (features.h) per player, on Eigen.
//   kind "linear": "weights": [w_bias, w_score, ...] in the order of "features"
class LinearEvaluator : public FittedEvaluator {
 public:
  using Weights = Eigen::Matrix<float, kNumFeatures, 1>;
  explicit LinearEvaluator(const Weights& weights, std::string name = "linear",
                           std::optional<Rules> trained_on = std::nullopt)
      : FittedEvaluator(std::move(name), std::move(trained_on)), weights_(weights) {}

  // Hand-chosen weights: completion odds discounted, figures in supply worth more early in the game.
  static LinearEvaluator hand_tuned();
  static LinearEvaluator from_json(std::string_view text, const std::string& source);
  std::string to_json() const override;

  PlayerValues evaluate(const State& state) const override;
  const Weights& weights() const { return weights_; }

 private:
  Weights weights_;
};

// A small multilayer perceptron on each seat's features relative to the others' (its row minus the mean of
// the other rows): tanh hidden layers and one linear output, the seat's predicted final score minus the
// mean of the others'. Values are that times (players - 1) / players, whose differences between seats are
// then predicted score differences, as with the other evaluators.
//   kind "mlp": "layers": [{"weights": [[...] per output], "bias": [...]}, ...], the last with one output
class MlpEvaluator : public FittedEvaluator {
 public:
  static constexpr int kMaxWidth = SmallMlp::kMaxWidth;  // widest hidden layer
  using Layer = SmallMlp::Layer;
  MlpEvaluator(std::vector<Layer> layers, std::string name, std::optional<Rules> trained_on)
      : FittedEvaluator(std::move(name), std::move(trained_on)), mlp_(std::move(layers), kNumFeatures) {}
  static MlpEvaluator from_json(std::string_view text, const std::string& source);
  std::string to_json() const override;

  PlayerValues evaluate(const State& state) const override;
  const std::vector<Layer>& layers() const { return mlp_.layers(); }

 private:
  static_assert(kNumFeatures <= kMaxWidth);
  SmallMlp mlp_;
};

// The weights shipped with meeple (ai/weights/*.json, fitted by python -m meeple train): the default
// evaluator. Each position is valued with the set for its game's expansions (ShippedSets).
class TrainedEvaluator : public Evaluator, public ShippedSets<FittedEvaluator> {
 public:
  TrainedEvaluator();
  PlayerValues evaluate(const State& state) const override { return weights_for(state.rules().expansions)->evaluate(state); }
  std::string name() const override { return "trained"; }
};

// Evaluator specs: "trained" (the shipped weights; the default), "handtuned", "endnow", or a weight file
// "FILE.json".
std::shared_ptr<const Evaluator> make_evaluator(const std::string& spec);
inline constexpr const char* kEvaluatorSpecHelp = "trained (default), handtuned, endnow, or a weight file FILE.json";

}  // namespace meeple
