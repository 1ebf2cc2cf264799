// Perft: counts of the game tree below a position, as chess engines count move-generation paths.
//
// Chance nodes do not branch: the k-th draw of every line is the k-th tile of one fixed draw order (a
// seeded shuffle of the piles; a tile that fits nowhere is discarded as in B4 and the next one is drawn).
// Decision nodes branch over all legal actions. perft(state, order, d) returns, for each depth 1..d, the
// number of action sequences of that many decisions.
#pragma once

#include <cstdint>
#include <vector>

#include "meeple/state.h"

namespace meeple {

// The draw order of a seeded game from `initial`: fork first, river tiles shuffled, lake, then the normal
// tiles shuffled.
std::vector<int> seeded_draw_order(const State& initial, uint64_t seed);

std::vector<uint64_t> perft(const State& root, const std::vector<int>& draw_order, int depth);

}  // namespace meeple
