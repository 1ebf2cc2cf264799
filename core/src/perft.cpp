#include "meeple/perft.h"

#include <utility>

#include "meeple/random.h"

namespace meeple {

std::vector<int> seeded_draw_order(const State& initial, uint64_t seed) {
  Dealer dealer(seed);
  const int n = dealer.shuffle(initial);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = dealer.order(i);
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
