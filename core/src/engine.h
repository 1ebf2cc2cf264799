// Helpers shared by the files that implement State (turn.cpp the turn and its table of phases,
// state.cpp setup and chance, board.cpp the board and features, moves.cpp placements and deploys,
// scoring.cpp base scoring, and one file per expansion). Not installed: the public API is meeple/state.h.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "meeple/state.h"

namespace meeple::engine {

inline const TileCatalog& cat() { return TileCatalog::get(); }

// The 8 squares around a cell, clockwise from the north-west: the neighbour across edge e is 2e + 1.
inline constexpr int kDx8[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
inline constexpr int kDy8[8] = {-1, -1, -1, 0, 1, 1, 1, 0};

inline constexpr uint32_t kNibble = 0xF;

// Figure strength of a player in a feature's packed follower word (4 bits a player).
inline int strength(uint32_t packed, int player) { return static_cast<int>((packed >> (4 * player)) & kNibble); }

// A set of feature nodes as bits: de-duplicates roots without searching a list.
class NodeSet {
 public:
  // Adds node n when `when` holds; returns 1 if that added it (it was not in the set), else 0.
  int add(unsigned n, bool when = true) {
    const uint64_t bit = static_cast<uint64_t>(when) << (n % 64);
    const uint64_t fresh = bit & ~words_[n / 64];
    words_[n / 64] |= bit;
    return fresh != 0;
  }
  bool has(unsigned n) const { return (words_[n / 64] >> (n % 64)) & 1; }

 private:
  std::array<uint64_t, (kMaxNodes + 63) / 64> words_{};
};

// Piles tiles are drawn from, in order: with the River II the fork comes first, then the river tiles,
// then the volcano lake; normal tiles follow when those are empty (R2; river.cpp).
enum Pile : int { kNormalPile = 0, kForkPile = 1, kRiverPile = 2, kLakePile = 3 };
struct PileTable {
  PileTable();
  std::array<uint8_t, kMaxTileTypes> pile{};
  std::array<std::vector<uint8_t>, 4> members;  // tile types of each pile, ascending
};
extern const PileTable& kPiles;

// Cities and roads: the features scored by their tiles when their last open edge closes.
inline bool is_scored_linear(SegmentKind k) { return k == SegmentKind::kCity || k == SegmentKind::kRoad; }

}  // namespace meeple::engine

namespace meeple {
using namespace engine;  // NOLINT: these helpers read as part of the engine's vocabulary
}
