#include "meeple/ai/mcts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include "meeple/checked.h"
#include "threads.h"

namespace meeple {

// A tree node. Children are one contiguous block, published through `children` once built. `visits`
// counts simulations that passed through, in-flight ones included (so it doubles as the virtual visit);
// `virtual_loss` counts the in-flight ones, whose rewards are not yet in `value`.
struct MctsPlayer::Node {
  std::atomic<Node*> children{nullptr};
  std::atomic<uint8_t> expansion{kLeaf};
  bool chance = false;
  uint16_t num_children = 0;
  uint16_t copies = 0;      // chance child: copies of the drawn tile (its weight)
  uint16_t total_copies = 0;  // chance node: sum over the children
  Action action = Action::none();  // the action (or draw) leading here
  float prior = 0;
  std::atomic<int32_t> visits{0};
  std::atomic<int32_t> virtual_loss{0};
  std::array<std::atomic<float>, kMaxPlayers> value{};  // sum of rewards per player

  // kPending: a leaf claimed by a worker's batch, waiting for its network evaluation (then expanded).
  static constexpr uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2, kNoRoom = 3, kPending = 4;
};

size_t MctsPlayer::node_bytes() { return sizeof(Node); }

// Nodes handed out in blocks that never move. Each worker allocates from its own arena and counts its
// own nodes: no lock, no shared counter.
class MctsPlayer::NodeArena {
 public:
  static constexpr size_t kBlockNodes = size_t{1} << 15;  // > kMaxActions, so one block holds any child list
  Node* allocate(int n) {
    if (blocks_.empty() || used_ + static_cast<size_t>(n) > kBlockNodes) {
      blocks_.push_back(std::make_unique<Node[]>(kBlockNodes));
      used_ = 0;
    }
    Node* out = blocks_.back().get() + used_;
    used_ += static_cast<size_t>(n);
    nodes_ += n;
    return out;
  }
  int64_t nodes() const { return nodes_; }
  // Room for the list of blocks a tree of `max_nodes` can take, so that a search allocates only the blocks.
  void reserve(int64_t max_nodes) { blocks_.reserve(static_cast<size_t>(max_nodes) / kBlockNodes + 2); }

 private:
  std::vector<std::unique_ptr<Node[]>> blocks_;
  size_t used_ = 0;
  int64_t nodes_ = 0;
};

struct MctsPlayer::Tree {
  Tree(int workers, const State& state, size_t max_nodes)
      : arenas(static_cast<size_t>(workers)), root_state(state), max_nodes_per_worker(static_cast<int64_t>(max_nodes) / workers) {
    for (NodeArena& a : arenas) a.reserve(max_nodes_per_worker);
    root = arenas[0].allocate(1);
  }
  int64_t nodes() const {
    int64_t n = 0;
    for (const NodeArena& a : arenas) n += a.nodes();
    return n;
  }
  std::vector<NodeArena> arenas;  // one per worker
  Node* root;
  State root_state;
  int64_t max_nodes_per_worker;  // the node cap, shared out
};

// What a worker keeps between searches with a network: its batch of leaves and the network's workspace,
// allocated once so that simulations never touch the heap.
struct MctsPlayer::NetScratch {
  struct Leaf {
    explicit Leaf(const State& s) : state(s) { path.reserve(256); }
    std::vector<Node*> path;  // root to leaf
    State state;              // at the leaf
    bool expand = false;      // claimed (pending): expand it with the evaluation's priors
    ActionList actions;
    std::array<float, kMaxActions> priors;
    PlayerValues values;
  };
  NetScratch(const PolicyValueNet& net, int batch, const State& state) : workspace(net, batch), drawn(state) {
    leaves.reserve(static_cast<size_t>(batch));
    for (int i = 0; i < batch; ++i) leaves.emplace_back(state);
    queries.resize(static_cast<size_t>(batch));
  }
  PolicyValueNet::Workspace workspace;
  Leaf drawn;  // a decision expanded outside the batches (expand_now)
  std::vector<Leaf> leaves;
  std::vector<PolicyValueNet::Query> queries;
};

// One search: the options, the shared tree, and what each worker owns.
class MctsPlayer::Search {
 public:
  Search(const MctsOptions& o, const Evaluator& evaluator, Tree& tree, const Dealer* world,
         std::vector<std::unique_ptr<NetScratch>>* net_scratch = nullptr)
      : o_(o), evaluator_(evaluator), tree_(tree), world_(world), net_(o.network.get()), net_scratch_(net_scratch) {}

  // What one worker owns: the arena its nodes come from, its random stream, and the path of the
  // simulation in progress. Nothing here is shared, so the hot path takes no lock.
  struct Worker {
    Worker(NodeArena& a, uint64_t seed) : arena(a), rng(seed) { path.reserve(256); }
    NodeArena& arena;
    Rng rng;
    std::vector<Node*> path;
  };

  // Sequential halving: simulations take the root's child from `candidates` in turn (null: by PUCT).
  void force_root(const std::vector<Node*>* candidates) {
    candidates_ = candidates;
    next_candidate_.store(0, std::memory_order_relaxed);
  }

  // Runs simulations until the budget is spent; worker w allocates from arena w of the tree.
  void run(int worker_index, uint64_t seed, const Budget& budget, std::atomic<int>& started,
           std::chrono::steady_clock::time_point start) {
    if (net_) return run_batched(worker_index, seed, budget, started, start);
    Worker worker(tree_.arenas[static_cast<size_t>(worker_index)], seed);
    for (int i = 0;; ++i) {
      if (budget.iterations > 0 && started.fetch_add(1, std::memory_order_relaxed) >= budget.iterations) break;
      if (budget.milliseconds > 0 && (i & 7) == 0 &&
          std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(budget.milliseconds))
        break;
      simulate(worker);
    }
  }

  // With a network, a fresh root is expanded by a network call before the first simulation (as a root
  // every visit goes on to a child).
  void prepare_root() {
    Node& root = *tree_.root;
    if (root.expansion.load(std::memory_order_acquire) != Node::kLeaf) return;
    expand_now(*(*net_scratch_)[0], root, tree_.root_state, tree_.arenas[0]);
  }

 private:
  // Rounds of up to o_.batch descents, then one network call for the leaves they reached. Budgeted
  // iterations are claimed before a descent and given back by a collision, so that only simulations backed
  // up count; a round always ends, and one thread's rounds always back something up (nothing else is
  // pending), so the search ends.
  void run_batched(int worker_index, uint64_t seed, const Budget& budget, std::atomic<int>& claimed,
                   std::chrono::steady_clock::time_point start) {
    NetScratch& scratch = *(*net_scratch_)[static_cast<size_t>(worker_index)];
    NodeArena& arena = tree_.arenas[static_cast<size_t>(worker_index)];
    Rng rng(seed);
    for (bool spent = false; !spent;) {
      if (budget.milliseconds > 0 && std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(budget.milliseconds)) break;
      int leaves = 0, collisions = 0;
      for (int attempt = 0; attempt < o_.batch; ++attempt) {
        if (budget.iterations > 0 && claimed.fetch_add(1, std::memory_order_relaxed) >= budget.iterations) {
          claimed.fetch_sub(1, std::memory_order_relaxed);
          spent = true;
          break;
        }
        NetScratch::Leaf& leaf = scratch.leaves[static_cast<size_t>(leaves)];
        switch (descend(scratch, leaf, rng, arena)) {
          case Descent::kLeaf: ++leaves; break;
          case Descent::kTerminal: back_up(leaf.path, rewards(points_of(leaf.state), leaf.state.num_players())); break;
          case Descent::kCollision:
            for (Node* n : leaf.path) {
              n->visits.fetch_sub(1, std::memory_order_relaxed);
              n->virtual_loss.fetch_sub(1, std::memory_order_release);
            }
            if (budget.iterations > 0) claimed.fetch_sub(1, std::memory_order_relaxed);
            ++collisions;
            break;
        }
      }
      if (leaves > 0) evaluate_leaves(scratch, leaves, arena, rng);
      else if (collisions > 0) std::this_thread::yield();  // every descent met another worker's pending leaves
    }
  }

  enum class Descent { kLeaf, kTerminal, kCollision };

  // From the root to a leaf, counting a visit and a virtual loss on every node on the way: a finished
  // game, a leaf this descent claims (pending) or one that cannot be expanded (no room: valued only), or a
  // collision with a pending leaf (or a tile draw, or under chance=sample a drawn tile's decision, that
  // another worker is expanding).
  Descent descend(NetScratch& scratch, NetScratch::Leaf& leaf, Rng& rng, NodeArena& arena) {
    State& s = leaf.state;
    s = tree_.root_state;
    Node* node = tree_.root;
    leaf.path.clear();
    for (;;) {
      node->visits.fetch_add(1, std::memory_order_relaxed);
      node->virtual_loss.fetch_add(1, std::memory_order_relaxed);
      leaf.path.push_back(node);
      if (s.is_terminal()) return Descent::kTerminal;
      uint8_t e = node->expansion.load(std::memory_order_acquire);
      // chance=full: a fresh tile draw needs no network (its outcomes are the tiles left): expand it here
      // and go on to a drawn tile, so that the network values only decisions with a tile in hand.
      if (e == Node::kLeaf && s.is_chance() && o_.chance == MctsOptions::Chance::kFull &&
          node->expansion.compare_exchange_strong(e, Node::kExpanding, std::memory_order_acq_rel)) {
        e = expand_chance(*node, s, arena) ? Node::kExpanded : Node::kNoRoom;
        node->expansion.store(e, std::memory_order_release);
      }
      // chance=sample: a fresh tile draw is a leaf like any node (the network values the position before
      // the draw, as search without a network does), and a drawn tile's first visit goes on: its decision
      // is expanded here (the network's priors from a call of its own) and the descent continues to one of
      // its actions, so that no leaf has a tile in hand, the position whose value is hardest to tell
      // before the tile is placed.
      if (e == Node::kLeaf && o_.chance == MctsOptions::Chance::kSample && leaf.path.size() >= 2 &&
          leaf.path[leaf.path.size() - 2]->chance && node->expansion.compare_exchange_strong(e, Node::kExpanding, std::memory_order_acq_rel)) {
        expand_now(scratch, *node, s, arena);
        e = node->expansion.load(std::memory_order_acquire);
      }
      if (e == Node::kLeaf && node->expansion.compare_exchange_strong(e, Node::kPending, std::memory_order_acq_rel)) {
        leaf.expand = true;
        return Descent::kLeaf;
      }
      if (e == Node::kNoRoom) {
        leaf.expand = false;
        return Descent::kLeaf;
      }
      if (e != Node::kExpanded) return Descent::kCollision;  // pending in some batch
      node = node->chance ? sample_chance(*node, rng) : candidates_ && leaf.path.size() == 1 ? next_candidate() : select(*node, s);
      s.apply(node->action);
    }
  }

  // Expands node `n` at state `s` now, outside the batches (the root, a drawn tile passed through):
  // the network's priors from a call of one position (none with policy=, which gives them), its value unused.
  void expand_now(NetScratch& scratch, Node& n, const State& s, NodeArena& arena) {
    NetScratch::Leaf& leaf = scratch.drawn;
    leaf.state = s;
    leaf.expand = true;
    PolicyValueNet::Query query = query_of(leaf);
    // At the node cap a decision stays a leaf: no call for priors it cannot use. (A drawn tile that fits
    // nowhere is discarded and the node is a tile draw again: expand_leaf gives it its outcomes.)
    if (!leaf.state.is_chance() && !has_room(arena, leaf.actions.size)) {
      n.expansion.store(Node::kNoRoom, std::memory_order_release);
      return;
    }
    query.values = nullptr;
    if (query.priors) net_->evaluate(std::span(&query, 1), scratch.workspace);
    expand_leaf(leaf, n, arena);
  }

  // One network call for the batch's leaves; each claimed leaf is expanded (a decision with the call's
  // priors, a tile draw with its outcomes), then every path is backed up with the leaf's values (the
  // network's values are rewards).
  void evaluate_leaves(NetScratch& scratch, int count, NodeArena& arena, Rng& rng) {
    for (int i = 0; i < count; ++i) scratch.queries[static_cast<size_t>(i)] = query_of(scratch.leaves[static_cast<size_t>(i)]);
    net_->evaluate(std::span(scratch.queries.data(), static_cast<size_t>(count)), scratch.workspace);
    for (int i = 0; i < count; ++i) {
      NetScratch::Leaf& leaf = scratch.leaves[static_cast<size_t>(i)];
      // With eval= the evaluator values the leaf as without a network, the turn in progress finished first
      // (drawn = false: under chance=full a drawn tile's leaf too, since the evaluator does not read the tile
      // in hand; a leaf before a draw is valued as it stands), and
      // net_value_weight of the network's value is mixed in (AlphaGo's mix of value net and rollouts).
      if (o_.evaluator) {
        const PlayerValues evaluated = leaf_rewards(leaf.state, rng, false);
        const double w = o_.net_value_weight;
        for (int p = 0; p < leaf.state.num_players(); ++p) leaf.values[p] = w * leaf.values[p] + (1 - w) * evaluated[p];
      }
      if (leaf.expand) expand_leaf(leaf, *leaf.path.back(), arena);
      back_up(leaf.path, leaf.values);
    }
  }

  // The network's query for a leaf: its values, and the priors of its legal actions when it is to be
  // expanded, is a decision (a tile draw has outcomes, not priors) and no policy (policy=) gives them
  // instead.
  PolicyValueNet::Query query_of(NetScratch::Leaf& leaf) const {
    const bool decision = leaf.expand && !leaf.state.is_chance();
    if (decision) leaf.state.legal_actions(leaf.actions);
    const bool priors = decision && !o_.policy;
    return {&leaf.state, priors ? &leaf.actions : nullptr, priors ? leaf.priors.data() : nullptr, &leaf.values};
  }

  // Expands a claimed leaf: a decision with the network's priors (the policy's with policy=), a tile draw
  // with its outcomes.
  void expand_leaf(NetScratch::Leaf& leaf, Node& n, NodeArena& arena) {
    if (leaf.state.is_chance()) {
      n.expansion.store(expand_chance(n, leaf.state, arena) ? Node::kExpanded : Node::kNoRoom, std::memory_order_release);
      return;
    }
    if (o_.policy) o_.policy->priors(leaf.state, leaf.actions, leaf.priors);
    const bool ok = make_decision_children(n, arena, leaf.actions, leaf.priors.data());
    n.expansion.store(ok ? Node::kExpanded : Node::kNoRoom, std::memory_order_release);
  }

  void back_up(const std::vector<Node*>& path, const PlayerValues& r) {
    const int players = tree_.root_state.num_players();
    for (Node* n : path) {
      for (int p = 0; p < players; ++p) n->value[p].fetch_add(static_cast<float>(r[p]), std::memory_order_relaxed);
      n->virtual_loss.fetch_sub(1, std::memory_order_release);
    }
  }

  void simulate(Worker& worker) {
    std::vector<Node*>& path = worker.path;
    State s = tree_.root_state;
    Node* node = tree_.root;
    node->visits.fetch_add(1, std::memory_order_relaxed);
    node->virtual_loss.fetch_add(1, std::memory_order_relaxed);
    path.assign(1, node);
    // Descend until a node seen for the first time (the leaf), expanding nodes on the way.
    while (!s.is_terminal()) {
      if (!ensure_expanded(*node, s, worker)) break;  // no room left: evaluate here
      const bool draw = node->chance;
      Node* child = draw ? sample_chance(*node, worker.rng)
                         : candidates_ && path.size() == 1 ? next_candidate()
                                                           : select(*node, s);
      s.apply(child->action);
      const int before = child->visits.fetch_add(1, std::memory_order_relaxed);
      child->virtual_loss.fetch_add(1, std::memory_order_relaxed);
      path.push_back(child);
      node = child;
      if (before == 0 && !(draw && o_.chance == MctsOptions::Chance::kSample)) break;
    }
    back_up(path, leaf_rewards(s, worker.rng, node->action.kind() == Action::kDraw));
  }

  // Builds the children once (the worker that wins the compare-and-swap); others wait for it, which is
  // rare and short. Returns false when the node cap is reached.
  bool ensure_expanded(Node& n, const State& s, Worker& worker) {
    uint8_t state = n.expansion.load(std::memory_order_acquire);
    if (state == Node::kExpanded) return true;
    if (state == Node::kNoRoom) return false;
    if (state == Node::kLeaf && n.expansion.compare_exchange_strong(state, Node::kExpanding, std::memory_order_acq_rel)) {
      const bool ok = expand(n, s, worker.arena);
      n.expansion.store(ok ? Node::kExpanded : Node::kNoRoom, std::memory_order_release);
      return ok;
    }
    while ((state = n.expansion.load(std::memory_order_acquire)) == Node::kExpanding) std::this_thread::yield();
    return state == Node::kExpanded;
  }

  bool expand(Node& n, const State& s, NodeArena& arena) {
    if (s.is_chance()) return expand_chance(n, s, arena);
    ActionList actions;
    s.legal_actions(actions);
    const bool priors = o_.puct || o_.widening > 0 || o_.gumbel > 0;
    std::array<float, kMaxActions> prior;
    if (priors) o_.policy->priors(s, actions, prior);
    return make_decision_children(n, arena, actions, priors ? prior.data() : nullptr);
  }

  bool expand_chance(Node& n, const State& s, NodeArena& arena) {
    if (world_) {  // determinized: the world's next tile is the only outcome
      Action draw = world_->in_order(s);
      if (draw == Action::none()) draw = Action::draw(s.sample_draw_tile(0));  // not reached: worlds follow the game
      return make_children(n, arena, 1, [&](int, Node& c) {
        c.action = draw;
        c.copies = 1;
      }, true);
    }
    ChanceOutcomes outcomes;
    s.chance_outcomes(outcomes);
    return make_children(n, arena, outcomes.size, [&](int i, Node& c) {
      c.action = Action::draw(outcomes.items[i].tile);
      c.copies = static_cast<uint16_t>(outcomes.items[i].copies);
    }, true);
  }

  // A decision's children, best prior first (progressive widening takes a prefix), ties in action order;
  // without priors (null) in action order.
  bool make_decision_children(Node& n, NodeArena& arena, const ActionList& actions, const float* prior) {
    std::array<uint16_t, kMaxActions> order;
    for (int i = 0; i < actions.size; ++i) order[i] = static_cast<uint16_t>(i);
    // std::sort with the index as tie-break: std::stable_sort would take a buffer from the heap.
    if (prior)
      std::sort(order.begin(), order.begin() + actions.size, [&](int a, int b) { return prior[a] > prior[b] || (prior[a] == prior[b] && a < b); });
    return make_children(n, arena, actions.size, [&](int i, Node& c) {
      c.action = actions[order[i]];
      c.prior = prior ? prior[order[i]] : 0.0f;
    }, false);
  }

  bool has_room(const NodeArena& arena, int count) const { return arena.nodes() + count <= tree_.max_nodes_per_worker; }

  template <typename Init>
  bool make_children(Node& n, NodeArena& arena, int count, Init&& init, bool chance) {
    if (!has_room(arena, count)) return false;
    Node* children = arena.allocate(count);
    int total = 0;
    for (int i = 0; i < count; ++i) {
      init(i, children[i]);
      total += children[i].copies;
    }
    n.chance = chance;
    n.num_children = static_cast<uint16_t>(count);
    n.total_copies = static_cast<uint16_t>(total);
    n.children.store(children, std::memory_order_release);
    return true;
  }

  Node* sample_chance(const Node& n, Rng& rng) const {
    Node* children = n.children.load(std::memory_order_acquire);
    int r = static_cast<int>(rng.below(n.total_copies));
    for (int i = 0; i < n.num_children; ++i) {
      r -= children[i].copies;
      if (r < 0) return &children[i];
    }
    return &children[n.num_children - 1];
  }

  // UCT (an unvisited child first) or PUCT, on the acting player's values with virtual losses counted
  // as losses; with progressive widening only the best-prior prefix is considered.
  Node* select(const Node& n, const State& s) const {
    Node* children = n.children.load(std::memory_order_acquire);
    const int p = s.current_player();
    const double parent_visits = std::max(1, n.visits.load(std::memory_order_relaxed));
    int limit = n.num_children;
    if (o_.widening > 0)
      limit = std::clamp(static_cast<int>(std::ceil(o_.widening * std::pow(parent_visits, o_.widening_exponent))), 1, limit);
    // The children are read in order, and usually not in cache (a tree outgrows it): ask for all their
    // cache lines at once rather than waiting for the hardware to notice the stream.
    const uintptr_t first = reinterpret_cast<uintptr_t>(children);
    for (uintptr_t line = first & ~uintptr_t{63}; line < first + sizeof(Node) * static_cast<size_t>(limit); line += 64)
      __builtin_prefetch(reinterpret_cast<const void*>(line));
    const double log_n = std::log(parent_visits);
    const double sqrt_n = std::sqrt(parent_visits);
    // PUCT's value for an unvisited child: the parent's mean for this player.
    const double parent_mean = n.value[p].load(std::memory_order_relaxed) / parent_visits;
    // The options in locals: g++ reloads members after every atomic load in the loop.
    const bool puct = o_.puct;
    const double fpu = o_.fpu, exploration = o_.exploration;
    Node* best = &children[0];
    double best_score = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < limit; ++i) {
      Node& c = children[i];
      const int visits = c.visits.load(std::memory_order_relaxed);
      double score;
      if (puct) {
        const double q = visits ? value_of(c, p, visits) : parent_mean - std::max(0.0, fpu);
        score = q + exploration * c.prior * sqrt_n / (1 + visits);
      } else {
        if (visits == 0) {
          if (fpu < 0) return &c;
          score = parent_mean - fpu + exploration * std::sqrt(log_n);
        } else {
          const double q = value_of(c, p, visits);
          score = q + exploration * std::sqrt(log_n / visits);
        }
      }
      if (score > best_score) {
        best_score = score;
        best = &c;
      }
    }
    return best;
  }

  // What child `c` (visits > 0) is worth to player p: its mean reward, in-flight simulations counted as
  // losses.
  static double value_of(const Node& c, int p, int visits) {
    return (c.value[p].load(std::memory_order_relaxed) - c.virtual_loss.load(std::memory_order_relaxed)) / visits;
  }

  // `drawn`: the leaf was reached by a draw (a fresh turn starts there).
  PlayerValues leaf_rewards(State& s, Rng& rng, bool drawn) const {
    if (!s.is_terminal()) {
      if (o_.leaf == MctsOptions::Leaf::kEval && o_.finish_turn && !drawn && !s.is_chance())
        return rewards(turn_end_points(evaluator_, s), s.num_players());
      if (o_.leaf == MctsOptions::Leaf::kEval) return rewards(evaluator_.evaluate(s), s.num_players());
      int turns_left = o_.leaf == MctsOptions::Leaf::kTruncated ? o_.rollout_turns : -1;
      int turn = s.turn_player();
      while (!s.is_terminal() && turns_left != 0) {
        if (s.is_chance()) {
          s.apply(Action::draw(s.sample_draw_tile(rng.below(static_cast<uint32_t>(s.drawable_now())))));
        } else {
          s.apply(s.sample_legal_action(rng));
        }
        if (s.turn_player() != turn) {
          turn = s.turn_player();
          --turns_left;
        }
      }
      if (!s.is_terminal()) return rewards(evaluator_.evaluate(s), s.num_players());
    }
    return rewards(points_of(s), s.num_players());
  }

  PlayerValues rewards(const PlayerValues& points, int players) const {
    PlayerValues out{};
    for (int p = 0; p < players; ++p) {
      const double m = margin(points, p, players);
      out[p] = o_.reward == MctsOptions::Reward::kWin ? (m > 0) - (m < 0) : std::tanh(m / o_.reward_scale);
    }
    return out;
  }

  Node* next_candidate() {
    const uint32_t i = next_candidate_.fetch_add(1, std::memory_order_relaxed);
    return (*candidates_)[i % candidates_->size()];
  }

  const MctsOptions& o_;
  const Evaluator& evaluator_;
  Tree& tree_;
  const Dealer* world_;
  const PolicyValueNet* net_;  // with a network: batched leaves (run_batched)
  std::vector<std::unique_ptr<NetScratch>>* net_scratch_;
  const std::vector<Node*>* candidates_ = nullptr;
  std::atomic<uint32_t> next_candidate_{0};
};

MctsPlayer::MctsPlayer(MctsOptions options)
    : options_(std::move(options)), rng_(options_.seed),
      evaluator_(options_.evaluator ? options_.evaluator : make_evaluator("trained")) {
  if (options_.exploration < 0) options_.exploration = options_.puct ? 1.0 : 0.4;
  if (!options_.network && !options_.policy && (options_.puct || options_.widening > 0 || options_.gumbel > 0))
    options_.policy = make_policy("trained");
  if (options_.determinizations < 0 || options_.determinizations > MctsOptions::kMaxDeterminizations)
    throw std::invalid_argument("mcts: determinizations (worlds) " + range_text(0, MctsOptions::kMaxDeterminizations) + ", got " +
                                std::to_string(options_.determinizations));
  if (options_.max_nodes > static_cast<size_t>(MctsOptions::kMaxNodes))
    throw std::invalid_argument("mcts: max_nodes " + range_text(0, MctsOptions::kMaxNodes) + " (memory), got " + std::to_string(options_.max_nodes));
  if (options_.gumbel > 0 && (options_.determinizations > 0 || (options_.threads > 1 && options_.parallel == MctsOptions::Parallel::kRoot)))
    throw std::invalid_argument("mcts: gumbel needs tree search (it cannot be combined with worlds or parallel=root)");
  if (!(options_.root_noise >= 0) || !(options_.noise_weight >= 0 && options_.noise_weight <= 1) ||
      !(options_.play_temperature >= 0) || options_.play_temperature_tiles < 0)
    throw std::invalid_argument("mcts: root_noise and play_temperature must be >= 0, noise_weight in [0, 1], "
                                "play_temperature_tiles >= 0");
  if (options_.play_temperature > 0 && options_.gumbel > 0)
    throw std::invalid_argument("mcts: play_temp cannot be combined with gumbel (the Gumbel root picks the move itself)");
  if (options_.net_value_weight > 0 && !options_.network)
    throw std::invalid_argument("mcts: net_value= mixes a network's values (net=) with the evaluator's: give net= and eval=");
  if (options_.root_noise > 0 && !options_.network)
    throw std::invalid_argument("mcts: root noise (noise=) needs a network (net=): it mixes into the network's root priors");
  if (options_.batch < 1 || options_.batch > MctsOptions::kMaxBatch)
    throw std::invalid_argument("mcts: batch " + range_text(1, MctsOptions::kMaxBatch) + ", got " + std::to_string(options_.batch));
  if (options_.network) {
    const auto refuse = [](const std::string& what) {
      throw std::invalid_argument("mcts: a network (net=) cannot be combined with " + what);
    };
    if (options_.determinizations > 0) refuse("worlds (determinized search): it searches one tree");
    if (options_.threads > 1 && options_.parallel == MctsOptions::Parallel::kRoot) refuse("parallel=root: its workers share one tree");
    if (options_.leaf != MctsOptions::Leaf::kEval) refuse("leaf=rollout or leaf=truncated: the network values the leaves");
    if (options_.evaluator && options_.policy)
      refuse("both an evaluator (eval=) and a policy (policy=): the network would do nothing (eval= replaces its values, "
             "policy= its priors)");
    if (options_.reward == MctsOptions::Reward::kWin) refuse("reward=win: the network's values are score margins");
    if (options_.net_value_weight > 0 && !options_.evaluator)
      throw std::invalid_argument("mcts: net_value= mixes the network's values with an evaluator's: give eval= too");
    if (options_.net_value_weight > 0 && options_.network->reward_scale() != options_.reward_scale)
      throw std::invalid_argument("mcts: net_value= mixes values of one scale: the network's reward scale is " +
                                  std::to_string(options_.network->reward_scale()) + ", scale= is " +
                                  std::to_string(options_.reward_scale) + " (give scale= the network's)");
    if (!options_.evaluator) options_.reward_scale = options_.network->reward_scale();
  }
}

void MctsPlayer::check_rules(const Rules& rules) const {
  const std::shared_ptr<const PolicyValueNet> network = options_.shipped_network ? shipped_network(rules) : options_.network;
  if (network) network->check_rules(rules);
  if (!network || options_.evaluator) evaluator_->check_rules(rules);
  if (options_.policy) options_.policy->check_rules(rules);  // set when priors are used
}

MctsPlayer::~MctsPlayer() = default;

void MctsPlayer::observe(Action a) {
  if (tree_ && options_.reuse_tree) observed_.push_back(a);
}

int64_t MctsPlayer::last_nodes() const { return tree_ ? tree_->nodes() : 0; }

Action MctsPlayer::choose(const State& state) { return choose(state, Budget{options_.iterations, options_.milliseconds}); }

Action MctsPlayer::choose(const State& state, Budget budget) {
  require_decision(state);
  check_rules(state.rules());
  if (options_.shipped_network) {
    // net=trained: the shipped network for this game's rules. A search with another one than the last
    // starts afresh: the workspaces and the tree were the other network's.
    if (auto net = shipped_network(state.rules()); net != options_.network) {
      options_.network = std::move(net);
      net_scratch_.clear();
      tree_.reset();
      observed_.clear();
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const int workers = std::max(1, options_.threads);
  const bool forest = options_.determinizations > 0 || (workers > 1 && options_.parallel == MctsOptions::Parallel::kRoot);
  std::unique_ptr<Tree> reused = forest ? nullptr : reuse_subtree(state, workers);
  observed_.clear();
  gumbel_choice_ = Action::none();
  const std::vector<ChildStats> stats = forest ? search_forest(state, budget, start)
                                               : search_tree(reused ? std::move(reused) : std::make_unique<Tree>(workers, state, options_.max_nodes), budget, start);
  return final_choice(state, stats, gumbel_choice_);
}

// The subtree reached from the last tree's root by the observed actions, copied into a new tree, when it
// is this very state; otherwise null.
std::unique_ptr<MctsPlayer::Tree> MctsPlayer::reuse_subtree(const State& state, int workers) {
  reused_visits_ = 0;
  if (!tree_ || !options_.reuse_tree) return nullptr;
  const Node* node = tree_->root;
  State s = tree_->root_state;
  for (Action a : observed_) {
    const Node* next = nullptr;
    if (node->expansion.load() == Node::kExpanded)
      for (int i = 0; i < node->num_children && !next; ++i)
        if (node->children.load()[i].action == a) next = &node->children.load()[i];
    if (!next || !s.try_apply(a).empty()) return nullptr;
    node = next;
  }
  if (!(s == state)) return nullptr;
  auto tree = std::make_unique<Tree>(workers, state, options_.max_nodes);
  copy_subtree(*node, *tree->root, *tree);
  // The root's own first visit ended at it; as a root every visit goes on to a child.
  int sum = 0;
  for (int i = 0; i < tree->root->num_children; ++i) sum += tree->root->children.load()[i].visits.load();
  tree->root->visits.store(sum);
  reused_visits_ = sum;
  return tree;
}

// All workers on one shared tree, which is kept for reuse and inspection.
std::vector<MctsPlayer::ChildStats> MctsPlayer::search_tree(std::unique_ptr<Tree> tree, Budget budget,
                                                            std::chrono::steady_clock::time_point start) {
  if (options_.network && net_scratch_.empty())
    for (int w = 0; w < std::max(1, options_.threads); ++w)
      net_scratch_.push_back(std::make_unique<NetScratch>(*options_.network, options_.batch, tree->root_state));
  Search search(options_, *evaluator_, *tree, nullptr, &net_scratch_);
  if (options_.network) {
    search.prepare_root();
    if (options_.root_noise > 0) add_root_noise(*tree->root);
  }
  const Node* chosen = nullptr;
  if (options_.gumbel > 0) {
    chosen = sequential_halving(search, *tree, budget, start);
  } else {
    run_workers(search, budget, start);
  }
  tree_ = std::move(tree);
  const int me = tree_->root_state.current_player();
  std::vector<ChildStats> stats;
  const Node& root = *tree_->root;
  for (int i = 0; i < (root.expansion.load() == Node::kExpanded ? root.num_children : 0); ++i) {
    const Node& c = root.children.load()[i];
    stats.push_back({c.action, c.visits.load(), c.value[me].load(), c.prior});
  }
  gumbel_choice_ = chosen ? chosen->action : Action::none();
  return stats;
}

// Runs `search` on every worker until `budget` is spent (its time counted from `start`).
void MctsPlayer::run_workers(Search& search, Budget budget, std::chrono::steady_clock::time_point start) {
  const int workers = std::max(1, options_.threads);
  std::atomic<int> started{0};
  if (workers == 1) {
    search.run(0, rng_.next(), budget, started, start);
    return;
  }
  std::vector<uint64_t> seeds(static_cast<size_t>(workers));
  for (auto& seed : seeds) seed = rng_.next();
  run_on_threads(workers, workers, [&](int w) { search.run(w, seeds[static_cast<size_t>(w)], budget, started, start); });
}

// The Gumbel root: the candidates are the top `gumbel` root actions by Gumbel noise + log prior (a
// sample without replacement from the priors); each round gives every candidate an equal share of the
// round's budget (iterations, or time up to the round's deadline), then keeps the better half by
// Gumbel + log prior + sigma(mean), the means rescaled between the candidates' extremes and sigma
// growing with the visits, so that values outweigh the prior as they become reliable. Returns the last candidate left, or null when the root has fewer than two
// actions (then the budget is searched as usual).
const MctsPlayer::Node* MctsPlayer::sequential_halving(Search& search, Tree& tree, Budget budget,
                                                       std::chrono::steady_clock::time_point start) {
  Node& root = *tree.root;
  int spent = 0;
  if (root.expansion.load() != Node::kExpanded) {  // a fresh root: one simulation expands it
    run_workers(search, Budget{1, budget.milliseconds}, start);
    spent = 1;
  }
  if (root.expansion.load() != Node::kExpanded || root.num_children < 2) {
    if (budget.iterations == 0 || budget.iterations > spent)
      run_workers(search, Budget{budget.iterations ? budget.iterations - spent : 0, budget.milliseconds}, start);
    return nullptr;
  }
  struct Candidate {
    Node* node;
    double score;  // Gumbel noise + log prior; the round's score once ranked
    double noisy_prior;
  };
  std::vector<Candidate> candidates;
  Node* children = root.children.load();
  for (int i = 0; i < root.num_children; ++i) {
    const double gumbel = -std::log(-std::log(std::max(rng_.uniform(), 1e-300)));
    const double g = gumbel + std::log(std::max(children[i].prior, 1e-30f));
    candidates.push_back({&children[i], g, g});
  }
  const auto by_score = [](const Candidate& a, const Candidate& b) { return a.score > b.score; };
  std::stable_sort(candidates.begin(), candidates.end(), by_score);
  candidates.resize(std::min(candidates.size(), static_cast<size_t>(options_.gumbel)));
  const int rounds = std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(candidates.size())))));
  const int me = tree.root_state.current_player();
  std::vector<Node*> order;
  for (int round = 0; candidates.size() > 1; ++round) {
    order.clear();
    for (const Candidate& c : candidates) order.push_back(c.node);
    const int n = static_cast<int>(order.size());
    Budget share{0, 0};
    if (budget.iterations > 0) {  // every candidate at least once a round, even when the budget is short
      const int left = std::max(0, budget.iterations - spent) / std::max(1, rounds - round);
      share.iterations = std::max(1, left / n) * n;
      spent += share.iterations;
    }
    if (budget.milliseconds > 0) share.milliseconds = static_cast<int>(int64_t{budget.milliseconds} * std::min(round + 1, rounds) / rounds);
    search.force_root(&order);
    run_workers(search, share, start);
    // Means rescaled to [0, 1] between the candidates' lowest and highest (as MuZero normalises values):
    // margins of a point or two move tanh(margin / scale) by only a few hundredths.
    int most_visits = 0;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (Candidate& c : candidates) {
      const int visits = c.node->visits.load();
      most_visits = std::max(most_visits, visits);
      c.score = visits ? c.node->value[me].load() / visits : -1.0;  // the mean, in [-1, 1]
      low = std::min(low, c.score);
      high = std::max(high, c.score);
    }
    const double sigma = (kGumbelVisitOffset + most_visits) * kGumbelValueScale / std::max(high - low, 1e-9);
    for (Candidate& c : candidates) c.score = c.noisy_prior + sigma * (c.score - low);
    std::stable_sort(candidates.begin(), candidates.end(), by_score);
    candidates.resize((candidates.size() + 1) / 2);
  }
  // The rest of the budget (all of it with one candidate; with a time budget, what the rounds left) goes
  // to the one chosen, whose subtree the next search may reuse.
  order.assign(1, candidates[0].node);
  search.force_root(&order);
  if (budget.iterations == 0 || budget.iterations > spent)
    run_workers(search, Budget{budget.iterations ? budget.iterations - spent : 0, budget.milliseconds}, start);
  search.force_root(nullptr);
  return candidates[0].node;
}

// Independent trees, spread over the workers: root parallelism (true chance nodes, one tree per worker)
// or determinizations (one sampled tile order each). Root statistics are summed; every tree lists the
// root's legal actions in the same order. The first tree is kept for inspection.
std::vector<MctsPlayer::ChildStats> MctsPlayer::search_forest(const State& state, Budget budget,
                                                              std::chrono::steady_clock::time_point start) {
  const int workers = std::max(1, options_.threads);
  const int trees = options_.determinizations > 0 ? options_.determinizations : workers;
  std::vector<std::unique_ptr<Tree>> forest;
  std::vector<Dealer> worlds;
  std::vector<uint64_t> seeds;
  for (int t = 0; t < trees; ++t) {
    forest.push_back(std::make_unique<Tree>(1, state, options_.max_nodes / static_cast<size_t>(trees)));
    seeds.push_back(rng_.next());
    if (options_.determinizations > 0) {  // a world: one shuffled order of the remaining tiles
      worlds.emplace_back(seeds.back() ^ 0x9E3779B97F4A7C15ull);
      worlds.back().shuffle(state);
    }
  }
  // The budget is shared out: iterations over the trees, time over the trees each worker runs in turn.
  Budget per_tree = budget;
  if (options_.determinizations > 0 && budget.iterations > 0) per_tree.iterations = std::max(1, budget.iterations / trees);
  if (trees > workers && budget.milliseconds > 0) per_tree.milliseconds = std::max(1, budget.milliseconds * workers / trees);
  auto run_tree = [&](int t) {
    std::atomic<int> count{0};
    Search search(options_, *evaluator_, *forest[static_cast<size_t>(t)], options_.determinizations > 0 ? &worlds[static_cast<size_t>(t)] : nullptr);
    search.run(0, seeds[static_cast<size_t>(t)], per_tree, count, trees > workers ? std::chrono::steady_clock::now() : start);
  };
  if (workers == 1) {
    for (int t = 0; t < trees; ++t) run_tree(t);
  } else {
    run_on_threads(workers, trees, run_tree);
  }
  const int me = state.current_player();
  std::vector<ChildStats> stats;
  for (const auto& t : forest) {
    const Node& root = *t->root;
    if (root.expansion.load() != Node::kExpanded) continue;
    const Node* children = root.children.load();
    if (stats.empty()) stats.resize(root.num_children);
    for (int i = 0; i < root.num_children; ++i) {
      stats[static_cast<size_t>(i)].action = children[i].action;
      stats[static_cast<size_t>(i)].visits += children[i].visits.load();
      stats[static_cast<size_t>(i)].value += children[i].value[me].load();
      stats[static_cast<size_t>(i)].prior = children[i].prior;  // the same in every tree
    }
  }
  tree_ = std::move(forest[0]);
  return stats;
}

// `chosen` if given (the Gumbel root's pick), else the most visited action, ties broken by mean value;
// records the root statistics.
Action MctsPlayer::final_choice(const State& state, const std::vector<ChildStats>& stats, Action chosen) {
  last_root_.clear();
  last_iterations_ = -reused_visits_;
  int best = -1;
  for (const ChildStats& c : stats) {
    const double mean = c.visits ? c.value / c.visits : -1.0;
    last_root_.push_back(RootChild{c.action, c.visits, mean, c.prior});
    last_iterations_ += c.visits;
    const RootChild& b = last_root_[static_cast<size_t>(std::max(best, 0))];
    if (best < 0 || c.visits > b.visits || (c.visits == b.visits && mean > b.mean)) best = static_cast<int>(last_root_.size()) - 1;
  }
  if (chosen != Action::none()) return chosen;
  if (best < 0) {  // no simulation ran (time budget too small): any legal action
    ActionList actions;
    state.legal_actions(actions);
    return actions[0];
  }
  if (options_.play_temperature > 0 &&
      (options_.play_temperature_tiles == 0 || state.num_tiles() < options_.play_temperature_tiles)) {
    // Weights relative to the most visited child's, so that a low temperature cannot overflow.
    const double most = last_root_[static_cast<size_t>(best)].visits;
    double total = 0;
    for (const RootChild& c : last_root_) total += std::pow(c.visits / most, 1 / options_.play_temperature);
    double r = rng_.uniform() * total;
    for (const RootChild& c : last_root_) {
      r -= std::pow(c.visits / most, 1 / options_.play_temperature);
      if (r < 0 && c.visits > 0) return c.action;
    }
  }
  return last_root_[static_cast<size_t>(best)].action;
}

// Dirichlet noise by normalised Gamma draws (the standard construction), mixed into the root's priors.
void MctsPlayer::add_root_noise(Node& root) {
  if (root.expansion.load() != Node::kExpanded || root.chance) return;
  Node* children = root.children.load();
  struct Bits {  // std::gamma_distribution's generator: the player's own stream, so a seed replays a game (with one standard library: its Gamma sampler is its own)
    Rng& rng;
    using result_type = uint64_t;
    static constexpr uint64_t min() { return 0; }
    static constexpr uint64_t max() { return ~uint64_t{0}; }
    uint64_t operator()() { return rng.next(); }
  } bits{rng_};
  std::gamma_distribution<double> gamma(options_.root_noise, 1.0);
  std::array<double, kMaxActions> noise;
  double sum = 0;
  for (int i = 0; i < root.num_children; ++i) sum += noise[static_cast<size_t>(i)] = gamma(bits);
  if (!(sum > 0)) return;  // every draw underflowed (a tiny alpha): no noise this time
  const double w = options_.noise_weight;
  for (int i = 0; i < root.num_children; ++i)
    children[i].prior = static_cast<float>((1 - w) * children[i].prior + w * noise[static_cast<size_t>(i)] / sum);
}

void MctsPlayer::copy_subtree(const Node& from, Node& to, Tree& tree) {
  to.chance = from.chance;
  to.copies = from.copies;
  to.total_copies = from.total_copies;
  to.action = from.action;
  to.prior = from.prior;
  to.visits.store(from.visits.load());
  to.virtual_loss.store(0);
  for (int p = 0; p < kMaxPlayers; ++p) to.value[p].store(from.value[p].load());
  const uint8_t expansion = from.expansion.load();
  to.expansion.store(expansion == Node::kExpanded ? expansion : Node::kLeaf);
  if (expansion != Node::kExpanded) return;
  to.num_children = from.num_children;
  Node* children = tree.arenas[0].allocate(from.num_children);
  const Node* source = from.children.load();
  for (int i = 0; i < from.num_children; ++i) copy_subtree(source[i], children[i], tree);
  to.children.store(children);
}

MctsPlayer::Profile MctsPlayer::profile() const {
  Profile out;
  if (!tree_) return out;
  struct Item {
    const Node* node;
    int depth;
    int turns;
    bool passed_through;
  };
  int64_t leaves = 0, leaf_depth = 0, leaf_turns = 0;
  std::vector<Item> stack{{tree_->root, 0, 0, false}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const Node& n = *item.node;
    const int visits = n.visits.load();
    if (visits == 0) continue;
    if (out.depths.size() <= static_cast<size_t>(item.depth)) out.depths.resize(static_cast<size_t>(item.depth) + 1);
    Profile::Depth& d = out.depths[static_cast<size_t>(item.depth)];
    ++d.nodes;
    d.visits += visits;
    // This node's first visit ended a simulation, unless simulations pass through it (first_visit_passed).
    if (item.depth > 0 && !item.passed_through) {
      ++leaves;
      leaf_depth += item.depth;
      leaf_turns += item.turns;
    }
    if (n.expansion.load() != Node::kExpanded) continue;
    d.chance_nodes += n.chance;
    const Node* children = n.children.load();
    for (int i = 0; i < n.num_children; ++i) {
      if (children[i].visits.load() == 0) continue;
      if (n.chance) out.ended_after_draw += !first_visit_passed(n, children[i]);
      else if (n.num_children >= Profile::kWide) ++out.ended_in_wide;
      if (item.depth == 0) ++out.ended_at_root;
      stack.push_back({&children[i], item.depth + 1, item.turns + n.chance, first_visit_passed(n, children[i])});
    }
  }
  const Node& root = *tree_->root;
  out.simulations = root.visits.load();
  out.mean_leaf_depth = leaves ? static_cast<double>(leaf_depth) / static_cast<double>(leaves) : 0;
  out.mean_leaf_turns = leaves ? static_cast<double>(leaf_turns) / static_cast<double>(leaves) : 0;
  out.root_children = root.expansion.load() == Node::kExpanded ? root.num_children : 0;
  for (const Node* n = &root; n->expansion.load() == Node::kExpanded;) {
    const Node* children = n->children.load();
    const Node* best = &children[0];
    for (int i = 1; i < n->num_children; ++i)
      if (children[i].visits.load() > best->visits.load()) best = &children[i];
    if (n == &root && out.simulations > 0) out.best_share = static_cast<double>(best->visits.load()) / static_cast<double>(out.simulations);
    if (best->visits.load() < Profile::kPrincipalVisits) break;
    ++out.principal_depth;
    out.principal_turns += n->chance;
    n = best;
  }
  return out;
}

// Whether a node's first visit went on to one of its children rather than ending its simulation there:
// a drawn tile under chance=sample (simulate, and descend with a network), a tile draw with a network under
// chance=full (descend).
bool MctsPlayer::first_visit_passed(const Node& parent, const Node& child) const {
  const bool drawn_passed = parent.chance && options_.chance == MctsOptions::Chance::kSample;
  const bool draw_passed = child.chance && options_.chance == MctsOptions::Chance::kFull;
  return options_.network ? draw_passed || drawn_passed : drawn_passed;
}

std::string MctsPlayer::verify_tree() const {
  if (!tree_) return "no search yet";
  int64_t reachable = 0;
  struct Item {
    const Node* node;
    bool root_or_passed;  // every visit went on to a child
  };
  std::vector<Item> stack{{tree_->root, true}};
  while (!stack.empty()) {
    const auto [n, passed] = stack.back();
    stack.pop_back();
    ++reachable;
    const std::string where = "node " + n->action.to_string() + " (" + std::to_string(reachable) + " reached)";
    if (n->virtual_loss.load() != 0) return where + ": virtual loss " + std::to_string(n->virtual_loss.load()) + " left";
    const uint8_t e = n->expansion.load();
    if (e == Node::kExpanding) return where + ": still marked as being expanded";
    if (e == Node::kPending) return where + ": still pending a network evaluation";
    if (e != Node::kExpanded) {
      if (n->children.load() != nullptr) return where + ": has children but is not expanded";
      continue;
    }
    const Node* children = n->children.load();
    int64_t sum = 0;
    for (int i = 0; i < n->num_children; ++i) {
      sum += children[i].visits.load();
      stack.push_back({&children[i], first_visit_passed(*n, children[i])});
    }
    // Every visit of an expanded node goes on to one child, except the visit that created it (a leaf
    // then), which a root no longer counts and a node passed through does not have.
    const int64_t expected = n->visits.load() - (passed ? 0 : 1);
    if (sum != expected)
      return where + ": children visited " + std::to_string(sum) + " times, expected " + std::to_string(expected);
  }
  if (reachable != tree_->nodes())
    return std::to_string(tree_->nodes()) + " nodes allocated but " + std::to_string(reachable) +
           " reachable: a node was expanded twice";
  return {};
}

}  // namespace meeple
