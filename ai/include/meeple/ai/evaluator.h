// Evaluators: an estimate of every player's final score in a position, for search leaves and one-ply
// players. Estimates are points, so players turn them into rewards the same way as real scores (the
// margin over the best opponent).
//
// Evaluators are immutable after construction and keep scratch space on the stack: one instance serves
// any number of search threads.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "meeple/ai/features.h"
#include "meeple/state.h"

namespace meeple {

using PlayerValues = std::array<double, kMaxPlayers>;

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Estimated final score of each of the state's players (entries past num_players() are 0).
  virtual PlayerValues evaluate(const State& state) const = 0;
  virtual std::string name() const = 0;
};

// The scores if the game ended now: points so far plus final scoring of the board. What the greedy player
// maximises; the cheapest evaluator.
class EndNowEvaluator : public Evaluator {
 public:
  PlayerValues evaluate(const State& state) const override;
  std::string name() const override { return "endnow"; }
};

// A weighted sum of the features (features.h) per player, on Eigen.
//
// Weight files (JSON) name every feature, so a file written for another feature set is refused rather
// than misread:
//   {"format": "meeple-evaluator/1", "kind": "linear",
//    "expansions": ["river2", "king_robber"],        // the rules trained on; omitted: any
//    "features": ["bias", "score", ...], "weights": [0.0, 1.0, ...]}
class LinearEvaluator : public Evaluator {
 public:
  using Weights = Eigen::Matrix<float, kNumFeatures, 1>;
  explicit LinearEvaluator(const Weights& weights, std::string name = "linear", int expansions = -1)
      : weights_(weights), name_(std::move(name)), expansions_(expansions) {}

  // Hand-chosen weights: completion odds discounted, figures in supply worth more early in the game.
  static LinearEvaluator hand_tuned();
  // Parses a weight file's text; `source` names it in errors (std::invalid_argument, saying what is wrong).
  static LinearEvaluator from_json(std::string_view text, const std::string& source);
  static LinearEvaluator load(const std::string& path);
  std::string to_json() const;

  PlayerValues evaluate(const State& state) const override;
  std::string name() const override { return name_; }
  const Weights& weights() const { return weights_; }
  // Expansion mask the weights were trained for, or -1 for any rules. check_rules throws
  // std::invalid_argument when `rules` differ from it.
  int expansions() const { return expansions_; }
  void check_rules(const Rules& rules) const;

 private:
  Weights weights_;
  std::string name_;
  int expansions_;
};

// "endnow", "heuristic" (hand-tuned linear), or a path to a weight file.
std::shared_ptr<const Evaluator> make_evaluator(const std::string& spec);

}  // namespace meeple
