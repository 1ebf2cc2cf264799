// Positions for benchmarks, collected from seeded random games so every run measures the same ones.
#pragma once

#include <vector>

#include "meeple/ai/player.h"
#include "meeple/random.h"

namespace meeple {

inline Rules rules_for(uint8_t expansions, int players = 2) {
  Rules r;
  r.players = static_cast<uint8_t>(players);
  r.expansions = expansions;
  return r;
}

// Positions with a tile in hand: every placement decision of 20 random games.
inline std::vector<State> placement_positions(uint8_t expansions, int players = 2) {
  std::vector<State> out;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Dealer dealer(seed);
    RandomPlayer bot(seed);
    State s(rules_for(expansions, players));
    while (!s.is_terminal()) {
      if (s.phase() == Phase::kPlace) out.push_back(s);
      s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
    }
  }
  return out;
}

}  // namespace meeple
