// Players: given a state at a decision node, choose one of its legal actions.
//
// Players keep no global state and are seedable: the same seed and the same states give the same
// choices. They see only the game API, so they play every phase of every expansion.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "meeple/random.h"
#include "meeple/state.h"

namespace meeple {

class Player {
 public:
  virtual ~Player() = default;
  virtual std::string name() const = 0;
  // `state` is at a decision node (not chance, not terminal).
  virtual Action choose(const State& state) = 0;
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

// Best immediate score difference: each action is tried (with the same player's follow-up decisions of
// the turn, e.g. the deploy after a placement), and valued by the player's score minus the best
// opponent's, counting what the board would pay if the game ended now. Ties are broken at random.
class GreedyPlayer : public Player {
 public:
  explicit GreedyPlayer(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "greedy"; }
  Action choose(const State& state) override;

 private:
  double value_after(const State& state, Action a, int me) const;
  Rng rng_;
};

// "random", "greedy" or "mcts[:iterations=N,ms=N,c=X,scale=X]"; throws std::invalid_argument listing
// the valid names and parameters.
std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed);

}  // namespace meeple
