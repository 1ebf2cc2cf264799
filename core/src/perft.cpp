#include "meeple/perft.h"

#include <utility>

#include "meeple/random.h"

namespace meeple {

std::vector<int> seeded_draw_order(const State& initial, uint64_t seed) {
  Rng rng(seed);
  std::vector<int> order;
  for (int pile : State::kPileOrder) {
    const size_t first = order.size();
    for (int t = 0; t < TileCatalog::get().size(); ++t)
      if (State::draw_pile(t) == pile) order.insert(order.end(), initial.remaining(t), t);
    for (size_t i = order.size(); i > first + 1; --i)  // Fisher-Yates over this pile
      std::swap(order[i - 1], order[first + rng.below(static_cast<uint32_t>(i - first))]);
  }
  return order;
}

namespace {

void walk(State& s, const std::vector<int>& order, int ply, int depth, std::vector<uint64_t>& counts) {
  while (s.is_chance()) s.apply(Action::draw(order[order.size() - s.tiles_left()]));
  if (ply == depth || s.is_terminal()) return;
  ActionList actions;
  s.legal_actions(actions);
  counts[ply] += static_cast<uint64_t>(actions.size);
  if (ply + 1 == depth) return;
  for (Action a : actions) {
    State next = s;
    next.apply(a);
    walk(next, order, ply + 1, depth, counts);
  }
}

}  // namespace

std::vector<uint64_t> perft(const State& root, const std::vector<int>& draw_order, int depth) {
  std::vector<uint64_t> counts(depth, 0);
  State s = root;
  walk(s, draw_order, 0, depth, counts);
  return counts;
}

}  // namespace meeple
