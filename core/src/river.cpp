// The River II (docs/rules.md section 2): the piles tiles are drawn from (R2) and where a river tile may go
// (R3-R5). The spring's place is set up in state.cpp; the volcano (R7) is in the deploys (moves.cpp) and
// the pig herd (R8) in farm scoring (scoring.cpp).
#include <stdexcept>

#include "engine.h"

namespace meeple {

namespace {
const PileTable& pile_table() {
  static const PileTable table;
  return table;
}
}  // namespace

engine::PileTable::PileTable() {
  for (const TileType& t : cat().tiles()) {
    if (t.index >= kMaxTileTypes) throw std::logic_error("more tile types than kMaxTileTypes");
    pile[t.index] = t.has(kFlagFork) ? kForkPile
                    : t.has(kFlagLake) ? kLakePile
                    : (t.river && !t.has(kFlagSpring)) ? kRiverPile : kNormalPile;
    members[pile[t.index]].push_back(t.index);
  }
}

// Resolved at start-up: the table is read on every draw (a function-local static checks a guard each time).
const PileTable& engine::kPiles = pile_table();

int State::draw_pile(int tile) { return kPiles.pile[tile]; }
std::span<const uint8_t> State::pile_members(int pile) { return kPiles.members[pile]; }

bool State::river_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const {
  // R3/R5: the tile continues exactly one open river mouth (joining two would join the branches).
  int mouths = 0, in = -1;
  for (int e = 0; e < 4; ++e) {
    if (((req >> (4 * e)) & kNibble) == static_cast<uint16_t>(EdgeKind::kRiver)) ++mouths, in = e;
  }
  if (mouths != 1) return false;
  // R4: no curve turning the same way as the previous tile of the branch.
  const uint16_t word = t.rot[rotation].edge_word;
  int outs = 0, out = -1;
  for (int e = 0; e < 4; ++e) {
    if (e != in && ((word >> (4 * e)) & kNibble) == static_cast<uint16_t>(EdgeKind::kRiver)) ++outs, out = e;
  }
  if (outs != 1) return true;
  const int turn_new = (out - kOpposite(in)) & 3;
  if (turn_new == 0) return true;
  const PlacedTile& prev = board_.tiles[find_cell(neighbour(cell, in))];
  const int turn_prev = prev.river_in == 4 ? 0 : (kOpposite(in) - kOpposite(prev.river_in)) & 3;
  return turn_new != turn_prev;
}

}  // namespace meeple
