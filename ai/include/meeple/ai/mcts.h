// Monte Carlo tree search over the game API: decision nodes choose by UCT for the player to act, chance
// nodes (tile draws) sample the true probabilities of the remaining tiles, never a hidden order. Values
// are kept per player, so 2 to 6 players and turns where others decide (the Count, wagons) need no
// special case. Rewards: tanh of the score margin over the best opponent, divided by `reward_scale`.
//
// This is the sequential core; tree parallelism on oneTBB, evaluator leaves and tree reuse build on it.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "meeple/ai/player.h"

namespace meeple {

struct MctsOptions {
  int iterations = 1000;       // simulations per move (0: no limit, then milliseconds must be set)
  int milliseconds = 0;        // time per move (0: no limit)
  double exploration = 0.7;    // UCT constant, on rewards in [-1, 1]
  double reward_scale = 20.0;  // score margin that counts as a clear win
  // Leaf value: a random game to the end ("rollout"), or the scores the board would give if the game
  // ended now ("eval": current points plus final scoring of what is on the board).
  enum class Leaf { kRollout, kEval } leaf = Leaf::kRollout;
  uint64_t seed = 1;
  // Root parallelism: this many independent trees searched at once on oneTBB (seeds seed, seed+1, ...),
  // their root visits summed. One thread with a fixed seed is reproducible. Tree parallelism comes next.
  int threads = 1;
};

class MctsPlayer : public Player {
 public:
  explicit MctsPlayer(MctsOptions options) : options_(options), rng_(options.seed) {}
  std::string name() const override { return "mcts"; }
  Action choose(const State& state) override;
  // One tree, this player's own options: what each root-parallel worker runs.
  Action search(const State& state);

  // Statistics of the last search: for tests and tools.
  struct RootChild {
    Action action;
    int visits;
    double mean;  // for the player who chose
  };
  const std::vector<RootChild>& last_root() const { return last_root_; }
  int last_iterations() const { return last_iterations_; }
  // Checks the last tree: child visits sum to the parent's (less one for the parent's own expansion),
  // no node expanded twice. Returns an empty string or the first problem.
  std::string verify_tree() const;

 private:
  struct Node {
    int first_child = -1;  // children are contiguous in nodes_
    int num_children = 0;
    bool expanded = false;
    bool chance = false;
    int visits = 0;
    Action action;  // the action (or draw) leading here
    int tile = -1;  // chance children: the tile drawn
    int copies = 0;
    std::array<double, kMaxPlayers> value{};  // sum of rewards per player
  };

  int expand(int node, const State& state);
  int select_child(int node, const State& state);
  std::array<double, kMaxPlayers> rollout(State& state);
  std::array<double, kMaxPlayers> rewards(const State& state) const;
  std::array<double, kMaxPlayers> margins_to_rewards(const std::array<int, kMaxPlayers>& scores, int players) const;

  MctsOptions options_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<RootChild> last_root_;
  int last_iterations_ = 0;
};

}  // namespace meeple
