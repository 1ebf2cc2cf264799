// Players: given a state at a decision node, choose one of its legal actions.
//
// Players keep no global state and are seedable: the same seed and the same states give the same
// choices. They see only the game API, so they play every phase of every expansion.
//
// The bots: RandomPlayer and OnePlyPlayer here, MctsPlayer (mcts.h) and ExpectimaxPlayer (expectimax.h);
// make_player (bots.h) builds any of them from a spec.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "meeple/ai/evaluator.h"
#include "meeple/random.h"
#include "meeple/state.h"

namespace meeple {

// How long a search may think about one decision; 0 means no limit on that axis.
struct Budget {
  int iterations = 0;
  int milliseconds = 0;
};

class Player {
 public:
  virtual ~Player() = default;
  virtual std::string name() const = 0;
  // `state` is at a decision node (not chance, not terminal); the player's own budget applies.
  virtual Action choose(const State& state) = 0;
  // Every action applied to the game, draws included, in order: a search can keep its tree between moves.
  // A player that is never told simply searches afresh.
  virtual void observe(Action) {}
  // Throws std::invalid_argument when the player cannot play under `rules` (weights fitted to other
  // rules). Game runners call it before the first move; choose() checks it too.
  virtual void check_rules(const Rules&) const {}

 protected:
  // Throws std::invalid_argument unless `state` is a decision node: what every choose() requires.
  static void require_decision(const State& state);
};

// Uniform over the legal actions.
class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Action choose(const State& state) override;

 private:
  Rng rng_;
};

// Best evaluation one ply ahead: each action is tried (with the same player's follow-up decisions of the
// turn, e.g. the deploy after a placement) and valued by the evaluator's estimate of the player's final
// score minus the best opponent's. Ties are broken at random.
//   greedy:    the scores if the game ended now (EndNowEvaluator)
//   heuristic: the shipped trained weights by default, or any evaluator (eval=handtuned, FILE.json, ...)
class OnePlyPlayer : public Player {
 public:
  OnePlyPlayer(std::string name, std::shared_ptr<const Evaluator> evaluator, uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), rng_(seed) {}
  std::string name() const override { return name_; }
  Action choose(const State& state) override;
  void check_rules(const Rules& rules) const override { evaluator_->check_rules(rules); }

 private:
  double value_after(const State& state, Action a, int me) const;
  std::string name_;
  std::shared_ptr<const Evaluator> evaluator_;
  Rng rng_;
};

}  // namespace meeple
