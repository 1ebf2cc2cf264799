#include "meeple/ai/mcts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/parallel_for.h>

namespace meeple {

std::array<double, kMaxPlayers> MctsPlayer::margins_to_rewards(const std::array<int, kMaxPlayers>& scores, int players) const {
  std::array<double, kMaxPlayers> out{};
  for (int p = 0; p < players; ++p) {
    int best_other = std::numeric_limits<int>::min();
    for (int q = 0; q < players; ++q)
      if (q != p) best_other = std::max(best_other, scores[q]);
    out[p] = std::tanh((scores[p] - best_other) / options_.reward_scale);
  }
  return out;
}

std::array<double, kMaxPlayers> MctsPlayer::rewards(const State& state) const {
  std::array<int, kMaxPlayers> scores{};
  for (int p = 0; p < state.num_players(); ++p) scores[p] = state.score(p);
  return margins_to_rewards(scores, state.num_players());
}

std::array<double, kMaxPlayers> MctsPlayer::rollout(State& state) {
  if (options_.leaf == MctsOptions::Leaf::kEval)
    return margins_to_rewards(state.final_scores_if_ended_now(), state.num_players());
  while (!state.is_terminal()) {
    if (state.is_chance()) {
      state.apply(Action::draw(state.sample_draw_tile(rng_.below(static_cast<uint32_t>(state.drawable_now())))));
    } else {
      state.apply(state.sample_legal_action(rng_));
    }
  }
  return rewards(state);
}

// Creates the children of `node` (all legal actions, or all tiles that can be drawn) and returns the
// first, the one this simulation goes on to.
int MctsPlayer::expand(int node, const State& state) {
  const int first = static_cast<int>(nodes_.size());
  if (state.is_chance()) {
    ChanceOutcomes outcomes;
    state.chance_outcomes(outcomes);
    for (int i = 0; i < outcomes.size; ++i) {
      Node child;
      child.action = Action::draw(outcomes.items[i].tile);
      child.tile = outcomes.items[i].tile;
      child.copies = outcomes.items[i].copies;
      nodes_.push_back(child);
    }
  } else {
    ActionList actions;
    state.legal_actions(actions);
    for (Action a : actions) {
      Node child;
      child.action = a;
      nodes_.push_back(child);
    }
  }
  Node& n = nodes_[node];
  n.expanded = true;
  n.chance = state.is_chance();
  n.first_child = first;
  n.num_children = static_cast<int>(nodes_.size()) - first;
  return n.chance ? select_child(node, state) : first;
}

// Chance: a tile drawn with its true probability. Decision: an unvisited child first, then UCT on the
// values of the player to act.
int MctsPlayer::select_child(int node, const State& state) {
  const Node& n = nodes_[node];
  if (n.chance) {
    int total = 0;
    for (int i = 0; i < n.num_children; ++i) total += nodes_[n.first_child + i].copies;
    int r = static_cast<int>(rng_.below(static_cast<uint32_t>(total)));
    for (int i = 0; i < n.num_children; ++i) {
      r -= nodes_[n.first_child + i].copies;
      if (r < 0) return n.first_child + i;
    }
    return n.first_child + n.num_children - 1;
  }
  const int p = state.current_player();
  const double log_n = std::log(static_cast<double>(std::max(1, n.visits)));
  int best = n.first_child;
  double best_score = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n.num_children; ++i) {
    const Node& c = nodes_[n.first_child + i];
    if (c.visits == 0) return n.first_child + i;
    const double score = c.value[p] / c.visits + options_.exploration * std::sqrt(log_n / c.visits);
    if (score > best_score) {
      best_score = score;
      best = n.first_child + i;
    }
  }
  return best;
}

Action MctsPlayer::choose(const State& root_state) {
  if (options_.threads <= 1) return search(root_state);
  // Root parallelism: independent workers, each with its own tree, state copies and random stream.
  std::vector<MctsPlayer> workers;
  for (int w = 0; w < options_.threads; ++w) {
    MctsOptions o = options_;
    o.threads = 1;
    o.seed = options_.seed + static_cast<uint64_t>(w) + rng_.next();
    workers.emplace_back(o);
  }
  tbb::parallel_for(0, options_.threads, [&](int w) { workers[w].search(root_state); });
  // Sum the roots (a worker whose time ran out before its first simulation has none).
  size_t base = 0;
  while (base + 1 < workers.size() && workers[base].last_root_.empty()) ++base;
  last_root_ = workers[base].last_root_;
  last_iterations_ = 0;
  for (const MctsPlayer& w : workers) last_iterations_ += w.last_iterations_;
  for (size_t w = base + 1; w < workers.size(); ++w) {
    if (workers[w].last_root_.size() != last_root_.size()) continue;
    for (size_t i = 0; i < last_root_.size(); ++i) {
      const RootChild& other = workers[w].last_root_[i];
      RootChild& mine = last_root_[i];
      const int visits = mine.visits + other.visits;
      mine.mean = visits ? (mine.mean * mine.visits + other.mean * other.visits) / visits : mine.mean;
      mine.visits = visits;
    }
  }
  nodes_ = std::move(workers[base].nodes_);  // for verify_tree: that worker's tree
  int best = -1;
  for (size_t i = 0; i < last_root_.size(); ++i)
    if (best < 0 || last_root_[i].visits > last_root_[best].visits ||
        (last_root_[i].visits == last_root_[best].visits && last_root_[i].mean > last_root_[best].mean))
      best = static_cast<int>(i);
  if (best < 0) {
    ActionList actions;
    root_state.legal_actions(actions);
    return actions[0];
  }
  return last_root_[best].action;
}

Action MctsPlayer::search(const State& root_state) {
  nodes_.clear();
  nodes_.reserve(static_cast<size_t>(std::max(1, options_.iterations)) * 8);
  nodes_.push_back(Node{});
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> path;
  int iterations = 0;
  for (;; ++iterations) {
    if (options_.iterations > 0 && iterations >= options_.iterations) break;
    if (options_.milliseconds > 0 && (iterations & 15) == 0 &&
        std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(options_.milliseconds))
      break;
    State s = root_state;
    path.assign(1, 0);
    int node = 0;
    // Descend until a node seen for the first time (the leaf), expanding the node above it.
    while (!s.is_terminal()) {
      node = nodes_[node].expanded ? select_child(node, s) : expand(node, s);
      s.apply(nodes_[node].action);
      path.push_back(node);
      if (nodes_[node].visits == 0) break;
    }
    const auto r = s.is_terminal() ? rewards(s) : rollout(s);
    for (int v : path) {
      Node& n = nodes_[v];
      ++n.visits;
      for (int p = 0; p < kMaxPlayers; ++p) n.value[p] += r[p];
    }
  }
  last_iterations_ = iterations;

  // The most visited action, ties broken by mean value.
  const int me = root_state.current_player();
  const Node& root = nodes_[0];
  last_root_.clear();
  int best = -1;
  for (int i = 0; i < root.num_children; ++i) {
    const Node& c = nodes_[root.first_child + i];
    const double mean = c.visits ? c.value[me] / c.visits : -1.0;
    last_root_.push_back(RootChild{c.action, c.visits, mean});
    if (best < 0 || c.visits > last_root_[best].visits ||
        (c.visits == last_root_[best].visits && mean > last_root_[best].mean))
      best = i;
  }
  if (best < 0) {  // no simulation ran (time budget too small): any legal action
    ActionList actions;
    root_state.legal_actions(actions);
    return actions[0];
  }
  return last_root_[best].action;
}

std::string MctsPlayer::verify_tree() const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    if (!n.expanded) {
      if (n.num_children) return "node " + std::to_string(i) + " has children but is not expanded";
      continue;
    }
    int sum = 0;
    for (int k = 0; k < n.num_children; ++k) {
      const Node& c = nodes_[n.first_child + k];
      if (c.first_child >= 0 && c.first_child <= static_cast<int>(i)) return "node " + std::to_string(i) + ": child points backwards";
      sum += c.visits;
    }
    // Every visit of an expanded node goes on to one child, except the visit that ended at it as a leaf
    // before it was expanded (never for the root).
    const int expected = n.visits - (i == 0 ? 0 : 1);
    if (sum != expected)
      return "node " + std::to_string(i) + ": children visited " + std::to_string(sum) + " times, expected " + std::to_string(expected);
  }
  return {};
}

}  // namespace meeple
