// Cult places, heretics and shrines (docs/rules.md section 5): where a building may go (S2), challenges
// started (S3) and decided (S4). The shrine sets (S5) are dealt in state.cpp; a shrine scores as a
// cloister (scoring.cpp).
#include "engine.h"

namespace meeple {

// S2: a shrine next to at most one cloister (abbeys count as cloisters) and the reverse, and no building
// may end up next to two of the other kind.
bool State::building_placement_ok(const TileType& t, CellKey cell) const {
  const bool shrine = t.segments[t.cloister].kind == SegmentKind::kShrine;
  int others = 0;
  for (int d = 0; d < 8; ++d) {
    const int j = find_cell(cell_key(key_x(cell) + kDx8[d], key_y(cell) + kDy8[d]));
    if (j < 0 || building_kind(j) != (shrine ? 1 : 2)) continue;
    if (++others > 1) return false;
    // That neighbour may not already have a building of the new tile's kind next to it.
    for (int e = 0; e < 8; ++e) {
      const int k = find_cell(cell_key(board_.tiles[j].x + kDx8[e], board_.tiles[j].y + kDy8[e]));
      if (k >= 0 && building_kind(k) == (shrine ? 2 : 1)) return false;
    }
  }
  return true;
}

// 0: no building; 1: cloister (or abbey); 2: shrine.
int State::building_kind(int tile_index) const {
  const TileType& t = cat()[board_.tiles[tile_index].type];
  if (t.cloister < 0) return 0;
  return t.segments[t.cloister].kind == SegmentKind::kShrine ? 2 : 1;
}

// S3: a follower put on a building next to an occupied building of the other kind starts a challenge
// (with challenge_own off, only against another player's follower). S2 allows at most one such neighbour.
void State::maybe_challenge(int tile_index, int player) {
  const int kind = building_kind(tile_index);
  const PlacedTile& pt = board_.tiles[tile_index];
  for (int d = 0; d < 8; ++d) {
    const int j = find_cell(cell_key(pt.x + kDx8[d], pt.y + kDy8[d]));
    // A building completed by this very tile is scored before it could be challenged [HS fn 15].
    if (j < 0 || building_kind(j) == 0 || building_kind(j) == kind || board_.tiles[j].around == 8) continue;
    const uint32_t there = followers_at(find(board_.tiles[j].node_base + cat()[board_.tiles[j].type].cloister));
    if (!there) continue;
    if (!rules_.on(Option::kChallengeOwn) && there == static_cast<uint32_t>(strength(there, player)) << (4 * player)) continue;
    board_.tiles[tile_index].rival = static_cast<uint8_t>(j);
    board_.tiles[j].rival = static_cast<uint8_t>(tile_index);
    return;
  }
}

// S4: `winner`'s building was completed first: its rival's follower returns with nothing (with
// shrine_house_rule=winner_takes_both the winner also scores the rival's building); both completed by
// the same tile, both score, each as its own completed building.
void State::end_challenge(PlacedTile& winner) {
  const TileCatalog& c = cat();
  PlacedTile& loser = board_.tiles[winner.rival];
  winner.rival = loser.rival = kNoRival;
  const int loser_index = static_cast<int>(&loser - board_.tiles.data());
  for (int i = 0; i < completed_.num_cloisters; ++i)
    if (completed_.cloisters[i] == loser_index) return;
  if (rules_.shrine_house_rule() == ShrineHouseRule::kWinnerTakesBoth)
    score_feature(winner.node_base + c[winner.type].cloister, 1 + loser.around, kBonusPoints, false);
  return_figures(loser.node_base + c[loser.type].cloister, false);  // W4: a losing wagon does not move
}

}  // namespace meeple
