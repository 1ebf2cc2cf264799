// Expectimax over the tile draw with *-minimax pruning (Ballard's Star1 and Star2, as restated by Hauk,
// Buro and Schaeffer, "Rediscovering *-Minimax Search", 2004): the second search family, beside MCTS.
//
// Depth counts turns: depth 1 tries every sequence of the player's own decisions this turn and evaluates
// the position before the next draw (what the one-ply `heuristic` player does); depth 2 also averages over
// every tile the next player may draw and lets them answer with their best turn; and so on. Decisions by
// other players inside a turn (the Count, wagons) are searched like any other. A turn also ends where the
// next player's starts without a draw (the abbey round after the last tile).
//
// Values are the searching player's: tanh(margin / reward_scale) of the evaluator's estimate (or of the
// final scores), the margin being the player's points minus the best opponent's. They lie in (-1, 1),
// the bounds Star1 needs. Opponents minimise that value (with more than two players that is the
// "paranoid" assumption: every other seat plays against the searcher). The pruning never changes the
// value: Star1 and Star2 return exactly what plain expectimax returns, only faster.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "meeple/ai/evaluator.h"
#include "meeple/ai/player.h"

namespace meeple {

struct ExpectimaxOptions {
  int depth = 2;            // turns searched; with a budget, iterative deepening up to this depth
  int milliseconds = 0;     // budget: stop deepening when this time is spent (0: none)
  int evaluations = 0;      // budget: stop deepening after this many evaluator calls (0: none)
  // kNone: plain expectimax with alpha-beta at decision nodes only; kStar1: chance nodes prune with the
  // value bounds; kStar2: and probe one answer of each outcome first, for cheap bounds.
  enum class Pruning { kNone, kStar1, kStar2 } pruning = Pruning::kStar2;
  double reward_scale = 20.0;  // score margin that counts as a clear win
  int threads = 1;  // the root's actions after the first are searched on this many threads (oneTBB)
  std::shared_ptr<const Evaluator> evaluator;  // null: the shipped trained weights
  uint64_t seed = 1;
};

class ExpectimaxPlayer : public Player {
 public:
  explicit ExpectimaxPlayer(ExpectimaxOptions options);
  std::string name() const override { return "expectimax"; }
  Action choose(const State& state) override;
  void check_rules(const Rules& rules) const override { evaluator_->check_rules(rules); }

  // The value of a decision node for the player to act, searched `depth` turns deep without a budget.
  double value(const State& state, int depth);

  // The last choice: its value, the deepest completed depth and the evaluator calls it took.
  double last_value() const { return last_value_; }
  int last_depth() const { return last_depth_; }
  int64_t last_evaluations() const { return evaluations_.load(); }

 private:
  class Search;
  ExpectimaxOptions options_;
  std::shared_ptr<const Evaluator> evaluator_;
  double last_value_ = 0;
  int last_depth_ = 0;
  std::atomic<int64_t> evaluations_{0};
};

}  // namespace meeple
