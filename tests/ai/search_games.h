// Whole games between two searches, for tests of reproducibility.
#pragma once

#include <cstdint>
#include <vector>

#include "meeple/ai/mcts.h"
#include "meeple/random.h"

namespace meeple {

// Plays a game of `rules` (2 players: `a` in seat 0, `b` in seat 1, tiles from Dealer(dealer_seed)),
// appending each decision's root visits to `visits`; returns score(0) * 1000 + score(1).
inline int play_recording_visits(const Rules& rules, MctsPlayer& a, MctsPlayer& b, uint64_t dealer_seed,
                                 std::vector<std::vector<int>>& visits) {
  Dealer dealer(dealer_seed);
  State s(rules);
  while (!s.is_terminal()) {
    MctsPlayer* bot = s.current_player() == 0 ? &a : &b;
    const Action act = s.is_chance() ? dealer.deal(s) : bot->choose(s);
    if (!s.is_chance()) {
      visits.emplace_back();
      for (const auto& c : bot->last_root()) visits.back().push_back(c.visits);
    }
    s.apply(act);
    a.observe(act);
    b.observe(act);
  }
  return s.score(0) * 1000 + s.score(1);
}

}  // namespace meeple
