// Monte Carlo tree search over the game API.
//
// Decision nodes choose by PUCT with a policy network's priors (or by UCT) for the player to act; chance nodes (tile
// draws) sample the true probabilities of the remaining tiles, never a hidden order. A turn is split as
// the game splits it (placement, then figure decisions), and values are kept per player, so 2 to 6 players
// and decisions taken by others (the Count, wagons) need no special case. The reward of a finished or
// evaluated position is tanh(margin / reward_scale), the margin being the player's score minus the best
// opponent's (or +1/0/-1 for a win/tie/loss).
//
// Parallelism (oneTBB): with threads > 1 the workers share one tree. Node statistics are atomics; a worker
// descending through a node adds a virtual loss that it removes when it backs up, steering other workers
// elsewhere. Expansion is claimed by one worker with a compare-and-swap. Each worker owns its state copy,
// random stream and node arena, so the hot path takes no lock. Root parallelism (independent trees, root
// visits summed) and determinized search (sampled tile orders, votes summed) are the alternatives.
// With one thread and a fixed seed, every choice is reproducible.
//
// With a policy-value network (network.h) instead of the evaluator and the policy, each worker descends up
// to `batch` times before it evaluates, its virtual losses steering each descent away from the leaves
// already chosen; the leaves go to the network in one call, are expanded with the priors of that call and
// backed up. A leaf waiting for its evaluation is claimed (pending): a descent that reaches it in the
// meantime (a collision) takes its visits back and does not count towards the budget.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "meeple/ai/evaluator.h"
#include "meeple/ai/network.h"
#include "meeple/ai/player.h"
#include "meeple/ai/policy.h"

namespace meeple {

struct MctsOptions {
  int iterations = 1000;       // simulations per move (0: no limit, then milliseconds must be set)
  int milliseconds = 0;        // time per move (0: no limit)
  // UCT constant (PUCT: the prior's weight), on rewards in [-1, 1]; negative: the formula's default, 0.4
  // for UCT and 1.0 for PUCT (the best of those measured, docs/strength.md).
  double exploration = -1;
  double reward_scale = 20.0;  // score margin that counts as a clear win
  enum class Reward { kMargin, kWin } reward = Reward::kMargin;
  // Leaf value: a random game to the end, a few random turns then the evaluator, or the evaluator alone.
  // The evaluator alone is the strongest per second measured so far (docs/strength.md).
  enum class Leaf { kRollout, kTruncated, kEval } leaf = Leaf::kEval;
  int rollout_turns = 4;  // kTruncated: random turns before evaluating
  // kEval in the middle of a turn (say a placement whose deploy is still to choose): finish the turn as the
  // one-ply heuristic would (each remaining decision by its decider, greedily) and evaluate its end, where
  // the evaluator was fitted, instead of the half-made move.
  bool finish_turn = true;
  // Evaluator for kTruncated/kEval leaves; null: the shipped trained weights.
  std::shared_ptr<const Evaluator> evaluator;
  // Chance nodes. kFull: every drawn tile is a node whose first visit ends a simulation, like any other
  // (with a network, a fresh tile draw is passed through to one drawn tile, which ends it).
  // kSample: a simulation passes through a drawn tile's first visit and goes on to decide with it (the
  // evaluators do not read the tile in hand, so stopping there would evaluate the position before the draw
  // again).
  enum class Chance { kFull, kSample } chance = Chance::kSample;
  // UCT first-play urgency (negative: off, every child is tried once before any is tried twice). Otherwise
  // an untried child counts as one visit worth the parent's mean less `fpu`, so a good child found early is
  // followed up before every alternative has been tried.
  double fpu = 0.1;
  // PUCT (the default) or UCT. PUCT weighs each child's exploration by its prior; an unvisited child counts
  // as the parent's mean less `fpu` (when fpu >= 0).
  bool puct = true;
  // Priors for PUCT and progressive widening; null: the shipped policy networks (policy.h).
  std::shared_ptr<const Policy> policy;
  // Progressive widening (0: off): a decision node with n visits considers its best
  // ceil(widening * n^widening_exponent) children by prior.
  double widening = 0;
  double widening_exponent = 0.5;
  // Gumbel root (0: off; Danihelka et al., "Policy improvement by planning with Gumbel", 2022): sample this
  // many root actions without replacement by prior (Gumbel-top-k), then share the budget among them by
  // sequential halving, keeping after each round the half with the best Gumbel + log prior + scaled mean
  // value; the last one left is played. Below the root, PUCT as usual. Tree search only.
  int gumbel = 0;
  int threads = 1;
  enum class Parallel { kTree, kRoot } parallel = Parallel::kTree;
  // Determinized search (0: off): this many sampled tile orders, one tree each, root visits summed.
  int determinizations = 0;
  static constexpr int kMaxDeterminizations = 64;  // each tree starts with a block of nodes (about 1.8 MB)
  // A policy-value network: it values every leaf that is not a finished game and gives the priors of the
  // decisions, in place of the evaluator, finish_turn and the policy. With chance=sample (the default) the
  // tree is shaped as without a network: a fresh tile draw is a leaf it values, and a simulation passes
  // through a drawn tile's first visit (its decision expanded with priors from a network call of its own)
  // to one of its actions, so that no leaf has a tile in hand. With chance=full a simulation passes through
  // a fresh tile draw to one drawn tile, whose decision is the leaf. With an evaluator
  // (eval=) the network gives only the priors and the evaluator values the leaves (finish_turn as without
  // a network); with a policy (policy=) the policy gives the priors and the network only values: each half
  // of the network measured on its own. When it values the leaves its reward_scale replaces this one
  // (its values are tanh(margin / its scale)). Tree search only (no worlds, parallel=root, other leaf
  // kinds or reward=win).
  std::shared_ptr<const PolicyValueNet> network;
  // net=trained: each game is searched with the shipped network for its rules (shipped_network(rules)),
  // which replaces `network` at the game's first decision; `network` (a shipped one) is what the options
  // are checked with before that.
  bool shipped_network = false;
  // With a network and eval=: a leaf's value is this share of the network's value plus the rest of the
  // evaluator's (0: the evaluator's alone); both must be on one reward scale.
  double net_value_weight = 0;
  int batch = 8;  // with a network: leaves each worker gathers per network call
  static constexpr int kMaxBatch = 256;
  // Self-play exploration (AlphaZero). Root noise (0: off; with a network): before each search the root's
  // priors are mixed with Dirichlet(root_noise) noise, weight noise_weight, so that every move of the game
  // tries some actions the network would not. Play temperature (0: off): the move is drawn with
  // probability proportional to visits^(1 / play_temperature) instead of taken as the most visited, while
  // fewer than play_temperature_tiles tiles are on the board (0: the whole game).
  double root_noise = 0;
  double noise_weight = 0.25;
  double play_temperature = 0;
  int play_temperature_tiles = 0;
  // Keep the subtree of the actions observed since the last choice (tree search only).
  bool reuse_tree = true;
  // Beyond this many nodes (all trees together), leaves are no longer expanded: memory stays below
  // max_nodes * node_bytes() plus a block per worker or tree.
  size_t max_nodes = 8'000'000;
  static constexpr int kMaxNodes = 100'000'000;  // about 5.6 GB
  uint64_t seed = 1;
};

class MctsPlayer : public Player {
 public:
  explicit MctsPlayer(MctsOptions options);
  ~MctsPlayer() override;
  std::string name() const override { return "mcts"; }
  Action choose(const State& state) override;
  Action choose(const State& state, Budget budget);
  void observe(Action a) override;
  void check_rules(const Rules& rules) const override;

  // Statistics of the last search: for tests and tools.
  struct RootChild {
    Action action;
    int visits;
    double mean;  // for the player who chose
    float prior;  // the search's prior (root noise included; 0 without priors)
  };
  const std::vector<RootChild>& last_root() const { return last_root_; }
  int last_iterations() const { return last_iterations_; }
  int64_t last_nodes() const;   // nodes in the tree after the last search
  int reused_visits() const { return reused_visits_; }  // root visits inherited from the previous search
  // Checks the last tree: child visits sum to the parent's (less one for the visit that created the
  // node), every virtual loss is back to zero, and every node allocated is reachable exactly once (no
  // node expanded twice). Returns an empty string or the first problem.
  std::string verify_tree() const;

  // Where the simulations of the last search went, for diagnosis (`meeple analyze`). Every simulation
  // ends at the first visit of a node (or at a terminal or capped node), so counting visited nodes counts
  // where simulations stopped.
  struct Profile {
    struct Depth {                // nodes `depth` steps below the root
      int64_t nodes = 0;          // visited nodes
      int64_t visits = 0;         // their visits
      int64_t chance_nodes = 0;   // of them, expanded chance nodes (a tile draw)
    };
    std::vector<Depth> depths;    // [0] is the root
    int64_t simulations = 0;      // visits of the root
    int64_t ended_after_draw = 0; // simulations ended at a drawn tile's first visit (below a chance node)
    int64_t ended_in_wide = 0;    // ... at the first visit of a child of a decision node with >= kWide children
    int64_t ended_at_root = 0;    // ... at the first visit of a root child
    double mean_leaf_depth = 0;   // steps below the root where simulations ended
    double mean_leaf_turns = 0;   // tile draws crossed on the way there
    // Principal line: the most visited child from the root on, chance nodes included, while visited at
    // least kPrincipalVisits times; its length and tile draws crossed.
    int principal_depth = 0;
    int principal_turns = 0;
    double best_share = 0;        // the chosen root child's share of the root's visits
    int root_children = 0;
    static constexpr int kWide = 16;
    static constexpr int kPrincipalVisits = 50;
  };
  Profile profile() const;

  static size_t node_bytes();  // memory per tree node

 private:
  struct Node;  // mcts.cpp
  class NodeArena;
  struct Tree;
  class Search;
  struct NetScratch;
  struct ChildStats {  // a root child's statistics, summed over trees
    Action action = Action::none();
    int visits = 0;
    double value = 0;  // sum of the chooser's rewards
    float prior = 0;
  };
  std::unique_ptr<Tree> reuse_subtree(const State& state, int workers);
  std::vector<ChildStats> search_tree(std::unique_ptr<Tree> tree, Budget budget, std::chrono::steady_clock::time_point start);
  std::vector<ChildStats> search_forest(const State& state, Budget budget, std::chrono::steady_clock::time_point start);
  void run_workers(Search& search, Budget budget, std::chrono::steady_clock::time_point start);
  const Node* sequential_halving(Search& search, Tree& tree, Budget budget, std::chrono::steady_clock::time_point start);
  Action final_choice(const State& state, const std::vector<ChildStats>& stats, Action chosen = Action::none());
  static void copy_subtree(const Node& from, Node& to, Tree& tree);
  bool first_visit_passed(const Node& parent, const Node& child) const;
  void add_root_noise(Node& root);
  MctsOptions options_;
  Rng rng_;
  std::shared_ptr<const Evaluator> evaluator_;
  std::unique_ptr<Tree> tree_;        // the last tree (kept for reuse and verify_tree)
  std::vector<std::unique_ptr<NetScratch>> net_scratch_;  // with a network: each worker's, kept between searches
  std::vector<Action> observed_;      // actions applied since the last search
  std::vector<RootChild> last_root_;
  int last_iterations_ = 0;
  int reused_visits_ = 0;
  Action gumbel_choice_ = Action::none();  // the Gumbel root's pick in the last search, if any
  // Sequential halving's sigma(q) = (offset + most visits) * scale * q, q the mean in [0, 1]: the paper's
  // c_visit and c_scale.
  static constexpr double kGumbelVisitOffset = 50, kGumbelValueScale = 1.0;
};

}  // namespace meeple
